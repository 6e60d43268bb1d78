"""Cuts between two rounds' lines (:mod:`research.nextstation.clash`): every cut holds on every
sheet of the brute force; a scan's masks are the rows' coefficients line by line; the Lagrangian
bound with cut prices is never below the optimum at random prices; with cuts the root by tables
proves the reduced games whose plain root stops above their optimum, and is never above the
plain root."""

from __future__ import annotations

import random

import numpy as np
import pytest

from research.nextstation import clash as clash_module
from research.nextstation.branch import branch_and_price
from research.nextstation.clash import block_of, clash, path_to, separate, station_sets
from research.nextstation.columns import MasterLP, Prices, column_of, lagrangian_bound
from research.nextstation.cuts import relaxation
from research.nextstation.pairs import LineScan, some_tables, table_bound
from tubedeck.games.nextstation.edition import load
from tubedeck.solver.nextstation.exhaustive_game import sheets, small_games

from ns_helpers import solved_small_game


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _random_cuts(ed, rounds, every, rng, count):
    """Cuts of both kinds from random lines of random sheets."""
    out = []
    n = len(rounds)
    for _ in range(count):
        sheet = rng.choice(every)[1]
        r, q = rng.sample(range(n), 2)
        secs = sorted(sheet[r].sections)
        if not secs:
            continue
        if rng.random() < 0.5:
            out.append(clash(ed.board, "sections", r, q, rng.sample(secs, min(len(secs), rng.randint(1, 2)))))
        else:
            more = []  # (half the station cuts take more sets, from other sheets' lines of round r)
            while rng.random() < 0.5:
                other = sorted(rng.choice(every)[1][r].sections)
                if other:
                    more.append(rng.sample(other, rng.randint(1, len(other))))
            out.append(clash(ed.board, "station", r, q, rng.sample(secs, rng.randint(1, len(secs))),
                             rng.choice(sheet[r].stations), more))
    return out


def _lhs(ed, cut, sheet) -> int:
    """The cut's row on a whole game: its lines' coefficients, and the station's choice (the
    rounds on it)."""
    total = 0
    for r, line in enumerate(sheet):
        total += cut.coef(r, sum(1 << i for i in line.sections), block_of(ed.board, line.sections), frozenset(line.stations))
    if cut.kind == "station":
        z = tuple(int(cut.station in line.stations) for line in sheet)
        total += cut.on(z)
    return total


@pytest.mark.parametrize("seed, turns, count", [(4, 2, 4), (5, 3, 3)])
def test_every_cut_holds_on_every_sheet(ed, seed, turns, count):
    """300 random cuts of both kinds against every sheet of the brute force (each sheet as its
    lines' indexes among each round's distinct lines, the rows summed over all sheets at once)."""
    (rounds,) = small_games(ed, [seed], turns)
    rounds = rounds[:count]
    every = list(sheets(ed.board, ed.book, rounds))
    n = len(rounds)
    lines: list[dict] = [{} for _ in rounds]  # per round: a line's sections -> (index, the line)
    index = np.zeros((len(every), n), dtype=np.int32)
    for k, (_, sheet) in enumerate(every):
        for r, line in enumerate(sheet):
            got = lines[r].setdefault(frozenset(line.sections), (len(lines[r]), line))
            index[k, r] = got[0]
    rng = random.Random(seed)
    cuts = _random_cuts(ed, rounds, every, rng, 300)
    assert {c.kind for c in cuts} == {"sections", "station"}
    tight = 0
    for cut in cuts:
        lhs = np.zeros(len(every), dtype=np.int32)
        for r in (cut.r, cut.q):
            coef = np.array([cut.coef(r, sum(1 << i for i in line.sections), block_of(ed.board, line.sections),
                                      frozenset(line.stations)) for _, line in lines[r].values()])
            lhs += coef[index[:, r]]
        if cut.kind == "station":
            on = [np.array([cut.station in line.stations for _, line in lines[r].values()])[index[:, r]]
                  for r in (cut.r, cut.q)]
            lhs += on[0] & on[1]
        assert lhs.max() <= cut.rhs, cut
        tight += int((lhs == cut.rhs).any())
    assert tight > 0


