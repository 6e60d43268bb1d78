"""``tubedeck play klm`` and ``tubedeck simulate klm``: Keep London Moving played by bots.

A game is its seed and the bots' actions (players are deterministic), so a results record
replays exactly. ``simulate`` runs many seeds through the resumable runner and folds game
length (turns and rounds), wins by seat (95% Wilson interval) and by bot, how often a Fortune
Card was played in the winner's last three turns, how often Fast Gameplay was reached, and how
many players used Unlucky Hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from solver.simulation import Tally, bots_label, check_game, parse_bots as shared_parse_bots
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.klm.edition import Edition
from tubedeck.games.klm.play import State, new_game

from .players import PLAYERS

MAX_TURNS = 1500  # a game not won in 1,500 turns is recorded as drawn


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    return shared_parse_bots(text, players, PLAYERS)


def play_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...],
              max_turns: int = MAX_TURNS) -> tuple[State, list[tuple]]:
    """Play one game to its end; the log lists (turn, seat, action) of every decision."""
    state, log = new_game(edition, players, seed, max_turns), []
    while not state.is_terminal():
        action = PLAYERS[bots[state.to_move]](state)
        log.append((state.turn, state.to_move, action))
        state = state.apply(action)
    return state, log


def fortune_decided(state: State, last: int = 3) -> bool:
    """Whether the winner played a Fortune Card in their last ``last`` own turns."""
    if state.winner is None:
        return False
    w, n = state.winner, state.players
    turns = [g for g in range(state.turn, -1, -1) if (state.starter + g) % n == w][:last]
    return any(seat == w and g in turns for g, seat, _ in state.fortune_plays)


def record(state: State) -> dict:
    return {"winner": None if state.winner is None else state.winner + 1, "turns": state.turn + 1,
            "rounds": state.turn // state.players + 1, "starter": state.starter + 1,
            "order": None if state.winner is None else (state.winner - state.starter) % state.players + 1,
            "fortune_last3": fortune_decided(state), "fast": state.fast_from is not None,
            "fortunes": len(state.fortune_plays), "unlucky": sum(state.unlucky)}


def _say(state: State, action: tuple) -> str:
    t, kind = state.table, action[0]
    if kind == "connect":
        return f"connects {t.names[action[1]]} - {t.names[action[2]]}"
    if kind == "fortune":
        target = ", ".join(t.names.get(x, f"player {x + 1}" if isinstance(x, int) else str(x)) for x in action[2:])
        return f"plays {t.fortune[action[1]].name}" + (f" ({target})" if target else "")
    if kind == "discard":
        return f"discards {t.names.get(action[1]) or t.fortune[action[1]].name}"
    if kind == "take":
        return f"takes {t.names[action[2]]} from player {action[1] + 1}"
    if kind == "unlucky":
        return "uses Unlucky Hand" if action[1] else ""
    return ""


@dataclass(frozen=True)
class GameReport:
    """``tubedeck play klm``: one game, turn by turn."""

    state: State
    log: tuple
    bots: tuple[str, ...]

    def as_dict(self) -> dict:
        s = self.state
        return {**record(s), "seed": s.seed, "players": s.players, "bots": list(self.bots),
                "log": [[g, seat + 1, list(a)] for g, seat, a in self.log],
                "fields": [sorted(f.cards) for f in s.fields]}

    def describe(self) -> list[str]:
        s = self.state
        out = [f"Keep London Moving, seed {s.seed}, {s.players} players ({', '.join(self.bots)}); "
               f"player {s.starter + 1} starts"]
        for g, seat, action in self.log:
            said = _say(s, action)
            if said:
                when = "before the first turn" if action[0] == "unlucky" else f"turn {g + 1}"
                out.append(f"  {when}, player {seat + 1}: {said}")
        if s.winner is not None:
            path = s.fields[s.winner].path(s.table.rules.path, s.disabled(s.winner))
            out.append(f"winner: player {s.winner + 1} on turn {s.turn + 1}: "
                       + " - ".join(s.table.names[c] for c in path))
        else:
            out.append(f"no winner after {s.turn + 1} turns")
        return out


def play_one(edition: Edition, players: int = 4, seed: int = 0, bots: str = "greedy") -> GameReport:
    """The registry's ``play klm``."""
    chosen = parse_bots(bots, players)
    state, log = play_game(edition, players, seed, chosen)
    return GameReport(state, tuple(log), chosen)


@dataclass(frozen=True)
class Simulation:
    """A picklable :class:`~solver.runner.DealCheck` over game seeds."""

    players: int
    bots: tuple[str, ...]
    scope: str | None = None
    data: str | None = None

    def edition(self) -> Edition:
        return cached_edition(get("klm"), self.data, scope=self.scope)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()

        def evaluate(seed: int) -> dict:
            return record(play_game(ed, self.players, seed, self.bots)[0])

        return evaluate

    def header(self) -> dict:
        ed = self.edition()
        return {"game": "klm", "mode": "simulate", "scope": ed.scope.label, "players": self.players,
                "bots": list(self.bots), "max_turns": MAX_TURNS, "stations": len(ed.deck), "version": 1}

    @property
    def results_name(self) -> str:
        return f"klm-sim-{self.edition().scope.slug}-{'-'.join(self.bots)}-p{self.players}"

    @property
    def label(self) -> str:
        return "klm games"

    def summary(self) -> "SimSummary":
        return SimSummary(self.players, self.bots)

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        why = check_game(record, self.players, MAX_TURNS, first=1)
        if why:
            return why
        if not (isinstance(record.get("rounds"), int) and isinstance(record.get("fast"), bool)
                and isinstance(record.get("fortune_last3"), bool)):
            return "missing 'rounds', 'fast' or 'fortune_last3'"
        return None


def simulation(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               scope: str | None = None, bots: str = "greedy") -> Simulation:
    """The registry's ``simulate klm``."""
    edition.deal(players, 0)  # UsageError on a bad player count
    return Simulation(players, parse_bots(bots, players), scope, data)


@dataclass
class SimSummary(Tally):
    fortune_last3: int = 0
    fast: int = 0
    unlucky: Counter = field(default_factory=Counter)

    def add(self, record: dict) -> None:
        super().add(record)
        self.fortune_last3 += record["fortune_last3"]
        self.fast += record["fast"]
        self.unlucky[record.get("unlucky", 0)] += 1

    def failures(self) -> str | None:
        return f"{self.drawn} game(s) without a winner" if self.drawn else None

    def as_dict(self) -> dict:
        won = self.games - self.drawn
        return {**super().as_dict(), "fortune_in_winners_last3": self.fortune_last3,
                "fortune_in_winners_last3_share": round(self.fortune_last3 / won, 4) if won else 0,
                "fast_gameplay": self.fast, "fast_gameplay_share": round(self.fast / self.games, 4) if self.games else 0}

    def describe(self) -> list[str]:
        d = self.as_dict()
        r, t = d["rounds"], d["turns"]
        return [f"Keep London Moving: {self.games} games, {self.players} players ({bots_label(self.bots)}), "
                f"{self.drawn} drawn",
                f"  length: median {t['median']} turns (10-90%: {t['p10']}-{t['p90']}), "
                f"{r['median']} rounds ({r['p10']}-{r['p90']})",
                f"  a Fortune Card in the winner's last 3 turns: {100 * d['fortune_in_winners_last3_share']:.1f}%",
                f"  Fast Gameplay reached: {100 * d['fast_gameplay_share']:.1f}% of games"] + self.seat_lines(d)
