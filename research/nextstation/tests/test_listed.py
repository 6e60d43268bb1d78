"""Better games from the listed lines (:mod:`research.nextstation.listed`): its candidates keep the
kept rounds' lines and are clear of them, its models are the best game of their lines, and from
a poor start on reduced games it reaches the exhaustive optimum with a game the rules engine
draws and scores alike."""

from __future__ import annotations

import math
import random

import pytest

from research.nextstation.columns import Prices, column_of
from research.nextstation.listed import candidates, improve, integer_master, neighbourhoods
from research.nextstation.pairs import LineScan, tables
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.responses import lines_of
from tubedeck.games.nextstation.scoring import final_score
from tubedeck.solver.nextstation.exhaustive_game import sheets

from ns_helpers import solved_small_game


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _scans(ed, rounds):
    return [LineScan(ed.board, ed.book, rounds[r], t) for r, t in enumerate(tables(ed.board, ed.book, rounds))]


def _passing(ed, rounds):
    """The poorest start: every round passes throughout (its line is its departure alone)."""
    return [column_of(ed.board, ed.book, (dep,), ()) for _, dep in rounds]


def _random_prices(ed, rounds, rng) -> Prices:
    return Prices(tuple({s.id: rng.uniform(0, 3) for s in ed.board.stations} for _ in rounds), rng.uniform(0, 2), {})


def _total(ed, rounds, cols) -> int:
    return final_score(ed.board, ed.book, *lines_of(ed.board, tuple(rounds), tuple(c.draws for c in cols))).total


def test_neighbourhoods_free_every_round_then_one_and_two_fewer():
    assert neighbourhoods([0, 1, 2, 3]) == [(0, 1, 2, 3), (0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3),
                                            (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert neighbourhoods([0, 2, 3]) == [(0, 2, 3), (0, 2), (0, 3), (2, 3)]  # (round 1 not listed)
    assert neighbourhoods([1]) == [] and neighbourhoods([]) == []


@pytest.mark.parametrize("seed", [0, 3])
def test_candidates_keep_the_kept_lines_and_are_clear_of_them(ed, seed):
    rounds, _ = solved_small_game(ed, seed, 3, 3)
    scans = _scans(ed, rounds)
    rng = random.Random(seed)
    prices = _random_prices(ed, rounds, rng)
    best = max(sheets(ed.board, ed.book, rounds), key=lambda t: t[0])[1]
    game = [column_of(ed.board, ed.book, line.stations, line.sections,
                      scans[r].tab.draws(scans[r].tab.find(sum(1 << i for i in line.sections))))
            for r, line in enumerate(best)]
    got = candidates(ed.board, scans, prices, game, (0, 2), size=5)
    assert got[1] == [game[1]]  # a kept round: its line alone
    kept = set(game[1].sections)
    blocked = kept | {j for i, j in ed.board.crossings if i in kept} | {i for i, j in ed.board.crossings if j in kept}
    for r in (0, 2):
        assert game[r] in got[r] and len(got[r]) <= 6
        others = [c for c in got[r] if c != game[r]]
        assert all(not (set(c.sections) & blocked) for c in others)
        # the dearest at the prices among the clear lines: none left out is dearer than one taken
        pen = prices.penalty()
        val = scans[r].values(prices.lam[r], {}, pen, [prices.mu * k for k in range(20)])
        clear = scans[r].clear(frozenset(kept))
        taken = {scans[r].tab.find(sum(1 << i for i in c.sections)) for c in got[r]}
        left = [val[k] for k in range(scans[r].tab.n) if clear[k] and k not in taken]
        taken.discard(scans[r].tab.find(sum(1 << i for i in game[r].sections)))  # (there whatever its value)
        if left and taken:
            assert max(left) <= min(val[k] for k in taken) + 1e-9


@pytest.mark.parametrize("seed, turns, count", [(0, 2, 4), (4, 2, 4), (8, 2, 4), (5, 3, 3), (10, 3, 3)])
def test_from_passing_rounds_it_reaches_the_exhaustive_optimum(ed, seed, turns, count):
    """Every line of these rounds is a candidate (size above their count), so the model freeing
    every round is the whole game: its game is the brute force's optimum, scored as the rules do."""
    rounds, optimum = solved_small_game(ed, seed, turns, count)
    scans = _scans(ed, rounds)
    prices = Prices(tuple({} for _ in rounds), 0.0, {})
    heard: list[int] = []
    value, cols = improve(ed.board, ed.book, rounds, scans, prices, _passing(ed, rounds), math.inf, size=10_000,
                          step=20.0, found=lambda v, _: heard.append(v))
    assert value == optimum == _total(ed, rounds, cols)
    assert heard and heard[-1] == value and heard == sorted(heard)
    for r, c in enumerate(cols):  # each line is a listed line of its round
        assert scans[r].tab.find(sum(1 << i for i in c.sections)) >= 0


def test_a_round_without_a_list_keeps_its_line_or_chooses_from_its_pool(ed):
    rounds, optimum = solved_small_game(ed, 4, 2, 4)
    scans: list = _scans(ed, rounds)
    every = [scans[2].column(k) for k in range(scans[2].tab.n)]
    scans[2] = None
    start = _passing(ed, rounds)
    zero = Prices(tuple({} for _ in rounds), 0.0, {})
    value, cols = improve(ed.board, ed.book, rounds, scans, zero, start, math.inf, size=10_000, step=20.0)
    assert cols[2] == start[2] and value == _total(ed, rounds, cols) < optimum
    pool = [[], [], every, []]  # (round 2's every line, as a pool: the whole game again)
    value, cols = improve(ed.board, ed.book, rounds, scans, zero, start, math.inf, size=10_000, step=20.0,
                          pool=pool)
    assert value == optimum == _total(ed, rounds, cols)
    kept = max((scans[1].column(k) for k in range(scans[1].tab.n)), key=lambda c: len(c.sections))
    # (a pool's candidates are clear of the kept lines too)
    game = [start[0], kept, start[2], start[3]]
    got = candidates(ed.board, scans, zero, game, (0, 2, 3), size=10_000, pool=pool)[2]
    blocked = set(kept.sections) | {b for i, j in ed.board.crossings for a, b in ((i, j), (j, i)) if a in kept.sections}
    assert got and all(not (c.sections & blocked) for c in got)
    assert len(got) == sum(not (c.sections & blocked) for c in every)


def test_the_deadline_stops_it_with_the_start_game(ed):
    rounds, _ = solved_small_game(ed, 0, 2, 4)
    start = _passing(ed, rounds)
    value, cols = improve(ed.board, ed.book, rounds, _scans(ed, rounds), Prices(tuple({} for _ in rounds), 0.0, {}),
                          start, 0.0)
    assert cols == tuple(start) and value == _total(ed, rounds, start)


def test_the_integer_master_over_every_line_is_the_optimum(ed):
    rounds, optimum = solved_small_game(ed, 3, 2, 4)
    scans = _scans(ed, rounds)
    cols = [[s.column(k) for k in range(s.tab.n)] for s in scans]
    got = integer_master(ed.board, ed.book, cols, time_limit=20.0)
    assert got is not None and got[0] == optimum == _total(ed, rounds, got[1])
