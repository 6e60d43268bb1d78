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


def _product_by_definition(s, t, on, counts):
    """The product bound as the module states it, every option and every number of turns tried."""
    r = len(s.turns) - t
    caps = [s.cap(t, dm & ~on) for dm in s.dist_mask]
    visited = [d for d, c in enumerate(counts) if c]
    opening = [caps[d] for d, c in enumerate(counts) if not c and caps[d]]
    n, big, opens = len(visited), max(counts), len(opening)
    best = (n + min(r, opens)) * big
    for d in visited:
        for a in range(1, caps[d] + 1):
            best = max(best, (n + min(r - a, opens)) * max(counts[d] + a, big))
    for a in range(1, min(max(opening, default=0), r) + 1):
        best = max(best, (n + 1 + min(r - a, opens - 1)) * max(a, big))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_product_bound_s_closed_form_is_its_definition(ed, seed):
    """product_bound maximises each option in closed form (_peak), and the search tries the plain
    bound (_plain) first: the first must equal the bound tried option by option, the second be
    no less, on random lines (station sets) at every turn."""
    import random

    from tubedeck.games.nextstation.best import RoundSearch, _mask, _peak, _plain

    d = deal(ed, 1, seed)
    ts = turns(ed.book, d.flips[0])
    s = RoundSearch(ed.board, ed.book, ts, ed.board.departure(d.pencils[0][0]).id, frozenset(), float("inf"))
    rng = random.Random(seed)
    for _ in range(400):
        on = 0
        for k in rng.sample(range(len(s.ids)), rng.randint(1, 9)):
            on |= 1 << k
        counts = [(on & dm).bit_count() for dm in s.dist_mask]
        visited = tuple(k for k, c in enumerate(counts) if c)
        t = rng.randrange(len(ts) + 1)
        r = len(ts) - t
        got = s.product_bound(t, r, on, counts, visited, _mask(visited))
        assert got == _product_by_definition(s, t, on, counts), (t, bin(on))
        assert _plain(len(visited), r, max(counts)) >= got
    for n, r, opens, c, cap in ((rng.randint(1, 13), rng.randint(1, 12), rng.randint(0, 12), rng.randint(0, 8),
                                 rng.randint(1, 6)) for _ in range(2000)):
        cap = min(cap, r)
        want = max((n + min(r - a, opens)) * (c + a) for a in range(1, cap + 1))
        assert _peak(n, r, opens, c, cap) == want, (n, r, opens, c, cap)
