"""One driver for every game's ``tubedeck play`` and ``tubedeck simulate``.

A game says only what is particular to it, in one :class:`Playing` (``solver/<id>/simulate.py``):
its bots, how a game starts, its record :class:`~tubedeck.records.Schema` and how a played game
becomes a record, its final position in words, and (optionally) figures of its own folded beside
the shared ones. Everything else is here and the same for all five games:

* :func:`parse_bots`: ``"lookahead,greedy"`` -> one bot per seat (the list repeats to fill the table);
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

import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tubedeck.errors import UsageError
from tubedeck.game import BEST, Game, budgeted, resolve
from tubedeck.play import CHANCE, Bot, Played, play_game
from tubedeck.records import Fold, Schema, spread  # noqa: F401 (spread: the games' extra figures)
from tubedeck.solver.mcts import is_spec as is_search
from tubedeck.solver.mcts import parse_spec as parse_search
from tubedeck.words import names_list, plural

MAX_BOTS_TEXT = 1000


@dataclass(frozen=True)
class Playing:
    """What one game adds to the driver. Its declaration (``game``, :class:`tubedeck.game.Game`)
    starts each game (:meth:`~tubedeck.game.Game.new_game`, with the options of ``variant`` it
    takes) and makes its bots (:meth:`~tubedeck.game.Game.bot`); the rest is here:

    * ``measure(played, edition, **variant) -> dict``: a played game's record (the runner adds
      ``seed``); it must pass ``record.validate`` (a property test per game holds it);
    * ``edition(data, options) -> Edition``: the cached edition for a worker process;
    * ``facts(edition) -> dict``: what the results header says of the edition (by content);
    * ``position(state) -> (dict, [lines])``: the final position, for ``--json`` and for people;
    * ``tag(edition, options, variant) -> str``: what tells this run's default results file apart;
    * ``extra(edition, variant) -> fold`` (optional): the game's own figures, an object with
      ``add(record)``, ``as_dict()``, ``describe()`` and ``failures()``;
    * ``action_json(state, action)``: an action for ``--json`` (default: lists and strings; Next
      Station puts the sheet coordinate beside each station id).
    """

    game: Game
    record: Schema
    measure: Callable[..., dict]
    edition: Callable[[str | None, dict], Any]
    position: Callable[[Any], tuple[dict, list[str]]]
    facts: Callable[[Any], dict] = field(default=lambda edition: {})
    tag: Callable[[Any, dict, dict], str] = field(default=lambda edition, options, variant: "")
    extra: Callable[[Any, dict], Any] | None = None
    action_json: Callable[[Any, Any], Any] = field(default=lambda state, action: jsonable(action))
    variant: tuple[str, ...] = ()  # the command's options that shape a game (not the edition's)

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def bots(self) -> Mapping[str, Any]:
        """The game's bots by name (the first is the default), the search bot included."""
        return self.game.bots

    def start(self, edition: Any, players: int, seed: int, **variant: Any) -> Any:
        """The game's first state (the engine takes the options of ``variant`` it declares)."""
        return self.game.new_game(edition, players, seed, **{k: v for k, v in variant.items() if k in self.game.variant})


MAX_SEATS = 64  # no game seats more; parse_bots refuses more before it makes a seat list


