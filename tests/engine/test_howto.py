"""The how-to-print pages: each game's README.pdf and OUT/README.pdf, read back from a real build.

Every PDF the build wrote is listed once with its true page count; an alternative (the booklet,
Keep Moving's fold-over ground cards) says which file it replaces and is counted once; the
"What to bring" list is the rulebook's own; OUT/README.pdf lists the folder the same way.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator import PrintOptions
from tubedeck.generator.howto import minutes
from tubedeck.generator.rulebook import bring


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("howto")
    from tubedeck.cli import main

    try:
        code = main(["build", "keepmoving", "--out", str(out), "--json"])
    except SystemExit as exc:  # typer's way of saying done
        code = exc.code or 0
    assert code == 0
    return out


def text_of(path: Path) -> str:
    with pymupdf.open(path) as doc:
        return " ".join(" ".join(page.get_text().split()) for page in doc)


def test_the_games_readme_lists_every_pdf_with_its_pages(built):
    folder = built / "keepmoving"
    text = text_of(folder / "README.pdf")
    pdfs = sorted(p for p in folder.glob("*.pdf") if p.name != "README.pdf")
    total = 0
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            pages = doc.page_count
        assert re.search(rf"{re.escape(pdf.name)} {pages} ", text), pdf.name
        if pdf.name not in ("rulebook-booklet.pdf", "ground-fold.pdf"):
            total += pages
    assert "instead of rulebook.pdf" in text and "instead of ground.pdf" in text
    assert f"{total} printed pages" in text  # each alternative counted once
    cards = int(re.search(r"(\d+) cards to cut", text).group(1))
    assert f"about {minutes(cards)} minutes" in text
    assert "calibration.pdf" not in text  # no file the folder does not hold


def test_what_to_bring_is_the_rulebooks_own(built):
    game = registry()["keepmoving"]
    book = resolve(game.rulebook)(edition(game), PrintOptions.parse())
    text = text_of(built / "keepmoving" / "README.pdf")
    items = bring(book)
    assert items and all(" ".join(item.split()) in text for item in items)


def test_the_index_lists_the_folder(built):
    text = text_of(built / "README.pdf")
    assert "Keep Moving (keepmoving/)" in text
    for pdf in (built / "keepmoving").glob("*.pdf"):
        if pdf.name != "README.pdf":
            assert pdf.name in text
    assert "single-sided; or instead of ground.pdf" in text
    assert "short-edge flip; or instead of rulebook.pdf" in text
