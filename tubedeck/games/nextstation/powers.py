"""Pencil Powers (advanced module, ``new_game(..., powers=True)``): each pencil keeps one power
all game, usable once per round by whoever draws with it (the rulebook; effects in our words in
``data/nextstation/powers.csv``).

Actions a power adds (only moves the card alone would not allow, so no action is listed twice):

* ``joker``: ``("draw", u, v, "joker")``: the flipped card played as a Joker;
* ``railroad-switch``: ``("draw", u, v, "railroad-switch")``: as if a Switch came with the card;
* ``double-section``: ``("draw2", u1, v1, u2, v2)``: two sections this turn, the second to the
  flipped symbol too (after a Joker: to the symbol the first reached; the ? station: any);
* ``double-station``: no action. Circling a station counts it twice in its district; the best
  station to circle is always one in the line's biggest district (M + 1), so the round is scored
  that way (decision: the choice has one best answer, so the engine makes it).
"""

from __future__ import annotations

import random
from dataclasses import replace

from .board import Board
from .flips import Turn
from .lines import Line, legal_sections
from .rules import QUESTION_MARK, RuleBook


def deal_powers(book: RuleBook, seed: int) -> tuple[tuple[str, str], ...]:
    """(pencil, power) pairs: the powers shuffled onto the pencils with ``Random(f"{seed}-powers")``."""
    ids = [p.id for p in book.powers]
    random.Random(f"{seed}-powers").shuffle(ids)
    return tuple(zip(book.rules.pencils, ids))


def power_actions(board: Board, line: Line, drawn: frozenset[int], turn: Turn, power: str) -> list[tuple]:
    base = {(u, v) for u, v, _ in legal_sections(board, line, drawn, turn)}
    if power in ("joker", "railroad-switch"):
        as_if = replace(turn, symbol=None) if power == "joker" else replace(turn, switch=True)
        return [("draw", u, v, power) for u, v, _ in legal_sections(board, line, drawn, as_if) if (u, v) not in base]
    if power != "double-section":
        return []
    out = []
    for u, v, i in legal_sections(board, line, drawn, turn):
        after = Line(line.pencil, line.stations + (v,), line.sections + (i,))
        sym = turn.symbol
        if sym is None and board.by_id[v].symbol != QUESTION_MARK:
            sym = board.by_id[v].symbol
        second = replace(turn, symbol=sym)
        out += [("draw2", u, v, u2, v2) for u2, v2, _ in legal_sections(board, after, drawn | {i}, second)]
    return out
