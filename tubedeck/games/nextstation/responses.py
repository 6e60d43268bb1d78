"""The best-response search for a whole solo game (fast, no proof): each round in turn is
redrawn as the line with the most value to the game *given the other three lines*, on the sheet
the others leave: its round score, plus the interchange points each of its stations adds, plus
the tourist track's rise (:func:`.best.best_response`, exact for that one round). Rounds are
redrawn until none improves, from 8 starts (each rotation of the round order, forwards and
backwards); then ``kicks`` kicks of iterated local search (two rounds erased, the game settled
again from there, a better game kept; seeded). Run to the end, a seed gives the same game on any
machine; a ``deadline`` (``time.perf_counter()`` terms, as the whole-game solver's
``--time-limit``) stops the search early with the best game so far (always a legal game: every
line is drawn around the others), and says so (:attr:`Responses.cut`).

Lines on one sheet only have to be pairwise compatible (no section shared, none crossing), so a
round may be redrawn whatever the order it is played in.

It lives with the rules, as :mod:`.best` does, because the solo challenge sheet
(:mod:`.challenge`) answers any seed with it when no stored answer is known; the whole-game
solver (``solver/nextstation/game.py``) starts CP-SAT from it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .best import best_response, line_of
from .board import Board
from .flips import Turn
from .rules import RuleBook
from .scoring import final_score

Round = tuple[tuple[Turn, ...], str]  # (the round's turns, the departure of its pencil)
Draws = tuple[tuple[int, str, str], ...]  # a round's line: (turn index, from, to) per section drawn


def lines_of(board: Board, rounds: tuple[Round, ...], draws) -> tuple[list[tuple[str, ...]], list[tuple[int, ...]]]:
    """Every round's line (:func:`~tubedeck.games.nextstation.best.line_of`): stations, sections."""
    lines = [line_of(board, dep, ds) for (_, dep), ds in zip(rounds, draws)]
    return [st for st, _ in lines], [se for _, se in lines]


def value_bonus(board: Board, book: RuleBook, lines: list[tuple[str, ...]], r: int) -> tuple[dict[str, float], list[float]]:
    """Round r's station bonuses and tourist gains, the other rounds' lines fixed: per station, the
    interchange points a line through it adds; per k, the tourist track's rise for k more sites."""
    scores, rules = book.scores, book.rules
    on: dict[str, int] = {}
    marks = 0
    for k, line in enumerate(lines):
        if k != r:
            for v in set(line):
                on[v] = on.get(v, 0) + 1
            marks += sum(board.by_id[v].tourist for v in set(line))
    most = len(scores.interchange) - 1
    bonus: dict[str, float] = {v: scores.interchange[min(n + 1, most)] - scores.interchange[min(n, most)]
                               for v, n in on.items()}
    cap = rules.tourist_marks_max
    track = scores.tourist_track
    gain: list[float] = [track[min(cap, marks + k)] - track[min(cap, marks)] for k in range(rules.tourist_marks_max + 1)]
    return bonus, gain


KICKS = 30  # iterated local search after the best responses: about 1 s each on the classic map
KICK_SEED = 0
GUARD = 600.0  # seconds: a best response is exact and takes well under a second; this only guards


@dataclass(frozen=True)
class Responses:
    draws: tuple[Draws, ...]  # the best game found: per round, its line's draws
    total: int  # its final score (no objectives)
    cut: bool  # the deadline stopped the search: the game depends on the machine's speed


def best_responses(board: Board, book: RuleBook, rounds: tuple[Round, ...], kicks: int = 0,
                   deadline: float | None = None) -> tuple[Draws, ...]:
    """The best game the best responses settle on (:func:`search_responses`, which see)."""
    return search_responses(board, book, rounds, kicks, deadline).draws


def search_responses(board: Board, book: RuleBook, rounds: tuple[Round, ...], kicks: int = 0,
                     deadline: float | None = None) -> Responses:
    """The best game the best responses settle on from several starts: the first pass draws the
    rounds in each rotation of their order, forwards and backwards (a local optimum depends on
    which line is drawn first). Then ``kicks`` times: two rounds of the best game are erased and
    the game settles again from there, redrawing those two first (in a seeded random order); a
    better game is kept (iterated local search; classic seed 0: 183 -> 189 in 30 kicks).
    ``deadline`` (``time.perf_counter()``; None: none): no best response runs past it, and the
    best game so far is returned, ``cut``."""
    n = len(rounds)
    orders = [tuple((k + i) % n for i in range(n)) for k in range(n)]
    orders += [o[::-1] for o in orders]
    clock = _Clock(deadline)
    best: tuple[Draws, ...] = tuple(() for _ in rounds)  # passing throughout: replaced by the first game settled
    best_total = -1
    for order in orders:
        if clock.out():
            break
        draws = _settle(board, book, rounds, order, clock=clock)
        total = final_score(board, book, *lines_of(board, rounds, draws)).total
        if total > best_total:
            best, best_total = draws, total
    rng = random.Random(KICK_SEED)  # seeded: the same game on any machine
    for _ in range(kicks):
        if clock.out():
            break
        erased = rng.sample(range(n), min(2, n))
        draws = tuple(() if r in erased else d for r, d in enumerate(best))
        draws = _settle(board, book, rounds, tuple(erased) + tuple(r for r in range(n) if r not in erased), draws,
                        clock)
        total = final_score(board, book, *lines_of(board, rounds, draws)).total
        if total > best_total:
            best, best_total = draws, total
    if best_total < 0:  # cut before any game settled
        best_total = final_score(board, book, *lines_of(board, rounds, best)).total
    return Responses(best, best_total, clock.cut)


class _Clock:
    """The search's deadline: how long a best response may run, and whether one was cut."""

    def __init__(self, deadline: float | None):
        self.deadline, self.cut = deadline, False

    def left(self) -> float:
        return GUARD if self.deadline is None else min(GUARD, self.deadline - time.perf_counter())

    def out(self) -> bool:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self.cut = True
        return self.cut


def _settle(board: Board, book: RuleBook, rounds: tuple[Round, ...], order: tuple[int, ...],
            start: tuple[Draws, ...] | None = None, clock: _Clock | None = None) -> tuple[Draws, ...]:
    """Redraw the rounds in ``order`` until none improves the game (see the module), from the
    lines ``start`` (per round draws; none drawn by default); stopped at the ``clock``'s
    deadline with the game so far (a line cut short is kept only if it improves the game)."""
    clock = clock or _Clock(None)
    draws: list[Draws] = list(start) if start else [() for _ in rounds]
    lines: list[tuple[str, ...]] = list(lines_of(board, rounds, draws)[0])
    improved = True
    while improved:  # each pass that goes on raises the score: it ends
        improved = False
        for r in order:
            if clock.out():
                return tuple(draws)
            ts, dep = rounds[r]
            stations, sections = lines_of(board, rounds, draws)
            drawn = frozenset(i for k, secs in enumerate(sections) if k != r for i in secs)
            bonus, gain = value_bonus(board, book, lines, r)
            _, line = best_response(board, book, ts, dep, drawn, bonus, gain, time_limit=clock.left())
            if line.status != "OPTIMAL":
                clock.cut = True
            here = final_score(board, book, stations, sections).total
            draws_r, lines_r = draws[r], lines[r]
            draws[r], lines[r] = line.draws, line.stations
            now = final_score(board, book, *lines_of(board, rounds, draws)).total
            if now > here:
                improved = True
            else:  # keep the old line: equal value is no progress
                draws[r], lines[r] = draws_r, lines_r
    return tuple(draws)
