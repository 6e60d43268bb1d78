"""One Day in London as played: the rules as a state machine (the play contract of
:mod:`tubedeck.play`).

A :class:`State` is immutable; :meth:`State.legal_actions` lists what the player to move may do
and :meth:`State.apply` returns the next state. The edition is bound at :func:`new_game` (no
method takes it again). Chance (the shuffle, and the reshuffles of the buried discards) is fixed
by the seed inside the engine, so the game has no chance nodes: a game is its seed plus its
actions, and replaying them gives the same log.

The turn, in the text's words, is three steps; each is one decision here:

1. **setup**: each player draws 10 cards one at a time and places each in any empty slot of
   their rack, where it stays (action: ``("place", slot)``), players in turn from seat 1. Then the
   recipe's ``discard_piles`` (3) piles get one card each, face up; the rest is the draw pile.
2. **draw**: "one card from the top of either one of the discard piles or the draw pile"
   (action: ``("draw", pile)``, pile 0-2 or ``"stock"``).
3. **exchange**: "optionally exchanged for one card in the player's rack" (action:
   ``("exchange", slot)`` or ``("keep", None)`` to discard the drawn card itself).
4. **discard**: "on any of the three discard piles, unless one pile is empty, in which case the
   discard must be placed on the empty space" (action: ``("discard", pile)``).

Decisions where the text is silent (tested): a player whose rack is a valid journey wins at once,
also right after setup (checked in seat order); when the draw pile is empty, the discard piles
less their top cards are shuffled (seeded) into a new draw pile, and if there are none, only the
discard piles can be drawn from; the game also ends, drawn, after ``max_turns`` turns.

``turn`` counts the turns played (draw, exchange, discard), the winning turn included: 0 during
setup and after a win at the deal. Slots and piles are 0-based in actions, 1-based in words.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from tubedeck.errors import UsageError
from tubedeck.play import TERMINAL, Engine

from .cards import StationCard
from .edition import Edition
from .journey import validate
from .records import MAX_TURNS  # the turn cap of every played game (play, simulate): then drawn

STOCK = "stock"

Action = tuple[str, Any]  # ("place", slot), ("draw", pile or STOCK), ("exchange", slot), ("keep", None), ("discard", pile)


@dataclass(frozen=True)
class State:
    """Everything on the table. ``piles[i]`` lists a discard pile bottom first (top last)."""

    players: int
    racks: tuple[tuple[StationCard | None, ...], ...]
    piles: tuple[tuple[StationCard, ...], ...]
    stock: tuple[StationCard, ...]  # the draw pile, top first
    to_move: int
    phase: str  # "setup" | "draw" | "exchange" | "discard" | "over"
    holding: StationCard | None = None
    turn: int = 0  # turns played (see the module docstring)
    winner: int | None = None
    reshuffles: int = 0
    seed: int = 0
    max_turns: int = MAX_TURNS
    edition: Edition = field(default=None, compare=False, repr=False)  # type: ignore[assignment]  # new_game binds it

    # -- the play contract --------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, -1 for the others; all 0 in a drawn game or while playing."""
        if self.winner is None:
            return (0.0,) * self.players
        return tuple(1.0 if p == self.winner else -1.0 for p in range(self.players))

    def chance_outcomes(self) -> tuple:
        return ()  # the shuffles are the seed's: no chance nodes

    def dealt_outcome(self) -> None:
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        if self.phase == "setup":
            return tuple(("place", k) for k, c in enumerate(self.racks[self.to_move]) if c is None)
        if self.phase == "draw":
            out: list[Action] = [("draw", i) for i, p in enumerate(self.piles) if p]
            if self.stock:
                out.append(("draw", STOCK))
            return tuple(out)
        if self.phase == "exchange":
            return tuple(("exchange", k) for k in range(len(self.racks[self.to_move]))) + (("keep", None),)
        if self.phase == "discard":
            empty = [i for i, p in enumerate(self.piles) if not p]
            return tuple(("discard", i) for i in (empty[:1] if empty else range(len(self.piles))))
        return ()

    def apply(self, action: Action) -> "State":
        """The state after ``action`` (UsageError if it is not legal here)."""
        if action not in self.legal_actions():
            raise UsageError(f"{action!r} is not a legal action in phase {self.phase!r}")
        kind, arg = action
        if kind == "place":
            return self._place(arg)
        if kind == "draw":
            return self._draw(arg)
        if kind in ("exchange", "keep"):
            rack = list(self.racks[self.to_move])
            out = self.holding
            if kind == "exchange":
                rack[arg], out = self.holding, rack[arg]
            racks = self.racks[:self.to_move] + (tuple(rack),) + self.racks[self.to_move + 1:]
            return replace(self, racks=racks, holding=out, phase="discard")
        # discard: the turn is played
        held = self.holding
        assert held is not None  # the exchange step left a card in hand
        piles = tuple(p + (held,) if i == arg else p for i, p in enumerate(self.piles))
        after = replace(self, piles=piles, holding=None, turn=self.turn + 1)
        if after.has_journey(self.to_move):
            return replace(after, phase="over", winner=self.to_move)
        if after.turn >= self.max_turns:
            return replace(after, phase="over")
        return replace(after, to_move=(self.to_move + 1) % self.players, phase="draw")

    def describe(self, action: Action) -> str:
        """``action`` in a player's words, with station names (a card drawn face down is not named)."""
        kind, arg = action
        try:
            if kind == "place":
                return f"puts {self.stock[0].name} in slot {arg + 1} of the rack"
            if kind == "draw":
                if arg == STOCK:
                    return "draws from the draw pile"
                return f"draws {self.piles[arg][-1].name} from discard pile {arg + 1}"
            if kind == "exchange":
                return f"exchanges it for {_name(self.racks[self.to_move][arg])} in slot {arg + 1}"
            if kind == "keep":
                return "keeps the rack (discards the drawn card)"
            if kind == "discard":
                return f"discards {_name(self.holding)} on pile {arg + 1}"
        except (AttributeError, IndexError, TypeError, ValueError):
            pass
        return f"{kind} {'' if arg is None else arg}".rstrip() + " (not legal here)"

    def clock(self) -> str:
        if self.phase == "setup":
            return "setup"
        if self.is_terminal():
            return f"over after {self.turn} turn{'s' if self.turn != 1 else ''}"
        return f"turn {self.turn + 1}"

    def observation(self, seat: int) -> dict:
        """What ``seat`` (0-based) sees: its own rack, every discard pile (face up), the card it
        holds (the card it is placing, at setup), and only counts of the draw pile and the other
        racks (the racks face their owners). Cards by id (``bank-1``)."""
        mine = seat == self.to_move and not self.is_terminal()
        held = None
        if mine and self.phase == "setup":
            held = self.stock[0].id
        elif mine and self.holding is not None:
            held = self.holding.id
        return {"seat": seat, "to_move": self.to_move, "phase": self.phase, "turn": self.turn,
                "rack": [None if c is None else c.id for c in self.racks[seat]],
                "piles": [[c.id for c in p] for p in self.piles],
                "holding": held, "stock": len(self.stock),
                "placed": [sum(c is not None for c in r) for r in self.racks],
                "winner": self.winner}

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A state ``seat`` cannot tell from this one (:func:`tubedeck.play.determinize`): the
        draw pile and the other racks dealt again at random from the cards it cannot see (the card
        it is placing at setup stays on top), the other racks filled from their first slot, and the
        reshuffles to come from a new seed. Built from what ``observation(seat)`` shows and ``rng``."""
        keep = 1 if self.phase == "setup" and seat == self.to_move and self.stock else 0
        others = [p for p in range(self.players) if p != seat]
        held = self.holding if self.holding is not None and seat != self.to_move else None  # not seen
        pool = sorted(self.stock[keep:] + tuple(c for p in others for c in self.racks[p] if c is not None)
                      + ((held,) if held is not None else ()), key=lambda c: c.id)
        rng.shuffle(pool)
        holding = pool.pop() if held is not None else self.holding
        k = len(self.stock) - keep
        stock, racks = self.stock[:keep] + tuple(pool[:k]), list(self.racks)
        for p in others:
            placed = sum(c is not None for c in racks[p])
            racks[p] = tuple(pool[k:k + placed]) + (None,) * (len(racks[p]) - placed)
            k += placed
        return replace(self, stock=stock, racks=tuple(racks), holding=holding, seed=rng.getrandbits(62))

    # -- helpers --------------------------------------------------------------------------------
    def has_journey(self, seat: int) -> bool:
        """Whether ``seat``'s rack is a valid journey (a win)."""
        return is_journey(self.racks[seat], self.edition)

    def _place(self, slot: int) -> "State":
        card, stock = self.stock[0], self.stock[1:]
        rack = list(self.racks[self.to_move])
        rack[slot] = card
        racks = self.racks[:self.to_move] + (tuple(rack),) + self.racks[self.to_move + 1:]
        placed = sum(c is not None for r in racks for c in r)
        state = replace(self, racks=racks, stock=stock, to_move=(self.to_move + 1) % self.players)
        if placed < self.players * len(rack):
            return state
        # Setup done: one card face up on each discard pile; a rack that is already a journey wins.
        n = self.edition.rules.discard_piles
        piles = tuple((c,) for c in stock[:n])
        state = replace(state, piles=piles, stock=stock[n:], to_move=0, phase="draw")
        for seat in range(self.players):
            if state.has_journey(seat):
                return replace(state, phase="over", winner=seat, to_move=seat)
        return state

    def _draw(self, pile) -> "State":
        if pile == STOCK:
            state = replace(self, holding=self.stock[0], stock=self.stock[1:], phase="exchange")
            return state._refill() if not state.stock else state
        piles = tuple(p[:-1] if i == pile else p for i, p in enumerate(self.piles))
        return replace(self, holding=self.piles[pile][-1], piles=piles, phase="exchange")

    def _refill(self) -> "State":
        """An empty draw pile: the buried discards (all but each pile's top) shuffled, seeded."""
        buried = [c for p in self.piles for c in p[:-1]]
        if not buried:
            return self
        random.Random(f"{self.seed}-reshuffle-{self.reshuffles}").shuffle(buried)
        return replace(self, stock=tuple(buried), piles=tuple(p[-1:] for p in self.piles),
                       reshuffles=self.reshuffles + 1)


