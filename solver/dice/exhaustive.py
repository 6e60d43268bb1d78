"""Tube Dice solo by exhaustive search: the independent check of the CP-SAT model on short sequences.

Depth-first over turns, every legal use of the roll (any two of its dice, via the rules engine's
:func:`tubedeck.games.dice.play.uses`) or none, memoised on (turn, sheet); the end rule (the game
stops after the turn in which ``lines_to_end`` lines are complete) and the score (high points,
solo, plus ``pass_points`` per pass left) are applied here directly. Exponential: for a handful
of turns only.
"""

from __future__ import annotations

from functools import lru_cache

from tubedeck.games.dice.edition import Edition
from tubedeck.games.dice.play import Sheet, blank_sheet, use, uses


def final_score(edition: Edition, sheet: Sheet) -> int:
    pts = sum(a.high for i, a in enumerate(edition.lines) if sheet.lines >> i & 1)
    pts += sum(a.high for i, a in enumerate(edition.zones) if sheet.zones >> i & 1)
    return pts + edition.rules.pass_points * sheet.passes


def best_score(edition: Edition, rolls: tuple[tuple[int, ...], ...]) -> tuple[int, tuple]:
    """(best final score, one best list of (turn, station, number, sections))."""
    board = edition.board
    target = min(edition.rules.lines_to_end, len(board.lines))

    @lru_cache(maxsize=None)
    def best(t: int, sheet: Sheet) -> tuple[int, tuple]:
        if t == len(rolls) or (t > 0 and sheet.lines.bit_count() >= target):
            return final_score(edition, sheet), ()
        top = best(t + 1, sheet)
        for (s, n, k), cost in sorted(uses(board, sheet, rolls[t]).items()):
            value, moves = best(t + 1, use(board, sheet, s, n, k, cost))
            if value > top[0]:
                top = (value, ((t, s, n, k), *moves))
        return top

    result = best(0, blank_sheet(board, edition.rules.passes))
    best.cache_clear()
    return result
