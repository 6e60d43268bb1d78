"""The rulebook's worked examples, each a seeded game replayed by the engine (:mod:`.play`): the
setup of a seeded deal, a move that lands on the other meeple and pushes it, and the end of a
game. Engine only (no generator): ``generator/keepmoving/rulebook.py`` prints these numbers and
draws its figures from them, and ``tests/keepmoving/test_keepmoving_rulebook.py`` checks them against a
fresh replay.

The players of these games are :func:`careful`: Protection whenever it may answer, a direction
away from lava when there is one, otherwise a seeded choice among the legal plays (each seat its
own stream, chance from ``Random(f"{seed}:chance")``, as :func:`tubedeck.play.play_game`). Positions
count from 1 at the left end of the row, players from 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any, Hashable

from tubedeck.play import CHANCE, Played, play_game

from .edition import Edition
from .play import State, card_name, new_game

SETUP_SEED = 1  # the deal the setup figure draws
SEARCH = range(1, 200)  # the seeds searched, in order, for the push and the end


@dataclass(frozen=True)
class Ground:
    """One row card as it lies: its kind and its symbol ("" for none)."""

    kind: str
    symbol: str


@dataclass(frozen=True)
class SetupExample:
    """A seeded deal as the players see it after setup."""

    seed: int
    row: tuple[Ground, ...]  # left to right
    positions: tuple[int, int]  # each player's meeple, from 1
    rolls: tuple[int, int]  # the starting rolls that put them there (position - start_offset)
    first: int  # the starting player, from 1
    hands: tuple[tuple[str, ...], tuple[str, ...]]  # card names
    piles: tuple[int, int]  # cards left in each own pile
    ground_pile: int
    function_pile: int
    cubes: tuple[int, int]
    supply: int


@dataclass(frozen=True)
class PushExample:
    """A move onto the other meeple, from a seeded game: the mover's card, roll and direction, the
    row around it before and after, where both meeples went and what their cards did."""

    seed: int
    turn: int  # the game's turn, from 1
    mover: int  # from 1
    pushed: int  # from 1
    card: str  # the movement card played
    roll: int  # the number rolled (0: a card that moves its own number)
    distance: int
    direction: str  # "left" or "right"
    start: int  # the mover's position before
    landing: int  # where the mover lands (the pushed meeple's card)
    pushed_to: int  # where the pushed meeple goes
    row_before: tuple[Ground, ...]
    row_after: tuple[Ground, ...]
    left_before: Ground  # the card the mover left, before and after it turned over (or was replaced)
    left_after: Ground
    mover_cubes: tuple[int, int]  # before, after
    pushed_cubes: tuple[int, int]
    pushed_hand: tuple[int, int]  # the pushed player's hand size before and after (a Function symbol draws)
    wrapped: bool  # the pushed meeple went round the end of the row


@dataclass(frozen=True)
class EndExample:
    """The last turn of a seeded game."""

    seed: int
    turns: int  # turns played, both players, the last included
    winner: int  # from 1
    loser: int
    card: str  # the loser's last card
    roll: int  # the number rolled for it (0: a card that moves its own number)
    distance: int
    direction: str  # "left" or "right"
    landing: int  # the position of the lava card that took the last cube
    landing_kind: str  # "lava", or "lava with the Function symbol"
    cause: str  # how the last cube went (the engine's ``ended``)
    winner_cubes: int
    supply: int
    words: tuple[str, ...]  # the last turn, move by move, as the engine words it


def careful(state: State, rng: random.Random) -> Hashable:
    """The examples' player: Protection whenever it may answer, a direction that avoids lava if
    there is one (grassland first), else a seeded choice among the legal plays."""
    options = state.legal_actions()
    if ("protect",) in options:
        return ("protect",)
    if options and options[0][0] == "dir":
        p = state.decider
        dist = state.pending[0][2]
        last = len(state.row) - 1
        rank = {"grassland": 0, "dry soil": 1, "lava": 2}

        def landing(action) -> int:
            return rank[state.side(min(last, max(0, state.pos[p] + action[1] * dist))).kind]

        return min(options, key=landing)
    return rng.choice(options)


def _played(edition: Edition, seed: int) -> Played[State]:
    start = new_game(edition, 2, seed)
    return play_game(start, [careful, careful], seed)


def _row(state: State) -> tuple[Ground, ...]:
    return tuple(Ground(state.side(i).kind, state.side(i).symbol) for i in range(len(state.row)))


def setup_example(edition: Edition, seed: int = SETUP_SEED) -> SetupExample:
    """The deal of ``seed`` as it lies after setup, before the first turn's draw."""
    s = new_game(edition, 2, seed)
    names = tuple(tuple(card_name(edition, c) for c in s.hand[p]) for p in (0, 1))
    return SetupExample(
        seed=seed, row=_row(s), positions=(s.pos[0] + 1, s.pos[1] + 1),
        rolls=(s.pos[0] + 1 - edition.rules.start_offset, s.pos[1] + 1 - edition.rules.start_offset),
        first=s.first + 1, hands=(names[0], names[1]), piles=(len(s.pile[0]), len(s.pile[1])),
        ground_pile=len(s.gpile), function_pile=len(s.fpile), cubes=(s.lives[0], s.lives[1]), supply=s.supply)


