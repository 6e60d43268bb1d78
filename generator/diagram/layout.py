"""Octilinear metro-map layout with CP-SAT (after Nöllenburg and Wolff, 2011).

Every station gets integer grid coordinates; every edge one of the eight octilinear directions,
chosen among the three nearest its geographic direction (relative position kept), with a length
of at least ``min_length`` grid steps. Hard constraints: octilinearity; each station's edges keep
their circular order (the map still reads as the city); no two edges that share no station come
within ``clearance`` of each other (one of eight half-plane separations along x, y, x+y, x-y
holds), and no edge within ``clearance`` of a station it does not end at. Objective, in this
order of weight: bends along a line (a 45-degree turn costs 1, 90 degrees 2; sharper is
forbidden), edges off their geographic direction, total edge length.

Separation constraints are only written for pairs that are near in geography (edges whose
bounding boxes come within ``near`` median edge lengths): far pairs cannot meet in a layout
that keeps relative positions; the independent validator (:mod:`.check`) confirms the result.

The solve is deterministic: one worker, a fixed seed and a deterministic-time budget (CP-SAT's
own measure, the same on any machine); a hint from the geography starts it. Status is reported
as is (OPTIMAL, FEASIBLE with its bound, or no layout).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import median

from .model import Cut, Edge

# direction d: (dx, dy) per unit length; 0 = east, counter-clockwise in 45-degree steps
STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
AXES = ((1, 0), (0, 1), (1, 1), (1, -1))  # x, y, x+y, x-y: the separating directions


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


def _near(cut: Cut, e: Edge, f: Edge, reach: float) -> bool:
    (ax, ay), (bx, by) = cut.points[e.a], cut.points[e.b]
    (cx, cy), (dx, dy) = cut.points[f.a], cut.points[f.b]
    gap_x = max(min(cx, dx) - max(ax, bx), min(ax, bx) - max(cx, dx), 0.0)
    gap_y = max(min(cy, dy) - max(ay, by), min(ay, by) - max(cy, dy), 0.0)
    return math.hypot(gap_x, gap_y) <= reach


def solve(cut: Cut, *, min_length: int = 2, clearance: int = 1, near: float = 1.5, det_time: float = 20.0,
          seed: int = 0, workers: int = 1, spread: int = 2) -> Layout:
    """The octilinear layout of ``cut`` within ``det_time`` (CP-SAT deterministic seconds)."""
    from ortools.sat.python import cp_model

    stations = sorted(cut.points)
    n = len(stations)
    if n == 0:
        return Layout({}, {}, "OPTIMAL")
    lengths = [math.dist(cut.points[e.a], cut.points[e.b]) for e in cut.edges] or [1.0]
    unit = median(lengths) / min_length  # km per grid step: a median edge is min_length steps
    xs = [p[0] for p in cut.points.values()]
    ys = [p[1] for p in cut.points.values()]
    span = int(max(max(xs) - min(xs), max(ys) - min(ys)) / unit) + 4 * min_length
    size = max(span * 2, min_length * n // 2 + 8)
    m = cp_model.CpModel()
    x = {s: m.new_int_var(0, size, f"x_{s}") for s in stations}
    y = {s: m.new_int_var(0, size, f"y_{s}") for s in stations}
    longest = size
    choice: dict[tuple[int, int], cp_model.IntVar] = {}
    length: dict[int, cp_model.IntVar] = {}
    preferred: dict[int, int] = {}
    off_direction = []
    for i, e in enumerate(cut.edges):
        (ax, ay), (bx, by) = cut.points[e.a], cut.points[e.b]
        p = angle_sector(bx - ax, by - ay)
        preferred[i] = p
        length[i] = m.new_int_var(min_length, longest, f"len_{i}")
        options = [(p + k) % 8 for k in range(-spread, spread + 1)]
        for k, d in zip(range(-spread, spread + 1), options):
            b = m.new_bool_var(f"dir_{i}_{d}")
            choice[(i, d)] = b
            dx, dy = STEPS[d]
            m.add(x[e.b] - x[e.a] == dx * length[i]).only_enforce_if(b)
            m.add(y[e.b] - y[e.a] == dy * length[i]).only_enforce_if(b)
            off_direction += [b] * (abs(k) * abs(k))  # 45 degrees off costs 1, 90 degrees 4
        m.add_exactly_one(choice[(i, d)] for d in options)

    def out_dir(i: int, at: str) -> cp_model.LinearExpr:
        """The direction edge i leaves station ``at`` in (0..7)."""
        e = cut.edges[i]
        shift = 0 if at == e.a else 4
        terms = [(b, (d + shift) % 8) for (j, d), b in choice.items() if j == i]
        return cp_model.LinearExpr.weighted_sum([b for b, _ in terms], [w for _, w in terms])

    index = {(e.a, e.b): i for i, e in enumerate(cut.edges)}

    def edge_of(a: str, b: str) -> int:
        return index[(a, b)] if (a, b) in index else index[(b, a)]

    # circular order at every station of degree >= 2
    for s in stations:
        inc = [i for i, e in enumerate(cut.edges) if s in (e.a, e.b)]
        if len(inc) < 2:
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
    bend_terms: list[cp_model.IntVar] = []
    sharp_terms: list[cp_model.IntVar] = []
    for line, before, at, after in cut.turns:
        i, j = edge_of(before, at), edge_of(at, after)
        diff = m.new_int_var(0, 7, f"turn_{line}_{at}_{before}_{after}")
        m.add_modulo_equality(diff, out_dir(j, at) - out_dir(i, at) + 8, 8)
        cost = m.new_int_var(0, 4, f"bend_{line}_{at}_{before}_{after}")
        m.add_abs_equality(cost, diff - 4)
        sharp = m.new_int_var(0, 2, f"sharp_{line}_{at}_{before}_{after}")  # beyond 90 degrees: heavily
        m.add_max_equality(sharp, [0, cost - 2])
        bend_terms.append(cost)
        sharp_terms.append(sharp)

    # separation of near, non-incident edge pairs, and of stations from edges they do not end at
    reach = near * median(lengths)

    def separate(first: list[str], second: list[str], tag: str) -> None:
        lits = []
        for a, (u, v) in enumerate(AXES):
            for sign in (1, -1):
                b = m.new_bool_var(f"sep_{tag}_{a}_{sign}")
                lits.append(b)
                for p in first:
                    for q in second:
                        m.add(sign * (u * x[q] + v * y[q] - u * x[p] - v * y[p]) >= clearance).only_enforce_if(b)
        m.add_bool_or(lits)

    pairs = 0
    edges = cut.edges
    for i, e in enumerate(edges):
        for j in range(i + 1, len(edges)):
            f = edges[j]
            if {e.a, e.b} & {f.a, f.b} or not _near(cut, e, f, reach):
                continue
            separate([e.a, e.b], [f.a, f.b], f"e{i}_{j}")
            pairs += 1
        for s in stations:
            if s in (e.a, e.b):
                continue
            point = Edge(s, s, ())
            if _near(cut, e, point, reach):
                separate([e.a, e.b], [s], f"s{i}_{s}")
                pairs += 1

    weight_bend, weight_dir = 100, 30
    m.minimize(weight_bend * sum(bend_terms) + 10 * weight_bend * sum(sharp_terms) + weight_dir * sum(off_direction)
               + sum(length.values()))
    # a hint from geography: positions rounded to the grid
    x0, y0 = min(xs), min(ys)
    for s in stations:
        m.add_hint(x[s], min(size, int(round((cut.points[s][0] - x0) / unit)) + 2 * min_length))
        m.add_hint(y[s], min(size, int(round((cut.points[s][1] - y0) / unit)) + 2 * min_length))
    for i in preferred:
        m.add_hint(choice[(i, preferred[i])], 1)

    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time = det_time
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    if workers > 1:
        solver.parameters.interleave_search = True  # several workers, still the same answer every run
    code = solver.solve(m)
    status = {cp_model.OPTIMAL: "OPTIMAL", cp_model.FEASIBLE: "FEASIBLE", cp_model.INFEASIBLE: "INFEASIBLE"}.get(
        code, "NONE")
    stats = {"stations": n, "edges": len(cut.edges), "separations": pairs,
             "det_time": round(solver.deterministic_time, 3), "grid": size}
    if status in ("NONE", "INFEASIBLE"):
        return Layout({}, {}, status, stats=stats)
    positions = {s: (solver.value(x[s]), solver.value(y[s])) for s in stations}
    directions = {(e.a, e.b): next(d for (j, d), b in choice.items() if j == i and solver.value(b))
                  for i, e in enumerate(cut.edges)}
    return Layout(positions, directions, status, solver.objective_value, solver.best_objective_bound,
                  int(sum(solver.value(t) for t in bend_terms)), stats)


__all__ = ["AXES", "Layout", "STEPS", "angle_sector", "solve"]
