"""The play contract: one State shape for every game, one driver (OpenSpiel's shape).

Every game's rules engine (``tubedeck/games/<id>/play.py``) implements :class:`State`:

* ``new_game(edition, players, seed, **variant) -> State``: the edition is bound when the game
  starts, so no method takes it again;
* ``current_player()``: the seat to decide (0-based), :data:`CHANCE` at a chance node, or
  :data:`TERMINAL` once the game is over;
* ``legal_actions()``: the decisions of the seat to move (empty at chance and terminal nodes);
* ``chance_outcomes()``: ``(outcome, probability)`` pairs at a chance node (empty elsewhere);
  ``dealt_outcome()`` is the outcome the seeded deal fixed for it (a shuffled deck's next card, a
  seeded roll), or None when the driver draws it;
* ``apply(action) -> State``: the next state; a state is never changed in place;
* ``is_terminal()`` and ``returns()``: one number per seat, all 0 before the end (win/loss as
  +1/-1, or scores, as the game's record declares);
* ``describe(action)``: the action in a player's words (station and card names, the sheet
  coordinate D8, positions, life cubes), never an internal id;
* ``clock()``: where the game stands in its own words (``turn 12``, ``round 2``, ``roll 7``);
* ``observation(seat)``: what that seat can see (a JSON-able dict): bots that must not see
  hidden cards decide from it alone.

Chance a deal fixes at setup (a shuffled stock drawn card by card) stays inside the engine and
is part of the seed; chance nodes are what the game exposes. Seeded play resolves a chance node
through one function, :func:`chance_outcome`. A bot is ``Bot[S] = Callable[[S, Random],
Action]``; :func:`play_game` gives each seat its own seeded stream, so a game is its seed and
its bots, and a replay of its actions gives the same log.

The protocol is generic in the game's action type, and each engine binds itself to it in one
line that mypy checks (``ENGINE: Engine[Action] = new_game`` in ``tubedeck/games/<id>/play.py``),
so an engine that drifts from the contract fails ``make lint``. A game is started through its
declaration, :meth:`tubedeck.game.Game.new_game`, and its bots are :meth:`tubedeck.game.Game.bot`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Protocol, Sequence, TypeVar

from .errors import UsageError
from .words import plural

CHANCE = -1  # current_player() at a chance node
TERMINAL = -2  # current_player() once the game is over

Action = Hashable
A = TypeVar("A")  # a game's action type (its decisions and its chance outcomes)
S = TypeVar("S", bound="State[Any]")


class State(Protocol[A]):
    """One position of a game (see the module docstring for what each method promises)."""

    @property
    def players(self) -> int: ...  # the seats at the table

    def current_player(self) -> int: ...
    def legal_actions(self) -> Sequence[A]: ...
    def chance_outcomes(self) -> Sequence[tuple[A, float]]: ...
    def dealt_outcome(self) -> A | None: ...
    def apply(self, action: A) -> "State[A]": ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[float, ...]: ...
    def describe(self, action: A) -> str: ...
    def clock(self) -> str: ...
    def observation(self, seat: int) -> dict: ...


Engine = Callable[..., State[A]]  # new_game(edition, players, seed, **variant) -> the first state
Bot = Callable[[S, random.Random], Any]  # (state, the seat's random stream) -> an action
BotFactory = Callable[[str], Bot]  # a bot's name as typed ("greedy", "mcts:2000") -> the bot


def sample(outcomes: Sequence[tuple[Action, float]], rng: random.Random) -> Action:
    """One outcome drawn by its probability (one ``rng.random()`` per draw)."""
    if not outcomes:
        raise ValueError("no chance outcomes to sample")
    x, acc = rng.random(), 0.0
    for outcome, p in outcomes:
        acc += p
        if x < acc:
            return outcome
    return outcomes[-1][0]


def determinize(state: Any, seat: int, rng: random.Random) -> Any:
    """A state consistent with what ``seat`` observes, every part it cannot see resampled by
    ``rng``: the game's optional ``determinize(seat, rng)`` hook, else ``state`` (nothing hidden).
    A hook's result depends only on ``observation(seat)`` and ``rng``, so a search that starts
    each iteration here never reads the hidden parts of the state it was given."""
    hook = getattr(state, "determinize", None)
    return state if hook is None else hook(seat, rng)


def chance_outcome(state: State, rng: random.Random) -> Action:
    """The outcome seeded play takes at a chance node: the deal's own, else one drawn by ``rng``."""
    dealt = state.dealt_outcome()
    return dealt if dealt is not None else sample(state.chance_outcomes(), rng)


@dataclass(frozen=True)
class Move:
    """One step of a game: who (a 0-based seat, or CHANCE), what, and when (``clock()`` before it)."""

    seat: int
    action: Action
    clock: str = ""
    words: str = ""  # describe(action), kept when the driver is asked for words


@dataclass(frozen=True)
class Played(Generic[S]):
    """A game played to its end: the final state and every move."""

    state: S
    moves: tuple[Move, ...]

    def decisions(self, seat: int | None = None) -> list[Move]:
        """The players' moves (no chance), or one seat's."""
        return [m for m in self.moves if m.seat >= 0 and (seat is None or m.seat == seat)]


MAX_MOVES = 1_000_000  # every engine ends itself (a turn limit); this only guards a broken one


def seat_streams(seed: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """The chance stream and one stream per seat of a seeded game."""
    return random.Random(f"{seed}:chance"), [random.Random(f"{seed}:seat{p}") for p in range(players)]


def play_game(start: S, bots: Sequence[Bot[S]], seed: int, words: bool = False) -> Played[S]:
    """Play ``start`` to its end: each seat's bot decides with its own seeded stream, chance goes
    through :func:`chance_outcome`. With ``words``, each move keeps ``clock()`` and ``describe``."""
    if len(bots) != start.players:
        raise UsageError(f"{plural(len(bots), 'bot')} for {plural(start.players, 'seat')}")
    chance, streams = seat_streams(seed, start.players)
    state: S = start
    moves: list[Move] = []
    while not state.is_terminal():
        seat = state.current_player()
        action = chance_outcome(state, chance) if seat == CHANCE else bots[seat](state, streams[seat])
        moves.append(Move(seat, action, state.clock(), state.describe(action)) if words else Move(seat, action))
        state = state.apply(action)  # type: ignore[assignment]  # an engine's apply returns its own State
        if len(moves) > MAX_MOVES:
            raise RuntimeError(f"a game of over {MAX_MOVES} moves: the engine never ends")
    return Played(state, tuple(moves))


def history(start: S, actions: Sequence[Action]) -> tuple[S, ...]:
    """Every state of a replay, ``start`` first and then the state after each of ``actions``
    (a worked example prints from all of them)."""
    states: list[Any] = [start]  # each game's State.apply returns its own State
    for a in actions:
        states.append(states[-1].apply(a))
    return tuple(states)


def replay(start: State, actions: Sequence[Action]) -> State:
    """The state after ``actions`` (chance outcomes included) from ``start``."""
    state = start
    for a in actions:
        state = state.apply(a)
    return state
