"""The column bound's cuts (:mod:`research.nextstation.cuts`): every pattern a real game shows at a
station is kept (small games: every sheet of the brute force; real seeds: seeded random games
and the stored challenge games, played through the rules engine), and the bound with them is never
below a game found, while never looser than the bound without them at the same prices."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from research.nextstation.challenges import read_rows, stored_draws
from research.nextstation.columns import Prices, column_bound, lagrangian_bound
from research.nextstation.cuts import entries, relaxation, station_patterns
from research.nextstation.pricing import entering_response
from research.nextstation.whole import rounds_of
from tubedeck.content import content
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.responses import lines_of
from tubedeck.games.nextstation.scoring import final_score, line_score
from tubedeck.solver.nextstation.exhaustive_game import round_lines, sheets, small_games

from ns_helpers import random_sheet, solved_small_game


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _pattern_check(board, rounds):
    """A check of one sheet's lines: each station's pattern on the sheet is kept, and each line
    enters each of its stations along a section :func:`entries` lists (both worked out once)."""
    kept = station_patterns(board, rounds)
    enter = [entries(board, rnd) for rnd in rounds]

    def check(lines) -> None:
        on: defaultdict[str, list[int]] = defaultdict(lambda: [0] * len(rounds))
        for r, (stations, sections) in enumerate(lines):
            for v in stations:
                on[v][r] = 1
            for v, i in zip(stations[1:], sections):  # the k-th section drawn reaches the (k+1)-th station
                assert i in enter[r][v], (r, v, i)
        for v, z in on.items():
            assert tuple(z) in kept[v], (v, z)

    return check


@pytest.mark.parametrize("seed", range(4))
def test_every_sheet_of_a_small_game_keeps_its_patterns(ed, seed):
    (rounds,) = small_games(ed, [seed], 2)
    check = _pattern_check(ed.board, rounds[:3])
    for _, sheet in sheets(ed.board, ed.book, rounds[:3]):
        check([(ln.stations, ln.sections) for ln in sheet])


@pytest.mark.parametrize("seed", range(20))
def test_random_games_on_real_seeds_keep_their_patterns(ed, seed):
    rounds, _, _ = rounds_of(ed, seed)
    rng = random.Random(seed)
    check = _pattern_check(ed.board, rounds)
    for _ in range(30):
        check(random_sheet(ed, rounds, rng))
    row = read_rows(content("nextstation", "challenges.csv")).get(("classic", str(seed)))
    if row is not None:  # the best game found on the seed
        stations, sections = lines_of(ed.board, rounds, stored_draws(ed, row))
        check(list(zip(stations, sections)))


def test_the_cuts_drop_patterns_no_game_shows(ed):
    """Four lines never meet at a station of three sections that is no round's departure."""
    rounds, _, _ = rounds_of(ed, 0)
    kept = station_patterns(ed.board, rounds)
    deps = {dep for _, dep in rounds}
    low = [s.id for s in ed.board.stations if len(ed.board.incident[s.id]) == 3 and s.id not in deps]
    assert low and all((1, 1, 1, 1) not in kept[v] for v in low)
    assert all(len(station_patterns(ed.board, rounds, cuts=False)[s.id]) == 16 for s in ed.board.stations)


