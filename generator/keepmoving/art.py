"""Keep Moving's vector art: lava, grassland and dry soil textures and the Function and Replace
symbols, drawn in code. Each texture has its own pattern (cracks, blades, pebbles) as well as its
own colour, so the kinds stay apart in greyscale; symbols are black on a white disc.

Symbols, the function cards' pictures and the life-cube hearts are drawn with strokes only (:func:`solid_disc`,
:func:`solid_triangle`, thick lines): ink-saver mode turns every *fill* into a pale tint (black
fills print 1.59:1 on white) but keeps strokes, so a stroked symbol prints black in every mode."""

from __future__ import annotations

import math
import random

from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT, Rect
from tubedeck.generator.theme import BOLD, INK, WHITE

# kind -> (ground colour, pattern colour)
KIND_COLOURS = {"lava": ("#B3261E", "#FFB000"), "grassland": ("#5DA130", "#1B4D12"), "dry soil": ("#C8A26B", "#6D4C2F")}
SET_COLOURS = ("#0019A8", "#6A1B9A")  # movement sets: player 1 blue, player 2 purple
PLAY_COLOURS = {"blue": "#0D47A1", "green": "#1B5E20"}
CORNER = 2.0  # mm: the art box's corner radius, as pen.background draws it


def texture(pen: Pen, kind: str, box: Rect, seed: str) -> None:
    """Fill ``box`` with the kind's ground and pattern (seeded: the same card draws the same art)."""
    ground, ink = KIND_COLOURS[kind]
    radius = 0.0 if box == pen.bleed_box else CORNER  # as pen.background: square only in the bleed
    pen.rect(box.x, box.y, box.w, box.h, fill=ground, radius=radius)
    rng = random.Random(seed)
    with pen.clip(box.inset(radius * (1 - math.sqrt(0.5)) + 0.05)):  # clip() is square: stay in the round corners
        if kind == "lava":
            _cracks(pen, box, rng, ink)
        elif kind == "grassland":
            _blades(pen, box, rng, ink)
        else:
            _pebbles(pen, box, rng, ink)


def _cracks(pen: Pen, box: Rect, rng: random.Random, ink: str) -> None:
    """Glowing cracks: jagged lines branching across the crust."""
    for _ in range(max(4, int(box.w * box.h / 260))):
        x, y = box.x + rng.random() * box.w, box.y + rng.random() * box.h
        pts = [(x, y)]
        angle = rng.random() * math.tau
        for _ in range(5):
            angle += rng.uniform(-0.9, 0.9)
            step = rng.uniform(3, 7)
            x, y = x + step * math.cos(angle), y + step * math.sin(angle)
            pts.append((x, y))
        pen.polyline(pts, stroke=ink, width=rng.uniform(0.5, 1.1))


def _blades(pen: Pen, box: Rect, rng: random.Random, ink: str) -> None:
    """Tufts of grass: short upward strokes in threes."""
    for _ in range(max(6, int(box.w * box.h / 110))):
        x, y = box.x + rng.random() * box.w, box.y + rng.random() * box.h
        for dx in (-1.0, 0.0, 1.0):
            pen.line(x + dx * 0.6, y, x + dx * 1.6, y + rng.uniform(2.2, 3.6), stroke=ink, width=0.45)


def _pebbles(pen: Pen, box: Rect, rng: random.Random, ink: str) -> None:
    """Dry soil: scattered pebbles and short dashes of cracked earth."""
    for _ in range(max(8, int(box.w * box.h / 70))):
        x, y = box.x + rng.random() * box.w, box.y + rng.random() * box.h
        if rng.random() < 0.6:
            pen.circle(x, y, rng.uniform(0.35, 0.9), fill=ink)
        else:
            pen.line(x, y, x + rng.uniform(-2, 2), y + rng.uniform(-1, 1), stroke=ink, width=0.35)


