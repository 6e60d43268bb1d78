"""Tube Dice solo: the best score for a known roll sequence, as a time-expanded CP-SAT model.

Solo, the player rolls every turn and keeps any 2 of the 5 dice, so a turn's use is a choice of
(station, number, sections) at the fewest passes over the ordered pairs of that roll's dice.

**Variables** (``T`` turns, ``S`` stations, ``C`` connections, ``L`` lines):

* ``x[t, s, n, k]`` (Bool): at turn ``t`` the player writes/uses number ``n`` at station ``s``
  and marks its connections of ``k`` sections; created only where the roll allows it within the
  passes (``cost[t, n, k]`` passes) and ``s`` has a connection of ``k`` sections; AtMostOne per turn;
* ``val[s, n]``: station ``s`` holds ``n`` (AtMostOne per station: a number is written once);
* ``f[t, s]``, ``mk[t, c]``: station filled / connection marked by the end of turn ``t``;
* ``comp[t, l]``: line ``l`` complete at the end of turn ``t`` (stations and connections);
  ``ended[t]``: some ``lines_to_end`` lines are complete (the game is over after turn ``t``).

**Constraints**: ``x => val[s, n]`` (a filled station is reused only with its own number); the
first use is on the star (``x[t, s != star] => f[t-1, star]``); an empty station needs a marked
connection to it (``x[t, s] => f[t-1, s] or OR mk[t-1, c at s]``); ``f`` and ``mk`` are the
OR of their past and this turn's uses (a use marks every connection at ``s`` with ``k``
sections); ``sum cost * x <= passes``; ``x[t] => not ended[t-1]``.

**Objective**: the high points of the lines and zones complete at the end (solo, every
completion is a first one) plus ``pass_points`` per pass left. The moves found are replayed
through the rules engine (:mod:`tubedeck.games.dice.play`), which must give the same score.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from tubedeck.games.dice.edition import Edition
from tubedeck.solver.cpsat import MAX_TIME_LIMIT, configure, solve


def pair_cost(dice: tuple[int, ...], n: int, k: int) -> int:
    """The fewest passes to read two distinct dice of a roll as (station n, sections k)."""
    return min(abs(dice[i] - n) + abs(dice[j] - k) for i in range(len(dice)) for j in range(len(dice)) if i != j)


@dataclass(frozen=True)
class ModelResult:
    status: str
    score: int | None
    bound: float
    moves: tuple[tuple[int, int, int, int], ...]  # (turn, station, number, sections), turn 0-based
    wall: float
    det: float = 0.0  # deterministic seconds charged (CP-SAT's deterministic time; the target search's nodes)


def solve_sequence(edition: Edition, rolls: tuple[tuple[int, ...], ...], time_limit: float = 10.0,
                   hint: tuple[tuple[int, int, int, int], ...] = (), det_limit: float | None = None) -> ModelResult:
    """``time_limit``: wall-clock seconds for the call (building the model included);
    ``det_limit``: CP-SAT's deterministic seconds (None: the wall clock alone), the budget whose
    answer is the same on any machine."""
    start = time.perf_counter()
    b, rules = edition.board, edition.rules
    m = b.masks
    P, T, S = rules.passes, len(rolls), len(b.stations)
    target = min(rules.lines_to_end, len(b.lines))
    model = cp_model.CpModel()
    secs = [sorted({k for _, k, _ in m.at[s]}) for s in range(S)]
    conns_at = [[c for c, _, _ in m.at[s]] for s in range(S)]
    val = [[model.new_bool_var(f"val{s}_{n}") for n in range(7)] for s in range(S)]
    for s in range(S):
        model.add(val[s][0] == 0)
        model.add_at_most_one(val[s][1:])
    false = model.new_constant(0)
    f = [[false] * S]
    mk = [[false] * len(b.connections)]
    ended = [false]
    most = max(len(b.lines_at(s)) for s in range(S))
    x: dict[tuple[int, int, int, int], cp_model.IntVar] = {}
    cost: dict[tuple[int, int, int, int], int] = {}
    for t in range(1, T + 1):
        dice = rolls[t - 1]
        here: list = []
        by_station: dict[int, list] = {s: [] for s in range(S)}
        by_conn: dict[int, list] = {c: [] for c in range(len(b.connections))}
        for s in range(S):
            if t == 1 and s != b.star:
                continue  # the first use is on the star
            for n in range(1, 7):
                for k in secs[s]:
                    c = pair_cost(dice, n, k)
                    if c > P:
                        continue
                    v = model.new_bool_var(f"x{t}_{s}_{n}_{k}")
                    x[(t, s, n, k)], cost[(t, s, n, k)] = v, c
                    here.append(v)
                    by_station[s].append(v)
                    model.add_implication(v, val[s][n])
                    model.add_implication(v, ended[t - 1].Not())
                    if s != b.star:
                        model.add_implication(v, f[t - 1][b.star])
                        model.add_bool_or([v.Not(), f[t - 1][s], *(mk[t - 1][c2] for c2 in conns_at[s])])
                    for c2, k2, _ in m.at[s]:
                        if k2 == k:
                            by_conn[c2].append(v)
        model.add_at_most_one(here)
        ft = []
        for s in range(S):
            v = model.new_bool_var(f"f{t}_{s}")
            model.add_bool_or([v.Not(), f[t - 1][s], *by_station[s]])
            for lit in [f[t - 1][s], *by_station[s]]:
                model.add_implication(lit, v)
            ft.append(v)
        mt = []
        for c in range(len(b.connections)):
            v = model.new_bool_var(f"mk{t}_{c}")
            model.add_bool_or([v.Not(), mk[t - 1][c], *by_conn[c]])
            for lit in [mk[t - 1][c], *by_conn[c]]:
                model.add_implication(lit, v)
            mt.append(v)
        f.append(ft)
        mk.append(mt)
        model.add(sum(ft) <= t)  # redundant: one new station a turn at most (tightens the bound)
        comp = []
        for i, line in enumerate(b.lines):
            lits = [ft[s] for s in line.stations] + [mt[c] for c in line.connections]
            v = model.new_bool_var(f"comp{t}_{i}")
            for lit in lits:
                model.add_implication(v, lit)
            model.add_bool_or([v, *(lit.Not() for lit in lits)])
            comp.append(v)
        # redundant: one use completes at most the lines through one station, and a game that
        # reached lines_to_end stops, so at most target - 1 + most lines at a station are complete
        model.add(sum(comp) <= target - 1 + most)
        if t < T:
            e = model.new_bool_var(f"ended{t}")
            model.add(sum(comp) <= target - 1 + len(b.lines) * e)
            ended.append(e)
        else:
            final_lines = comp
    zones = []
    for z in b.zones:
        v = model.new_bool_var(f"zone{z.zone}")
        for s in z.stations:
            model.add_implication(v, f[T][s])
        zones.append(v)
    spent = sum(cost[key] * v for key, v in x.items())
    model.add(spent <= P)
    score = (sum(a.high * v for a, v in zip(edition.lines, final_lines)) + sum(a.high * v for a, v in zip(edition.zones, zones))
             + rules.pass_points * (P - spent))
    model.maximize(score)
    for t, s, n, k in hint:  # moves as ModelResult gives them: turn 0-based, x's turns 1-based
        if (t + 1, s, n, k) not in x:
            raise ValueError(f"hinted move {(t, s, n, k)} is not a possible use of that turn's roll")
        model.add_hint(x[(t + 1, s, n, k)], 1)
    solver = configure(cp_model.CpSolver(), MAX_TIME_LIMIT if det_limit is None else det_limit, workers=1)
    solver.parameters.max_time_in_seconds = max(time_limit - (time.perf_counter() - start), 0.001)
    # The full LP relaxation (linearization 2) is what proves 20-turn optima: with the default
    # level the bound stayed at 57 for 20 s on London seeds 0-1, with it both proved 41 in 9-13 s.
    solver.parameters.linearization_level = 2
    status = solve(solver, model)
    # CP-SAT's bound, or the trivial one (every line and zone, no pass spent) when it has none yet
    trivial = sum(a.high for a in edition.lines + edition.zones) + rules.pass_points * P
    found = solver.best_objective_bound
    bound = float(min(trivial, found)) if status != "UNKNOWN" or 0 < found < trivial else float(trivial)
    wall, det = time.perf_counter() - start, solver.deterministic_time
    if status not in ("OPTIMAL", "FEASIBLE"):
        return ModelResult(status, None, bound, (), wall, det)
    moves = tuple(sorted((t - 1, s, n, k) for (t, s, n, k), v in x.items() if solver.value(v)))
    return ModelResult(status, round(solver.objective_value), bound, moves, wall, det)
