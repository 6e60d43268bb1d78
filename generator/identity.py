"""Each game's graphic identity: its **title mark**, the **designed backs** of its decks and its
**cover card** (issue 44, point 3).

* :func:`title_mark` draws a game's mark in any box (card or page mm): a drawn emblem made from the
  game's own motif, beside or above the game's name set as stacked capitals in the bundled bold
  face, each line sized to the same measure. The emblems are our own: a route linking five stations
  (Keep London Moving), a day's arc of stops over a horizon (One Day in London), a line drawn over a
  grid of station symbols (Next Station: London), a die whose pips a line joins (Tube Dice), a meeple
  stepping off lava (Keep Moving). No circle anywhere in a mark and nothing crossing one like a bar:
  the Underground roundel and bar-and-circle are Transport for London's trade marks.
* :func:`deck_back` is every deck's back: one flat ground colour running :data:`DRIFT` mm past the
  trim (the deck's ``back_bleed`` lets it onto the sheet), so a back printed 1.5 mm off and cut 1 mm
  off still shows that colour at every edge, and inside the safe area the game's mark, generative
  art drawn from the game's own data (:class:`Art`: the network's lines as a diagram, the lines as a
  band of colours or a strip map, a map sheet's station grid, the pencils, the lava field, the dice)
  and the deck's name, with a footer naming game and deck ("Keep London Moving · Station Cards").
  What a duplex drift still moves is the design, by up to 1.5 mm against the cut edge: it keeps 4 mm
  clear of the trim and has no frame near the edge, where such a shift shows most. Decks of one game differ
  by art *and* lettering, so they sort face down from a black-and-white printer too. In ink-saver
  mode there is no ground: the mark in outline, the name and thin lines on the paper.
* :func:`cover_front` / :func:`cover_back`: the game's cover card (mark, tag line, players, playing
  time; on its back what the game prints), a one-card ``cover`` deck each game prints with its
  smallest card deck (see the games' ``documents``).

This module is engine: it knows no game's rules. Each game's faces pass in what its art is made of
(routes from the network, its pencils, its ground cards) and its cover's words.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence

from .colour import as_rgb, contrast, resolve
from .pen import DRIFT, Pen
from .sizes import PT, Rect
from .text import measure
from .theme import BLUE, BOLD, INK, MIN_PT, PAPER, PILE_BACKS, PLAY_PT, RED, TEXT, WHITE

Point = tuple[float, float]


@dataclass(frozen=True)
class Identity:
    """A game's name as its mark sets it (``words``: one line each) and the mark's two colours."""

    name: str
    words: tuple[str, ...]
    colour: str  # the emblem's frame and the lettering on paper
    accent: str  # the emblem's line (route, arc, lava)
    motif: str


LAVA = "#D84315"
IDENTITIES: dict[str, Identity] = {
    "klm": Identity("Keep London Moving", ("KEEP LONDON", "MOVING"), BLUE, RED, "klm"),
    "oneday": Identity("One Day in London", ("ONE DAY", "IN LONDON"), "#A51D19", BLUE, "oneday"),
    "nextstation": Identity("Next Station: London", ("NEXT STATION", "LONDON"), "#33691E", "#6A1B9A", "nextstation"),
    "dice": Identity("Tube Dice", ("TUBE", "DICE"), "#00695C", RED, "dice"),
    "keepmoving": Identity("Keep Moving", ("KEEP", "MOVING"), "#37474F", LAVA, "keepmoving"),
    "sampler": Identity("tubedeck sampler", ("TUBEDECK", "SAMPLER"), BLUE, RED, "sampler"),
}

# The ground of each back; piles keep their flat colour of generator.theme.PILE_BACKS.
GROUNDS = {"klm stations": PILE_BACKS["klm station"], "klm fortune": PILE_BACKS["klm fortune"],
           "oneday stations": PILE_BACKS["oneday station"], "nextstation stations": PILE_BACKS["nextstation station"],
           "keepmoving pile": PILE_BACKS["keepmoving"], "sampler stations": BLUE}


# -- colours as the page prints -------------------------------------------------------------------
def _on(pen: Pen, ground: str | None, colour: str) -> str:
    """``colour`` where it reads on ``ground`` as this page prints (the paper in ink-saver), else
    black or white."""
    under = PAPER if ground is None or pen.ink_saver else ground
    return str(pen.text_on(under, colour))


GRAPHIC_CONTRAST = 3.0  # lines and shapes (not text) against what is behind them, as printed (WCAG non-text)


def _shape(pen: Pen, ground: str | None, colour: str) -> str:
    """``colour`` for a line or shape on ``ground`` if it stands out there at 3:1 as this page
    prints (the paper in ink-saver), else black or white."""
    under = as_rgb(resolve(PAPER if ground is None or pen.ink_saver else ground, pen.mode, "fill"))
    if contrast(as_rgb(resolve(colour, pen.mode, "stroke")), under) >= GRAPHIC_CONTRAST:
        return colour
    return str(pen.text_on(PAPER if ground is None or pen.ink_saver else ground))


def halo(pen: Pen, ground: str | None) -> str:
    """The casing under art lines on ``ground``: whichever of white and ink stands out more."""
    return str(pen.text_on(PAPER if ground is None or pen.ink_saver else ground))


# -- the emblems ----------------------------------------------------------------------------------
def _diamond(pen: Pen, x: float, y: float, r: float, fill: str | None, stroke: str | None, width: float) -> None:
    pen.polygon(((x, y - r), (x + r, y), (x, y + r), (x - r, y)), fill=fill, stroke=stroke, width=width)


def _regular(x: float, y: float, r: float, n: int, turn: float = 90.0) -> list[Point]:
    return [(x + r * math.cos(math.radians(turn + 360 * k / n)), y + r * math.sin(math.radians(turn + 360 * k / n)))
            for k in range(n)]


def emblem(pen: Pen, box: Rect, game: str, ground: str | None = PAPER, outline: bool | None = None) -> None:
    """The game's emblem in the square centred in ``box``: a rounded frame and the game's motif
    (``outline``, default ink-saver: strokes only, no solid areas)."""
    ident = IDENTITIES[game]
    outline = pen.ink_saver if outline is None else outline
    a = min(box.w, box.h) / 2
    cx, cy = box.centre
    col, acc = _shape(pen, ground, ident.colour), _shape(pen, ground, ident.accent)
    on_dark = col == "#FFFFFF"
    if on_dark:  # white frame on a dark ground: the motif in the accent needs its own paper to read
        acc = ident.accent

    def u(x: float, y: float) -> Point:
        return (cx + x * a, cy + y * a)

    sw = a * 0.1
    if on_dark and not outline:  # a white tile (a fill alone: no outlined badge under the motif's stations)
        pen.rect(cx - a, cy - a, 2 * a, 2 * a, fill=WHITE, radius=a * 0.3 + sw / 2)
    else:
        pen.rect(cx - a + sw / 2, cy - a + sw / 2, 2 * a - sw, 2 * a - sw, stroke=col, width=sw, radius=a * 0.3)
    ink = INK if on_dark else col  # what the motif's frame colour is inside a white tile
    if ident.motif == "klm":  # a route linking five continuous stations
        pts = [u(-0.6, -0.45), u(-0.2, -0.45), u(0.2, -0.05), u(0.6, -0.05), u(0.6, 0.45)]
        pen.polyline(pts, stroke=acc, width=a * 0.14)
        for x, y in pts:
            _diamond(pen, x, y, a * 0.15, WHITE, ink, a * 0.07)
    elif ident.motif == "oneday":  # a day's arc of ten stops over the horizon
        arc = [u(0.62 * math.cos(math.radians(t)), -0.3 + 0.62 * math.sin(math.radians(t)))
               for t in (180, 135, 90, 45, 0)]
        pen.line(*u(-0.72, -0.42), *u(0.72, -0.42), stroke=ink, width=a * 0.08)
        pen.polyline(arc, stroke=acc, width=a * 0.12)
        lengths = [math.dist(p, q) for p, q in zip(arc, arc[1:])]
        total = sum(lengths)
        for k in range(10):
            d, i = total * (k + 0.5) / 10, 0
            while d > lengths[i]:
                d -= lengths[i]
                i += 1
            (x1, y1), (x2, y2) = arc[i], arc[i + 1]
            f = d / lengths[i]
            x, y = x1 + (x2 - x1) * f, y1 + (y2 - y1) * f
            nx, ny = -(y2 - y1) / lengths[i], (x2 - x1) / lengths[i]  # outwards (the arc runs clockwise)
            nx, ny = -nx, -ny
            pen.line(x, y, x - nx * a * 0.16, y - ny * a * 0.16, stroke=ink, width=a * 0.06)
    elif ident.motif == "nextstation":  # a line drawn from symbol to symbol on the grid
        grid = [(-0.45, -0.45), (0.0, -0.45), (0.45, -0.45), (-0.45, 0.0), (0.0, 0.0), (0.45, 0.0),
                (-0.45, 0.45), (0.0, 0.45), (0.45, 0.45)]
        pen.polyline([u(*grid[k]) for k in (6, 3, 4, 2)], stroke=acc, width=a * 0.12)
        for k, (gx, gy) in enumerate(grid):
            x, y = u(gx, gy)
            r, shape = a * 0.14, k % 4
            if shape == 0:
                pen.rect(x - r * 0.8, y - r * 0.8, 1.6 * r, 1.6 * r, fill=WHITE, stroke=ink, width=a * 0.06)
            else:
                pen.polygon(_regular(x, y, r, (3, 5, 4)[shape - 1], 90.0 if shape != 3 else 0.0), fill=WHITE,
                            stroke=ink, width=a * 0.06)
    elif ident.motif == "dice":  # a die's five pips joined by a line
        pips = [u(-0.42, -0.42), u(-0.42, 0.42), u(0.0, 0.0), u(0.42, -0.42), u(0.42, 0.42)]
        pen.polyline([pips[0], pips[1], pips[3], pips[4]], stroke=acc, width=a * 0.1)
        for x, y in pips:
            _diamond(pen, x, y, a * 0.16, None if outline else ink, ink, a * 0.06)
    elif ident.motif == "keepmoving":  # a meeple stepping off the lava onto grass
        y0, y1 = -0.78, -0.42
        kinds = (("#5DA130", -0.72, -0.26), (ident.accent, -0.24, 0.24), ("#C8A26B", 0.26, 0.72))
        for fill, x0, x1 in kinds:
            pen.rect(*u(x0, y0), (x1 - x0) * a, (y1 - y0) * a, fill=None if outline else fill, stroke=ink,
                     width=a * 0.05)
        wave = [u(-0.2 + 0.08 * k, -0.6 + (0.07 if k % 2 else -0.07)) for k in range(6)]
        pen.polyline(wave, stroke=WHITE if not outline else acc, width=a * 0.05)
        h, mx, my = 0.98, 0.3, y1
        body = [(-0.12, 0.64), (0.12, 0.64), (0.44, 0.52), (0.47, 0.42), (0.2, 0.37), (0.33, 0.0), (0.08, 0.0),
                (0.0, 0.13), (-0.08, 0.0), (-0.33, 0.0), (-0.2, 0.37), (-0.47, 0.42), (-0.44, 0.52)]
        pen.polygon([u(mx + x * h * 0.8, my + y * h) for x, y in body], fill=None if outline else ink, stroke=ink,
                    width=a * 0.04)
        pen.polygon([u(mx + 0.15 * h * math.cos(math.radians(22.5 + 45 * k)),
                       my + 0.81 * h + 0.15 * h * math.sin(math.radians(22.5 + 45 * k))) for k in range(8)],
                    fill=None if outline else ink, stroke=ink, width=a * 0.04)
        for k in range(3):  # moving: three strokes behind it
            y = -0.2 + 0.2 * k
            pen.line(*u(-0.62, y), *u(-0.2, y), stroke=acc, width=a * 0.07)
    else:  # the sampler: tubedeck's own tile
        from .emblem import tile

        tile(pen, cx, cy, a * 0.8, acc)


# -- the lettering --------------------------------------------------------------------------------
CAP = 0.73  # the bold face's capital height, in ems
ASCENT, DESCENT = 0.93, 0.24  # its line box above and below the baseline, in ems: stacked lines' boxes never meet
GAP = 0.2  # mm between one line's box and the next


def _pitches(sizes: Sequence[float]) -> list[float]:
    """Baseline to baseline (mm) between each stacked line and the next."""
    return [(DESCENT * a + ASCENT * b) * PT + GAP for a, b in zip(sizes, sizes[1:])]


def _stack(pen: Pen, words: Sequence[str], w: float, h: float) -> list[float] | None:
    """Sizes (pt) that set each of ``words`` to the width ``w`` (a short word no more than 1.3
    times the longest's size), all scaled down together to fit ``h``; None under 6 pt."""
    sizes = [w / pen.text_width(word, BOLD, 1.0) for word in words]
    least = min(sizes)
    sizes = [min(s, least * 1.3) for s in sizes]
    fixed = GAP * (len(words) - 1)
    height = CAP * sizes[0] * PT + sum(_pitches(sizes)) - fixed  # the part that scales with the sizes
    k = min(1.0, max(0.0, h - fixed) / height) if height > 0 else 0.0
    sizes = [s * k for s in sizes]
    return sizes if min(sizes) >= MIN_PT else None


def lettering(pen: Pen, box: Rect, game: str, ground: str | None = PAPER, align: str = "centre") -> None:
    """The game's name as the mark sets it: stacked capitals, each line to one measure, with the
    accent's rule under them; a box too small for that gets the name fitted on as few lines as hold it."""
    ident = IDENTITIES[game]
    colour = _on(pen, ground, ident.colour)
    rule = max(0.4, box.h * 0.05)
    under = 2.4 * rule  # the rule 1.4 rules under the capitals, a rule thick
    sizes = _stack(pen, ident.words, box.w, box.h - under)
    if sizes is None:
        pen.text_box(box, ident.name.upper(), font=BOLD, size=14, min_size=MIN_PT, colour=colour, align=align,
                     field="title")
        return
    height = CAP * sizes[0] * PT + sum(_pitches(sizes))
    width = max(pen.text_width(word, BOLD, s) for word, s in zip(ident.words, sizes))
    top = box.y + (box.h + height + under) / 2
    x = {"left": box.x, "centre": box.x + box.w / 2}[align]
    y = top - CAP * sizes[0] * PT
    for i, (word, s) in enumerate(zip(ident.words, sizes)):
        pen.text(x, y, word, font=BOLD, size=s, colour=colour, align=align, field="title")
        if i < len(sizes) - 1:
            y -= _pitches(sizes)[i]
    left = x if align == "left" else x - width / 2
    accent = _shape(pen, ground, ident.accent)
    y -= 1.9 * rule
    pen.line(left, y, left + width, y, stroke=accent, width=rule)


def title_mark(pen: Pen, box: Rect, game: str, ground: str | None = PAPER) -> None:
    """The game's title mark inside ``box`` (card or page mm): the emblem beside the lettering in a
    wide box, above it in a tall one. ``ground``: the colour under the box, so the mark reads on it
    (``None`` or ink-saver: the paper)."""
    wide = box.w >= box.h * 1.5
    if wide:
        side = min(box.h, box.w * 0.3)
        gap = side * 0.18
        emblem(pen, Rect(box.x, box.y + (box.h - side) / 2, side, side), game, ground)
        lettering(pen, Rect(box.x + side + gap, box.y, box.w - side - gap, box.h), game, ground, align="left")
    else:
        side = min(box.w * 0.6, box.h * 0.45)
        gap = side * 0.12
        emblem(pen, Rect(box.x + (box.w - side) / 2, box.top - side, side, side), game, ground)
        lettering(pen, Rect(box.x, box.y, box.w, box.h - side - gap), game, ground)


# -- generative art -------------------------------------------------------------------------------
Art = Callable[[Pen, Rect, Optional[str]], None]  # (pen, box, ground): draws inside box
Route = tuple[str, tuple[Point, ...]]  # (line colour, [(lon, lat), ...])


def routes_of(network, lines: Iterable[str] | None = None) -> tuple[Route, ...]:
    """Every branch of ``network`` (a :class:`tubedeck.network.Network`) as (colour, [(lon, lat)])."""
    keep = None if lines is None else set(lines)
    out = []
    for b in network.branches:
        if keep is not None and b.line not in keep:
            continue
        pts = tuple((network.stations[s].lon, network.stations[s].lat) for s in b.stations if s in network.stations)
        if len(pts) >= 2:
            out.append((network.lines[b.line].colour, pts))
    return tuple(out)


def _projector(points: Sequence[Point], box: Rect) -> Callable[[Point], Point]:
    """(lon, lat) to mm in ``box``, north up, shape kept (a local equirectangular view), centred."""
    lat0 = sum(p[1] for p in points) / len(points)
    k = math.cos(math.radians(lat0))
    xs, ys = [p[0] * k for p in points], [p[1] for p in points]
    dx, dy = max(xs) - min(xs) or 1e-9, max(ys) - min(ys) or 1e-9
    scale = min(box.w / dx, box.h / dy)
    ox = box.x + (box.w - dx * scale) / 2 - min(xs) * scale
    oy = box.y + (box.h - dy * scale) / 2 - min(ys) * scale
    return lambda p: (ox + p[0] * k * scale, oy + p[1] * scale)


def network_art(routes: Sequence[Route]) -> Art:
    """The lines as a diagram: each branch in its colour, cased so it reads on any ground."""
    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        pts = [p for _, r in routes for p in r]
        if not pts:
            return
        at = _projector(pts, box.inset(1.0))
        width = max(0.5, min(1.1, min(box.w, box.h) / 45))
        if pen.ink_saver:
            for colour, r in routes:
                pen.polyline([at(p) for p in r], stroke=_shape(pen, None, colour), width=0.45)
            return
        case = halo(pen, ground)
        for _, r in routes:
            pen.polyline([at(p) for p in r], stroke=case, width=width + 0.7)
        for colour, r in routes:
            pen.polyline([at(p) for p in r], stroke=colour, width=width)
    return draw


def grid_art(stations: Sequence[tuple[int, int, int]], sections: Sequence[tuple[int, int, int, int]]) -> Art:
    """A station grid (Next Station's map sheet): ``stations`` (column, row, symbol number) as
    small symbols, ``sections`` (column, row, column, row) as thin lines between them."""
    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        if not stations:
            return
        cols = max(c for c, _, _ in stations) + 1
        rows = max(r for _, r, _ in stations) + 1
        pitch = min(box.w / cols, box.h / rows)
        x0 = box.x + (box.w - pitch * cols) / 2 + pitch / 2
        y0 = box.top - (box.h - pitch * rows) / 2 - pitch / 2

        def at(c: float, r: float) -> Point:
            return (x0 + c * pitch, y0 - r * pitch)
        ink = halo(pen, ground) if not pen.ink_saver else INK
        for c1, r1, c2, r2 in sections:
            pen.line(*at(c1, r1), *at(c2, r2), stroke=ink, width=max(0.2, pitch * 0.06), dash=[pitch * 0.12] * 2)
        r = pitch * 0.26
        for c, row, kind in stations:
            x, y = at(c, row)
            fill = None if pen.ink_saver else ink
            if kind % 4 == 0:
                pen.rect(x - r * 0.8, y - r * 0.8, 1.6 * r, 1.6 * r, fill=fill, stroke=ink, width=0.2)
            else:
                pen.polygon(_regular(x, y, r, (3, 5, 4)[kind % 4 - 1], 90.0 if kind % 4 != 3 else 0.0), fill=fill,
                            stroke=ink, width=0.2)
    return draw


def bands_art(colours: Sequence[str]) -> Art:
    """The lines' colours as diagonal bands, cased, repeated across the box."""
    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        if not colours:
            return
        n = len(colours)
        pitch = max(2.2, (box.w + box.h) / (2.2 * n))
        width = min(0.6, pitch * 0.2) if pen.ink_saver else pitch * 0.62
        case = halo(pen, ground)
        with pen.clip(box):
            k, x = 0, box.x - box.h
            while x < box.right + pitch:
                if not pen.ink_saver:
                    pen.line(x, box.y, x + box.h, box.top, stroke=case, width=width + 0.7)
                pen.line(x, box.y, x + box.h, box.top, stroke=_shape(pen, ground, colours[k % n]) if pen.ink_saver
                         else colours[k % n], width=width)
                k, x = k + 1, x + pitch
    return draw


def strips_art(lines: Sequence[tuple[str, int]]) -> Art:
    """A strip map: each line (colour, its number of stations) a horizontal bar with a tick per station."""
    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        if not lines:
            return
        row = box.h / len(lines)
        bar = min(1.4, row * 0.3) if not pen.ink_saver else 0.5
        case = halo(pen, ground)
        for i, (asked, n) in enumerate(lines):
            colour = _shape(pen, ground, asked) if pen.ink_saver else asked
            y = box.top - row * (i + 0.5)
            x0, x1 = box.x + 1.0, box.right - 1.0
            if not pen.ink_saver:
                pen.line(x0, y, x1, y, stroke=case, width=bar + 0.7)
            pen.line(x0, y, x1, y, stroke=colour, width=bar)
            for k in range(max(n, 2)):
                x = x0 + (x1 - x0) * k / max(n - 1, 1)
                up = 1 if k % 2 == 0 else -1
                pen.line(x, y, x, y + up * (bar / 2 + row * 0.22), stroke=colour, width=max(0.25, bar * 0.35))
    return draw


def pencils_art(colours: Sequence[str]) -> Art:
    """The pencils, side by side on the slant, each in its colour."""
    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        n = len(colours)
        if not n:
            return
        w = min(box.w / (n * 1.4), 6.0)
        length = min(box.h * 0.92, box.w * 1.6)
        ang = math.radians(60)
        ux, uy = math.cos(ang), math.sin(ang)
        nx, ny = -uy, ux
        for i, colour in enumerate(colours):
            off = (i - (n - 1) / 2) * w * 1.4
            cx, cy = box.centre[0] + nx * off, box.centre[1] + ny * off
            bx, by = cx - ux * length / 2, cy - uy * length / 2  # the pencil's end
            tip = length * 0.18
            body_end = (cx + ux * (length / 2 - tip), cy + uy * (length / 2 - tip))

            def q(px: float, py: float, s: float) -> Point:
                return (px + nx * s, py + ny * s)
            fill = None if pen.ink_saver else colour
            pen.polygon((q(bx, by, w / 2), q(*body_end, w / 2), q(*body_end, -w / 2), q(bx, by, -w / 2)),
                        fill=fill, stroke=INK if pen.ink_saver else halo(pen, ground), width=0.3)
            point = (cx + ux * length / 2, cy + uy * length / 2)
            pen.polygon((q(*body_end, w / 2), point, q(*body_end, -w / 2)), fill=None if pen.ink_saver else "#F1D3A1",
                        stroke=INK, width=0.3)
            lead = (point[0] - ux * tip * 0.35, point[1] - uy * tip * 0.35)
            lead_ink = _shape(pen, ground, colour) if pen.ink_saver else colour
            pen.polygon((q(*lead, w * 0.175), point, q(*lead, -w * 0.175)), fill=lead_ink, stroke=lead_ink, width=0.2)
    return draw


def lava_art(kinds: Sequence[str], colours: dict[str, tuple[str, str]], seed: str = "field", cols: int = 4) -> Art:
    """The ground as tiles, ``cols`` a row, in the order given, each kind in its colours (ground,
    ink) with its pattern: lava cracks, grass tufts, soil stones (seeded)."""
    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        n = len(kinds)
        if not n:
            return
        c = min(cols, n)
        rows = -(-n // c)
        gap = 0.8
        tw = (box.w - gap * (c - 1)) / c
        th = min((box.h - gap * (rows - 1)) / rows, tw)
        y0 = box.y + (box.h - rows * th - gap * (rows - 1)) / 2
        rng = random.Random(seed)
        edge = halo(pen, ground) if not pen.ink_saver else INK
        for i, kind in enumerate(kinds):
            col, row = i % c, i // c
            x, y = box.x + col * (tw + gap), y0 + (rows - 1 - row) * (th + gap)
            fill, ink = colours[kind]
            ink = _shape(pen, None, ink) if pen.ink_saver else ink  # on the paler fill: dark enough
            pen.rect(x, y, tw, th, fill=fill, stroke=edge, width=0.25, radius=min(1.0, th / 4))
            _pattern(pen, kind, Rect(x, y, tw, th).inset(min(1.0, th / 5)), rng, ink)
    return draw


def _pattern(pen: Pen, kind: str, box: Rect, rng: random.Random, ink: str) -> None:
    if box.w <= 0 or box.h <= 0:
        return
    if kind == "lava":
        for _ in range(2):
            x, y = box.x + rng.random() * box.w * 0.3, box.y + rng.random() * box.h
            pts = [(x, y)]
            while x < box.right - box.w * 0.2:
                x = min(box.right, x + box.w * (0.15 + 0.15 * rng.random()))
                y = min(box.top, max(box.y, y + (rng.random() - 0.5) * box.h * 0.6))
                pts.append((x, y))
            pen.polyline(pts, stroke=ink, width=0.3)
    elif kind == "grassland":
        for _ in range(3):
            x, y = box.x + rng.random() * box.w * 0.8 + box.w * 0.1, box.y + rng.random() * box.h * 0.6
            s = min(box.w, box.h) * 0.25
            pen.polyline(((x - s / 2, y + s), (x, y), (x + s / 2, y + s)), stroke=ink, width=0.3)
    else:
        for _ in range(3):
            x, y = box.x + rng.random() * box.w, box.y + rng.random() * box.h
            _diamond(pen, x, y, min(box.w, box.h) * 0.08, None, ink, 0.25)


def dice_art(dice: Sequence[Sequence[int]]) -> Art:
    """The dice in a row, each showing one of its faces (the k-th die its k-th face), pips as diamonds."""
    layout = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
              4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
              5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)], 6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}

    def draw(pen: Pen, box: Rect, ground: str | None) -> None:
        n = len(dice)
        if not n:
            return
        side = min(box.h * 0.8, (box.w - (n - 1) * 1.5) / n)
        gap = (box.w - n * side) / max(n - 1, 1) if n > 1 else 0.0
        y = box.y + (box.h - side) / 2
        for k, faces in enumerate(dice):
            x = box.x + k * (side + gap) if n > 1 else box.x + (box.w - side) / 2
            pen.rect(x, y, side, side, fill=WHITE, stroke=INK, width=0.3, radius=side * 0.18)
            value = faces[k % len(faces)]
            for px, py in layout.get(value, []):
                _diamond(pen, x + side / 2 + px * side * 0.27, y + side / 2 + py * side * 0.27, side * 0.09, INK,
                         None, 0.0)
    return draw


