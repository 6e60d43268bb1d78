"""The whole-game brute force (:mod:`tubedeck.solver.nextstation.exhaustive_game`) on hand-checkable cases:
one round is the single-round search; a second line avoids the first's sections and crossings;
a shared station, the tourist track and an objective each decide the best sheet.

Stations on the classic map used below (id: symbol, district; Thames sections marked T):
green departs r2c3 (triangle, north): r0c1 triangle northwest, r3c4 triangle central,
r3c2 pentagon west, r6c3 pentagon central (T, section 46).
purple departs r5c2 (square, west): r3c4 triangle central (T, 62), r4c1 triangle west,
r5c4 circle central (T, 96), r7c0 circle southwest; r4c1 - r3c0 (square, west) is T.
Green's r2c3 - r6c3 crosses both of purple's r5c2 - r3c4 and r5c2 - r5c4.
"""

from __future__ import annotations

import dataclasses

import pytest

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.edition import deal, load
from tubedeck.games.nextstation.flips import Turn, turns
from tubedeck.games.nextstation.rules import Objective
from tubedeck.games.nextstation.scoring import final_score, line_score
from tubedeck.solver.nextstation.exhaustive import best_round
from tubedeck.solver.nextstation.exhaustive_game import best_game, round_lines, sheets, small_games, touched

from ns_helpers import short_rounds


@pytest.fixture(scope="module")
def ed():
    return load(None)


def T(symbol: str | None, switch: bool = False) -> Turn:
    return Turn(f"underground-{symbol or 'joker'}", symbol, switch, False)


def with_tourist_sites(board: Board, sites) -> Board:
    """The board with exactly these tourist sites (none: the line scores alone)."""
    stations = tuple(dataclasses.replace(s, tourist=s.id in sites) for s in board.stations)
    return Board(board.title, board.rows, board.cols, stations, board.sections, board.districts, board.crossings)


def final(ed, lines, board=None, objectives=()):
    return final_score(board or ed.board, ed.book, [l.stations for l in lines], [l.sections for l in lines],
                       objectives)


def assert_legal_sheet(board, rounds, lines):
    """One line per round from its departure, no section twice on the sheet, none crossing another."""
    assert [l.stations[0] for l in lines] == [dep for _, dep in rounds]
    secs = [i for l in lines for i in l.sections]
    assert len(secs) == len(set(secs))
    assert not any(board.crossing[i] & set(secs) for i in secs)
    for (ts, _), line in zip(rounds, lines):
        assert len(line.sections) <= len(ts) and len(set(line.stations)) == len(line.stations)


@pytest.mark.parametrize("seed", [0, 1000])
def test_one_round_is_the_single_round_search(ed, seed):
    """Without tourist sites the final score of a one-round game is its line score."""
    board = with_tourist_sites(ed.board, ())
    for ts, dep in short_rounds(ed, 3, 6, 5, seed):
        want, _ = best_round(board, ed.book, ts, dep)
        got, lines = best_game(board, ed.book, ((ts, dep),))
        assert got == want == line_score(board, ed.book, lines[0].stations, lines[0].sections).points


def test_one_round_on_the_real_board_adds_its_tourist_sites(ed):
    for ts, dep in short_rounds(ed, 2, 6, 5, 7):
        want, _ = best_round(ed.board, ed.book, ts, dep)
        got, lines = best_game(ed.board, ed.book, ((ts, dep),))
        sites = line_score(ed.board, ed.book, lines[0].stations, lines[0].sections).tourist_sites
        assert got == final(ed, lines).total and want <= got <= want + ed.book.scores.tourist(sites)


def test_the_second_line_avoids_the_first_lines_sections(ed):
    """Alone, green (pentagon) and purple (circle) each score 4 with a Thames section (2 districts
    x 1 + 2), but green's r2c3 - r6c3 crosses purple's r5c2 - r5c4: together at most 4 + 2 = 6."""
    board = with_tourist_sites(ed.board, ())
    rounds = (((T("pentagon"),), "r2c3"), ((T("circle"),), "r5c2"))
    alone = [best_round(board, ed.book, ts, dep)[0] for ts, dep in rounds]
    got, lines = best_game(board, ed.book, rounds)
    assert alone == [4, 4] and got == 6
    assert_legal_sheet(board, rounds, lines)
    # the same as round 1's every line followed by the best round 2 on its sheet (no station shared)
    ts2, dep2 = rounds[1]
    assert got == max(line_score(board, ed.book, l.stations, l.sections).points
                      + best_round(board, ed.book, ts2, dep2, frozenset(l.sections))[0]
                      for l in round_lines(board, *rounds[0], frozenset()))


def test_the_same_departure_twice_cannot_reuse_a_section(ed):
    """Two one-turn Joker rounds from green's departure: two different sections, and r2c3 is on
    both lines (an interchange, 2 points)."""
    board = with_tourist_sites(ed.board, ())
    rounds = (((T(None),), "r2c3"), ((T(None),), "r2c3"))
    got, lines = best_game(board, ed.book, rounds)
    # r6c3 is the departure's only Thames neighbour: 4, then the best other section 2, then 2
    assert got == 4 + 2 + 2 and set(lines[0].sections).isdisjoint(lines[1].sections)
    assert final(ed, lines, board).interchange_points == 2
    assert_legal_sheet(board, rounds, lines)


