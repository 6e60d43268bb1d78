"""One Day in London: the fewest exchanges that turn a rack into a valid journey (CP-SAT).

**The question.** A rack is 10 cards in slots. An exchange replaces the card in one slot. A
target journey ``J`` keeps slot ``k`` when ``J[k]`` is the station already there, so the fewest
exchanges is ``10 - max kept`` over every valid journey ``J`` whose stations are obtainable:
``J`` may use station ``s`` at most ``cap(s)`` times, ``cap(s)`` = the deck's copies of ``s`` less
the copies in the *other* players' racks. (The player's own cards count as obtainable: a card
exchanged out goes face up on a discard pile and can be drawn again.)

**The state space.** A journey is a walk over *states*: at slot 1 a station; at later slots a
``(station, line, direction)`` triple saying how the rider arrived. State ``q -> q'`` is a legal
step when ``q``'s station is on ``q'``'s line on the correct side of ``q'``'s station, and
``q`` did not arrive on the same line going the other way (the backtracking rule). The rules of
:mod:`tubedeck.games.oneday_rules` are exactly the walks of this layered automaton.

**The CP-SAT model (engine of record)** (:func:`build_model`, :func:`solve_model`,
:func:`extract`): one Boolean ``y[k][q]`` per slot and live state (states pruned by forward and
backward reachability, and stations with ``cap = 0`` removed); ``ExactlyOne`` per slot; a clause
``y[k][q'] => OR y[k-1][pred(q')]`` per state; ``sum_k [station at k = s] <= cap(s)``;
maximise the kept slots. A hint and an upper bound come from the bound below.

**The exact bound** (:func:`relaxed_best`): the same automaton as a longest-path dynamic
programme with numpy (max-plus products over the transition matrices), ignoring only the
multi-use ``cap`` limits (``cap = 0`` stations are still removed). Its value is an upper bound on
kept slots; when the journey it finds also respects ``cap`` it *is* optimal, and with
``engine="auto"`` CP-SAT is then skipped (``engine`` in the result says which proved it). If the
relaxation has no journey at all, neither has the model (INFEASIBLE). Otherwise CP-SAT decides;
its status is reported as it is (UNKNOWN is not INFEASIBLE).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from ortools.sat.python import cp_model

from tubedeck.games.oneday import GameMap
from tubedeck.games.oneday_rules import Journey, validate

NEG = -(10**6)


@dataclass(frozen=True)
class StateSpace:
    """The automaton of valid journeys on a game map, built once per map."""

    stations: tuple[str, ...]  # station index -> id
    hops: tuple[tuple[int, str, int], ...]  # hop state -> (station index, line, direction)
    hop_station: np.ndarray  # (H,) station index of each hop state
    first_step: np.ndarray  # (S, H) bool: slot-1 station -> hop state
    step: np.ndarray  # (H, H) bool: hop state -> hop state
    slots: int

    @property
    def index(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.stations)}


def state_space(gmap: GameMap, slots: int | None = None) -> StateSpace:
    """Enumerate the states and the legal steps between them."""
    stations = tuple(sorted(gmap.stations))
    idx = {s: i for i, s in enumerate(stations)}
    hops = []
    for line, run in sorted(gmap.runs.items()):
        for pos, s in enumerate(run.stations):
            if pos > 0:
                hops.append((idx[s], line, +1))
            if pos < len(run.stations) - 1:
                hops.append((idx[s], line, -1))
    hops.sort()
    pos = {(line, s): i for line, run in gmap.runs.items() for i, s in enumerate(run.stations)}
    S, H = len(stations), len(hops)
    first = np.zeros((S, H), dtype=bool)
    for h, (t, line, d) in enumerate(hops):
        pt = pos[(line, stations[t])]
        for s in gmap.runs[line].stations:
            if (pos[(line, s)] - pt) * d < 0:
                first[idx[s], h] = True
    step = np.zeros((H, H), dtype=bool)
    for q, (s, line, d) in enumerate(hops):
        for h in range(H):
            if first[s, h] and not (hops[h][1] == line and hops[h][2] != d):
                step[q, h] = True
    hop_station = np.array([h[0] for h in hops], dtype=np.int64)
    return StateSpace(stations, tuple(hops), hop_station, first, step, slots or gmap.recipe.slots)


@dataclass(frozen=True)
class Solution:
    """The answer for one rack.

    ``status``: OPTIMAL, FEASIBLE (a journey, optimality unproved), INFEASIBLE (no journey from
    the obtainable cards), UNKNOWN (time ran out first). ``exchanges`` is ``None`` unless a journey
    was found; ``lower_bound`` is proved either way; ``kept`` lists the kept slots (1-based)."""

    status: str
    exchanges: int | None
    lower_bound: int
    kept: tuple[int, ...]
    journey: Journey | None
    engine: str  # "bound" (exact relaxation certificate) or "cp-sat"

    @property
    def reachable(self) -> bool | None:
        return True if self.journey else (False if self.status == "INFEASIBLE" else None)

    def as_dict(self) -> dict:
        return {"status": self.status, "exchanges": self.exchanges, "lower_bound": self.lower_bound,
                "kept": list(self.kept), "engine": self.engine, "reachable": self.reachable,
                "journey": self.journey.as_dict() if self.journey else None}


def _masks(space: StateSpace, caps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return caps > 0, caps[space.hop_station] > 0


def relaxed_best(space: StateSpace, rack: np.ndarray, caps: np.ndarray,
                 tracked: Sequence[int] = ()) -> tuple[int, list[int]]:
    """Longest path in the layered automaton: (max kept slots, the states of one best journey).

    Only the ``caps`` of the ``tracked`` stations are enforced (their use counts ride along in
    the DP state, mixed-radix encoded in ``c``); other stations are limited only by ``cap > 0``.
    So the value is an upper bound on the capped optimum. ``states[0]`` is a station index,
    ``states[k>0]`` hop-state indices; ``(NEG, [])`` when no journey exists even so."""
    ok_s, ok_h = _masks(space, caps)
    n_st = len(space.stations)
    inc = np.zeros(n_st, dtype=np.int64)
    size = 1
    for s in tracked:
        inc[s] = size
        size *= int(caps[s]) + 1
    codes = np.arange(size)

    def room(s: int) -> np.ndarray:  # counts c in which station s may be used once more
        return np.ones(size, bool) if not inc[s] else (codes // inc[s]) % (int(caps[s]) + 1) < caps[s]

    value = np.full((n_st, size), NEG, dtype=np.int64)
    for s in np.flatnonzero(ok_s):
        value[s, inc[s]] = int(s == rack[0])
    back = []
    trans = space.first_step
    hop_inc = inc[space.hop_station]
    for k in range(1, space.slots):
        scores = np.where(trans[:, :, None], value[:, None, :], NEG)
        arg = scores.argmax(axis=0)
        best = np.take_along_axis(scores, arg[None], axis=0)[0]
        best = np.where(ok_h[:, None] & (best > NEG // 2), best + (space.hop_station == rack[k])[:, None], NEG)
        value = np.full_like(best, NEG)
        plain = hop_inc == 0
        value[plain] = best[plain]
        for h in np.flatnonzero(~plain):
            fits = room(int(space.hop_station[h]))
            value[h, codes[fits] + hop_inc[h]] = best[h, fits]
        back.append(arg)
        trans = space.step
    end_h, end_c = np.unravel_index(int(value.argmax()), value.shape)
    if value[end_h, end_c] <= NEG // 2:
        return NEG, []
    total = int(value[end_h, end_c])
    states, c = [int(end_h)], int(end_c)
    for arg in reversed(back):
        c -= int(hop_inc[states[-1]])
        states.append(int(arg[states[-1], c]))
    return total, states[::-1]


def lazy_best(space: StateSpace, rack: np.ndarray, caps: np.ndarray,
              max_codes: int = 64) -> tuple[int, list[int], bool]:
    """Enforce caps lazily: track the stations the last best journey over-used, and repeat.

    Returns ``(value, states, exact)``: ``exact`` when the journey respects every cap (then it is
    optimal); otherwise the tracked state grew past ``max_codes`` and ``value`` is only a bound."""
    tracked: list[int] = []
    while True:
        value, states = relaxed_best(space, rack, caps, tracked)
        if not states:
            return value, states, True
        counts = np.bincount(_stations(space, states), minlength=len(caps))
        over = [int(s) for s in np.flatnonzero(counts > caps)]
        if not over:
            return value, states, True
        tracked += over
        if int(np.prod([int(caps[s]) + 1 for s in tracked])) > max_codes:
            return value, states, False


def _stations(space: StateSpace, states: Sequence[int]) -> list[int]:
    return [states[0]] + [int(space.hop_station[h]) for h in states[1:]]


def _journey(gmap: GameMap, space: StateSpace, states: Sequence[int]) -> Journey:
    """The journey through the chosen states, described with the validator's fewest rides."""
    stops = [space.stations[states[0]]] + [space.stations[space.hops[h][0]] for h in states[1:]]
    verdict = validate(gmap, stops, space.slots)
    assert verdict.journey is not None, f"solver produced an invalid journey: {verdict.message}"
    return verdict.journey


