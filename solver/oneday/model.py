"""One Day in London: the CP-SAT model of "fewest exchanges" (the engine of record).

**Variables** (``N`` slots, ``S`` stations, ``R`` = 2 x lines rides, a ride = line + direction):

* ``at[k][s]`` (Bool): slot ``k`` of the target journey holds station ``s``; ExactlyOne per slot.
* ``ride[k][r]`` (Bool, ``k >= 1``): the rider reaches slot ``k`` on ride ``r``; ExactlyOne per slot.

**Constraints** (for a ride ``r = (l, d)``; "before ``t``" = earlier on line ``l`` in direction ``d``):

* R1 ``ride[k][r] => OR at[k][t]`` over the stations ``t`` of ``l`` that have a station before them;
* R2 ``ride[k][r] => OR at[k-1][s]`` over the stations of ``l`` that have a station after them
  (implied by R1 and R3; it only strengthens propagation);
* R3 ``ride[k][r] & at[k][t] => OR at[k-1][s]`` over the stations ``s`` before ``t``: the rider
  boards at slot ``k-1`` on ``l`` and travels any distance in direction ``d`` (never 0 stops, so
  the same station twice in a row is impossible);
* R4 ``ride[k][(l, d)] => not ride[k-1][(l, -d)]``: no backtracking on the same line, nor onto
  another line of the same track the other way (``reversals``); any other change is free;
* C ``sum_k at[k][s] <= cap(s)`` per station (the obtainable copies; ``cap = 0`` bans ``s``).

Objective: maximise ``kept = sum_k at[k][rack[k]]``; exchanges = ``N - kept``. With ExactlyOne,
``(at[k], ride[k])`` is exactly the hop state ``(station, line, direction)`` of
:func:`tubedeck.solver.oneday.exchanges.state_space`, and R3/R4 are its step relation, so the model's solutions are
the valid journeys of :mod:`tubedeck.games.oneday.journey` that respect the copy limits.

**Build once, instantiate per rack.** Everything except C's right-hand sides, the objective and
optional hints/cuts is the same for every rack, so :func:`build_template` builds it once per map
(800 Booleans, ~2,400 constraints; ~20 ms) and :func:`build_model` clones it (a C++ proto copy) and edits.

**Search** (:func:`solve_model`): one worker, no presolve, probing or symmetry detection (all
cost more than they save on this small model), no LP (``linearization_level=0``), no SAT
inprocessing, and core-based optimisation (the objective is a sum of 10 literals: a MaxSAT
problem). Measured on 1,000 four-player racks: median ~5 ms, against ~160 ms for the hop-state
model with one Boolean per slot and automaton state. The time limit only guards: when it is hit
the status is UNKNOWN (or FEASIBLE with a journey), never INFEASIBLE.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
from ortools.sat.python import cp_model

from tubedeck.solver.cpsat import small_model_solver, solve


@dataclass(frozen=True)
class JourneyTemplate:
    """The rack-independent model: proto indices of ``at``/``ride`` and of the cap constraints."""

    model: cp_model.CpModel
    at: np.ndarray  # (N, S) proto index of at[k][s]
    ride: np.ndarray  # (N, R) proto index of ride[k][r]; row 0 is unused (-1)
    cap_constraints: tuple[int, ...]  # per station, the proto index of its C constraint
    rides: tuple[tuple[int, int], ...]  # ride index -> (line index, direction +1/-1)


@dataclass(frozen=True)
class RackModel:
    """One rack's model, ready to solve."""

    model: cp_model.CpModel
    kept: cp_model.IntVar


