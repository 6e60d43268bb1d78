"""Keep Moving's vector art: lava, grassland and dry soil textures and the Function and Replace
symbols, drawn in code. Each texture has its own pattern (cracks, blades, pebbles) as well as its
own colour, so the kinds stay apart in greyscale; symbols are black on a white disc."""

from __future__ import annotations

import math
import random

from generator.pen import Pen
from generator.sizes import Rect
from generator.theme import INK, WHITE

# kind -> (ground colour, pattern colour)
KIND_COLOURS = {"lava": ("#B3261E", "#FFB000"), "grassland": ("#5DA130", "#1B4D12"), "dry soil": ("#C8A26B", "#6D4C2F")}
SET_COLOURS = ("#0019A8", "#6A1B9A")  # movement sets: player 1 blue, player 2 purple
PLAY_COLOURS = {"blue": "#0D47A1", "green": "#1B5E20"}


def texture(pen: Pen, kind: str, box: Rect, seed: str) -> None:
    """Fill ``box`` with the kind's ground and pattern (seeded: the same card draws the same art)."""
    ground, ink = KIND_COLOURS[kind]
    pen.rect(box.x, box.y, box.w, box.h, fill=ground, radius=2.0)
    rng = random.Random(seed)
    with pen.clip(box):
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


def symbol(pen: Pen, name: str, cx: float, cy: float, r: float) -> None:
    """The Function symbol (a three-leaf clover) or the Replace symbol (two turning arrows), black on a
    white disc."""
    pen.circle(cx, cy, r, fill=WHITE, stroke=INK, width=max(0.3, r * 0.06))
    a = r * 0.62
    if name == "function":
        for k in range(3):
            ang = math.pi / 2 + k * math.tau / 3
            pen.circle(cx + a * 0.42 * math.cos(ang), cy + a * 0.42 * math.sin(ang), a * 0.36, fill=INK)
        pen.polygon([(cx - a * 0.12, cy), (cx + a * 0.12, cy), (cx + a * 0.2, cy - a * 0.95),
                     (cx - a * 0.2, cy - a * 0.95)], fill=INK)
    else:
        for k in (0, 1):
            start = k * math.pi + 0.35
            pts = [(cx + a * math.cos(start + t * 0.26), cy + a * math.sin(start + t * 0.26)) for t in range(10)]
            pen.polyline(pts, stroke=INK, width=a * 0.2)
            ex, ey = pts[-1]
            ang = start + 9 * 0.26 + math.pi / 2
            tip = (ex + a * 0.4 * math.cos(ang), ey + a * 0.4 * math.sin(ang))
            side = (math.cos(ang - math.pi / 2) * a * 0.32, math.sin(ang - math.pi / 2) * a * 0.32)
            pen.polygon([tip, (ex + side[0], ey + side[1]), (ex - side[0], ey - side[1])], fill=INK)


def heart(pen: Pen, cx: float, cy: float, s: float, colour: str) -> None:
    """A life cube's mark: a heart of two circles and a point."""
    r = s * 0.27
    pen.circle(cx - r * 0.9, cy + r * 0.5, r, fill=colour)
    pen.circle(cx + r * 0.9, cy + r * 0.5, r, fill=colour)
    pen.polygon([(cx - 2 * r * 0.95, cy + r * 0.25), (cx + 2 * r * 0.95, cy + r * 0.25), (cx, cy - s * 0.5)],
                fill=colour)


def meeple(pen: Pen, cx: float, base: float, h: float, colour: str, down: bool = False) -> None:
    """A meeple silhouette standing on ``base`` (``down``: hanging from it, upside down)."""
    w, k = h * 0.9, -1.0 if down else 1.0

    def at(dx: float, dy: float) -> tuple[float, float]:
        return cx + dx * w, base + k * dy * h

    pen.circle(*at(0, 0.82), h * 0.17, fill=colour, stroke=INK, width=0.3)
    body = [(-0.5, 0.52), (0.5, 0.52), (0.46, 0.4), (0.18, 0.38), (0.36, 0), (0.06, 0), (0, 0.18), (-0.06, 0),
            (-0.36, 0), (-0.18, 0.38), (-0.46, 0.4)]
    pen.polygon([at(x, y) for x, y in body], fill=colour, stroke=INK, width=0.3)
    pen.polygon([at(-0.2, 0.5), at(0.2, 0.5), at(0.2, 0.68), at(-0.2, 0.68)], fill=colour)
