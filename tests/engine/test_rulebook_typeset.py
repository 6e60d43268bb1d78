"""The rulebook typesetter and every game's printed rulebook, read back from the PDFs.

1. the markup: a typo (an unknown value, figure or directive, a lone brace, an unclosed '*', a
   table row of the wrong width) is a UsageError naming the file and line, never print;
2. the booklet's imposition: every page once, each sheet side a pair that reads in order when the
   stack is folded;
3. every game that declares a rulebook: both PDFs on A4 and Letter, every text >= 8 pt, no two
   text lines overlapping, everything >= 6.35 mm inside the paper, every page in colour, greyscale
   and ink-saver, the quick reference on one page of rulebook.pdf, and the how-to-print page.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tubedeck.errors import UsageError
from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator import PrintOptions, Rect, render
from tubedeck.generator.rulebook import (
    MIN_RULEBOOK_PT,
    Figure,
    Rulebook,
    booklet_format,
    booklet_order,
    bring,
    documents,
    lay_out,
    plain,
    sheet_format,
)
from tubedeck.generator.sizes import MM, PRINTER_MARGIN

SAMPLE = """# A Game
2-4 players \u00b7 20 minutes

## Components
| Component | Count |
|---|---|
| Cards | {cards} |

### What to bring
- Two six-sided dice.
- A pencil.

## Setup
Deal **{hand}** cards to each player; the rest are the *draw pile*.

[figure setup]

1. Draw a card.
2. Play a card.

> **Our ruling.** The text is silent on an empty draw pile: the discards are shuffled into a new one.

