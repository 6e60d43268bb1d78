"""Keep Moving as played: the rules as a state machine in the OpenSpiel shape.

A :class:`State` is never changed once returned: :meth:`State.apply` gives the next one. At a
**chance node** (``current_player() == CHANCE``) :meth:`State.chance_outcomes` lists the
outcomes and their probabilities: a die roll, a card drawn from a pile (piles are multisets: a
draw from a shuffled pile is uniform over its cards), a card stolen. Elsewhere
:meth:`State.legal_actions` lists the decisions of ``current_player()``. Setup (the layout, the
piles, starting positions and player, the first hands) is dealt by ``random.Random(seed)``, so a
game is its seed plus its actions and chance outcomes. The state implements the play contract
(:mod:`tubedeck.play`): ``new_game(edition, players, seed)`` binds the edition, no method takes it
again; every chance node is the driver's to draw (``dealt_outcome()`` is None), from
``random.Random(f"{seed}:chance")``; ``describe`` words an action with its positions and life
cubes, ``observation(seat)`` is what a seat sees.

Actions: ``("play", card)``, ``("play", "push", -1|1)``, ``("play", "exchange", i, j|"pile")``,
``("end",)`` after a blue card, ``("pass",)`` with nothing playable, ``("dir", -1|1)`` to move
left or right, ``("protect",)`` / ``("accept",)`` when Protection may answer.

Decisions where the text is silent or contradicts itself (the README lists them; each is tested):

* Each set has 33 movement cards with RANDOM 7x (the card list; "1x Random" in the setup would
  leave 27). Each player's own pile holds those 33 and the 3 function cards dealt at setup; played
  function cards go to the player's discard and come back with the next reshuffle.
* A ground card has at most one symbol, on side A; setup lays symbol sides up and other cards a
  seeded random side up. The ground pile is an ordered stack, top first.
* Only the card a meeple lands on is entered; the cards it passes over do nothing. A move may
  not pass the end of the row; if neither direction fits (Double, up to 12), the meeple stops on
  the end card in the direction chosen.
* Lava returns the cube to the supply; grassland takes one from the supply if there is one.
  Entering a card applies its kind first, then its Function symbol (draw a function card unless
  the hand is full or the function pile is empty).
* The mover's card is resolved before the pushed meeple's; the first meeple out of cubes loses.
* A Lock forbids its numbers on the opponent's next turn: a ONE..SIX card with that number and a
  die card or Double whose die shows only forbidden numbers cannot be played; a forbidden roll
  moves nothing (the card is spent). Double's lock test is the die, not the doubled distance.
* Stun: on the next turn the opponent draws but plays nothing (Protection stays allowed). Lock
  and Stun reminders go to their player's discard at once (no draw can reach them before they
  expire). Swap: both landing cards count, the swapper's first; no card turns over.
* Protection (the only green card) answers Push, Swap, Steal, Stun and the Locks (the card has
  no effect), or the life a player would lose on lava entered by their own move or Swap; never a
  meeple pushed by the other meeple or by a Push card it let through.
* A player must play a card if one is playable (else the turn passes); after a blue card they may
  play another or end. New Hand draws one more card than it discarded, up to the hand limit.
* Replace, Exchange and Relocation swap cards with the ground pile one for one, so it keeps its
  14 cards; should it be empty (a hand-made position), a Replace card is turned over instead.
* Exchange: two empty row cards change places, or an empty row card goes under the ground pile
  turned over and the pile's top card (as it lies) takes its place. Relocation does that for every
  empty row card, left to right.
* A game still running after ``max_turns`` turns is drawn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Hashable

from tubedeck.errors import UsageError
from tubedeck.play import CHANCE, TERMINAL, Engine

from .edition import Edition
from .resolve import resolve_answer, run

Action = tuple[Hashable, ...]


@dataclass(slots=True, eq=False, repr=False)
class State:
    """Everything on the table. ``row`` and ``gpile`` hold ``(card index, side up)``; hands,
    own piles and the function pile are sorted tuples (multisets); ``pending`` is the queue of
    steps still to resolve; ``options`` the decisions or outcomes of the current node. Seats are
    0 and 1; ``first`` is who started, ``turn`` the turns finished so far."""

    edition: Edition = field(compare=False, repr=False)  # bound at the start: no method takes it
    row: tuple
    gpile: tuple
    pos: tuple[int, ...]  # one a seat
    lives: tuple[int, ...]  # one a seat
    supply: int
    hand: tuple
    pile: tuple
    discard: tuple
    fpile: tuple
    locks: tuple[int, ...]  # a bit mask of forbidden numbers a seat
    stunned: tuple[bool, ...]
    to_move: int
    first: int
    turn: int
    phase: str  # "run" (resolving), "chance", "decide" or "over"
    decider: int
    pending: tuple
    options: tuple
    winner: int | None
    ended: str
    seed: int
    players: int = 2  # Keep Moving is for 2: not part of key()

    def _copy(self) -> "State":
        """A copy for :meth:`apply` to change (the engine's commonest step: one plain assignment a
        field, about half the time of a call to ``__init__``)."""
        new = _new(State)
        new.edition = self.edition
        new.row = self.row
        new.gpile = self.gpile
        new.pos = self.pos
        new.lives = self.lives
        new.supply = self.supply
        new.hand = self.hand
        new.pile = self.pile
        new.discard = self.discard
        new.fpile = self.fpile
        new.locks = self.locks
        new.stunned = self.stunned
        new.to_move = self.to_move
        new.first = self.first
        new.turn = self.turn
        new.phase = self.phase
        new.decider = self.decider
        new.pending = self.pending
        new.options = self.options
        new.winner = self.winner
        new.ended = self.ended
        new.seed = self.seed
        new.players = self.players
        return new

    __copy__ = _copy

    def key(self) -> tuple:
        """Everything but the edition: equal keys are equal positions (replays, tests, memos)."""
        return _key(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and _key(self) == _key(other)

    def __hash__(self) -> int:
        return hash(_key(self))

    def __repr__(self) -> str:
        return (f"State(turn={self.turn}, to_move={self.to_move}, phase={self.phase}, pos={self.pos}, "
                f"lives={self.lives}, supply={self.supply}, hand={self.hand}, row={self.row}, seed={self.seed})")

    # -- the play contract (tubedeck.play.State) --------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_player(self) -> int:
        phase = self.phase
        return CHANCE if phase == "chance" else TERMINAL if phase == "over" else self.decider

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        return list(self.options) if self.phase == "chance" else []

    def dealt_outcome(self) -> None:
        """None: setup deals the layout and the first hands; every later draw and roll is a chance
        node the driver draws (from ``Random(f"{seed}:chance")``)."""
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        return self.options if self.phase == "decide" else ()

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def apply(self, action: Hashable) -> "State":
        """The state after a decision or a chance outcome (UsageError if not allowed here)."""
        if self.phase == "chance":
            if action not in {o for o, _ in self.options}:
                raise UsageError(f"{action!r} is not a chance outcome here")
        elif self.phase != "decide" or action not in self.options:
            raise UsageError(f"{action!r} is not a legal action here ({self.phase})")
        s = self._copy()
        step, s.pending = s.pending[0], s.pending[1:]
        resolve_answer(s, step, action)
        run(s)
        return s

    def clock(self) -> str:
        """The turn in play, counted from 1 (both players' turns count)."""
        return f"turn {self.turn + 1}"

    def describe(self, action: Hashable) -> str:
        """The action in a player's words, with what it did: cards by name, ground cards by their
        position from the left (1-14), life cubes. A chance outcome names its player."""
        return describe(self, action)

    def observation(self, seat: int) -> dict:
        """What ``seat`` (0 or 1) sees: its own hand, both meeples and their cubes, the row's up
        sides, both discards (face up), the reminders, and only the sizes of the other hand, the
        piles and the ground pile (never their cards or order). Positions and seats count from 1."""
        if seat not in (0, 1):
            raise UsageError(f"seat {seat!r}: Keep Moving has seats 0 and 1")
        o = 1 - seat
        asked = self.pending[0][0] if self.phase in ("chance", "decide") else None
        return {
            "seat": seat + 1, "turn": self.turn + 1, "to_move": self.to_move + 1, "first": self.first + 1,
            "deciding": self.decider + 1 if self.phase == "decide" else None, "asked": asked,
            "legal_actions": [list(a) for a in self.options] if self.phase == "decide" and self.decider == seat else [],
            "row": [{"position": i + 1, "kind": self.side(i).kind, "symbol": self.side(i).symbol}
                    for i in range(len(self.row))],
            "meeples": [p + 1 for p in self.pos], "cubes": list(self.lives), "supply": self.supply,
            "hand": list(self.hand[seat]), "other_hand": len(self.hand[o]),
            "piles": [len(p) for p in self.pile], "discards": [list(d) for d in self.discard],
            "function_pile": len(self.fpile), "ground_pile": len(self.gpile),
            "locks": [[n for n in range(1, 7) if m >> n & 1] for m in self.locks], "stunned": list(self.stunned),
            "over": self.phase == "over", "winner": None if self.winner is None else self.winner + 1,
        }

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A state ``seat`` cannot tell from this one (:func:`tubedeck.play.determinize`): the
        cards it cannot see (both own piles, the other hand, the function pile) dealt again at
        random into the same places and sizes (the function pile from function cards only), and
        the ground pile's order shuffled. Built from what ``observation(seat)`` shows and ``rng``."""
        o = 1 - seat
        functions = set(self.edition.function_deck)
        pool = sorted(self.pile[0] + self.pile[1] + self.hand[o] + self.fpile)
        rng.shuffle(pool)
        fn = [c for c in pool if c in functions]
        fpile, rest = fn[:len(self.fpile)], [c for c in pool if c not in functions] + fn[len(self.fpile):]
        rng.shuffle(rest)
        piles, k = [(), ()], 0
        for p in (0, 1):
            piles[p], k = tuple(sorted(rest[k:k + len(self.pile[p])])), k + len(self.pile[p])
        hands = list(self.hand)
        hands[o] = tuple(sorted(rest[k:]))
        gpile = sorted(self.gpile)
        rng.shuffle(gpile)
        s = self._copy()
        s.pile, s.hand, s.fpile, s.gpile, s.seed = tuple(piles), tuple(hands), tuple(sorted(fpile)), tuple(gpile), 0
        return s

    # -- views ------------------------------------------------------------------------------------
    def side(self, position: int):
        """The ground card side up at a row position."""
        index, up = self.row[position]
        return self.edition.ground[index].sides[up]

    @property
    def opponent(self) -> int:
        return 1 - self.to_move


_new = object.__new__
_FIELDS = tuple(f.name for f in fields(State) if f.name not in ("edition", "players"))
_key = attrgetter(*_FIELDS)


# -- words ------------------------------------------------------------------------------------------
def card_name(edition: Edition, card: str) -> str:
    """``"lock-even"`` -> ``"Lock Even"`` (the card's printed name, in title case)."""
    c = edition.cards.get(card)
    return (c.name if c is not None else card.replace("-", " ")).title()


def _cubes(n: int) -> str:
    return f"{n} cube{'' if n == 1 else 's'}"


def _landing(after: State, q: int, before: State) -> str:
    """``position 5 (lava: 9 cubes left)``: where seat ``q`` stands after, and what it did to its cubes."""
    kind, d = after.side(after.pos[q]).kind, after.lives[q] - before.lives[q]
    cubes = f": {_cubes(after.lives[q])} left" if d < 0 else f": {_cubes(after.lives[q])}" if d > 0 else ""
    return f"position {after.pos[q] + 1} ({kind}{cubes})"


def _what(s: State, action) -> tuple[str, int | None]:
    """The words of the action itself, and the seat whose own move it may be."""
    step = s.pending[0]
    ed = s.edition
    if s.phase == "chance":
        kind, p = step[0], step[1]
        who = f"player {p + 1}"
        if kind == "draw":
            return f"{who} draws {card_name(ed, action)}", None
        if kind == "fdraw":
            return f"{who} draws the function card {card_name(ed, action)}", None
        if kind == "steal":
            return f"{who} steals {card_name(ed, action)} from player {2 - p}", None
        if kind == "roll":
            rolled = f"{who} rolls {action}" + (f", doubled: {action * step[3]}" if step[3] > 1 else "")
            if s.locks[p] >> action & 1:
                return f"{rolled} (locked: no move)", None
            return rolled, p
        return f"{who}: {action}", None
    kind, me = action[0], s.decider
    if kind == "play":
        card = action[1]
        words = f"plays {card_name(ed, card)}"
        c = ed.card(card)
        if getattr(c, "action", None) == "move":
            return words, me
        if card == "push":
            return f"{words}, {'left' if action[2] < 0 else 'right'}", None
        if card == "exchange" and action[3] == "pile":
            return (f"{words}: the ground card at position {action[2] + 1} goes under the ground pile, the pile's "
                    f"top card takes its place"), None
        if card == "exchange":
            return f"{words}: the ground cards at positions {action[2] + 1} and {action[3] + 1} change places", None
        if card == "relocation":
            return f"{words}: every ground card without a meeple is replaced from the ground pile", None
        return words, None
    if kind == "dir":  # the move itself says how far and where to (describe)
        return "", me
    if kind == "end":
        return "ends the turn", None
    if kind == "pass":
        return "passes (nothing playable)", None
    if kind in ("protect", "accept") and step[0] in ("lava", "answer"):
        if step[0] == "lava":
            against = "the lava"
        else:  # ("answer", who, effect): the effect the other player's card would have
            effect = step[2]
            against = "the " + card_name(ed, effect[0] if effect[0] != "lock" else _lock_card(ed, effect[2]))
        return ("uses Protection against " if kind == "protect" else "accepts ") + against, None
    return " ".join(str(x) for x in action), None


def _lock_card(ed: Edition, bits: int) -> str:
    for f in ed.function:
        if f.numbers and sum(1 << n for n in f.numbers) == bits:
            return f.id
    return "lock"


def describe(s: State, action) -> str:
    """:meth:`State.describe`: the action's words, then what it did (computed by applying it)."""
    plain = " ".join(str(x) for x in action) if isinstance(action, tuple) else str(action)
    if s.phase not in ("chance", "decide"):
        return plain  # nothing is asked here (the game is over)
    words, mover = _what(s, action)
    try:
        after = s.apply(action)
    except UsageError:  # not an action here: its plain words
        return words or plain
    out = []
    if mover is None and after.pos == s.pos[::-1]:  # Swap
        out.append(f"the meeples change places: player 1 to {_landing(after, 0, s)}, player 2 to "
                   f"{_landing(after, 1, s)}")
    else:
        for q in (mover, 1 - mover) if mover is not None else (0, 1):
            if after.pos[q] != s.pos[q] and q == mover:
                d = after.pos[q] - s.pos[q]
                out.append(f"moves {abs(d)} {'left' if d < 0 else 'right'} to {_landing(after, q, s)}")
            elif after.pos[q] != s.pos[q]:
                out.append(f"pushes player {q + 1} to {_landing(after, q, s)}" if mover is not None
                           else f"player {q + 1}'s meeple goes to {_landing(after, q, s)}")
            elif after.lives[q] != s.lives[q]:
                d = after.lives[q] - s.lives[q]
                out.append(f"player {q + 1} {'gains' if d > 0 else 'loses'} {_cubes(abs(d))} (now {after.lives[q]})")
    text = ", ".join(([words] if words else []) + out) or plain
    if after.is_terminal():
        if after.winner is None:
            text += f"; the turn limit ({after.turn} turns): a draw"
        else:
            text += f"; player {2 - after.winner} has no cubes left: player {after.winner + 1} wins"
    return text


def new_game(edition: Edition, players: int, seed: int) -> State:
    """Setup from ``random.Random(seed)``: ground cards shuffled, symbol sides up (others a random
    side), ``row`` of them laid out, the rest the ground pile; function cards shuffled, 3 into each
    player's own pile with the 33 movement cards; starting positions by the random die (roll + 4,
    re-rolled while equal); 2 cards drawn each; the starting player by the die."""
    r = edition.rules
    if players != 2:
        raise UsageError(f"--players must be 2 for Keep Moving, got {players}")
    if not isinstance(seed, int) or seed < 0:
        raise UsageError(f"the seed must be a whole number >= 0, got {seed!r}")
    rng = random.Random(seed)
    order = list(range(len(edition.ground)))
    rng.shuffle(order)
    laid = tuple((i, 0 if edition.ground[i].sides[0].symbol else rng.randrange(2)) for i in order)
    functions = list(edition.function_deck)
    rng.shuffle(functions)
    k = r.start_function
    piles, hands = [], []
    for p in range(2):
        pile = list(edition.movement_set) + functions[p * k:(p + 1) * k]
        rng.shuffle(pile)
        hands.append(tuple(sorted(pile[:r.start_hand])))
        piles.append(tuple(sorted(pile[r.start_hand:])))
    faces = edition.dice["random"].faces
    while True:
        a, b = rng.choice(faces), rng.choice(faces)
        if a != b:
            break
    first = rng.randrange(2)
    s = State(edition, row=laid[:r.row], gpile=laid[r.row:], pos=(r.start_offset + a - 1, r.start_offset + b - 1),
              lives=(r.lives, r.lives), supply=r.supply, hand=tuple(hands), pile=tuple(piles), discard=((), ()),
              fpile=tuple(sorted(functions[2 * k:])), locks=(0, 0), stunned=(False, False), to_move=first,
              first=first, turn=0, phase="run", decider=first, pending=(("start",),), options=(), winner=None,
              ended="", seed=seed)
    run(s)
    return s



# The engine bound to the play contract (tubedeck.play.State): mypy checks every method, so drift fails `make lint`.
ENGINE: Engine[Hashable] = new_game