def solid_disc(pen: Pen, cx: float, cy: float, r: float, colour: str = INK) -> None:
    """A solid disc of radius ``r`` drawn as a ring of width ``r`` round radius ``r / 2``: solid
    ``colour`` in every mode (ink-saver pales fills, never strokes)."""
    pen.circle(cx, cy, r / 2, stroke=colour, width=r)


def solid_triangle(pen: Pen, pts: list[tuple[float, float]], colour: str = INK) -> None:
    """A solid triangle drawn as a stroke: the triangle shrunk by half about its incentre, stroked
    (mitred) as wide as the incircle's radius, covers exactly the triangle, in every mode."""
    (ax, ay), (bx, by), (cx, cy) = pts
    a, b, c = math.dist((bx, by), (cx, cy)), math.dist((ax, ay), (cx, cy)), math.dist((ax, ay), (bx, by))
    ix, iy = (a * ax + b * bx + c * cx) / (a + b + c), (a * ay + b * by + c * cy) / (a + b + c)
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    rho = 2 * area / (a + b + c)  # the incircle's radius
    k = 0.48  # a hair under half, so the stroke's inner edges overlap at the incentre
    inner = [(ix + (x - ix) * k, iy + (y - iy) * k) for x, y in pts]
    pen.polygon(inner, stroke=colour, width=2 * rho * (1 - k))


def function_mark(pen: Pen, cx: float, cy: float, a: float, colour: str = INK) -> None:
    """Our "draw a function card" mark in a square of side ``2 a``: a card drawn off a second one
    (offset up and left behind it), a solid four-pointed spark on its face. Strokes only (see the
    module's note); no playing-card suit."""
    w, h, lw = a * 1.0, a * 1.42, max(0.3, a * 0.13)
    bx, by = cx + a * 0.14, cy - a * 0.12  # the front card's centre
    pen.rect(bx - w / 2 - a * 0.28, by - h / 2 + a * 0.24, w, h, stroke=colour, width=lw * 0.8, radius=a * 0.14)
    pen.rect(bx - w / 2, by - h / 2, w, h, fill=WHITE, stroke=colour, width=lw, radius=a * 0.14)
    long, short = a * 0.42, a * 0.13  # the spark: four solid points about the card's centre
    for k in range(4):
        ang = k * math.pi / 2
        cos, sin = math.cos(ang), math.sin(ang)
        tip = (bx + long * cos, by + long * sin)
        solid_triangle(pen, [tip, (bx - short * sin, by + short * cos), (bx + short * sin, by - short * cos)], colour)


def symbol(pen: Pen, name: str, cx: float, cy: float, r: float) -> None:
    """The Function symbol (:func:`function_mark`: a card with a spark, drawn off a second) or the
    Replace symbol (two turning arrows), black on a white disc, in strokes only (see the module's note)."""
    pen.circle(cx, cy, r, fill=WHITE, stroke=INK, width=max(0.3, r * 0.06))
    a = r * 0.62
    if name == "function":
        function_mark(pen, cx, cy, a)
    else:
        for k in (0, 1):
            start = k * math.pi + 0.35
            pts = [(cx + a * math.cos(start + t * 0.26), cy + a * math.sin(start + t * 0.26)) for t in range(10)]
            pen.polyline(pts, stroke=INK, width=a * 0.2)
            ex, ey = pts[-1]
            ang = start + 9 * 0.26 + math.pi / 2
            tip = (ex + a * 0.4 * math.cos(ang), ey + a * 0.4 * math.sin(ang))
            side = (math.cos(ang - math.pi / 2) * a * 0.32, math.sin(ang - math.pi / 2) * a * 0.32)
            solid_triangle(pen, [tip, (ex + side[0], ey + side[1]), (ex - side[0], ey - side[1])])


