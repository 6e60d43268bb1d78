"""The whole solo game with the research bounds: the product's search
(:func:`tubedeck.solver.nextstation.game.search_game`: round pars, best responses, CP-SAT), then

* **branch and price** (:mod:`.branch`) for the wall clock left, from the best game so far: its
  root is the column bound (``columns`` pricing iterations before it branches), then it branches
  on what the LP mixes; its bound and any better game it finds are kept, and a bound that meets
  the game is a proof (OPTIMAL). CP-SAT then gets only ``CP_SAT_SHARE`` of the clock (its bound
  never helps). With Shared Objectives they are in its relaxation too (:mod:`.goals`);
* or, under a deterministic budget (the challenge file's runs), **the column bound**
  (``columns`` iterations, :mod:`.columns`): a Dantzig-Wolfe relaxation over whole lines, a fixed
  amount of work.

Research: it proves no real seed within hours (``NOTEBOOK.md``); what it gives the product is the
bounds stored in ``data/nextstation/challenges.csv`` (:mod:`.challenges` writes them).
"""

from __future__ import annotations

import time
from contextlib import nullcontext

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.responses import KICKS, Round
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.progress import Progress
from tubedeck.solver.cpsat import check_time_limit
from tubedeck.solver.nextstation.engines import Budget, ticking
from tubedeck.solver.nextstation.game import (
    Best,
    GameResult,
    game_result,
    rounds_of,  # noqa: F401 - the research modules' and tests' way to the seeded rounds
    search_game,
    settled,
    with_stored,
)

from .branch import branch_and_price
from .clash import CLASH_ROUNDS
from .columns import column_bound
from .pairs import some_tables

CP_SAT_SHARE = 0.2  # of the wall clock left, for CP-SAT when branch and price follows (its bound never
# helps then; classic seeds 0 and 3 at --time-limit 120: the same games, bounds 232/260 against 232/269 at 0.5)
ENTRIES_AFTER = 90.0  # seconds: branch and price given this long ties rounds by entering sections (the
# tightest relaxation), else by stations alone, which settles sooner. Root bound after 20/40/60/90/120/180 s,
# seed 0: stations 242/234/230/227/225/225, entries 248/231/228/223/221/220; seed 2: 207/202/201/201/201/201
# against 211/206/201/199/199/199
TABLES_AFTER = 180.0  # seconds: branch and price given this long first lists every line of each round
# (:func:`.pairs.some_tables`, at most TABLES_SHARE of its time) and prices by a scan of them. Seed 0 from
# the stored game of 189, one core: by the round search 224 after 300 s (5 nodes); listed (23-45 s), then
# 215 after 150 s (17 nodes, entries) or 214 (111 nodes, patterns). Below it the listing would eat the time.
TABLES_SHARE = 1 / 3
# A round's list holds at most pairs.LIMIT lines here too, the rounds together within half the memory
# available (:func:`.pairs.line_budget`). Seed 3 (a round of 5.1 million) at --time-limit 600, two runs each
# side by side: 199, bound 241, 0.7 GB with a cap of a million a round (its big round searched); 205, bound
# 238, 3.5 GB with every round listed (cuts on it, the better-games search frees it)


def _branches(budget: Budget | None) -> bool:
    """Whether branch and price takes the bound phase: on the wall clock alone (it stops by the
    clock, so not under a deterministic budget)."""
    return budget is not None and budget.det is None


def best_of(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
            time_limit: float = 60.0, workers: int = 1, columns: int = 0, kicks: int = KICKS,
            budget: Budget | None = None) -> Best:
    """The product's search, then (unless CP-SAT proved it and ``columns`` > 0) branch and price
    for the wall clock left (a ``budget`` without a deterministic part) or else ``columns``
    iterations of the column bound. A game cut short still has a bound."""
    share = 1.0 if columns == 0 else CP_SAT_SHARE if _branches(budget) else 0.5
    b = search_game(board, book, rounds, objectives, time_limit, workers, kicks, budget, share)
    draws, final, status, found, bound, by = b.draws, b.final, b.status, b.found_by, b.bound, b.bound_by
    if status != "OPTIMAL" and columns > 0 and _branches(budget) and budget is not None \
            and budget.wall_left() > 0:
        left = budget.wall_left()
        tabs: list = []
        if left >= TABLES_AFTER:  # every line listed, then pricing is a scan of them (no search)
            budget.update(phase="listing every line")
            tabs = some_tables(board, book, rounds, time_limit=left * TABLES_SHARE)
            left = budget.wall_left()
        budget.update(phase="branch and price")
        bp = branch_and_price(board, book, rounds, (draws,), time_limit=left, root_iterations=columns,
                              progress=budget.progress, cuts="entries" if left >= ENTRIES_AFTER else "patterns",
                              tables=tabs, objectives=objectives, clash=CLASH_ROUNDS if tabs else 0)
        if bp.cut:
            budget.wall_cut = True
        if bp.score > final.total:
            draws, final, found = bp.draws, bp.final, "branch and price"
        if bound is None or bp.bound < bound:
            bound, by = max(bp.bound, final.total), "branch"
        if bound <= final.total:
            status, bound = "OPTIMAL", final.total
    elif status != "OPTIMAL" and columns > 0:
        cb = column_bound(board, book, rounds, (draws,), columns, budget)
        if cb.bound is not None:  # objectives are not priced: every one may be reached
            tight = cb.bound + len(objectives) * book.rules.objective_points
            if bound is None or tight < bound:
                bound, by = max(tight, final.total), "columns"
            if bound <= final.total:  # the bound meets the game: a proof
                status, bound = "OPTIMAL", final.total
    got = Best(status, final, bound, tuple(draws), b.pars, b.start, by, found,
               budget is not None and budget.wall_cut, b.pars_proven)
    return settled(got, board, book, rounds, objectives, budget)


def best_game(edition: Edition, seed: int, objectives: tuple[Objective, ...] = (), time_limit: float = 60.0,
              workers: int = 1, columns: int = 0, kicks: int = KICKS, det_limit: float | None = None,
              progress: bool = False, started: float | None = None, stored: bool = False) -> GameResult:
    """:func:`tubedeck.solver.nextstation.game.best_game` with the research bounds (``columns``);
    ``stored``: also what challenges.csv already holds (off: the writer compares against it)."""
    check_time_limit(time_limit)
    t0 = time.perf_counter()
    rounds, pencils, flips = rounds_of(edition, seed)
    with (Progress(f"whole game seed {seed}") if progress else nullcontext(None)) as shown, ticking(shown):
        budget = Budget.of(time_limit, det_limit, shown, started)
        b = best_of(edition.board, edition.book, rounds, objectives, time_limit, workers, columns, kicks, budget)
    if stored:
        b = with_stored(b, edition, seed, rounds, objectives)
    return game_result(edition, rounds, pencils, flips, b, t0)
