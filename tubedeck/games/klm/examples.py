"""The rulebook's worked examples, each a seeded game replayed by the engine (:mod:`.play`): the
setup of a seeded deal, a Fortune Card's effect, and a win by five continuous stations. Engine only
(no generator): ``generator/klm/rulebook.py`` prints these numbers and draws its figures from them,
and ``tests/klm/test_rulebook.py`` checks them against a fresh replay.

The players of these games are :func:`steady`: no Unlucky Hand; the Connection that makes the
longest path of connected Active cards in their Play Field (then the one touching the most of
their cards, then the first by card id); the Fortune Card play that most widens the gap between
their longest path and the best opponent's (only when it widens it); the card with the fewest
links to their other cards when they must discard. No chance of their own: a game is its seed.
Players and turns count from 1 (the engine's seats from 0); a turn is one player's go, counted
over all players (the engine's ``turn`` + 1), and a player's *own turn* counts their goes only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

from .edition import Edition
from .play import END, Action, State, new_game

PLAYERS = 3  # the table of every example
SETUP_SEED = 1  # the deal the setup figure draws
SEARCH = range(1, 400)  # seeds searched, in order, for the Fortune Card and the win
FORTUNE_KIND = "signal-failure"  # the Fortune Card the effect example plays


@dataclass(frozen=True)
class SetupExample:
    """A seeded deal as the table sees it once the cards are dealt."""

    seed: int
    players: int
    hands: tuple[tuple[str, ...], ...]  # each player's Station Cards (names), as dealt
    cards: tuple[tuple[str, ...], ...]  # the same cards (Station Card ids, for a figure's colours)
    opening_rolls: tuple[tuple[int, ...], ...]  # each round of starting rolls (the tied roll again)
    starter: int  # from 1
    station_stock: int  # Station Cards left in the stock after the deal
    fortune_stock: int  # Fortune Cards in their stock (none are dealt)
    first_roll: int  # the starter's first roll
    first_draw: str  # what it draws: a Station Card's name, or "a Fortune Card"


@dataclass(frozen=True)
class FortuneExample:
    """A Fortune Card that Disables a card on an opponent's path, from a seeded game."""

    seed: int
    players: int
    card: str  # the Fortune Card's name
    turns: int  # how long it lasts, in the playing player's own turns
    caster: int  # the player who plays it, from 1
    turn: int  # the turn it is played, from 1
    own_turn: int  # the caster's own turn it is played on
    victim: int  # the player hit, from 1
    station: str  # the card Disabled
    before: int  # the victim's longest path of connected Active cards, before and after
    after: int
    until: int  # the caster's own turn at whose end the card is Active again
    back: int  # the turn (from 1) at whose end that happens
    restored: int  # the victim's longest path once it is Active again (nothing else changed their Play Field)


@dataclass(frozen=True)
class WinExample:
    """The end of a seeded game: the winner's five continuous Active stations."""

    seed: int
    players: int
    winner: int  # from 1
    turn: int  # the winning turn, from 1
    own_turn: int  # the winner's own turn
    rounds: int  # rounds begun (every player's turn once)
    path: tuple[str, ...]  # the five stations, in order along the path (names)
    stations: tuple[str, ...]  # the same stations (Station Card ids, for a figure)
    numbers: tuple[int, ...]  # the Connection Number between each two in a row (four)
    last: tuple[str, str, int]  # the Connection made on the winning turn: two names and its number
    field: int  # Station Cards in the winner's Play Field
    connections: int  # Connections in it
    station_left: int  # Station Cards in the stock at the end
    fortune_played: int  # Fortune Cards played in the game


T = TypeVar("T")
_FOUND: dict[tuple[str, int, int], tuple[Edition, object]] = {}


def _once(search: Callable[[Edition, int], T], edition: Edition, players: int) -> T:
    """``search(edition, players)``, worked out once per edition (an edition is not hashable)."""
    key = (search.__name__, id(edition), players)
    if key not in _FOUND or _FOUND[key][0] is not edition:
        _FOUND[key] = (edition, search(edition, players))
    return _FOUND[key][1]  # type: ignore[return-value]


# -- the players ---------------------------------------------------------------------------------
def _gap(state: State, me: int) -> int:
    others = max(state.longest(p) for p in range(state.players) if p != me)
    return state.longest(me) - others


def _links(state: State, card: str, me: int) -> int:
    mine = set(state.hands[me]) | state.fields[me].cards
    return sum(n in mine for n in state.table.adjacency[card])


def steady(state: State) -> Action:
    """The examples' player (see the module docstring)."""
    me = state.to_move
    if state.phase == "unlucky":
        return ("unlucky", False)
    if state.phase == "take":
        return state.legal_actions()[0]
    if state.phase == "discard":
        over = state.legal_actions()
        return min(over, key=lambda a: (_links(state, a[1], me) if a[1] in state.table.adjacency else 0, a[1]))
    connects = state.connect_actions()
    if connects:
        def score(a: Action) -> tuple:
            after = state.apply(a)
            if after.winner == me:
                return (1, 0, 0)
            touching = sum(c in after.fields[me].cards for c in after.table.adjacency[a[1]] + after.table.adjacency[a[2]])
            return (0, after.longest(me), touching)
        return max(connects, key=lambda a: (score(a), tuple(-ord(ch) for ch in a[1] + a[2])))
    legal = state.legal_actions()
    fortunes = [a for a in legal if a[0] == "fortune"]
    if fortunes:
        now = _gap(state, me)
        best = max(fortunes, key=lambda a: _gap(state.apply(a), me))
        if _gap(state.apply(best), me) > now:
            return best
    return END


