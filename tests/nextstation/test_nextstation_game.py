"""The whole solo game: CP-SAT (from the best responses) against the independent exhaustive search
on small games, the best response against an exhaustive single round with bonuses, and a solved
seeded game replayed through the rules engine."""

from __future__ import annotations

import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.best import best_response
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.play import CHANCE, PASS, Line, legal_sections, new_game
from tubedeck.games.nextstation.responses import best_responses, lines_of, value_bonus
from tubedeck.games.nextstation.scoring import final_score, line_score
from tubedeck.solver.nextstation.exhaustive_game import small_games
from tubedeck.solver.nextstation.game import best_game, best_of

from ns_helpers import solved_small_game


@pytest.fixture(scope="module")
def ed():
    return load(None)


@pytest.mark.parametrize("seed, turns, count", [(s, 2, 4) for s in range(6)] + [(s, 3, 3) for s in range(3)])
def test_the_game_model_agrees_with_the_exhaustive_search(ed, seed, turns, count):
    rounds, best = solved_small_game(ed, seed, turns, count)
    got = best_of(ed.board, ed.book, rounds, time_limit=60.0)
    assert got.status == "OPTIMAL" and got.final.total == best == got.bound
    assert got.start <= best  # the best responses never claim more than the optimum


@pytest.mark.slow
def test_the_same_rounds_give_the_same_game(ed):
    """Best responses always run to the end and CP-SAT stops on deterministic time (1 worker)."""
    (rounds,) = small_games(ed, [4], 4)
    first, again = best_of(ed.board, ed.book, rounds, time_limit=2.0), best_of(ed.board, ed.book, rounds, time_limit=2.0)
    assert (first.draws, first.final, first.bound, first.status) == (again.draws, again.final, again.bound, again.status)


def test_objectives_count_in_the_game_model(ed):
    objectives = ed.book.objectives[:2]
    rounds, best = solved_small_game(ed, 3, 2, objectives=objectives)
    got = best_of(ed.board, ed.book, rounds, objectives, time_limit=60.0)
    assert got.status == "OPTIMAL" and got.final.total == best


def _exhaustive_response(ed, ts, dep, drawn, bonus, gain):
    """Every line of the round (each draw or pass), valued as best_response values it."""
    best = None

    def go(t, line):
        nonlocal best
        if t == len(ts):
            sites = sum(ed.board.by_id[v].tourist for v in line.stations)
            value = (line_score(ed.board, ed.book, line.stations, line.sections).points
                     + sum(bonus.get(v, 0) for v in line.stations[1:]) + gain[min(sites, len(gain) - 1)])
            best = value if best is None else max(best, value)
            return
        go(t + 1, line)
        for _, v, i in legal_sections(ed.board, line, drawn | frozenset(line.sections), ts[t]):
            go(t + 1, Line("", line.stations + (v,), line.sections + (i,)))

    go(0, Line("", (dep,), ()))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_a_best_response_is_the_best_line_for_the_game(ed, seed):
    """Random bonuses and tourist gains on short rounds, on a sheet with another line drawn."""
    rng = random.Random(seed)
    (rounds,) = small_games(ed, [seed], 4)
    other = best_responses(ed.board, ed.book, rounds[:1])[0]
    drawn = frozenset(ed.board.section_between[frozenset((u, v))].index for _, u, v in other)
    ts, dep = rounds[1]
    bonus = {s.id: rng.choice([0, 0, 2, 3, 4]) for s in ed.board.stations}
    gain = sorted(rng.sample(range(12), 6))
    gain = [g - gain[0] for g in gain]
    value, line = best_response(ed.board, ed.book, ts, dep, drawn, bonus, gain)
    assert line.status == "OPTIMAL"
    assert value == _exhaustive_response(ed, ts, dep, drawn, bonus, gain)


def test_round_bonuses_are_the_interchange_and_tourist_rises(ed):
    (rounds,) = small_games(ed, [1], 3)
    draws = best_responses(ed.board, ed.book, rounds)
    stations, sections = lines_of(ed.board, rounds, draws)
    whole = final_score(ed.board, ed.book, stations, sections)
    for r in range(len(rounds)):
        bonus, gain = value_bonus(ed.board, ed.book, stations, r)
        others = [s if k != r else (rounds[r][1],) for k, s in enumerate(stations)]
        secs = [s if k != r else () for k, s in enumerate(sections)]
        without = final_score(ed.board, ed.book, others, secs)
        sites = sum(ed.board.by_id[v].tourist for v in stations[r])
        dep_site = ed.board.by_id[rounds[r][1]].tourist
        # the line's own score rise, its stations' interchange rises, the tourist track's rise
        added = (whole.lines[r] - without.lines[r]) + sum(bonus.get(v, 0) for v in stations[r][1:]) \
            + gain[sites] - gain[dep_site]
        assert whole.total == without.total + added


