"""Keep Moving's vector art: lava, grassland and dry soil textures and the Function and Replace
symbols, the movement cards' die faces, drawn in code. Each texture has its own pattern (lava
waves, grassland hatching, dry-soil dots) and its own tone, so the kinds read apart in greyscale and
ink-saver; symbols are black on a white disc (our own marks: no playing-card suit, no recycling sign).

Symbols, the function cards' pictures and the life-cube hearts are drawn with strokes only (:func:`solid_disc`,
:func:`solid_triangle`, thick lines): ink-saver mode turns every *fill* into a pale tint (black
fills print 1.59:1 on white) but keeps strokes, so a stroked symbol prints black in every mode."""

from __future__ import annotations

import math
import random

from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT, Rect
from tubedeck.generator.theme import BOLD, INK, WHITE

# kind -> (ground colour, pattern colour). In greyscale the three grounds print dark, mid and light
# (lava with its light waves about 100 of 255, grassland 127, dry soil 183: tests/keepmoving/test_keepmoving_art.py),
# and each has its own pattern, so they read apart with no colour at all.
KIND_COLOURS = {"lava": ("#B3261E", "#FFB000"), "grassland": ("#7CB342", "#1B4D12"), "dry soil": ("#E2CA9A", "#6D4C2F")}
SET_COLOURS = ("#0019A8", "#6A1B9A")  # movement sets: player 1 blue, player 2 purple
PLAY_COLOURS = {"blue": "#0D47A1", "green": "#1B5E20"}
CORNER = 2.0  # mm: the art box's corner radius, as pen.background draws it


def pattern_colour(pen: Pen, kind: str) -> str:
    """The colour a kind's pattern is drawn in on ``pen``: its own in colour and greyscale (light
    lava waves on dark crust, dark blades and pebbles on light ground); in ink-saver, where the
    ground is a pale tint, the kind's ground colour (lava) or its dark pattern colour, so every
    pattern prints dark on pale."""
    ground, ink = KIND_COLOURS[kind]
    return ground if pen.ink_saver and kind == "lava" else ink


def texture(pen: Pen, kind: str, box: Rect, seed: str, radius: float | None = None) -> None:
    """Fill ``box`` with the kind's ground and pattern, each kind its own pattern so they read apart
    with no colour at all (greyscale, ink-saver): lava flows in **waves**, grassland is **hatched**
    with slanted blades, dry soil is **dotted** with pebbles. Seeded by ``seed`` (the same card
    draws the same bytes in every build); ``radius``: the box's corners (default: as
    ``pen.background`` draws them, square only in the bleed)."""
    ground = KIND_COLOURS[kind][0]
    if radius is None:
        radius = 0.0 if box == pen.bleed_box else CORNER
    pen.rect(box.x, box.y, box.w, box.h, fill=ground, radius=radius)
    rng = random.Random(seed)
    ink = pattern_colour(pen, kind)
    with pen.clip(box.inset(radius * (1 - math.sqrt(0.5)) + 0.05)):  # clip() is square: stay in the round corners
        PATTERNS[kind](pen, box, rng, ink)


WAVE = (3.2, 5.0, 0.7)  # lava: rows apart, wavelength, amplitude (mm)
HATCH = (1.7, 3.0, 2.4)  # grassland: blades apart in a row, rows apart, blade length (mm)
DOTS = 2.5  # dry soil: pebbles about this far apart (mm)


def _waves(pen: Pen, box: Rect, rng: random.Random, ink: str) -> None:
    """Lava: rows of waves across the card, each row its own seeded phase and width."""
    gap, length, amp = WAVE
    y = box.y + rng.uniform(0.3, 1.0) * gap / 2
    while y < box.top + amp:
        phase = rng.random() * math.tau
        n = max(2, int(box.w / 0.5) + 2)
        pts = [(box.x - 0.5 + k * (box.w + 1.0) / (n - 1),
                y + amp * math.sin(phase + math.tau * (k * (box.w + 1.0) / (n - 1)) / length)) for k in range(n)]
        pen.polyline(pts, stroke=ink, width=rng.uniform(0.55, 0.75))
        y += gap


def _hatch(pen: Pen, box: Rect, rng: random.Random, ink: str) -> None:
    """Grassland: rows of short blades all slanted the same way (a hatching), each blade's length
    and lean a little seeded."""
    step, gap, blade = HATCH
    row, y = 0, box.y - blade / 2
    while y < box.top:
        x = box.x - step + (step / 2 if row % 2 else 0.0)
        while x < box.right + step:
            h = blade * rng.uniform(0.8, 1.15)
            lean = rng.uniform(0.45, 0.65) * h
            pen.line(x, y, x + lean, y + h, stroke=ink, width=0.45)
            x += step
        y += gap
        row += 1


