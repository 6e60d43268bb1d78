"""One driver for every game's ``tubedeck play`` and ``tubedeck simulate``.

A game says only what is particular to it, in one :class:`Playing` (``solver/<id>/simulate.py``):
its bots, how a game starts, its record :class:`~tubedeck.records.Schema` and how a played game
becomes a record, its final position in words, and (optionally) figures of its own folded beside
the shared ones. Everything else is here and the same for all five games:

* :func:`parse_bots`: ``"strong,greedy"`` -> one bot per seat (the list repeats to fill the table);
* :class:`GameReport`: ``play GAME``: every move in the game's words (``describe``), under the
  game's clock (``turn 3``), then the final position and the record;
* :class:`Simulation`: ``simulate GAME``: a picklable :class:`~solver.runner.DealCheck` over game
  seeds (resumable results file, workers, shards), its records validated by the declaration;
* :class:`SimSummary`: the figures folded from streamed records by the declared kinds: wins by
  seat and by place in turn order with 95% Wilson intervals, scores, every measure with its label
  and unit, flags, tallies.

The toolkit imports only the core; a game's :class:`Playing` is named by a ``"module:attribute"``
string and resolved when used (so a Simulation pickles to a worker as a few strings).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tubedeck.errors import UsageError
from tubedeck.game import resolve
from tubedeck.play import CHANCE, Bot, Played, play_game
from tubedeck.records import Schema
from tubedeck.stats import percentile, quantile, wilson

MAX_BOTS_TEXT = 1000


@dataclass(frozen=True)
class Playing:
    """What one game adds to the driver.

    * ``start(edition, players, seed, **variant) -> State``: the game's ``new_game``;
    * ``measure(played, edition, **variant) -> dict``: a played game's record (the runner adds
      ``seed``); it must pass ``record.validate`` (a property test per game holds it);
    * ``edition(data, options) -> Edition``: the cached edition for a worker process;
    * ``facts(edition) -> dict``: what the results header says of the edition (by content);
    * ``position(state) -> (dict, [lines])``: the final position, for ``--json`` and for people;
    * ``tag(edition, options, variant) -> str``: what tells this run's default results file apart;
    * ``extra(edition, variant) -> fold`` (optional): the game's own figures, an object with
      ``add(record)``, ``as_dict()``, ``describe()`` and ``failures()``.
    """

    game: str
    title: str
    bots: Mapping[str, Bot]
    record: Schema
    start: Callable[..., Any]
    measure: Callable[..., dict]
    edition: Callable[[str | None, dict], Any]
    position: Callable[[Any], tuple[dict, list[str]]]
    facts: Callable[[Any], dict] = field(default=lambda edition: {})
    tag: Callable[[Any, dict, dict], str] = field(default=lambda edition, options, variant: "")
    extra: Callable[[Any, dict], Any] | None = None
    variant: tuple[str, ...] = ()  # the command's options that shape a game (not the edition's)


def parse_bots(text: str, players: int, known: Mapping[str, Any]) -> tuple[str, ...]:
    """``"strong,greedy"`` -> one bot per seat (the list repeats to fill the table)."""
    text = str(text)
    if len(text) > MAX_BOTS_TEXT:
        raise UsageError(f"--bots: over {MAX_BOTS_TEXT} characters")
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in known]
    if not names or unknown:
        raise UsageError(f"--bots: unknown bot {unknown[0] if unknown else text!r} (known: {', '.join(known)})")
    if players >= 1 and len(names) > players:  # a bot with no seat would be dropped without a word
        raise UsageError(f"--bots names {len(names)} bots for {players} player(s): one per seat at most")
    return tuple(names[i % len(names)] for i in range(players))


def bots_label(bots: tuple[str, ...]) -> str:
    """``greedy x4`` for a table of one bot, else the list: short enough for an 80-column line."""
    return f"{bots[0]} x{len(bots)}" if len(set(bots)) == 1 else ", ".join(bots)


def spread(counts: Counter) -> dict:
    """Median and the 10th / 90th percentiles of a value -> count table."""
    return {"p10": quantile(counts, 0.1), "median": quantile(counts, 0.5), "p90": quantile(counts, 0.9)}


def jsonable(action: Any) -> Any:
    """An action as JSON: tuples become lists, anything not a number or string its ``str``."""
    if isinstance(action, (tuple, list)):
        return [jsonable(a) for a in action]
    if action is None or isinstance(action, (bool, int, float, str)):
        return action
    return str(getattr(action, "id", action))


def play(rules: Playing, edition: Any, players: int, seed: int, bots: tuple[str, ...], words: bool = False,
         **variant: Any) -> Played:
    """One game of ``rules`` by the named bots."""
    start = rules.start(edition, players, seed, **variant)
    return play_game(start, [rules.bots[b] for b in bots], seed, words=words)


# -- play GAME ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameReport:
    """``tubedeck play GAME``: one game, move by move, in the game's words."""

    rules: Playing
    edition: Any
    played: Played
    seed: int
    bots: tuple[str, ...]
    variant: tuple = ()

    @property
    def record(self) -> dict:
        return self.rules.measure(self.played, self.edition, **dict(self.variant))

    def as_dict(self) -> dict:
        position, _ = self.rules.position(self.played.state)
        return {"game": self.rules.game, "seed": self.seed, "players": self.played.state.players,
                "bots": list(self.bots), **self.record,
                "log": [{"clock": m.clock, "seat": None if m.seat == CHANCE else m.seat + 1,
                         "action": jsonable(m.action), "words": m.words} for m in self.played.moves],
                "position": position}

    def describe(self) -> list[str]:
        s = self.played.state
        out = [f"{self.rules.title}, seed {self.seed}, {s.players} player(s) ({', '.join(self.bots)})"]
        clock = None
        for m in self.played.moves:
            if not m.words:
                continue
            if m.clock != clock:
                clock = m.clock
                out.append(f"{clock}:")
            out.append(f"  {m.words}" if m.seat == CHANCE else f"  player {m.seat + 1}: {m.words}")
        _, position = self.rules.position(s)
        out += ["final position:"] + [f"  {line}" for line in position]
        return out + result_lines(self.rules.record, self.record, s.players)