def test_a_scan_s_masks_are_the_rows_coefficients(ed):
    (rounds,) = small_games(ed, [4], 3)
    tabs = some_tables(ed.board, ed.book, rounds)
    every = list(sheets(ed.board, ed.book, rounds[:3]))
    cuts = _random_cuts(ed, rounds[:3], every, random.Random(1), 60)
    for r in range(3):
        scan = LineScan(ed.board, ed.book, rounds[r], tabs[r])
        cols = [scan.column(k) for k in range(scan.tab.n)]
        for cut in cuts:
            if r not in (cut.r, cut.q):
                continue
            mask = scan.clash_mask(cut, r == cut.r)
            want = [cut.coef(r, sum(1 << i for i in c.sections), block_of(ed.board, c.sections), c.stations) != 0
                    for c in cols]
            assert mask.tolist() == want, cut
        # a scan's price takes each cut's price times the row's coefficient off every line
        rng = random.Random(r)
        priced = [(cut, rng.random(), r == cut.r) for cut in cuts if r in (cut.r, cut.q)]
        gain = [0.0] * 10
        value, found = scan.price({}, {}, {}, gain, frozenset(), priced)
        base = scan.values({}, {}, {}, gain)
        worth = [base[k] - sum(p * cut.coef(r, sum(1 << i for i in c.sections), block_of(ed.board, c.sections),
                                            c.stations) for cut, p, _ in priced) for k, c in enumerate(cols)]
        assert value == pytest.approx(max(worth)) and found[0] == cols[max(range(len(cols)), key=worth.__getitem__)]
        kept = {scan._hits(cut, first).dtype for cut, _, first in priced}
        assert kept == {np.dtype(np.int32), np.dtype(np.uint8)}  # (both ways of keeping a cut's lines met)


def test_a_scan_s_masks_keep_to_their_bytes_and_price_alike(ed, monkeypatch):
    """A round of millions of lines made 4,000 cached masks 2.5 GB: the cache is bounded in bytes,
    the oldest let go first, and a mask let go is made again, alike."""
    import research.nextstation.pairs as pairs_module

    (rounds,) = small_games(ed, [4], 3)
    tabs = some_tables(ed.board, ed.book, rounds)
    every = list(sheets(ed.board, ed.book, rounds[:3]))
    cuts = _random_cuts(ed, rounds[:3], every, random.Random(1), 60)
    r = 0
    priced = [(cut, random.Random(i).random(), r == cut.r) for i, cut in enumerate(cuts) if r in (cut.r, cut.q)]
    gain = [0.0] * 10
    want = LineScan(ed.board, ed.book, rounds[r], tabs[r]).price({}, {}, {}, gain, frozenset(), priced)
    budget = 3 * max(LineScan(ed.board, ed.book, rounds[r], tabs[r])._hits(c, f).nbytes for c, _, f in priced)
    monkeypatch.setattr(pairs_module, "MASK_BYTES", budget)
    scan = LineScan(ed.board, ed.book, rounds[r], tabs[r])
    for _ in range(2):
        assert scan.price({}, {}, {}, gain, frozenset(), priced) == want
        assert 0 < scan._mask_bytes <= budget and len(scan._masks) < len(priced)
        assert scan._mask_bytes == sum(m.nbytes for m in scan._masks.values())


@pytest.mark.parametrize("seed, turns, count", [(4, 2, 4), (2, 3, 3)])
def test_the_bound_with_cut_prices_is_never_below_the_optimum(ed, seed, turns, count):
    """Random prices on random cuts (with random station and section prices): the Lagrangian
    bound by scans stays at or above the brute-force optimum."""
    rounds, optimum = solved_small_game(ed, seed, turns, count)
    every = list(sheets(ed.board, ed.book, rounds))
    tabs = some_tables(ed.board, ed.book, rounds)
    scans = [LineScan(ed.board, ed.book, rnd, tab) for rnd, tab in zip(rounds, tabs)]
    relax = relaxation(ed.board, rounds, "entries", tourist=True)
    rng = random.Random(seed)
    for _ in range(12):
        cuts = _random_cuts(ed, rounds, every, rng, 30)
        prices = Prices(tuple({s.id: rng.random() * (rng.random() < 0.2) for s in ed.board.stations} for _ in rounds),
                        0.0, {}, (), rho=tuple((0.0,) * 8 for _ in rounds),
                        clash=tuple((c, rng.random() * 6) for c in cuts))
        value, _ = lagrangian_bound(ed.board, ed.book, rounds, prices, None, None, relax, scans=scans)
        assert value is not None and value >= optimum - 1e-6


def test_cut_prices_need_the_rounds_scanned(ed):
    rounds, _ = solved_small_game(ed, 0, 2, 2)
    cut = clash(ed.board, "sections", 0, 1, [0])
    prices = Prices(({}, {}), 0.0, {}, clash=((cut, 1.0),))
    with pytest.raises(ValueError, match="priced by the search"):
        lagrangian_bound(ed.board, ed.book, rounds, prices, None, None, relaxation(ed.board, rounds, "entries"))


