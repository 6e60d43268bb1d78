"""The whole game's column bound: its pricing search against every line of a round, and its bound
against the exhaustive whole-game search on small games (never below the optimum, whatever the
prices)."""

from __future__ import annotations

import random

import pytest

from research.nextstation.columns import Prices, column_bound, lagrangian_bound
from research.nextstation.whole import best_game, best_of
from tubedeck.game import network
from tubedeck.games.nextstation.best import best_response
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.solver.nextstation.exhaustive_game import round_lines, small_games

from ns_helpers import solved_small_game


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _random_prices(ed, rng, n, scale=3.0):
    board = ed.board
    lam = tuple({s.id: rng.random() * scale if rng.random() < 0.4 else 0.0 for s in board.stations} for _ in range(n))
    sigma = {}
    for i in range(len(board.sections)):
        if rng.random() < 0.2:
            sigma[(i,)] = rng.random() * scale
        for j in board.crossing[i]:
            if i < j and rng.random() < 0.2:
                sigma[(i, j)] = rng.random() * scale
    return Prices(lam, rng.random() * scale, sigma)


def _line_value(ed, line, bonus, mu, pen):
    score = line_score(ed.board, ed.book, line.stations, line.sections).points
    sites = sum(ed.board.by_id[v].tourist for v in line.stations)
    return score + sum(bonus.get(v, 0.0) for v in line.stations[1:]) + mu * sites - sum(pen.get(i, 0.0) for i in line.sections)


@pytest.mark.parametrize("seed", range(6))
def test_priced_search_finds_the_most_valuable_line(ed, seed):
    """Fractional station prices, a tourist price and section penalties, on a sheet with sections
    drawn: the search's value is the best over every line of the round, and a floor above it
    finds nothing while a floor below it finds the same value."""
    rng = random.Random(seed)
    (rounds,) = small_games(ed, [seed], 4)
    ts, dep = rounds[1]
    drawn = frozenset(rng.sample(range(len(ed.board.sections)), 4))
    prices = _random_prices(ed, rng, 1)
    bonus, mu, pen = prices.lam[0], prices.mu, prices.penalty()
    gain = [mu * k for k in range(12)]
    value, line = best_response(ed.board, ed.book, ts, dep, drawn, bonus, gain, penalty=pen)
    best = max(_line_value(ed, ln, bonus, mu, pen) for ln in round_lines(ed.board, ts, dep, drawn))
    assert line.status == "OPTIMAL" and value == pytest.approx(best, abs=1e-9)
    above, _ = best_response(ed.board, ed.book, ts, dep, drawn, bonus, gain, penalty=pen, floor=best + 1e-3)
    assert above is None
    below, _ = best_response(ed.board, ed.book, ts, dep, drawn, bonus, gain, penalty=pen, floor=best - 1.5)
    assert below == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_the_lagrangian_bound_holds_for_any_prices(ed, seed):
    rounds, optimum = solved_small_game(ed, seed, 2)
    rng = random.Random(100 + seed)
    for _ in range(3):
        bound, lines = lagrangian_bound(ed.board, ed.book, rounds, _random_prices(ed, rng, len(rounds)))
        assert bound is not None and bound >= optimum - 1e-9
        assert len(lines) == len(rounds)


@pytest.mark.parametrize("seed, turns, count", [(s, 2, 4) for s in range(5)] + [(s, 3, 3) for s in range(2)])
def test_the_column_bound_is_never_below_the_optimum(ed, seed, turns, count):
    rounds, optimum = solved_small_game(ed, seed, turns, count)
    cb = column_bound(ed.board, ed.book, rounds, iterations=15)
    assert cb.bound >= optimum
    if cb.converged:  # the LP value is then the Dantzig-Wolfe bound (a relaxation), met by the bound
        assert cb.lp >= optimum - 1e-6 and cb.bound == int(cb.lp + 1e-6)
    # the column bound is no looser than pricing every station at nothing: the sum of round pars
    # plus the whole tourist track plus every station on every line
    zero = Prices(tuple({} for _ in rounds), 0.0, {})
    loose, _ = lagrangian_bound(ed.board, ed.book, rounds, zero)
    assert cb.bound <= loose


@pytest.mark.parametrize("seed", range(3))
def test_the_column_bound_holds_on_a_generated_map(seed):
    gen = load(network(None), map="4")
    rounds, optimum = solved_small_game(gen, seed, 2)
    cb = column_bound(gen.board, gen.book, rounds, iterations=15)
    assert cb.bound >= optimum
    if cb.converged:
        assert cb.bound == int(cb.lp + 1e-6)


def test_a_column_bound_that_meets_the_game_is_a_proof(ed):
    """CP-SAT given no time to prove anything (UNKNOWN, no bound of its own): the column bound
    decides. On one-round games it often meets the game found: OPTIMAL, and then the game is the
    exhaustive optimum; otherwise FEASIBLE with a bound never below the optimum."""
    proved = 0
    for seed in range(6):
        rounds, optimum = solved_small_game(ed, seed, 3, 1)
        got = best_of(ed.board, ed.book, rounds, time_limit=0.001, columns=15)
        assert got.final.total <= optimum <= got.bound
        if got.status == "OPTIMAL":
            proved += 1
            assert got.final.total == optimum == got.bound
    assert proved


def test_the_column_bound_tightens_the_reported_bound(ed):
    rounds, optimum = solved_small_game(ed, 0, 2)
    alone = best_of(ed.board, ed.book, rounds, time_limit=0.05)
    both = best_of(ed.board, ed.book, rounds, time_limit=0.05, columns=15)
    assert optimum <= both.bound <= alone.bound
    assert both.bound_by == ("columns" if both.bound < alone.bound else "CP-SAT")


@pytest.mark.slow
def test_solve_game_says_whose_bound_it_reports(ed):
    """A real seeded game, a few column iterations: the report and its JSON name the bound's source."""
    result = best_game(ed, 5, time_limit=1.0, columns=2, kicks=3)
    assert result.status in ("OPTIMAL", "FEASIBLE") and result.bound >= result.score
    # (1 s is wall clock for the whole call now: a bound cut that short may be the pars' own)
    assert result.as_dict()["bound_by"] == result.bound_by in ("CP-SAT", "columns", "branch", "pars")
    by = {"columns": "the column bound", "pars": "the round pars", "branch": "branch and price"}.get(
        result.bound_by, "CP-SAT")
    assert by in result.describe()[0]