def result_lines(schema: Schema, record: dict, players: int) -> list[str]:
    """The outcome of one game in words: winner(s), scores, measures."""
    out = []
    for f in schema.of("scores"):
        out.append(f"{f.label}: " + ", ".join(f"player {p + 1} {v}" for p, v in enumerate(record[f.name])))
    for f in schema.of("winner"):
        w = record[f.name]
        out.append(f"winner: player {w}" if w is not None else "no winner")
    for f in schema.of("winners"):
        w = record[f.name]
        out.append(("winner: player " if len(w) == 1 else "shared win: players ") + ", ".join(map(str, w)))
    for f in schema.of("measure"):
        if not f.nested and record.get(f.name) is not None:
            out.append(f"{f.label}: {record[f.name]}")
    return out


def play_command(target: str) -> Callable[..., GameReport]:
    """The registry's ``play GAME`` for the :class:`Playing` at ``target``."""

    def play_one(edition: Any, players: int, seed: int = 0, bots: str | None = None, **variant: Any) -> GameReport:
        rules: Playing = resolve(target)
        if seed < 0:
            raise UsageError(f"--seed must be >= 0, got {seed}")
        chosen = parse_bots(bots or next(iter(rules.bots)), players, rules.bots)
        played = play(rules, edition, players, seed, chosen, words=True, **variant)
        return GameReport(rules, edition, played, seed, chosen, tuple(sorted(variant.items())))

    return play_one


