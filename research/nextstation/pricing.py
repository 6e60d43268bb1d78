"""The column bound's pricing search with prices on how a line **enters** each station.

:func:`tubedeck.games.nextstation.best.best_response` prices a line by its stations. The cut
relaxation (:mod:`.cuts`, :mod:`.columns`) links each round to each station's interchange through
the section its line enters the station by, so a line is worth, beyond its round score, a price
``eta[(v, i)]`` for each station v it enters along section i (every station but the departure is
entered along exactly one section: the one drawn on reaching it), plus a price per station, the
tourist gain, less the section penalties.

The search is the rules' own exact branch and bound
(:func:`~tubedeck.games.nextstation.best.best_response` with ``entering``); only a move's value
changes. Its bound takes, per station, the largest price of entering it: no line gains
more, so the bound stays admissible and the search exact (tested against every line of small
rounds).
"""

from __future__ import annotations

from tubedeck.games.nextstation.best import RoundResult, best_response
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.rules import RuleBook

Entering = dict[tuple[str, int], float]  # (station, section entering it) -> price


def entering_response(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
                      drawn: frozenset[int], bonus: dict[str, float], eta: Entering, gain: list[float],
                      time_limit: float = 30.0, penalty: dict[int, float] | None = None,
                      floor: float | None = None,
                      trail: list[tuple[tuple[int, str, str], ...]] | None = None) -> tuple[float | None, RoundResult]:
    """As :func:`~tubedeck.games.nextstation.best.best_response` (value, the line; with a
    ``floor``, None if no line beats it), a line also worth ``eta[(v, i)]`` (not negative) for
    each station v it enters along section i; ``trail`` as there (the better lines met)."""
    return best_response(board, book, turns, departure, drawn, bonus, gain, time_limit, penalty, floor, eta, trail)
