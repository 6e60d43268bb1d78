"""Players for Keep Moving as played (:mod:`tubedeck.games.keepmoving.play`).

A player is ``player(state, rng) -> action`` (:data:`tubedeck.play.Bot`; the edition is the
state's); ``rng`` is the seat's own ``random.Random`` seeded from the game seed, so a game replays
exactly.

* ``random``: a uniformly random legal action;
* ``greedy``: scores each action by what the card it lands on does this turn (lava -1, grassland
  +1, a Function symbol +0.4, the other meeple pushed onto its next card counts against them),
  averaged over the die's faces; function cards by fixed values (Life Potion, Push and Swap
  scored like moves); Protection is always used;
* ``lookahead``: expectimax over the rest of its own turn through the rules engine itself (every
  die roll exactly; a draw from a pile is a leaf worth a small bonus per card), then a static
  value: life cubes against the opponent's, plus how safe its next landing is.
"""

from __future__ import annotations

import random
from typing import Any

from tubedeck.games.keepmoving.cards import MovementCard
from tubedeck.games.keepmoving.play import State
from tubedeck.play import CHANCE, Bot

Action = tuple[Any, ...]  # ("play", card, ...), ("dir", -1|1), ("protect",) ...

FUNCTION_BONUS = 0.4
FIXED = {"stun": 0.5, "steal": 0.35, "lock-even": 0.45, "lock-odd": 0.45, "lock-low": 0.45, "lock-high": 0.45,
         "new-hand": -0.2, "relocation": -0.1, "exchange": -0.5, "draw": 0.15}


