"""The best whole solo game of Next Station: London for known flips: one CP-SAT model.

A game is one line per round, each in its pencil's colour from its own departure; the rounds
meet only on the sheet. The model holds one round model per round (:func:`.model.build`, names
prefixed ``r1_`` ...), each with every rule of a round, and adds what ties them together:

* **one sheet**: a potential section is drawn at most once over all rounds, and of two crossing
  sections at most one is drawn, whichever rounds draw them (so a later line never crosses or
  reuses an earlier one; the order of rounds does not matter to either rule);
* **round score** ``D_r x M_r + thames_points x Thames_r``: ``M_r`` is chosen one-hot (``big[r,
  k]``) and needs some district with at least k stations; ``prod_r <= k x D_r`` when ``big[r, k]``.
  The cut ``round score <= best round on an empty sheet`` (the exact branch and bound of
  :mod:`tubedeck.games.nextstation.best`, a few ms) holds since drawn sections only take options away: it is what makes
  the LP bound useful;
* **tourist track**: marks = tourist sites over every round's line (a site on two lines crosses
  two circles), at most ``tourist_marks_max``; the track's points one-hot over the marks;
* **interchanges**: a station on j of the lines scores ``interchange[j]``, one-hot over j;
* **Shared Objectives** (when given): reached only if its measure reaches its threshold.

The tables are convex (each mark or line is worth more than the last), so every one-hot reads
"at most": the maximiser takes the highest value allowed, and the reported score is recomputed by
:func:`tubedeck.games.nextstation.scoring.final_score` from the lines found (it must equal the
objective of an OPTIMAL solution; a test holds them together). The search starts from the game
:mod:`.game` found by best responses.

Status as CP-SAT reports it: OPTIMAL is a proof; FEASIBLE a game with the bound still open at
the time limit; UNKNOWN nothing found. :mod:`.exhaustive_game` is the independent check (tests).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.responses import Round, lines_of  # noqa: F401 - lines_of: for its users
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.games.nextstation.scoring import FinalScore, final_score
from tubedeck.solver.cpsat import configure, solve

from .engines import Budget, Reporter
from .model import RoundModel, build


@dataclass(frozen=True)
class Solved:
    status: str
    final: FinalScore | None
    bound: int | None
    draws: tuple[tuple[tuple[int, str, str], ...], ...]  # per round: (turn, from, to)
    wall: float


@dataclass
class _Game:
    m: cp_model.CpModel
    rounds: list[RoundModel]
    departures: list[str]


def _station_on(g: _Game, r: int, v: str):
    """1 when station v is on round r's line (an expression, or the constant 1 or 0)."""
    if v == g.departures[r]:
        return 1
    return g.rounds[r].on.get(v, 0)


def one_hot_at_most(m: cp_model.CpModel, value, values: list[int], name: str) -> cp_model.LinearExprT:
    """The points of the largest j with ``j <= value`` (``values[j]``, increasing): one-hot (the
    constant 0 when every value is 0)."""
    picks = [m.new_bool_var(f"{name}_{j}") for j in range(len(values))]
    m.add_exactly_one(picks)
    m.add(sum(j * p for j, p in enumerate(picks)) <= value)
    return sum(points * p for points, p in zip(values, picks) if points)


def _interchange(m: cp_model.CpModel, count, any_line, values: tuple[int, ...], v: str):
    """The points of a station on ``count`` lines: step j (j = 2, 3, ...) adds values[j] -
    values[j - 1] and is taken only after step j - 1, and the steps taken are at most
    ``count - any_line`` (the lines beyond the first). Tighter than a one-hot over the count:
    the LP cannot score a station that one line visits in fractions."""
    steps = [m.new_bool_var(f"lines_at_{v}_{j}") for j in range(2, len(values))]
    for a, b in zip(steps, steps[1:]):
        m.add(b <= a)
    m.add(sum(steps) <= count - any_line)
    return sum((values[j] - values[j - 1]) * s for j, s in zip(range(2, len(values)), steps))