# -- simulate GAME ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Simulation:
    """A picklable :class:`~solver.runner.DealCheck` over game seeds: only strings and numbers."""

    target: str  # the game's Playing, "module:attribute"
    players: int
    bots: tuple[str, ...]
    data: str | None = None
    options: tuple = ()  # edition options, sorted (name, value)
    variant: tuple = ()  # the game's own simulate options, sorted (name, value)

    @property
    def rules(self) -> Playing:
        return resolve(self.target)

    def edition(self) -> Any:
        return self.rules.edition(self.data, dict(self.options))

    def __call__(self) -> Callable[[int], dict]:
        rules, ed, variant = self.rules, self.edition(), dict(self.variant)

        def evaluate(seed: int) -> dict:
            return rules.measure(play(rules, ed, self.players, seed, self.bots, **variant), ed, **variant)

        return evaluate

    def header(self) -> dict:
        rules, ed = self.rules, self.edition()
        return rules.record.header(players=self.players, bots=list(self.bots), **dict(self.variant),
                                   **rules.facts(ed))

    @property
    def results_name(self) -> str:
        rules = self.rules
        tag = rules.tag(self.edition(), dict(self.options), dict(self.variant))
        name = f"{rules.game}-sim{'-' + tag if tag else ''}-{'-'.join(self.bots)}-p{self.players}"
        return name.replace("/", "_")

    @property
    def label(self) -> str:
        return f"{self.rules.game} games"

    def summary(self) -> "SimSummary":
        rules = self.rules
        extra = rules.extra(self.edition(), dict(self.variant)) if rules.extra else None
        return SimSummary(rules.record, rules.title, self.players, self.bots, extra)

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        return self.rules.record.validate(record, self.players)


def simulate_command(target: str) -> Callable[..., Simulation]:
    """The registry's ``simulate GAME`` for the :class:`Playing` at ``target``."""

    def simulation(edition: Any, players: int, time_limit: float = 10.0, data: str | None = None,
                   bots: str | None = None, **options: Any) -> Simulation:
        rules: Playing = resolve(target)
        rules.start(edition, players, 0, **{k: v for k, v in options.items() if k in rules.variant})  # bad counts
        chosen = parse_bots(bots or next(iter(rules.bots)), players, rules.bots)
        variant = {k: v for k, v in options.items() if k in rules.variant}
        own = {k: v for k, v in options.items() if k not in rules.variant and v is not None}
        return Simulation(target, players, chosen, data, tuple(sorted(own.items())), tuple(sorted(variant.items())))

    return simulation


