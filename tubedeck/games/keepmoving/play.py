"""Keep Moving as played: the rules as a state machine in the OpenSpiel shape.

A :class:`State` is never changed once returned: :meth:`State.apply` gives the next one. At a
**chance node** (``current_player() == CHANCE``) :meth:`State.chance_outcomes` lists the
outcomes and their probabilities: a die roll, a card drawn from a pile (piles are multisets: a
draw from a shuffled pile is uniform over its cards), a card stolen. Elsewhere
:meth:`State.legal_actions` lists the decisions of ``current_player()``. Setup (the layout, the
piles, starting positions and player, the first hands) is dealt by ``random.Random(seed)``, so a
game is its seed plus its actions and chance outcomes.

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
from typing import Hashable

from tubedeck.errors import UsageError

from .edition import Edition
from .resolve import resolve_answer, run

CHANCE = -1
Action = tuple[Hashable, ...]
_FIELDS = ("row", "gpile", "pos", "lives", "supply", "hand", "pile", "discard", "fpile", "locks", "stunned",
           "to_move", "first", "turn", "phase", "decider", "pending", "options", "winner", "ended", "seed")


class State:
    """Everything on the table. ``row`` and ``gpile`` hold ``(card index, side up)``; hands,
    own piles and the function pile are sorted tuples (multisets); ``pending`` is the queue of
    steps still to resolve; ``options`` the decisions or outcomes of the current node."""

    __slots__ = _FIELDS + ("edition",)

    def __init__(self, edition: Edition, **values):
        self.edition = edition
        for k in _FIELDS:
            setattr(self, k, values.get(k))

    def _copy(self) -> "State":
        new = State.__new__(State)
        _copy_fields(self, new)
        return new

    def key(self) -> tuple:
        """Everything but the edition: equal keys are equal positions (replays, tests)."""
        return tuple(getattr(self, k) for k in _FIELDS)

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return (f"State(turn={self.turn}, to_move={self.to_move}, phase={self.phase}, pos={self.pos}, "
                f"lives={self.lives}, supply={self.supply}, hand={self.hand}, row={self.row}, seed={self.seed})")

    # -- the OpenSpiel shape -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_player(self) -> int:
        return CHANCE if self.phase == "chance" else self.decider

    def is_chance_node(self) -> bool:
        return self.phase == "chance"

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        return list(self.options) if self.phase == "chance" else []

    def legal_actions(self) -> tuple[Action, ...]:
        return self.options if self.phase == "decide" else ()

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def apply(self, action) -> "State":
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

    # -- views ------------------------------------------------------------------------------------
    def side(self, position: int):
        """The ground card side up at a row position."""
        index, up = self.row[position]
        return self.edition.ground[index].sides[up]

    @property
    def opponent(self) -> int:
        return 1 - self.to_move


# One straight-line assignment per field: a copy is the engine's commonest step.
exec("def _copy_fields(a, b):\n" + "".join(f"    b.{k} = a.{k}\n" for k in _FIELDS + ("edition",)))


def new_game(edition: Edition, seed: int, players: int = 2) -> State:
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


def setup(edition: Edition, players: int, seed: int) -> State:
    """The registry's setup: the state a seeded game starts from."""
    return new_game(edition, seed, players)
