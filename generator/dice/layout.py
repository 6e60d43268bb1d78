"""The Tube Dice map's geometry: station places, line strokes, section boxes and name labels.

Stations start at their real places (equirectangular, stretched to fill the map area: the map
takes the whole height beside the column, up to ``MAX_STRETCH`` out of true), then a fixed number
of deterministic relaxation rounds make room for what a player writes and marks: every
connection long enough for its 3.2 mm boxes between two 6.6 mm circles, stations apart, no line
passing near a station it does not serve, and no two connections crossing within
``CROSS_CLEAR`` mm of a station circle (where a player would read the wrong connection, as
Euston / Euston Square / Warren Street once did): :func:`crossings` is the test's and the
layout's one definition of a crossing. Section boxes go where they keep ``BOX_AIR`` mm off every
other connection's strokes (so never on a crossing, nor beside another line where a player could
not tell which line a box is on: :func:`box_air` is the test's and the layout's one measure); a
connection whose boxes find no such room is lengthened by a box pitch and the map relaxed again
(:func:`layout`), and a map where that still fails is refused. Labels then take the first free spot round their
station (no label over a line, a box, a circle or another label): :func:`label_clashes` is the
test's and the layout's one definition of "over".
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, replace
from functools import partial
from typing import Callable, Sequence

from tubedeck.errors import UsageError
from tubedeck.games.dice.board import Board
from tubedeck.generator.diagram import Cut, Edge, Spec
from tubedeck.generator.diagram.cache import laid_out
from tubedeck.generator.diagram.check import city_order
from tubedeck.generator.diagram.measure import crossing_point
from tubedeck.generator.diagram.model import fit, places
from tubedeck.generator.sizes import Rect

Point = tuple[float, float]
RADIUS = 3.3  # mm: a 6.6 mm circle holds a written digit
ZONE_RING = 1.0  # mm outside a station's circle: every other zone's stations get a second ink ring
BOX, PITCH, GAP = 3.2, 4.0, 1.4  # section box side (a pencil mark needs 3-3.5 mm), box pitch, clearance from a circle
STROKE = 1.2  # mm per line; lines sharing a connection run side by side
LABEL_PT = 6.5
STAR_W = 3.2  # mm the star takes before the star station's name
MIN_APART = 15.0  # mm between station centres
CLEAR = RADIUS + 3.2  # mm from a station to a connection it is not on
CROSS_CLEAR = 8.0  # mm from a crossing of two connections to the nearest station circle's edge
CROSS_AIR = 1.5  # mm more the layout keeps: side-by-side strokes cross up to this far from the centre lines
MAX_STRETCH = 1.5  # the projection may stretch one axis up to this much more than the other to fill the area


def need(sections: int) -> float:
    """The shortest connection (centre to centre) that fits its boxes."""
    return 2 * (RADIUS + GAP) + sections * PITCH


@dataclass(frozen=True)
class Label:
    lines: tuple[str, ...]
    box: Rect  # ink box, star included
    star: bool


@dataclass(frozen=True)
class MapLayout:
    at: tuple[Point, ...]
    strokes: tuple[tuple[int, str, Point, Point], ...]  # (connection, line id, from, to)
    boxes: tuple[tuple[int, tuple[Point, ...]], ...]  # (connection, square corners)
    labels: tuple[Label, ...]
    half: tuple[float, ...]  # per connection: half the width its strokes and boxes take

    def capsules(self, board: Board) -> list[tuple[Point, Point, float]]:
        """Each connection as a segment and half-width: what a label must keep off."""
        return [(self.at[c.a], self.at[c.b], self.half[c.index]) for c in board.connections]


def project(board: Board, box: Rect) -> list[Point]:
    """Real places (equirectangular), scaled to fill ``box``: each axis to its side, the one
    stretched at most ``MAX_STRETCH`` times the other (a schematic map, as the tube's is)."""
    lat = sum(s.lat for s in board.stations) / len(board.stations)
    k = math.cos(math.radians(lat))
    xs = [s.lon * k for s in board.stations]
    ys = [s.lat for s in board.stations]
    w, h = (max(xs) - min(xs)) or 1e-9, (max(ys) - min(ys)) or 1e-9
    sx, sy = box.w / w, box.h / h
    sx, sy = min(sx, sy * MAX_STRETCH), min(sy, sx * MAX_STRETCH)
    ox, oy = box.x + (box.w - w * sx) / 2, box.y + (box.h - h * sy) / 2
    return [(ox + (x - min(xs)) * sx, oy + (y - min(ys)) * sy) for x, y in zip(xs, ys)]


def crossings(ends: Sequence[tuple[int, int]], at: Sequence[Point]) -> list[tuple[int, int, Point, int, float]]:
    """Every crossing of two connections with no station in common (``ends``: each connection's
    stations): (connection, connection, where, nearest station, mm from that station's circle)."""
    out = []
    for i, (a, b) in enumerate(ends):
        for j in range(i + 1, len(ends)):
            c, d = ends[j]
            if len({a, b, c, d}) < 4:
                continue
            x = crossing_point(at[a], at[b], at[c], at[d])
            if x is None:
                continue
            near = min(range(len(at)), key=lambda s: math.hypot(at[s][0] - x[0], at[s][1] - x[1]))
            out.append((i, j, x, near, math.hypot(at[near][0] - x[0], at[near][1] - x[1]) - RADIUS))
    return out


def seg_distance(p: Sequence[float], a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """Distance from p to segment ab and the unit vector from the segment towards p (points: (x, y))."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ((dx * dx + dy * dy) or 1.0)))
    nx, ny = p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)
    d = math.hypot(nx, ny)
    if d < 1e-9:
        length = math.hypot(dx, dy) or 1.0
        return 0.0, -dy / length, dx / length
    return d, nx / d, ny / d


def relax(board: Board, start: list[Point], area: Rect, rounds: int = 400,
          extra: Sequence[float] = ()) -> list[Point]:
    """Relax ``start`` until every rule holds (or ``rounds`` run out); ``extra``: mm more than
    :func:`need` a connection asks for (by index: room to place its boxes clear of other lines)."""
    pos = [list(p) for p in start]
    n = len(pos)
    more = list(extra) + [0.0] * (len(board.connections) - len(extra))
    conns = [(c.a, c.b, need(c.sections) + more[c.index]) for c in board.connections]
    ends = [(c.a, c.b) for c in board.connections]
    for _ in range(rounds):
        moved = 0.0
        for a, b, want in conns:
            dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
            d = math.hypot(dx, dy) or 1e-6
            if d < want:
                push = (want - d) / 2 + 0.05
                ux, uy = (dx / d, dy / d) if d > 1e-6 else (1.0, 0.0)
                pos[a][0] -= ux * push; pos[a][1] -= uy * push
                pos[b][0] += ux * push; pos[b][1] += uy * push
                moved += push
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                d = math.hypot(dx, dy)
                if d < MIN_APART:
                    ux, uy = (dx / d, dy / d) if d > 1e-6 else (math.cos(i + j), math.sin(i + j))
                    push = (MIN_APART - d) / 2 + 0.05
                    pos[i][0] -= ux * push; pos[i][1] -= uy * push
                    pos[j][0] += ux * push; pos[j][1] += uy * push
                    moved += push
        for s in range(n):
            for a, b, _ in conns:
                if s in (a, b):
                    continue
                d, ux, uy = seg_distance(tuple(pos[s]), tuple(pos[a]), tuple(pos[b]))
                if d < CLEAR:
                    push = CLEAR - d + 0.05
                    pos[s][0] += ux * push * 0.6; pos[s][1] += uy * push * 0.6
                    pos[a][0] -= ux * push * 0.2; pos[a][1] -= uy * push * 0.2
                    pos[b][0] -= ux * push * 0.2; pos[b][1] -= uy * push * 0.2
                    moved += push
        moved += _clear_crossings(pos, ends)
        moved += _spread(pos, board)
        # shrink to fit the area when pushed out of it, never past its edges
        xs, ys = [p[0] for p in pos], [p[1] for p in pos]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
        if w > area.w or h > area.h or min(xs) < area.x or min(ys) < area.y or max(xs) > area.right or max(ys) > area.top:
            k = min(1.0, area.w / (w or 1), area.h / (h or 1))
            cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
            tx, ty = area.x + area.w / 2, area.y + area.h / 2
            pos = [[tx + (p[0] - cx) * k, ty + (p[1] - cy) * k] for p in pos]
        if moved < 1e-3:
            break
    return [(round(p[0], 3), round(p[1], 3)) for p in pos]


SPREAD = 30.0  # degrees at least between two connections leaving one station: room for their boxes near it


def _spread(pos: list[list[float]], board: Board) -> float:
    """One round of turns opening up two connections that leave a station less than ``SPREAD``
    degrees apart (their boxes near the station would sit on each other's lines): the far ends
    turn apart round the station."""
    moved = 0.0
    for s, around in enumerate(board.around):
        others = sorted({c.b if c.a == s else c.a for c in around})
        for i, t in enumerate(others):
            for u in others[i + 1:]:
                at, au = (math.atan2(pos[v][1] - pos[s][1], pos[v][0] - pos[s][0]) for v in (t, u))
                gap = (au - at + math.pi) % (2 * math.pi) - math.pi  # from t to u, -pi..pi
                if abs(gap) >= math.radians(SPREAD):
                    continue
                turn = (math.radians(SPREAD) - abs(gap)) * 0.25 + 0.002
                sign = 1.0 if gap >= 0 else -1.0
                for v, by in ((t, -sign * turn), (u, sign * turn)):
                    dx, dy = pos[v][0] - pos[s][0], pos[v][1] - pos[s][1]
                    c, si = math.cos(by), math.sin(by)
                    pos[v][0], pos[v][1] = pos[s][0] + dx * c - dy * si, pos[s][1] + dx * si + dy * c
                    moved += abs(by) * math.hypot(dx, dy)
    return moved


def _clear_crossings(pos: list[list[float]], ends: list[tuple[int, int]]) -> float:
    """One round of pushes moving each crossing away from every station near it: the station
    away from the crossing, the other connection's ends (the crossing with them) the other way."""
    want = RADIUS + CROSS_CLEAR + CROSS_AIR
    moved = 0.0
    for i, j, x, _, _ in crossings(ends, [(p[0], p[1]) for p in pos]):
        for s in range(len(pos)):
            dx, dy = pos[s][0] - x[0], pos[s][1] - x[1]
            d = math.hypot(dx, dy)
            if d >= want:
                continue
            ux, uy = (dx / d, dy / d) if d > 1e-6 else (1.0, 0.0)
            push = (want - d) * 0.3 + 0.05
            pos[s][0] += ux * push; pos[s][1] += uy * push
            for k in (i, j):  # the connections not at s carry the crossing away from it
                if s not in ends[k]:
                    for e in ends[k]:
                        pos[e][0] -= ux * push * 0.25; pos[e][1] -= uy * push * 0.25
            moved += push
    return moved


def strokes(board: Board, at: list[Point]) -> tuple[list, list[float]]:
    out, half = [], []
    for c in board.connections:
        (x1, y1), (x2, y2) = at[c.a], at[c.b]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        for i, line in enumerate(c.lines):
            off = (i - (len(c.lines) - 1) / 2) * STROKE
            out.append((c.index, line, (x1 + nx * off, y1 + ny * off), (x2 + nx * off, y2 + ny * off)))
        half.append(max(len(c.lines) * STROKE, BOX * 1.42) / 2)
    return out, half


BOX_AIR = 1.0  # mm kept between a section box and any other connection's strokes (so never on a crossing)
BOXES_APART = 0.3  # mm kept between two connections' boxes (their circumscribed circles)
HALO = 0.025  # mm a line's edge reaches beyond STROKE / 2: its white halo or dark rails (linestyle: WIDTH + 0.05)
MAX_LENGTHEN = 12  # rounds of "lengthen the connections whose boxes found no clear room, relax again"


def stroke_half(lines: int) -> float:
    """Half the width a connection's side-by-side strokes take, to the outer strokes' edges (mm)."""
    return lines * STROKE / 2 + HALO


def box_corners(centre: Point, direction: Point) -> tuple[Point, ...]:
    """A section box's corners: a BOX-mm square centred at ``centre``, sides along ``direction`` (a unit vector)."""
    (cx, cy), (ux, uy), h = centre, direction, BOX / 2
    return tuple((cx + ux * sx * h - uy * sy * h, cy + uy * sx * h + ux * sy * h)
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def polygon_segment_distance(corners: Sequence[Point], a: Point, b: Point) -> float:
    """Shortest distance between a convex polygon and a segment (0 if they meet or it lies inside)."""
    edges = list(zip(corners, list(corners[1:]) + [corners[0]]))
    if any(_cross(a, b, p, q) for p, q in edges) or _inside(corners, a):
        return 0.0
    return min([seg_distance(p, a, b)[0] for p in corners] + [seg_distance(e, p, q)[0] for e in (a, b) for p, q in edges])


def _inside(corners: Sequence[Point], p: Point) -> bool:
    """Whether p lies inside the convex polygon (corners in either turning order)."""
    sides = [(q[0] - o[0]) * (p[1] - o[1]) - (q[1] - o[1]) * (p[0] - o[0])
             for o, q in zip(corners, list(corners[1:]) + [corners[0]])]
    return all(v >= 0 for v in sides) or all(v <= 0 for v in sides)


def box_air(corners: Sequence[Point], a: Point, b: Point, half: float) -> float:
    """The air between a box and a stroke from a to b ``half`` mm either side of its centre line
    (below 0: the box lies on it)."""
    return polygon_segment_distance(corners, a, b) - half


def _box_room(p: Point, direction: Point, own: int, segs, placed: Sequence[tuple[int, Point]] = ()) -> float:
    """How far a box centred at p keeps off the nearest other connection's strokes (less BOX_AIR)
    and the boxes already placed (their circumscribed circles, less BOXES_APART): >= 0 is clear."""
    reach = BOX / math.sqrt(2)
    room = 1.0
    corners = None
    for k, a, b, w in segs:
        if k == own:
            continue
        quick = seg_distance(p, a, b)[0] - reach - w - BOX_AIR  # the circumscribed circle: a lower bound
        if quick < room:
            if corners is None:
                corners = box_corners(p, direction)
            room = min(room, box_air(corners, a, b, w) - BOX_AIR)
    return min([room] + [math.dist(p, q) - 2 * reach - BOXES_APART for k, q in placed if k != own])


def _box_places(n: int, length: float, room: Callable[[float], float]) -> tuple[list[float], bool]:
    """Where along a connection (mm from its first end) its n boxes go, and whether they are all
    clear: the run of n at box pitch nearest the middle clear of other lines; else single clear
    places nearest the middle; else the most clear places packed at box pitch, the n nearest the
    middle; else (no room: the map is then relaxed again with this connection longer) the run
    with most room."""
    lo, mid = RADIUS + GAP + PITCH / 2, length / 2
    steps = int(max(0.0, length - 2 * lo - (n - 1) * PITCH) / 0.1 + 1e-9)
    free = [lo + k * 0.1 for k in range(int(max(0.0, length - 2 * lo) / 0.1 + 1e-9) + 1)]
    seen: dict[float, bool] = {}

    def clear(t: float) -> bool:
        key = round(t, 3)
        if key not in seen:
            seen[key] = room(t) >= 0
        return seen[key]
    runs = [[lo + k * 0.1 + i * PITCH for i in range(n)] for k in range(steps + 1)]
    runs.sort(key=lambda run: (abs((run[0] + run[-1]) / 2 - mid), run[0]))
    for run in runs:
        if all(clear(t) for t in run):
            return run, True
    picked: list[float] = []
    for t in sorted(free, key=lambda t: (abs(t - mid), t)):
        if len(picked) < n and clear(t) and all(abs(t - q) >= PITCH - 1e-9 for q in picked):
            picked.append(t)
    if len(picked) == n:
        return sorted(picked), True
    packed: list[float] = []  # left to right, each as early as it fits: the most places there are
    for t in free:
        if clear(t) and (not packed or t - packed[-1] >= PITCH - 1e-9):
            packed.append(t)
    if len(packed) >= n:
        return min((packed[i:i + n] for i in range(len(packed) - n + 1)),
                   key=lambda run: (abs((run[0] + run[-1]) / 2 - mid), run[0])), True
    if not runs:
        return [mid + (i - (n - 1) / 2) * PITCH for i in range(n)], False
    return max(runs, key=lambda run: min(room(t) for t in run)), False


def _segments(board: Board, at: Sequence[Point]) -> list[tuple[int, Point, Point, float]]:
    """Each connection's centre line and the half width its strokes take."""
    return [(c.index, at[c.a], at[c.b], stroke_half(len(c.lines))) for c in board.connections]


def place_boxes(board: Board, at: Sequence[Point]) -> tuple[list, list[int]]:
    """Each connection's section boxes, connection by connection, clear of the other connections'
    strokes and of the boxes placed before (two crossing connections' boxes overlapped at Euston),
    and the connections (by index) whose boxes found no clear room."""
    segs = _segments(board, at)
    out = []
    short = []
    centres: list[tuple[int, Point]] = []
    for c in board.connections:
        (x1, y1), (x2, y2) = at[c.a], at[c.b]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        places, clear = _box_places(c.sections, length,
                                    partial(_room_along, (x1, y1), (ux, uy), c.index, segs, centres))
        if not clear:
            short.append(c.index)
        for t in places:
            cx, cy = x1 + ux * t, y1 + uy * t
            centres.append((c.index, (cx, cy)))
            out.append((c.index, box_corners((cx, cy), (ux, uy))))
    return out, short


def boxes(board: Board, at: list[Point]) -> list:
    """Each connection's section boxes (:func:`place_boxes`)."""
    return place_boxes(board, at)[0]


def _room_along(start: Point, direction: Point, index: int, segs: list, placed: list, t: float) -> float:
    """The room for a box ``t`` along a connection from ``start`` (``_box_room`` at that point)."""
    return _box_room((start[0] + direction[0] * t, start[1] + direction[1] * t), direction, index, segs, placed)


def rect_segment_distance(r: Rect, a: Point, b: Point) -> float:
    """Shortest distance between a rectangle and a segment (0 if they meet)."""
    def inside(p: Point) -> bool:
        return r.x <= p[0] <= r.right and r.y <= p[1] <= r.top

    if inside(a) or inside(b):
        return 0.0
    corners = [(r.x, r.y), (r.right, r.y), (r.right, r.top), (r.x, r.top)]
    for p, q in zip(corners, corners[1:] + corners[:1]):
        if _cross(a, b, p, q):
            return 0.0
    d = min(seg_distance(p, a, b)[0] for p in corners)
    for p in (a, b):
        dx = max(r.x - p[0], 0.0, p[0] - r.right)
        dy = max(r.y - p[1], 0.0, p[1] - r.top)
        d = min(d, math.hypot(dx, dy))
    return d


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0)


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def box_distance(box: Rect, p: Point) -> float:
    """Distance from a point to a rectangle (0 inside)."""
    return math.hypot(max(box.x - p[0], 0.0, p[0] - box.right), max(box.y - p[1], 0.0, p[1] - box.top))


OWN_MARGIN = 4.0  # mm: a label is this much nearer its own station than any other, so it reads as that one's


def owned(box: Rect, at, own: int) -> bool:
    """Whether the label box is unambiguously next to its own station: nearer it than any other."""
    mine = box_distance(box, at[own])
    return all(box_distance(box, p) >= mine + OWN_MARGIN for i, p in enumerate(at) if i != own)


def ringed(board: Board, zone: int) -> bool:
    """Whether a zone's stations are drawn with a second ring: every other zone, from the second
    (a pale grey halo did it before: 1.27:1 on white, gone in black and white)."""
    return (zone - board.zones[0].zone) % 2 == 1


def outer(board: Board, station: int) -> float:
    """How far a station's mark reaches from its centre: its circle, or its zone's ring."""
    return RADIUS + (ZONE_RING if ringed(board, board.zone_of[station]) else 0.0)


LABEL_GAP = 2.0  # mm between two names: at 1 mm, more than a word space, "Regent's Park" and "Warren Street" read as one name


def label_clashes(box: Rect, board: Board, at, half, placed, own: int, area: Rect) -> bool:
    """Whether a label box would lie over a line, a box, a station circle or another label, or
    leave the map area (0.3 mm of air kept round each, ``LABEL_GAP`` between two names)."""
    if box.x < area.x or box.y < area.y or box.right > area.right or box.top > area.top:
        return True
    for c in board.connections:
        if rect_segment_distance(box, at[c.a], at[c.b]) < half[c.index] + 0.3:
            return True
    for i, (x, y) in enumerate(at):
        dx = max(box.x - x, 0.0, x - box.right)
        dy = max(box.y - y, 0.0, y - box.top)
        if math.hypot(dx, dy) < outer(board, i) + (0.3 if i != own else 0.5):
            return True
    return any(overlaps(box, other.box.inset(-LABEL_GAP)) for other in placed)


class NoRoom(UsageError):
    """A station's name found no free spot (``station``: its name)."""

    def __init__(self, message: str, station: str):
        super().__init__(message)
        self.station = station


def place_labels(board: Board, at, half, area: Rect, text_width: Callable[[str, str, float], float]) -> list[Label]:
    em = LABEL_PT * 25.4 / 72
    order = sorted(range(len(at)), key=lambda s: (-len(board.around[s]), board.stations[s].id))
    placed: dict[int, Label] = {}
    for s in order:
        name = board.stations[s].name
        star = s == board.star
        wordings: list[tuple[str, ...]] = [(name,)]
        spaces = [i for i, ch in enumerate(name) if ch == " "]
        if spaces:
            cut = min(spaces, key=lambda i: (abs(2 * i - len(name)), i))
            wordings.append((name[:cut], name[cut + 1:]))
        x, y = at[s]
        chosen = None
        for ring in (0.5, 1.5, 2.8, 4.5, 6.5, 9.0, 12.0):
            for lines in wordings:
                w = max(text_width(t, "sans", LABEL_PT) for t in lines) + (STAR_W if star else 0)
                h = 1.0 * em + (len(lines) - 1) * 1.1 * em
                d = outer(board, s) + ring
                for ang in range(0, 360, 15):
                    ux, uy = math.cos(math.radians(ang)), math.sin(math.radians(ang))
                    # the box corner nearest the station sits at distance d in direction ang
                    bx = x + ux * d - (w if ux < -0.3 else (w / 2 if abs(ux) <= 0.3 else 0))
                    by = y + uy * d - (h if uy < -0.3 else (h / 2 if abs(uy) <= 0.3 else 0))
                    box = Rect(bx, by, w, h)
                    if owned(box, at, s) and not label_clashes(box, board, at, half, placed.values(), s, area):
                        chosen = Label(lines, box, star)
                        break
                if chosen:
                    break
            if chosen:
                break
        if chosen is None:
            raise NoRoom(f"the map of scope {board.scope.label!r} ({len(at)} stations) does not fit one sheet: "
                         f"no room for the name of {name} clear of lines and boxes; choose a smaller scope", name)
        placed[s] = chosen
    return [placed[s] for s in range(len(at))]


MAX_STATIONS = 40  # more circles of 6.6 mm with their boxes do not fit the sheet's map area


STEP = MIN_APART / 2  # mm: the diagram's grid step at its smallest (two steps between stations)
LABEL_ROOM = 16.0  # mm more kept clear left and right of the diagram: names of the stations at its sides
DIAGRAM_BUDGET = 3.0  # CP-SAT deterministic seconds for a map's layout (cached: solved once per map)
SEEDS = 3  # layouts tried (CP-SAT seeds) before a map whose boxes or names find no room goes to geography
CITY_ORDER = 0.92  # a diagram keeping less of the city's order gives way to geography (London squeezed
# into Letter's narrower area keeps 91.5%, A4 95.8%; New York 91.7% on Letter, 92.0% on A4)
DIAGRAM = Spec(min_length=2, clearance=1, spacing=2, spread=2, cross_clearance=3)  # a crossing 3 steps off the
# stations of the lines that cross: at least 15.9 mm on a diagonal, beyond the circle and CROSS_CLEAR


def board_cut(board: Board) -> Cut:
    """The map as the diagram engine reads it: stations where they are, one edge per connection
    with room for its boxes (``need``, in grid steps), each line's turns."""
    st = board.stations
    points = places({s.id: s for s in st})
    edges, room = [], []
    for c in board.connections:
        a, b = sorted((st[c.a].id, st[c.b].id))
        edges.append(Edge(a, b, tuple(sorted(c.lines))))
        steps = math.ceil(need(c.sections) / STEP - 1e-9)
        if steps > DIAGRAM.min_length:
            room.append((a, b, steps))
    turns = set()
    for line in board.lines:
        for i in line.stations:
            ends = [board.connections[k] for k in line.connections if i in (board.connections[k].a, board.connections[k].b)]
            if len(ends) == 2:
                a, b = sorted(st[c.b if c.a == i else c.a].id for c in ends)
                turns.add((line.id, a, st[i].id, b))
    return Cut(points, {s.id: s.name for s in st}, tuple(sorted(edges, key=lambda e: (e.a, e.b))),
               tuple(sorted(turns)), tuple(sorted(room)))


def diagram_places(board: Board, box: Rect, seed: int = 0) -> tuple[list[Point] | None, float, str]:
    """The stations' places from the diagram engine, scaled to fill ``box`` (the same scale both
    ways), with the share of the city's order they keep (:func:`city_order`); or None and why not."""
    spec = replace(DIAGRAM, width=int(box.w // STEP), height=int(box.h // STEP))  # the area's shape, in steps
    cut = board_cut(board)
    lay, _ = laid_out(cut, spec, budget=DIAGRAM_BUDGET, seed=seed)
    if lay.status not in ("OPTIMAL", "FEASIBLE"):
        return None, 0.0, f"the diagram engine found no layout within its budget ({lay.status})"
    at, scale = fit(lay.positions, box.x, box.y, box.w, box.h)
    if scale < STEP:
        xs, ys = [p[0] for p in lay.positions.values()], [p[1] for p in lay.positions.values()]
        return None, 0.0, (f"the diagram needs {(max(xs) - min(xs)) * STEP:.0f} x {(max(ys) - min(ys)) * STEP:.0f} mm, "
                           f"the map area is {box.w:.0f} x {box.h:.0f} mm")
    return [at[s.id] for s in board.stations], city_order(cut, lay.positions), ""


def _diagram(board: Board, area: Rect, inner: Rect, text_width) -> tuple[MapLayout | None, float, str]:
    """The map drawn as a diagram, with the share of the city's order it keeps; or None and why not
    (its boxes, a crossing or a name find no room). Where that is so, the engine's next seed may lay
    the map out otherwise (``SEEDS`` in all, each solved once and cached)."""
    why = ""
    for seed in range(SEEDS):
        drawn, order, why = _diagram_seeded(board, area, inner, text_width, seed)
        if drawn is not None or why.startswith("the diagram"):  # no layout, or one too big: not the seed's
            return drawn, order, why
    return None, 0.0, why


def _diagram_seeded(board: Board, area: Rect, inner: Rect, text_width, seed: int) -> tuple[MapLayout | None, float, str]:
    places, order, why = diagram_places(board, inner.inset(LABEL_ROOM, 0), seed)
    if places is None:
        return None, 0.0, why
    placed, short = place_boxes(board, places)
    close = [x for x in crossings([(c.a, c.b) for c in board.connections], places) if x[4] < CROSS_CLEAR]
    if short:
        c = board.connections[short[0]]
        return None, 0.0, f"no room for the boxes of {board.stations[c.a].name} - {board.stations[c.b].name}"
    if close:
        return None, 0.0, f"a crossing {close[0][4]:.1f} mm from {board.stations[close[0][3]].name}"
    drawn, half = strokes(board, places)
    try:
        labels = place_labels(board, places, half, area, text_width)
    except NoRoom as exc:
        return None, 0.0, f"the name of {exc.station} finds no room beside it"
    return MapLayout(tuple(places), tuple(drawn), tuple(placed), tuple(labels), tuple(half)), order, ""


def layout(board: Board, area: Rect, text_width) -> MapLayout:
    """The map: a diagram (:mod:`generator.diagram`) where the engine lays it out, its boxes and
    names find room and it keeps ``CITY_ORDER`` of the city's order; else from geography, relaxed
    (said on stderr); a diagram keeping less of the order where geography finds no room either."""
    if len(board.stations) > MAX_STATIONS:
        raise UsageError(f"the map of scope {board.scope.label!r} has {len(board.stations)} stations: a sheet holds "
                         f"at most {MAX_STATIONS} (circles of {2 * RADIUS:g} mm with their boxes); choose a smaller scope")
    inner = area.inset(RADIUS + 8, RADIUS + 5)
    diagram, order, why = _diagram(board, area, inner, text_width)
    if diagram is not None and order >= CITY_ORDER:
        return diagram
    if diagram is not None:
        why = f"the diagram keeps {order:.1%} of the city's west-east and south-north order, under {CITY_ORDER:.0%}"
    try:
        drawn = _geographic(board, area, inner, text_width)
    except UsageError:
        if diagram is None:
            raise
        print(f"tube dice: the map of {board.scope.label!r} is a diagram keeping {order:.1%} of the city's order: "
              "drawn from geography, its names or boxes find no room", file=sys.stderr)
        return diagram
    print(f"tube dice: the map of {board.scope.label!r} is drawn from geography: {why}", file=sys.stderr)
    return drawn


def _geographic(board: Board, area: Rect, inner: Rect, text_width) -> MapLayout:
    """The map from real places, relaxed until its boxes fit (the layout before the diagram engine)."""
    at = relax(board, project(board, inner), inner)
    extra = [0.0] * len(board.connections)
    placed, short = place_boxes(board, at)
    for _ in range(MAX_LENGTHEN):
        if not short:
            break
        for k in short:  # room for a box more on its own line, clear of the other lines
            extra[k] += PITCH
        at = relax(board, at, inner, extra=extra)
        placed, short = place_boxes(board, at)
    if short:
        c = board.connections[short[0]]
        raise UsageError(f"the map of scope {board.scope.label!r} ({len(at)} stations) does not fit one sheet: no room "
                         f"for the boxes of {board.stations[c.a].name} - {board.stations[c.b].name} clear of the "
                         f"other lines; choose a smaller scope")
    drawn, half = strokes(board, at)
    labels = place_labels(board, at, half, area, text_width)
    return MapLayout(tuple(at), tuple(drawn), tuple(placed), tuple(labels), tuple(half))
