"""The Station Card illustration: the station in the middle, its in-scope neighbours round it by
compass bearing, each link drawn in its line colours.

Each link ends in the neighbour's Connection Number (a pill badge, :func:`tubedeck.generator.icons.badge`)
or, on an illustration too small for legible numbers, in a plain dot (the Nearest Stations list
carries the numbers then). :func:`ring_layout` spreads the ends round a circle so no two
badges (nor a badge and the station marker) overlap: each neighbouring pair keeps at least the
angle whose chord clears both badges' half-diagonals; if the circle cannot hold them all, there
is no layout at this size.
"""

from __future__ import annotations

import math
from functools import lru_cache

from tubedeck.games.klm.cards import StationCard
from tubedeck.generator.colour import contrast, rgb
from tubedeck.generator.icons import badge, badge_size
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.theme import GREY, INK, PAPER, WHITE

DOT = 0.9  # mm, radius of a plain end dot
CASE_BELOW = 3.0  # a line colour under this contrast on the card's paper gets ink rails (a casing)
RAIL = 0.18  # mm of ink showing each side of a cased stroke
CLEAR = 0.35  # mm between badges


def centre_radius(d: float) -> float:
    return min(max(d * 0.085, 1.8), 3.0)


def _spread(angles: list[float], need: list[float]) -> list[float] | None:
    """Push angles (sorted) apart until each consecutive pair, round the circle, is at least
    ``need[i]`` apart (between i and i+1); None if they cannot be."""
    n = len(angles)
    if n < 2:
        return angles
    if sum(need) > 2 * math.pi - 1e-9:
        return None
    a = list(angles)
    for _ in range(2000):
        moved = False
        for i in range(n):
            j = (i + 1) % n
            gap = a[j] - a[i] + (2 * math.pi if j == 0 else 0.0)
            if gap < need[i] - 1e-9:
                push = (need[i] - gap) / 2 + 1e-7
                a[i] -= push
                a[j] += push
                moved = True
        if not moved:
            return a
    return None


@lru_cache(maxsize=8192)
def ring_layout(card: StationCard, d: float, pt: float | None, width: float | None = None
                ) -> tuple[tuple[float, float, float, float], ...] | None:
    """Where each connection's end goes in a ``width`` (default ``d``) x ``d`` illustration:
    (dx, dy, w, h) from the centre per connection, in card order; badges at ``pt`` (``None``:
    plain dots). The ends lie on an ellipse, each in its (spread) bearing's direction. ``None``
    if they cannot all fit apart."""
    conns = card.connections
    if not conns:
        return ()
    width = width or d
    sizes = [badge_size(str(c.number), pt) if pt else (2 * DOT, 2 * DOT) for c in conns]
    half = [math.hypot(w, h) / 2 for w, h in sizes]
    rc = centre_radius(min(width, d))
    rx = width / 2 - max(w for w, _ in sizes) / 2 - 0.2
    ry = d / 2 - max(h for _, h in sizes) / 2 - 0.2
    radius = min(rx, ry)  # the angles are spread as if on the inscribed circle: never too close
    if radius < rc * math.sqrt(2) + max(half) + CLEAR:
        return None
    order = sorted(range(len(conns)), key=lambda i: (conns[i].bearing % 360, conns[i].number))
    angles = [math.radians(conns[i].bearing % 360) for i in order]
    need = []
    for k, i in enumerate(order):
        j = order[(k + 1) % len(order)]
        chord = half[i] + half[j] + CLEAR
        if chord > 2 * radius:
            return None
        need.append(2 * math.asin(chord / (2 * radius)))
    spread = _spread(angles, need) if len(order) > 1 else angles
    if spread is None:
        return None
    out: list[tuple[float, float, float, float]] = [(0.0, 0.0, 0.0, 0.0)] * len(conns)
    for i, a in zip(order, spread):
        r = 1 / math.hypot(math.cos(a) / rx, math.sin(a) / ry)  # where the bearing meets the ellipse
        out[i] = (r * math.cos(a), r * math.sin(a), *sizes[i])
    boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h in out]
    boxes.append((-rc, -rc, rc, rc))
    for k, box in enumerate(boxes):
        inside = -width / 2 <= box[0] and box[2] <= width / 2 and -d / 2 <= box[1] and box[3] <= d / 2
        if not inside and k < len(out):
            return None
        for b in boxes[k + 1:]:
            if min(box[2], b[2]) - max(box[0], b[0]) > -CLEAR / 2 and min(box[3], b[3]) - max(box[1], b[1]) > -CLEAR / 2:
                return None
    return tuple(out)


def extent(spots: tuple[tuple[float, float, float, float], ...], rc: float) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) round the ends and the station marker, from the centre."""
    boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h in spots] + [(-rc, -rc, rc, rc)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def content_height(card: StationCard, d: float, pt: float | None, width: float | None = None) -> float | None:
    """How much of a ``d``-high illustration its content takes (to trim a wide one down to it)."""
    spots = ring_layout(card, d, pt, width)
    if spots is None:
        return None
    x0, y0, x1, y1 = extent(spots, centre_radius(min(width or d, d)))
    return y1 - y0


def schematic(pen: Pen, box: Rect, card: StationCard, pt: float, numbered: bool, ring_d: float = 0.0) -> None:
    """Draw the illustration in ``box``: numbered badges at ``pt``, or plain dots; the ends lie on
    the ellipse of a ``box.w`` x ``ring_d`` (default: the box's height) box, the drawing centred."""
    d = min(box.w, box.h)
    cx, cy = box.centre
    spots = ring_layout(card, ring_d or box.h, pt if numbered else None, box.w)
    if spots is None:  # the plan checked it; a caller drawing at another size gets dots or nothing
        spots = ring_layout(card, ring_d or box.h, None, box.w) or ()
        numbered = False
    rc = centre_radius(d)
    x0, y0, x1, y1 = extent(spots, rc)  # centre the drawing in its box
    cx, cy = cx - (x0 + x1) / 2, cy - (y0 + y1) / 2
    width = min(max(d * 0.035, 0.7), 1.2)
    strokes = []
    for c, (x, y, _, _) in zip(card.connections, spots):
        colours = [m.colour for m in c.lines] or [GREY]
        length = math.hypot(x, y) or 1.0
        nx, ny = -y / length, x / length
        for i, col in enumerate(colours):  # parallel strokes, one per line
            off = (i - (len(colours) - 1) / 2) * width * 1.1
            strokes.append((col, (cx + nx * off, cy + ny * off, cx + x + nx * off, cy + y + ny * off)))
    for col, ends in strokes:  # the rails first: a neighbour's colour is never under another's casing
        if cased(col):
            pen.line(*ends, stroke=INK, width=width + 2 * RAIL)
    for col, ends in strokes:
        pen.line(*ends, stroke=col, width=width)
    if card.interchange:
        pen.circle(cx, cy, rc, fill=WHITE, stroke=INK, width=rc * 0.3)
    else:
        pen.circle(cx, cy, rc * 0.85, fill=INK)
    for c, (x, y, w, _) in zip(card.connections, spots):
        if numbered:
            badge(pen, cx + x, cy + y, str(c.number), pt, width=w)
        else:
            pen.circle(cx + x, cy + y, DOT, fill=INK)


@lru_cache(maxsize=64)
def cased(colour: str) -> bool:
    """Whether a line's stroke gets ink rails: its colour alone is under 3:1 on the card's paper
    (the Circle's yellow is 1.31:1, the Hammersmith & City's pink 1.70:1: gone in black and white)."""
    return contrast(rgb(colour), rgb(PAPER)) < CASE_BELOW
