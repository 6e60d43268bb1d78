"""Keep Moving's faces print no internal ids and no playing-card suit.

A review found "g01 side A" on every ground card (the data's id) and a club for "draw a function
card". The faces now carry a small human label ("ground 1 · A") and our own function mark, drawn
with the Pen (:func:`tubedeck.generator.keepmoving.art.function_mark`: a card with a spark, drawn
off a second one).
"""

from __future__ import annotations

import re

import pymupdf
import pytest

from tubedeck import generator
from tubedeck.generator.keepmoving.art import symbol
from tubedeck.generator.keepmoving.faces import documents
from tubedeck.generator.sizes import Rect

from blank_pen import BlankPen
from km_helpers import EDITION

INTERNAL = re.compile(r"\bg\d\d\b|\bside [AB]\b")
CLUBS = ("\u2663", "\u2667")  # the black and the white club


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("keepmoving")
    opts = generator.PrintOptions.parse(export="pdf")
    generator.render(documents(EDITION, opts), opts, out)
    return out


def test_no_face_prints_an_internal_id_or_a_club(built):
    pdfs = sorted(built.glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"ground.pdf", "ground-fold.pdf", "function.pdf", "reference.pdf"}
    labels = set()
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            for n, page in enumerate(doc):
                text = " ".join(page.get_text().split())  # a line break is a space
                assert not INTERNAL.search(text), (pdf.name, n + 1, INTERNAL.findall(text)[:5])
                assert not any(c in text for c in CLUBS), (pdf.name, n + 1)
                labels |= set(re.findall(r"ground \d+ \u00b7 [AB]", text))
    # the human label that replaces the id: every side of every ground card
    assert labels == {f"ground {n} \u00b7 {s}" for n in range(1, len(EDITION.ground) + 1) for s in "AB"}


class _Shapes(BlankPen):
    """A Pen that lists the shapes it is asked to draw."""

    def __init__(self):
        box = Rect(0, 0, 63.5, 88.9)
        super().__init__(box.w, box.h, "symbol", box=box, safe=box.inset(4))
        self.shapes: list[tuple] = []

    def _rect(self, x, y, w, h, fill, stroke, width, radius):
        self.shapes.append(("rect", round(w, 2), round(h, 2), fill is not None))

    def _path(self, points, fill, stroke, width, closed, dash):
        self.shapes.append(("path", len(points), closed))

    def _circle(self, cx, cy, r, fill, stroke, width):
        self.shapes.append(("circle", round(r, 2)))

    def _text(self, *args):
        self.shapes.append(("text",))


def test_the_function_symbol_is_our_card_mark_not_a_clover():
    """The clover was three solid discs on a stem. The Function symbol is a disc holding two cards
    (one drawn off the other) with a four-pointed spark, and no text (no glyph)."""
    pen = _Shapes()
    symbol(pen, "function", 30, 40, 10.0)
    circles = [s for s in pen.shapes if s[0] == "circle"]
    assert circles == [("circle", 10.0)]  # the white disc only
    assert sum(s[0] == "rect" for s in pen.shapes) == 2  # the card and the one behind it
    assert sum(s == ("path", 3, True) for s in pen.shapes) == 4  # the spark's four points
    assert not any(s[0] == "text" for s in pen.shapes)
    replace = _Shapes()
    symbol(replace, "replace", 30, 40, 10.0)
    assert replace.shapes != pen.shapes
