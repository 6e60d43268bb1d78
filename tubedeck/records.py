"""Declared result records: what each field of a check or simulate record means.

Every ``check`` and ``simulate`` writes JSON Lines records (:mod:`tubedeck.solver.runner`); each game
declares their shape once, as a :class:`Schema` of :class:`Field` s, and everything that reads
them (resume validation, summaries, ``tubedeck report``) goes by the declaration, never by
guessing from field names. One meaning per word across games:

* **turn**: one player's turn (in Tube Dice a turn is one roll of the dice, which every player
  uses, so its records count ``rolls``); **round**: every seat has had one turn (Next Station:
  one pencil's line, 4 a game);
* **seat**: a player's chair, 1-based in records, fixed for the game; **place**: the place in
  turn order (1 = who started), which differs from the seat where a roll picks the starter.

Kinds, and what the report makes of them:

``winner``   a seat or null (no winner): wins by seat with 95% intervals
``winners``  a list of seats (a shared win splits one game among them)
``place``    the winner's place in turn order, or null: wins by place
``scores``   one whole number per seat: median, 10-90% and mean with its interval
``measure``  a whole number (``unit`` says of what): median and 10-90%, a distribution plot
``flag``     true/false: the share true, with its interval
``status``   a solver status (``choices``): the share each, the undecided share
``tally``    ``{name: count}`` per record: the mean count per record for each name
``seat``     a seat that is an identity, not an outcome (who started): counted, never a measure
``detail``   anything else (ids, paths, per-round lists): validated by the game's ``rule``

Field names may reach into nested objects for reading: ``first.turn``, ``players[].turn``.
A schema's ``version`` goes into every results file's header: a file of another version is
refused with a message to re-run, never misread.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .stats import quantile, wilson

KINDS = ("winner", "winners", "place", "scores", "measure", "flag", "status", "tally", "seat", "detail")
CPSAT_STATUSES = ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN", "MODEL_INVALID")
UNDECIDED = ("UNKNOWN", "FEASIBLE")
MAX_NAMES = 256  # names in one tally


def is_whole(value: Any, lo: int = 0, hi: int | None = None) -> bool:
    """A whole number (not a bool) in ``lo..hi``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= lo and (hi is None or value <= hi)


@dataclass(frozen=True)
class Field:
    """One field of a record. ``hi`` bounds every whole number the field holds (a measure, each
    score, each tally count); seats are bounded by the run's player count."""

    name: str
    kind: str
    label: str  # words for people: "turns played, the winning turn included"
    unit: str = ""  # of a measure or score: "turns", "points"
    lo: int = 0
    hi: int | None = None
    null: bool = False  # may be null (no winner; a measure that does not apply)
    choices: tuple[str, ...] = ()  # a status's values

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")

    @property
    def nested(self) -> bool:
        return "." in self.name or "[]" in self.name

    def values(self, record: dict) -> Iterator[Any]:
        """The value(s) the field names in ``record`` (several for ``players[].x``; none if absent)."""
        yield from _walk(record, self.name.replace("[]", ".[]").split("."))

    def check(self, value: Any, players: int) -> str | None:
        """What is wrong with ``value`` for this field (None: fine)."""
        if value is None:
            return None if self.null else "missing"
        k = self.kind
        if k in ("winner", "place", "seat"):
            return None if is_whole(value, 1, players) else f"a seat 1-{players}"
        if k == "winners":
            if not (isinstance(value, list) and 1 <= len(value) <= players
                    and all(is_whole(v, 1, players) for v in value) and len(set(value)) == len(value)):
                return f"a list of distinct seats 1-{players}"
            return None
        if k == "scores":
            if not (isinstance(value, list) and len(value) == players and all(is_whole(v, self.lo, self.hi) for v in value)):
                return f"{players} whole number(s) {self._range()}"
            return None
        if k == "measure":
            return None if is_whole(value, self.lo, self.hi) else f"a whole number {self._range()}"
        if k == "flag":
            return None if isinstance(value, bool) else "true or false"
        if k == "status":
            return None if value in self.choices else f"one of {', '.join(self.choices)}"
        if k == "tally":
            if not (isinstance(value, dict) and len(value) <= MAX_NAMES
                    and all(isinstance(n, str) and is_whole(c, 0, self.hi) for n, c in value.items())):
                return f"names with whole counts {self._range()}"
            return None
        return None  # detail: the game's rule checks it

    def _range(self) -> str:
        return f"{self.lo}-{self.hi}" if self.hi is not None else f">= {self.lo}"