def random_player(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


# -- greedy ----------------------------------------------------------------------------------------
def landing(state: State, p: int, at: int, d: int) -> float:
    """What landing on ``at`` (moving ``d``) is worth to ``p`` this turn."""
    side = state.side(at)
    value = _kind_value(state, p, side)
    o = 1 - p
    if state.pos[o] == at:
        nxt = (at + d) % len(state.row)
        value -= _kind_value(state, o, state.side(nxt))
    return value


def _kind_value(state: State, p: int, side) -> float:
    if side.kind == "lava":
        v = -1.0 if state.lives[p] > 1 else -50.0
    elif side.kind == "grassland":
        v = 1.0 if state.supply else 0.0
    else:
        v = 0.0
    if side.symbol == "function" and state.fpile and len(state.hand[p]) < state.edition.rules.hand_limit:
        v += FUNCTION_BONUS
    return v


def move_value(state: State, p: int, dist: int, memo: dict | None = None) -> float:
    if memo is not None:
        v = memo.get(dist)
        if v is not None:
            return v
    a, last = state.pos[p], len(state.row) - 1
    lo, hi = a - dist, a + dist
    if lo >= 0 and hi <= last:
        v = max(landing(state, p, lo, -1), landing(state, p, hi, 1))
    elif lo >= 0:
        v = landing(state, p, lo, -1)
    elif hi <= last:
        v = landing(state, p, hi, 1)
    else:  # fits neither way: the meeple stops on the end card chosen
        v = max(landing(state, p, 0, -1), landing(state, p, last, 1))
    if memo is not None:
        memo[dist] = v
    return v


def roll_value(state: State, p: int, faces, mult: int = 1, memo: dict | None = None) -> float:
    key = (faces, mult)
    if memo is not None and key in memo:
        return memo[key]
    locked = state.locks[p]
    v = sum(0.0 if locked >> f & 1 else move_value(state, p, f * mult, memo) for f in faces) / len(faces)
    if memo is not None:
        memo[key] = v
    return v


def action_value(state: State, p: int, action: Action, memo: dict | None = None) -> float:
    kind = action[0]
    if kind in ("end", "pass"):
        return 0.0
    ed = state.edition
    card = action[1]
    c = ed.card(card)
    if isinstance(c, MovementCard):
        if c.action == "move":
            return move_value(state, p, c.value, memo)
        if c.action == "roll":
            return roll_value(state, p, ed.dice[c.die].faces, 1, memo)
        return FIXED["draw"]
    o = 1 - p
    if card == "double":
        return roll_value(state, p, ed.dice["random"].faces, 2, memo)
    if card == "life-potion":
        return min(ed.rules.potion_lives, state.supply) * (1.0 if state.lives[p] > 3 else 2.0)
    if card == "push":
        row = len(state.row)
        at = (state.pos[o] + action[2] * ed.rules.push_cards) % row
        if at == state.pos[p]:
            at = (at + action[2]) % row
        return -_kind_value(state, o, state.side(at))
    if card == "swap":
        return _kind_value(state, p, state.side(state.pos[o])) - _kind_value(state, o, state.side(state.pos[p]))
    return FIXED.get(card, 0.0)


def greedy_player(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    p = state.current_player()
    first = legal[0][0]
    if first in ("protect",):
        return ("protect",)
    if first == "dir":
        dist = state.pending[0][2]
        a, last = state.pos[p], len(state.row) - 1
        return max(legal, key=lambda x: landing(state, p, min(last, max(0, a + x[1] * dist)), x[1]))
    memo: dict = {}
    best, best_v = legal[0], -1e9
    for action in legal:
        if len(action) > 2 and action[1] == "exchange":
            continue  # never better than its fixed value: scored once below
        v = action_value(state, p, action, memo)
        if v > best_v:
            best, best_v = action, v
    if best_v < FIXED["exchange"] and any(len(a) > 2 and a[1] == "exchange" for a in legal):
        return next(a for a in legal if len(a) > 2 and a[1] == "exchange" and a[3] == "pile") if \
            any(len(a) > 2 and a[1] == "exchange" and a[3] == "pile" for a in legal) else \
            next(a for a in legal if len(a) > 2 and a[1] == "exchange")
    return best


# -- look-ahead ------------------------------------------------------------------------------------
def static_value(state: State, p: int) -> float:
    """Life cubes against the opponent's, and how many of the cards within 6 are not lava."""
    if state.is_terminal():
        return 0.0 if state.winner is None else (100.0 if state.winner == p else -100.0)
    o = 1 - p
    return (state.lives[p] - state.lives[o]) + 0.1 * (_room(state, p) - _room(state, o)) \
        + 0.15 * (len(state.hand[p]) - len(state.hand[o]))


def _room(state: State, p: int) -> int:
    a, row = state.pos[p], len(state.row)
    return sum(1 for k in range(max(0, a - 6), min(row, a + 7)) if k != a and state.side(k).kind != "lava")


def expectimax(state: State, p: int, depth: int = 12) -> float:
    """The value to ``p`` at the end of the current turn (or the game)."""
    if state.is_terminal() or state.to_move != p or depth == 0:
        return static_value(state, p)
    if state.current_player() == CHANCE:
        if state.pending[0][0] != "roll":
            return static_value(state, p) + (0.15 if state.pending[0][1] == p else -0.15)
        return sum(q * expectimax(state.apply(o), p, depth - 1) for o, q in state.chance_outcomes())
    legal = state.legal_actions()
    who = state.current_player()
    if who != p:  # the opponent answering with Protection: assume they do whatever hurts most
        return min(expectimax(state.apply(a), p, depth - 1) for a in legal)
    if legal[0][0] == "play" or legal[0][0] == "end":
        legal = _prune(state, p, legal)
    return max(expectimax(state.apply(a), p, depth - 1) for a in legal)


def _prune(state: State, p: int, legal):
    """Exchange offers up to 78 pairs: the search looks at the pile swaps only (at most 12)."""
    if not any(len(a) > 2 and a[1] == "exchange" for a in legal):
        return legal
    return tuple(a for a in legal if not (len(a) > 2 and a[1] == "exchange" and a[3] != "pile")) or legal


def lookahead_player(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    p = state.current_player()
    if len(legal) == 1:
        return legal[0]
    if p != state.to_move:  # answering the opponent: protect
        return ("protect",)
    legal = _prune(state, p, legal)
    scored = [(expectimax(state.apply(a), p), i) for i, a in enumerate(legal)]
    return legal[max(scored)[1]]


PLAYERS: dict[str, Bot[State]] = {"random": random_player, "greedy": greedy_player, "lookahead": lookahead_player}
