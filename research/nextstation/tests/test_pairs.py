"""The pair bound (:mod:`research.nextstation.pairs`): its tables hold every line of a round with
the rules' own scores, its pair scan is exact, and its bound is never below the exhaustive
whole-game optimum (at the master's prices and at random ones) while proving reduced games the
plain relaxation over the same lines cannot."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from research.nextstation.pairs import PairBound, PairDuals, pair_bound, tables
from research.nextstation.whole import rounds_of
from tubedeck.games.nextstation.best import every_line, line_of, line_table
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.solver.nextstation.exhaustive_game import best_game, round_lines, small_games


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _game(ed, seed, turns, count):
    (rounds,) = small_games(ed, [seed], turns)
    return rounds[:count]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_line_table_holds_every_line_the_rules_allow(ed, seed):
    """As many distinct lines (sets of sections) as the brute force's own walk of the rules finds."""
    for ts, dep in _game(ed, seed, 3, 4):
        walked = {frozenset(line.sections) for line in round_lines(ed.board, ts, dep, frozenset())}
        listed = {frozenset(i for i in range(len(ed.board.sections)) if secs >> i & 1)
                  for secs, _, _ in line_table(ed.board, ed.book, ts, dep)}
        assert listed == walked


def test_every_line_above_a_floor_is_the_filter_of_all_lines(ed):
    ts, dep = _game(ed, 3, 4, 1)[0]
    every = every_line(ed.board, ed.book, ts, dep)
    scores = {}
    for draws in every:
        stations = (dep,) + tuple(v for _, _, v in draws)
        secs = tuple(ed.board.section_between[frozenset((u, v))].index for _, u, v in draws)
        scores[frozenset(secs)] = line_score(ed.board, ed.book, stations, secs).points
    for floor in (0, 5, 9, 12):
        above = every_line(ed.board, ed.book, ts, dep, floor=floor)
        got = {frozenset(ed.board.section_between[frozenset((u, v))].index for _, u, v in d) for d in above}
        assert got == {k for k, v in scores.items() if v > floor}


def _check_table(ed, tab, ks):
    board = ed.board
    for k in ks:
        stations = [board.stations[i].id for i in tab.stations(k)]
        score = line_score(board, ed.book, stations, tab.sections(k))
        assert (tab.score[k], tab.sites[k]) == (score.points, score.tourist_sites)
        assert set(np.nonzero(tab.st[k])[0]) == set(tab.stations(k))
        assert tab.mask(k) == sum(1 << i for i in tab.sections(k))
        assert tab.find(tab.mask(k)) == k
        stations_drawn, sections_drawn = line_of(board, board.stations[tab.stations(k)[0]].id, tab.draws(k))
        assert [board.stations[i].id for i in tab.stations(k)] == list(stations_drawn)
        assert set(sections_drawn) == set(tab.sections(k))


def test_tables_score_lines_as_the_rules_do(ed):
    for ts, dep in _game(ed, 5, 4, 4):
        (tab,) = tables(ed.board, ed.book, [(ts, dep)])
        _check_table(ed, tab, range(tab.n))
    rounds, _, _ = rounds_of(ed, 0)
    (tab,) = tables(ed.board, ed.book, [rounds[2]])  # a full round: 73 thousand lines
    assert tab.n > 50_000
    _check_table(ed, tab, random.Random(0).sample(range(tab.n), 300))


def _random_duals(b: PairBound, rng: random.Random) -> PairDuals:
    n_st, n_sec = len(b.board.stations), len(b.board.sections)
    def vec(size, lo=0.0, hi=3.0):
        return np.array([rng.uniform(lo, hi) for _ in range(size)] + [0.0])
    rho = []
    for r in range(b.n):
        cum = np.zeros(b.site_cap[r] + 1)
        cum[1:] = np.cumsum([rng.uniform(0, 2) for _ in range(b.site_cap[r])])
        rho.append(cum)
    return PairDuals(rng.uniform(0, 5), vec(n_sec, 0, 1), [vec(n_st) for _ in range(b.n)], rho,
                  {pi: vec(n_st)[:-1] for pi in range(len(b.pair_list))},
                  {(pi, t): (rng.uniform(-0.5, 0.5), vec(n_st, -1.0, 1.0)) for pi in range(len(b.pair_list)) for t in (0, 1)})


