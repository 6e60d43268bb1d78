"""tubedeck's own card emblem: a ring above a rounded name plate.

Deliberately not the Underground roundel (a ring crossed by a bar), which is a registered trade
mark of Transport for London: print-and-play files get shared, so faces use this instead.
"""

from __future__ import annotations

from .pen import Pen
from .sizes import Rect


def emblem(pen: Pen, cx: float, cy: float, r: float, ring: str, plate: str | None = None, text: str = "",
           text_colour: str = "#FFFFFF") -> None:
    """A ring of outer radius ``r`` centred on (cx, cy); with ``text``, the ring moves up and a
    plate of colour ``plate`` under it carries the text (fitted, one line)."""
    if not text:
        pen.circle(cx, cy, r * 0.8, stroke=ring, width=r * 0.34)
        return
    pen.circle(cx, cy + r * 0.45, r * 0.62, stroke=ring, width=r * 0.26)
    w, h = r * 2.8, r * 0.6
    y = cy - r * 0.75 - h / 2
    pen.rect(cx - w / 2, y, w, h, fill=plate or ring, radius=h * 0.3)
    pen.text_box(Rect(cx - w / 2 + 1, y + 0.4, w - 2, h - 0.8), text, font="sans-bold", size=14, min_size=4,
                 colour=text_colour, max_lines=1, field="emblem")
