"""Shared Objectives in the relaxation (:mod:`research.nextstation.goals`, ``--objectives``): the
goal rows hold for exactly the games that meet an objective; the Lagrangian bound with them is
never below the exhaustive optimum with objectives, at any prices and node decisions; branch and
price proves that optimum (by the round search and by scans) and its root is tighter than
adding every objective's points to the bound without them."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from research.nextstation.branch import branch_and_price
from research.nextstation.columns import Fixed, Prices, column_of, lagrangian_bound
from research.nextstation.cuts import relaxation
from research.nextstation.goals import GoalPrices, goals_of
from research.nextstation.pairs import LineScan, some_tables
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.rules import Objective
from tubedeck.games.nextstation.scoring import objective_reached
from tubedeck.solver.nextstation.exhaustive_game import sheets

from ns_helpers import random_sheet, solved_small_game

# thresholds a 2-3 turn game meets or misses: every measure the rules know
SMALL = (Objective("i2", "interchanges", 2, ""), Objective("i3", "interchanges", 3, ""), Objective("d6", "districts", 6, ""),
         Objective("t2", "tourist-sites", 2, ""), Objective("c2", "central-stations", 2, ""),
         Objective("th2", "thames", 2, ""))


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _rows_hold(board, goal, stations, sections) -> bool:
    """Whether a game's lines meet the goal's threshold row with a[g] = 1, each t[g, j] at its
    largest (1 if some line visits group j), the choices at the game's own interchanges."""
    if goal.kind == "groups":
        seen = {s for line in stations for s in line}
        return sum(w for group, w in goal.groups if group & seen) >= goal.threshold
    if goal.kind == "interchanges":
        on = Counter(s for line in stations for s in set(line))
        return sum(1 for k in on.values() if k >= 2) >= goal.threshold
    return sum(int(board.sections[i].thames) for secs in sections for i in secs) >= goal.threshold


@pytest.mark.parametrize("seed", range(6))
def test_the_goal_rows_hold_exactly_for_the_games_meeting_the_objective(ed, seed):
    """Random legal whole games of real seeded rounds, the rules' objectives and small ones."""
    from research.nextstation.whole import rounds_of

    rounds = rounds_of(ed, seed)[0]
    objectives = ed.book.objectives + SMALL
    goals = goals_of(ed.board, ed.book, objectives)
    rng = random.Random(seed)
    met = Counter()
    for _ in range(25):
        sheet = random_sheet(ed, rounds, rng)
        stations, sections = [st for st, _ in sheet], [se for _, se in sheet]
        for o, goal in zip(objectives, goals):
            reached = objective_reached(o, ed.board, stations, sections)
            assert _rows_hold(ed.board, goal, stations, sections) == reached, o.id
            met[o.id] += reached
    assert sum(met.values()) > 0 and len(goals) == len(objectives)


def _random_goal_prices(goals, rng) -> GoalPrices:
    return GoalPrices(tuple(tuple(rng.random() * 4 * (rng.random() < 0.5) for _ in g.groups) for g in goals),
                      tuple(rng.random() * 4 * (rng.random() < 0.7) for _ in goals))


