"""One Day in London as played: the rules as a state machine (the OpenSpiel shape).

A :class:`State` is immutable; :meth:`State.legal_actions` lists what the player to move may do
and :meth:`State.apply` returns the next state. Chance (the shuffle) is fixed by the seed at
:func:`new_game`, so a game is its seed plus its actions, and replaying them gives the same log.

The turn, in the text's words, is three steps; each is one decision here:

1. **setup**: each player draws 10 cards one at a time and places each in an empty space of
   their rack, for good (action: the slot), players in turn from seat 1. Then the recipe's
   ``discard_piles`` (3) piles get one card each, face up; the rest is the draw pile.
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
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Hashable

from tubedeck.errors import UsageError

from .cards import StationCard
from .edition import Edition
from .journey import validate

STOCK = "stock"


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
    turn: int = 0
    winner: int | None = None
    reshuffles: int = 0
    seed: int = 0
    max_turns: int = 2000

    # -- the OpenSpiel shape ------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, -1 for the others; all 0 in a drawn game or while playing."""
        if self.winner is None:
            return (0.0,) * self.players
        return tuple(1.0 if p == self.winner else -1.0 for p in range(self.players))

    def legal_actions(self) -> tuple[tuple[str, Hashable], ...]:
        if self.phase == "setup":
            return tuple(("place", k) for k, c in enumerate(self.racks[self.to_move]) if c is None)
        if self.phase == "draw":
            out = [("draw", i) for i, p in enumerate(self.piles) if p]
            if self.stock:
                out.append(("draw", STOCK))
            return tuple(out)
        if self.phase == "exchange":
            return tuple(("exchange", k) for k in range(len(self.racks[self.to_move]))) + (("keep", None),)
        if self.phase == "discard":
            empty = [i for i, p in enumerate(self.piles) if not p]
            return tuple(("discard", i) for i in (empty[:1] if empty else range(len(self.piles))))
        return ()

    def apply(self, action: tuple[str, Hashable], edition: Edition) -> "State":
        """The state after ``action`` (UsageError if it is not legal here)."""
        if action not in self.legal_actions():
            raise UsageError(f"{action!r} is not a legal action in phase {self.phase!r}")
        kind, arg = action
        if kind == "place":
            return self._place(arg, edition)
        if kind == "draw":
            return self._draw(arg)
        if kind in ("exchange", "keep"):
            rack = list(self.racks[self.to_move])
            out = self.holding
            if kind == "exchange":
                rack[arg], out = self.holding, rack[arg]
            racks = self.racks[:self.to_move] + (tuple(rack),) + self.racks[self.to_move + 1:]
            return replace(self, racks=racks, holding=out, phase="discard")
        # discard
        piles = tuple(p + (self.holding,) if i == arg else p for i, p in enumerate(self.piles))
        after = replace(self, piles=piles, holding=None)
        if is_journey(after.racks[self.to_move], edition):
            return replace(after, phase="over", winner=self.to_move)
        nxt = replace(after, to_move=(self.to_move + 1) % self.players, phase="draw", turn=self.turn + 1)
        return replace(nxt, phase="over") if nxt.turn >= self.max_turns else nxt

    # -- steps --------------------------------------------------------------------------------
    def _place(self, slot: int, edition: Edition) -> "State":
        card, stock = self.stock[0], self.stock[1:]
        rack = list(self.racks[self.to_move])
        rack[slot] = card
        racks = self.racks[:self.to_move] + (tuple(rack),) + self.racks[self.to_move + 1:]
        placed = sum(c is not None for r in racks for c in r)
        state = replace(self, racks=racks, stock=stock, to_move=(self.to_move + 1) % self.players)
        if placed < self.players * len(rack):
            return state
        # Setup done: one card face up on each discard pile; a rack that is already a journey wins.
        n = edition.rules.discard_piles
        piles = tuple((c,) for c in stock[:n])
        state = replace(state, piles=piles, stock=stock[n:], to_move=0, phase="draw")
        for seat in range(self.players):
            if is_journey(state.racks[seat], edition):
                return replace(state, phase="over", winner=seat)
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


def is_journey(rack: tuple[StationCard | None, ...], edition: Edition) -> bool:
    return None not in rack and validate(edition.board, [c.station for c in rack]).valid


def new_game(edition: Edition, players: int, seed: int, max_turns: int = 2000) -> State:
    """The shuffled deck (``random.Random(seed)``), empty racks, seat 1 to place first."""
    rules = edition.rules
    if not rules.players_min <= players <= rules.players_max:
        raise UsageError(f"--players must be {rules.players_min}-{rules.players_max}, got {players}")
    cards = list(edition.deck.cards)
    random.Random(seed).shuffle(cards)
    return State(players, tuple((None,) * rules.slots for _ in range(players)), (), tuple(cards), 0, "setup",
                 seed=seed, max_turns=max_turns)
