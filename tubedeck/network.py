"""The Network: stations, lines and the ordered stops of every branch, as immutable values.

Vocabulary used everywhere in tubedeck:

* a **Station** is a stop with facts (zone, borough, date opened...);
* a **Line** is a named, coloured service (Northern, Circle...);
* a **Branch** is one ordered run of stops of a line; a line is the union of its branches, and
  two stations are *adjacent on a line* when they are consecutive on one of its branches;
* a **Terminus** of a line is a station with one neighbour on that line;
* an **interchange** is a station served by two or more lines.

``Network.load(dir)`` reads and validates any directory in the dataset format (London by
default, another city just as well); ``subnetwork`` cuts a scope by zones and/or lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

if TYPE_CHECKING:
    import networkx as nx

from .content import data_root
from .dataset import read_dataset
from .errors import UsageError
from .names import match_station


@dataclass(frozen=True)
class Station:
    """A station and its facts. Blank facts are ``None`` / empty: unknown, never invented."""

    id: str
    name: str
    lat: float
    lon: float
    zone: str  # "1", or "2/3" for a boundary station
    local_authority: str | None = None
    opened: str | None = None  # ISO date or year
    step_free: str | None = None  # yes / partial / no
    listed: str | None = None  # heritage grade
    surface: str | None = None  # open / tunnel
    interchanges: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # other names people type, as TfL writes them; each names this station only

    @property
    def zones(self) -> tuple[int, ...]:
        """The fare zones the station belongs to: ``"2/3"`` -> ``(2, 3)``."""
        return tuple(int(z) for z in self.zone.split("/"))


@dataclass(frozen=True)
class Line:
    id: str
    name: str
    colour: str
    text_colour: str


@dataclass(frozen=True)
class Branch:
    """One ordered run of stops of a line. A loop may visit a station twice, never consecutively."""

    line: str
    name: str
    stations: tuple[str, ...]

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        return tuple(zip(self.stations, self.stations[1:]))


def _opt(value: str) -> str | None:
    return value or None


@dataclass(frozen=True)
class Network:
    """An immutable station-and-line network with the queries the games need."""

    stations: Mapping[str, Station]
    lines: Mapping[str, Line]
    branches: tuple[Branch, ...]
    source: str = field(default="", compare=False)

    # -- loading -----------------------------------------------------------------------
    @classmethod
    def load(cls, directory: Path | str | None = None) -> "Network":
        """Load and validate a dataset directory (``data/`` by default); DataError on problems."""
        raw = read_dataset(directory or data_root())
        stations = {}
        for ident, r in raw.stations.items():
            modes = tuple(m.strip() for m in r["interchanges"].split(";") if m.strip())
            aliases = tuple(a.strip() for a in r["aliases"].split(";") if a.strip())
            stations[ident] = Station(
                ident, r["name"], round(float(r["lat"]), 6), round(float(r["lon"]), 6), r["zone"],
                _opt(r["local_authority"]), _opt(r["opened"]), _opt(r["step_free"]),
                _opt(r["listed"]), _opt(r["surface"]), modes, aliases=aliases,
            )
        lines = {i: Line(i, r["name"], r["colour"].upper(), r["text_colour"].upper()) for i, r in raw.lines.items()}
        branches = tuple(Branch(line, name, tuple(seq)) for (line, name), seq in sorted(raw.branches.items()))
        return cls(stations, lines, branches, str(raw.directory))

    # -- lookups -----------------------------------------------------------------------
    def station(self, ident: str) -> Station:
        try:
            return self.stations[ident]
        except KeyError:
            raise UsageError(f"unknown station id {ident!r}") from None

    def match(self, name: str) -> str:
        """The id of the station a person means by ``name``: its name, an alias (e.g. TfL's
        ``Edgware Road (Circle Line)``) or its id, typed forgivingly (see :mod:`tubedeck.names`).
        UsageError if unknown (with suggestions) or ambiguous (``edgware road``: both listed)."""
        return match_station(name, self._names)

    @cached_property
    def _names(self) -> tuple[tuple[str, str], ...]:
        # Aliases before the name: for an ambiguous prefix, match_station shows the last matching
        # entry of each station, which is then its own name when that matches.
        return tuple((s, n) for s, st in self.stations.items() for n in (*st.aliases, st.name))

    def line(self, ident: str) -> Line:
        try:
            return self.lines[ident]
        except KeyError:
            known = ", ".join(sorted(self.lines))
            raise UsageError(f"unknown line {ident!r} (known: {known})") from None

    def branches_of(self, line: str) -> tuple[Branch, ...]:
        return tuple(b for b in self.branches if b.line == line)

    # -- graph -------------------------------------------------------------------------
    @cached_property
    def graph(self) -> nx.MultiGraph:
        """Undirected multigraph: one edge per (pair, line), edge key = line id."""
        import networkx as nx  # only the commands that walk the graph pay for networkx

        g = nx.MultiGraph()
        for ident, st in self.stations.items():
            g.add_node(ident, name=st.name, lat=st.lat, lon=st.lon, zone=st.zone)
        for b in self.branches:
            for a, c in b.pairs:
                if not g.has_edge(a, c, key=b.line):
                    g.add_edge(a, c, key=b.line, line=b.line)
        return g

    def line_graph(self, line: str) -> nx.Graph:
        """The simple graph of one line."""
        import networkx as nx

        g = nx.Graph()
        for b in self.branches_of(line):
            g.add_nodes_from(b.stations)
            g.add_edges_from(b.pairs)
        return g

    @cached_property
    def _lines_at(self) -> dict[str, tuple[str, ...]]:
        at: dict[str, set[str]] = {s: set() for s in self.stations}
        for b in self.branches:
            for s in b.stations:
                at[s].add(b.line)
        return {s: tuple(sorted(ls)) for s, ls in at.items()}

    def lines_at(self, station: str) -> tuple[str, ...]:
        """Line ids serving a station, sorted."""
        return self._lines_at[station]

    def stations_on(self, line: str) -> tuple[str, ...]:
        """Station ids on a line, in first-seen branch order."""
        seen: dict[str, None] = {}
        for b in self.branches_of(line):
            seen.update(dict.fromkeys(b.stations))
        return tuple(seen)

    def neighbours(self, station: str, line: str | None = None) -> tuple[str, ...]:
        """Stations adjacent to ``station`` (on ``line`` if given), sorted."""
        if station not in self.graph:
            raise UsageError(f"unknown station id {station!r}")
        out = {n for n, keys in self.graph[station].items() if line is None or line in keys}
        return tuple(sorted(out))

    def edges(self, line: str | None = None) -> tuple[tuple[str, str, str], ...]:
        """``(a, b, line)`` for every adjacent pair, a < b, sorted."""
        out = {(min(a, b), max(a, b), k) for a, b, k in self.graph.edges(keys=True) if line in (None, k)}
        return tuple(sorted(out))

    def termini(self, line: str) -> tuple[str, ...]:
        """Stations with exactly one neighbour on the line (its ends), sorted."""
        g = self.line_graph(line)
        return tuple(sorted(n for n in g if g.degree(n) == 1))

    def interchanges(self) -> tuple[str, ...]:
        """Stations served by two or more lines of this network, sorted."""
        return tuple(s for s in sorted(self.stations) if len(self.lines_at(s)) >= 2)

    def position(self, station: str, line: str, branch: str | None = None) -> tuple[tuple[str, int], ...]:
        """``(branch, 1-based index)`` of every place ``station`` stands on the line's branches."""
        out = []
        for b in self.branches_of(line):
            if branch in (None, b.name):
                out += [(b.name, i + 1) for i, s in enumerate(b.stations) if s == station]
        return tuple(out)

    # -- scopes ------------------------------------------------------------------------
    def subnetwork(self, zones: Iterable[int] | None = None, lines: Iterable[str] | None = None) -> "Network":
        """The part of the network in ``zones`` (a boundary station counts for each of its zones)
        and on ``lines``. Branches are cut into the runs of stops that remain, so adjacency in
        the scope is adjacency in the full network with both ends kept."""
        zone_set = set(zones) if zones is not None else None
        line_set = set(lines) if lines is not None else None
        for ident in line_set or ():
            self.line(ident)
        keep = {s for s, st in self.stations.items() if zone_set is None or zone_set & set(st.zones)}
        return self.restricted(keep, line_set)

    def restricted(self, keep: set[str], lines: Iterable[str] | None = None, min_run: int = 1) -> "Network":
        """The network on the ``keep`` stations (and ``lines``): each branch cut into its runs of
        kept stops, runs shorter than ``min_run`` stops dropped."""
        line_set = set(lines) if lines is not None else None
        branches: list[Branch] = []
        for b in self.branches:
            if line_set is not None and b.line not in line_set:
                continue
            run: list[str] = []
            part = 0
            for s in list(b.stations) + [None]:
                if s is not None and s in keep:
                    run.append(s)
                    continue
                if run and len(run) >= min_run:
                    part += 1
                    name = b.name if part == 1 else f"{b.name}~{part}"
                    branches.append(Branch(b.line, name, tuple(run)))
                run = []
        used = {s for b in branches for s in b.stations}
        stations = {s: st for s, st in self.stations.items() if s in used}
        kept_lines = {b.line for b in branches}
        return Network(stations, {i: l for i, l in self.lines.items() if i in kept_lines}, tuple(branches), self.source)

    # -- summary -----------------------------------------------------------------------
    def line_summary(self, line: str) -> dict:
        """Per-line figures: stations, branches, termini, interchanges, zones."""
        stations = self.stations_on(line)
        zones = sorted({z for s in stations for z in self.stations[s].zones})
        return {
            "line": line,
            "name": self.lines[line].name,
            "stations": len(stations),
            "branches": len(self.branches_of(line)),
            "termini": [self.stations[s].name for s in self.termini(line)],
            "interchanges": sum(1 for s in stations if len(self.lines_at(s)) >= 2),
            "zones": zones,
        }

    def summary(self) -> dict:
        return {
            "source": self.source,
            "stations": len(self.stations),
            "lines": len(self.lines),
            "branches": len(self.branches),
            "edges": len(self.edges()),
            "interchanges": len(self.interchanges()),
            "per_line": [self.line_summary(l) for l in sorted(self.lines)],
        }
