"""``tubedeck play oneday`` and ``tubedeck simulate oneday``: games played by bots to the end.

A game is its seed and the bots' actions (players are deterministic), so a results record
replays exactly. ``simulate`` runs many seeds through the same resumable runner as the checks and
folds game length, wins by seat (with a 95% Wilson interval) and wins by bot.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from solver.simulation import Tally, bots_label, check_game, parse_bots as shared_parse_bots, spread
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.oneday.edition import Edition
from tubedeck.games.oneday.play import State, new_game

from .players import PLAYERS

MAX_TURNS = 600  # a game not won in 600 turns (150 rounds of 4) is recorded as drawn


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``"strong,greedy"`` -> one bot per seat (the list repeats to fill the table)."""
    return shared_parse_bots(text, players, PLAYERS)


def play_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...],
              max_turns: int = MAX_TURNS) -> tuple[State, list[tuple]]:
    """Play one game to its end; the log lists (turn, seat, action) of every decision."""
    state, log = new_game(edition, players, seed, max_turns), []
    while not state.is_terminal():
        action = PLAYERS[bots[state.to_move]](state, edition)
        log.append((state.turn, state.to_move, action))
        state = state.apply(action, edition)
    return state, log


@dataclass(frozen=True)
class GameReport:
    """``tubedeck play oneday``: one game, turn by turn."""

    edition: Edition
    state: State
    log: tuple
    bots: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"seed": self.state.seed, "players": self.state.players, "bots": list(self.bots),
                "winner": None if self.state.winner is None else self.state.winner + 1, "turns": self.state.turn,
                "log": [[t, s + 1, list(a)] for t, s, a in self.log],
                "racks": [[c.id for c in r] for r in self.state.racks]}

    def describe(self) -> list[str]:
        s, gmap = self.state, self.edition.board
        out = [f"One Day in London, seed {s.seed}, {s.players} players ({', '.join(self.bots)})"]
        for turn, seat, (kind, arg) in self.log:
            if kind != "place":
                out.append(f"  turn {turn + 1}, player {seat + 1}: {kind} {'' if arg is None else arg}".rstrip())
        for p, rack in enumerate(s.racks):
            out.append(f"player {p + 1}: " + ", ".join(gmap.name(c.station) for c in rack))
        out.append(f"winner: player {s.winner + 1} after {s.turn + 1} turns" if s.winner is not None
                   else f"no winner after {s.turn} turns")
        return out


def play_one(edition: Edition, players: int = 4, seed: int = 0, bots: str = "strong") -> GameReport:
    """The registry's ``play oneday``."""
    chosen = parse_bots(bots, players)
    state, log = play_game(edition, players, seed, chosen)
    return GameReport(edition, state, tuple(log), chosen)


@dataclass(frozen=True)
class Simulation:
    """A picklable :class:`~solver.runner.DealCheck` over game seeds."""

    players: int
    bots: tuple[str, ...]
    data: str | None = None
    recipe: str | None = None
    copy_rule: str | None = None

    def edition(self) -> Edition:
        return cached_edition(get("oneday"), self.data, recipe=self.recipe, copy_rule=self.copy_rule)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()

        def evaluate(seed: int) -> dict:
            state, log = play_game(ed, self.players, seed, self.bots)
            made = None if state.winner is None else sum(seat == state.winner and a[0] == "exchange"
                                                         for _, seat, a in log)
            return {"winner": None if state.winner is None else state.winner + 1, "turns": state.turn,
                    "rounds": state.turn // self.players + 1, "reshuffles": state.reshuffles,
                    "exchanges": made}

        return evaluate

    def header(self) -> dict:
        return {"game": "oneday", "mode": "simulate", "players": self.players, "bots": list(self.bots),
                "max_turns": MAX_TURNS, "cards": len(self.edition().deck), "version": 2}

    @property
    def results_name(self) -> str:
        return f"oneday-sim-{'-'.join(self.bots)}-p{self.players}"

    @property
    def label(self) -> str:
        return "oneday games"

    def summary(self) -> "SimSummary":
        return SimSummary(self.players, self.bots)

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        why = check_game(record, self.players, MAX_TURNS)
        if why:
            return why
        w, t, x = record["winner"], record["turns"], record.get("exchanges")
        if (x is None) != (w is None) or not (x is None or (isinstance(x, int) and 0 <= x <= t)):
            return "'exchanges' must count the winner's exchanges"
        return None


def simulation(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               recipe: str | None = None, copy_rule: str | None = None, bots: str = "strong") -> Simulation:
    """The registry's ``simulate oneday``."""
    edition.deal(players, 0)  # UsageError on a bad player count
    return Simulation(players, parse_bots(bots, players), data, None if recipe is None else str(recipe), copy_rule)


@dataclass
class SimSummary(Tally):
    exchanges: Counter = field(default_factory=Counter)  # exchanges the winner made

    def add(self, record: dict) -> None:
        super().add(record)
        if record.get("exchanges") is not None:
            self.exchanges[record["exchanges"]] += 1

    def failures(self) -> str | None:
        return f"{self.drawn} game(s) without a winner" if self.drawn else None

    def as_dict(self) -> dict:
        return {**super().as_dict(), "winner_exchanges": spread(self.exchanges) if self.exchanges else None}

    def describe(self) -> list[str]:
        d = self.as_dict()
        t, x = d["turns"], d["winner_exchanges"]
        out = [f"One Day in London: {self.games} games, {self.players} players ({bots_label(self.bots)}), "
               f"{self.drawn} drawn",
               f"  length: median {t['median']} turns (10-90%: {t['p10']}-{t['p90']})"]
        if x:
            out.append(f"  exchanges the winner made: median {x['median']} (10-90%: {x['p10']}-{x['p90']})")
        return out + self.seat_lines(d)
