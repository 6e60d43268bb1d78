"""tubedeck's own card emblem: a map tile (a rounded square holding a stepped route with three
station ticks, the way a line runs on a schematic map) above a rounded name plate.

Our own mark, drawn to recall no one else's: no circle anywhere in it, and nothing crosses it
like a bar. The Underground roundel (a ring crossed by a bar) is a registered trade mark of
Transport for London, and print-and-play files get shared. The plate sits clear below the tile,
no wider than the emblem's box, and carries the word (fitted, one line, at least 6 pt) with at
least 1.5 mm inside its edges where the plate is big enough to have that room.

Every stroke is a closed path or ends on another stroke (the route's ends meet the tile's inner
edge), so nothing prints with a seam or a loose end. The emblem keeps the envelope callers lay
out with (:data:`ABOVE`, :data:`BELOW`, :data:`HALF_WIDTH`, and within ``r`` of the centre
without a word), so no game's face moves.
"""

from __future__ import annotations

import math

from .pen import Pen
from .sizes import Rect

# With a plate, the emblem reaches 1.2 r above its centre and 1.05 r below it, 1.4 r either side.
ABOVE, BELOW, HALF_WIDTH = 1.2, 1.05, 1.4
PAD = 1.5  # mm of plate round the word, where the plate has it


def emblem_radius(box: Rect) -> float:
    """The largest ``r`` whose emblem with a plate fits ``box``."""
    return max(0.0, min(box.h / (ABOVE + BELOW), box.w / (2 * HALF_WIDTH)))


def emblem_in(pen: Pen, box: Rect, ring: str, plate: str | None = None, text: str = "",
              text_colour: str = "#FFFFFF", largest: float | None = None) -> None:
    """The emblem with its plate, as big as ``box`` allows (at most ``largest``), centred in it."""
    r = emblem_radius(box) if largest is None else min(largest, emblem_radius(box))
    cx, cy = box.centre
    emblem(pen, cx, cy - (ABOVE - BELOW) * r / 2, r, ring, plate, text, text_colour)


def tile(pen: Pen, cx: float, cy: float, half: float, colour: str) -> None:
    """The map tile: a rounded square of outer half-side ``half`` centred on (cx, cy) holding a
    route that runs in from the left, turns 45 degrees up and runs out to the right, with three
    station ticks on its upper side, as a schematic map marks stations."""
    stroke = half * 0.26
    mid = half - stroke / 2  # the stroke's centre line
    pen.rect(cx - mid, cy - mid, 2 * mid, 2 * mid, stroke=colour, width=stroke, radius=mid * 0.4)
    a = half - stroke  # the tile's inner edge
    step, track = a * 0.42, a * 0.24
    pen.polyline(((cx - a, cy - step), (cx - step, cy - step), (cx + step, cy + step), (cx + a, cy + step)),
                 stroke=colour, width=track)
    d = math.sqrt(0.5)
    for (x, y), (ux, uy) in (((-(a + step) / 2, -step), (1.0, 0.0)), ((0.0, 0.0), (d, d)),
                             (((a + step) / 2, step), (1.0, 0.0))):
        nx, ny = -uy, ux  # the route's upper-left side
        length = track * 1.55
        # a stroke, not a filled shape: ink-saver mode pales fills, and the ticks must keep 3:1
        pen.line(cx + x, cy + y, cx + x + nx * length, cy + y + ny * length, stroke=colour, width=track * 0.84)


def emblem(pen: Pen, cx: float, cy: float, r: float, ring: str, plate: str | None = None, text: str = "",
           text_colour: str = "#FFFFFF") -> None:
    """The emblem within ``r`` of (cx, cy), in colour ``ring``; with ``text``, the tile moves up
    and a plate of colour ``plate`` (default ``ring``) under it carries the text."""
    if not text:
        tile(pen, cx, cy, r * 0.76, ring)  # its rounded corners stay inside the circle of radius r
        return
    half = r * 0.7
    tile(pen, cx, cy + ABOVE * r - half, half, ring)
    w, h = r * 2.8, r * 0.6
    y = cy - BELOW * r
    colour = plate or ring
    pen.rect(cx - w / 2, y, w, h, fill=colour, radius=h * 0.3)
    pad_x, pad_y = min(PAD, w * 0.1), min(PAD, h * 0.15)
    pen.text_box(Rect(cx - w / 2 + pad_x, y + pad_y, w - 2 * pad_x, h - 2 * pad_y), text, font="sans-bold", size=14,
                 min_size=6, colour=pen.text_on(colour, text_colour), max_lines=1, field="emblem")