def build_game(board: Board, book: RuleBook, rounds: tuple[Round, ...], bounds: tuple[int, ...],
               objectives: tuple[Objective, ...] = ()) -> tuple[_Game, cp_model.LinearExpr]:
    rules, scores = book.rules, book.scores
    m = cp_model.CpModel()
    g = _Game(m, [build(board, book, ts, dep, frozenset(), m, f"r{r + 1}_") for r, (ts, dep) in enumerate(rounds)],
              [dep for _, dep in rounds])
    used: dict[int, list] = {}
    for rm in g.rounds:
        for var, i in rm.y.values():
            used.setdefault(i, []).append(var)
    for vs in used.values():
        if len(vs) > 1:
            m.add(sum(vs) <= 1)
    for i, j in board.crossings:
        if i in used and j in used:
            m.add(sum(used[i]) + sum(used[j]) <= 1)
    total = []
    for r, (rm, (ts, _)) in enumerate(zip(g.rounds, rounds)):
        n = len(ts) + 1
        districts = m.new_int_var(1, len(rm.ons), f"r{r + 1}_districts")
        m.add(districts == sum(rm.ons))
        prod = m.new_int_var(1, n * len(rm.ons), f"r{r + 1}_product")
        big = [m.new_bool_var(f"r{r + 1}_biggest_{k}") for k in range(1, n + 1)]
        m.add_exactly_one(big)
        for k, z in enumerate(big, start=1):
            some = [m.new_bool_var(f"r{r + 1}_d{d}_has_{k}") for d in range(len(rm.counts))]
            for c, b in zip(rm.counts, some):
                m.add(c >= k).only_enforce_if(b)
            m.add(sum(some) >= z)
            m.add(prod <= k * districts).only_enforce_if(z)
        line = prod + rules.thames_points * sum(rm.thames)
        m.add(line <= bounds[r])
        total.append(line)
    on_any = {}
    visits = {}  # station -> (how many lines hold it, as an expression; how many lines could)
    multi = 0
    marks = 0
    for v in (s.id for s in board.stations):
        ons = [_station_on(g, r, v) for r in range(len(rounds))]
        ons = [o for o in ons if not (isinstance(o, int) and o == 0)]
        if not ons:
            continue
        count = sum(ons)
        if board.by_id[v].tourist:
            marks += count
        a = m.new_bool_var(f"anyline_{v}")
        m.add(a <= count)
        for o in ons:
            m.add(a >= o)  # a departure (the constant 1) is on a line too
        on_any[v] = a
        visits[v] = (count, len(ons))
        if len(ons) > 1:
            multi += _interchange(m, count, a, scores.interchange[:len(ons) + 1], v)
    track = list(scores.tourist_track[:rules.tourist_marks_max + 1])
    tourist = one_hot_at_most(m, marks, track, "tourist_marks") if not isinstance(marks, int) else track[0]
    total += [tourist, multi]
    for o in objectives:
        reached = m.new_bool_var(f"objective_{o.id}")
        m.add(_measure(g, board, o, on_any, visits) >= o.threshold * reached)
        total.append(rules.objective_points * reached)
    return g, sum(total)


def _measure(g: _Game, board: Board, o: Objective, on_any: dict, visits: dict):
    """The objective's measure as a linear expression (reached when >= its threshold)."""
    m = g.m
    if o.measure == "thames":
        return sum(sum(rm.thames) for rm in g.rounds)
    if o.measure == "tourist-sites":
        return sum(a for v, a in on_any.items() if board.by_id[v].tourist)
    if o.measure == "central-stations":
        return sum(a for v, a in on_any.items() if board.by_id[v].district == "central")
    if o.measure == "districts":
        out = []
        for d in sorted({s.district for s in board.stations}):
            here = [a for v, a in on_any.items() if board.by_id[v].district == d]
            if here:
                b = m.new_bool_var(f"district_{d}")
                m.add(b <= sum(here))
                out.append(b)
        return sum(out)
    out = []  # interchanges: stations on two lines or more
    for v, (count, lines) in visits.items():
        if lines > 1:
            b = m.new_bool_var(f"interchange_{v}")
            m.add(2 * b <= count)
            out.append(b)
    return sum(out)


def _hint(g: _Game, draws) -> None:
    for rm, ds in zip(g.rounds, draws):
        chosen = {(v, t) for t, _, v in ds}
        arcs = {(u, v) for _, u, v in ds}
        for key, var in rm.at.items():
            g.m.add_hint(var, key in chosen)
        for key, (var, _) in rm.y.items():
            g.m.add_hint(var, key in arcs)


def solve_game(board: Board, book: RuleBook, rounds: tuple[Round, ...], bounds: tuple[int, ...], start,
               objectives: tuple[Objective, ...] = (), time_limit: float = 60.0, workers: int = 1,
               budget: Budget | None = None, share: float = 1.0) -> Solved:
    """CP-SAT from the game ``start`` (draws per round, a hint), each round's line score capped
    by ``bounds`` (its best on an empty sheet), for ``time_limit`` deterministic seconds or, with
    a ``budget``, ``share`` of what is left of it (:class:`.engines.Budget`)."""
    t0 = time.perf_counter()
    g, objective = build_game(board, book, rounds, bounds, objectives)
    _hint(g, start)
    g.m.maximize(objective)
    solver = configure(cp_model.CpSolver(), time_limit, workers)
    if budget is not None:
        budget.cp_sat(solver, share)
    solver.parameters.linearization_level = 2
    status = solve(solver, g.m, Reporter(budget) if budget is not None and budget.progress is not None else None)
    if budget is not None:
        budget.charge(solver, status)
    wall = time.perf_counter() - t0
    if status not in ("OPTIMAL", "FEASIBLE"):
        return Solved(status, None, None, (), wall)  # UNKNOWN: CP-SAT's bound reads 0 before it has one
    draws = []
    for rm in g.rounds:
        when = {v: t for (v, t), a in rm.at.items() if solver.value(a)}
        draws.append(tuple(sorted((when[v], u, v) for (u, v), (b, _) in rm.y.items() if solver.value(b))))
    stations, sections = lines_of(board, rounds, draws)
    final = final_score(board, book, stations, sections, objectives)
    if status == "OPTIMAL":
        assert final.total == round(solver.objective_value), (final.total, solver.objective_value)
    return Solved(status, final, max(int(solver.best_objective_bound + 1e-6), final.total), tuple(draws), wall)