def build_template(runs: Sequence[Sequence[int]], n_stations: int, slots: int,
                   reversals: Sequence = ()) -> JourneyTemplate:
    """The model of the module docstring without a rack; ``runs[l]`` = station indices along line ``l``;
    ``reversals``: ``((l, d), (l2, d2))`` pairs a ride may not follow (R4; the same line back is
    always one)."""
    model = cp_model.CpModel()
    rides = tuple((li, d) for li in range(len(runs)) for d in (+1, -1))
    ride_of = {rd: r for r, rd in enumerate(rides)}
    at = [[model.new_bool_var(f"at[{k}][{s}]") for s in range(n_stations)] for k in range(slots)]
    # ride[0] is empty: slot 0 is the start, reached by no ride
    ride: list[list[cp_model.IntVar]] = [[]] + [[model.new_bool_var(f"ride[{k}][{li}{'+-'[d < 0]}]")
                                                 for li, d in rides] for k in range(1, slots)]
    for k in range(slots):
        model.add_exactly_one(at[k])
    for k in range(1, slots):
        model.add_exactly_one(ride[k])
        for r, (li, d) in enumerate(rides):
            run = list(runs[li]) if d > 0 else list(runs[li])[::-1]  # stations in travel order
            on = ride[k][r]
            model.add_bool_or([at[k][t] for t in run[1:]]).only_enforce_if(on)  # R1
            model.add_bool_or([at[k - 1][s] for s in run[:-1]]).only_enforce_if(on)  # R2
            for p, t in enumerate(run[1:], 1):  # R3
                model.add_bool_or([at[k - 1][s] for s in run[:p]]).only_enforce_if([on, at[k][t]])
    forbidden = {(ride_of[(li, -d)], ride_of[(li, d)]) for li, d in rides}
    forbidden |= {(ride_of[a], ride_of[b]) for a, b in reversals}
    for k in range(2, slots):  # R4: no going back the way one came on the same line or track
        for before, after in sorted(forbidden):
            model.add_implication(ride[k][after], ~ride[k - 1][before])
    caps = tuple(model.add(sum(at[k][s] for k in range(slots)) <= slots).index for s in range(n_stations))  # C
    at_idx = np.array([[v.index for v in row] for row in at], dtype=np.int64)
    ride_idx = np.full((slots, len(rides)), -1, dtype=np.int64)
    for k in range(1, slots):
        ride_idx[k] = [v.index for v in ride[k]]
    return JourneyTemplate(model, at_idx, ride_idx, caps, rides)


def build_model(tpl: JourneyTemplate, rack: Iterable[int], caps: np.ndarray,
                hint: Sequence[tuple[int, int | None]] = (), upper: int | None = None) -> RackModel:
    """Clone the template and add the rack: C's right-hand sides, ``kept`` and the objective.

    ``hint``: per slot ``(station, ride or None)`` of a journey to try first; ``upper``: a proved
    upper bound on ``kept`` (a cut; only the ``auto`` engine passes one)."""
    slots = tpl.at.shape[0]
    model = tpl.model.clone()
    proto = model.proto
    for s, c in enumerate(tpl.cap_constraints):
        if caps[s] < slots:
            proto.constraints[c].linear.domain[1] = max(int(caps[s]), 0)
    var = model.get_bool_var_from_proto_index
    kept = model.new_int_var(0, slots if upper is None else int(upper), "kept")
    model.add(kept == sum(var(int(tpl.at[k, s])) for k, s in enumerate(rack)))
    model.maximize(kept)
    for k, (s, r) in enumerate(hint):
        model.add_hint(var(int(tpl.at[k, s])), True)
        if r is not None:
            model.add_hint(var(int(tpl.ride[k, r])), True)
    return RackModel(model, kept)


def solve_model(rm: RackModel, time_limit: float = 10.0, workers: int = 1,
                wall: float | None = None) -> tuple[str, cp_model.CpSolver]:
    """Solve with the parameters of the module docstring; the status name as CP-SAT reports it.
    ``time_limit`` is deterministic (a check's answers the same anywhere); ``wall``, if given, caps
    the wall-clock seconds too (``solve oneday --time-limit``: the whole command's)."""
    solver = small_model_solver(time_limit, workers)
    if wall is not None:
        solver.parameters.max_time_in_seconds = min(solver.parameters.max_time_in_seconds, max(wall, 0.01))
    solver.parameters.optimize_with_core = True  # measured: 6.5 -> 5.5 ms median per rack
    return solve(solver, rm.model), solver


def extract(tpl: JourneyTemplate, solver: cp_model.CpSolver) -> list[int]:
    """The station index at every slot of the solver's journey."""
    values = np.asarray(solver.response_proto.solution, dtype=np.int64)
    return [int(np.flatnonzero(values[row])[0]) for row in tpl.at]
