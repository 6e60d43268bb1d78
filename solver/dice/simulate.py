"""``tubedeck play dice`` and ``tubedeck simulate dice``: games played by bots to the end.

A game is its seed plus the bots' actions (bots are deterministic), so a record replays exactly.
``simulate`` runs many seeds through the resumable runner (:mod:`solver.runner`) and reports the
game length in rounds (a round is one roll of the dice, which every player uses: the unit in which
the game's length is set) and in turns as roller per player, the score spread,
wins by seat with a 95% Wilson interval (ties split), and each line's and zone's completion rate
and median first-completion roll (what ``python -m solver.dice.balance`` turns into points).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from solver.runner import percentile, whole
from solver.simulation import parse_bots as shared_parse_bots, wilson
from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.dice.edition import Edition
from tubedeck.games.dice.play import State, new_game

from .players import PLAYERS


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    return shared_parse_bots(str(text), players, PLAYERS)


def play_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...], check: bool = False
              ) -> tuple[State, list[tuple]]:
    """Play one game; the log lists (turn, seat, action) of every decision (rolls included)."""
    state, log = new_game(edition, players, seed), []
    while not state.is_terminal():
        if state.is_chance_node():
            action = ("roll", state.chance_outcome())
            log.append((state.turn, -1, action))
            state = state.apply(action, edition)
            continue
        action = PLAYERS[bots[state.to_move]](state, edition)
        log.append((state.turn, state.to_move, action))
        state = state.apply(action, edition, check=check)
    return state, log




def evaluate_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...]) -> dict:
    """One game as a results record: length, scores, winners, first completion roll per line/zone."""
    state = new_game(edition, players, seed)
    line_first = [None] * len(edition.lines)
    zone_first = [None] * len(edition.zones)
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(("roll", state.chance_outcome()), edition)
            continue
        turn = state.turn
        state = state.apply(PLAYERS[bots[state.to_move]](state, edition), edition, check=False)
        if state.turn != turn:  # a turn ended: note first completions
            cl, cz = state.claimed
            for i in range(len(line_first)):
                if line_first[i] is None and cl >> i & 1:
                    line_first[i] = state.turn
            for i in range(len(zone_first)):
                if zone_first[i] is None and cz >> i & 1:
                    zone_first[i] = state.turn
    scores = state.scores(edition)
    top = max(scores)
    return {"rolls": state.turn, "turns_each": -(-state.turn // players), "scores": list(scores),
            "winners": [p + 1 for p, s in enumerate(scores) if s == top],
            "lines": [len([1 for s in state.sheets if s.lines >> i & 1]) for i in range(len(line_first))],
            "line_first": line_first, "zone_first": zone_first}


@dataclass
class GameReport:
    edition: Edition
    state: State
    log: tuple
    bots: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"seed": self.state.seed, "players": self.state.players, "bots": list(self.bots),
                "rolls": self.state.turn, "scores": list(self.state.scores(self.edition)),
                "log": [[t, s + 1, list(a) if s >= 0 else [a[0], list(a[1])]] for t, s, a in self.log]}

    def describe(self) -> list[str]:
        b = self.edition.board
        out = [f"Tube Dice, seed {self.state.seed}, {self.state.players} players ({', '.join(self.bots)})"]
        for turn, seat, a in self.log:
            if seat < 0:
                out.append(f"roll {turn + 1}: {' '.join(map(str, a[1]))}")
            elif a[1] < 0:
                out.append(f"  player {seat + 1}: no use")
            else:
                out.append(f"  player {seat + 1}: {a[2]} in {b.stations[a[1]].name}, connections of {a[3]}")
        scores = self.state.scores(self.edition)
        out.append("scores: " + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(scores)))
        return out


def play_one(edition: Edition, players: int = 2, seed: int = 0, bots: str = "greedy") -> GameReport:
    """The registry's ``play dice``."""
    chosen = parse_bots(bots, players)
    state, log = play_game(edition, players, seed, chosen, check=True)
    return GameReport(edition, state, tuple(log), chosen)


@dataclass(frozen=True)
class Simulation:
    """A picklable DealCheck over game seeds (:mod:`solver.runner`)."""

    players: int
    bots: tuple[str, ...]
    data: str | None = None
    options: tuple = ()

    def edition(self) -> Edition:
        return cached_edition(get("dice"), self.data, **dict(self.options))

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()
        return lambda seed: evaluate_game(ed, self.players, seed, self.bots)

    def header(self) -> dict:
        ed = self.edition()
        return {"game": "dice", "mode": "simulate", "players": self.players, "bots": list(self.bots),
                "scope": ed.board.scope.label, "passes": ed.rules.passes,
                "extra_passes": list(ed.rules.extra_passes), "version": 2}

    @property
    def results_name(self) -> str:
        return f"dice-sim-{'-'.join(self.bots)}-p{self.players}"

    @property
    def label(self) -> str:
        return "dice games"

    def summary(self) -> "SimSummary":
        ed = self.edition()
        return SimSummary(self.players, self.bots, tuple(l.name for l in ed.board.lines),
                          tuple(f"zone {z.zone}" for z in ed.board.zones))

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        ed = self.edition()
        if not whole(record.get("rolls"), 1, ed.rules.max_turns):
            return "'rolls' out of range"
        if not whole(record.get("turns_each"), 1, ed.rules.max_turns):
            return "'turns_each' out of range"
        scores = record.get("scores")
        if not (isinstance(scores, list) and len(scores) == self.players and all(whole(s, 0) for s in scores)):
            return "'scores' malformed"
        if not all(whole(w, 1, self.players) for w in record.get("winners", [None])):
            return "'winners' out of range"
        for key, n in (("line_first", len(ed.lines)), ("zone_first", len(ed.zones)), ("lines", len(ed.lines))):
            v = record.get(key)
            if not (isinstance(v, list) and len(v) == n and all(x is None or whole(x, 0) for x in v)):
                return f"'{key}' malformed"
        return None