def _pairs_at_random_prices(ed, seed: int):
    """(bound, prices, pair index, r's table, q's table, the pair value of two lines) for each pair
    of rounds of a reduced game (3 turns x 4 rounds) at three random prices."""
    rng = random.Random(seed)
    rounds = _game(ed, 1, 3, 4)
    b = PairBound(ed.board, ed.book, rounds, tables(ed.board, ed.book, rounds), True)
    for _ in range(3):
        d = _random_duals(b, rng)
        for pi, (r, q) in enumerate(b.pair_list):
            A, B = b.side_values(pi, 0, d), b.side_values(pi, 1, d)
            tr, tq, g = b.tabs[r], b.tabs[q], d.gamma[pi]

            def value(k, k2, A=A, B=B, tr=tr, tq=tq, g=g):
                return A[k] + B[k2] + sum(g[s] for s in set(tr.stations(k)) & set(tq.stations(k2)))

            yield b, d, pi, tr, tq, value


def test_the_pair_scan_is_exact(ed):
    """best_pair's value is the best over every compatible pair, counted one by one."""
    for b, d, pi, tr, tq, value in _pairs_at_random_prices(ed, 7):
        brute = max(value(k, k2) for k in range(tr.n) for k2 in range(tq.n) if tr.compatible(k, tq, k2))
        got, found, cut = b.best_pair(pi, d, math.inf)
        assert not cut and got == pytest.approx(brute)
        assert found[-1][0] == pytest.approx(brute)


def test_candidate_pricing_finds_the_best_pairs_among_its_candidates(ed):
    """Cheap pricing scores every compatible pair of its candidate lines: with every line a
    candidate its best pair is the exact scan's; with few, its pairs are compatible and no
    better than the exact best."""
    for b, d, pi, tr, tq, value in _pairs_at_random_prices(ed, 11):
        exact, _, _ = b.best_pair(pi, d, math.inf)
        every = b.candidate_pairs(pi, d, size=max(tr.n, tq.n) * 4, keep=5)
        assert every and value(*every[0]) == pytest.approx(exact)
        assert len(every) == len(set(every)) <= 5
        few = b.candidate_pairs(pi, d, size=4, keep=5)
        assert all(tr.compatible(k, tq, k2) and value(k, k2) <= exact + 1e-9 for k, k2 in few)


def _optimum(ed, rounds):
    best, _ = best_game(ed.board, ed.book, rounds)
    return best


def test_the_bound_holds_at_any_prices(ed):
    """The Lagrangian bound at random prices is never below the exhaustive optimum (it needs no
    master: every line and pair is searched)."""
    rng = random.Random(3)
    for seed in (0, 4):
        rounds = _game(ed, seed, 2, 4)
        opt = _optimum(ed, rounds)
        b = PairBound(ed.board, ed.book, rounds, tables(ed.board, ed.book, rounds), True)
        for _ in range(5):
            value, _, _, cut = b.bound(_random_duals(b, rng), math.inf)
            assert not cut and value >= opt - 1e-9


@pytest.mark.parametrize("seed, turns, count", [(s, 2, 4) for s in range(8)] + [(s, 3, 3) for s in range(6)])
def test_the_pair_bound_proves_reduced_games(ed, seed, turns, count):
    rounds = _game(ed, seed, turns, count)
    opt = _optimum(ed, rounds)
    got = pair_bound(ed.board, ed.book, rounds)
    assert got.settled and got.bound == opt
    assert got.lp <= opt + 1 - 1e-9  # the LP itself within a point of the optimum
    plain = pair_bound(ed.board, ed.book, rounds, pairs=False)
    assert plain.bound >= got.bound and plain.lp >= got.lp - 1e-9


@pytest.mark.parametrize("seed, turns, count", [(4, 2, 4), (5, 3, 3)])
def test_pairs_prove_what_the_plain_relaxation_cannot(ed, seed, turns, count):
    """Over every line, the column bound's relaxation stops above the optimum; with the pair rows
    it meets it."""
    rounds = _game(ed, seed, turns, count)
    opt = _optimum(ed, rounds)
    assert pair_bound(ed.board, ed.book, rounds, pairs=False).bound > opt
    assert pair_bound(ed.board, ed.book, rounds).bound == opt
    # candidate pricing over 6 lines a round first (the tables hold tens), then the exact scans
    assert pair_bound(ed.board, ed.book, rounds, candidates=6).bound == opt


def test_a_start_game_the_bound_meets_is_proven(ed):
    from research.nextstation.branch import branch_and_price

    rounds = _game(ed, 4, 2, 4)
    bp = branch_and_price(ed.board, ed.book, rounds, time_limit=30)
    got = pair_bound(ed.board, ed.book, rounds, (bp.draws,))
    assert got.best == bp.score == _optimum(ed, rounds)
    assert got.proven and got.bound == got.best


