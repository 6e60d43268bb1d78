"""Keep Moving after a fresh-eyes print review, read back from the built PDFs:

* every text on a ground card's plates sits 1.5 mm or more inside the plate's outline, at 7 pt or more;
* a function card's figure frame keeps 1.5 mm from the edge of the card's paper panel;
* the one back of every movement and function card looks the same printed 1.5 mm off (duplex
  drift) and cut 1 mm off: function cards print as their own job, which may drift its own way, and
  are shuffled into the movement piles.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from engine.drift import DRIFTS, back_colours

from tubedeck import generator
from tubedeck.generator.keepmoving.faces import PILE_COLOUR, documents
from tubedeck.generator.pdf import deck_sheets_pdf
from tubedeck.generator.sizes import MM

from km_helpers import EDITION

CLEAR = 1.5  # mm: the print bar between text or a symbol and the frame it sits in
TOL = 0.005  # mm


def _build(tmp_path: Path, names: tuple[str, ...], **options) -> Path:
    opts = generator.PrintOptions.parse(**{"export": "pdf", **options})
    generator.render([d for d in documents(EDITION, opts) if d.name in names], opts, tmp_path)
    return tmp_path


def _spans(page) -> list[dict]:
    return [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]
            if s["text"].strip()]


def plate_margins(path: Path) -> list[tuple[float, float, str]]:
    """(mm from the plate's outline to the text, size, text) of every span on a white plate: a
    white shape outlined 0.3 mm wide, the span's centre inside it, measured from the line's inner edge."""
    out = []
    with pymupdf.open(path) as pdf:
        for page in pdf:
            plates = [(d["rect"], d["width"]) for d in page.get_drawings()
                      if d.get("fill") and min(d["fill"]) > 0.97 and d.get("color") and d.get("width")
                      and abs(d["width"] / MM - 0.3) < 0.01]
            for s in _spans(page):
                r = pymupdf.Rect(s["bbox"])
                for p, w in plates:
                    if p.contains((r.tl + r.br) / 2):
                        gap = min(r.x0 - p.x0, p.x1 - r.x1, r.y0 - p.y0, p.y1 - r.y1) - w / 2
                        out.append((gap / MM, s["size"], s["text"]))
    return out


@pytest.mark.parametrize("card", ["poker", "mini-landscape"])  # the default, and the size whose plates grow
def test_ground_plate_text_keeps_1_5_mm_inside_its_plate(tmp_path, card):
    """Review: "Enter: nothing. Draw a function card." sat 0.88 mm from both ends of its plate (g09, g10)."""
    found = plate_margins(_build(tmp_path, ("ground",), card=card) / "ground.pdf")
    printed = " ".join(text for _, _, text in found)
    assert all(f"ground {n} \u00b7 {s}" in printed for n in range(1, len(EDITION.ground) + 1) for s in "AB")
    gap, size, text = min(found)
    assert gap >= CLEAR - TOL, f"{card}: {text!r} {gap:.2f} mm from its plate's outline"
    assert min(size for _, size, _ in found) >= 7.0 - 1e-3


def frame_gaps(path: Path) -> list[float]:
    """mm from each function card's figure frame (a 0.8 mm line, no fill) to the nearest edge of
    the paper panel it sits on, from the line's outer edge."""
    paper = tuple(int("F7F4EC"[i:i + 2], 16) / 255 for i in (0, 2, 4))
    out = []
    with pymupdf.open(path) as pdf:
        for page in pdf:
            drawings = page.get_drawings()
            panels = [d["rect"] for d in drawings
                      if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], paper))]
            for d in drawings:
                if d.get("fill") or not d.get("width") or abs(d["width"] / MM - 0.8) > 0.01:
                    continue
                f, half = d["rect"], d["width"] / 2
                panel = next(p for p in panels if p.contains(f))
                out.append(min(f.x0 - half - panel.x0, panel.x1 - f.x1 - half,
                               f.y0 - half - panel.y0, panel.y1 - f.y1 - half) / MM)
    return out


def test_function_figure_frames_keep_1_5_mm_from_the_panel(tmp_path):
    """Review: the frame round the figure was 1.1 mm from the panel's bottom edge on all 16 cards."""
    gaps = frame_gaps(_build(tmp_path, ("function",)) / "function.pdf")
    assert len(gaps) == len(EDITION.function_deck)
    assert min(gaps) >= CLEAR - TOL, f"a frame {min(gaps):.2f} mm from its panel's edge"


def pile_back_colours(options: generator.PrintOptions, nominal) -> tuple[int, set[tuple[int, ...]]]:
    """The movement and function decks' backs built with ``options`` (its back_offset the drift),
    read by the shared :func:`drift.back_colours`."""
    count, seen = 0, set()
    for deck in (d for d in documents(EDITION, options) if d.name in ("movement", "function")):
        data, _, _ = deck_sheets_pdf(deck, options)
        n, colours = back_colours(data, nominal, range(len(deck.printed())))
        count, seen = count + n, seen | colours
    return count, seen


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_pile_backs_look_the_same_under_a_1_5_mm_duplex_drift(duplex):
    """Review: the backs were a panel 3 mm inside the trim; a 1.5 mm drift left 1.5 mm of paper on
    one side and 4.5 mm on the other, so cards from a job that drifted its own way stood out. Now
    every pixel of every back, drifted 1.5 mm either way each way and cut 1 mm off, is the pile's colour."""
    base = generator.PrintOptions.parse(export="pdf", duplex=duplex)
    nominal = next(deck_sheets_pdf(d, base)[2] for d in documents(EDITION, base) if d.name == "function")
    pile = tuple(int(PILE_COLOUR[i:i + 2], 16) for i in (1, 3, 5))
    for dx, dy in DRIFTS:
        count, seen = pile_back_colours(base.with_(back_offset=(dx, dy)), nominal)
        assert count == 2 * len(EDITION.movement_set) + len(EDITION.function_deck)
        assert all(max(abs(a - b) for a, b in zip(c, pile)) <= 2 for c in seen), \
            f"drift {dx}, {dy}: {len(seen)} colours on the backs, {sorted(seen)[:4]}..."
