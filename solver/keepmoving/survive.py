"""``tubedeck solve keepmoving``: the play that maximises the probability of surviving the next N
turns of your own, by exact expectimax.

The player to move, P, is at their play step (a position file, or a seeded game run by its own
chance stream to P's first play). The value of a node is the probability that P still has a life
cube when P's N-th turn from now ends (winning counts as surviving; so does a game drawn at the
turn limit): the maximum over P's decisions, the probability-weighted sum over chance (every die
face, every card a pile can give, every card a Steal can take), the minimum over an opponent's
answer with Protection. Between P's turns the opponent plays nothing: their turn is skipped
(their reminders expire), so the figure is P's own survival on the ground as it is: the
opponent's future cards are not known. Positions recur (play order rarely matters), so values
are memoised by position.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from tubedeck.errors import UsageError
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.games.keepmoving.play import State, card_name, new_game
from tubedeck.games.keepmoving.resolve import run
from tubedeck.play import CHANCE, chance_outcome

from .position import read_state, to_json

MAX_TURNS = 3  # beyond 3 own turns the tree outgrows a command's patience
# P's cubes can only go on lava P enters: one movement card a turn, and Double and Swap (blue,
# one copy each, but a reshuffle can bring them back the same turn): at most 3 entries a turn.
LOSSES_PER_TURN = 3
HARMLESS = ("draw", "fdraw", "end")
MAX_POSITIONS = 400_000  # memory stays bounded (a position's key is about 1 kB)  # steps that can cost P no cube


def skip_opponent(s: State, p: int) -> State:
    """The opponent's turn passes with nothing played: P's next turn starts."""
    t = s._copy()
    o = 1 - p
    t.locks = tuple(0 if k == o else v for k, v in enumerate(s.locks))
    t.stunned = tuple(False if k == o else v for k, v in enumerate(s.stunned))
    t.turn, t.to_move, t.pending, t.phase = s.turn + 1, p, (("start",),), "run"
    if t.turn >= s.edition.rules.max_turns:
        t.phase, t.ended = "over", "turn limit"
        return t
    run(t)
    return t


def survival(s: State, p: int, turns: int, memo: dict | None = None) -> float:
    """P's probability of being alive after ``turns`` more turns of their own (this one included).
    Exact shortcuts only: a max node stops at 1, a min node at 0, and P with more cubes than
    :data:`LOSSES_PER_TURN` x ``turns`` survives for certain."""
    memo = {} if memo is None else memo
    key = (s.key(), turns)
    if key in memo:
        return memo[key]
    if len(memo) >= MAX_POSITIONS:
        raise UsageError(f"more than {MAX_POSITIONS} positions to weigh: ask for fewer --turns")
    if s.is_terminal():
        v = 0.0 if s.winner == 1 - p else 1.0
    elif s.lives[p] > LOSSES_PER_TURN * turns:
        v = 1.0  # exact: P cannot lose that many cubes in time
    elif turns <= 1 and all(step[0] in HARMLESS for step in s.pending):
        v = 1.0  # exact: only draws are left before the horizon, and P is alive
    elif s.to_move != p:
        v = 1.0 if turns <= 1 else survival(skip_opponent(s, p), p, turns - 1, memo)
    elif s.current_player() == CHANCE:
        v = sum(q * survival(s.apply(o), p, turns, memo) for o, q in s.chance_outcomes())
    elif s.current_player() == p:
        v = 0.0
        for a in s.legal_actions():
            v = max(v, survival(s.apply(a), p, turns, memo))
            if v == 1.0:
                break  # nothing beats certainty
    else:
        v = 1.0
        for a in s.legal_actions():
            v = min(v, survival(s.apply(a), p, turns, memo))
            if v == 0.0:
                break
    memo[key] = v
    return v


def ranked(s: State, turns: int) -> list[tuple[tuple, float]]:
    """Every legal action of P with its survival probability, best first (ties: legal order)."""
    p = s.current_player()
    memo: dict = {}
    scored = [(a, survival(s.apply(a), p, turns, memo)) for a in s.legal_actions()]
    return sorted(scored, key=lambda x: -x[1])


def first_play(edition: Edition, seed: int) -> State:
    """A seeded game run by its chance stream (as :func:`tubedeck.play.play_game` draws it) to the
    first decision."""
    s, chance = new_game(edition, 2, seed), random.Random(f"{seed}:chance")
    while s.current_player() == CHANCE:
        s = s.apply(chance_outcome(s, chance))
    return s


@dataclass(frozen=True)
class SurvivalReport:
    state: State
    turns: int
    moves: tuple

    def as_dict(self) -> dict:
        s = self.state
        best = self.moves[0] if self.moves else None
        return {"player": s.current_player() + 1, "turns": self.turns,
                "best": None if best is None else {"action": list(best[0]), "survival": round(best[1], 9)},
                "moves": [{"action": list(a), "survival": round(v, 9)} for a, v in self.moves],
                "position": to_json(s)}

    def describe(self) -> list[str]:
        s = self.state
        p = s.current_player()
        kinds = " ".join(s.side(i).kind[0].upper() + ("*" if i in s.pos else "") for i in range(len(s.row)))
        out = [f"Keep Moving: player {p + 1} to play, at position {s.pos[p] + 1} with {s.lives[p]} cubes",
               f"  hand: {', '.join(card_name(s.edition, c) for c in s.hand[p]) or '(empty)'}", "  row (L lava, G grassland, D dry soil; * a meeple):",
               f"  {kinds}"]
        out.append(f"  the chance to survive {self.turns} own turn(s), by play:")
        for a, v in self.moves:
            out.append(f"  p = {v:.4f}  {s.describe(a)}")
        return out


def solve_one(edition: Edition, seed: int | None = None, state: str | None = None, turns: int = 2) -> SurvivalReport:
    """The registry's ``solve keepmoving``."""
    if (seed is None) == (state is None):
        raise UsageError("give exactly one of --seed S or --state FILE")
    if not 1 <= turns <= MAX_TURNS:
        raise UsageError(f"--turns must be 1-{MAX_TURNS}, got {turns}")
    if seed is not None and seed < 0:
        raise UsageError(f"--seed must be >= 0, got {seed}")
    s = first_play(edition, seed) if seed is not None else read_state(Path(str(state)), edition)
    if s.is_terminal() or s.current_player() == CHANCE:
        raise UsageError("the position has no decision to make")
    return SurvivalReport(s, turns, tuple(ranked(s, turns)))


def dump(report: SurvivalReport) -> str:
    return json.dumps(report.as_dict())