def _every_line_master(ed):
    """Reduced game (seed 8, 2 turns, 4 rounds), whose plain relaxation stops above its optimum:
    its rounds, optimum, "entries" relaxation and a master holding every line of each round."""
    rounds, optimum = solved_small_game(ed, 8, 2, 4)
    relax = relaxation(ed.board, rounds, "entries", tourist=True)
    every = list(sheets(ed.board, ed.book, rounds))
    lp = MasterLP(ed.board, ed.book, len(rounds), relax)
    cols: list[list] = [[] for _ in rounds]
    for r in range(len(rounds)):
        for line in {frozenset(sheet[r].sections): sheet[r] for _, sheet in every}.values():
            c = column_of(ed.board, ed.book, line.stations, line.sections)
            cols[r].append(c)
            lp.add(r, c)
    return rounds, optimum, relax, lp, cols


def test_separation_finds_only_broken_rows(ed):
    """On the master over every line of a reduced game the plain relaxation leaves above its
    optimum, every cut separated is broken by the master's solution, none is between a round not
    listed; with them the master falls, and the Lagrangian bound at its prices is its value."""
    rounds, optimum, relax, lp, cols = _every_line_master(ed)
    m = lp.solve()
    first = m.value
    assert first > optimum + 0.5  # every line in the master, and still above the optimum
    some = separate(ed.board, relax.choices, cols, m.weights, m.choices, [1, 2, 3], set())
    assert all(0 not in (c.r, c.q) for c in some)
    for _ in range(4):
        cuts = separate(ed.board, relax.choices, cols, m.weights, m.choices, [0, 1, 2, 3], set(lp.clashes))
        for cut in cuts:
            lhs = sum(w * cut.coef(r, sum(1 << i for i in c.sections), block_of(ed.board, c.sections), c.stations)
                      for r in (cut.r, cut.q) for c, w in zip(cols[r], m.weights[r]))
            if cut.kind == "station":
                lhs += sum(u for u, (z, _) in zip(m.choices[cut.station], relax.choices[cut.station]) if cut.on(z))
            assert lhs > cut.rhs + 1e-5
            lp.add_clash(cut)
        m = lp.solve()
    assert optimum - 1e-6 <= m.value < first - 0.5 and len(some) < len(lp.clashes)
    assert {c.kind for c, _ in m.prices.clash} == {"sections", "station"}
    # every line is in the master: at its prices the Lagrangian bound is the LP's own value
    # (each cut's price taken off the lines it holds, off the station's choices, its right side added)
    tabs = some_tables(ed.board, ed.book, rounds)
    scans = [LineScan(ed.board, ed.book, rnd, tab) for rnd, tab in zip(rounds, tabs)]
    value, _ = lagrangian_bound(ed.board, ed.book, rounds, m.prices, None, None, relax, scans=scans)
    assert value == pytest.approx(m.value, abs=1e-6)


CLOSED = [(4, 2, 4), (8, 2, 4), (11, 2, 4), (5, 3, 3)]  # the plain root stops above the optimum


@pytest.mark.parametrize("seed, turns, count", CLOSED + [(0, 2, 4), (2, 3, 3)])
def test_with_cuts_the_root_by_tables_proves_the_reduced_games(ed, seed, turns, count):
    rounds, optimum = solved_small_game(ed, seed, turns, count)
    tabs = some_tables(ed.board, ed.book, rounds)
    plain = table_bound(ed.board, ed.book, rounds, tabs=tabs)
    cut = table_bound(ed.board, ed.book, rounds, tabs=tabs, clash=6)
    assert plain.bound is not None and cut.bound is not None
    assert optimum <= cut.bound <= plain.bound and cut.settled
    if (seed, turns, count) in CLOSED:
        assert plain.bound > optimum
    assert cut.bound == optimum


@pytest.mark.parametrize("seed, turns, count", [(4, 2, 4), (10, 3, 3)])
def test_branch_and_price_with_cuts_proves_at_its_root(ed, seed, turns, count):
    """Games whose plain tree needs 13-15 nodes: with the root separating cuts, the root's own
    bound is the optimum (every node would keep the cuts)."""
    rounds, optimum = solved_small_game(ed, seed, turns, count)
    tabs = some_tables(ed.board, ed.book, rounds)
    plain = branch_and_price(ed.board, ed.book, rounds, time_limit=60.0, tables=tabs)
    got = branch_and_price(ed.board, ed.book, rounds, time_limit=60.0, tables=tabs, clash=6)
    assert plain.status == got.status == "OPTIMAL" and plain.score == got.score == optimum
    assert plain.nodes > 1 and plain.root_bound > optimum
    assert got.root_bound == optimum and got.nodes == 1 and got.final.total == optimum