def _name(card: StationCard | None) -> str:
    if card is None:
        raise ValueError("no card there")
    return card.name


def is_journey(rack: tuple[StationCard | None, ...], edition: Edition) -> bool:
    """Whether a full rack is a valid journey on the edition's board."""
    stations = [c.station for c in rack if c is not None]
    return len(stations) == len(rack) and validate(edition.board, stations).valid


def new_game(edition: Edition, players: int, seed: int, max_turns: int = MAX_TURNS) -> State:
    """The shuffled deck (``random.Random(seed)``), empty racks, seat 1 to place first; the
    edition is bound to the game here."""
    rules = edition.rules
    if not rules.players_min <= players <= rules.players_max:
        raise UsageError(f"--players must be {rules.players_min}-{rules.players_max}, got {players}")
    if players * rules.slots + rules.discard_piles > len(edition.deck):
        raise UsageError(f"a deck of {len(edition.deck)} cards cannot deal {players} racks of {rules.slots} "
                         f"and {rules.discard_piles} piles")
    if not isinstance(max_turns, int) or max_turns < 1:
        raise UsageError(f"max_turns must be a whole number >= 1, got {max_turns!r}")
    cards = list(edition.deck.cards)
    random.Random(seed).shuffle(cards)
    return State(players, tuple((None,) * rules.slots for _ in range(players)), (), tuple(cards), 0, "setup",
                 seed=seed, max_turns=max_turns, edition=edition)


# The engine bound to the play contract (tubedeck.play.State): mypy checks every method, so drift fails `make lint`.
ENGINE: Engine[Action] = new_game
