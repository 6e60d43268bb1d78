"""Deals of Keep London Moving: seeded shuffles of both stocks and the seeded die rolls.

``deal(stations, fortune, players, seed, rules)`` draws everything from one ``random.Random(seed)`` in a fixed order
(Station stock shuffle, Fortune stock shuffle, opening rolls, then one roll per turn), so the same
seed gives the same deal on every machine and Python >= 3.2; nothing depends on ``hash()``.

Decisions where the rulebook is silent (also in the README and tested):

* **Dealing**: ``rules.hand`` (five) Station Cards each, one at a time, clockwise from seat 1 (seat 0 in code).
* **Who starts**: every player rolls; the highest starts; players tied on the highest re-roll
  among themselves until one is highest. Play then goes clockwise from the starter.
* **Turn rolls and the shared stock**: each turn begins with a roll. A 6 (``rules.fortune_roll``) draws a Fortune Card and
  *no* Station Card, so the next Station Card goes to the next player who draws one.
* **The window**: the Station stock "first runs out" at the first turn whose player must draw a
  Station Card and finds the stock empty. Turns before that one form the deal's window. (After it,
  draws come from a reshuffle of the discards, which depends on play: the deal no longer fixes
  them.) The failing turn's roll is the last roll recorded in the deal.
* **Arrival**: a card in the opening hand can be played on the player's turn 1; a card drawn in
  Phase 1 of a player's turn k can be played in Phase 2 of that same turn k.
* **Unlucky Hand** (redeal to four) is a player's choice, not part of a deal: outside the check.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from tubedeck.errors import UsageError

from .rules import Rules


def check_players(players: int, rules: Rules) -> int:
    if not rules.players_min <= players <= rules.players_max:
        raise UsageError(f"--players must be {rules.players_min}-{rules.players_max}, got {players}")
    return players


@dataclass(frozen=True)
class PlayerWindow:
    """What one player gets from a deal, as the checker needs it.

    ``turns`` is how many own turns the player has in the window; ``arrival`` maps each Station
    Card the player holds in the window to the first own turn (1-based) on which it can be played;
    ``order`` is the player's place in turn order (0 = the starter)."""

    seat: int
    order: int
    turns: int
    arrival: tuple[tuple[str, int], ...]  # (station, own turn), in arrival order

    def global_turn(self, own_turn: int, players: int) -> int:
        """The 0-based index among all players' turns of this player's ``own_turn``."""
        return (own_turn - 1) * players + self.order


@dataclass(frozen=True)
class Deal:
    """A complete deal. ``station_stock`` / ``fortune_stock`` are the shuffled decks, top first,
    *before* dealing; ``turn_rolls[g]`` is the roll of the g-th turn of the game (0-based)."""

    seed: int
    players: int
    station_stock: tuple[str, ...]
    fortune_stock: tuple[str, ...]
    opening_rolls: tuple[tuple[int, ...], ...]  # each re-roll round: rolls of the players still tied
    starter: int
    turn_rolls: tuple[int, ...]
    hand: int  # rules.hand: cards dealt to each player
    fortune_roll: int  # rules.fortune_roll: the roll that draws no Station Card

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        dealt = self.station_stock[: self.hand * self.players]
        return tuple(dealt[p:: self.players] for p in range(self.players))

    def seat_of_turn(self, g: int) -> int:
        return (self.starter + g) % self.players

    @cached_property
    def draws(self) -> tuple[tuple[int, str | None], ...]:
        """``(seat, station or None)`` for each turn of the window: None on a 6 (Fortune draw)."""
        rest = iter(self.station_stock[self.hand * self.players:])
        out = []
        for g, roll in enumerate(self.turn_rolls[:-1]):
            out.append((self.seat_of_turn(g), None if roll == self.fortune_roll else next(rest)))
        return tuple(out)

    @property
    def window(self) -> int:
        """Number of turns (all players) before the Station stock first runs out."""
        return len(self.turn_rolls) - 1

    def player(self, seat: int) -> PlayerWindow:
        order = (seat - self.starter) % self.players
        arrival = [(s, 1) for s in self.hands[seat]]
        turns = 0
        for who, card in self.draws:
            if who == seat:
                turns += 1
                if card is not None:
                    arrival.append((card, turns))
        return PlayerWindow(seat, order, turns, tuple(arrival))

    def windows(self) -> tuple[PlayerWindow, ...]:
        """Every player's window in one pass over the draws (what :meth:`player` gives per seat)."""
        n = self.players
        arrival = [[(s, 1) for s in hand] for hand in self.hands]
        turns = [0] * n
        for who, card in self.draws:
            turns[who] += 1
            if card is not None:
                arrival[who].append((card, turns[who]))
        return tuple(PlayerWindow(p, (p - self.starter) % n, turns[p], tuple(arrival[p])) for p in range(n))


def roll_for_start(rng: random.Random, players: int, die: int = 6) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Everyone rolls; the highest starts; those tied on the highest re-roll. Return rounds, seat."""
    contenders = list(range(players))
    rounds = []
    while True:
        rolls = tuple(rng.randint(1, die) for _ in contenders)
        rounds.append(rolls)
        best = max(rolls)
        contenders = [p for p, r in zip(contenders, rolls, strict=True) if r == best]
        if len(contenders) == 1:
            return tuple(rounds), contenders[0]


def deal(stations: tuple[str, ...], fortune: tuple[str, ...], players: int, seed: int, rules: Rules) -> Deal:
    """Deal ``stations`` (Station Card ids in deck order) and ``fortune`` (Fortune Card ids)."""
    check_players(players, rules)
    hand = rules.hand
    if len(stations) < hand * players:
        raise UsageError(f"the scope has {len(stations)} Station Cards; {players} players need at least "
                         f"{hand * players}")
    rng = random.Random(seed)
    stock = list(stations)
    rng.shuffle(stock)
    fortunes = list(fortune)
    rng.shuffle(fortunes)
    opening, starter = roll_for_start(rng, players, rules.die)
    left = len(stock) - hand * players
    rolls = []
    while True:
        roll = rng.randint(1, rules.die)
        rolls.append(roll)
        if roll != rules.fortune_roll:
            if left == 0:
                break  # this player must draw and the stock is empty: it has run out
            left -= 1
    return Deal(seed, players, tuple(stock), tuple(fortunes), opening, starter, tuple(rolls), hand,
                rules.fortune_roll)