def simulation(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               bots: str = "greedy", **options) -> Simulation:
    """The registry's ``simulate dice``."""
    lo, hi = edition.rules.players_min, edition.rules.players_max
    if not lo <= players <= hi:
        raise UsageError(f"--players must be {lo}-{hi}, got {players}")
    return Simulation(players, parse_bots(bots, players), data,
                      tuple(sorted((k, v) for k, v in options.items() if v is not None)))


@dataclass
class SimSummary:
    players: int
    bots: tuple[str, ...]
    line_names: tuple[str, ...]
    zone_names: tuple[str, ...]
    games: int = 0
    turns_each: Counter = field(default_factory=Counter)
    rolls: Counter = field(default_factory=Counter)
    scores: Counter = field(default_factory=Counter)
    spread: Counter = field(default_factory=Counter)  # winner's score minus the lowest
    wins: Counter = field(default_factory=Counter)  # by seat, ties split
    line_done: Counter = field(default_factory=Counter)
    line_first: dict = field(default_factory=dict)
    zone_done: Counter = field(default_factory=Counter)
    zone_first: dict = field(default_factory=dict)

    def add(self, r: dict) -> None:
        self.games += 1
        self.turns_each[r["turns_each"]] += 1
        self.rolls[r["rolls"]] += 1
        for s in r["scores"]:
            self.scores[s] += 1
        self.spread[max(r["scores"]) - min(r["scores"])] += 1
        for w in r["winners"]:
            self.wins[w] += 1 / len(r["winners"])
        for i, t in enumerate(r["line_first"]):
            if t is not None:
                self.line_done[i] += 1
                self.line_first.setdefault(i, Counter())[t] += 1
        for i, t in enumerate(r["zone_first"]):
            if t is not None:
                self.zone_done[i] += 1
                self.zone_first.setdefault(i, Counter())[t] += 1

    def failures(self) -> str | None:
        never = [n for i, n in enumerate(self.line_names) if not self.line_done[i]]
        return f"never completed: {', '.join(never)}" if never and self.games else None

    def as_dict(self) -> dict:
        n = self.games or 1
        return {"games": self.games, "players": self.players, "bots": list(self.bots),
                "rounds": {"median": percentile(self.rolls, 0.5), "p10": percentile(self.rolls, 0.1),
                           "p90": percentile(self.rolls, 0.9)},
                "turns_each": {"median": percentile(self.turns_each, 0.5)},
                "score": {"median": percentile(self.scores, 0.5), "p10": percentile(self.scores, 0.1),
                          "p90": percentile(self.scores, 0.9)},
                "spread": {"median": percentile(self.spread, 0.5), "p90": percentile(self.spread, 0.9)},
                "wins_by_seat": {str(s): {"wins": round(self.wins.get(s, 0), 2),
                                          "share": round(self.wins.get(s, 0) / n, 4),
                                          "interval95": [round(x, 4) for x in wilson(self.wins.get(s, 0), self.games)]}
                                 for s in range(1, self.players + 1)},
                "lines": {name: {"completed": round(self.line_done[i] / n, 4),
                                 "first_roll_median": percentile(self.line_first.get(i, Counter()), 0.5)}
                          for i, name in enumerate(self.line_names)},
                "zones": {name: {"completed": round(self.zone_done[i] / n, 4),
                                 "first_roll_median": percentile(self.zone_first.get(i, Counter()), 0.5)}
                          for i, name in enumerate(self.zone_names)}}

    def describe(self) -> list[str]:
        d = self.as_dict()
        r, s = d["rounds"], d["score"]
        out = [f"Tube Dice: {self.games} games, {self.players} players ({', '.join(self.bots)})",
               f"  length: median {r['median']} rounds (rolls; 10-90%: {r['p10']}-{r['p90']}), "
               f"{d['turns_each']['median']} as roller each",
               f"  scores: median {s['median']} (10-90%: {s['p10']}-{s['p90']}); winner minus last: median "
               f"{d['spread']['median']}, 90% {d['spread']['p90']}"]
        for seat, w in d["wins_by_seat"].items():
            lo, hi = w["interval95"]
            out.append(f"  seat {seat}: {w['wins']} wins ({100 * w['share']:.1f}%, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%)")
        for kind in ("lines", "zones"):
            for name, v in d[kind].items():
                first = v["first_roll_median"]
                out.append(f"  {name}: completed in {100 * v['completed']:.0f}% of games"
                           + (f", first at roll {first} (median)" if first is not None else ""))
        return out
