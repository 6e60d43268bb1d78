"""``tubedeck play keepmoving`` and ``tubedeck simulate keepmoving``: games played by bots.

A game is its seed, the bots' actions and the chance outcomes; chance is drawn from
``random.Random(f"{seed}:chance")`` in order and each seat's bot from its own stream, so a record
replays exactly. ``simulate`` runs many seeds through the resumable runner (solver/runner.py) and
folds the game length (turns per player), the first player's win rate with a 95% Wilson
interval, how often each function card is played and how games end.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from solver.runner import percentile
from solver.simulation import wilson
from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.games.keepmoving.play import State, new_game

from .players import PLAYERS


def parse_bots(text: str) -> tuple[str, str]:
    """``"greedy,lookahead"`` -> one bot per seat (one name serves both)."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in PLAYERS]
    if not names or unknown or len(names) > 2:
        raise UsageError(f"--bots: one or two of {', '.join(PLAYERS)}, got {text!r}")
    return (names[0], names[-1])


def sample(outcomes, rng: random.Random):
    x, acc = rng.random(), 0.0
    for o, q in outcomes:
        acc += q
        if x < acc:
            return o
    return outcomes[-1][0]


def play_game(edition: Edition, seed: int, bots: tuple[str, str]) -> tuple[State, list[tuple]]:
    """Play one game to its end; the log lists (turn, who, choice, step), who -1 for chance, and
    the step that asked (``draw``, ``fdraw``, ``roll``, ``steal``, ``play``...)."""
    state = new_game(edition, seed)
    chance = random.Random(f"{seed}:chance")
    seats = [random.Random(f"{seed}:seat{p}") for p in range(2)]
    players = [PLAYERS[b] for b in bots]
    log = []
    while not state.is_terminal():
        if state.is_chance_node():
            who, choice = -1, sample(state.chance_outcomes(), chance)
        else:
            who = state.current_player()
            choice = players[who](state, seats[who])
        log.append((state.turn, who, choice, state.pending[0][0]))
        state = state.apply(choice)
    return state, log


def function_plays(log) -> Counter:
    return Counter(c[1] for _, who, c, _ in log if who >= 0 and c[0] == "play" and not _movement(c[1])) \
        + Counter("protection" for _, who, c, _ in log if c == ("protect",))


CHANCE_WORDS = {"draw": "draws", "fdraw": "draws the function card", "roll": "rolls", "steal": "steals"}
_MOVES = {"one", "two", "three", "four", "five", "six", "even", "odd", "low", "high", "random", "draw"}


def _movement(card: str) -> bool:
    return card in _MOVES


@dataclass(frozen=True)
class GameReport:
    """``tubedeck play keepmoving``: one game, turn by turn."""

    state: State
    log: tuple
    bots: tuple[str, str]

    def as_dict(self) -> dict:
        s = self.state
        return {"seed": s.seed, "bots": list(self.bots), "first": s.first + 1,
                "winner": None if s.winner is None else s.winner + 1, "turns": s.turn, "ended": s.ended,
                "lives": list(s.lives), "log": [[t, w + 1 if w >= 0 else f"chance:{k}",
                                                 list(c) if isinstance(c, tuple) else c] for t, w, c, k in self.log]}

    def describe(self) -> list[str]:
        s = self.state
        out = [f"Keep Moving, seed {s.seed} ({' v '.join(self.bots)}); player {s.first + 1} starts"]
        for turn, who, choice, step in self.log:
            if who >= 0:
                out.append(f"  turn {turn + 1}, player {who + 1}: {' '.join(str(x) for x in choice)}")
            else:
                out.append(f"  turn {turn + 1}: {CHANCE_WORDS.get(step, step)} {choice}")
        out.append(f"winner: player {s.winner + 1} after {s.turn + 1} turns ({s.ended}); cubes {s.lives}"
                   if s.winner is not None else f"no winner after {s.turn} turns")
        return out


def play_one(edition: Edition, seed: int = 0, bots: str = "greedy") -> GameReport:
    """The registry's ``play keepmoving``."""
    if seed < 0:
        raise UsageError(f"--seed must be >= 0, got {seed}")
    chosen = parse_bots(bots)
    state, log = play_game(edition, seed, chosen)
    return GameReport(state, tuple(log), chosen)