# -- the summary ----------------------------------------------------------------------------------
@dataclass
class SimSummary:
    """Records folded by their declared kinds (memory flat: value -> count tables)."""

    schema: Schema
    title: str
    players: int
    bots: tuple[str, ...]
    extra: Any = None
    games: int = 0
    no_winner: int = 0
    wins: Counter = field(default_factory=Counter)  # by seat (shared wins split)
    places: Counter = field(default_factory=Counter)  # by place in turn order
    scores: dict = field(default_factory=dict)  # seat -> Counter of scores
    measures: dict = field(default_factory=dict)  # field -> Counter
    flags: Counter = field(default_factory=Counter)  # field -> true count
    tallies: dict = field(default_factory=dict)  # field -> Counter of names

    def add(self, record: dict) -> None:
        self.games += 1
        for f in self.schema.fields:
            values = list(f.values(record))
            if not values:
                continue
            v = values[0]
            if f.kind == "winner":
                if v is None:
                    self.no_winner += 1
                else:
                    self.wins[v] += 1
            elif f.kind == "winners":
                for w in v:
                    self.wins[w] += 1 / len(v)
            elif f.kind == "place" and v is not None:
                self.places[v] += 1
            elif f.kind == "scores":
                for seat, s in enumerate(v, 1):
                    self.scores.setdefault(seat, Counter())[s] += 1
            elif f.kind == "measure":
                for x in values:
                    if x is not None:
                        self.measures.setdefault(f.name, Counter())[x] += 1
            elif f.kind == "flag":
                self.flags[f.name] += bool(v)
            elif f.kind == "tally":
                self.tallies.setdefault(f.name, Counter()).update(v)
        if self.extra is not None:
            self.extra.add(record)

    def failures(self) -> str | None:
        why = [f"{self.no_winner} game(s) without a winner"] if self.no_winner else []
        if self.extra is not None and self.extra.failures():
            why.append(self.extra.failures())
        return "; ".join(why) or None

    def as_dict(self) -> dict:
        n = self.games
        out: dict = {"games": n, "players": self.players, "bots": list(self.bots), "record": self.schema.as_dict()}
        if self.schema.of("winner", "winners"):
            out["no_winner"] = self.no_winner
            out["wins_by_seat"] = {str(s): _share(self.wins.get(s, 0), n) for s in range(1, self.players + 1)}
            by_bot: Counter = Counter()
            for seat, w in self.wins.items():
                by_bot[self.bots[seat - 1]] += w
            out["wins_by_bot"] = {b: round(w, 2) for b, w in by_bot.items()}
        if self.places:
            out["wins_by_place"] = {str(k): _share(self.places.get(k, 0), n) for k in range(1, self.players + 1)}
        if self.scores:
            out["scores_by_seat"] = {str(s): score_figures(c) for s, c in sorted(self.scores.items())}
        for f in self.schema.of("measure"):
            if f.name in self.measures:
                out.setdefault("measures", {})[f.name] = {"label": f.label, "unit": f.unit,
                                                          **spread(self.measures[f.name])}
        for f in self.schema.of("flag"):
            out.setdefault("flags", {})[f.name] = {"label": f.label, **_share(self.flags[f.name], n)}
        for f in self.schema.of("tally"):
            t = self.tallies.get(f.name, Counter())
            out.setdefault("tallies", {})[f.name] = {"label": f.label,
                                                     "per_game": {k: round(v / n, 3) for k, v in sorted(t.items())} if n else {}}
        if self.extra is not None:
            out.update(self.extra.as_dict())
        return out

    def describe(self) -> list[str]:
        d = self.as_dict()
        out = [f"{self.title}: {self.games} games, {self.players} player(s) ({bots_label(self.bots)})"
               + (f", {self.no_winner} without a winner" if self.schema.of("winner") else "")]
        for name, m in d.get("measures", {}).items():
            out.append(f"  {m['label']}: median {m['median']} (10-90%: {m['p10']}-{m['p90']})")
        for seat, s in d.get("scores_by_seat", {}).items():
            out.append(f"  seat {seat} ({self.bots[int(seat) - 1]}) score: mean {s['mean']} "
                       f"(95% interval {s['mean_interval95'][0]}-{s['mean_interval95'][1]}), median {s['median']} "
                       f"(10-90%: {s['p10']}-{s['p90']})")
        if self.players > 1 or self.schema.of("winner"):
            for seat, w in d.get("wins_by_seat", {}).items():
                out.append(f"  seat {seat} ({self.bots[int(seat) - 1]}): {_num(w['wins'])} wins "
                           f"({_pct(w)})")
            for k, w in d.get("wins_by_place", {}).items():
                out.append(f"  {_ORDINAL.get(k, k + 'th')} in turn order: {_num(w['wins'])} wins ({_pct(w)})")
        for name, f in d.get("flags", {}).items():
            out.append(f"  {f['label']}: {100 * f['share']:.1f}% of games")
        for name, t in d.get("tallies", {}).items():
            out += _wrapped(f"  {t['label']} per game: ", [f"{k} {v}" for k, v in t["per_game"].items()])
        if self.extra is not None:
            out += self.extra.describe()
        return out


_ORDINAL = {"1": "1st", "2": "2nd", "3": "3rd"}


def _share(k: float, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"wins": round(k, 2), "share": round(k / n, 4) if n else 0.0, "interval95": [round(lo, 4), round(hi, 4)]}


def _num(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.1f}"


def _pct(w: dict) -> str:
    lo, hi = w["interval95"]
    return f"{100 * w['share']:.1f}%, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%"


def score_figures(counts: Counter) -> dict:
    """Median, 10-90%, range and the mean with its 95% interval (normal, from the sample's spread)."""
    values = sorted(counts.elements())
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(values))
    return {"games": len(values), "mean": round(mean, 2), "mean_interval95": [round(mean - half, 2), round(mean + half, 2)],
            "median": percentile(values, 0.5), "p10": round(percentile(values, 0.1), 2),
            "p90": round(percentile(values, 0.9), 2), "min": values[0], "max": values[-1]}


def _wrapped(head: str, items: list[str], width: int = 78) -> list[str]:
    """``head`` then the items, comma-separated, over as many lines as keep within ``width``."""
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + len(piece) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = "    "
        line += piece + " "
    lines.append(line.rstrip())
    return lines
