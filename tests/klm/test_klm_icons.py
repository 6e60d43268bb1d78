"""Every Fortune Card kind has an icon of its own.

A review found Fare Top-Up and Rush Hour drawing the same icon (both "draw": a card with a plus),
and the lasting kinds (Signal Failure, Doors Closing, ...) showing no icon at all, only their
duration. Each of the 10 kinds now draws its own (:mod:`tubedeck.generator.klm.fortune_icons`),
beside the duration's disc when the effect lasts. The Fortune deck is drawn, card by card, on a
Pen that lists the shapes it is asked for; the shapes inside each card's icon square, taken
relative to the icon's centre and size, are the icon's drawing.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from tubedeck.generator import CARD_SIZES
from tubedeck.generator.colour import Mode
from tubedeck.generator.klm.fortune import ICON_SCALE, fortune_front, plan
from tubedeck.generator.text import size_label

from blank_pen import BlankPen


class ShapePen(BlankPen):
    """A Pen that draws nothing and lists every shape it is asked for, in card mm."""

    def __init__(self, width: float, height: float, mode: Mode = Mode.COLOUR):
        super().__init__(width, height, "fortune", mode)
        self.shapes: list[tuple[str, tuple[tuple[float, float], ...], tuple]] = []

    def _rect(self, x, y, w, h, fill, stroke, width, radius):
        self.shapes.append(("rect", ((x, y), (x + w, y + h)), (fill is not None, stroke is not None, width, radius)))

    def _path(self, points, fill, stroke, width, closed, dash):
        self.shapes.append(("path", tuple(points), (fill is not None, stroke is not None, width, closed,
                                                    tuple(dash or ()))))

    def _circle(self, cx, cy, r, fill, stroke, width):
        self.shapes.append(("circle", ((cx - r, cy - r), (cx + r, cy + r)), (fill is not None, stroke is not None,
                                                                            width)))


def icon_drawing(width: float, height: float, card, footer: str) -> tuple:
    """The shapes of ``card``'s icon: every shape wholly inside its icon's square, its points and
    lengths relative to the icon's centre and size (so cards of one kind compare equal)."""
    pen = ShapePen(width, height)
    fortune_front(pen, card, footer)
    ix, iy, ir = plan(card, footer, pen.safe, size_label(width, height)).icon
    half = ir * ICON_SCALE / 2 + 0.6  # the icon's square, and the reach of its strokes
    out = []
    for kind, points, style in pen.shapes:
        if all(abs(x - ix) <= half and abs(y - iy) <= half for x, y in points):
            rel = tuple((round((x - ix) / ir, 3), round((y - iy) / ir, 3)) for x, y in points)
            out.append((kind, rel, tuple(round(v / ir, 3) if isinstance(v, float) else v for v in style)))
    return tuple(out)


@pytest.fixture(scope="module")
def fortune():
    from tubedeck.game import edition
    from tubedeck.games import registry

    ed = edition(registry()["klm"])
    return ed.fortune, ed.book.texts.fortune_footer


@pytest.mark.parametrize("size", ["poker", "poker-landscape", "mini"])
def test_every_fortune_kind_draws_an_icon_of_its_own(fortune, size):
    cards, footer = fortune
    c = CARD_SIZES[size.split("-")[0]]
    width, height = (c.landscape.width, c.landscape.height) if size.endswith("landscape") else (c.width, c.height)
    drawings: dict[str, set[tuple]] = defaultdict(set)
    for card in cards:
        drawings[card.kind.id].add(icon_drawing(width, height, card, footer))
    kinds = {card.kind.id for card in cards}
    assert len(kinds) == 10 and set(drawings) == kinds
    for kind, seen in drawings.items():
        assert len(seen) == 1, f"{kind}: its cards draw different icons"
        (shapes,) = seen
        assert shapes, f"{kind}: no icon drawn"
    by_icon: dict[tuple, list[str]] = defaultdict(list)
    for kind, (shapes,) in drawings.items():
        by_icon[shapes].append(kind)
    shared = [k for k in by_icon.values() if len(k) > 1]
    assert not shared, f"{size}: kinds sharing an icon: {shared}"

