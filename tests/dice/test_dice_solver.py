"""Tube Dice solo solver: CP-SAT against an independent exhaustive search; statuses as given."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.dice.edition import load
from tubedeck.network import Network
from tubedeck.solver.dice.exhaustive import best_score
from tubedeck.solver.dice.model import pair_cost, solve_sequence
from tubedeck.solver.dice.solve import replay, solve_rolls

from conftest import run_cli, write_dataset


def with_passes(ed, passes):
    return dataclasses.replace(ed, recipe=dataclasses.replace(ed.recipe, rules=dataclasses.replace(ed.rules, passes=passes)))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return load(Network.load(write_dataset(tmp_path_factory.mktemp("dice") / "tiny")))


def test_pair_cost():
    assert pair_cost((1, 6, 6, 6, 6), 6, 1) == 0 and pair_cost((3, 3), 3, 3) == 0
    assert pair_cost((3, 5), 3, 3) == 2 and pair_cost((2, 2, 2), 1, 6) == 5


@pytest.mark.parametrize("passes", [0, 2])
@pytest.mark.slow
def test_cp_sat_agrees_with_exhaustive_search_on_short_sequences(tiny, passes):
    ed = with_passes(tiny, passes)
    scores = set()
    for seed in range(8):
        rolls = ed.rolls(seed, 5).turns
        model = solve_sequence(ed, rolls, time_limit=30)
        exact, moves = best_score(ed, rolls)
        assert model.status == "OPTIMAL" and model.score == exact, (seed, model, exact)
        assert replay(ed, seed, rolls, model.moves) == exact
        assert replay(ed, seed, rolls, moves) == exact  # the search's own moves play to its score
        scores.add(exact)
    assert len(scores) > 1  # the cases differ


def test_london_short_sequences_agree():
    ed = load(Network.load())
    for seed in range(3):
        rolls = ed.rolls(seed, 3).turns
        model = solve_sequence(ed, rolls, time_limit=30)
        assert model.status == "OPTIMAL" and model.score == best_score(ed, rolls)[0]


def test_a_cut_short_search_is_never_a_verdict():
    ed = load(Network.load())
    result = solve_rolls(ed, 3, 20, time_limit=0.01)
    assert result.status in ("UNKNOWN", "FEASIBLE")
    assert result.result.bound >= (result.result.score or 0) and result.result.bound > 0
    assert "proven" not in " ".join(result.describe()) or "not proven" in " ".join(result.describe())


def test_an_answer_with_no_play_prints_no_plan():
    """UNKNOWN printed every roll as "turn N: roll ...: no use": a plan of 60 skipped turns. Now it
    says there is no play to show (a made-up empty answer for this test: no engine's timing)."""
    from tubedeck.solver.dice.model import ModelResult
    from tubedeck.solver.dice.solve import SoloSolution, Step

    ed = load(Network.load())
    rolls = ed.rolls(3, 5).turns
    empty = ModelResult("UNKNOWN", None, 40, (), 1.0)
    text = SoloSolution(ed, 3, rolls, empty, (Step("cp-sat", empty),)).describe()
    assert not any("no use" in line or line.lstrip().startswith("turn ") for line in text)
    assert "no play to show" in text[-1] and "UNKNOWN" in text[0]


def test_cli_solve_and_bad_input(capsys):
    code, out, _ = run_cli(capsys, "solve", "dice", "--seed", "2", "--rolls", "3", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["status"] == "OPTIMAL" and len(payload["rolls"]) == 3
    for args in (("--seed", "-1"), ("--rolls", "0"), ("--turns", "999"), ("--time-limit", "0")):  # --turns: the older name
        code, _, err = run_cli(capsys, "solve", "dice", *args)
        assert code == 2 and err
    with pytest.raises(UsageError):
        solve_rolls(load(Network.load()), 2**62, 3)


def test_a_hint_uses_the_moves_own_turns(tiny):
    rolls = tiny.rolls(1, 5).turns
    exact, moves = best_score(tiny, rolls)
    hinted = solve_sequence(tiny, rolls, time_limit=30, hint=moves)  # turns 0-based, as ModelResult gives them
    assert hinted.status == "OPTIMAL" and hinted.score == exact
    first = moves[0]
    with pytest.raises(ValueError):  # turn 1's first use is on the star: a shifted turn would be ignored silently
        solve_sequence(tiny, rolls, time_limit=30, hint=((len(rolls), *first[1:]),))
