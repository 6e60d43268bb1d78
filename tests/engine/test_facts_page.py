"""``build GAME --facts``: the deck-facts page (generator/report/facts.py's figures, flowed by
generator/report) holds every figure whole, in its column, and no text runs into another: the PDF's
text boxes are read back (a label ran over its value on 4 rows of a Keep London Moving check's page,
and its record's description was cut off after "playing alon")."""

from __future__ import annotations

import contextlib
import io
import itertools
import re
from pathlib import Path

import pytest

pymupdf = pytest.importorskip("pymupdf")


MM = 72 / 25.4
TOUCH = 0.3  # pt: two boxes may touch this much (rounding), never more
RUNS = {  # a check and a simulation: the long record descriptions and labels of each
    "klm-check": ["check", "klm", "--deals", "6"],
    "klm-simulate": ["simulate", "klm", "--games", "4", "--players", "3", "--bots", "greedy,lookahead,random"],
    "oneday-check": ["check", "oneday", "--deals", "2"],
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each run's results file and its deck-facts.pdf pages: (spans, text, page rect)."""
    from tubedeck.cli import main

    root = tmp_path_factory.mktemp("facts")
    out = {}
    for name, args in RUNS.items():
        results = root / f"{name}.jsonl"
        built = root / name
        for argv in ([*args, "--results", str(results), "--no-progress", "--json"],
                     ["build", args[1], "--facts-from", str(results), "--export", "pdf", "--out", str(built), "--json"]):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                try:
                    main(argv)
                except SystemExit as exc:
                    assert exc.code in (0, None), (argv, exc.code)
        with pymupdf.open(built / args[1] / "deck-facts.pdf") as pdf:
            out[name] = (results, [(_spans(p), p.get_text(), p.rect) for p in pdf])
    return out


def _spans(page) -> list[tuple[str, float, tuple, str]]:
    """(text, size, box, font) of every text span on the page."""
    return [(s["text"], s["size"], tuple(s["bbox"]), s["font"]) for b in page.get_text("dict")["blocks"]
            for line in b.get("lines", ()) for s in line["spans"] if s["text"].strip()]


def overlaps(a, b, touch: float = TOUCH) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > touch and min(a[3], b[3]) - max(a[1], b[1]) > touch


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", list(RUNS))
def test_no_text_box_runs_into_another(pages, name):
    for n, (spans, _, _) in enumerate(pages[name][1], 1):
        clashes = [(s, t) for (s, _, a, _), (t, _, b, _) in itertools.combinations(spans, 2) if overlaps(a, b)]
        assert not clashes, f"{name} page {n}: {clashes[:5]}"


@pytest.mark.parametrize("name", list(RUNS))
def test_every_figure_stays_in_its_column_and_on_the_page(pages, name):
    """A figure's label ends before its value's column begins (a label wider than its column
    wraps), values stay in theirs, and no text of the figures reaches past the printable area
    (6.35 mm from any edge) or is under 7 pt (the ruler's strip at the foot is the engine's own)."""
    from tubedeck.generator.report import COLUMN_GAP, FACTS_PAPER, KEY_SHARE, text_area
    from tubedeck.generator.ruler import SHEET_STRIP

    area = text_area(FACTS_PAPER)
    left = area.x * MM
    value_x = (area.x + area.w * KEY_SHARE + COLUMN_GAP) * MM
    rows = 0
    for n, (spans, _, rect) in enumerate(pages[name][1], 1):
        foot = rect.height - (6.35 + SHEET_STRIP) * MM  # the ruler strip below
        for text, size, (x0, y0, x1, y1), font in spans:
            assert 6.35 * MM - 0.5 <= x0 and x1 <= rect.width - 6.35 * MM + 0.5, (name, n, text, x0, x1)
            assert 6.35 * MM - 0.5 <= y0 and y1 <= rect.height - 6.35 * MM + 0.5, (name, n, text, y0, y1)
            if y1 > foot:
                continue
            assert size >= 7.0 - 1e-6, (name, n, text, size)
            if "bold" in font.lower() or size > 8.5:
                continue  # a title or heading: the whole width is its own
            if abs(x0 - left) < 1.0:  # a figure's label
                rows += 1
                assert x1 <= value_x - COLUMN_GAP * MM / 2, f"{name} page {n}: {text!r} runs into its value"
            else:  # a value, in its own column
                assert x0 >= value_x - 1.0, f"{name} page {n}: {text!r} starts left of the value column"
    assert rows > 15


@pytest.mark.parametrize("name", list(RUNS))
def test_every_figure_and_value_is_whole_on_the_page(pages, name):
    """Every run row and headline row of the file, label and value, is on the pages word for word:
    none cut short ("... playing alon")."""
    from tubedeck.games import record_schema
    from tubedeck.generator.report import header_rows
    from tubedeck.generator.report.facts import read_facts

    results, pdf = pages[name]
    facts = read_facts(Path(results), record_schema)
    text = words(" ".join(t for _, t, _ in pdf))
    rows = header_rows(facts) + facts.headline()
    assert len(rows) > 15
    for k, v in rows:
        for part in (k, v):
            assert words(part) in text, f"{name}: {part!r} is not on the page whole"
    assert "playing alone on the deal's cards" in text or not name.startswith("klm-check")
    assert re.search(r"Deck facts: \w+ · (check|simulate)", text)
