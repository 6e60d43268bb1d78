"""Budgets and the exact branch and bound, as ``solve`` and ``check nextstation`` run them.

Two kinds of limit, one meaning each (issue 26):

* ``--time-limit`` (:attr:`Budget.deadline`): wall-clock seconds for the **whole command**. The
  branch and bound stops at it, CP-SAT gets what is left of it; the answer can then depend on the
  machine's load, and is reported as FEASIBLE/UNKNOWN with its bound, never as a verdict.
* ``--det-limit`` (:attr:`Budget.det`): a **deterministic** budget for answers that are stored
  (the par check): CP-SAT's ``max_deterministic_time`` summed over its solves (charged with
  ``tubedeck.solver.deterministic_time``, not wall time), and for the branch and bound a node budget at
  :data:`NODES_PER_SECOND` nodes a deterministic second. The same seed and options give the same
  answer on any machine, however loaded (unless the wall-clock guard fires first).

A command's phases (the whole game's: round pars, best responses, CP-SAT, the column bound) each
take a share of the wall clock left (:meth:`Budget.wall_deadline`); with ``det`` set every phase
may run to the command's own deadline instead, so only the ``--time-limit`` itself ever cuts
deterministic work short, and then :attr:`Budget.wall_cut` says so (the answer is reported as
cut, FEASIBLE/UNKNOWN with its bound).

:func:`bnb_round` is :func:`tubedeck.games.nextstation.best.best_round` with a node budget and
progress; the search itself is the same code.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from tubedeck.games.nextstation.best import RoundResult, RoundSearch, line_of
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.progress import Progress
from tubedeck.progress import ticking as _ticking

NODES_PER_SECOND = 50_000  # branch-and-bound nodes per deterministic second (about its speed on one core)
TICK = 0.5  # seconds between the progress ticker's looks at the clock


@dataclass
class Budget:
    """What a command may still spend: a wall-clock ``deadline`` (``time.perf_counter``), and
    ``det`` deterministic seconds (None: no deterministic budget, the wall clock alone)."""

    deadline: float
    det: float | None = None
    det_used: float = 0.0
    progress: Progress | None = field(default=None, repr=False)
    wall_cut: bool = False  # some search stopped at the wall clock (not its deterministic budget)

    @classmethod
    def of(cls, time_limit: float, det_limit: float | None = None, progress: Progress | None = None,
           started: float | None = None) -> Budget:
        """``started``: when the command started (``time.perf_counter``; default now): a caller
        that knows (the CLI, before its imports) counts its start-up in the time limit too."""
        return cls((time.perf_counter() if started is None else started) + time_limit, det_limit, 0.0, progress)

    def wall_left(self) -> float:
        return max(self.deadline - time.perf_counter(), 0.0)

    def wall_deadline(self, share: float = 1.0) -> float:
        """The deadline (``time.perf_counter``) of a phase given ``share`` of the wall clock left;
        with a deterministic budget, the command's own deadline (see the module)."""
        return self.deadline if self.det is not None else time.perf_counter() + self.wall_left() * share

    def det_left(self) -> float | None:
        return None if self.det is None else max(self.det - self.det_used, 0.0)

    def spent(self) -> bool:
        left = self.det_left()
        return self.wall_left() <= 0 or (left is not None and left <= 0)

    def cp_sat(self, solver: cp_model.CpSolver, share: float = 1.0) -> cp_model.CpSolver:
        """Limit one CP-SAT solve to (``share`` of) what is left: wall and deterministic time
        (with a deterministic budget, ``share`` of it and the wall clock up to the deadline)."""
        p = solver.parameters
        p.max_time_in_seconds = max(self.wall_deadline(share) - time.perf_counter(), 0.001)
        left = self.det_left()
        p.max_deterministic_time = max(left * share, 0.001) if left is not None else p.max_time_in_seconds * 10
        return solver

    def charge(self, solver: cp_model.CpSolver, status: str | None = None) -> None:
        """Charge a finished CP-SAT solve's deterministic time; given its ``status``, note a
        wall-clock cut (no verdict, its deterministic limit not reached)."""
        self.det_used += solver.deterministic_time
        p = solver.parameters
        if status in ("FEASIBLE", "UNKNOWN") and solver.deterministic_time < p.max_deterministic_time * 0.99:
            self.wall_cut = True

    def update(self, **fields: Any) -> None:
        if self.progress is not None:
            self.progress.update(**fields)


class Reporter(cp_model.CpSolverSolutionCallback):
    """Each better CP-SAT solution to the budget's progress: best so far and CP-SAT's bound
    (``floor``: a score already found elsewhere; ``bound``: False when this solve's bound is not
    the whole answer's, one of several models)."""

    def __init__(self, budget: Budget, floor: int | None = None, bound: bool = True):
        super().__init__()
        self.budget, self.floor, self.bound = budget, floor, bound

    def on_solution_callback(self) -> None:
        best = max(int(round(self.objective_value)), self.floor or 0)
        if self.bound:
            self.budget.update(best=best, bound=max(int(self.best_objective_bound + 1e-6), best))
        else:
            self.budget.update(best=best)


def ticking(progress: Progress | None, every: float | None = None) -> contextlib.AbstractContextManager[None]:
    """:func:`tubedeck.progress.ticking`, every ``every`` seconds (default :data:`TICK`)."""
    return _ticking(progress, TICK if every is None else every)


class _Budgeted(RoundSearch):
    """The branch and bound with a node budget (the parent's ``node_limit``) and progress; the
    search is the parent's."""

    budget: Budget | None = None
    next_look = 4096

    def _tick(self) -> None:  # every 1024 positions
        RoundSearch._tick(self)
        if self.nodes >= self.next_look:
            self.next_look = self.nodes + 4096
            if self.budget is not None:
                self.budget.update(best=int(self.best), bound=int(self.root_bound), nodes=self.nodes)


def bnb_round(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str, budget: Budget,
              share: float = 1.0, drawn: frozenset[int] = frozenset()) -> RoundResult:
    """The exact branch and bound within ``share`` of the budget: OPTIMAL when it finishes, else
    FEASIBLE with its best line and root bound. Charges ``budget.det`` for the nodes searched."""
    t0 = time.perf_counter()
    s = _Budgeted(board, book, turns, departure, drawn, budget.wall_deadline(share))
    left = budget.det_left()
    if left is not None:
        s.node_limit = left * share * NODES_PER_SECOND
    s.budget = budget
    s.run()
    if budget.det is not None:
        budget.det_used += s.nodes / NODES_PER_SECOND
    draws = s.best_draws
    assert draws is not None  # the departure alone is a line
    stations, secs = line_of(board, departure, draws)
    score = line_score(board, book, stations, secs).points
    assert score == s.best, (score, s.best)
    wall = time.perf_counter() - t0
    if s.cut and s.nodes < s.node_limit:
        budget.wall_cut = True
    if s.cut:
        return RoundResult("FEASIBLE", score, max(score, int(s.root_bound)), draws, stations, wall)
    return RoundResult("OPTIMAL", score, score, draws, stations, wall)