def parse_bots(text: str, players: int, known: Mapping[str, Any],
               aliases: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """``"lookahead,greedy"`` -> one bot per seat (the list repeats to fill the table); an old name
    in ``aliases`` becomes the name the game lists."""
    text = str(text)
    if len(text) > MAX_BOTS_TEXT:
        raise UsageError(f"--bots: over {MAX_BOTS_TEXT} characters")
    if not text.strip():  # "--bots ''" named no bot: never a default played without a word
        raise UsageError(f"--bots: no bot named (one name per seat: {', '.join(k for k in known if k != 'mcts')}, "
                         f"mcts[:ITERATIONS]{_best(aliases)})")
    names = names_list(text, "--bots")
    names = tuple((aliases or {}).get(n, n) for n in names if n)
    for n in names:
        if n not in known and is_search(n):
            parse_search(n)  # a bad budget (mcts:abc, mcts:-1) is a UsageError that says why
        elif n not in known and budgeted(known.get(n.partition(":")[0])):
            known[n.partition(":")[0]](n)  # a bot of the game that takes a budget refuses a bad one (planner:x)
    unknown = [n for n in names if n not in known and not is_search(n)
               and not budgeted(known.get(n.partition(":")[0]))]
    if not names or unknown:
        raise UsageError(f"--bots: unknown bot {unknown[0] if unknown else text!r} "
                         f"(known: {', '.join(k for k in known if k != 'mcts')}, mcts[:ITERATIONS]{_best(aliases)})")
    if not 1 <= players <= MAX_SEATS:  # (checked before a seat is made: the game's own range comes later)
        raise UsageError(f"--players must be 1-{MAX_SEATS} for any game, got {players}")
    if len(names) > players:  # a bot with no seat would be dropped without a word
        raise UsageError(f"--bots names {len(names)} bots for {plural(players, 'player')}: one per seat at most")
    return tuple(names[i % len(names)] for i in range(players))


def _best(aliases: Mapping[str, str] | None) -> str:
    return f", {BEST}" if BEST in (aliases or {}) else ""


def chosen_bots(game: Game, text: str, players: int) -> tuple[str, ...]:
    """:func:`parse_bots` with the game's other names (``best``, old names); where ``best`` was
    named, one line on stderr says which bot it is (the ladder's strongest, docs/play.md)."""
    chosen = parse_bots(text, players, game.bots, game.bot_aliases)
    if BEST in names_list(str(text), "--bots") and game.best:
        print(f"best: {game.best} ({game.title}'s strongest bot by the ladder, docs/play.md)", file=sys.stderr)
    return chosen


def bots_label(bots: tuple[str, ...]) -> str:
    """``greedy x4`` for a table of one bot, else the list: short enough for an 80-column line."""
    return f"{bots[0]} x{len(bots)}" if len(set(bots)) == 1 else ", ".join(bots)


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
    return play_game(start, [bot_for(rules, b) for b in bots], seed, words=words)


def bot_for(rules: Playing, name: str) -> Bot:
    """The game's bot ``name``, or the search bot (``mcts[:ITERATIONS]``, :mod:`tubedeck.solver.mcts`)."""
    return rules.game.bot(name)


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
        return {"game": self.rules.game.id, "seed": self.seed, "players": self.played.state.players,
                "bots": list(self.bots), **self.record,
                "log": [{"clock": m.clock, "seat": None if m.seat == CHANCE else m.seat + 1,
                         "action": self.rules.action_json(self.played.state, m.action), "words": m.words}
                        for m in self.played.moves],
                "position": position}

    def describe(self) -> list[str]:
        s = self.played.state
        out = [f"{self.rules.title}, seed {self.seed}, {plural(s.players, 'player')} ({', '.join(self.bots)})"]
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


def play_command(game: Game) -> Callable[..., GameReport]:
    """The registry's ``play GAME`` for the game's :class:`Playing` (its declared driver)."""

    def play_one(edition: Any, players: int, seed: int = 0, bots: str | None = None, **variant: Any) -> GameReport:
        rules: Playing = game.playing()
        if seed < 0:
            raise UsageError(f"--seed must be >= 0, got {seed}")
        chosen = chosen_bots(rules.game, next(iter(rules.bots)) if bots is None else bots, players)
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
        name = f"{rules.game.id}-sim{'-' + tag if tag else ''}-{'-'.join(self.bots)}-p{self.players}"
        return name.replace("/", "_")

    @property
    def label(self) -> str:
        return f"{self.rules.game.id} games"

    def summary(self) -> "SimSummary":
        rules = self.rules
        extra = rules.extra(self.edition(), dict(self.variant)) if rules.extra else None
        return SimSummary(rules.record, rules.title, self.players, self.bots, extra)

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        return self.rules.record.validate(record, self.players)


def simulate_command(game: Game) -> Callable[..., Simulation]:
    """The registry's ``simulate GAME`` for the game's :class:`Playing` (its declared driver)."""
    target = game.driver
    assert target is not None, f"{game.id} declares no driver"

    def simulation(edition: Any, players: int, time_limit: float = 10.0, data: str | None = None,
                   bots: str | None = None, **options: Any) -> Simulation:
        rules: Playing = resolve(target)
        rules.start(edition, players, 0, **{k: v for k, v in options.items() if k in rules.variant})  # bad counts
        chosen = chosen_bots(rules.game, next(iter(rules.bots)) if bots is None else bots, players)
        variant = {k: v for k, v in options.items() if k in rules.variant}
        own = {k: v for k, v in options.items() if k not in rules.variant and v is not None}
        return Simulation(target, players, chosen, data, tuple(sorted(own.items())), tuple(sorted(variant.items())))

    return simulation


# -- the summary ----------------------------------------------------------------------------------
@dataclass
class SimSummary:
    """A simulation's figures: the records folded by their declared kinds (:class:`Fold`), plus
    the game's own (``extra``)."""

    schema: Schema
    title: str
    players: int
    bots: tuple[str, ...]
    extra: Any = None
    fold: Fold = field(init=False)

    def __post_init__(self) -> None:
        self.fold = Fold(self.schema, self.players)

    @property
    def games(self) -> int:
        return self.fold.records

    def add(self, record: dict) -> None:
        self.fold.add(record)
        if self.extra is not None:
            self.extra.add(record)

    def failures(self) -> str | None:
        why = [f"{plural(self.fold.no_winner, 'game')} without a winner"] if self.fold.no_winner else []
        if self.extra is not None and self.extra.failures():
            why.append(self.extra.failures())
        return "; ".join(why) or None

    def as_dict(self) -> dict:
        d = {"games": self.games, "players": self.players, "bots": list(self.bots), **self.fold.figures()}
        if "wins_by_seat" in d:
            by_bot: Counter = Counter()
            for seat, w in self.fold.wins.items():
                by_bot[self.bots[seat - 1]] += w
            d["wins_by_bot"] = {b: round(w, 2) for b, w in by_bot.items()}
        if self.extra is not None:
            d.update(self.extra.as_dict())
        return d

    def describe(self) -> list[str]:
        return summary_lines(self.title, self.fold, self.bots) + (self.extra.describe() if self.extra is not None else [])


def summary_lines(title: str, fold: Fold, bots: tuple[str, ...]) -> list[str]:
    """A simulation's figures in words, by the declared kinds."""
    d, players = fold.figures(), fold.players
    head = f"{title}: {plural(fold.records, 'game')}, {plural(players, 'player')} ({bots_label(bots)})"
    if fold.schema.of("winner", "winners") and players > 1:
        head += f", {fold.no_winner} without a winner"
    out = [head]
    for m in d.get("measures", {}).values():
        out.append(f"  {m['label']}: median {m['median']} (10-90%: {m['p10']}-{m['p90']})")
    for seat, s in d.get("scores_by_seat", {}).items():
        lo, hi = s["mean_interval95"]
        out.append(f"  seat {seat} ({bots[int(seat) - 1]}) {s['label']}: mean {s['mean']} (95% interval {lo}-{hi})")
        out.append(f"    median {s['median']} (10-90%: {s['p10']}-{s['p90']}, range {s['min']}-{s['max']})")
    if players > 1:
        for seat, w in d.get("wins_by_seat", {}).items():
            out.append(f"  seat {seat} ({bots[int(seat) - 1]}): {_wins(w['count'])} ({_pct(w)})")
        for k, w in d.get("wins_by_place", {}).items():
            out.append(f"  {_ORDINAL.get(k, k + 'th')} in turn order: {_wins(w['count'])} ({_pct(w)})")
    for f in d.get("flags", {}).values():
        out.append(f"  {f['label']}: {100 * f['share']:.1f}% of games")
    for t in d.get("tallies", {}).values():
        out += wrapped(f"  {t['label']} per game: ", [f"{k} {v}" for k, v in t["per_record"].items()])
    return out


_ORDINAL = {"1": "1st", "2": "2nd", "3": "3rd"}


def _num(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.1f}"


def _wins(x: float) -> str:
    return f"{_num(x)} {'win' if x == 1 else 'wins'}"


def _pct(w: dict) -> str:
    lo, hi = w["interval95"]
    return f"{100 * w['share']:.1f}%, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%"


def wrapped(head: str, items: list[str], width: int = 78) -> list[str]:
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