@dataclass(frozen=True)
class ModelVars:
    """The model's decision variables: ``y[k]`` maps state index -> BoolVar for slot ``k``."""

    y: tuple[dict[int, cp_model.IntVar], ...]
    kept: cp_model.LinearExpr


def _station(space: StateSpace, slot: int, q: int) -> int:
    """Station index of state ``q`` at 0-based ``slot`` (slot 0 states are stations)."""
    return q if slot == 0 else int(space.hop_station[q])


def _state_name(space: StateSpace, slot: int, q: int) -> str:
    if slot == 0:
        return f"y[{slot}][{space.stations[q]}]"
    s, line, d = space.hops[q]
    return f"y[{slot}][{space.stations[s]}|{line}|{d:+d}]"


def _live(space: StateSpace, caps: np.ndarray) -> list[np.ndarray]:
    """Per slot, the states on some full-length walk (forward and backward reachability)."""
    ok_s, ok_h = _masks(space, caps)
    fwd = [ok_s]
    trans = space.first_step
    for _ in range(1, space.slots):
        fwd.append(ok_h & (fwd[-1] @ trans))
        trans = space.step
    live = [fwd[-1]]
    for k in range(space.slots - 2, -1, -1):
        trans = space.first_step if k == 0 else space.step
        live.append(fwd[k] & (trans @ live[-1]))
    return live[::-1]