def test_a_master_solve_keeps_to_its_deadline(ed):
    """A master is solved by a deadline or raises OutOfTime (branch and price then leaves the node
    open, cut by the time limit): with many cuts one solve of seed 0's root took minutes."""
    import time

    from research.nextstation.columns import OutOfTime

    rounds, _ = solved_small_game(ed, 4, 2, 4)
    lp = MasterLP(ed.board, ed.book, len(rounds), relaxation(ed.board, rounds, "entries", tourist=True))
    for r, (_, dep) in enumerate(rounds):
        lp.add(r, column_of(ed.board, ed.book, (dep,), ()))
    assert lp.solve(time.perf_counter() + 30).value >= 0
    with pytest.raises(OutOfTime):
        lp.solve(time.perf_counter() - 1)


def test_the_station_terms_are_each_choice_s_value(ed):
    """The bound's station terms (``columns.rest_of``, over :attr:`.cuts.Relaxation.tables`) equal
    each station's best choice valued one by one: interchange points less the rounds' station and
    entering prices and the prices of the station cuts with both rounds on it; random prices."""
    from research.nextstation.columns import rest_of
    from research.nextstation.whole import rounds_of

    rounds, _, _ = rounds_of(ed, 3)
    relax = relaxation(ed.board, rounds, "entries")
    table = ed.book.scores.interchange
    rng = random.Random(3)
    ids = [s.id for s in ed.board.stations]
    for _ in range(5):
        lam = tuple({s: rng.random() * 4 for s in ids if rng.random() < 0.5} for _ in rounds)
        eta = tuple({(s, i): rng.random() * 3 for s, choices in relax.choices.items() for _, a in choices
                     for q, i in a if q == r and rng.random() < 0.3} for r in range(len(rounds)))
        cuts = tuple((clash(ed.board, "station", *rng.sample(range(4), 2), [rng.randrange(40)], rng.choice(ids)),
                      rng.random() * 5) for _ in range(60))
        prices = Prices(lam, 0.0, {}, eta, clash=cuts)
        want = sum(p * c.rhs for c, p in cuts)
        for s, choices in relax.choices.items():
            want += max(table[min(sum(z), len(table) - 1)] - sum(lam[r].get(s, 0.0) * z[r] for r in range(4))
                        - sum(eta[r].get((s, i), 0.0) for r, i in a)
                        - sum(p for c, p in cuts if c.station == s and c.on(z)) for z, a in choices)
        want += max(ed.book.scores.tourist(k) for k in range(ed.book.rules.tourist_marks_max + 1))
        assert rest_of(ed.book, relax, prices, 4) == pytest.approx(want, abs=1e-9)


def test_cuts_priced_zero_are_let_go_and_come_back_when_broken(ed, monkeypatch):
    """MasterLP.separate first frees the rows of the cuts the master prices at 0 (the master's
    value stays: an optimum stays optimal without rows it does not price), and a freed cut
    separated again gets its own row back (no second row)."""
    import research.nextstation.columns as columns

    rounds, optimum, relax, lp, cols = _every_line_master(ed)
    m = lp.solve()
    for _ in range(3):
        lp.separate(cols, m, range(len(rounds)), 400)
        m = lp.solve()
    priced = {c for c, _ in m.prices.clash}
    lp.separate(cols, m, range(len(rounds)), 0)  # (none added: only the letting go)
    assert lp.retired and lp.retired == set(lp.clashes) - priced
    again = lp.solve()
    assert again.value == pytest.approx(m.value, abs=1e-6) and again.value >= optimum - 1e-6
    back = next(iter(lp.retired))
    rows = len(lp.clash_rows)
    monkeypatch.setattr(columns, "separate", lambda *a, **k: [back])
    assert lp.separate(cols, again, range(len(rounds)), 400) == [back]
    assert back not in lp.retired and len(lp.clash_rows) == rows
    assert lp.clash_rows[lp.clashes.index(back)].ub() == back.rhs