def _walk(obj: Any, parts: list[str]) -> Iterator[Any]:
    if not parts:
        yield obj
        return
    head, rest = parts[0], parts[1:]
    if head == "[]":
        if isinstance(obj, list):
            for item in obj:
                yield from _walk(item, rest)
        return
    if isinstance(obj, dict) and head in obj:
        yield from _walk(obj[head], rest)


Rule = Callable[[dict, int], "str | None"]  # (record, players) -> what is wrong, or None


@dataclass(frozen=True)
class Schema:
    """A record's declaration: the game and mode it belongs to (as its results header says), a
    version, the fields, and a rule for what ties fields together (exchanges within turns)."""

    game: str
    mode: str  # "simulate", "check", "par", "par-game"
    version: int
    what: str  # what one record is: "one game played by bots"
    fields: tuple[Field, ...]
    rule: Rule | None = field(default=None, compare=False)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def of(self, *kinds: str) -> list[Field]:
        return [f for f in self.fields if f.kind in kinds]

    def validate(self, record: dict, players: int) -> str | None:
        """What is impossible in ``record`` (an edited or foreign line), or None. Every count it
        holds is bounded by the declaration, so a reader never allocates by a number it read."""
        if not isinstance(record, dict):
            return "not a JSON object"
        known = {"seed"} | {f.name.split(".")[0].split("[")[0] for f in self.fields}
        unknown = sorted(k for k in record if k not in known)
        if unknown:  # an edited line, or another version's: never kept without a word
            return f"unknown field {unknown[0]!r} (a {self.game} {self.mode} record has {', '.join(sorted(known))})"
        for f in self.fields:
            if f.nested:
                for v in f.values(record):
                    why = f.check(v, players)
                    if why:
                        return f"'{f.name}' must be {why}"
                continue
            if f.name not in record:
                return f"'{f.name}' missing"
            why = f.check(record[f.name], players)
            if why:
                return f"'{f.name}' must be {why}"
        return self.rule(record, players) if self.rule else None

    def winners(self, record: dict) -> list[int]:
        """The seats that won ``record`` (1-based; a shared win lists several; none: empty)."""
        for f in self.of("winner", "winners"):
            v = next(iter(f.values(record)), None)
            if f.kind == "winner":
                return [v] if isinstance(v, int) else []
            return [w for w in v if isinstance(w, int)] if isinstance(v, list) else []
        return []

    def header(self, **facts: Any) -> dict:
        """A results file's header: the game, mode and record version, then the run's facts."""
        return {"game": self.game, "mode": self.mode, "version": self.version, **facts}

    def as_dict(self) -> dict:
        return {"game": self.game, "mode": self.mode, "version": self.version, "what": self.what,
                "fields": [{"name": f.name, "kind": f.kind, "label": f.label, "unit": f.unit} for f in self.fields]}


