"""The column bound's pricing search with prices on how a line **enters** each station.

:func:`tubedeck.games.nextstation.best.best_response` prices a line by its stations. The cut
relaxation (:mod:`.cuts`, :mod:`.columns`) links each round to each station's interchange through
the section its line enters the station by, so a line is worth, beyond its round score, a price
``eta[(v, i)]`` for each station v it enters along section i (every station but the departure is
entered along exactly one section: the one drawn on reaching it), plus a price per station, the
tourist gain, less the section penalties.

The search is the same exact branch and bound (:class:`~tubedeck.games.nextstation.best._Search`);
only a move's value changes (the search's ``enter`` prices, empty for the rules' own search). Its bound takes, per station, the largest price of entering it: no line gains
more, so the bound stays admissible and the search exact (tested against every line of small
rounds).
"""

from __future__ import annotations

import time

from tubedeck.games.nextstation.best import RoundResult, _Search, line_of
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import line_score

Entering = dict[tuple[str, int], float]  # (station, section entering it) -> price


class _EnterSearch(_Search):
    def enter_prices(self, bonus: dict[str, float], eta: Entering, gain: list[float],
                     penalty: dict[int, float]) -> None:
        top: dict[str, float] = {}
        for (v, _), p in eta.items():
            top[v] = max(top.get(v, 0.0), p)
        # the bound: each station's price plus its dearest entry (value_for_game sums the best)
        self.value_for_game({v: bonus.get(v, 0.0) + top.get(v, 0.0) for v in self.ids}, gain, penalty)
        self.bonus = [bonus.get(v, 0.0) for v in self.ids]  # a move's own value: its station ...
        idx = {v: k for k, v in enumerate(self.ids)}
        self.enter = {(i, idx[v]): p for (v, i), p in eta.items()}  # ... and the section entering it


def line_value(board: Board, book: RuleBook, departure: str, draws, bonus: dict[str, float], eta: Entering,
               gain: list[float], penalty: dict[int, float]) -> float:
    """A line's priced value, from the rules' own scoring (the search's check)."""
    stations, secs = line_of(board, departure, draws)
    score = line_score(board, book, stations, secs).points
    sites = sum(board.by_id[v].tourist for v in stations)
    return (score + sum(bonus.get(v, 0.0) + eta.get((v, i), 0.0) for v, i in zip(stations[1:], secs))
            + gain[min(sites, len(gain) - 1)] - sum(penalty.get(i, 0.0) for i in secs))


def entering_response(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
                      drawn: frozenset[int], bonus: dict[str, float], eta: Entering, gain: list[float],
                      time_limit: float = 30.0, penalty: dict[int, float] | None = None,
                      floor: float | None = None) -> tuple[float | None, RoundResult]:
    """As :func:`~tubedeck.games.nextstation.best.best_response` (value, the line; with a
    ``floor``, None if no line beats it), a line also worth ``eta[(v, i)]`` (not negative) for
    each station v it enters along section i."""
    t0 = time.perf_counter()
    pen = penalty or {}
    s = _EnterSearch(board, book, turns, departure, drawn, t0 + time_limit)
    s.enter_prices(bonus, eta, gain, pen)
    if floor is not None:
        s.best, s.best_draws = floor, None
    s.run()
    if s.best_draws is None:
        return None, RoundResult("FEASIBLE" if s.cut else "OPTIMAL", None, None, (), (departure,),
                                 time.perf_counter() - t0)
    draws = s.best_draws
    stations, secs = line_of(board, departure, draws)
    value = line_value(board, book, departure, draws, bonus, eta, gain, pen)
    assert abs(value - s.best) < 1e-6, (value, s.best)
    score = line_score(board, book, stations, secs).points
    return value, RoundResult("FEASIBLE" if s.cut else "OPTIMAL", score, None, draws, stations,
                              time.perf_counter() - t0)