def test_a_time_limit_stops_it_with_a_bound(ed):
    rounds = _game(ed, 1, 2, 4)
    opt = _optimum(ed, rounds)
    got = pair_bound(ed.board, ed.book, rounds, time_limit=0.0)
    assert got.cut and got.iterations == 0 and got.bound is None
    got = pair_bound(ed.board, ed.book, rounds, iterations=2)
    assert got.bound >= opt and got.iterations == 2


@pytest.mark.parametrize("seed", [0, 4, 8])
@pytest.mark.parametrize("cuts", ["patterns", "entries"])
def test_the_table_bound_settles_where_branch_and_price_s_root_does(ed, seed, cuts):
    """Pricing by a scan of every line gives the root relaxation branch and price reaches by the
    round search (the same master, settled), and never a bound below the optimum."""
    from research.nextstation.branch import node_bound
    from research.nextstation.pairs import table_bound

    rounds = _game(ed, seed, 2, 4)
    got = table_bound(ed.board, ed.book, rounds, cuts=cuts)
    root = node_bound(ed.board, ed.book, rounds, (), iterations=200, cuts=cuts)
    assert got.settled and root.settled and root.master is not None
    assert got.lp == pytest.approx(root.master.value, abs=1e-6)
    assert got.bound == math.floor(root.master.value + 1e-6) >= _optimum(ed, rounds)


def test_no_iteration_in_time_is_no_bound_not_the_start_game_s_score(ed):
    """A time limit that leaves no whole iteration gives no bound (None), never the start game's
    score as if proven (it once did: a loaded machine then stored a FEASIBLE game as OPTIMAL)."""
    from research.nextstation.branch import branch_and_price
    from research.nextstation.pairs import table_bound

    rounds = _game(ed, 4, 2, 4)
    game = branch_and_price(ed.board, ed.book, rounds, time_limit=30).draws
    tabs = tables(ed.board, ed.book, rounds)
    for got in (table_bound(ed.board, ed.book, rounds, (game,), tabs=tabs, time_limit=0.0),
                pair_bound(ed.board, ed.book, rounds, (game,), time_limit=0.0, tabs=tabs)):
        assert got.bound is None and not got.proven and got.best == _optimum(ed, rounds)


def test_a_round_too_big_to_list_is_priced_by_the_search(ed):
    """some_tables leaves out a round past its limit; the table bound prices it by the round
    search and settles where it does with every round listed."""
    from research.nextstation.pairs import some_tables, table_bound

    rounds = _game(ed, 4, 2, 4)
    tabs = some_tables(ed.board, ed.book, rounds)
    sizes = [t.n for t in tabs if t is not None]
    cut = some_tables(ed.board, ed.book, rounds, limit=min(sizes))
    assert any(t is None for t in cut) and any(t is not None for t in cut)
    whole = table_bound(ed.board, ed.book, rounds, tabs=tabs)
    mixed = table_bound(ed.board, ed.book, rounds, tabs=cut)
    assert whole.settled and mixed.settled
    assert mixed.lp == pytest.approx(whole.lp, abs=1e-6) and mixed.bound == whole.bound


def test_the_tables_keep_to_the_memory_available(ed):
    """A round of 5 million lines takes about 2.7 GB to list: the rounds together may hold no more
    lines than half the memory available holds at LINE_BYTES a line; a round past what is left is
    not listed (priced by the search), and the rounds before it keep theirs."""
    from research.nextstation import pairs

    assert pairs.line_budget(10 * 2**30) == int(10 * 2**30 * pairs.MEMORY_SHARE) // pairs.LINE_BYTES
    assert 0 < pairs.available_memory() and pairs.line_budget() == pytest.approx(
        pairs.available_memory() * pairs.MEMORY_SHARE / pairs.LINE_BYTES, rel=0.2)
    rounds = _game(ed, 4, 2, 4)
    sizes = [t.n for t in pairs.some_tables(ed.board, ed.book, rounds, budget=10**9)]
    for first in range(1, len(rounds)):
        budget = sum(sizes[:first])  # room for the rounds before `first`, none for it
        cut = pairs.some_tables(ed.board, ed.book, rounds, budget=budget)
        assert [t.n for t in cut[:first]] == sizes[:first]
        assert cut[first] is None
        assert sum(t.n for t in cut if t is not None) <= budget
