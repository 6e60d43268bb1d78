"""Better whole games from the listed lines (issue 25): the primal side of the proof.

The best games the best responses and their kicks find are 2-optimal (no two rounds redrawn
together do better), yet not the best: over each round's few hundred lines dearest at the root's
prices, one CP-SAT model of the whole game (:func:`integer_master`) found 193 on classic seed 0,
where 189 had stood for days. This module searches such restricted games around the best one:

* **Candidates** (:func:`candidates`): of each freed round, the ``size`` listed lines
  (:class:`.pairs.LineScan`) of highest Lagrangian value at given prices (a price per station,
  entry, tourist site: what the relaxation says a line is worth to the game) among those that
  neither draw nor cross a section of the rounds kept, plus the best game's own line.
* **Neighbourhoods** (:func:`improve`): every round freed, then each three with one kept, then
  each two with two kept, each a CP-SAT model over the candidates hinted with the best game; after a
  better game every neighbourhood is tried again; it stops when a whole cycle of them finds
  nothing or at the deadline.

It is a heuristic: nothing it returns is a bound. The games it returns are scored by the rules'
:func:`~tubedeck.games.nextstation.scoring.final_score` and are legal sheets (every line is a
listed legal line of its round, and the model keeps them pairwise compatible).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence

import numpy as np
from ortools.sat.python import cp_model

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.responses import Round, lines_of
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import final_score
from tubedeck.solver.cpsat import configure, solve
from tubedeck.solver.nextstation.game_model import one_hot_at_most

from .columns import Column, Prices, gains_of, worth_of
from .pairs import LineScan

SIZE = 500  # candidate lines a freed round (seed 0: 500 and 1,000 found 193 in 120 s, 3,000 did not)
STEP = 30.0  # seconds of CP-SAT a neighbourhood, at most
WIDE = 4  # the model freeing every round gets this many steps (seed 0's 193 took CP-SAT 60-120 s)


def integer_master(board: Board, book: RuleBook, cols: Sequence[Sequence[Column]], time_limit: float = 2.0,
                   hint: Sequence[Column] | None = None) -> tuple[int, tuple[Column, ...]] | None:
    """The best game made of these lines (``cols[r]``: round r's): one line a round, pairwise
    compatible (no section twice, no two crossing), worth its line scores + tourist track +
    interchanges, by CP-SAT in at most ``time_limit`` seconds (1 worker). (its value, a line per
    round), or None if no game was found in time. Each line is a legal line of its round, so the
    game is a legal sheet; the value is CP-SAT's objective (callers rescore with the rules)."""
    n = len(cols)
    m = cp_model.CpModel()
    pick = [[m.new_bool_var(f"p{r}_{k}") for k in range(len(cols[r]))] for r in range(n)]
    for r in range(n):
        m.add_exactly_one(pick[r])
    use: dict[int, list] = {}
    on: dict[str, list] = {}
    for r in range(n):
        for k, c in enumerate(cols[r]):
            for i in c.sections:
                use.setdefault(i, []).append(pick[r][k])
            for s in c.stations:
                on.setdefault(s, []).append(pick[r][k])
    for vs in use.values():
        if len(vs) > 1:
            m.add(sum(vs) <= 1)
    for i, j in sorted(board.crossings):
        if i in use and j in use:
            m.add(sum(use[i]) + sum(use[j]) <= 1)
    table = book.scores.interchange
    obj: list = [c.score * pick[r][k] for r in range(n) for k, c in enumerate(cols[r])]
    for s in sorted(on):
        if len(on[s]) > 1:
            obj.append(one_hot_at_most(m, sum(on[s]), [table[min(j, len(table) - 1)] for j in range(n + 1)],
                                        f"ic_{s}"))
    marks = sum(c.sites * pick[r][k] for r in range(n) for k, c in enumerate(cols[r]))
    obj.append(one_hot_at_most(m, marks, [book.scores.tourist(k) for k in range(book.rules.tourist_marks_max + 1)],
                                "tourist"))
    m.maximize(sum(obj))
    if hint is not None:
        for r, c in enumerate(hint):
            for k, d in enumerate(cols[r]):
                m.add_hint(pick[r][k], d == c)
    solver = configure(cp_model.CpSolver(), max(time_limit, 0.01))
    solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
    if solve(solver, m) not in ("OPTIMAL", "FEASIBLE"):
        return None
    chosen = tuple(next(c for k, c in enumerate(cols[r]) if solver.value(pick[r][k])) for r in range(n))
    return round(solver.objective_value), chosen


def candidates(board: Board, scans: Sequence[LineScan | None], prices: Prices, game: Sequence[Column],
               free: Sequence[int], size: int = SIZE, pool: Sequence[Sequence[Column]] = ()) -> list[list[Column]]:
    """Per round, the lines a neighbourhood may choose: a kept round (not in ``free``) only its
    line of ``game``; a freed one its ``size`` lines of highest value at ``prices`` that are clear
    of the kept rounds' sections (neither drawing nor crossing one), and its line of ``game``. A
    freed round without a scan (None) chooses among its ``pool`` lines (known legal lines, such
    as branch and price's columns) the same way, or keeps its line without them."""
    kept = frozenset(i for r, c in enumerate(game) if r not in free for i in c.sections)
    blocked = kept.union(*(board.crossing[i] for i in kept))
    pen = prices.penalty()
    out: list[list[Column]] = []
    for r, scan in enumerate(scans):
        rho = prices.rho[r] if prices.rho else ()
        lines: list[Column] = []
        if r in free and scan is not None:
            val = scan.values(prices.lam[r], prices.entering(r), pen, gains_of(board, prices.mu, rho))
            if kept:
                val = np.where(scan.clear(kept), val, -np.inf)
            top = np.argpartition(-val, min(size, len(val) - 1))[:size] if len(val) > size else np.arange(len(val))
            top = top[np.argsort(-val[top], kind="stable")]  # (dearest first, ties by index: the same lines anywhere)
            lines = [scan.column(int(k)) for k in top if val[k] > -np.inf]
        elif r in free and r < len(pool):
            lam, eta = prices.lam[r], prices.entering(r)
            worth = {c: worth_of(c, lam, prices.mu, pen, eta) + sum(rho[:c.sites])  # (the scan's value of a line)
                     for c in pool[r] if not c.sections & blocked}
            lines = sorted(worth, key=lambda c: (-worth[c], sorted(c.sections)))[:size]
        if game[r].sections not in {c.sections for c in lines}:
            lines.append(game[r])
        out.append(lines)
    return out


def neighbourhoods(listed: Sequence[int]) -> list[tuple[int, ...]]:
    """Which rounds each model frees, of the ``listed`` ones: all of them, then every choice of
    one fewer, then of two fewer (at least 2 freed; none if fewer than 2 are listed)."""
    n = len(listed)
    out = [tuple(listed)] if n >= 2 else []
    for k in (n - 1, n - 2):
        if 2 <= k < n:
            out.extend(itertools.combinations(listed, k))
    return out


def improve(board: Board, book: RuleBook, rounds: Sequence[Round], scans: Sequence[LineScan | None], prices: Prices,
            game: Sequence[Column], deadline: float, size: int = SIZE, step: float = STEP,
            found: Callable[[int, tuple[Column, ...]], None] | None = None,
            pool: Sequence[Sequence[Column]] = ()) -> tuple[int, tuple[Column, ...]]:
    """The best game found from ``game`` (a line a round, each in its scan's list or not) by
    restricted whole-game models over the neighbourhoods above (a round without a scan, None,
    chooses among its ``pool`` lines, or keeps its line without them), until a cycle of them finds
    nothing better or ``deadline`` (``time.perf_counter()``). Returns (its score, its lines);
    ``found`` hears of each better game as it comes."""

    def score(cols: Sequence[Column]) -> int:
        return final_score(board, book, *lines_of(board, tuple(rounds), tuple(c.draws for c in cols))).total

    best_cols = tuple(game)
    best = score(best_cols)
    hoods = neighbourhoods([r for r, scan in enumerate(scans) if scan is not None or (r < len(pool) and pool[r])])
    fruitless = 0
    i = 0
    while fruitless < len(hoods):
        left = deadline - time.perf_counter()
        if left <= 0.05:
            break
        free = hoods[i % len(hoods)]
        i += 1
        got = integer_master(board, book, candidates(board, scans, prices, best_cols, free, size, pool),
                             min(step * (WIDE if len(free) == len(rounds) else 1), left), best_cols)
        value = -1 if got is None else score(got[1])
        if got is not None and value > best:
            best, best_cols, fruitless = value, got[1], 0
            if found is not None:
                found(best, best_cols)
        else:
            fruitless += 1
    return best, best_cols
