"""Each Fortune Card kind's own icon, drawn with the Pen's primitives in one colour.

The generic icons (:mod:`tubedeck.generator.icons`: draw, discard, take, enable, protect) serve
the kinds whose action they picture; the others have their own, so no two kinds share a picture: a
signal with a cross (Signal Failure), a works cone (Planned Engineering Works), a line ending at a
buffer stop (Line Closure), a ticket with a plus (Fare Top-Up, beside Rush Hour's card with a plus)
and sliding doors closing (Doors Closing). A lasting kind's icon sits in a small white disc, so
its shapes fill nothing white: a white shape with an outline inside it would read as a badge on a
badge.
Our own marks: no ring, no roundel, no word. Like the generic icons each fills a square of side
``s`` mm centred on (cx, cy); strokes scale with ``s``.
"""

from __future__ import annotations

import math
from typing import Callable

from tubedeck.generator.icons import ICONS
from tubedeck.generator.pen import Pen

Icon = Callable[[Pen, float, float, float, str], None]


def signal_failure(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A signal head on its post, its two lamps dark and crossed out."""
    t = s * 0.08
    w, h = s * 0.34, s * 0.56
    x0, y0 = cx - s * 0.12 - w / 2, cy - s * 0.12
    pen.line(cx - s * 0.12, cy - s * 0.46, cx - s * 0.12, y0, stroke=colour, width=t * 1.2)  # the post
    pen.line(cx - s * 0.3, cy - s * 0.46, cx + s * 0.06, cy - s * 0.46, stroke=colour, width=t * 1.2)  # its foot
    pen.rect(x0, y0, w, h, stroke=colour, width=t, radius=w * 0.3)
    for k in (0.28, 0.72):
        pen.circle(cx - s * 0.12, y0 + h * k, w * 0.24, stroke=colour, width=t * 0.8)
    a, mx, my = s * 0.13, cx + s * 0.3, cy + s * 0.28  # the cross beside the head
    pen.line(mx - a, my - a, mx + a, my + a, stroke=colour, width=t * 1.4)
    pen.line(mx - a, my + a, mx + a, my - a, stroke=colour, width=t * 1.4)


def works_cone(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A works cone on its base, two bands round it (planned works)."""
    t = s * 0.08
    base, top = cy - s * 0.36, cy + s * 0.42
    pen.rect(cx - s * 0.42, base - s * 0.08, s * 0.84, s * 0.08, fill=colour, stroke=colour, width=t * 0.5)
    pen.polygon([(cx - s * 0.3, base), (cx + s * 0.3, base), (cx + s * 0.06, top), (cx - s * 0.06, top)],
                stroke=colour, width=t)

    def half_width(y: float) -> float:
        return s * 0.3 - (s * 0.24) * (y - base) / (top - base)

    for y in (base + s * 0.18, base + s * 0.45):  # two bands across the cone
        pen.line(cx - half_width(y), y, cx + half_width(y), y, stroke=colour, width=t * 1.6)


def line_closure(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A line through two stations to a buffer stop, the closed rest of it dashed beyond."""
    t = s * 0.1
    stop = cx + s * 0.14
    pen.line(cx - s * 0.48, cy, stop, cy, stroke=colour, width=t * 1.6)
    pen.line(stop + s * 0.14, cy, cx + s * 0.5, cy, stroke=colour, width=t, dash=(s * 0.08, s * 0.06))
    for x in (cx - s * 0.34, cx - s * 0.08):  # station ticks
        pen.line(x, cy, x, cy + s * 0.18, stroke=colour, width=t)
    pen.rect(stop, cy - s * 0.34, s * 0.13, s * 0.68, fill=colour, stroke=colour, width=t * 0.4)  # the buffer stop


def fare_top_up(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A ticket (notched at both ends) with a plus: top up, draw another Fortune Card."""
    t = s * 0.08
    w, h, notch = s * 0.84, s * 0.5, s * 0.09
    x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    right = [(x1 - notch * math.cos(a), cy + notch * math.sin(a)) for a in
             (math.pi / 2 - i * math.pi / 8 for i in range(9))]
    left = [(x0 + notch * math.cos(a), cy - notch * math.sin(a)) for a in
            (math.pi / 2 - i * math.pi / 8 for i in range(9))]
    pen.polygon([(x0, y1), (x1, y1), *right, (x1, y0), (x0, y0), *left], stroke=colour, width=t)
    for x in (x0 + s * 0.2, x1 - s * 0.2):  # the perforations
        pen.line(x, y0 + s * 0.06, x, y1 - s * 0.06, stroke=colour, width=t * 0.5, dash=(s * 0.05, s * 0.04))
    a = s * 0.12
    pen.line(cx - a, cy, cx + a, cy, stroke=colour, width=t * 1.3)
    pen.line(cx, cy - a, cx, cy + a, stroke=colour, width=t * 1.3)


def doors_closing(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A pair of sliding doors, a solid arrow above each pointing to the gap between them."""
    t = s * 0.08
    w, h, gap, base = s * 0.3, s * 0.56, s * 0.05, cy - s * 0.42
    for sign in (-1, 1):
        x = cx + sign * (gap / 2 + w / 2)
        pen.rect(x - w / 2, base, w, h, stroke=colour, width=t, radius=s * 0.03)
        pen.line(x - sign * w * 0.3, base + h * 0.35, x - sign * w * 0.3, base + h * 0.7, stroke=colour, width=t)
        tip, back = cx + sign * s * 0.08, cx + sign * s * 0.4  # the arrow over the door, pointing inwards
        y = cy + s * 0.32
        pen.line(back, y, tip + sign * s * 0.1, y, stroke=colour, width=t * 1.2)
        pen.polygon([(tip, y), (tip + sign * s * 0.14, y + s * 0.1), (tip + sign * s * 0.14, y - s * 0.1)],
                    fill=colour, stroke=colour, width=t * 0.3)


KIND_ICONS: dict[str, Icon] = {
    "signal-failure": signal_failure,
    "engineering-works": works_cone,
    "line-closure": line_closure,
    "good-service": ICONS["enable"],
    "step-free-upgrade": ICONS["protect"],
    "fare-top-up": fare_top_up,
    "rush-hour": ICONS["draw"],
    "lost-property": ICONS["take"],
    "ticket-inspection": ICONS["discard"],
    "doors-closing": doors_closing,
}
