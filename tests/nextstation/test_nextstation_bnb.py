"""The branch-and-bound best round (``--engine auto``) agrees with CP-SAT and with the exhaustive
search on seeded rounds; every line it returns replays legally and scores what it claims."""

from __future__ import annotations

import pytest

from tubedeck.errors import UsageError
from tubedeck.game import network
from tubedeck.games.nextstation.best import best_round as bnb
from tubedeck.games.nextstation.edition import deal, load
from tubedeck.games.nextstation.flips import turns
from tubedeck.solver.nextstation.exhaustive import best_round as exhaustive
from tubedeck.solver.nextstation.model import best_round as cp_sat
from tubedeck.solver.nextstation.solve import solve_round

from ns_helpers import replay, short_rounds


@pytest.fixture(scope="module")
def ed():
    return load(None)


@pytest.mark.parametrize("count,least,most,seed", [(14, 5, 6, 0), (4, 7, 7, 0), (24, 5, 6, 1000), (6, 7, 7, 2000)])
@pytest.mark.slow
def test_bnb_agrees_with_exhaustive_search(ed, count, least, most, seed):
    """The CP-SAT test's rounds (seed 0) and 30 more seeded rounds."""
    n = 0
    for ts, dep in short_rounds(ed, count, most, least, seed):
        want, _ = exhaustive(ed.board, ed.book, ts, dep)
        got = bnb(ed.board, ed.book, ts, dep)
        assert got.status == "OPTIMAL" and got.score == got.bound == want, (ts, dep)
        assert replay(ed, ts, dep, got.draws) == got.score
        n += 1
    assert n == count


@pytest.mark.parametrize("seed", [0, 1, 2, 8, 9])
def test_bnb_agrees_with_cp_sat_on_full_first_rounds(ed, seed):
    d = deal(ed, 1, seed)
    ts = turns(ed.book, d.flips[0])
    dep = ed.board.departure(d.pencils[0][0]).id
    got = bnb(ed.board, ed.book, ts, dep)
    want = cp_sat(ed.board, ed.book, ts, dep, time_limit=60)
    assert want.status == got.status == "OPTIMAL" and got.score == want.score
    assert replay(ed, ts, dep, got.draws) == got.score


def test_bnb_respects_earlier_lines(ed):
    ts = next(short_rounds(ed, 1, 6))[0]
    dep = ed.board.departure("green").id
    drawn = frozenset(ed.board.section_between[frozenset((dep, v))].index for v in ("r3c4", "r1c3", "r2c6"))
    want, _ = exhaustive(ed.board, ed.book, ts, dep, drawn)
    got = bnb(ed.board, ed.book, ts, dep, drawn)
    assert got.score == want and got.status == "OPTIMAL"
    used = {i for t, u, v in got.draws for i in [ed.board.section_between[frozenset((u, v))].index]}
    assert not used & drawn and not any(ed.board.crossing[i] & drawn for i in used)


def test_a_cut_short_search_is_no_verdict(ed):
    d = deal(ed, 1, 4)
    ts = turns(ed.book, d.flips[0])
    got = bnb(ed.board, ed.book, ts, ed.board.departure(d.pencils[0][0]).id, time_limit=1e-9)
    assert got.status == "FEASIBLE" and got.bound >= got.score


def test_solve_command_engine_option(ed):
    flips = "u-circle,s-joker,u-square,switch,u-triangle,u-pentagon,u-joker"
    auto = solve_round(ed, flips=flips, pencil="purple", engine="auto")
    cp = solve_round(ed, flips=flips, pencil="purple")
    assert auto.result.status == cp.result.status == "OPTIMAL" and auto.result.score == cp.result.score
    assert any("proven best" in line for line in auto.describe())
    with pytest.raises(UsageError):
        solve_round(ed, flips=flips, engine="fast")


def test_bnb_agrees_on_a_generated_map():
    gen = load(network(None), map="4")
    n = 0
    for ts, dep in short_rounds(gen, 6, 6, 5, seed=3000):
        want, _ = exhaustive(gen.board, gen.book, ts, dep)
        got = bnb(gen.board, gen.book, ts, dep)
        assert got.status == "OPTIMAL" and got.score == want, (ts, dep)
        assert replay(gen, ts, dep, got.draws) == got.score
        n += 1
    assert n == 6


def test_a_forced_pass_then_drawing(ed):
    """The departure's sections to turn 1's symbol are drawn already: turn 1 must be passed."""
    ts, dep = next((ts, dep) for ts, dep in short_rounds(ed, 50, 7, 6) if ts[0].symbol and not ts[0].switch)
    board = ed.board
    drawn = frozenset(s.index for s in board.incident[dep] if board.matches(s.other(dep), ts[0].symbol))
    assert drawn and len(drawn) < len(board.incident[dep])
    want, _ = exhaustive(board, ed.book, ts, dep, drawn)
    got = bnb(board, ed.book, ts, dep, drawn)
    assert got.status == "OPTIMAL" and got.score == want > 1 and got.draws[0][0] > 0


def test_auto_hands_a_cut_short_search_to_cp_sat(ed):
    """Out of time, --engine auto lets CP-SAT finish: its verdict, or FEASIBLE / UNKNOWN with a bound."""
    r = solve_round(ed, seed=4, engine="auto", time_limit=0.004).result
    assert r.status in ("OPTIMAL", "FEASIBLE", "UNKNOWN")
    if r.status != "OPTIMAL":
        assert r.bound >= (r.score or 0) and r.bound >= 46  # seed 4's proven best is 46
    full = solve_round(ed, seed=4, engine="auto").result
    assert full.status == "OPTIMAL" and full.score == 46
