"""The best possible round of Next Station: London for a known flip order: a CP-SAT model.

The model chooses the line as a tree rooted at the departure station and, separately, the turn
on which each of its stations is reached (a first model indexed arcs by turn; choosing the tree
and the timing apart is 2-20 times faster, as the same tree no longer appears once per timing).

**Variables** (``T`` turns):

* ``at[v, t]`` (Bool): station v is reached on turn t; only if v shows turn t's symbol (a Joker
  or the ? station: any) and could be reached by then (a section from a station reachable
  before t, not drawn already on the sheet nor crossing a drawn one);
* ``y[u, v]`` (Bool): the line has the section u-v, drawn from u to v.

**Constraints**, one per rule:

* one section per turn: ``sum_v at[v, t] <= 1``; no loops: ``sum_t at[v, t] <= 1`` = on[v];
* every station on the line but the departure is entered by exactly one section, from a station
  on the line reached on an earlier turn: ``at[v, t] + y[u, v] - 1 <= sum_{t' < t} at[u, t']``;
* from an end of the line: a station has at most one section drawn from it (the departure two),
  except one branch drawn on the turn a Railroad Switch came with (turn ``s``): ``out(u) <=
  limit + e[u]``, ``e[u]`` only if a section from u reaches its station on turn s, and then no
  section from u is drawn after s (u stopped being an end); at most one branch;
* no crossing: of two crossing sections at most one is drawn (either direction).

**Objective**: ``D x M + thames_points x (Thames sections)``, D = districts with a station of the
line, M = the most stations of the line in one district. The product's own bound is useless for
proofs (118 against an optimum of 40), so :func:`_by_biggest` solves one linear model per value of
M. The departure is always on the line: an empty round scores 1 x 1.

The budget (:class:`.engines.Budget`) only guards: a cut-short search reports FEASIBLE with its
bound, or UNKNOWN, never a verdict. The values of M share one budget: CP-SAT's deterministic time
is charged (``tubedeck.solver.deterministic_time``, the same on any machine) and the wall clock is a
deadline, so a ``--det-limit`` answer does not depend on the machine's load. :mod:`.exhaustive` is the independent check (tests).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from tubedeck.games.nextstation.best import RoundResult
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.solver.cpsat import WALL_GUARD, small_model_solver, solve

from .engines import Budget, Reporter


@dataclass
class RoundModel:
    m: cp_model.CpModel
    at: dict  # (v, t) -> Bool
    y: dict  # (u, v) -> (Bool, section index)
    counts: list
    ons: list
    thames: list
    on: dict  # station (departure excluded) -> linear expression: 1 when on the line


def _reachable(board: Board, turns: tuple[Turn, ...], departure: str, banned: set[int]) -> list[set[str]]:
    """reach[t]: the stations a line could hold before turn t."""
    reach = [{departure}]
    for turn in turns:
        new = {sec.other(u) for u in reach[-1] for sec in board.incident[u]
               if sec.index not in banned and board.matches(sec.other(u), turn.symbol)}
        reach.append(reach[-1] | new)
    return reach


def build(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str, drawn: frozenset[int],
          m: cp_model.CpModel | None = None, tag: str = "") -> RoundModel:
    """The round's variables and rules, in a new model or added to ``m`` (names prefixed ``tag``:
    the whole-game model holds one round model per round)."""
    banned = set(drawn) | {j for i in drawn for j in board.crossing[i]}
    reach = _reachable(board, turns, departure, banned)
    m = m if m is not None else cp_model.CpModel()
    at = {}
    for t, turn in enumerate(turns):
        for v in sorted(reach[t + 1] - {departure}):
            if board.matches(v, turn.symbol) and any(s.other(v) in reach[t] and s.index not in banned
                                                     for s in board.incident[v]):
                at[v, t] = m.new_bool_var(f"{tag}at_{v}_{t}")
        m.add_at_most_one(var for (v, tt), var in at.items() if tt == t)
    times: dict[str, list[tuple[int, cp_model.IntVar]]] = {}
    for (v, t), var in at.items():
        times.setdefault(v, []).append((t, var))
    on = {v: sum(var for _, var in lst) for v, lst in times.items()}
    for v in on:
        m.add(on[v] <= 1)
    y = {}
    for sec in board.sections:
        if sec.index in banned:
            continue
        for u, v in ((sec.a, sec.b), (sec.b, sec.a)):
            if v in on and (u == departure or u in on):
                y[u, v] = (m.new_bool_var(f"{tag}y_{u}_{v}"), sec.index)
    parents: dict[str, list] = {}
    children: dict[str, list] = {}
    for (u, v), (var, _) in y.items():
        parents.setdefault(v, []).append(var)
        children.setdefault(u, []).append((v, var))
    for v in on:
        m.add(sum(parents.get(v, [])) == on[v])
    for (u, v), (var, _) in y.items():
        if u == departure:
            continue
        m.add(var <= on[u])
        for t, av in times[v]:  # u is reached on a turn before v's
            m.add(av + var - 1 <= sum(w for tt, w in times[u] if tt < t))
    _ends(m, turns, departure, at, children, tag)
    used: dict[int, list] = {}
    for var, i in y.values():
        used.setdefault(i, []).append(var)
    for i, j in board.crossings:
        if i in used and j in used:
            m.add(sum(used[i]) + sum(used[j]) <= 1)
    per: dict[str, list] = {board.by_id[departure].district: [1]}
    for v, expr in on.items():
        per.setdefault(board.by_id[v].district, []).append(expr)
    n = len(turns) + 1
    counts, ons = [], []
    for d, exprs in per.items():
        c = m.new_int_var(0, n, f"{tag}count_{d}")
        m.add(c == sum(exprs))
        o = m.new_bool_var(f"{tag}on_{d}")
        m.add(o <= c)
        counts.append(c)
        ons.append(o)
    thames = [var for var, i in y.values() if board.sections[i].thames]
    return RoundModel(m, at, y, counts, ons, thames, on)


def _ends(m: cp_model.CpModel, turns, departure: str, at: dict, children: dict, tag: str = "") -> None:
    """Sections start at an end of the line, but one branch on the Railroad Switch's turn."""
    s = next((t for t, turn in enumerate(turns) if turn.switch), None)
    branches = []
    for u, kids in children.items():
        limit = 2 if u == departure else 1
        if s is None:
            m.add(sum(var for _, var in kids) <= limit)
            continue
        e = m.new_bool_var(f"{tag}branch_{u}")
        branches.append(e)
        m.add(sum(var for _, var in kids) <= limit + e)
        on_switch = []
        for v, var in kids:
            if (v, s) in at:
                w = m.new_bool_var(f"{tag}switch_{u}_{v}")
                m.add(w <= var)
                m.add(w <= at[v, s])
                on_switch.append(w)
            for t in range(s + 1, len(turns)):
                if (v, t) in at:  # after the branch, u is no end of the line
                    m.add(var + at[v, t] + e <= 2)
        m.add(e <= sum(on_switch))
    if branches:
        m.add(sum(branches) <= 1)


