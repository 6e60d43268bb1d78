"""Octilinear metro-map layout with CP-SAT (after Nöllenburg and Wolff, 2011), whole or in windows.

Every station gets integer grid coordinates; every edge one of the eight octilinear directions,
chosen among the ``spread`` nearest its geographic direction either side (relative position
kept), with a length of at least ``min_length`` grid steps. Hard constraints: octilinearity; each
station's edges keep their circular order (the map still reads as the city). Separation: no two
edges that share no station come within ``clearance`` of each other (one of eight half-plane
separations along x, y, x+y, x-y holds, the diagonal ones by ``clearance`` true steps:
:func:`along_axis`), and no edge within ``clearance`` of a station it does not end at; except that two edges that cross in the city (one line over another, with no
station) may cross on the map. Objective, in this order of weight: separations broken (with
``soft``: a start that is not yet a map), bends along a line (a 45-degree turn costs 1, 90 degrees
2, sharper 10 a step more), edges off their geographic direction, total edge length.

Two ways to solve:

* :func:`solve`: the whole model at once. Separations are only written for pairs that are near in
  geography (edges whose bounding boxes come within ``near`` median edge lengths); the
  independent validator (:mod:`.check`) confirms the result. Proves optimality up to about 25
  stations; beyond, it finds little within a build's budget.
* :func:`lns`: a large-neighbourhood search. A first layout from the whole model with every
  separation soft (any octilinear drawing is a start), then windows: the stations nearest a
  centre are set free to move a few steps, every other station is fixed, and the window is
  solved again with the current layout as its hint; a window's result is kept when the whole
  map's cost (:func:`cost`, computed from the geometry, not the model) goes down. In a window,
  separations are written for every pair that could meet given how far the free stations may
  move, so no pair is left out by a guess. The windows visit the stations with trouble first
  (a broken separation, then a bend), and stop when a whole pass finds nothing better or the
  budget is spent.

Every solve is deterministic: one worker, a fixed seed and a deterministic-time budget (CP-SAT's
own measure, the same on any machine). Status is reported as is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import median
from typing import TYPE_CHECKING, Any

from .model import Cut, Edge

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

# direction d: (dx, dy) per unit length; 0 = east, counter-clockwise in 45-degree steps
STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
AXES = ((1, 0), (0, 1), (1, 1), (1, -1))  # x, y, x+y, x-y: the separating directions
PRESOLVE = True  # off, the search ends lower on Tube Dice's maps (2-32%) but New York's names on Letter found no room
WEIGHT_BROKEN = 10_000  # a separation broken: worse than any drawing that keeps them all
WEIGHT_BEND = 100  # a 45-degree bend along a line
WEIGHT_SHARP = 1_000  # each 45 degrees a bend turns beyond 90
WEIGHT_OFF = 30  # an edge 45 degrees off its city direction (90 degrees: 4 times)
WEIGHT_LENGTH = 10  # a grid step of edge length: ten steps stretched cost one bend
WEIGHT_ORDER = 40  # two stations in the other order along x or y than in the city
ORDER_MARGIN = 0.5  # ... when they are more than this many median edges apart along it


@dataclass(frozen=True)
class Spec:
    """What a layout must keep, in grid steps: every edge at least ``min_length`` long (an edge in
    the cut's ``room`` at least that), edges and stations ``clearance`` off each other, two stations
    ``spacing`` apart along x or y, and each edge within ``spread`` directions (45 degrees each) of
    its city direction."""

    min_length: int = 2
    clearance: int = 1
    spacing: int = 2
    spread: int = 2
    cross_clearance: int = 2  # an edge from the ends of an edge that crosses it in the city: the crossing as far
    width: int = 0  # the layout's greatest extent along x, in steps (0: as wide as it needs)
    height: int = 0  # ... and along y

    def clearance_from(self, cut: Cut, frame_crossings: frozenset[frozenset[tuple[str, str]]]) -> dict[tuple[int, str], int]:
        """The clearance each (edge, station) pair needs where it is more than ``clearance``: the
        ends of an edge that crosses this one in the city keep ``cross_clearance`` off it, so the
        crossing itself stays that far from them."""
        index = {(e.a, e.b): i for i, e in enumerate(cut.edges)}
        out: dict[tuple[int, str], int] = {}
        for pair in frame_crossings:
            (a1, b1), (a2, b2) = sorted(pair)
            if (a1, b1) in index and (a2, b2) in index:
                for edge, ends in (((a1, b1), (a2, b2)), ((a2, b2), (a1, b1))):
                    for station in ends:
                        out[(index[edge], station)] = max(self.clearance, self.cross_clearance)
        return out


@dataclass(frozen=True)
class Layout:
    """Grid positions, each edge's direction (from ``a`` to ``b``) and length, and the solve's account."""

    positions: dict[str, tuple[int, int]]
    directions: dict[tuple[str, str], int]
    status: str  # OPTIMAL, FEASIBLE, INFEASIBLE (proven: no layout), or NONE (the budget found none)
    objective: float = 0.0
    bound: float = 0.0
    bends: int = 0
    stats: dict[str, float] = field(default_factory=dict)


def angle_sector(dx: float, dy: float) -> int:
    return round(math.degrees(math.atan2(dy, dx)) / 45.0) % 8


def _gap(p: list[tuple[float, float]], q: list[tuple[float, float]]) -> float:
    """The distance between the bounding boxes of two point sets."""
    gap_x = max(min(x for x, _ in q) - max(x for x, _ in p), min(x for x, _ in p) - max(x for x, _ in q), 0.0)
    gap_y = max(min(y for _, y in q) - max(y for _, y in p), min(y for _, y in p) - max(y for _, y in q), 0.0)
    return math.hypot(gap_x, gap_y)


def _near(cut: Cut, e: Edge, f: Edge, reach: float) -> bool:
    return _gap([cut.points[e.a], cut.points[e.b]], [cut.points[f.a], cut.points[f.b]]) <= reach


def _cross(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Whether segments pq and rs cross at a point inside both (not at an end, not along each other)."""
    def side(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    d1, d2, d3, d4 = side(p, q, r), side(p, q, s), side(r, s, p), side(r, s, q)
    return d1 * d2 < 0 and d3 * d4 < 0


def city_crossings(cut: Cut) -> set[tuple[int, int]]:
    """Pairs of edges (indices, ascending) that cross in the city: a line passing over another with
    no station there. The map may cross them too (it cannot always avoid it and keep the order)."""
    out = set()
    for i, e in enumerate(cut.edges):
        for j in range(i + 1, len(cut.edges)):
            f = cut.edges[j]
            if not {e.a, e.b} & {f.a, f.b} and _cross(cut.points[e.a], cut.points[e.b], cut.points[f.a], cut.points[f.b]):
                out.add((i, j))
    return out


@dataclass(frozen=True)
class _Frame:
    """The grid a cut is laid out on: km per step, the grid's size and the geographic start."""

    unit: float
    size: int  # the grid's extent along x and y (a square unless the spec bounds them)
    size_y: int
    start: dict[str, tuple[int, int]]
    preferred: dict[tuple[str, str], int]  # each edge's city direction
    crossings: frozenset[frozenset[tuple[str, str]]]  # edge pairs that cross in the city


def _frame(cut: Cut, min_length: int, width: int = 0, height: int = 0) -> _Frame:
    lengths = [math.dist(cut.points[e.a], cut.points[e.b]) for e in cut.edges] or [1.0]
    unit = median(lengths) / min_length  # km per grid step: a median edge is min_length steps
    xs = [p[0] for p in cut.points.values()]
    ys = [p[1] for p in cut.points.values()]
    span = int(max(max(xs) - min(xs), max(ys) - min(ys)) / unit) + 4 * min_length
    size = max(span * 2, min_length * len(cut.points) // 2 + 8)
    size_x, size_y = width or size, height or size
    x0, y0 = min(xs), min(ys)
    start = {s: (min(size_x, int(round((p[0] - x0) / unit)) + 2 * min_length),
                 min(size_y, int(round((p[1] - y0) / unit)) + 2 * min_length)) for s, p in cut.points.items()}
    preferred = {(e.a, e.b): angle_sector(cut.points[e.b][0] - cut.points[e.a][0], cut.points[e.b][1] - cut.points[e.a][1])
                 for e in cut.edges}
    edges = cut.edges
    crossings = frozenset(frozenset({(edges[i].a, edges[i].b), (edges[j].a, edges[j].b)}) for i, j in city_crossings(cut))
    return _Frame(unit, size_x, size_y, start, preferred, crossings)


def _order(cut: Cut, frame: _Frame, s: str, t: str, axis: int) -> int:
    """+1 when ``t`` lies clearly beyond ``s`` along the axis (east or north) in the city, -1 when
    clearly before, 0 when the two are level enough that either order reads true."""
    d = cut.points[t][axis] - cut.points[s][axis]
    if abs(d) < ORDER_MARGIN * frame.unit * 2:
        return 0
    return 1 if d > 0 else -1


def _sub(cut: Cut, keep: set[str]) -> Cut:
    """The part of ``cut`` on the stations ``keep``."""
    return Cut({s: p for s, p in cut.points.items() if s in keep}, {s: n for s, n in cut.names.items() if s in keep},
               tuple(e for e in cut.edges if e.a in keep and e.b in keep),
               tuple(t for t in cut.turns if {t[1], t[2], t[3]} <= keep),
               tuple(r for r in cut.room if r[0] in keep and r[1] in keep))


Expr = Any  # an int or a linear expression (ortools types the two apart)


@dataclass
class _Model:
    model: cp_model.CpModel
    x: dict[str, Any]
    y: dict[str, Any]
    choice: dict[tuple[int, int], cp_model.IntVar]
    length: dict[int, cp_model.IntVar]
    bends: list[cp_model.IntVar]
    pairs: int


def _build(cut: Cut, frame: _Frame, spec: Spec, *, soft: bool, free: set[str], current: Layout | None, move: int, reach: float,
           shifted: frozenset[str] = frozenset(), shift: int = 0) -> _Model:
    """The model with the stations in ``free`` to place, each within ``move`` steps of where it is
    in ``current``; the stations in ``shifted`` moved together, by one shift of at most ``shift``
    steps each way (what lies beyond a sweep line: the map compacted or stretched there); every
    other station fixed as in ``current``. With no ``current``, every station is free."""
    from ortools.sat.python import cp_model

    min_length, clearance, spacing, spread = spec.min_length, spec.clearance, spec.spacing, spec.spread
    m = cp_model.CpModel()
    size, size_y = frame.size, frame.size_y
    cur = current.positions if current is not None else {}
    room = {(a, b): k for a, b, k in cut.room}
    x: dict[str, Any] = {}  # an IntVar, a constant or a shifted expression (ortools' types mix them)
    y: dict[str, Any] = {}
    hints: list[tuple[cp_model.IntVar, int]] = []
    if shifted:
        shift_x, shift_y = m.new_int_var(-shift, shift, "shift_x"), m.new_int_var(-shift, shift, "shift_y")
        hints += [(shift_x, 0), (shift_y, 0)]
        m.add(shift_x + min(cur[s][0] for s in shifted) >= 0)  # the group stays on the grid
        m.add(shift_x + max(cur[s][0] for s in shifted) <= size)
        m.add(shift_y + min(cur[s][1] for s in shifted) >= 0)
        m.add(shift_y + max(cur[s][1] for s in shifted) <= size_y)
    box: dict[str, tuple[int, int, int, int]] = {}  # each station's reach: x from, x to, y from, y to
    for s in sorted(cut.points):
        if s in shifted:
            x[s] = shift_x + cur[s][0]
            y[s] = shift_y + cur[s][1]
            box[s] = (cur[s][0] - shift, cur[s][0] + shift, cur[s][1] - shift, cur[s][1] + shift)
        elif s in free:
            # a station not placed yet goes near where it would sit beside its neighbours: a bounded
            # reach keeps the separations written for it few (the whole grid made windows of 10,000 variables)
            cx, cy = cur[s] if s in cur else _beside(cut, frame, cur, s)
            reach_s = move if s in cur or not cur else 2 * move + spec.min_length
            if not cur:
                box[s] = (0, size, 0, size_y)
            else:
                box[s] = (max(0, min(size, cx - reach_s)), min(size, max(0, cx + reach_s)),
                          max(0, min(size_y, cy - reach_s)), min(size_y, max(0, cy + reach_s)))
            x[s] = m.new_int_var(box[s][0], box[s][1], f"x_{s}")
            y[s] = m.new_int_var(box[s][2], box[s][3], f"y_{s}")
        else:
            x[s] = cur[s][0]  # fixed: a number, not a variable (the model stays the window's size)
            y[s] = cur[s][1]
            box[s] = (cur[s][0], cur[s][0], cur[s][1], cur[s][1])

    def moving(*stations: str) -> bool:
        """Whether the stations may move apart from each other (not all fixed, nor all shifted together)."""
        if any(s in free for s in stations):
            return True
        return len({s in shifted for s in stations}) > 1

    choice: dict[tuple[int, int], cp_model.IntVar] = {}
    length: dict[int, cp_model.IntVar] = {}
    fixed_dir: dict[int, int] = {}
    objective: list[tuple[Expr, int]] = []
    for i, e in enumerate(cut.edges):
        if not moving(e.a, e.b):
            assert current is not None
            fixed_dir[i] = current.directions[(e.a, e.b)]
            continue
        p = frame.preferred[(e.a, e.b)]
        length[i] = m.new_int_var(max(min_length, room.get((e.a, e.b), 0)), max(size, size_y), f"len_{i}")
        objective.append((length[i], WEIGHT_LENGTH))
        options = []
        for k in range(-spread, spread + 1):
            d = (p + k) % 8
            b = m.new_bool_var(f"dir_{i}_{d}")
            choice[(i, d)] = b
            options.append(b)
            dx, dy = STEPS[d]
            m.add(x[e.b] - x[e.a] == dx * length[i]).only_enforce_if(b)
            m.add(y[e.b] - y[e.a] == dy * length[i]).only_enforce_if(b)
            if k:
                objective.append((b, WEIGHT_OFF * k * k))
        m.add_exactly_one(options)

    def out_dir(i: int, at: str) -> Expr:
        """The direction edge i leaves station ``at`` in (0..7)."""
        e = cut.edges[i]
        shift = 0 if at == e.a else 4
        if i in fixed_dir:
            return (fixed_dir[i] + shift) % 8
        terms = [(b, (d + shift) % 8) for (j, d), b in choice.items() if j == i]
        return cp_model.LinearExpr.weighted_sum([b for b, _ in terms], [w for _, w in terms])

    index = {(e.a, e.b): i for i, e in enumerate(cut.edges)}

    def edge_of(a: str, b: str) -> int:
        return index[(a, b)] if (a, b) in index else index[(b, a)]

    # circular order at every station of degree >= 2 with an edge that moves
    for s in sorted(cut.points):
        inc = [i for i, e in enumerate(cut.edges) if s in (e.a, e.b)]
        if len(inc) < 2 or all(i in fixed_dir for i in inc):
            continue

        def geo(i: int, s: str = s) -> float:
            e = cut.edges[i]
            other = e.b if e.a == s else e.a
            return math.atan2(cut.points[other][1] - cut.points[s][1], cut.points[other][0] - cut.points[s][0])
        inc.sort(key=geo)
        outs = [out_dir(i, s) for i in inc]
        wraps = [m.new_bool_var(f"wrap_{s}_{k}") for k in range(len(inc))]
        for k in range(len(inc)):
            m.add(outs[(k + 1) % len(inc)] >= outs[k] + 1 - 8 * wraps[k])
        m.add(sum(wraps) == 1)

    # bends along each line
    bends: list[cp_model.IntVar] = []
    for line, before, at, after in cut.turns:
        if not moving(before, at, after):
            continue
        i, j = edge_of(before, at), edge_of(at, after)
        tag = f"{line}_{at}_{before}_{after}"
        diff = m.new_int_var(0, 7, f"turn_{tag}")
        m.add_modulo_equality(diff, out_dir(j, at) - out_dir(i, at) + 8, 8)
        cost = m.new_int_var(0, 4, f"bend_{tag}")
        m.add_abs_equality(cost, diff - 4)
        sharp = m.new_int_var(0, 2, f"sharp_{tag}")  # beyond 90 degrees: heavily
        m.add_max_equality(sharp, [0, cost - 2])
        bends.append(cost)
        objective += [(cost, WEIGHT_BEND), (sharp, WEIGHT_SHARP)]

    def span_of(s: str, u: int, v: int) -> tuple[int, int]:
        """The least and most of u*x + v*y over where ``s`` may be."""
        x0, x1, y0, y1 = box[s]
        ends = (u * x0 + v * y0, u * x1 + v * y0, u * x0 + v * y1, u * x1 + v * y1)
        return min(ends), max(ends)

    spans = {(s, u, v): span_of(s, u, v) for s in cut.points for u, v in AXES}  # once per model, not per pair

    def along(s: str, u: int, v: int) -> tuple[int, int]:
        return spans[(s, u, v)]

    def written(first: list[str], second: list[str], u: int, v: int, sign: int, need: int) -> list[tuple[str, str]] | None:
        """The pairs a half-plane separation must write: not those that hold wherever their stations
        go; None where a pair can never hold it (two fixed stations too close: the half-plane is out)."""
        out = []
        for p in first:
            for q in second:
                (lo_p, hi_p), (lo_q, hi_q) = along(p, u, v), along(q, u, v)
                least, most = (lo_q - hi_p, hi_q - lo_p) if sign > 0 else (lo_p - hi_q, hi_p - lo_q)
                if most < need:
                    return None
                if least < need:
                    out.append((p, q))
        return out

    def separate(first: list[str], second: list[str], tag: str, clearance: int = clearance,
                 axes: tuple[tuple[int, int], ...] = AXES) -> bool:
        """One half-plane separation of the two groups, or the price of none; only the half-planes
        that the stations' reach allows are written, and nothing where one always holds."""
        lits = []
        for a, (u, v) in enumerate(axes):
            need = along_axis(clearance, u, v)
            span_p = [along(p, u, v) for p in first]
            span_q = [along(q, u, v) for q in second]
            lo_p, hi_p = min(lo for lo, _ in span_p), max(hi for _, hi in span_p)
            lo_q, hi_q = min(lo for lo, _ in span_q), max(hi for _, hi in span_q)
            for sign in (1, -1):
                least, most = (lo_q - hi_p, hi_q - lo_p) if sign > 0 else (lo_p - hi_q, hi_p - lo_q)
                if least >= need:
                    return False  # always apart along this axis: no constraint needed
                if most < need:
                    continue  # cannot hold wherever they go
                needed = written(first, second, u, v, sign, need)
                if needed is None:
                    continue
                b = m.new_bool_var(f"sep_{tag}_{a}_{sign}")
                lits.append(b)
                for p, q in needed:
                    m.add(sign * (u * x[q] + v * y[q] - u * x[p] - v * y[p]) >= need).only_enforce_if(b)
        if soft:
            if not lits:
                return True  # broken wherever they go: a constant price
            broken = m.new_bool_var(f"broken_{tag}")
            lits.append(broken)
            objective.append((broken, WEIGHT_BROKEN))
        m.add_bool_or(lits)
        return True

    def close(points: list[str], others: list[str]) -> bool:
        """Might these come within ``clearance``? For the whole model: near in the city (a guess the
        validator checks); in a window, every pair is weighed by where its stations may go."""
        if current is None:
            return _gap([cut.points[p] for p in points], [cut.points[q] for q in others]) <= reach
        return True

    def apart(p: tuple[int, int, int, int], q: tuple[int, int, int, int], clearance: int = clearance) -> bool:
        """Apart along x or y wherever they go (the quick test, before :func:`separate`)."""
        return (q[0] - p[1] >= clearance or p[0] - q[1] >= clearance or q[2] - p[3] >= clearance
                or p[2] - q[3] >= clearance)

    def joined(a: str, b: str) -> tuple[int, int, int, int]:
        return (min(box[a][0], box[b][0]), max(box[a][1], box[b][1]), min(box[a][2], box[b][2]),
                max(box[a][3], box[b][3]))

    pairs = 0
    edges = cut.edges
    stations = sorted(cut.points)
    wider = spec.clearance_from(cut, frame.crossings)
    edge_box = [joined(e.a, e.b) for e in edges]
    moves = [moving(e.a, e.b) for e in edges]
    for i, e in enumerate(edges):
        for j in range(i + 1, len(edges)):
            f = edges[j]
            if (not (moves[i] or moves[j] or moving(e.a, f.a)) or apart(edge_box[i], edge_box[j]) or {e.a, e.b} & {f.a, f.b}
                    or frozenset({(e.a, e.b), (f.a, f.b)}) in frame.crossings):
                continue
            if close([e.a, e.b], [f.a, f.b]):
                pairs += separate([e.a, e.b], [f.a, f.b], f"e{i}_{j}")
        for s in stations:
            if not moving(e.a, e.b, s) or apart(edge_box[i], box[s], wider.get((i, s), clearance)) or s in (e.a, e.b):
                continue
            if close([e.a, e.b], [s]):
                pairs += separate([e.a, e.b], [s], f"s{i}_{s}", wider.get((i, s), clearance))
    joined_by = {frozenset((e.a, e.b)) for e in edges}
    for k, s in enumerate(stations):  # stations at least ``spacing`` apart across or along the grid
        for t in stations[k + 1:]:
            if (frozenset((s, t)) in joined_by or not moving(s, t) or apart(box[s], box[t], spacing)
                    or not close([s], [t])):
                continue
            pairs += separate([s], [t], f"p_{s}_{t}", spacing, AXES[:2])

    # the city's order kept: a station well west (south) of another stays west (south) of it, or pays
    for k, s in enumerate(stations):
        for t in stations[k + 1:]:
            if not moving(s, t):
                continue
            for axis, (u, v) in enumerate(AXES[:2]):
                order = _order(cut, frame, s, t, axis)
                if order:
                    lo, hi = (s, t) if order > 0 else (t, s)
                    least, most = along(hi, u, v)[0] - along(lo, u, v)[1], along(hi, u, v)[1] - along(lo, u, v)[0]
                    if least >= 0 or most < 0:
                        continue  # kept (or broken) wherever they go: nothing to decide
                    kept = m.new_bool_var(f"order_{s}_{t}_{axis}")
                    m.add(u * x[hi] + v * y[hi] >= u * x[lo] + v * y[lo]).only_enforce_if(kept)
                    objective.append((kept.Not(), WEIGHT_ORDER))

    m.minimize(cp_model.LinearExpr.weighted_sum([t for t, _ in objective], [w for _, w in objective]))
    # the hint: the current layout, or the city rounded to the grid
    for var, value in hints:
        m.add_hint(var, value)
    for s in sorted(free):
        hx, hy = cur.get(s) or _beside(cut, frame, cur, s)
        m.add_hint(x[s], hx)
        m.add_hint(y[s], hy)
    for (i, d), b in choice.items():
        e = cut.edges[i]
        known = current.directions.get((e.a, e.b)) if current is not None else None
        m.add_hint(b, int((known if known is not None else frame.preferred[(e.a, e.b)]) == d))
    if current is not None:
        for i, var in length.items():
            if cut.edges[i].a not in cur or cut.edges[i].b not in cur:
                continue
            e = cut.edges[i]
            m.add_hint(var, max(abs(cur[e.b][0] - cur[e.a][0]), abs(cur[e.b][1] - cur[e.a][1])))
    return _Model(m, x, y, choice, length, bends, pairs)


def _beside(cut: Cut, frame: _Frame, cur: dict[str, tuple[int, int]], s: str) -> tuple[int, int]:
    """Where a station not placed yet would go: beside its nearest placed neighbour as in the city,
    else beside the nearest placed station (or, with none placed, its place in the city rounded to the grid)."""
    nbrs = sorted((math.dist(cut.points[s], cut.points[o]), o) for e in cut.incident(s)
                  for o in (e.b if e.a == s else e.a,) if o in cur)
    if not nbrs:  # no neighbour placed yet: beside the station nearest in the city (the map has moved off geography)
        nbrs = sorted((math.dist(cut.points[s], cut.points[o]), o) for o in cur if o in cut.points)
    if not nbrs:
        return frame.start[s]
    o = nbrs[0][1]
    dx, dy = (cut.points[s][0] - cut.points[o][0]) / frame.unit, (cut.points[s][1] - cut.points[o][1]) / frame.unit
    return (max(0, min(frame.size, cur[o][0] + round(dx))), max(0, min(frame.size_y, cur[o][1] + round(dy))))


def _run(built: _Model, det_time: float, seed: int, workers: int) -> tuple[str, cp_model.CpSolver]:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time = det_time
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    solver.parameters.cp_model_presolve = PRESOLVE
    if workers > 1:
        solver.parameters.interleave_search = True  # several workers, still the same answer every run
    code = solver.solve(built.model)
    status = {cp_model.OPTIMAL: "OPTIMAL", cp_model.FEASIBLE: "FEASIBLE", cp_model.INFEASIBLE: "INFEASIBLE"}.get(
        code, "NONE")
    return status, solver


def _read(cut: Cut, built: _Model, solver: cp_model.CpSolver, keep: Layout | None) -> tuple[dict, dict]:
    positions = {s: (int(solver.value(built.x[s])), int(solver.value(built.y[s]))) for s in cut.points}
    directions = {}
    for i, e in enumerate(cut.edges):
        chosen = [d for (j, d), b in built.choice.items() if j == i and solver.value(b)]
        directions[(e.a, e.b)] = chosen[0] if chosen else keep.directions[(e.a, e.b)]  # type: ignore[union-attr]
    return positions, directions


def solve(cut: Cut, spec: Spec = Spec(), *, near: float = 1.5, det_time: float = 20.0, seed: int = 0,
          workers: int = 1, soft: bool = False) -> Layout:
    """The octilinear layout of ``cut`` within ``det_time`` (CP-SAT deterministic seconds), the whole
    model at once. With ``soft``, a separation may be broken at a price (:func:`lns`'s start)."""
    n = len(cut.points)
    if n == 0:
        return Layout({}, {}, "OPTIMAL")
    frame = _frame(cut, spec.min_length, spec.width, spec.height)
    lengths = [math.dist(cut.points[e.a], cut.points[e.b]) for e in cut.edges] or [1.0]
    built = _build(cut, frame, spec, soft=soft, free=set(cut.points), current=None, move=0,
                   reach=near * median(lengths))
    status, solver = _run(built, det_time, seed, workers)
    stats = {"stations": n, "edges": len(cut.edges), "separations": built.pairs,
             "det_time": round(solver.deterministic_time, 3), "grid": frame.size}
    if status in ("NONE", "INFEASIBLE"):
        return Layout({}, {}, status, stats=stats)
    positions, directions = _read(cut, built, solver, None)
    return Layout(positions, directions, status, solver.objective_value, solver.best_objective_bound,
                  int(sum(solver.value(t) for t in built.bends)), stats)


# -- the cost of a layout, from its geometry ---------------------------------------------------------


def _direction(p: tuple[int, int], q: tuple[int, int]) -> int:
    return angle_sector(q[0] - p[0], q[1] - p[1])


def along_axis(clearance: int, u: int, v: int) -> int:
    """The gap along axis (u, v) that keeps two things ``clearance`` steps apart: on a diagonal,
    x + y or x - y grows by two for each step of true distance and a third (so 1 becomes 2: two
    stations on a diagonal 1 apart in x + y would be only 0.7 steps apart, and a line drawn there
    would graze a station's circle)."""
    return clearance if u == 0 or v == 0 else math.ceil(clearance * math.sqrt(2) - 1e-9)


def _separated(points: list[tuple[int, int]], others: list[tuple[int, int]], clearance: int) -> bool:
    """The model's separation, from coordinates: one axis on which the two sets are ``clearance`` apart."""
    for u, v in AXES:
        need = along_axis(clearance, u, v)
        a = [u * px + v * py for px, py in points]
        b = [u * qx + v * qy for qx, qy in others]
        if min(b) - max(a) >= need or min(a) - max(b) >= need:
            return True
    return False


def broken(cut: Cut, positions: dict[str, tuple[int, int]], spec: Spec = Spec(), frame: _Frame | None = None) -> list[tuple[str, ...]]:
    """Every separation ``positions`` breaks: edge pairs (four stations), station-edge (three) and
    station pairs too close (two). ``frame``: the cut's, when the caller has it (it is the same for every layout)."""
    clearance = spec.clearance
    frame = frame or _frame(cut, spec.min_length)
    index = {(e.a, e.b): i for i, e in enumerate(cut.edges)}
    crossings = {tuple(sorted(index[k] for k in pair)) for pair in frame.crossings}
    wider = spec.clearance_from(cut, frame.crossings)
    out: list[tuple[str, ...]] = []
    edges = cut.edges
    for i, e in enumerate(edges):
        pe = [positions[e.a], positions[e.b]]
        for j in range(i + 1, len(edges)):
            f = edges[j]
            if {e.a, e.b} & {f.a, f.b} or (i, j) in crossings:
                continue
            if not _separated(pe, [positions[f.a], positions[f.b]], clearance):
                out.append((e.a, e.b, f.a, f.b))
        for s in sorted(cut.points):
            if s not in (e.a, e.b) and not _separated(pe, [positions[s]], wider.get((i, s), clearance)):
                out.append((e.a, e.b, s))
    joined = {frozenset((e.a, e.b)) for e in edges}
    stations = sorted(cut.points)
    for k, s in enumerate(stations):
        for t in stations[k + 1:]:
            (sx, sy), (tx, ty) = positions[s], positions[t]
            if frozenset((s, t)) not in joined and max(abs(sx - tx), abs(sy - ty)) < spec.spacing:
                out.append((s, t))
    return out


def cost(cut: Cut, layout: Layout, spec: Spec = Spec(), frame: _Frame | None = None) -> tuple[int, int]:
    """The layout's objective as the model prices it, from the geometry: (broken separations, the rest)."""
    pos = layout.positions
    frame_pref = [angle_sector(cut.points[e.b][0] - cut.points[e.a][0], cut.points[e.b][1] - cut.points[e.a][1])
                  for e in cut.edges]
    rest = 0
    for i, e in enumerate(cut.edges):
        d = layout.directions[(e.a, e.b)]
        k = min((d - frame_pref[i]) % 8, (frame_pref[i] - d) % 8)
        rest += WEIGHT_OFF * k * k + WEIGHT_LENGTH * max(abs(pos[e.b][0] - pos[e.a][0]), abs(pos[e.b][1] - pos[e.a][1]))
    rest += sum(WEIGHT_BEND * b + WEIGHT_SHARP * max(0, b - 2) for b in _bends(cut, layout).values())
    frame = frame or _frame(cut, spec.min_length, spec.width, spec.height)
    stations = sorted(cut.points)
    for k, s in enumerate(stations):
        for t in stations[k + 1:]:
            for axis in (0, 1):
                order = _order(cut, frame, s, t, axis)
                if order and (pos[t][axis] - pos[s][axis]) * order < 0:
                    rest += WEIGHT_ORDER
    return len(broken(cut, pos, spec, frame)), rest


def _bends(cut: Cut, layout: Layout) -> dict[tuple[str, str, str, str], int]:
    """Each line's turn at each station, in 45-degree steps away from straight on (0-4)."""
    def leaving(a: str, b: str) -> int:
        d = layout.directions.get((a, b))
        return d if d is not None else (layout.directions[(b, a)] + 4) % 8
    out = {}
    for turn in cut.turns:
        _, before, at, after = turn
        diff = (leaving(at, after) - leaving(at, before)) % 8
        out[turn] = abs(diff - 4)
    return out


def _window(cut: Cut, layout: Layout, centre: str, size: int, unplaced: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """The ``size`` placed stations nearest ``centre`` on the current map (ties by id); a station not
    placed yet is measured from where it is in the city."""
    pos = layout.positions
    if centre in pos:
        ranked = sorted((s for s in cut.points if s in pos), key=lambda s: (math.dist(pos[centre], pos[s]), s))
    else:
        ranked = sorted((s for s in cut.points if s in pos and s not in unplaced),
                        key=lambda s: (math.dist(cut.points[centre], cut.points[s]), s))
    return set(ranked[:size])


SWEEPS = ((1, 0), (0, 1), (1, 1), (1, -1))  # the sweep lines' normals: x, y and the diagonals


def _sweep(layout: Layout, axis: str, k: int) -> tuple[set[str], frozenset[str]]:
    """A sweep window: the stations just either side of the line ``u*x + v*y = k + 1/2`` free, those
    beyond it shifted together (so the map can close up or open out there), the rest fixed."""
    u, v = SWEEPS[int(axis[-1])]
    at = {s: u * p[0] + v * p[1] for s, p in layout.positions.items()}
    below = max((c for c in at.values() if c <= k), default=k)
    above = min((c for c in at.values() if c > k), default=k + 1)
    free = {s for s, c in at.items() if c in (below, above)}
    return free, frozenset(s for s, c in at.items() if c > above)


def _windows(cut: Cut, layout: Layout, spec: Spec) -> list[tuple[str, int | str]]:
    """One round's windows: a local one round each station, those with trouble first; then every
    sweep line between two stations' coordinates, along x, y and the diagonals."""
    out: list[tuple[str, int | str]] = [("local", s) for s in _trouble(cut, layout, spec)]
    for a, (u, v) in enumerate(SWEEPS):
        values = sorted({u * p[0] + v * p[1] for p in layout.positions.values()})
        out += [(f"sweep{a}", c) for c in values[:-1]]
    return out


def _trouble(cut: Cut, layout: Layout, spec: Spec) -> list[str]:
    """Stations in the order the windows visit them: at a broken separation, then at a bend, then the rest."""
    score = {s: 0 for s in cut.points}
    for group in broken(cut, layout.positions, spec):
        for s in group:
            score[s] += 1000
    for (_, _, at, _), b in _bends(cut, layout).items():
        score[at] += 10 * b
    return sorted(cut.points, key=lambda s: (-score[s], s))


def _grow(cut: Cut, frame: _Frame, spec: Spec, *, first: int, step: int, move: int, det_time: float, seed: int) -> tuple[Layout | None, float]:
    """A first layout, grown from the centre: the ``first`` stations nearest the cut's middle laid
    out whole, then ``step`` more at a time, each added with the placed stations beside it free to
    move ``move`` steps; every separation soft. Returns the layout (None when a step found none) and
    the deterministic time spent."""
    cx = sum(p[0] for p in cut.points.values()) / len(cut.points)
    cy = sum(p[1] for p in cut.points.values()) / len(cut.points)
    order = sorted(cut.points, key=lambda s: (math.dist((cx, cy), cut.points[s]), s))
    spent = 0.0
    part = _sub(cut, set(order[:first]))
    built = _build(part, frame, spec, soft=True, free=set(part.points), current=None, move=0, reach=math.inf)
    status, solver = _run(built, det_time, seed, 1)
    spent += solver.deterministic_time
    if status not in ("OPTIMAL", "FEASIBLE"):
        return None, spent
    positions, directions = _read(part, built, solver, None)
    current = _centred(Layout(positions, directions, "FEASIBLE"), frame)
    for k in range(first, len(order), step):
        new = set(order[k:k + step])
        part = _sub(cut, set(order[:k + step]))
        # the placed stations next to a new one may make room for it; where that cannot (an order
        # at a station leaves no slot), a wider window, then farther moves
        for reach, far in ((0, move), (2, move), (2, 2 * move), (4, 3 * move)):
            free = set(new)
            for s in new:
                if reach:
                    free |= _window(part, current, s, 2 + 4 * reach, new)
                for e in part.incident(s):
                    free.add(e.b if e.a == s else e.a)
            built = _build(part, frame, spec, soft=True, free=free, current=current, move=far, reach=0.0)
            status, solver = _run(built, det_time, seed, 1)
            spent += solver.deterministic_time
            if status in ("OPTIMAL", "FEASIBLE"):
                break
        else:
            return None, spent
        positions, directions = _read(part, built, solver, current)
        current = _centred(Layout(positions, directions, "FEASIBLE"), frame)
    return current, spent


def _centred(layout: Layout, frame: _Frame) -> Layout:
    """The layout moved to the middle of the grid: a map that grows off its geography would
    otherwise reach the grid's edge and leave a new station no room beyond it."""
    xs = [p[0] for p in layout.positions.values()]
    ys = [p[1] for p in layout.positions.values()]
    dx = (frame.size - max(xs) - min(xs)) // 2
    dy = (frame.size_y - max(ys) - min(ys)) // 2
    if not dx and not dy:
        return layout
    return Layout({s: (px + dx, py + dy) for s, (px, py) in layout.positions.items()}, layout.directions, layout.status)


def lns(cut: Cut, spec: Spec = Spec(), *, window: int = 12, move: int = 3, window_time: float = 1.0,
        budget: float = 20.0, seed: int = 0, first: int = 12, step: int = 4, start_time: float = 0.0) -> Layout:
    """The octilinear layout of ``cut`` by large-neighbourhood search, within ``budget`` CP-SAT
    deterministic seconds in all: a first layout grown from the middle (:func:`_grow`), then
    windows of ``window`` stations free to move ``move`` steps, each solved within ``window_time``."""
    n = len(cut.points)
    if n == 0:
        return Layout({}, {}, "OPTIMAL")
    frame = _frame(cut, spec.min_length, spec.width, spec.height)
    start: Layout | None = None
    spent = 0.0
    if start_time:
        whole = solve(cut, spec, det_time=start_time, seed=seed, soft=True)
        spent += whole.stats.get("det_time", 0.0)
        start = whole if whole.positions else None
    if start is None:
        start, grown = _grow(cut, frame, spec, first=first, step=step, move=move, det_time=window_time, seed=seed)
        spent += grown
    stats: dict[str, float] = {"stations": n, "edges": len(cut.edges), "grid": frame.size, "start_det_time": round(spent, 3)}
    if start is None:
        return Layout({}, {}, "NONE", stats=stats | {"det_time": round(spent, 3)})
    current = start
    best = cost(cut, current, spec, frame)
    stats["start_broken"], stats["start_cost"] = best
    windows = improved = 0
    while spent < budget:
        before = best
        for kind, centre in _windows(cut, current, spec):
            if spent >= budget:
                break
            if kind == "local":
                free, shifted = _window(cut, current, str(centre), window), frozenset[str]()
            else:
                free, shifted = _sweep(current, kind, int(centre))
            built = _build(cut, frame, spec, soft=True, free=free, current=current, move=move, reach=0.0,
                           shifted=shifted, shift=move)
            status, solver = _run(built, min(window_time, budget - spent), seed, 1)
            spent += solver.deterministic_time
            windows += 1
            if status not in ("OPTIMAL", "FEASIBLE"):
                continue
            positions, directions = _read(cut, built, solver, current)
            trial = Layout(positions, directions, "FEASIBLE")
            value = cost(cut, trial, spec, frame)
            if value < best:
                best, current = value, trial
                improved += 1
        if best == before:
            if best[0] == 0 or window >= 2 * len(cut.points):
                break
            window, move = window * 2, move + 2  # stuck with a separation broken: wider windows, farther moves
    stats |= {"det_time": round(spent, 3), "windows": windows, "improved": improved, "broken": best[0]}
    status = "FEASIBLE" if best[0] == 0 else "NONE"
    return Layout(current.positions, current.directions, status, float(best[0] * WEIGHT_BROKEN + best[1]), 0.0,
                  sum(_bends(cut, current).values()), stats)


__all__ = ["AXES", "Layout", "STEPS", "Spec", "angle_sector", "broken", "city_crossings", "cost", "lns", "solve"]
