"""A network cut to lay out as a diagram: stations with their geography, edges with their lines.

A :class:`Cut` is what the layout engine reads and what its cache key is made of: the stations
(id, name, position projected to km), the edges between them (one per station pair, with every
line that runs it, in a fixed order) and each line's runs (consecutive edges, where a bend can
happen). It knows nothing of the games: Tube Dice, One Day and KLM each cut their own.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tubedeck.geo import EARTH_KM

if TYPE_CHECKING:
    from tubedeck.network import Network



@dataclass(frozen=True)
class Edge:
    a: str
    b: str
    lines: tuple[str, ...]  # every line on this pair, sorted: drawn side by side in this order


@dataclass(frozen=True)
class Cut:
    """Stations ``{id: (x_km, y_km)}`` (east and north of the cut's centre), names, edges, and each
    line's turns: ``(line, before, station, after)`` where a line passes through ``station``."""

    points: dict[str, tuple[float, float]]
    names: dict[str, str]
    edges: tuple[Edge, ...]
    turns: tuple[tuple[str, str, str, str], ...]
    room: tuple[tuple[str, str, int], ...] = ()  # edges (a, b) that need more than the shortest length, in steps

    def digest(self) -> str:
        """A digest of everything the layout depends on (the cache's key)."""
        body = json.dumps({"points": sorted((k, round(x, 4), round(y, 4)) for k, (x, y) in self.points.items()),
                           "edges": [(e.a, e.b, e.lines) for e in self.edges], "turns": list(self.turns),
                           "room": list(self.room)})
        return hashlib.sha256(body.encode()).hexdigest()[:24]

    def incident(self, station: str) -> list[Edge]:
        return [e for e in self.edges if station in (e.a, e.b)]


def project(lat: float, lon: float, lat0: float, lon0: float) -> tuple[float, float]:
    """Equirectangular projection about (lat0, lon0), km: exact enough for a city."""
    x = math.radians(lon - lon0) * EARTH_KM * math.cos(math.radians(lat0))
    y = math.radians(lat - lat0) * EARTH_KM
    return x, y


class Located(Protocol):
    """Anything with a place: a dataset's station, a game's."""

    @property
    def lat(self) -> float: ...

    @property
    def lon(self) -> float: ...


def places(stations: Mapping[str, Located]) -> dict[str, tuple[float, float]]:
    """Each station in km east and north of the stations' mean place (:func:`project`), by id."""
    lat0 = sum(st.lat for st in stations.values()) / len(stations)
    lon0 = sum(st.lon for st in stations.values()) / len(stations)
    return {s: project(st.lat, st.lon, lat0, lon0) for s, st in sorted(stations.items())}


def from_runs(stations: Mapping[str, Located], names: Mapping[str, str], runs: Iterable[tuple[str, Sequence[str]]],
              pairs: Iterable[tuple[str, str, str]] | None = None) -> Cut:
    """The cut of ``stations`` along each line's ``runs`` ``(line, stations in order)``: an edge
    per pair of stations a run joins (or per ``(a, b, line)`` in ``pairs``), with every line on
    it, and each run's turns."""
    runs = list(runs)
    joined: dict[tuple[str, str], set[str]] = {}
    for a, b, line in pairs if pairs is not None else ((a, b, line) for line, run in runs for a, b in zip(run, run[1:])):
        joined.setdefault((min(a, b), max(a, b)), set()).add(line)
    edges = tuple(Edge(a, b, tuple(sorted(lines))) for (a, b), lines in sorted(joined.items()))
    turns = set()
    for line, run in runs:
        for before, at, after in zip(run, run[1:], run[2:]):
            if before != after:
                turns.add((line, min(before, after), at, max(before, after)))
    points = places(stations)
    return Cut(points, {s: names[s] for s in points}, edges, tuple(sorted(turns)))


def from_network(network: "Network", stations: set[str] | None = None) -> Cut:
    """The cut of ``network`` on ``stations`` (default: all): edges where both ends are kept."""
    keep = set(network.stations) if stations is None else set(stations)
    cut = network.restricted(keep)
    return from_runs(cut.stations, {s: st.name for s, st in cut.stations.items()},
                     ((br.line, br.stations) for br in cut.branches), cut.edges())


def fit(grid: dict[str, tuple[int, int]], x: float, y: float, w: float, h: float) -> tuple[dict[str, tuple[float, float]], float]:
    """Grid positions scaled to fill the box at (``x``, ``y``) of ``w`` by ``h`` (the same scale both
    ways, centred): the places and the scale (box units per grid step)."""
    x0, y0 = min(p[0] for p in grid.values()), min(p[1] for p in grid.values())
    gw, gh = max(p[0] for p in grid.values()) - x0 or 1, max(p[1] for p in grid.values()) - y0 or 1
    scale = min(w / gw, h / gh)
    ox, oy = x + (w - gw * scale) / 2, y + (h - gh * scale) / 2
    return {s: (ox + (px - x0) * scale, oy + (py - y0) * scale) for s, (px, py) in grid.items()}, scale


__all__ = ["Cut", "Edge", "fit", "from_network", "from_runs", "places", "project"]
