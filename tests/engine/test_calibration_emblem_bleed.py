"""Issue 27 item 15, read back from the PDFs: the calibration sheet's scale numbers are at least
6 pt and clear of each other, the card-back emblem has no ring (so no ring crossed by a bar: the
Underground roundel is not ours to recall), and --bleed says what it takes and refuses the rest."""

from __future__ import annotations

import pymupdf
import pytest

from tubedeck.generator.engine import render
from tubedeck.generator.options import PrintOptions

from conftest import run_cli as run

MM = 72 / 25.4


def spans(page: pymupdf.Page):
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                if span["text"].strip():
                    yield span


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_numbers_are_at_least_6pt_and_apart(tmp_path, paper):
    from tubedeck.generator.calibration import SCALE, calibration_sheet

    options = PrintOptions.parse(paper=paper)
    render([calibration_sheet(options)], options, tmp_path / "cal")
    doc = pymupdf.open(tmp_path / "cal" / "calibration.pdf")
    sizes = [span["size"] for page in doc for span in spans(page)]
    assert min(sizes) >= 6 - 1e-6, min(sizes)
    back = list(spans(doc[1]))
    numbers = [s for s in back if s["text"].strip().lstrip("-").isdigit() and s["color"] == 0x0019A8]  # the scales
    # five scales, each numbered every 4 mm on both axes: -8, -4, 4, 8
    assert sorted(int(s["text"]) for s in numbers) == sorted([-8, -4, 4, 8] * 2 * 5)
    assert all(abs(int(s["text"])) <= SCALE for s in numbers)
    boxes = [pymupdf.Rect(s["bbox"]) for s in back]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert (a & b).is_empty or (a & b).get_area() < 0.01, (a, b)  # no two labels overlap


# -- the emblem ---------------------------------------------------------------------------------
def round_shapes(page: pymupdf.Page) -> list[pymupdf.Rect]:
    """Paths made only of curves: circles, ellipses and rings (a rounded rectangle has lines too)."""
    return [d["rect"] for d in page.get_drawings() if d["items"] and all(i[0] == "c" for i in d["items"])]


def bars_across(page: pymupdf.Page, ring: pymupdf.Rect) -> list[pymupdf.Rect]:
    """Long horizontal shapes that cross ``ring`` through its centre and out both sides."""
    cy = (ring.y0 + ring.y1) / 2
    return [d["rect"] for d in page.get_drawings()
            if d["rect"].width > 2 * d["rect"].height and d["rect"].y0 < cy < d["rect"].y1
            and d["rect"].x0 < ring.x0 and d["rect"].x1 > ring.x1]


def roundel_marks(page: pymupdf.Page) -> list[tuple]:
    return [(r, b) for r in round_shapes(page) for b in bars_across(page, r)]


def test_the_measure_finds_a_roundel():
    doc = pymupdf.open()
    page = doc.new_page(width=63.5 * MM, height=88.9 * MM)
    page.draw_circle((31.75 * MM, 44 * MM), 12 * MM, color=(1, 0, 0), width=4 * MM)
    page.draw_rect(pymupdf.Rect(12 * MM, 40 * MM, 51 * MM, 48 * MM), fill=(0, 0, 1), color=None)
    assert round_shapes(page) and roundel_marks(page)


# The KLM backs that carry the emblem: the Station and Fortune backs are one flat colour since the
# print review (duplex drift; tests/klm/test_klm_print_review.py), the reference back keeps it.
MARKED = ("reference",)


@pytest.mark.parametrize("card", ["poker", "mini"])
def test_card_backs_carry_no_ring(tmp_path, capsys, card):
    code, _, err = run(capsys, "build", "klm", "--card", card, "--export", "cards", "--out", str(tmp_path))
    assert code == 0, err
    checked = 0
    for name in MARKED:
        doc = pymupdf.open(tmp_path / "klm" / f"{name}-cards.pdf")
        back = doc[1]
        assert "KEEP LONDON" in back.get_text()  # it is a back
        assert not round_shapes(back), name  # no ring, no disc: nothing to cross
        assert not roundel_marks(back)
        filled = [d for d in back.get_drawings() if d.get("fill") is not None or d.get("color") is not None]
        assert len(filled) >= 4  # the mark was drawn (tile, route, ticks, plate)
        checked += 1
    assert checked == len(MARKED)


# -- --bleed ------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["7", "-1", "nan"])
def test_bleed_refuses_what_it_cannot_honour(tmp_path, capsys, value):
    code, out, err = run(capsys, "build", "klm", "--bleed", value, "--out", str(tmp_path / "o"))
    assert code == 2
    assert "--bleed" in err and "0 to 6" in err or "finite" in err or "number" in err, err
    assert not (tmp_path / "o" / "klm").exists()


def test_bleed_help_says_what_it_takes(capsys):
    code, out, _ = run(capsys, "build", "klm", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "Bleed in mm, 0 to 6" in text and "0 or 3" not in text
    assert PrintOptions.parse(bleed=4.5).bleed == 4.5  # what the help allows is honoured


def contrast(rgb: tuple[float, ...], other: tuple[float, ...] = (1.0, 1.0, 1.0)) -> float:
    def lum(c):
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c[:3]]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    a, b = sorted((lum(rgb), lum(other)))
    return (b + 0.05) / (a + 0.05)


def test_ink_saver_backs_keep_the_mark_at_3_to_1(tmp_path, capsys):
    """Ink-saver backs are paper, not filled: every stroke of the mark, and every filled shape
    that is not a plate under a word, reads at 3:1 or more on white (the mark's station ticks were
    filled shapes, paled to 1.5:1 there; they are strokes now)."""
    code, _, err = run(capsys, "build", "klm", "--mode", "ink-saver", "--export", "cards", "--out", str(tmp_path))
    assert code == 0, err
    for name in MARKED:
        back = pymupdf.open(tmp_path / "klm" / f"{name}-cards.pdf")[1]
        words = [pymupdf.Rect(s["bbox"]) for s in spans(back)]
        seen = 0
        page = back.rect
        for d in back.get_drawings():
            if d["rect"].width > 0.6 * page.width and d["rect"].height > 0.6 * page.height:
                continue  # the card's frame, in the deck's colour: a border, not the mark
            if d.get("color") is not None and d.get("width"):
                assert contrast(d["color"]) >= 3, (name, d["color"], d["rect"])
                seen += 1
            fill = d.get("fill")
            if fill is not None and not any(d["rect"].contains(w) for w in words) and fill != (1.0, 1.0, 1.0):
                assert contrast(fill) >= 3, (name, fill, d["rect"])
        assert seen >= 3, name


# TfL's word marks that a card title once used ("Oyster Top-Up", "Mind the Gap": a fresh-eyes
# review of the Fortune deck); the data every game prints from names none of them.
WORD_MARKS = ("oyster", "mind the gap")


def test_no_data_file_prints_a_tfl_word_mark():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "data"
    found = [(p.relative_to(root).as_posix(), mark) for p in sorted(root.rglob("*"))
             if p.suffix in (".csv", ".toml", ".txt") for mark in WORD_MARKS if mark in p.read_text().lower()]
    assert found == []