def best_round(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
               drawn: frozenset[int] = frozenset(), time_limit: float = 30.0, workers: int = 1,
               budget: Budget | None = None) -> RoundResult:
    """The best line for one round on a sheet where ``drawn`` sections already exist, within
    ``budget`` (default: ``time_limit`` deterministic seconds, the wall clock a guard of
    ``WALL_GUARD`` times it: the same answer on any machine)."""
    if budget is None:
        budget = Budget.of(time_limit * WALL_GUARD, time_limit)
    model = build(board, book, turns, departure, drawn)
    return _by_biggest(model, book.rules.thames_points, len(turns), departure, budget, workers)


def _draws(model: RoundModel, solver: cp_model.CpSolver, var) -> tuple[tuple[int, str, str], ...]:
    when = {v: t for (v, t), a in model.at.items() if solver.value(var(a.index))}
    return tuple(sorted((when[v], u, v) for (u, v), (b, _) in model.y.items() if solver.value(var(b.index))))


def _by_biggest(model: RoundModel, points: int, turns: int, departure: str, budget: Budget,
                workers: int) -> RoundResult:
    """One linear model per value k of the biggest district: every count <= k and one count = k,
    so ``k x D + Thames`` is the score exactly. Each must beat the best score so far (infeasible:
    nothing better with this k); a k whose bound ``k x min(districts, T + 2 - k) + Thames``
    cannot beat it is skipped. OPTIMAL when every model is decided."""
    n = turns + 1
    counts, ons = model.counts, model.ons
    thames_cap = points * min(len(model.thames), turns)
    ks = sorted(range(1, n + 1), key=lambda k: -k * min(len(ons), n + 1 - k))
    best_score: int | None = None
    best_draws: tuple[tuple[int, str, str], ...] = ()
    bound, decided, t0 = 0, True, time.perf_counter()
    budget.update(bound=max(k * min(len(ons), n + 1 - k) for k in ks) + thames_cap)
    for k in ks:
        cap = k * min(len(ons), n + 1 - k) + thames_cap
        if best_score is not None and cap <= best_score:
            continue
        if budget.spent():  # nothing left for this value: its cap stays in the bound
            decided, bound = False, max(bound, cap)
            continue
        mk = model.m.clone()
        var = mk.get_int_var_from_proto_index
        picks = [mk.new_bool_var(f"biggest_{j}") for j in range(len(counts))]
        for c, pick in zip(counts, picks):
            mk.add(var(c.index) <= k)
            mk.add(var(c.index) >= k).only_enforce_if(pick)
        mk.add_bool_or(picks)
        score = k * sum(var(o.index) for o in ons) + points * sum(var(t.index) for t in model.thames)
        if best_score is not None:
            mk.add(score >= best_score + 1)
        mk.maximize(score)
        solver = budget.cp_sat(small_model_solver(1.0, workers))
        status = solve(solver, mk, Reporter(budget, best_score, bound=False) if budget.progress is not None else None)
        budget.charge(solver, status)
        if status in ("OPTIMAL", "FEASIBLE"):
            best_score, best_draws = int(solver.objective_value), _draws(model, solver, var)
        if status in ("FEASIBLE", "UNKNOWN"):
            decided = False
            bound = max(bound, min(cap, int(solver.best_objective_bound)) if status == "FEASIBLE" else cap)
        budget.update(best=best_score, bound=max(bound, best_score or 0) if not decided else None)
    wall = time.perf_counter() - t0
    if best_score is None:
        return RoundResult("UNKNOWN", None, bound, (), (departure,), wall)
    return RoundResult("OPTIMAL" if decided else "FEASIBLE", best_score, max(bound, best_score), best_draws,
                       (departure,) + tuple(v for _, _, v in best_draws), wall)