@pytest.mark.slow
def test_a_solved_seeded_game_replays_through_the_rules_engine(ed):
    # deterministic: CP-SAT gets its 0.2 s (no kick), the wall clock only guards; cut or not, the game replays
    result = best_game(ed, 5, time_limit=120.0, det_limit=0.2, kicks=3)
    assert result.status in ("OPTIMAL", "FEASIBLE") and result.bound >= result.score
    state = new_game(ed, 1, 5)
    by_turn = [{t: (u, v) for t, u, v in r.draws} for r in result.rounds]
    turn_of_round = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            before = state.round
            state = state.apply(state.dealt_outcome())
            continue
        move = by_turn[state.round].get(turn_of_round)
        state = state.apply(("draw",) + move if move else PASS)
        turn_of_round = 0 if state.round != before else turn_of_round + 1
    assert state.returns() == (float(result.score),)
    assert [r.pencil for r in result.rounds] == list(state.deal.pencils[0])


def test_bad_game_requests(ed):
    with pytest.raises(UsageError, match="--seed"):
        best_game(ed, -1, time_limit=1.0)
    from tubedeck.solver.nextstation.solve import solve_round
    with pytest.raises(UsageError, match="--game"):
        solve_round(ed, seed=1, flips="u-circle,u-square,u-triangle,u-pentagon,u-joker", game=True)
    with pytest.raises(UsageError, match="add --game"):
        solve_round(ed, seed=1, objectives=True)


def test_the_seeded_objectives_are_the_ones_play_draws(ed):
    from tubedeck.games.nextstation.play import drawn_objectives
    state = new_game(ed, 1, 7, objectives=True)
    assert tuple(o.id for o in drawn_objectives(ed, 7)) == state.objectives and len(state.objectives) == 2


@pytest.mark.parametrize("seed", range(4))
def test_kicks_never_lose_the_game_found(ed, seed):
    """Iterated local search keeps the best game: never below the plain best responses, never
    above the exhaustive optimum, and the same game twice."""
    rounds, best = solved_small_game(ed, seed, 3, 3)

    def total(draws):
        return final_score(ed.board, ed.book, *lines_of(ed.board, rounds, draws)).total

    plain, kicked = best_responses(ed.board, ed.book, rounds), best_responses(ed.board, ed.book, rounds, kicks=10)
    assert total(plain) <= total(kicked) <= best
    assert kicked == best_responses(ed.board, ed.book, rounds, kicks=10)


def test_a_best_response_without_a_tourist_table_still_counts_bonuses(ed):
    """A one-entry gain table (a map whose track has no marks) must not drop the station bonuses
    from the search's bound (it did: found by review)."""
    (rounds,) = small_games(ed, [2], 5)
    ts, dep = rounds[0]
    rng = random.Random(7)
    bonus = {s.id: rng.choice([0, 3, 6, 9]) for s in ed.board.stations}
    value, line = best_response(ed.board, ed.book, ts, dep, frozenset(), bonus, [0])
    assert line.status == "OPTIMAL" and value == _exhaustive_response(ed, ts, dep, frozenset(), bonus, [0])


def test_a_stored_seed_reports_the_stored_bound_and_game(ed):
    """Seed 2 of the classic map is in challenges.csv (167, bound 181, from the research branch
    and price): a short deterministic search finds less and CP-SAT proves far less, so the answer
    is the stored game, with the stored bound, each named; another map's seed has no row."""
    from tubedeck.games.nextstation.challenge import stored_answer

    stored = stored_answer(ed, 2)
    assert stored is not None and (stored.score, stored.bound) == (167, 181)
    g = best_game(ed, 2, time_limit=300, det_limit=0.2)
    assert (g.score, g.bound, g.bound_by, g.status) == (167, 181, "stored", "FEASIBLE")
    assert g.found_by in ("stored game", "CP-SAT", "best responses")
    assert "the stored answer's bound" in g.describe()[0]
    # the drawing replays to the score through the rules engine's scoring
    assert sum(r.score for r in g.rounds) == sum(g.final.lines)
    assert stored_answer(ed, 10**6) is None
    objs = best_game(ed, 2, objectives=(ed.book.objectives[0],), time_limit=300, det_limit=0.2)
    assert objs.bound_by != "stored"  # stored answers know no Shared Objectives