def test_an_interchange_decides(ed):
    """Green (triangle) reaches r0c1 or r3c4 (2 either way); purple (triangle) scores 4 at r3c4
    (Thames). Sharing r3c4 adds an interchange: 2 + 4 + 2 = 8, the only sheet scoring 8."""
    rounds = (((T("triangle"),), "r2c3"), ((T("triangle"),), "r5c2"))
    got, lines = best_game(ed.board, ed.book, rounds)
    assert got == 8 and [l.stations for l in lines] == [("r2c3", "r3c4"), ("r5c2", "r3c4")]
    f = final(ed, lines)
    assert f.lines == (2, 4) and f.interchanges[0] == 1 and f.interchange_points == 2


def test_the_tourist_track_counts_marks_over_all_lines(ed):
    """With tourist sites r0c1, r4c1 and r3c0 only: green r0c1 (2, one mark) and purple r4c1 -
    r3c0 (1 district x 3 + 2 Thames = 5, two marks) cross 3 circles together: 4 points, 11 in
    all; scored line by line (1 + 2 points) it would only tie the best plan without the sites
    (green r3c4, purple r3c4 then a square: 2 + 6 + an interchange 2 = 10)."""
    rounds = (((T("triangle"),), "r2c3"), ((T("triangle"), T("square")), "r5c2"))
    plain, _ = best_game(with_tourist_sites(ed.board, ()), ed.book, rounds)
    board = with_tourist_sites(ed.board, ("r0c1", "r4c1", "r3c0"))
    got, lines = best_game(board, ed.book, rounds)
    assert plain == 10 and got == 11
    assert [l.stations for l in lines] == [("r2c3", "r0c1"), ("r5c2", "r4c1", "r3c0")]
    f = final(ed, lines, board)
    assert f.tourist_marks == 3 and f.tourist == ed.book.scores.tourist(3) == 4


def test_an_objective_decides(ed):
    """Reach 4 districts (a test objective, 10 points): green r6c3 (north, central; 4) and purple
    r7c0 (west, southwest; 2) is the only sheet reaching 4; a Thames objective of 2 cannot be
    met (the two Thames sections cross), so the best stays 6."""
    board = with_tourist_sites(ed.board, ())
    rounds = (((T("pentagon"),), "r2c3"), ((T("circle"),), "r5c2"))
    four = Objective("four-districts", "districts", 4, "")
    got, lines = best_game(board, ed.book, rounds, (four,))
    assert got == 4 + 2 + ed.book.rules.objective_points
    assert [l.stations for l in lines] == [("r2c3", "r6c3"), ("r5c2", "r7c0")]
    assert best_game(board, ed.book, rounds, (Objective("two-thames", "thames", 2, ""),))[0] == 6


def test_the_running_sum_is_final_score_on_every_sheet(ed):
    """The total summed as the sheets are built equals final_score on every sheet of a small
    4-round game, with the real objectives and two easy ones (so some sheets reach them); every
    sheet appears once."""
    rounds = small_games(ed, [3], 2)[0]
    objs = ed.book.objectives + (Objective("three-districts", "districts", 3, ""),
                                 Objective("one-interchange", "interchanges", 1, ""))
    seen, best = set(), 0
    for total, sheet in sheets(ed.board, ed.book, rounds, objs):
        assert total == final(ed, sheet, objectives=objs).total
        key = tuple(frozenset(l.sections) for l in sheet)
        assert key not in seen
        seen.add(key)
        best = max(best, total)
    assert len(seen) > 10_000 and best_game(ed.board, ed.book, rounds, objs)[0] == best


def test_a_rounds_lines_depend_only_on_the_sections_it_touches(ed):
    """The memo key: on every sheet the first rounds of two small games leave, the last round's
    lines are the same with all drawn sections as with those it could use or cross."""
    for rounds in small_games(ed, [1, 12], 2):
        *first, (ts, dep) = rounds[:3]
        near = touched(ed.board, round_lines(ed.board, ts, dep, frozenset()))
        sheets_met = [frozenset()]
        for r_ts, r_dep in first:
            sheets_met = [d | frozenset(l.sections) for d in sheets_met for l in round_lines(ed.board, r_ts, r_dep, d)]
        assert len(sheets_met) > 100 and any(d - near for d in sheets_met)
        for d in sheets_met:
            full = {frozenset(l.sections) for l in round_lines(ed.board, ts, dep, d)}
            assert full == {frozenset(l.sections) for l in round_lines(ed.board, ts, dep, d & near)}


def test_seeded_small_games(ed):
    """small_games: 4 rounds of the solo deal cut to k turns, the solo pencils' departures."""
    games = small_games(ed, [5, 6], 2)
    assert games == small_games(ed, [5, 6], 2) and len(games) == 2
    d = deal(ed, 1, 5)
    for r, (ts, dep) in enumerate(games[0]):
        full = turns(ed.book, d.flips[r])
        assert len(ts) == 2 and ts[0] == full[0] and ts[1].card == full[1].card and ts[1].last
        assert dep == ed.board.departure(d.pencils[0][r]).id
    got, lines = best_game(ed.board, ed.book, games[0])
    assert len(lines) == 4 and got == final(ed, lines).total
    assert_legal_sheet(ed.board, games[0], lines)
    # each line is legal on an empty sheet too: the line scores are at most the rounds' own bests
    assert sum(final(ed, lines).lines) <= sum(best_round(ed.board, ed.book, ts, dep)[0] for ts, dep in games[0])
    with pytest.raises(ValueError):
        small_games(ed, [1], 0)
    with pytest.raises(ValueError):
        best_game(ed.board, ed.book, games[0] + games[1][:1])  # 5 rounds


def test_the_limit_is_a_runtime_error(ed):
    with pytest.raises(RuntimeError, match="passed 50 positions"):
        best_game(ed.board, ed.book, small_games(ed, [1], 3)[0], limit=50)