def _states(played: Played[State], start: State) -> list[tuple[State, Any, State]]:
    """Every (state, action, next state) of a played game (actions are tuples, outcomes ints or
    card ids)."""
    out: list[tuple[State, Any, State]] = []
    s = start
    for m in played.moves:
        after = s.apply(m.action)
        out.append((s, m.action, after))
        s = after
    return out


def _push(edition: Edition, seed: int) -> PushExample | None:
    """The first push of ``seed``'s game by a roll card (a die rolled, then the move), if any."""
    start = new_game(edition, 2, seed)
    steps = _states(_played(edition, seed), start)
    for i, (s, action, _) in enumerate(steps):
        if s.phase != "decide" or action[0] != "play":
            continue
        c = edition.cards[action[1]]
        if getattr(c, "action", None) != "roll":
            continue
        p, o = s.decider, 1 - s.decider
        # follow this card's move: the roll, a direction if asked, until the mover has moved
        j, roll = i + 1, 0
        while j < len(steps) and steps[j][0].pos[p] == s.pos[p] and steps[j][0].turn == s.turn:
            t, a, _ = steps[j]
            if t.phase == "chance" and t.pending[0][0] == "roll":
                roll = int(a)
            j += 1
        if j >= len(steps) or roll == 0 or steps[j][0].turn != s.turn:
            continue  # no move (a locked roll) or the game's end
        before, moved = steps[j - 1][0], steps[j - 1][2]  # the node that moved the mover, and after it
        if moved.pos[p] != s.pos[o] or moved.pos[o] == s.pos[o]:
            continue  # no push
        # both landings resolved: the state when the next turn starts, or the end
        final = next((a for _, _, a in steps[j:] if a.turn != s.turn or a.is_terminal()), moved)
        d = moved.pos[p] - s.pos[p]
        at = s.pos[p]
        return PushExample(
            seed=seed, turn=s.turn + 1, mover=p + 1, pushed=o + 1, card=card_name(edition, action[1]), roll=roll,
            distance=abs(d), direction="left" if d < 0 else "right", start=at + 1, landing=moved.pos[p] + 1,
            pushed_to=moved.pos[o] + 1, row_before=_row(before), row_after=_row(moved),
            left_before=_row(before)[at], left_after=_row(moved)[at],
            mover_cubes=(s.lives[p], final.lives[p]), pushed_cubes=(s.lives[o], final.lives[o]),
            pushed_hand=(len(s.hand[o]), len(final.hand[o])),
            wrapped=(moved.pos[o] - moved.pos[p]) * d < 0)
    return None


DELTA = {"lava": -1, "grassland": 1, "dry soil": 0}  # what entering each kind does to the cubes


def _plain(e: PushExample) -> bool:
    """A push whose two landing cards do different things (the example shows both rules), each
    exactly what its kind says (no Protection played, the supply not empty), not round the end."""
    mover, pushed = e.row_after[e.landing - 1].kind, e.row_after[e.pushed_to - 1].kind
    return (mover != pushed and not e.wrapped and e.mover_cubes[1] - e.mover_cubes[0] == DELTA[mover]
            and e.pushed_cubes[1] - e.pushed_cubes[0] == DELTA[pushed])


@cache
def push_example(edition: Edition) -> PushExample:
    """The first push by a roll card (seeds from :data:`SEARCH`) that shows the rules plainly
    (:func:`_plain`)."""
    for seed in SEARCH:
        e = _push(edition, seed)
        if e is not None and _plain(e):
            return e
    raise AssertionError("no push found in the searched seeds")


@cache
def end_example(edition: Edition) -> EndExample:
    """The last turn of the first game (seeds from :data:`SEARCH`) that a player loses by moving
    onto lava themselves with their last life cube."""
    for seed in SEARCH:
        e = _end(edition, seed)
        if e is not None:
            return e
    raise AssertionError("no game in the searched seeds ends on lava by the player's own move")


def _end(edition: Edition, seed: int) -> EndExample | None:
    start = new_game(edition, 2, seed)
    played = _played(edition, seed)
    end = played.state
    if end.winner is None or end.ended != "lava":
        return None
    loser = 1 - end.winner
    steps = _states(played, start)
    last: list[tuple[State, Any]] = [(s, a) for s, a, _ in steps if s.turn == end.turn]
    if last[0][0].lives[loser] != 1:
        return None  # the text says the loser had one life cube left
    card = next(a[1] for s, a in reversed(last) if s.phase == "decide" and a[0] == "play")
    words = tuple(s.describe(a) for s, a in last if s.current_player() != CHANCE or s.pending[0][0] == "roll")
    rolls = [int(a) for s, a in last if s.phase == "chance" and s.pending[0][0] == "roll"]
    before = last[0][0]
    d = end.pos[loser] - before.pos[loser]
    side = end.side(end.pos[loser])
    return EndExample(
        seed=seed, turns=end.turn + 1, winner=end.winner + 1, loser=loser + 1, card=card_name(edition, card),
        roll=rolls[-1] if rolls else 0, distance=abs(d), direction="left" if d < 0 else "right",
        landing=end.pos[loser] + 1, landing_kind=side.kind + (f" with the {side.symbol.title()} symbol" if side.symbol else ""),
        cause=end.ended, winner_cubes=end.lives[end.winner], supply=end.supply, words=words)