# -- backs ----------------------------------------------------------------------------------------
def ground_flood(pen: Pen, ground: str) -> None:
    """One flat ``ground`` :data:`DRIFT` mm past the trim (the sheets' clip takes what the deck's
    ``back_bleed`` allows); nothing in ink-saver."""
    if not pen.ink_saver:
        t, bb = pen.trim, pen.bleed_box
        grow = max(DRIFT, t.x - bb.x, bb.right - t.right, t.y - bb.y, bb.top - t.top)  # a wider --bleed too
        b = t.inset(-grow)
        pen.rect(b.x, b.y, b.w, b.h, fill=ground)


def deck_back(pen: Pen, game: str, deck: str, art: Art | None = None, ground: str = PAPER) -> None:
    """A deck's designed back: ``ground`` past the trim; inside the safe area the game's title mark
    at the top, ``art`` in the middle, the deck's name and the footer "Game · Deck" at the foot."""
    ground_flood(pen, ground)
    s = pen.safe.inset(1.0)
    ink = _on(pen, ground, INK)
    footer = f"{IDENTITIES[game].name} \u00b7 {deck}"
    foot = measure(footer, TEXT, 7.0, MIN_PT, s.w, max_lines=2)
    foot_h = foot.height if foot is not None else 2 * MIN_PT * PT * 1.2
    pen.text_box(Rect(s.x, s.y, s.w, foot_h), footer, font=TEXT, size=7.0, min_size=MIN_PT, colour=ink, max_lines=2,
                 field="back")
    word = deck.upper()
    one = measure(word, BOLD, 14.0, PLAY_PT, s.w, min(9.0, s.h * 0.12), max_lines=1)
    two = one or measure(word, BOLD, 14.0, PLAY_PT, s.w, min(14.0, s.h * 0.2), max_lines=2)
    name_h = two.height if two is not None else min(14.0, s.h * 0.2)  # None: text_box says what did not fit
    name_box = Rect(s.x, s.y + foot_h + 0.8, s.w, name_h)
    pen.text_box(name_box, word, font=BOLD, size=14, min_size=PLAY_PT, colour=ink, max_lines=2, field="deck")
    _mark_over_art(pen, s, game, ground, art, name_box.top, (0.34, 0.3), (0.45, 0.62))


