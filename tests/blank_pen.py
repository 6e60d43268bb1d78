"""A Pen that draws nothing, for tests that read what a face asks of the Pen: each backend hook is
a no-op; a test's subclass overrides the hooks it records (shapes, text)."""

from __future__ import annotations

from tubedeck.generator import CardGeometry
from tubedeck.generator.colour import Mode
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect


class BlankPen(Pen):
    def __init__(self, width: float, height: float, label: str = "card", mode: Mode = Mode.COLOUR,
                 box: Rect | None = None, safe: Rect | None = None):
        if box is None:
            g = CardGeometry(width, height)
            super().__init__(g.trim, g.bleed_box, g.safe, mode, label)
        else:
            super().__init__(box, box, safe or box, mode, label)

    def _rect(self, x, y, w, h, fill, stroke, width, radius):
        pass

    def _path(self, points, fill, stroke, width, closed, dash):
        pass

    def _circle(self, cx, cy, r, fill, stroke, width):
        pass

    def _text(self, x, y, text, font, size, colour, align, angle):
        pass

    def _push_clip(self, box):
        pass

    def _pop_clip(self):
        pass
