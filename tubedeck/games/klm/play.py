"""Keep London Moving as played: the rules as a state machine (the OpenSpiel shape).

:func:`new_game` deals (:mod:`.setup`: the same seeded deal the checker reads) and returns the
first :class:`State`, which implements :class:`tubedeck.play.State`: the edition is bound at the
start (``table``), :meth:`State.legal_actions` lists what the player to move may do and
:meth:`State.apply` returns the next state (a state is never changed in place). Chance (shuffles,
the die) is fixed by the seed inside the engine, so the game shows no chance node
(``chance_outcomes()`` is empty): a game is its seed plus its actions, and a replay gives the same
log. :meth:`State.describe` says an action in a player's words, :meth:`State.observation` what one
seat sees.

The turn (rule 3.3) and its actions:

* **Unlucky Hand** (3.2), once, before the first turn, each seat in order: ``("unlucky", True)``
  puts the hand into the Station stock, shuffles it (seeded) and draws ``unlucky_hand`` (4);
  ``("unlucky", False)`` keeps the hand.
* **Phase 1**, chance, done by the engine as a turn begins: the roll. ``fortune_roll`` (6) draws a
  Fortune Card, any other face a Station Card. An empty stock is refilled by shuffling the
  discards; with both empty, **Fast Gameplay** starts (see below).
* **Phase 2**: ``("connect", a, b)`` creates a Connection between two Station Cards with the same
  Connection Number, from the hand or the player's Play Field (at most ``connections_per_turn``,
  Active cards only, a Terminus card in one Connection only) and draws a Fortune Card;
  ``("fortune", card, *targets)`` plays a Fortune Card (:mod:`.effects`, at most
  ``fortune_per_turn``); ``("end",)`` ends the turn.
* **End of turn**: above ``hand`` Station Cards or ``fortune_hand`` Fortune Cards, the player
  discards (``("discard", card)``, their choice) down to the limits.
* **Win**: five continuous (a simple path of ``path``) Active stations connected in a player's
  Play Field. It is checked after every change that can make one: a Connection, a card made
  Active again, a Disable running out.

Decisions where the rulebook is silent (README, tested):

* Each player has their own Play Field; a card is played only by creating a Connection; two
  Station Cards side by side connect only when a turn connects them.
* Durations count the caster's own turns, the turn of play excluded: "for 3 turns" played on
  own turn t lasts until the caster ends turn t + 3 (rule 3.3's example; Doors Closing's "until
  you finish your next turn" is 1).
* Fast Gameplay starts when a Station Card must be drawn and neither stock holds one; that turn
  draws nothing, and from the next turn on the roll reads: ``fast_take_hand`` (1) may take a
  Station Card from another player's hand, ``fast_take_field`` (6) may take one with at most one
  Connection from another player's Play Field (any card left without a Connection returns to its
  owner's hand), other faces nothing; no Fortune Card is drawn on a roll; the Station hand limit
  is gone (the Fortune limit stays); a card taken cannot be played that turn.
* Extra draws (Rush Hour) from empty stocks draw nothing; they never start Fast Gameplay.
* Rolls: global turn g uses the deal's g-th roll while it has one, then ``Random(f"{seed}:roll:{g}")``;
  reshuffles use ``Random(f"{seed}:stations:{k}")`` / ``fortune`` / ``unlucky``. So while no
  card effect changes the draws, the game is the checker's deal exactly.
* A game not won after ``max_turns`` turns ends without a winner.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from tubedeck.errors import UsageError
from tubedeck.play import TERMINAL, Engine

from .effects import Effect, apply_fortune, fortune_actions
from .field import PlayField, link
from .records import MAX_TURNS  # the turn limit of every played game (play, simulate)
from .setup import check_players
from .table import CardLinks

# The kind, then its arguments, whose types follow the kind (seats int, cards and lines str, a bool
# for "unlucky"; see above): Any, as the checker cannot narrow them by the kind in action[0].
Action = tuple[Any, ...]
END: Action = ("end",)
PASS: Action = ("pass",)
_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class State:
    """Everything on the table. Stocks list their top card first; discard piles list it last."""

    table: CardLinks = field(repr=False, compare=False)
    seed: int
    players: int
    rolls: tuple[int, ...] = field(repr=False)  # the deal's turn rolls
    to_move: int
    phase: str  # "unlucky" | "take" | "play" | "discard" | "over"
    starter: int = 0  # who rolled highest (the deal's opening rolls)
    turn: int = 0  # global turn index, 0-based
    roll: int = 0
    stock: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    fortune_stock: tuple[str, ...] = ()
    fortune_discards: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()  # Station Cards, sorted
    fortune_hands: tuple[tuple[str, ...], ...] = ()
    fields: tuple[PlayField, ...] = ()
    effects: tuple[Effect, ...] = ()
    own_turns: tuple[int, ...] = ()  # own turns each player has finished
    unlucky: tuple[bool, ...] = ()  # Unlucky Hand used
    connections: int = 0  # made this turn
    fortunes: int = 0  # played this turn
    fresh: frozenset[str] = frozenset()  # cards that may not be played this turn
    fast: bool = False
    fast_from: int | None = None  # the turn Fast Gameplay began
    reshuffles: int = 0
    fortune_plays: tuple[tuple[int, int, str], ...] = ()  # (turn, seat, card) of every Fortune Card played
    winner: int | None = None
    max_turns: int = MAX_TURNS

    # -- the play contract (:class:`tubedeck.play.State`) --------------------------------------
    def current_player(self) -> int:
        """The seat to decide (0-based), or TERMINAL once the game is over. Keep London Moving
        shows no chance node: the rolls and reshuffles are fixed by the seed inside the engine."""
        return TERMINAL if self.phase == "over" else self.to_move

    def chance_outcomes(self) -> tuple:
        return ()

    def dealt_outcome(self) -> None:
        return None

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, -1 for the others; all 0 while playing or in a game without a winner."""
        if self.winner is None:
            return (0.0,) * self.players
        return tuple(1.0 if p == self.winner else -1.0 for p in range(self.players))

    def own_turn(self, seat: int | None = None) -> int:
        """The 1-based own turn ``seat`` (default: the player to move) is playing or will play next."""
        return self.own_turns[self.to_move if seat is None else seat] + 1

    def disabled(self, seat: int) -> frozenset[str]:
        if not self.effects:
            return _NONE
        return frozenset(e.station for e in self.effects if e.kind == "disabled" and e.seat == seat)

    def longest(self, seat: int) -> int:
        """The longest path of connected Active cards in ``seat``'s Play Field, up to ``path``."""
        return self.fields[seat].longest(self.table.rules.path, self.disabled(seat))

    def has_effect(self, kind: str, seat: int) -> bool:
        return any(e.kind == kind and e.seat == seat for e in self.effects)

    def legal_actions(self) -> tuple[Action, ...]:
        if self.phase == "unlucky":
            return (("unlucky", False), ("unlucky", True))
        if self.phase == "take":
            return self._takes() + (PASS,)
        if self.phase == "play":
            return self.connect_actions() + fortune_actions(self) + (END,)
        if self.phase == "discard":
            me, r = self.to_move, self.table.rules
            over = self.hands[me] if not self.fast and len(self.hands[me]) > r.hand else self.fortune_hands[me]
            return tuple(("discard", c) for c in over)
        return ()

    def is_legal(self, action: Action) -> bool:
        """``action in legal_actions()``, computing only the actions of its kind."""
        kind = action[0] if action else None
        if self.phase == "play" and kind == "connect":
            return action in self.connect_actions()
        if self.phase == "play" and kind == "fortune":
            return action in fortune_actions(self, action[1])
        if self.phase == "play":
            return action == END
        return action in self.legal_actions()

    def connect_actions(self) -> tuple[Action, ...]:
        me, t = self.to_move, self.table
        if self.connections >= t.rules.connections_per_turn or self.has_effect("blocked", me):
            return ()
        fld, off = self.fields[me], self.disabled(me)
        usable = [c for c in self.hands[me] if c not in self.fresh]
        usable += [c for c in fld.cards if c not in off and not (c in t.termini and fld.degree(c))]
        pool = set(usable)
        out = []
        for a in sorted(pool):
            for b in t.adjacency[a]:
                if a < b and b in pool and link(a, b) not in fld.links:
                    out.append(("connect", a, b))
        return tuple(out)

    def _takes(self) -> tuple[Action, ...]:
        me, r = self.to_move, self.table.rules
        if self.roll == r.fast_take_hand:
            return tuple(("take", p, c) for p in range(self.players) if p != me for c in self.hands[p])
        return tuple(("take", p, c) for p in range(self.players) if p != me
                     for c in sorted(self.fields[p].cards) if self.fields[p].degree(c) <= 1)

    def apply(self, action: Action) -> "State":
        """The state after ``action`` (UsageError if it is not legal here)."""
        if not self.is_legal(action):
            raise UsageError(f"{action!r} is not a legal action in phase {self.phase!r}")
        kind = action[0]
        if kind == "unlucky":
            return self._unlucky(bool(action[1]))
        if kind == "take":
            return self._take(action[1], action[2])
        if kind == "pass":
            return self.evolve(phase="play")
        if kind == "connect":
            return self._connect(action[1], action[2])
        if kind == "fortune":
            return apply_fortune(self, action)
        if kind == "discard":
            return self._discard(action[1])
        return self._end()

    # -- in words -------------------------------------------------------------------------------
    def clock(self) -> str:
        """``before the first turn`` while seats choose Unlucky Hand, then ``turn N`` (every
        player's turns counted together, 1-based)."""
        return "before the first turn" if self.phase == "unlucky" else f"turn {self.turn + 1}"

    def name(self, card: str) -> str:
        """A Station Card's station name or a Fortune Card's name."""
        t = self.table
        return t.names[card] if card in t.names else t.fortune[card].name if card in t.fortune else str(card)

    def describe(self, action: Action) -> str:
        """``action`` as the player to move would say it: station and card names, seats 1-based."""
        kind, name = action[0], self.name
        if kind == "connect":
            return f"connects {name(action[1])} - {name(action[2])}"
        if kind == "fortune":
            return self._say_fortune(action)
        if kind == "discard":
            return f"discards {name(action[1])}"
        if kind == "take":
            seat, card = action[1], action[2]
            where = "hand" if card in self.hands[seat] else "Play Field"
            return f"takes {name(card)} from player {seat + 1}'s {where}"
        if kind == "unlucky":
            return "uses Unlucky Hand" if action[1] else "keeps the hand"
        if kind == "pass":
            return "passes"
        if kind == "end":
            return "ends the turn"
        return " ".join(map(str, action))

    def _say_fortune(self, action: Action) -> str:
        kind, args, name = self.table.fortune[action[1]], action[2:], self.name
        said = f"plays {kind.name}"
        if not args:
            return said
        if kind.action == "disable" and (kind.target == "all_opponents" or kind.by_line):
            return f"{said} on the {self.table.line_names.get(args[0], args[0])} line"
        if kind.action == "disable":
            return f"{said} on player {args[0] + 1}'s " + " - ".join(name(c) for c in args[1:])
        if kind.action == "enable":
            return f"{said} on {name(args[0])}"
        if kind.action == "discard_fortune":
            return f"{said}: player {args[0] + 1} discards {name(args[1])}"
        if kind.action == "block_connection":
            return f"{said} on player {args[0] + 1}"
        return f"{said} (" + ", ".join(f"player {x + 1}" if isinstance(x, int) else name(x) for x in args) + ")"

    def observation(self, seat: int) -> dict:
        """What ``seat`` sees (JSON-able; seats 0-based as in actions): its own hands, every Play
        Field, the lasting effects (a Protect card lies face up), the top card of each discard pile
        ("only the top discard is visible"), and counts of the stocks, the discards and the other
        hands. Not the other hands' cards, not the stocks' order."""
        mine = seat == self.to_move
        return {
            "seat": seat, "players": self.players, "to_move": self.to_move, "phase": self.phase,
            "turn": self.turn, "starter": self.starter, "roll": self.roll,
            "hand": list(self.hands[seat]), "fortune_hand": list(self.fortune_hands[seat]),
            "hand_sizes": [len(h) for h in self.hands], "fortune_hand_sizes": [len(h) for h in self.fortune_hands],
            "fields": [{"cards": sorted(f.cards), "links": [list(pair) for pair in sorted(f.links)]}
                       for f in self.fields],
            "effects": [{"kind": e.kind, "seat": e.seat, "caster": e.caster, "until": e.until,
                         "station": e.station, "card": e.card} for e in self.effects],
            "stock": len(self.stock), "fortune_stock": len(self.fortune_stock),
            "discards": len(self.discards), "top_discard": self.discards[-1] if self.discards else None,
            "fortune_discards": len(self.fortune_discards),
            "top_fortune_discard": self.fortune_discards[-1] if self.fortune_discards else None,
            "own_turns": list(self.own_turns), "unlucky": list(self.unlucky),
            "connections": self.connections if mine else 0, "fortunes": self.fortunes if mine else 0,
            "fresh": sorted(c for c in self.fresh if c in self.hands[seat] or c in self.fortune_hands[seat])
            if mine else [],
            "fast": self.fast, "fortune_plays": [list(p) for p in self.fortune_plays], "winner": self.winner,
        }

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A state ``seat`` cannot tell from this one (:func:`tubedeck.play.determinize`): the
        cards it cannot see (the stocks, the discards under their top card, the other hands) dealt
        again at random into the same places and sizes, and the rolls and reshuffles to come from a
        new seed. Built from what ``observation(seat)`` shows and ``rng`` only."""
        others = [p for p in range(self.players) if p != seat]

        def redeal(stock, discards, hands):
            pool = sorted(stock + discards[:-1] + tuple(c for p in others for c in hands[p]))
            rng.shuffle(pool)
            out, k = list(hands), len(stock)
            new_stock = tuple(pool[:k])
            new_discards = tuple(pool[k:k + max(0, len(discards) - 1)]) + discards[-1:]
            k += max(0, len(discards) - 1)
            for p in others:
                out[p], k = tuple(sorted(pool[k:k + len(hands[p])])), k + len(hands[p])
            return new_stock, new_discards, tuple(out)

        stock, discards, hands = redeal(self.stock, self.discards, self.hands)
        fstock, fdiscards, fhands = redeal(self.fortune_stock, self.fortune_discards, self.fortune_hands)
        return self.evolve(stock=stock, discards=discards, hands=hands, fortune_stock=fstock,
                           fortune_discards=fdiscards, fortune_hands=fhands, seed=rng.getrandbits(62),
                           rolls=(0,) * self.turn + (self.roll,))

    # -- helpers the effects use --------------------------------------------------------------
    def evolve(self, **changes) -> "State":
        """A copy with ``changes`` (the one way a new state is made)."""
        new = object.__new__(State)  # frozen: no __init__ checks to repeat, so a plain dict copy (fast)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return new

    def with_seat(self, name: str, seat: int, value) -> tuple:
        items = getattr(self, name)
        return items[:seat] + (value,) + items[seat + 1:]

    def draw_station(self, seat: int) -> tuple["State", bool]:
        """``seat`` draws a Station Card; refill from the discards first. False: none to draw."""
        state = self._refill() if not self.stock else self
        if not state.stock:
            return state, False
        card = state.stock[0]
        hand = tuple(sorted(state.hands[seat] + (card,)))
        return state.evolve(stock=state.stock[1:], hands=state.with_seat("hands", seat, hand)), True

    def draw_fortune(self, seat: int, fresh: bool = False) -> "State":
        state = self
        if not state.fortune_stock and state.fortune_discards:
            pile = list(state.fortune_discards)
            random.Random(f"{self.seed}:fortune:{self.reshuffles}").shuffle(pile)
            state = state.evolve(fortune_stock=tuple(pile), fortune_discards=(), reshuffles=state.reshuffles + 1)
        if not state.fortune_stock:
            return state
        card = state.fortune_stock[0]
        return state.evolve(fortune_stock=state.fortune_stock[1:],
                            fortune_hands=state.with_seat("fortune_hands", seat, state.fortune_hands[seat] + (card,)),
                            fresh=state.fresh | {card} if fresh else state.fresh)

    def settle(self, seats) -> "State":
        """Declare the first of ``seats`` whose Play Field holds a winning path the winner."""
        length = self.table.rules.path
        for seat in seats:
            if self.longest(seat) >= length:
                return self.evolve(phase="over", winner=seat)
        return self

    # -- the steps ----------------------------------------------------------------------------
    def _refill(self) -> "State":
        if not self.discards:
            return self
        pile = list(self.discards)
        random.Random(f"{self.seed}:stations:{self.reshuffles}").shuffle(pile)
        return self.evolve(stock=tuple(pile), discards=(), reshuffles=self.reshuffles + 1)

    def _unlucky(self, use: bool) -> "State":
        me, state = self.to_move, self
        if use:
            pile = list(self.stock + self.hands[me])
            random.Random(f"{self.seed}:unlucky:{me}").shuffle(pile)
            n = self.table.rules.unlucky_hand
            state = self.evolve(stock=tuple(pile[n:]), hands=self.with_seat("hands", me, tuple(sorted(pile[:n]))),
                                unlucky=self.with_seat("unlucky", me, True))
        if me + 1 < self.players:
            return state.evolve(to_move=me + 1)
        return state.evolve(to_move=self.starter)._begin()

    def _begin(self) -> "State":
        """Phase 1 of the turn of ``to_move``: the roll and the draw."""
        g, r, me = self.turn, self.table.rules, self.to_move
        roll = self.rolls[g] if g < len(self.rolls) else random.Random(f"{self.seed}:roll:{g}").randint(1, r.die)
        state = self.evolve(roll=roll, phase="play", connections=0, fortunes=0, fresh=frozenset())
        if state.fast:
            return state.evolve(phase="take") if roll in (r.fast_take_hand, r.fast_take_field) and state._takes() \
                else state
        if roll == r.fortune_roll:
            return state.draw_fortune(me)
        state, drawn = state.draw_station(me)
        return state if drawn else state.evolve(fast=True, fast_from=g)

    def _take(self, seat: int, card: str) -> "State":
        me = self.to_move
        hands = list(self.hands)
        fields_ = list(self.fields)
        effects = self.effects
        if card in self.hands[seat]:
            hands[seat] = tuple(c for c in hands[seat] if c != card)
        else:
            fields_[seat], orphans = self.fields[seat].without(card)
            hands[seat] = tuple(sorted(hands[seat] + orphans))
            gone = {card, *orphans}  # cards in hand have no status
            effects = tuple(e for e in effects if not (e.kind == "disabled" and e.seat == seat and e.station in gone))
        hands[me] = tuple(sorted(hands[me] + (card,)))
        return self.evolve(hands=tuple(hands), fields=tuple(fields_), effects=effects, phase="play",
                           fresh=self.fresh | {card})

    def _connect(self, a: str, b: str) -> "State":
        me = self.to_move
        hand = tuple(c for c in self.hands[me] if c not in (a, b))
        state = self.evolve(hands=self.with_seat("hands", me, hand),
                            fields=self.with_seat("fields", me, self.fields[me].connect(a, b)),
                            connections=self.connections + 1)
        return state.draw_fortune(me).settle((me,))

    def _discard(self, card: str) -> "State":
        me = self.to_move
        if card in self.hands[me]:
            state = self.evolve(hands=self.with_seat("hands", me, tuple(c for c in self.hands[me] if c != card)),
                                discards=self.discards + (card,))
        else:
            state = self.evolve(fortune_hands=self.with_seat("fortune_hands", me,
                                                             tuple(c for c in self.fortune_hands[me] if c != card)),
                                fortune_discards=self.fortune_discards + (card,))
        return state._end()

    def _end(self) -> "State":
        me, r = self.to_move, self.table.rules
        if (not self.fast and len(self.hands[me]) > r.hand) or len(self.fortune_hands[me]) > r.fortune_hand:
            return self.evolve(phase="discard")
        done = self.own_turns[me] + 1
        expired = [e for e in self.effects if e.caster == me and e.until <= done]
        state = self.evolve(own_turns=self.with_seat("own_turns", me, done),
                            effects=tuple(e for e in self.effects if e not in expired),
                            fortune_discards=self.fortune_discards + tuple(e.card for e in expired if e.card))
        woken = sorted({e.seat for e in expired if e.kind == "disabled"})
        state = state.settle([(me + k) % self.players for k in range(self.players)
                              if (me + k) % self.players in woken])
        if state.winner is not None:
            return state
        state = state.evolve(to_move=(me + 1) % self.players, turn=self.turn + 1)
        if state.turn >= self.max_turns:
            return state.evolve(phase="over")
        return state._begin()



def new_game(edition, players: int, seed: int, max_turns: int = MAX_TURNS, unlucky: bool = True) -> State:
    """Deal ``edition`` for ``players`` with ``seed`` (:func:`tubedeck.games.klm.setup.deal`): the
    hands, both stocks and the rolls. ``unlucky=False`` skips the Unlucky Hand decisions."""
    table = edition.table
    check_players(players, table.rules)
    if not 1 <= max_turns <= 100_000:
        raise UsageError(f"max_turns must be 1-100000, got {max_turns}")
    d = edition.deal(players, seed)
    dealt = d.hand * players
    state = State(table, seed, players, d.turn_rolls, 0, "unlucky", d.starter, stock=d.station_stock[dealt:],
                  fortune_stock=d.fortune_stock, hands=tuple(tuple(sorted(h)) for h in d.hands),
                  fortune_hands=((),) * players, fields=(PlayField(),) * players, own_turns=(0,) * players,
                  unlucky=(False,) * players, max_turns=max_turns)
    return state if unlucky else state.evolve(to_move=d.starter)._begin()


# The engine bound to the play contract (tubedeck.play.State): mypy checks every method, so drift fails `make lint`.
ENGINE: Engine[Action] = new_game
