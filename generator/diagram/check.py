"""The independent validator of a layout: geometry only, none of the model's variables.

It recomputes from the positions alone: every edge octilinear and at least ``min_length`` steps
long; no two stations on one point; each station's edges in the same circular order as in
geography; no two edges that share no station touching or crossing, and no station on an edge it
does not end at (true Euclidean distances, at least ``gap`` steps), except two edges that cross in
the city, which may cross once on the map. An empty list is a valid map.
"""

from __future__ import annotations

import math
from statistics import median

from .model import Cut


def _segment_distance(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float],
                      s: tuple[float, float]) -> float:
    """The distance between segments pq and rs (0 when they cross)."""
    def cross(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    d1, d2, d3, d4 = cross(p, q, r), cross(p, q, s), cross(r, s, p), cross(r, s, q)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4):
        return 0.0
    return min(_point_distance(p, r, s), _point_distance(q, r, s), _point_distance(r, p, q), _point_distance(s, p, q))


def _proper(pts: dict[str, tuple[float, float]], e, f) -> bool:
    """Whether edges e and f cross at one point inside both (not touching, not along each other)."""
    def side(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    p, q, r, s = pts[e.a], pts[e.b], pts[f.a], pts[f.b]
    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def _point_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    if dx == dy == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _order(points: dict[str, tuple[float, float]], at: str, others: list[str]) -> list[str]:
    px, py = points[at]
    return sorted(others, key=lambda o: math.atan2(points[o][1] - py, points[o][0] - px))


def _same_cycle(a: list[str], b: list[str]) -> bool:
    if len(a) != len(b) or not a:
        return len(a) == len(b)
    k = b.index(a[0])
    return a == b[k:] + b[:k]


def city_order(cut: Cut, positions: dict[str, tuple[int, int]], margin: float = 0.5) -> float:
    """The share of station pairs that keep their city order along x and along y (west of, south
    of), counting only pairs more than ``margin`` median edges apart along that axis: how much the
    map still reads as the city (a layout squeezed into a narrow area folds its ends back)."""
    lengths = [math.dist(cut.points[e.a], cut.points[e.b]) for e in cut.edges] or [1.0]
    least = margin * median(lengths)
    kept = total = 0
    stations = sorted(cut.points)
    for k, s in enumerate(stations):
        for t in stations[k + 1:]:
            for axis in (0, 1):
                city = cut.points[t][axis] - cut.points[s][axis]
                if abs(city) >= least:
                    total += 1
                    kept += (positions[t][axis] - positions[s][axis]) * city > 0
    return kept / total if total else 1.0


def problems(cut: Cut, positions: dict[str, tuple[int, int]], min_length: int = 1,
             gap: float = 0.5) -> list[str]:
    """What is wrong with ``positions`` as a diagram of ``cut`` (empty: nothing)."""
    out: list[str] = []
    if set(positions) != set(cut.points):
        return [f"stations laid out {sorted(set(positions) ^ set(cut.points))[:5]} differ from the cut's"]
    seen: dict[tuple[int, int], str] = {}
    for s, p in sorted(positions.items()):
        if p in seen:
            out.append(f"{s} and {seen[p]} share the point {p}")
        seen[p] = s
    pts = {s: (float(p[0]), float(p[1])) for s, p in positions.items()}
    room = {(a, b): k for a, b, k in cut.room}
    for e in cut.edges:
        dx, dy = positions[e.b][0] - positions[e.a][0], positions[e.b][1] - positions[e.a][1]
        shortest = max(min_length, room.get((e.a, e.b), 0))
        if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            out.append(f"{e.a}-{e.b} is not octilinear ({dx}, {dy})")
        elif max(abs(dx), abs(dy)) < shortest:
            out.append(f"{e.a}-{e.b} is shorter than {shortest}")
    for s in cut.points:
        nbrs = [e.b if e.a == s else e.a for e in cut.incident(s)]
        if len(nbrs) >= 3 and not _same_cycle(_order(cut.points, s, nbrs), _order(pts, s, nbrs)):
            out.append(f"the lines at {s} leave it in another order than in the city")
    edges = cut.edges
    for i, e in enumerate(edges):
        for f in edges[i + 1:]:
            if {e.a, e.b} & {f.a, f.b}:
                continue
            if _segment_distance(pts[e.a], pts[e.b], pts[f.a], pts[f.b]) < gap:
                geo = cut.points
                if _segment_distance(geo[e.a], geo[e.b], geo[f.a], geo[f.b]) == 0.0 and _proper(pts, e, f):
                    continue  # one line over another in the city: it may cross on the map too
                out.append(f"{e.a}-{e.b} meets {f.a}-{f.b}")
        for s in cut.points:
            if s not in (e.a, e.b) and _point_distance(pts[s], pts[e.a], pts[e.b]) < gap:
                out.append(f"{s} lies on {e.a}-{e.b}")
    return out


__all__ = ["city_order", "problems"]
