"""Small marks drawn with the Pen: number badges (pills) and vector icons.

Icons are drawn from strokes and polygons, never from text, so they print identically in every
format and colour mode and need no glyph. Each icon fills a square of side ``s`` mm centred on
(cx, cy) and is drawn in one colour (strokes scale with ``s``).

:func:`badge` is a number in a white pill with an outline: round for one digit, wider for two or
three, so a Connection Number keeps its size whatever its length.
"""

from __future__ import annotations

import math
from typing import Callable

from . import fonts
from .pen import Pen
from .sizes import PT

DIGIT_HEIGHT = 0.73  # Vera's figures, as a share of the size (em)


def badge_size(text: str, size: float, font: str = "sans-bold") -> tuple[float, float]:
    """(width, height) in mm of the pill that :func:`badge` draws round ``text`` at ``size`` pt."""
    em = size * PT
    h = em * DIGIT_HEIGHT + 2 * max(0.55, 0.26 * em)
    return max(h, fonts.text_width(text, font, size) + 0.75 * h), h


def badge(pen: Pen, cx: float, cy: float, text: str, size: float, *, ink: str = "#1C1C1C", fill: str = "#FFFFFF",
          font: str = "sans-bold", field: str = "number", width: float | None = None) -> tuple[float, float]:
    """A number in a pill centred on (cx, cy); returns its (width, height). ``width`` widens the pill
    (a column of badges of one width)."""
    w, h = badge_size(text, size, font)
    w = max(w, width or 0.0)
    pen.rect(cx - w / 2, cy - h / 2, w, h, fill=fill, stroke=ink, width=max(0.2, 0.07 * h), radius=h / 2)
    pen.text(cx, cy - size * PT * DIGIT_HEIGHT / 2, text, font=font, size=size, colour=ink, align="centre",
             field=field)
    return w, h


# -- icons ---------------------------------------------------------------------------------------
def _card(pen: Pen, cx: float, cy: float, w: float, h: float, colour: str, width: float,
          fill: str | None = None) -> None:
    pen.rect(cx - w / 2, cy - h / 2, w, h, fill=fill, stroke=colour, width=width, radius=min(w, h) * 0.14)


def _plus(pen: Pen, cx: float, cy: float, a: float, colour: str, width: float, minus: bool = False) -> None:
    pen.line(cx - a, cy, cx + a, cy, stroke=colour, width=width)
    if not minus:
        pen.line(cx, cy - a, cx, cy + a, stroke=colour, width=width)


def draw_card(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A card with a plus: draw a card."""
    t = s * 0.09
    _card(pen, cx - s * 0.1, cy + s * 0.06, s * 0.5, s * 0.72, colour, t * 0.7)  # the stock behind
    _card(pen, cx + s * 0.08, cy - s * 0.06, s * 0.5, s * 0.72, colour, t, fill="#FFFFFF")
    _plus(pen, cx + s * 0.08, cy - s * 0.06, s * 0.14, colour, t)


def discard_card(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A card with a minus: discard a card."""
    t = s * 0.09
    _card(pen, cx, cy, s * 0.5, s * 0.72, colour, t)
    _plus(pen, cx, cy, s * 0.14, colour, t, minus=True)


def take_back(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """An arrow taking the top card of a pile back to the left: take a discard."""
    t = s * 0.09
    px = cx + s * 0.22
    _card(pen, px + s * 0.05, cy + s * 0.05, s * 0.42, s * 0.6, colour, t * 0.7)
    _card(pen, px, cy, s * 0.42, s * 0.6, colour, t, fill="#FFFFFF")
    y, tip, head = cy - s * 0.02, cx - s * 0.48, s * 0.17
    pen.line(px - s * 0.02, y, tip + head * 0.6, y, stroke=colour, width=t)
    pen.polygon([(tip, y), (tip + head, y + head * 0.8), (tip + head, y - head * 0.8)], fill=colour)


def check(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A tick: a card comes back into play."""
    pen.polyline([(cx - s * 0.38, cy + s * 0.02), (cx - s * 0.1, cy - s * 0.28), (cx + s * 0.4, cy + s * 0.3)],
                 stroke=colour, width=s * 0.13)


def cross(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A cross: a card is disabled."""
    a, t = s * 0.32, s * 0.13
    pen.line(cx - a, cy - a, cx + a, cy + a, stroke=colour, width=t)
    pen.line(cx - a, cy + a, cx + a, cy - a, stroke=colour, width=t)


def shield(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A shield: a card is protected."""
    w, top, bottom = s * 0.36, cy + s * 0.4, cy - s * 0.44
    pts = [(cx - w, top - s * 0.06), (cx, top), (cx + w, top - s * 0.06), (cx + w, cy - s * 0.02)]
    pts += [(cx + w * math.cos(a) * 1.0, cy - s * 0.02 - (cy - s * 0.02 - bottom) * math.sin(a))
            for a in (i * math.pi / 12 for i in range(1, 6))]
    pts += [(cx, bottom)]
    pts += [(2 * cx - x, y) for x, y in reversed(pts[3:-1])]
    pen.polygon(pts, stroke=colour, width=s * 0.09)
    check(pen, cx, cy - s * 0.02, s * 0.5, colour)


def barrier(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """Two stations whose link is barred: a Connection is blocked."""
    t = s * 0.09
    r = s * 0.11
    for x in (cx - s * 0.38, cx + s * 0.38):
        pen.circle(x, cy, r, fill="#FFFFFF", stroke=colour, width=t)
    pen.line(cx - s * 0.38 + r, cy, cx - s * 0.12, cy, stroke=colour, width=t)
    pen.line(cx + s * 0.12, cy, cx + s * 0.38 - r, cy, stroke=colour, width=t)
    for x in (cx - s * 0.07, cx + s * 0.07):
        pen.line(x, cy - s * 0.3, x, cy + s * 0.3, stroke=colour, width=t * 1.3)


def chevron(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A pointer to the right: reading order (slot to slot)."""
    pen.polyline([(cx - s * 0.2, cy + s * 0.4), (cx + s * 0.2, cy), (cx - s * 0.2, cy - s * 0.4)], stroke=colour,
                 width=s * 0.16)


ICONS: dict[str, Callable[[Pen, float, float, float, str], None]] = {
    "draw": draw_card, "discard": discard_card, "take": take_back, "enable": check, "disable": cross,
    "protect": shield, "block": barrier, "next": chevron,
}


def icon(pen: Pen, name: str, cx: float, cy: float, s: float, colour: str) -> None:
    """Draw the icon ``name`` (a key of :data:`ICONS`) in a square of side ``s`` centred on (cx, cy)."""
    ICONS[name](pen, cx, cy, s, colour)
