"""tubedeck's own card emblem: a ring above a rounded name plate.

Deliberately not the Underground roundel (a ring crossed by a bar), which is a registered trade
mark of Transport for London: print-and-play files get shared, so faces use this instead.

The ring is one closed circle stroked all round (the Pen closes its circle paths), so it prints
without a seam where the stroke would otherwise start and end.
"""

from __future__ import annotations

from .pen import Pen
from .sizes import Rect

# With a plate, the emblem reaches 1.2 r above its centre and 1.05 r below it, 1.4 r either side.
ABOVE, BELOW, HALF_WIDTH = 1.2, 1.05, 1.4


def emblem_radius(box: Rect) -> float:
    """The largest ``r`` whose emblem with a plate fits ``box``."""
    return max(0.0, min(box.h / (ABOVE + BELOW), box.w / (2 * HALF_WIDTH)))


def emblem_in(pen: Pen, box: Rect, ring: str, plate: str | None = None, text: str = "",
              text_colour: str = "#FFFFFF", largest: float | None = None) -> None:
    """The emblem with its plate, as big as ``box`` allows (at most ``largest``), centred in it."""
    r = emblem_radius(box) if largest is None else min(largest, emblem_radius(box))
    cx, cy = box.centre
    emblem(pen, cx, cy - (ABOVE - BELOW) * r / 2, r, ring, plate, text, text_colour)


def emblem(pen: Pen, cx: float, cy: float, r: float, ring: str, plate: str | None = None, text: str = "",
           text_colour: str = "#FFFFFF") -> None:
    """A ring of outer radius ``r`` centred on (cx, cy); with ``text``, the ring moves up and a
    plate of colour ``plate`` under it carries the text (fitted, one line, at least 6 pt)."""
    if not text:
        pen.circle(cx, cy, r * 0.8, stroke=ring, width=r * 0.34)
        return
    pen.circle(cx, cy + r * 0.45, r * 0.62, stroke=ring, width=r * 0.26)
    w, h = r * 2.8, r * 0.6
    y = cy - r * 0.75 - h / 2
    pen.rect(cx - w / 2, y, w, h, fill=plate or ring, radius=h * 0.3)
    pen.text_box(Rect(cx - w / 2 + 1, y + 0.4, w - 2, h - 0.8), text, font="sans-bold", size=14, min_size=6,
                 colour=pen.text_on(plate or ring, text_colour), max_lines=1, field="emblem")
