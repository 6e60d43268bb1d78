"""CP-SAT settings shared by the game solvers.

The games' models are tiny (hundreds to a few thousand Booleans) and solved thousands of times,
one deal or rack per call, with the parallelism spent across deals instead. For such models
presolve, probing, symmetry detection, LP relaxation and SAT inprocessing cost more than they
save; each solver measured this (see its module docstring and the README figures).
"""

from __future__ import annotations

from ortools.sat.python import cp_model


def small_model_solver(time_limit: float, workers: int = 1) -> cp_model.CpSolver:
    """A CpSolver tuned for many small models; ``time_limit`` only guards (UNKNOWN beyond it)."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = workers
    p.max_time_in_seconds = time_limit
    p.cp_model_presolve = False
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.linearization_level = 0
    p.use_sat_inprocessing = False
    return solver


def check_time_limit(seconds: float) -> float:
    """A ``--time-limit`` must be a positive, finite number of seconds (UsageError otherwise)."""
    import math

    from tubedeck.errors import UsageError

    if not (math.isfinite(seconds) and seconds > 0):
        raise UsageError(f"--time-limit must be a positive number of seconds, got {seconds}")
    return seconds