@pytest.mark.parametrize("seed, turns, count", [(1, 2, 4), (2, 3, 3)])
def test_the_bound_with_goals_is_never_below_the_optimum_at_any_prices(ed, seed, turns, count):
    """Random non-negative prices of every goal row (with station, entering, section and tourist
    prices, one total), and random values a node fixes for the goals: the Lagrangian bound is
    never below the best game keeping those values, counted over every sheet. Priced by scans
    of every line (the same values as the search: tests/nextstation/test_nextstation_branch.py)."""
    rng = random.Random(seed)
    from tubedeck.solver.nextstation.exhaustive_game import small_games

    (rounds,) = small_games(ed, [seed], turns)
    rounds = rounds[:count]
    scans = [LineScan(ed.board, ed.book, rnd, tab) for rnd, tab in zip(rounds, some_tables(ed.board, ed.book, rounds))]
    games = []  # per sheet: its score without objectives, and which of SMALL it meets
    for total, sheet in sheets(ed.board, ed.book, rounds):
        st, se = [l.stations for l in sheet], [l.sections for l in sheet]
        games.append((total, {o.id: objective_reached(o, ed.board, st, se) for o in SMALL}))
    pts = ed.book.rules.objective_points
    for objectives in itertools.combinations(SMALL, 2):
        goals = goals_of(ed.board, ed.book, objectives)
        relax = relaxation(ed.board, rounds, "entries", goals=goals)
        scored = [(t + pts * sum(met[o.id] for o in objectives), tuple(met[o.id] for o in objectives))
                  for t, met in games]
        for _ in range(4):
            fix = {g: rng.randint(0, 1) for g in range(len(goals)) if rng.random() < 0.5}
            # a node fixing a[g] = 1 holds the games meeting g; a[g] = 0 every game, without g's points
            best = max((t - sum(pts for g, v in fix.items() if v == 0 and met[g])
                        for t, met in scored if all(met[g] for g, v in fix.items() if v == 1)), default=None)
            fixed = Fixed.of(ed.board, len(rounds), [("g", 0, g, v) for g, v in fix.items()])
            lam = tuple({s.id: rng.random() * 2 for s in ed.board.stations if rng.random() < 0.3} for _ in rounds)
            eta = tuple({(x.a, x.index): rng.random() for x in ed.board.sections if rng.random() < 0.1}
                        for _ in rounds)
            prices = Prices(lam, rng.random(), {(i,): rng.random() for i in range(5)}, eta,
                            goal=_random_goal_prices(goals, rng))
            value, _ = lagrangian_bound(ed.board, ed.book, rounds, prices, None, None, relax, fixed, scans=scans)
            assert value is not None
            if best is not None:
                assert value >= best - 1e-6, (objectives, fix, value, best)


CASES = [(1, 2, 4, ("i3", "d6"), True), (4, 2, 4, ("i3", "t2"), False), (8, 2, 4, ("d6", "t2"), False),
         (11, 2, 4, ("i3", "th2"), True), (2, 3, 3, ("i3", "c2"), False),
         (5, 3, 3, ("d6", "th2"), True)]


@pytest.mark.parametrize("seed, turns, count, ids, listed", CASES)
def test_branch_and_price_with_objectives_proves_the_exhaustive_optimum(ed, seed, turns, count, ids, listed):
    objectives = tuple(o for o in SMALL if o.id in ids)
    rounds, optimum = solved_small_game(ed, seed, turns, count, objectives)
    tabs = some_tables(ed.board, ed.book, rounds) if listed else ()
    got = branch_and_price(ed.board, ed.book, rounds, time_limit=60.0, tables=tabs, objectives=objectives)
    assert got.status == "OPTIMAL" and not got.cut and got.open == 0
    assert got.score == optimum == got.bound == got.final.total
    assert got.final.objective_points == 10 * len(got.final.objectives)


def test_the_root_with_goals_is_tighter_than_adding_every_objective(ed):
    """Seed 1 (2 turns x 4 rounds), 8 interchange stations... scaled down: 3 interchanges and 6
    districts. Without the goal rows, the best bound is the root without objectives plus 20."""
    objectives = tuple(o for o in SMALL if o.id in ("i3", "d6"))
    rounds, optimum = solved_small_game(ed, 1, 2, 4, objectives)
    plain = branch_and_price(ed.board, ed.book, rounds, time_limit=60.0, max_nodes=1)
    got = branch_and_price(ed.board, ed.book, rounds, time_limit=60.0, max_nodes=1, objectives=objectives)
    assert plain.root_bound is not None and got.root_bound is not None
    assert optimum <= got.root_bound < plain.root_bound + 20


