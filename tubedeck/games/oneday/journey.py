"""One Day in London: is a rack, read in slot order (slot 1, the top, first), a valid continuous journey?

The written rules, as this module applies them to the stops ``s1 .. s10`` of a rack:

* **connect**: consecutive stops share a line (any two stations on the same line are connected:
  any distance along a line, passing through stations not in the rack);
* **repeat**: never the same station twice in a row ("you don't get to stop for coffee");
* **backtrack**: no backtracking on the same line: two consecutive hops ridden on one line form
  one ride and keep its direction (three consecutive stops ridden on one line keep their
  direction);
* a change of line is allowed at any station, and after a change a line or a station may recur,
  even ridden back the other way;
* **same track**: the text allows "changing lines to another moving in the same direction on the
  same track" (Metropolitan <-> Hammersmith & City). So a change onto another line of the same
  track keeps the direction of travel: riding it straight back the way one came is backtracking.
  Reversing needs a change through a line that is not on that track (Met east to King's Cross,
  Northern to Euston, Victoria back to King's Cross, then the H&C west is fine). Directions on
  two lines of one track are compared through the order of their shared stations
  (:meth:`Board.reverses`). The printed rules card says so.

Each hop may be ridden on any line the two stations share; the validator searches all choices
(a small dynamic programme over (line, direction) of the last hop) and, of the valid ones,
reports the journey with the fewest rides. A failure names the first slot at which no valid
journey through the earlier slots exists, and the rule that fails there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from .board import Board

RULES = {
    "length": "a rack holds exactly {slots} cards",
    "repeat": "never the same station twice in a row",
    "connect": "consecutive stops share a line",
    "backtrack": "no backtracking on the same line",
}


def _base(name: str) -> str:
    """A station name without a trailing qualifier: "Paddington (Bakerloo & District)" -> "Paddington"."""
    return name.split(" (")[0] if name.endswith(")") else name


@dataclass(frozen=True)
class Leg:
    """What a rider does on the real network for (part of) a ride: board ``line`` on one of the
    dataset's branches (``data/routes.csv``) and ride it ``towards`` that branch's end in the
    direction of travel, from ``stops[0]`` through the rest to ``stops[-1]`` (game station ids).
    ``calls`` gives, stop by stop, the dataset station the line calls at: a merged game station may
    be a different station for each line (the game's Aldgate is Aldgate East on the District)."""

    line: str
    towards: str  # a dataset station id: the end of the branch, often beyond the game's zones
    stops: tuple[str, ...]
    calls: tuple[str, ...]

    def stop_name(self, gmap: Board, k: int) -> str:
        """The stop's game name, and where the line calls if that is another station there
        ("Aldgate (at Aldgate East)"; not "Paddington (Bakerloo & District)": the same Paddington)."""
        name = gmap.name(self.stops[k])
        called = gmap.data_names.get(self.calls[k], name)
        return name if _base(called) == _base(name) else f"{name} (at {called})"

    def describe(self, gmap: Board) -> str:
        names = [self.stop_name(gmap, k) for k in range(len(self.stops))]
        via = f" through {', '.join(names[1:-1])}" if len(names) > 2 else ""
        towards = gmap.data_names.get(self.towards) or gmap.name(self.towards)
        return f"{gmap.lines[self.line].name} towards {towards}: {names[0]}{via} to {names[-1]}"

    def as_dict(self) -> dict:
        return {"line": self.line, "towards": self.towards, "stops": list(self.stops), "calls": list(self.calls)}


@dataclass(frozen=True)
class Ride:
    """A stretch ridden on one line in one direction of the game's run: ``stops`` from boarding to
    alighting; ``direction`` is +1 along the line's run order, -1 against it.

    A game run joins a line's zone-1 stations into one row, across the dataset's branches: the
    District's from Edgware Road turns at Earl's Court onto its main branch, the Northern's Bank
    branch meets the Charing Cross branch at Euston. So the ride is explained as ``legs``: one per
    branch and direction, each towards its branch's end (the first leg of Paddington to Victoria on
    the District is "towards Earl's Court", the second "towards Upminster")."""

    line: str
    direction: int
    stops: tuple[str, ...]
    legs: tuple[Leg, ...]

    def describe(self, gmap: Board) -> str:
        """The legs, one per line of text: "District towards Upminster: Blackfriars through ..."."""
        return "\n".join(leg.describe(gmap) for leg in self.legs)

    def as_dict(self) -> dict:
        return {"line": self.line, "direction": self.direction, "stops": list(self.stops),
                "legs": [leg.as_dict() for leg in self.legs]}


def _members_on(gmap: Board, station: str, on: frozenset[str]) -> list[str]:
    return [m for m in gmap.stations[station].members if m in on] or list(gmap.stations[station].members)


@lru_cache(maxsize=256)
def _branch_edges(branches: tuple[tuple[str, ...], ...]) -> tuple[frozenset[str], tuple[dict[tuple[str, str], list[int]], ...]]:
    """A line's dataset branches as :func:`legs` reads them: the stations on any of them, and per
    branch, for each ordered pair of neighbours (x, y), the direction of each place where they
    meet, in the branch's order (1 where x comes first). Built once per line (the bots explain
    every journey they find, so :func:`legs` is on their path)."""
    on = frozenset(s for b in branches for s in b)
    pairs: list[dict[tuple[str, str], list[int]]] = []
    for branch in branches:
        meet: dict[tuple[str, str], list[int]] = {}
        for x, y in zip(branch, branch[1:]):
            meet.setdefault((x, y), []).append(1)
            meet.setdefault((y, x), []).append(-1)
        pairs.append(meet)
    return on, tuple(pairs)


def legs(gmap: Board, line: str, stops: Sequence[str]) -> tuple[Leg, ...]:
    """A ride's legs (see :class:`Ride`): its stretch of the game run, edge by edge, on the
    dataset branch that carries each edge (the one already ridden when several do), cut wherever
    the branch or the direction along it changes; the cut station (Earl's Court, Euston) ends one
    leg and starts the next. Without the dataset's branches (a hand-made map): one leg towards the
    run's end."""
    run = gmap.runs[line].stations
    i, j = run.index(stops[0]), run.index(stops[-1])
    step = 1 if j > i else -1
    path = run[i: j + step if j + step >= 0 else None: step]
    branches = gmap.branches.get(line, ())
    if not branches:
        return (Leg(line, gmap.towards(line, step), tuple(stops), tuple(stops)),)
    on, meets = _branch_edges(tuple(branches))
    # edge k, path[k] -> path[k+1]: (branch index, direction on it, member called at each end)
    edges: list[tuple[int, int, str, str]] = []
    for a, b in zip(path, path[1:]):
        members_a, members_b = _members_on(gmap, a, on), _members_on(gmap, b, on)
        found = [(bi, d, ma, mb) for bi, meet in enumerate(meets) for ma in members_a for mb in members_b
                 for d in meet.get((ma, mb), ())]
        if not found:  # the run joins stations no branch joins: cannot happen for a derived map
            raise ValueError(f"{line}: {a} - {b} is on no branch of the dataset")
        if edges:
            found.sort(key=lambda e: (e[:2] != edges[-1][:2], e[2] != edges[-1][3]))
        edges.append(found[0])
    out: list[Leg] = []
    start = 0
    for k in range(1, len(edges) + 1):
        if k == len(edges) or edges[k][:2] != edges[start][:2]:
            bi, d = edges[start][:2]
            branch = branches[bi]
            stretch = path[start: k + 1]
            keep = [n for n, s in enumerate(stretch) if n in (0, len(stretch) - 1) or s in stops]
            calls = [edges[start][2]] + [edges[n][3] for n in range(start, k)]
            out.append(Leg(line, branch[-1] if d > 0 else branch[0], tuple(stretch[n] for n in keep),
                           tuple(calls[n] for n in keep)))
            start = k
    return tuple(out)


@dataclass(frozen=True)
class Journey:
    """A valid sequence of stops and the rides that make it."""

    stations: tuple[str, ...]
    rides: tuple[Ride, ...]

    def as_dict(self) -> dict:
        return {"stations": list(self.stations), "rides": [r.as_dict() for r in self.rides]}


@dataclass(frozen=True)
class Verdict:
    """The validator's answer: a journey, or the first failing slot (1-based) and its rule."""

    valid: bool
    journey: Journey | None = None
    slot: int | None = None
    rule: str | None = None
    message: str = ""

    def as_dict(self) -> dict:
        return {"valid": self.valid, "slot": self.slot, "rule": self.rule, "message": self.message,
                "journey": self.journey.as_dict() if self.journey else None}


Hop = tuple[str, int]  # (line, direction)


def hop_options(gmap: Board, a: str, b: str) -> tuple[Hop, ...]:
    """Every (line, direction) that carries a rider from ``a`` to ``b``."""
    if a == b:
        return ()
    return tuple((l, gmap.direction(l, a, b)) for l in gmap.common_lines(a, b))


def compatible(gmap: Board, prev: Hop | None, nxt: Hop) -> bool:
    """The backtracking rule between two consecutive hops (see the module docstring)."""
    return prev is None or not gmap.reverses(prev, nxt)


def _rides(gmap: Board, stations: Sequence[str], hops: Sequence[Hop]) -> tuple[Ride, ...]:
    rides: list[Ride] = []
    start = 0
    for i in range(1, len(hops) + 1):
        if i == len(hops) or hops[i] != hops[start]:
            line, d = hops[start]
            stops = tuple(stations[start: i + 1])
            rides.append(Ride(line, d, stops, legs(gmap, line, stops)))
            start = i
    return tuple(rides)


def validate(gmap: Board, stations: Sequence[str], slots: int | None = None) -> Verdict:
    """Check a rack (station ids, slot 1 first) against the rules; see the module docstring."""
    slots = gmap.recipe.slots if slots is None else slots
    if len(stations) != slots:
        return Verdict(False, None, None, "length", f"the rack has {len(stations)} cards; {RULES['length'].format(slots=slots)}")
    # best[h] = (rides so far, hops) for every (line, direction) the last hop may have used.
    best: dict[Hop | None, tuple[int, tuple[Hop, ...]]] = {None: (0, ())}
    for i in range(1, len(stations)):
        a, b = stations[i - 1], stations[i]
        slot = i + 1
        if a == b:
            return Verdict(False, None, slot, "repeat",
                           f"slot {slot}: {gmap.name(b)} again; {RULES['repeat']}")
        options = hop_options(gmap, a, b)
        if not options:
            return Verdict(False, None, slot, "connect",
                           f"slot {slot}: {gmap.name(a)} and {gmap.name(b)} share no line; {RULES['connect']}")
        nxt: dict[Hop | None, tuple[int, tuple[Hop, ...]]] = {}
        for h in options:
            cands = [(n + (prev is None or prev != h), hs + (h,)) for prev, (n, hs) in best.items() if compatible(gmap, prev, h)]
            if cands:
                nxt[h] = min(cands, key=lambda c: (c[0], [gmap.preference(l) + (d,) for l, d in c[1]]))
        if not nxt:
            line_names = ", ".join(gmap.lines[l].name for l, _ in options)
            return Verdict(False, None, slot, "backtrack",
                           f"slot {slot}: {gmap.name(a)} to {gmap.name(b)} would ride {line_names} back the "
                           f"way the journey came; {RULES['backtrack']}")
        best = nxt
    _, hops = min(best.values(), key=lambda c: (c[0], [gmap.preference(l) + (d,) for l, d in c[1]]))
    journey = Journey(tuple(stations), _rides(gmap, stations, hops))
    return Verdict(True, journey, None, None, "a valid journey")


def journey_of(gmap: Board, stations: Sequence[str], hops: Sequence[Hop]) -> Journey:
    """A journey from stops and the (line, direction) of every hop (for solvers)."""
    return Journey(tuple(stations), _rides(gmap, stations, hops))
