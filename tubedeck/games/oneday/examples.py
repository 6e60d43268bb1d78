"""One Day in London's worked examples for the rulebook: one seeded game, replayed by the engine.

The game is two ``lookahead`` bots, seed :data:`SEED`, as ``tubedeck play oneday --players 2 --seed 1
--bots lookahead`` plays it. Its actions are stored here (:data:`ACTIONS`: the bots ran once, the
solver is not imported) and replayed through :mod:`.play`, so every card, slot and turn the
rulebook prints is the engine's: change a rule or the deck and the replay changes, or refuses an
action that is no longer legal (``UsageError``), and the rulebook's test fails.

Three examples come out of the one game (engine only, no generator import):

* :func:`setup_example`: the table after setup (both racks, slot 1 first; the three discard piles'
  cards; the draw pile's size; who plays first);
* :func:`exchange_example`: the first turn: a card drawn from a discard pile, exchanged into a slot,
  the card it replaces discarded (onto the emptied pile, as the rule for an empty pile says);
* :func:`winning_example`: the winner's rack at the end and its rides (line by line).

The recorded actions fit the London recipe only; on another city's edition, where they do not
replay, the examples come from a seeded game the engine plays with a plain policy (:func:`_found`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tubedeck.errors import NotApplicable, UsageError
from tubedeck.play import history

from .edition import Edition
from .journey import validate
from .play import STOCK, Action, State, new_game

SEED = 1
PLAYERS = 2

# The seeded game's actions, in order, as short words: P6 places the drawn card in slot 6 (setup),
# D2 draws the top of discard pile 2, DS draws from the draw pile, X8 exchanges the drawn card for
# the card in slot 8, K keeps the rack (the drawn card is discarded), T1 discards onto pile 1.
ACTIONS = (
    "P6 P6 P5 P5 P7 P7 P4 P4 P8 P3 P3 P8 P9 P2 P2 P1 P10 P9 P1 P10 "
    "D2 X8 T2 D3 X7 T3 DS K T1 D1 X6 T1 " + "DS K T1 " * 13 + "DS X3 T1 " + "DS K T1 " * 6
    + "DS X3 T1 " + "DS K T1 " * 3 + "DS X6 T1"
)


def actions(text: str = ACTIONS) -> tuple[Action, ...]:
    """The short words of :data:`ACTIONS` as engine actions (slots and piles 0-based)."""
    out: list[Action] = []
    for word in text.split():
        kind, arg = word[0], word[1:]
        if kind == "P":
            out.append(("place", int(arg) - 1))
        elif kind == "D":
            out.append(("draw", STOCK if arg == "S" else int(arg) - 1))
        elif kind == "X":
            out.append(("exchange", int(arg) - 1))
        elif kind == "K":
            out.append(("keep", None))
        elif kind == "T":
            out.append(("discard", int(arg) - 1))
        else:
            raise ValueError(f"unknown action word {word!r}")
    return tuple(out)


@dataclass(frozen=True)
class Game:
    """The example game: its seed and players, every action and every state (the first included)."""

    seed: int
    players: int
    actions: tuple[Action, ...]
    states: tuple[State, ...]
    recorded: bool  # the London game of :data:`ACTIONS`; False: found by :func:`_found` for this edition


def _states(edition: Edition, players: int, seed: int, acts: tuple[Action, ...]) -> tuple[State, ...]:
    return history(new_game(edition, players, seed), acts)


def _found(edition: Edition, tries: int = 40) -> Game:
    """Another city's recipe: a seeded game the engine plays with a plain policy (win at once if an
    exchange makes the rack a journey, else the exchange that links the most neighbouring slots by a
    line; other choices random, seeded), the first of ``tries`` seeds from :data:`SEED` that ends
    with a winner."""
    players = edition.rules.players_min
    for seed in range(SEED, SEED + tries):
        rng = random.Random(f"rulebook-example-{seed}")
        state = new_game(edition, players, seed)
        acts: list[Action] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            action = rng.choice(legal)
            if state.phase == "exchange":  # the exchange that links the most neighbouring slots
                seat = state.to_move
                action = max(legal, key=lambda a: (state.apply(a).has_journey(seat),
                                                   _linked(edition, state.apply(a).racks[seat]), a == action))
            acts.append(action)
            state = state.apply(action)
        if state.winner is not None and state.turn > 0 and _pile_exchange(tuple(acts)) is not None:
            return Game(seed, players, tuple(acts), _states(edition, players, seed, tuple(acts)), False)
    raise NotApplicable(f"no worked example for the rulebook: none of {tries} seeded games on this edition was won")


def _linked(edition: Edition, rack) -> int:
    """How many neighbouring slots of ``rack`` share a line (the plain policy's measure)."""
    gmap = edition.board
    return sum(1 for a, b in zip(rack, rack[1:])
               if a is not None and b is not None and a.station != b.station and gmap.common_lines(a.station, b.station))


def _pile_exchange(acts: tuple[Action, ...]) -> int | None:
    """The index of the first draw from a discard pile that is then exchanged into the rack."""
    return next((k for k, (kind, arg) in enumerate(acts[:-1])
                 if kind == "draw" and arg != STOCK and acts[k + 1][0] == "exchange"), None)


def replay(edition: Edition) -> Game:
    """The example game on ``edition``: the recorded London game, replayed by the engine; on an
    edition where it does not replay (another city's recipe), a game found by :func:`_found`."""
    try:
        states = _states(edition, PLAYERS, SEED, actions())
    except UsageError:
        return _found(edition)
    if states[-1].winner is None:  # it replays, but on another deck: no winner at its end
        return _found(edition)
    return Game(SEED, PLAYERS, actions(), states, True)


@dataclass(frozen=True)
class Card:
    """A card as a figure draws it: the station's name and its lines (line ids, the card's order)."""

    name: str
    lines: tuple[str, ...]


def _card(c) -> Card:
    return Card(c.name, tuple(b.line for b in c.bands))


@dataclass(frozen=True)
class SetupExample:
    """The table once every rack is full: racks (slot 1 first), each discard pile's one face-up card,
    the draw pile's size, and the player who takes the first turn (1-based)."""

    seed: int
    players: int
    racks: tuple[tuple[Card, ...], ...]
    piles: tuple[Card, ...]
    draw_pile: int
    first: int
    placements: int  # setup actions: one card at a time, round the table


@dataclass(frozen=True)
class ExchangeExample:
    """One legal turn: ``player`` draws ``drawn`` from discard pile ``from_pile`` (1-based), puts it in
    ``slot`` in place of ``replaced`` and discards ``replaced`` onto pile ``to_pile``;
    ``forced``: that pile was the empty one, so the rule sent the discard there."""

    turn: int
    player: int
    from_pile: int
    drawn: str
    slot: int
    replaced: str
    to_pile: int
    forced: bool
    piles_after: tuple[str, ...]  # each pile's top after the turn


@dataclass(frozen=True)
class Ride:
    """A ride of the winning journey: a line and the stops on it, boarding first."""

    line: str  # the line's name
    stops: tuple[str, ...]


@dataclass(frozen=True)
class WinningExample:
    """The end of the game: the winner (1-based), the turn (counted over both players) and the
    winner's own turns, the rack (slot 1 first) and its rides; the exchanges the winner made."""

    seed: int
    players: int
    winner: int
    turn: int
    own_turns: int
    exchanges: int
    rack: tuple[Card, ...]
    rides: tuple[Ride, ...]
    reshuffles: int


def setup_example(edition: Edition) -> SetupExample:
    game = replay(edition)
    after = next(s for s in game.states if s.phase != "setup")
    placed = sum(1 for a in game.actions if a[0] == "place")
    racks = tuple(tuple(_card(c) for c in rack if c is not None) for rack in after.racks)
    return SetupExample(game.seed, game.players, racks, tuple(_card(p[-1]) for p in after.piles), len(after.stock),
                        after.to_move + 1, placed)


def exchange_example(edition: Edition) -> ExchangeExample:
    """The first turn that draws from a discard pile and exchanges the card into the rack."""
    game = replay(edition)
    states, acts = game.states, game.actions
    k = _pile_exchange(acts)
    assert k is not None  # the recorded game has one; a found game is chosen for one
    before, held, exchanged, after = states[k], states[k + 1], states[k + 2], states[k + 3]
    pile, slot, to = acts[k][1], acts[k + 1][1], acts[k + 2][1]
    assert held.holding is not None and exchanged.holding is not None
    forced = list(exchanged.legal_actions()) == [("discard", to)] and len(exchanged.piles) > 1
    return ExchangeExample(before.turn + 1, before.to_move + 1, pile + 1, held.holding.name, slot + 1,
                           exchanged.holding.name, to + 1, forced,
                           tuple(p[-1].name if p else "" for p in after.piles))


def winning_example(edition: Edition) -> WinningExample:
    game = replay(edition)
    states, acts = game.states, game.actions
    end = states[-1]
    if end.winner is None:
        raise NotApplicable("the recorded game has no winner on this edition")
    seat = end.winner
    rack = end.racks[seat]
    verdict = validate(edition.board, [c.station for c in rack if c is not None])
    assert verdict.journey is not None
    gmap = edition.board
    rides = tuple(Ride(gmap.lines[r.line].name, tuple(gmap.name(s) for s in r.stops)) for r in verdict.journey.rides)
    own = sum(1 for s, a in zip(states, acts) if s.to_move == seat and a[0] == "draw")
    exchanges = sum(1 for s, a in zip(states, acts) if s.to_move == seat and a[0] == "exchange")
    return WinningExample(game.seed, game.players, seat + 1, end.turn, own, exchanges,
                          tuple(_card(c) for c in rack if c is not None), rides, end.reshuffles)