def play(edition: Edition, seed: int, players: int = PLAYERS) -> tuple[State, tuple[tuple[State, Action], ...]]:
    """Play a seeded game with :func:`steady` players: the end and every (state, action) on the way."""
    state = new_game(edition, players, seed)
    moves = []
    while not state.is_terminal():
        action = steady(state)
        moves.append((state, action))
        state = state.apply(action)
    return state, tuple(moves)


# -- the examples --------------------------------------------------------------------------------
def setup_example(edition: Edition, seed: int = SETUP_SEED, players: int = PLAYERS) -> SetupExample:
    d = edition.deal(players, seed)
    state = new_game(edition, players, seed, unlucky=False)  # the first turn's roll and draw done
    name = state.name
    starter = d.starter
    drawn = [c for c in state.hands[starter] if c not in d.hands[starter]]
    return SetupExample(seed, players, tuple(tuple(name(c) for c in h) for h in d.hands), d.hands, d.opening_rolls,
                        starter + 1, len(d.station_stock) - d.hand * players, len(d.fortune_stock), state.roll,
                        name(drawn[0]) if drawn else "a Fortune Card")


def _fortune_in(edition: Edition, seed: int, players: int) -> FortuneExample | None:
    end, moves = play(edition, seed, players)
    for i, (state, action) in enumerate(moves):
        if action[0] != "fortune" or state.table.fortune[action[1]].id != FORTUNE_KIND:
            continue
        kind = state.table.fortune[action[1]]
        victim, station = action[2], action[3]
        after = state.apply(action)
        me = state.to_move
        until = next(e.until for e in after.effects  # the engine's: the caster's own turn it ends with
                     if e.kind == "disabled" and e.seat == victim and e.station == station and e.caster == me)
        back = state.turn + 1 + (until - state.own_turn()) * players  # the caster's own turn ``until``
        # the card is Active again once that turn ends, and nothing else changed the victim's field
        later = next((s for s, _ in moves[i + 1:] if station not in s.disabled(victim)), end)
        if later.turn != back or later.fields[victim] != after.fields[victim] or later.winner is not None:
            continue
        return FortuneExample(seed, players, kind.name, kind.turns, me + 1, state.turn + 1, state.own_turn(),
                              victim + 1, state.name(station), state.longest(victim), after.longest(victim),
                              until, back, later.longest(victim))
    return None


def _fortune_search(edition: Edition, players: int) -> FortuneExample:
    fallback = None
    for seed in SEARCH:
        found = _fortune_in(edition, seed, players)
        if found is not None and found.before > found.after:
            if found.before >= 3:  # a path of three or more broken
                return found
            fallback = fallback or found
    if fallback is not None:
        return fallback
    raise LookupError(f"no game of seeds {SEARCH.start}-{SEARCH.stop - 1} plays {FORTUNE_KIND} on a path")


def fortune_example(edition: Edition, players: int = PLAYERS) -> FortuneExample:
    """The first seeded game in which a player's Signal Failure breaks an opponent's path and the
    card comes back on its own (the rulebook's durations example)."""
    return _once(_fortune_search, edition, players)


def _win_in(edition: Edition, seed: int, players: int) -> WinExample | None:
    end, moves = play(edition, seed, players)
    if end.winner is None:
        return None
    w = end.winner
    last_state, last = moves[-1]
    if last[0] != "connect" or last_state.to_move != w:
        return None  # a win by a Disable running out: not the plain example
    path = end.fields[w].path(end.table.rules.path, end.disabled(w))
    assert path is not None
    cards = edition.deck.by_station
    number = {(min(a, c.neighbour), max(a, c.neighbour)): c.number for a in path for c in cards[a].connections}

    def num(a: str, b: str) -> int:
        return number[(min(a, b), max(a, b))]

    name = end.name
    return WinExample(seed, players, w + 1, end.turn + 1, end.own_turns[w] + 1, end.turn // players + 1,
                      tuple(name(s) for s in path), path, tuple(num(a, b) for a, b in zip(path, path[1:])),
                      (name(last[1]), name(last[2]), num(last[1], last[2])), len(end.fields[w].cards),
                      len(end.fields[w].links), len(end.stock),
                      len(end.fortune_plays))


def _win_search(edition: Edition, players: int) -> WinExample:
    for seed in SEARCH:
        found = _win_in(edition, seed, players)
        if found is not None:
            return found
    raise LookupError(f"no game of seeds {SEARCH.start}-{SEARCH.stop - 1} is won by a Connection")


def win_example(edition: Edition, players: int = PLAYERS) -> WinExample:
    """The first seeded game won by a Connection that completes five continuous Active stations."""
    return _once(_win_search, edition, players)