def _mark_over_art(pen: Pen, s: Rect, game: str, ground: str, art: Art | None, floor: float,
                   share: tuple[float, float], width: tuple[float, float]) -> None:
    """The title mark at the top of ``s`` (``share`` of its height, ``width`` of its width: on a wide
    card, on a tall one) and ``art`` between it and ``floor`` (a back's deck name, a cover's tag line)."""
    wide = s.w >= s.h * 1.2
    mark_h = min(s.h * (share[0] if wide else share[1]), s.w * (width[0] if wide else width[1]))
    title_mark(pen, Rect(s.x, s.top - mark_h, s.w, mark_h), game, ground)
    if art is not None:
        box = Rect(s.x, floor + 1.5, s.w, s.top - mark_h - 2.0 - (floor + 1.5))
        if box.h > 4.0:
            with pen.clip(box.inset(-0.6)):
                art(pen, box, ground)


def back(game: str, deck: str, art: Art | None = None, ground: str = PAPER) -> Callable[[Pen], None]:
    """A deck's back as a face: ``Deck(..., back=sized(back("klm", "Station Cards", art, BLUE), size))``."""
    def face(pen: Pen) -> None:
        deck_back(pen, game, deck, art, ground)
    face.__name__ = face.__qualname__ = f"{game}_back"
    return face


