"""The best single round by exhaustive search: every sequence of draws and passes the rules
engine allows, with each (turn, sections drawn) position explored once.

It shares nothing with the CP-SAT model (:mod:`.model`) but the rules engine's own
:func:`tubedeck.games.nextstation.play.legal_sections` and :func:`.scoring.line_score`, so the
two agreeing on many flip orders checks the model against the rules as played. The future of a
round depends only on the sections drawn so far (they fix the line's stations and ends), so a
position reached twice (drawing A then passing, or passing then drawing A) is searched once.
"""

from __future__ import annotations

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.play import Line, legal_sections
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import line_score


def best_round(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
               drawn: frozenset[int] = frozenset(), limit: int = 5_000_000) -> tuple[int, Line]:
    """(best round score, one line reaching it) on a sheet where ``drawn`` sections exist already.
    ``limit`` bounds the positions searched (UsageError-free: a RuntimeError names it)."""
    memo: dict[tuple[int, frozenset], tuple[int, Line]] = {}

    def go(t: int, line: Line) -> tuple[int, Line]:
        key = (t, frozenset(line.sections))
        if key in memo:
            return memo[key]
        if len(memo) >= limit:
            raise RuntimeError(f"exhaustive search passed {limit} positions")
        if t == len(turns):
            result = (line_score(board, book, line.stations, line.sections).points, line)
        else:
            result = go(t + 1, line)  # pass
            for _, v, i in legal_sections(board, line, drawn | frozenset(line.sections), turns[t]):
                cand = go(t + 1, Line(line.pencil, line.stations + (v,), line.sections + (i,)))
                if cand[0] > result[0]:
                    result = cand
        memo[key] = result
        return result

    return go(0, Line("", (departure,), ()))
