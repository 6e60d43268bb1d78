"""One Day in London's setup: a seeded deal of racks, discard piles and the draw pile.

Decision: a deal places each player's cards in the slots in the order drawn (slot 1 first): the
text leaves placement to the player, and a fixed rule keeps deals reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tubedeck.errors import UsageError

from .cards import StationCard, StationDeck
from .recipe import Recipe


@dataclass(frozen=True)
class Deal:
    """A seeded set-up: one rack per player (slot order), the face-up discard piles, the draw pile."""

    seed: int
    racks: tuple[tuple[StationCard, ...], ...]
    discards: tuple[StationCard, ...]
    draw_pile: tuple[StationCard, ...]


def deal(deck: StationDeck, players: int, seed: int, rules: Recipe) -> Deal:
    """Shuffle with ``random.Random(seed)``; deal ``rules.slots`` cards to each player one at a
    time, round the table, each into the next slot; then one card face up on each discard pile."""
    lo, hi, slots, piles = rules.players_min, rules.players_max, rules.slots, rules.discard_piles
    if not lo <= players <= hi:
        raise UsageError(f"--players must be {lo}-{hi}, got {players}")
    if players * slots + piles > len(deck):
        raise UsageError(f"a deck of {len(deck)} cards cannot deal {players} racks of {slots} and {piles} piles")
    cards = list(deck.cards)
    random.Random(seed).shuffle(cards)
    racks = tuple(tuple(cards[p: players * slots: players]) for p in range(players))
    rest = cards[players * slots:]
    return Deal(seed, racks, tuple(rest[:piles]), tuple(rest[piles:]))
