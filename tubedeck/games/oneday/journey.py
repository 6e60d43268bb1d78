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
  (:meth:`GameMap.reverses`). The printed rules card says so.

Each hop may be ridden on any line the two stations share; the validator searches all choices
(a small dynamic programme over (line, direction) of the last hop) and, of the valid ones,
reports the journey with the fewest rides. A failure names the first slot at which no valid
journey through the earlier slots exists, and the rule that fails there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .board import GameMap

RULES = {
    "length": "a rack holds exactly {slots} cards",
    "repeat": "never the same station twice in a row",
    "connect": "consecutive stops share a line",
    "backtrack": "no backtracking on the same line",
}


@dataclass(frozen=True)
class Ride:
    """A stretch ridden on one line in one direction: ``stops`` from boarding to alighting.

    ``direction`` is +1 along the line's run order, -1 against it; ``towards`` is the run's end
    the train heads for (how a platform sign would say it)."""

    line: str
    direction: int
    towards: str
    stops: tuple[str, ...]

    def describe(self, gmap: GameMap) -> str:
        names = [gmap.name(s) for s in self.stops]
        via = f" through {', '.join(names[1:-1])}" if len(names) > 2 else ""
        return (f"{gmap.lines[self.line].name} towards {gmap.name(self.towards)}: "
                f"{names[0]}{via} to {names[-1]}")

    def as_dict(self) -> dict:
        return {"line": self.line, "direction": self.direction, "towards": self.towards, "stops": list(self.stops)}


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


def hop_options(gmap: GameMap, a: str, b: str) -> tuple[Hop, ...]:
    """Every (line, direction) that carries a rider from ``a`` to ``b``."""
    if a == b:
        return ()
    return tuple((l, gmap.direction(l, a, b)) for l in gmap.common_lines(a, b))


def compatible(gmap: GameMap, prev: Hop | None, nxt: Hop) -> bool:
    """The backtracking rule between two consecutive hops (see the module docstring)."""
    return prev is None or not gmap.reverses(prev, nxt)


def _rides(gmap: GameMap, stations: Sequence[str], hops: Sequence[Hop]) -> tuple[Ride, ...]:
    rides: list[Ride] = []
    start = 0
    for i in range(1, len(hops) + 1):
        if i == len(hops) or hops[i] != hops[start]:
            line, d = hops[start]
            rides.append(Ride(line, d, gmap.towards(line, d), tuple(stations[start: i + 1])))
            start = i
    return tuple(rides)


def validate(gmap: GameMap, stations: Sequence[str], slots: int | None = None) -> Verdict:
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


def journey_of(gmap: GameMap, stations: Sequence[str], hops: Sequence[Hop]) -> Journey:
    """A journey from stops and the (line, direction) of every hop (for solvers)."""
    return Journey(tuple(stations), _rides(gmap, stations, hops))
