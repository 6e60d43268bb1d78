"""CP-SAT settings shared by the game solvers, and an interruptible solve.

The games' models are tiny (hundreds to a few thousand Booleans) and solved thousands of times,
one deal or rack per call, with the parallelism spent across deals instead. For such models
presolve, probing, symmetry detection, LP relaxation and SAT inprocessing cost more than they
save; each solver measured this (see its module docstring and the README figures).

**Interrupts.** CP-SAT would take SIGINT itself during a solve and return early with a weaker
status, which a check would then store as if it were the answer. So ``catch_sigint_signal`` is
off everywhere, and :func:`solve` runs the search in a helper thread while the main thread
waits: Ctrl-C (or SIGTERM, which the CLI turns into an exception) stops the search with
``stop_search`` and re-raises, so the cut-short result is thrown away, never returned.
"""

from __future__ import annotations

import math
import signal
import threading
from typing import TYPE_CHECKING

from tubedeck.errors import UsageError

if TYPE_CHECKING:  # OR-Tools' cp_model imports pandas and numpy: paid for only when a model is built
    from ortools.sat.python import cp_model

MAX_TIME_LIMIT = 7 * 24 * 3600.0  # a week: anything longer is a typo


WALL_GUARD = 10.0  # the wall-clock limit, as a multiple of the deterministic one


def configure(solver: cp_model.CpSolver, time_limit: float, workers: int = 1) -> cp_model.CpSolver:
    """``time_limit`` is CP-SAT's *deterministic* time (work counted, about a second each on a
    typical core), so the same model stops at the same point on a slow or a busy machine and a
    run's results file is the same bytes anywhere (with one worker per solve). A wall-clock
    limit of ``WALL_GUARD`` times it only guards against a runaway."""
    p = solver.parameters
    p.num_workers = workers
    p.max_deterministic_time = time_limit
    p.max_time_in_seconds = time_limit * WALL_GUARD
    p.catch_sigint_signal = False  # see the module docstring
    return solver


def small_model_solver(time_limit: float, workers: int = 1) -> cp_model.CpSolver:
    """A CpSolver tuned for many small models; ``time_limit`` only guards (UNKNOWN beyond it)."""
    from ortools.sat.python import cp_model

    solver = configure(cp_model.CpSolver(), time_limit, workers)
    p = solver.parameters
    p.cp_model_presolve = False
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.linearization_level = 0
    p.use_sat_inprocessing = False
    return solver


def solve(solver: cp_model.CpSolver, model: cp_model.CpModel,
          callback: cp_model.CpSolverSolutionCallback | None = None) -> str:
    """Solve and return the status name; an interrupt stops the search and propagates.
    ``callback``: CP-SAT's solution callback (progress: each better solution, from the search thread)."""
    if threading.current_thread() is not threading.main_thread():
        return solver.status_name(solver.solve(model, callback))
    box: dict = {}
    done = threading.Event()  # not Thread.join: an interrupted join marks a running thread stopped (3.11)

    def run() -> None:
        try:
            box["status"] = solver.solve(model, callback)
        except BaseException as exc:  # pragma: no cover - handed to the main thread
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=run, name="cp-sat", daemon=True)
    # Start with SIGINT/SIGTERM blocked: the search thread inherits the mask (signals always reach
    # the main thread), and an interrupt cannot land inside start() with the thread half-started.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        try:
            worker.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a pending Ctrl-C is raised here
        while not done.wait(0.05):  # wakes for signals: KeyboardInterrupt lands here
            pass
    except BaseException:
        # Stop the search and wait for it whatever else arrives (a second Ctrl-C): a search
        # thread alive at exit would abort the process. The cut-short result is dropped.
        while worker.ident is not None and not done.is_set():
            solver.stop_search()
            try:
                done.wait(0.05)
            except BaseException:
                pass
        raise
    if "error" in box:
        raise box["error"]
    return solver.status_name(box["status"])


def check_time_limit(seconds: float, what: str = "--time-limit") -> float:
    """A ``--time-limit`` (or the option ``what``) must be a positive, finite number of seconds
    (UsageError otherwise)."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIME_LIMIT):
        raise UsageError(f"{what} must be a positive number of seconds up to {MAX_TIME_LIMIT:.0f}, "
                         f"got {seconds}")
    return seconds
