"""Tube Dice solo, the exact target search (``--engine auto``): against the exhaustive search and
CP-SAT, its bound admissible, a cut-short search never a verdict."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from solver.dice import bnb
from solver.dice.model import ModelResult, solve_sequence
from solver.dice.search import best_score
from solver.dice.solve import _then_cp_sat, replay, solve_rolls
from tubedeck.games.dice.edition import load
from tubedeck.network import Network

from conftest import run_cli, write_dataset

TINYCITY = Path(__file__).resolve().parent.parent / "data" / "tinycity"


def with_passes(ed, passes):
    return dataclasses.replace(ed, recipe=dataclasses.replace(ed.recipe, rules=dataclasses.replace(ed.rules, passes=passes)))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return load(Network.load(write_dataset(tmp_path_factory.mktemp("dice") / "tiny")))


@pytest.fixture(scope="module")
def tinycity():
    return load(Network.load(TINYCITY))


@pytest.fixture(scope="module")
def london():
    return load(Network.load())


def agree(ed, seeds, turns):
    scores = set()
    for seed in seeds:
        rolls = ed.rolls(seed, turns).turns
        got = bnb.best_sequence(ed, rolls, time_limit=30)
        exact, _ = best_score(ed, rolls)
        assert got.status == "OPTIMAL" and got.score == got.bound == exact, (seed, got, exact)
        assert replay(ed, seed, rolls, got.moves) == exact  # the moves play to the score
        scores.add(exact)
    return scores


@pytest.mark.parametrize("passes", [0, 2])
@pytest.mark.slow
def test_agrees_with_exhaustive_search_on_small_maps(tiny, tinycity, passes):
    scores = agree(with_passes(tiny, passes), range(8), 5)
    scores |= agree(with_passes(tinycity, passes), range(8), 4)
    assert len(scores) > 2  # the cases differ


@pytest.mark.parametrize("passes", [0, 3])
def test_agrees_with_exhaustive_search_on_short_london_sequences(london, passes):
    agree(with_passes(london, passes), range(3), 3)


def test_agrees_with_cp_sat_on_longer_london_sequences(london):
    for seed in (0, 7):
        rolls = london.rolls(seed, 8).turns
        got = bnb.best_sequence(london, rolls, time_limit=30)
        model = solve_sequence(london, rolls, time_limit=30)
        assert got.status == model.status == "OPTIMAL" and got.score == model.score, (seed, got, model)
        assert replay(london, seed, rolls, got.moves) == got.score


def test_turns_needed_never_exceed_the_turns_a_best_play_used(tinycity, london):
    """Admissible: the lines and zones a best play completes need at most the uses it made."""
    checked = 0
    for ed, turns in ((tinycity, 4), (london, 3)):
        for seed in range(4):
            rolls = ed.rolls(seed, turns).turns
            _, moves = best_score(ed, rolls)
            g = bnb._Board(ed, rolls)
            filled = marked = 0
            for _, s, _, k in moves:
                filled |= 1 << s
                marked |= g.kmask_at[s][k]
            RS, RC = (1 << g.star if moves else 0), 0
            for ls, lc in zip(g.line_st, g.line_cn):
                if ls & filled == ls and lc & marked == lc:
                    RS, RC = RS | ls, RC | lc
            for zs in g.zone_st:
                if zs & filled == zs:
                    RS |= zs
            need = g.turns.needed(RS, RC, RS & ~(1 << g.star), 99)
            assert need <= len(moves), (seed, need, moves)
            checked += bool(RC)
    assert checked  # some best play completes a line


def test_a_cut_short_search_is_never_a_verdict(london):
    rolls = london.rolls(5, 20).turns  # seed 5: the search takes long to refute 41
    got = bnb.best_sequence(london, rolls, time_limit=0.2)
    assert got.status == "FEASIBLE" and got.bound >= got.score and got.bound > 3
    result = solve_rolls(london, 5, 20, time_limit=0.05, engine="auto")
    assert result.status in ("FEASIBLE", "UNKNOWN")
    assert result.result.bound >= (result.result.score or 0)
    assert "proven optimal" not in " ".join(result.describe())


def test_cp_sat_takes_over_with_the_better_score_and_the_tighter_bound():
    first = ModelResult("FEASIBLE", 38, 41.0, ((0, 1, 2, 3),), 1.0)
    assert _then_cp_sat(first, ModelResult("OPTIMAL", 40, 40.0, (), 2.0)).status == "OPTIMAL"
    merged = _then_cp_sat(first, ModelResult("FEASIBLE", 39, 45.0, ((0, 4, 5, 6),), 2.0))
    assert (merged.status, merged.score, merged.bound, merged.wall) == ("FEASIBLE", 39, 41.0, 3.0)
    merged = _then_cp_sat(first, ModelResult("UNKNOWN", None, 38.0, (), 2.0))
    assert (merged.status, merged.score, merged.moves) == ("OPTIMAL", 38, first.moves)  # both bounds meet


def test_cli_engine_auto(capsys):
    code, out, _ = run_cli(capsys, "solve", "dice", "--seed", "2", "--turns", "10", "--engine", "auto", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["status"] == "OPTIMAL" and payload["score"] == 22  # as CP-SAT proved it (the 10-roll challenge 2)
    code, _, err = run_cli(capsys, "solve", "dice", "--engine", "bogus")
    assert code == 2 and err