# -- folding records by their kinds ----------------------------------------------------------------
@dataclass
class Fold:
    """Records folded by their declared kinds, one at a time (memory flat: value -> count tables).
    What ``simulate`` summaries and ``tubedeck report`` both show."""

    schema: Schema
    players: int
    records: int = 0
    no_winner: int = 0
    wins: Counter[int] = field(default_factory=Counter)  # by seat (a shared win split among its seats)
    places: Counter = field(default_factory=Counter)  # by place in turn order
    scores: dict = field(default_factory=dict)  # seat -> Counter of scores
    measures: dict = field(default_factory=dict)  # field name -> Counter of values
    flags: dict = field(default_factory=dict)  # field name -> Counter of True/False
    tallies: dict = field(default_factory=dict)  # field name -> Counter of names
    statuses: dict = field(default_factory=dict)  # field name -> Counter of statuses
    seats: dict = field(default_factory=dict)  # field name -> Counter of seats (who started)

    def add(self, record: dict) -> None:
        self.records += 1
        for f in self.schema.fields:
            values = list(f.values(record))
            if not values:
                continue
            v = values[0]
            if f.kind in ("winner", "winners"):
                won = self.schema.winners(record)
                if not won:
                    self.no_winner += 1
                for w in won:
                    self.wins[w] += 1 / len(won)  # type: ignore[assignment]  # a shared win splits
            elif f.kind == "place":
                if v is not None:
                    self.places[v] += 1
            elif f.kind == "scores":
                for seat, s in enumerate(v or (), 1):
                    self.scores.setdefault(seat, Counter())[s] += 1
            elif f.kind in ("measure", "flag", "status", "seat"):
                table = {"measure": self.measures, "flag": self.flags, "status": self.statuses,
                         "seat": self.seats}[f.kind]
                counts = table.setdefault(f.name, Counter())
                for x in values:
                    if x is not None:
                        counts[x] += 1
            elif f.kind == "tally" and isinstance(v, dict):
                self.tallies.setdefault(f.name, Counter()).update(v)

    def figures(self) -> dict:
        """Every figure, structured: wins by seat and place with 95% intervals, scores per seat,
        each measure with its label and unit, flags, tallies and statuses."""
        n, s = self.records, self.schema
        out: dict = {}
        if s.of("winner", "winners"):
            out["no_winner"] = self.no_winner
            out["wins_by_seat"] = {str(k): share(self.wins.get(k, 0), n) for k in range(1, self.players + 1)}
        if s.of("place"):
            out["wins_by_place"] = {str(k): share(self.places.get(k, 0), n) for k in range(1, self.players + 1)}
        if self.scores:
            f = s.of("scores")[0]
            out["scores_by_seat"] = {str(k): {"label": f.label, "unit": f.unit, **score_figures(c)}
                                     for k, c in sorted(self.scores.items())}
        for f in s.of("measure"):
            c = self.measures.get(f.name)
            if c:
                out.setdefault("measures", {})[f.name] = {"label": f.label, "unit": f.unit, "values": sum(c.values()),
                                                          **spread(c)}
        for f in s.of("flag"):
            c = self.flags.get(f.name)
            if c:
                out.setdefault("flags", {})[f.name] = {"label": f.label, **share(c.get(True, 0), sum(c.values()))}
        for f in s.of("tally"):
            t = self.tallies.get(f.name, Counter())
            out.setdefault("tallies", {})[f.name] = {
                "label": f.label, "per_record": {k: round(v / n, 3) for k, v in sorted(t.items())} if n else {}}
        for f in s.of("status"):
            c = self.statuses.get(f.name)
            if c:
                total = sum(c.values())
                undecided = sum(c.get(u, 0) for u in UNDECIDED)
                out.setdefault("statuses", {})[f.name] = {
                    "label": f.label, "counts": {k: c.get(k, 0) for k in f.choices if c.get(k)},
                    "undecided": share(undecided, total)}
        for f in s.of("seat"):
            c = self.seats.get(f.name)
            if c:
                out.setdefault("seats", {})[f.name] = {"label": f.label,
                                                       "counts": {str(k): c.get(k, 0) for k in range(1, self.players + 1)}}
        return out


def share(k: float, n: int) -> dict:
    """``k`` of ``n`` as a share with its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return {"count": round(k, 2), "of": n, "share": round(k / n, 4) if n else 0.0,
            "interval95": [round(lo, 4), round(hi, 4)]}


def spread(counts: Counter) -> dict:
    """Median and the 10th / 90th percentiles of a value -> count table."""
    return {"p10": quantile(counts, 0.1), "median": quantile(counts, 0.5), "p90": quantile(counts, 0.9)}


def score_figures(counts: Counter) -> dict:
    """Median, 10-90%, range and the mean with its 95% interval (normal, from the sample's
    spread), from a score -> count table without listing the games."""
    n = sum(counts.values())
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return {"games": n, "mean": round(mean, 2), "mean_interval95": [round(mean - half, 2), round(mean + half, 2)],
            "median": quantile(counts, 0.5), "p10": quantile(counts, 0.1), "p90": quantile(counts, 0.9),
            "min": min(counts), "max": max(counts)}