def heart(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A life cube's mark: a heart of two circles and a point (strokes only, as the symbols)."""
    r = s * 0.27
    solid_disc(pen, cx - r * 0.9, cy + r * 0.5, r, colour)
    solid_disc(pen, cx + r * 0.9, cy + r * 0.5, r, colour)
    solid_triangle(pen, [(cx - 2 * r * 0.95, cy + r * 0.25), (cx + 2 * r * 0.95, cy + r * 0.25), (cx, cy - s * 0.5)],
                   colour)


def meeple(pen: Pen, cx: float, base: float, h: float, colour: str, down: bool = False, mark: str = "") -> None:
    """A meeple silhouette standing on ``base`` (``down``: hanging from it, upside down), with ``mark``
    (the player's number) big on a white disc on its chest: the players' colours both print dark grey."""
    w, k = h * 0.9, -1.0 if down else 1.0

    def at(dx: float, dy: float) -> tuple[float, float]:
        return cx + dx * w, base + k * dy * h

    pen.circle(*at(0, 0.82), h * 0.17, fill=colour, stroke=INK, width=0.3)
    body = [(-0.5, 0.52), (0.5, 0.52), (0.46, 0.4), (0.18, 0.38), (0.36, 0), (0.06, 0), (0, 0.18), (-0.06, 0),
            (-0.36, 0), (-0.18, 0.38), (-0.46, 0.4)]
    pen.polygon([at(x, y) for x, y in body], fill=colour, stroke=INK, width=0.3)
    pen.polygon([at(-0.2, 0.5), at(0.2, 0.5), at(0.2, 0.68), at(-0.2, 0.68)], fill=colour)
    if mark:
        (mx, my), r = at(0, 0.47), h * 0.16
        pen.circle(mx, my, r, fill=WHITE, stroke=INK, width=0.3)
        size = r * 1.25 / PT  # digits about 0.9 r tall
        pen.text(mx, my - k * 0.36 * size * PT, mark, font=BOLD, size=size, colour=INK, align="centre",
                 angle=0.0 if k > 0 else 180.0, field="mark")


def _arrow(pen: Pen, pts: list[tuple[float, float]], width: float) -> None:
    """A line through ``pts`` with a head at its last point."""
    pen.polyline(pts, stroke=INK, width=width)
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    ang, head = math.atan2(by - ay, bx - ax), width * 3.2
    back = [(bx - head * math.cos(ang + s), by - head * math.sin(ang + s)) for s in (0.45, -0.45)]
    solid_triangle(pen, [(bx + width * math.cos(ang), by + width * math.sin(ang)), *back])


def card_icon(pen: Pen, name: str, box: Rect) -> None:
    """The figure of a function card that moves ground cards, black line art centred in ``box``:
    ``exchange`` two cards with arrows both ways, ``relocation`` a row of three cards over a turning
    arrow (they go under the pile and new ones come)."""
    cx, cy = box.centre
    u = min(box.w / 9, box.h / 5)  # the drawing is 9 x 5 units
    lw = max(0.35, u * 0.14)

    def card(x: float, y: float, k: float = 1.0) -> None:  # a ground card centred (x, y) units from the centre
        pen.rect(cx + (x - 0.9 * k) * u, cy + (y - 1.3 * k) * u, 1.8 * k * u, 2.6 * k * u, fill=WHITE, stroke=INK,
                 width=lw, radius=0.25 * u)

    if name == "exchange":
        card(-3.2, 0, 1.3)
        card(3.2, 0, 1.3)
        _arrow(pen, [(cx - 1.6 * u, cy + 0.7 * u), (cx + 1.6 * u, cy + 0.7 * u)], lw * 1.4)
        _arrow(pen, [(cx + 1.6 * u, cy - 0.7 * u), (cx - 1.6 * u, cy - 0.7 * u)], lw * 1.4)
    else:
        for x in (-2.6, 0.0, 2.6):
            card(x, 0.9)
        arc = [(cx + 3.0 * u * math.cos(t), cy - 1.0 * u + 1.1 * u * math.sin(t))
               for t in (-math.pi * (0.1 + 0.08 * k) for k in range(11))]  # under the row, right to left
        _arrow(pen, arc, lw * 1.4)