@dataclass(frozen=True)
class Simulation:
    """A picklable :class:`~solver.runner.DealCheck` over game seeds."""

    bots: tuple[str, str]
    ground: str | None = None

    def edition(self) -> Edition:
        return cached_edition(get("keepmoving"), None, ground=self.ground)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()

        def evaluate(seed: int) -> dict:
            state, log = play_game(ed, seed, self.bots)
            return {"winner": None if state.winner is None else state.winner + 1, "first": state.first + 1,
                    "turns": state.turn, "ended": state.ended, "functions": dict(sorted(function_plays(log).items()))}

        return evaluate

    def header(self) -> dict:
        return {"game": "keepmoving", "mode": "simulate", "bots": list(self.bots),
                "ground": self.edition().composition, "version": 1}

    @property
    def results_name(self) -> str:
        return f"keepmoving-sim-{'-'.join(self.bots)}"

    @property
    def label(self) -> str:
        return "keepmoving games"

    def summary(self) -> "SimSummary":
        return SimSummary(self.bots)

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        w, f, t = record.get("winner"), record.get("first"), record.get("turns")
        if not (w is None or w in (1, 2)) or f not in (1, 2):
            return "'winner' or 'first' out of range"
        if not (isinstance(t, int) and 0 <= t <= self.edition().rules.max_turns):
            return "'turns' out of range"
        if not isinstance(record.get("functions"), dict) or not isinstance(record.get("ended"), str):
            return "'functions' or 'ended' missing"
        return None


def simulation(edition: Edition, players: int = 2, time_limit: float = 10.0, data: str | None = None,
               ground: str | None = None, bots: str = "greedy") -> Simulation:
    """The registry's ``simulate keepmoving``."""
    if players != 2:
        raise UsageError(f"--players must be 2 for Keep Moving, got {players}")
    return Simulation(parse_bots(bots), ground)


@dataclass
class SimSummary:
    bots: tuple[str, str]
    games: int = 0
    drawn: int = 0
    first_wins: int = 0
    wins: Counter = field(default_factory=Counter)  # by seat
    turns: Counter = field(default_factory=Counter)  # turns per player (rounded up)
    ended: Counter = field(default_factory=Counter)
    functions: Counter = field(default_factory=Counter)

    def add(self, record: dict) -> None:
        self.games += 1
        self.turns[(record["turns"] + 1) // 2] += 1
        self.ended[record["ended"]] += 1
        self.functions.update(record["functions"])
        if record["winner"] is None:
            self.drawn += 1
        else:
            self.wins[record["winner"]] += 1
            self.first_wins += record["winner"] == record["first"]

    def failures(self) -> str | None:
        return f"{self.drawn} game(s) without a winner" if self.drawn else None

    def as_dict(self) -> dict:
        decided = self.games - self.drawn
        lo, hi = wilson(self.first_wins, decided)
        return {"games": self.games, "bots": list(self.bots), "drawn": self.drawn,
                "turns_per_player": {"median": percentile(self.turns, 0.5), "p10": percentile(self.turns, 0.1),
                                     "p90": percentile(self.turns, 0.9)},
                "first_player_wins": {"wins": self.first_wins, "of": decided,
                                      "share": round(self.first_wins / decided, 4) if decided else None,
                                      "interval95": [round(lo, 4), round(hi, 4)]},
                "wins_by_seat": {str(s): self.wins.get(s, 0) for s in (1, 2)},
                "ended": dict(self.ended.most_common()),
                "function_plays_per_game": {k: round(v / self.games, 3) for k, v in sorted(self.functions.items())}
                if self.games else {}}

    def describe(self) -> list[str]:
        d = self.as_dict()
        t, f = d["turns_per_player"], d["first_player_wins"]
        share = "n/a" if f["share"] is None else f"{100 * f['share']:.1f}%"
        out = [f"Keep Moving: {self.games} games ({' v '.join(self.bots)}), {self.drawn} drawn",
               f"  turns per player: median {t['median']} (10-90%: {t['p10']}-{t['p90']})",
               f"  first player wins {f['wins']} of {f['of']} ({share}, 95% interval "
               f"{100 * f['interval95'][0]:.1f}-{100 * f['interval95'][1]:.1f}%)"]
        out += _wrapped("  ended: ", [f"{k} {v}" for k, v in d["ended"].items()])
        out += _wrapped("  function cards played per game: ",
                        [f"{k} {v}" for k, v in d["function_plays_per_game"].items()])
        return out


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