def _dots(pen: Pen, box: Rect, rng: random.Random, ink: str) -> None:
    """Dry soil: pebbles on a jittered grid, solid in every mode (:func:`solid_disc`)."""
    row, y = 0, box.y + DOTS / 3
    while y < box.top + DOTS:
        x = box.x + (DOTS / 2 if row % 2 else 0.0) + DOTS / 3
        while x < box.right + DOTS:
            r = rng.uniform(0.4, 0.65)
            solid_disc(pen, x + rng.uniform(-0.5, 0.5), y + rng.uniform(-0.5, 0.5), r, ink)
            x += DOTS
        y += DOTS * 0.87
        row += 1


PATTERNS = {"lava": _waves, "grassland": _hatch, "dry soil": _dots}


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
    Replace symbol (:func:`replace_mark`: a card over the ground pile, an arrow down and an arrow
    up), black on a white disc, in strokes only (see the module's note)."""
    pen.circle(cx, cy, r, fill=WHITE, stroke=INK, width=max(0.3, r * 0.06))
    a = r * 0.62
    if name == "function":
        function_mark(pen, cx, cy, a)
    else:
        replace_mark(pen, cx, cy, a)


def replace_mark(pen: Pen, cx: float, cy: float, a: float, colour: str = INK) -> None:
    """Our "replace this card" mark in a square of side ``2 a``: a ground card standing on the
    ground pile (a flat stack), an arrow down on its left (it goes under the pile) and an arrow up
    on its right (the pile's top card comes up in its place). Strokes only (see the module's note);
    not the recycling sign."""
    lw = max(0.3, a * 0.13)
    w, h = a * 0.72, a * 1.0
    pen.rect(cx - w / 2, cy - a * 0.42, w, h, fill=WHITE, stroke=colour, width=lw, radius=a * 0.12)
    for k in (0, 1):  # the pile, edge on: two flat slabs under the card
        y = cy - a * 0.95 + k * a * 0.24
        pen.rect(cx - a * 0.8, y, a * 1.6, a * 0.14, stroke=colour, width=lw * 0.8, radius=a * 0.05)
    x = a * 0.72
    head = a * 0.3
    down_top, down_tip = cy + a * 0.55, cy - a * 0.5
    pen.line(cx - x, down_top, cx - x, down_tip + head * 0.8, stroke=colour, width=lw)
    solid_triangle(pen, [(cx - x, down_tip), (cx - x - head * 0.7, down_tip + head), (cx - x + head * 0.7, down_tip + head)],
                   colour)
    up_bottom, up_tip = cy - a * 0.5, cy + a * 0.55
    pen.line(cx + x, up_bottom, cx + x, up_tip - head * 0.8, stroke=colour, width=lw)
    solid_triangle(pen, [(cx + x, up_tip), (cx + x - head * 0.7, up_tip - head), (cx + x + head * 0.7, up_tip - head)],
                   colour)


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


# Pip places on a die face, in units of the face's side from its centre.
PIPS = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, 1), (1, 1), (-1, -1), (1, -1)),
    5: ((-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)),
    6: ((-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)),
}
PIP_SPREAD = 0.27  # pip centres this share of the side from the face's centre
PIP_R = 0.095  # a pip's radius, as a share of the side


def die_face(pen: Pen, cx: float, cy: float, side: float, n: int, colour: str = INK) -> None:
    """A die face showing ``n`` (1-6) as drawn pips: a white rounded square outlined in ``colour``,
    black pips (solid in every mode, :func:`solid_disc`)."""
    lw = max(0.3, side * 0.05)
    pen.rect(cx - side / 2, cy - side / 2, side, side, fill=WHITE, stroke=colour, width=lw, radius=side * 0.18)
    for dx, dy in PIPS[n]:
        solid_disc(pen, cx + dx * side * PIP_SPREAD, cy + dy * side * PIP_SPREAD, side * PIP_R)


def die_faces(pen: Pen, box: Rect, faces: tuple[int, ...], colour: str = INK, cap: float = 20.0) -> float:
    """The die faces ``faces`` (in order) as :func:`die_face` in a grid centred in ``box``: one row
    of up to 3, or rows of 3; each face as big as fits (at most ``cap`` mm). Returns the side."""
    cols = min(len(faces), 3)
    rows = -(-len(faces) // 3)
    gap = 0.16
    side = min(box.w / (cols + (cols - 1) * gap), box.h / (rows + (rows - 1) * gap), cap)
    cx0, cy0 = box.centre
    for i, n in enumerate(faces):
        r, c = divmod(i, 3)
        in_row = min(3, len(faces) - r * 3)
        x = cx0 + (c - (in_row - 1) / 2) * side * (1 + gap)
        y = cy0 + ((rows - 1) / 2 - r) * side * (1 + gap)
        die_face(pen, x, y, side, n, colour)
    return side