def build_model(space: StateSpace, rack: Sequence[int], caps: np.ndarray, hint: Sequence[int] = (),
                upper: int | None = None) -> tuple[cp_model.CpModel, ModelVars]:
    """The layered-automaton model of the module docstring."""
    model = cp_model.CpModel()
    live = _live(space, caps)
    y = tuple({int(q): model.new_bool_var(_state_name(space, k, int(q))) for q in np.flatnonzero(live[k])}
              for k in range(space.slots))
    for k in range(space.slots):
        model.add_exactly_one(y[k].values())
    for k in range(1, space.slots):
        trans = space.first_step if k == 1 else space.step
        for q, var in y[k].items():
            preds = [y[k - 1][p] for p in np.flatnonzero(trans[:, q]) if p in y[k - 1]]
            model.add_bool_or(preds).only_enforce_if(var)
    uses: dict[int, list] = {}
    kept_terms = []
    for k in range(space.slots):
        for q, var in y[k].items():
            s = _station(space, k, q)
            uses.setdefault(s, []).append(var)
            if s == rack[k]:
                kept_terms.append(var)
    for s, vars_ in uses.items():
        if caps[s] < space.slots:
            model.add(sum(vars_) <= int(caps[s]))
    kept = sum(kept_terms) if kept_terms else cp_model.LinearExpr.constant(0)
    if upper is not None:
        model.add(kept <= upper)
    model.maximize(kept)
    for k, q in enumerate(hint):
        if q in y[k]:
            for other, var in y[k].items():
                model.add_hint(var, other == q)
    return model, ModelVars(y, kept)


def solve_model(model: cp_model.CpModel, time_limit: float = 10.0, workers: int = 1) -> tuple[str, cp_model.CpSolver]:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.cp_model_presolve = False  # measured: presolve costs more than it saves here
    status = solver.solve(model)
    return solver.status_name(status), solver


def extract(space: StateSpace, vars_: ModelVars, solver: cp_model.CpSolver) -> list[int]:
    """The state chosen at every slot."""
    return [next(q for q, v in vars_.y[k].items() if solver.boolean_value(v)) for k in range(space.slots)]


def caps_for(space: StateSpace, copies: Mapping[str, int], others: Sequence[str] = ()) -> np.ndarray:
    """Obtainable copies per station index: the deck's copies less the other racks' cards."""
    caps = np.array([copies.get(s, 0) for s in space.stations], dtype=np.int64)
    idx = space.index
    for s in others:
        caps[idx[s]] -= 1
    return caps


def solve_rack(gmap: GameMap, space: StateSpace, rack: Sequence[str], caps: np.ndarray,
               engine: str = "auto", time_limit: float = 10.0) -> Solution:
    """Fewest exchanges for ``rack`` (station ids).

    ``engine="auto"``: the exact bound decides when it can (see the module docstring), else
    CP-SAT with the bound as a cut and the bound's journey as a hint. ``engine="cp-sat"``: always
    CP-SAT, hinted but without the bound, so its OPTIMAL owes nothing to the dynamic programme."""
    idx = space.index
    r = np.array([idx[s] for s in rack], dtype=np.int64)
    n = space.slots
    value, states, exact = lazy_best(space, r, caps)
    if not states:
        return Solution("INFEASIBLE", None, n, (), None, "bound")
    if exact and engine == "auto":
        kept = tuple(k + 1 for k, q in enumerate(states) if _station(space, k, q) == r[k])
        return Solution("OPTIMAL", n - value, n - value, kept, _journey(gmap, space, states), "bound")
    model, vars_ = build_model(space, r, caps, hint=states, upper=None if engine == "cp-sat" else value)
    status, solver = solve_model(model, time_limit)
    if status in ("OPTIMAL", "FEASIBLE"):
        chosen = extract(space, vars_, solver)
        kept_n = int(round(solver.objective_value))
        bound = n - int(min(value, np.floor(solver.best_objective_bound + 1e-9)))
        kept = tuple(k + 1 for k, q in enumerate(chosen) if _station(space, k, q) == r[k])
        return Solution(status, n - kept_n, bound, kept, _journey(gmap, space, chosen), "cp-sat")
    return Solution(status, None, n - value, (), None, "cp-sat")