# -- the cover card -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cover:
    """What a game's cover card says: its tag line, players, playing time and contents."""

    tagline: str
    players: tuple[int, int] | None  # (fewest, most), as the game declares them
    minutes: str  # e.g. "about 30 min"
    contents: tuple[str, ...] = ()

    @property
    def players_text(self) -> str:
        if self.players is None:
            return ""
        lo, hi = self.players
        return f"{lo} players" if lo == hi else f"{lo}\u2013{hi} players"


def cover_front(pen: Pen, game: str, cover: Cover, art: Art | None = None, ground: str = PAPER) -> None:
    """The cover: the title mark large, ``art`` under it, the tag line, and players and time."""
    pen.background(ground)
    s = pen.safe.inset(1.0)
    ink = _on(pen, ground, INK)
    facts = " \u00b7 ".join(t for t in (cover.players_text, cover.minutes) if t)
    fit = measure(facts, BOLD, 9.0, PLAY_PT, s.w, max_lines=2)
    facts_h = (fit.height if fit is not None else 2 * PLAY_PT * PT * 1.25) + 0.2
    pen.text_box(Rect(s.x, s.y, s.w, facts_h), facts, font=BOLD, size=9, min_size=PLAY_PT, colour=ink, max_lines=2,
                 field="facts")
    tag = measure(cover.tagline, "sans-italic", 8.0, PLAY_PT, s.w, s.h * 0.45)  # the art gives way on small cards
    tag_h = tag.height if tag is not None else s.h * 0.45
    tag_box = Rect(s.x, s.y + facts_h + 1.0, s.w, tag_h)
    pen.text_box(tag_box, cover.tagline, font="sans-italic", size=8, min_size=PLAY_PT, colour=ink, field="tagline")
    _mark_over_art(pen, s, game, ground, art, tag_box.top, (0.45, 0.42), (0.5, 0.9))