def test_a_stalled_master_solve_is_solved_again_by_the_fallback(ed, monkeypatch):
    """GLOP's primal simplex once stalled for minutes on a root with cuts. A solve past
    STALL_TIMES the slowest recent one (at least STALL_FLOOR s) is stopped and solved again by the
    dual simplex without presolve: the same optimum, the default parameters back afterwards."""
    import research.nextstation.columns as columns

    rounds, optimum, relax, lp, cols = _every_line_master(ed)
    m = lp.solve()
    lp.separate(cols, m, range(len(rounds)), 400)
    want = lp.solve()
    assert lp.times and lp.stalls == 0
    lp.separate(cols, want, range(len(rounds)), 400)
    monkeypatch.setattr(columns, "STALL_FLOOR", 0.0)
    calls: list[tuple[float, str]] = []
    params: list[str] = [""]
    real_solve, real_set = lp._solve, lp.lp.SetSolverSpecificParametersAsString

    def stalling(seconds: float) -> int:  # the first try stalls: it hits its cap unsolved
        calls.append((seconds, params[-1]))
        return columns.pywraplp.Solver.NOT_SOLVED if len(calls) == 1 else real_solve(seconds)

    def setting(text: str) -> bool:
        params.append(text)
        return real_set(text)

    monkeypatch.setattr(lp, "_solve", stalling)
    monkeypatch.setattr(lp.lp, "SetSolverSpecificParametersAsString", setting)
    got = lp.solve()
    assert lp.stalls == 1 and [p for _, p in calls] == ["", columns.FALLBACK] and params[-1] == ""
    assert calls[0][0] == pytest.approx(columns.STALL_TIMES * max(lp.times[:-1]))
    assert got.value >= optimum - 1e-6
    # without a stall the fallback is never asked, and the default parameters find the same optimum
    calls.clear()
    monkeypatch.setattr(lp, "_solve", lambda s: (calls.append((s, params[-1])), real_solve(s))[1])
    again = lp.solve()
    assert len(calls) == 1 and again.value == pytest.approx(got.value, abs=1e-6)


def _path(board, departure: str, sections, s: str) -> frozenset[int]:
    """The sections joining the departure to s in a line (a tree), by a walk of its own."""
    seen = {departure: frozenset()}
    todo = [departure]
    while todo:
        u = todo.pop()
        for i in sections:
            sec = board.sections[i]
            if u in (sec.a, sec.b) and sec.other(u) not in seen:
                seen[sec.other(u)] = seen[u] | {i}
                todo.append(sec.other(u))
    return seen[s]


def test_a_station_cut_takes_the_whole_line_the_path_to_the_station_and_its_ends(ed):
    """For every line of a reduced round and every station on it: the whole line, then the path
    from the departure (found by a walk of the line's tree), then that path less its first
    sections, one at a time, down to the section entering the station (each the path from some
    station of it to the station)."""
    (rounds,) = small_games(ed, [1], 5)
    tab = some_tables(ed.board, ed.book, rounds[:1])[0]
    scan = LineScan(ed.board, ed.book, rounds[0], tab)
    dep = rounds[0][1]
    checked = 0
    for k in range(tab.n):
        col = scan.column(k)
        for s in col.stations:
            sets = station_sets(col, path_to(ed.board, col, s))
            assert sets[0] == col.sections
            path = _path(ed.board, dep, col.sections, s)
            assert len(sets) == 1 + len(path)
            if s == dep:
                continue
            assert sets[1] == path
            ends = {_path(ed.board, v, path, s) for i in path for v in (ed.board.sections[i].a, ed.board.sections[i].b)}
            assert [len(t) for t in sets[1:]] == list(range(len(path), 0, -1)) and set(sets[1:]) <= ends
            entered = dict(col.entering)[s]
            assert sets[-1] == {entered}
            checked += 1
    assert checked > 1000


def test_path_and_flow_cuts_bring_the_root_lower_and_never_below_the_optimum(ed, monkeypatch):
    """A reduced game of 4 turns a round (seed 3) that branch and price proves at 65: the root by
    tables with cuts settles at LP 68.4 (68) with station cuts of whole lines alone, 67.6 (67) with
    the paths to the station too, 67.2 with the cuts over several paths as well."""
    (rounds,) = small_games(ed, [3], 4)
    tabs = some_tables(ed.board, ed.book, rounds)
    best = branch_and_price(ed.board, ed.book, rounds, time_limit=60.0, tables=tabs, clash=6)
    every = table_bound(ed.board, ed.book, rounds, tabs=tabs, clash=6)
    monkeypatch.setattr(clash_module, "flow_cut", lambda *args, **kw: None)
    paths = table_bound(ed.board, ed.book, rounds, tabs=tabs, clash=6)
    monkeypatch.setattr(clash_module, "station_sets", lambda col, path: [col.sections])
    whole = table_bound(ed.board, ed.book, rounds, tabs=tabs, clash=6)
    assert best.status == "OPTIMAL" and best.score == 65
    assert every.settled and paths.settled and whole.settled
    assert best.score <= every.bound <= paths.bound < whole.bound
    assert every.lp < paths.lp - 0.2 and paths.lp < whole.lp - 0.5