def test_goal_prices_reach_pricing_and_the_bound_s_other_terms_exactly(ed):
    """Pricing: a line gains alpha[g][j] per station of group j it visits and beta[g] per Thames
    crossing of a Thames goal (an entering price on both ends of each Thames section). The
    stations' terms: a choice with two lines or more gains each interchange goal's beta. The
    goals' own terms: a[g] (points - threshold beta[g]) at its best in {0, 1} or fixed, and
    per group t (weight beta[g] - alpha) at its best."""
    from research.nextstation.columns import rest_of, worth_of
    from research.nextstation.goals import choice_bonus, fold, rest
    from research.nextstation.whole import rounds_of

    rounds = rounds_of(ed, 3)[0]
    objectives = tuple(o for o in ed.book.objectives) + SMALL
    goals = goals_of(ed.board, ed.book, objectives)
    rng = random.Random(3)
    gp = _random_goal_prices(goals, rng)
    lam0 = {s.id: rng.random() for s in ed.board.stations if rng.random() < 0.3}
    eta0 = {(x.b, x.index): rng.random() for x in ed.board.sections if rng.random() < 0.2}
    lam, eta = fold(ed.board, goals, gp, lam0, eta0)
    for _ in range(20):
        sheet = random_sheet(ed, rounds, rng)
        for stations, sections in sheet:
            col = column_of(ed.board, ed.book, stations, sections)
            want = sum(p * len(col.stations & group) for g, goal in enumerate(goals)
                       for (group, _), p in zip(goal.groups, gp.alpha[g]))
            want += sum(gp.beta[g] * sum(ed.board.sections[i].thames for i in col.sections)
                        for g, goal in enumerate(goals) if goal.kind == "thames")
            assert worth_of(col, lam, 0.0, {}, eta) - worth_of(col, lam0, 0.0, {}, eta0) == pytest.approx(want)
    inter = sum(gp.beta[g] for g, goal in enumerate(goals) if goal.kind == "interchanges")
    assert inter > 0 and choice_bonus(goals, gp, 1) == 0 and choice_bonus(goals, gp, 2) == inter == choice_bonus(goals, gp, 4)
    relax = relaxation(ed.board, rounds, "patterns", goals=goals)
    plain = relaxation(ed.board, rounds, "patterns")
    zero = Prices(tuple({} for _ in rounds), 0.0, {})
    with_goals = Prices(zero.lam, 0.0, {}, goal=gp)
    stations_with_two = sum(1 for cs in relax.choices.values() if any(sum(z) >= 2 for z, _ in cs))
    assert rest_of(ed.book, relax, with_goals, 4) - rest_of(ed.book, plain, zero, 4) == pytest.approx(
        stations_with_two * inter + rest(goals, gp, {}))  # (at zero prices the best choice has 2+ lines if any does)
    for fix in ({}, {0: 1}, {1: 0, 2: 1}):
        want = 0.0
        for g, goal in enumerate(goals):
            worth = goal.points - goal.threshold * gp.beta[g]
            want += worth * fix[g] if g in fix else max(0.0, worth)
            want += sum(max(0.0, w * gp.beta[g] - a) for (_, w), a in zip(goal.groups, gp.alpha[g]))
        assert rest(goals, gp, fix) == pytest.approx(want)
    assert rest(goals, gp, {0: 1}) != rest(goals, gp, {0: 0})


def test_the_whole_game_with_objectives_closes_with_branch_and_price(ed, monkeypatch):
    """`solve nextstation --game --objectives` on the wall clock: branch and price takes the
    bound phase with the objectives in its relaxation (before, the column bound plus every
    objective's points) and proves the exhaustive optimum with objectives."""
    from research.nextstation import whole as game
    from tubedeck.solver.nextstation import game_model
    from tubedeck.solver.nextstation.engines import Budget
    from tubedeck.solver.nextstation.game_model import Solved

    objectives = tuple(o for o in SMALL if o.id in ("i2", "t2"))
    rounds, optimum = solved_small_game(ed, 4, 2, 4, objectives)
    monkeypatch.setattr(game_model, "solve_game", lambda *a, **k: Solved("UNKNOWN", None, None, (), 0.0))
    got = game.best_of(ed.board, ed.book, rounds, objectives, columns=20, budget=Budget.of(60.0))
    assert got.status == "OPTIMAL" and got.final.total == optimum == got.bound and got.bound_by == "branch"
    assert got.final.objective_points == 10 * len(got.final.objectives)