def cover_back(pen: Pen, game: str, cover: Cover, ground: str = PAPER) -> None:
    """The cover's back: the ``ground`` past the trim, the mark small, and what the game prints."""
    ground_flood(pen, ground)
    s = pen.safe.inset(1.0)
    ink = _on(pen, ground, INK)
    mark_h = min(s.h * 0.24, s.w * 0.5)
    title_mark(pen, Rect(s.x, s.top - mark_h, s.w, mark_h), game, ground)
    box = Rect(s.x, s.y, s.w, s.h - mark_h - 2.0)
    head = f"In {IDENTITIES[game].name}:"
    body = head + "\n" + "\n".join(f"\u2022 {c}" for c in cover.contents)
    if measure(body, TEXT, 8.0, MIN_PT, box.w, box.h) is None:  # a small card: the list runs on
        body = head + " " + "; ".join(cover.contents) + "."
    pen.text_box(box, body, font=TEXT, size=8, min_size=MIN_PT, colour=ink, align="left", valign="top",
                 field="contents")


def cover_faces(game: str, cover: Cover, art: Art | None = None, ground: str = PAPER,
                back_ground: str = PAPER) -> tuple[Callable[[Pen], None], Callable[[Pen], None]]:
    """(front, back) faces of a game's cover card; ``back_ground`` the ground of the decks it shares sheets with."""
    def front(pen: Pen) -> None:
        cover_front(pen, game, cover, art, ground)

    def back_face(pen: Pen) -> None:
        cover_back(pen, game, cover, back_ground)
    return front, back_face


__all__ = ["Art", "Cover", "GROUNDS", "IDENTITIES", "Identity", "back", "bands_art", "cover_back", "cover_faces",
           "cover_front", "deck_back", "dice_art", "emblem", "grid_art", "lava_art", "lettering", "network_art",
           "pencils_art",
           "routes_of", "strips_art", "title_mark"]