@pytest.mark.parametrize("seed", range(6))
def test_the_entering_search_finds_the_most_valuable_line(ed, seed):
    """Prices per station, per (station, section entering it), a tourist gain and section
    penalties, on a sheet with sections drawn: the search's value is the best over every line of
    the round (brute force), with or without a floor."""
    rng = random.Random(seed)
    (rounds,) = small_games(ed, [seed], 4)
    ts, dep = rounds[2]
    drawn = frozenset(rng.sample(range(len(ed.board.sections)), 4))
    bonus = {s.id: rng.random() * 2 for s in ed.board.stations if rng.random() < 0.3}
    eta = {(s.id, sec.index): rng.random() * 5 for s in ed.board.stations for sec in ed.board.incident[s.id]
           if rng.random() < 0.4}
    pen = {i: rng.random() * 3 for i in range(len(ed.board.sections)) if rng.random() < 0.2}
    gain = [0.7 * k for k in range(12)]

    def worth(line):
        score = line_score(ed.board, ed.book, line.stations, line.sections).points
        sites = sum(ed.board.by_id[v].tourist for v in line.stations)
        return (score + sum(bonus.get(v, 0) + eta.get((v, i), 0) for v, i in zip(line.stations[1:], line.sections))
                + gain[sites] - sum(pen.get(i, 0) for i in line.sections))

    best = max(worth(ln) for ln in round_lines(ed.board, ts, dep, drawn))
    value, line = entering_response(ed.board, ed.book, ts, dep, drawn, bonus, eta, gain, penalty=pen)
    assert line.status == "OPTIMAL" and value == pytest.approx(best, abs=1e-9)
    above, _ = entering_response(ed.board, ed.book, ts, dep, drawn, bonus, eta, gain, penalty=pen, floor=best + 1e-3)
    assert above is None
    below, _ = entering_response(ed.board, ed.book, ts, dep, drawn, bonus, eta, gain, penalty=pen, floor=best - 2)
    assert below == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("seed, turns, count", [(s, 2, 4) for s in range(10)] + [(s, 3, 3) for s in range(3)])
def test_the_bound_with_cuts_is_never_below_the_optimum(ed, seed, turns, count):
    """The property over seeds: the exhaustive whole-game optimum of a reduced game never exceeds
    the column bound with the cuts."""
    rounds, optimum = solved_small_game(ed, seed, turns, count)
    for cuts in ("patterns", "entries"):
        cb = column_bound(ed.board, ed.book, rounds, iterations=15, cuts=cuts)
        assert cb.bound is not None and cb.bound >= optimum, cuts
        if cb.converged:
            assert cb.lp >= optimum - 1e-6, cuts


@pytest.mark.parametrize("seed", range(4))
def test_the_cuts_never_loosen_the_bound_at_the_same_prices(ed, seed):
    rounds, optimum = solved_small_game(ed, seed, 2)
    rng = random.Random(seed)
    for _ in range(3):
        lam = tuple({s.id: rng.random() * 4 for s in ed.board.stations} for _ in rounds)
        prices = Prices(lam, rng.random(), {})
        cut, _ = lagrangian_bound(ed.board, ed.book, rounds, prices)
        whole, _ = lagrangian_bound(ed.board, ed.book, rounds, prices, relax=relaxation(ed.board, rounds, "none"))
        some, _ = lagrangian_bound(ed.board, ed.book, rounds, prices, relax=relaxation(ed.board, rounds, "patterns"))
        assert cut is not None and whole is not None and some is not None
        assert optimum - 1e-9 <= cut <= some + 1e-9 <= whole + 2e-9  # (eta 0: "entries" prices stations alone)


@pytest.mark.parametrize("seed", range(3))
def test_on_real_seeds_the_bound_is_never_below_a_game_found(ed, seed):
    """The seed's stored challenge game (the best any search found: best responses with kicks,
    CP-SAT, branch and price) and seeded random games, each scored by the rules: never above the
    cut Lagrangian bound at station prices that make interchanges matter."""
    rounds, _, _ = rounds_of(ed, seed)
    row = read_rows(content("nextstation", "challenges.csv"))[("classic", str(seed))]
    draws = stored_draws(ed, row)
    assert draws is not None
    best = final_score(ed.board, ed.book, *lines_of(ed.board, rounds, draws)).total
    games = [best]
    rng = random.Random(seed)
    for _ in range(10):
        lines = random_sheet(ed, rounds, rng)
        games.append(final_score(ed.board, ed.book, [st for st, _ in lines], [se for _, se in lines]).total)
    assert best == int(row[2])
    prices = Prices(tuple({s.id: 1.0 for s in ed.board.stations} for _ in rounds), 0.5, {})
    bound, _ = lagrangian_bound(ed.board, ed.book, rounds, prices)
    assert bound is not None and bound >= max(games)
    eta = tuple({(v.id, sec.index): 1.5 for v in ed.board.stations for sec in ed.board.incident[v.id]} for _ in rounds)
    bound, _ = lagrangian_bound(ed.board, ed.book, rounds, Prices(tuple({} for _ in rounds), 0.5, {}, eta))
    assert bound is not None and bound >= max(games)