[quickref]
## Quick reference
- Draw, play.
"""


def _figure(pen, box: Rect) -> None:
    pen.rect(box.x, box.y, box.w, box.h, stroke="#000000", width=0.3)
    pen.text(box.x + 2, box.y + 2, "a figure", size=8)


def sample(text: str = SAMPLE, **values) -> Rulebook:
    return Rulebook("sample", "A Game", text, {"cards": 40, "hand": 5, **values},
                    {"setup": Figure(_figure, 0.5, "A seeded deal.")})


# -- 1. the markup ---------------------------------------------------------------------------------
def test_plain_text_substitutes_values_and_keeps_structure():
    text = plain(sample())
    assert "Cards | 40" in text
    assert "Deal 5 cards to each player; the rest are the draw pile." in text
    assert "[figure setup] A seeded deal." in text
    assert text.splitlines()[1] == "2-4 players \u00b7 20 minutes"
    assert bring(sample()) == ["Two six-sided dice.", "A pencil."]


@pytest.mark.parametrize("line, says", [
    ("Deal {nope} cards.", "unknown value {nope}"),
    ("[figure nothere]", "unknown figure 'nothere'"),
    ("[pagee]", "unknown directive"),
    ("A lone { brace.", "a lone '{'"),
    ("An **unclosed marker.", "unclosed"),
    ("| a | b | c |", "3 cells where the table's header has 2"),
    ("#### Too deep", "headings are"),
])
def test_a_typo_is_refused_with_its_line(line, says):
    source = SAMPLE.replace("Deal **{hand}** cards", line + "\n\nDeal **{hand}** cards") \
        if not line.startswith("|") else SAMPLE.replace("| Cards | {cards} |", "| Cards | {cards} |\n" + line)
    with pytest.raises(UsageError) as err:
        plain(sample(source))
    assert says in str(err.value)
    wanted = next(i for i, t in enumerate(source.splitlines(), 1) if t == line)
    assert f"rulebook.md line {wanted}" in str(err.value)


def test_braces_print_when_doubled():
    assert "{this}" in plain(sample(SAMPLE.replace("A pencil.", "A pencil {{this}}.")))


# -- 2. the booklet ----------------------------------------------------------------------------------
@pytest.mark.parametrize("pages", range(1, 23))
def test_booklet_order_folds_into_reading_order(pages):
    sides = booklet_order(pages)
    assert len(sides) % 2 == 0 and len(sides) * 2 - 4 < pages <= len(sides) * 2
    sheets = [(sides[k], sides[k + 1]) for k in range(0, len(sides), 2)]  # (front, back), outermost first
    # Fold the stack in half, outermost sheet first, and read it: each sheet's front right half, its
    # back's left half, inwards; then, outwards again, each back's right half and its front's left half.
    read = [p for front, back in sheets for p in (front[1], back[0])]
    read += [p for front, back in reversed(sheets) for p in (back[1], front[0])]
    assert read[:pages] == list(range(pages))
    assert all(p is None for p in read[pages:])


# -- 3. every game's rulebook ----------------------------------------------------------------------------
def books() -> list[str]:
    return [g.id for g in registry().values() if g.rulebook]


def text_spans(page):
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if span["text"].strip():
                    yield span


def check_pdf(path: Path) -> pymupdf.Document:
    doc = pymupdf.open(path)
    for number, page in enumerate(doc, 1):
        spans = list(text_spans(page))
        small = [(s["text"], round(s["size"], 2)) for s in spans if s["size"] < MIN_RULEBOOK_PT - 0.01]
        assert not small, f"{path.name} page {number}: text under {MIN_RULEBOOK_PT} pt: {small[:3]}"
        edge = PRINTER_MARGIN * MM - 0.5
        for s in spans:
            x0, y0, x1, y1 = s["bbox"]
            assert x0 >= edge and y0 >= edge and x1 <= page.rect.width - edge and y1 <= page.rect.height - edge, \
                f"{path.name} page {number}: {s['text']!r} within 6.35 mm of the paper's edge"
        lines = [pymupdf.Rect(s["bbox"]) for s in spans]
        for i, a in enumerate(lines):
            for b in lines[i + 1:]:
                inter = a & b
                if not inter.is_empty and inter.width > 0.8 and inter.height > 0.35 * min(a.height, b.height):
                    raise AssertionError(f"{path.name} page {number}: text over text at {a} and {b}")
    return doc


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[tuple[str, str], Path]:
    out: dict[tuple[str, str], Path] = {}
    for paper in ("a4", "letter"):
        options = PrintOptions.parse(paper=paper)
        for gid in books() + ["sample"]:
            if gid == "sample":
                book = sample()
            else:
                game = registry()[gid]
                book = resolve(game.rulebook)(edition(game), options)
            root = tmp_path_factory.mktemp(f"{gid}-{paper}")
            render(documents(book, options), options, root / gid)
            out[(gid, paper)] = root / gid
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("gid", books() + ["sample"])
def test_rulebook_pdfs_read_cleanly(built, gid, paper):
    folder = built[(gid, paper)]
    book = check_pdf(folder / "rulebook.pdf")
    booklet = check_pdf(folder / "rulebook-booklet.pdf")
    assert booklet[0].rect.width > booklet[0].rect.height  # imposed on landscape sheets
    assert booklet.page_count % 2 == 0
    assert "DuplexFlipShortEdge" in booklet.xref_get_key(booklet.pdf_catalog(), "ViewerPreferences/Duplex")[1]
    assert book[0].rect.width < book[0].rect.height
    # the quick reference is one page of rulebook.pdf: its footer is on the last page only
    quick = [i for i, page in enumerate(book) if "Quick reference" in page.get_text()]
    assert quick, "no quick reference"
    assert quick == [book.page_count - 1], f"the quick reference runs over pages {quick}"


@pytest.mark.parametrize("gid", books() + ["sample"])
def test_every_page_renders_in_every_mode(gid, tmp_path):
    for mode in ("greyscale", "ink-saver"):
        options = PrintOptions.parse(mode=mode)
        book = sample() if gid == "sample" else resolve(registry()[gid].rulebook)(edition(registry()[gid]), options)
        render(documents(book, options), options, tmp_path / mode / gid)
        with pymupdf.open(tmp_path / mode / gid / "rulebook.pdf") as doc:
            for page in doc:
                pix = page.get_pixmap(dpi=20)
                assert any(b < 200 for b in pix.samples), f"{gid} {mode}: a blank page"


def test_the_booklet_is_half_the_sheet_and_one_column():
    a4 = booklet_format(PrintOptions.parse(paper="a4").paper)
    assert abs(a4.width - 297 / 2) < 0.01 and abs(a4.height - 210) < 0.01 and a4.style.columns == 1
    assert sheet_format(PrintOptions.parse(paper="letter").paper).style.columns == 2
    laid = lay_out(sample(), a4)
    assert laid.pages[0] == ()  # the cover
    assert laid.quickref == laid.count - 1
