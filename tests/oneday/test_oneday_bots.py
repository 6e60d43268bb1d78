"""Bots for One Day in London as played: seeded and deterministic, the strong one wins games,
and ``simulate`` folds resumable results with seat win rates and intervals."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from solver.oneday.simulate import parse_bots, play_game
from solver.simulation import wilson
from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import get


@pytest.fixture(scope="module")
def ed():
    return edition(get("oneday"))


def test_bots_are_deterministic(ed):
    for bots in (("random", "greedy"), ("strong", "random")):
        a, log_a = play_game(ed, 2, 4, bots, max_turns=60)
        b, log_b = play_game(ed, 2, 4, bots, max_turns=60)
        assert a == b and log_a == log_b


def test_the_strong_bot_wins_and_its_winning_rack_is_a_journey(ed):
    from tubedeck.games.oneday.journey import validate

    won = 0
    for seed in range(3):
        state, _ = play_game(ed, 3, seed, ("strong",) * 3)
        if state.winner is not None:
            won += 1
            assert validate(ed.board, [c.station for c in state.racks[state.winner]]).valid
    assert won == 3


def test_bot_names_are_checked_and_repeat_to_fill_the_table():
    assert parse_bots("strong,random", 3) == ("strong", "random", "strong")
    with pytest.raises(UsageError, match="unknown bot"):
        parse_bots("clever", 2)


def test_wilson_interval_contains_the_share():
    lo, hi = wilson(30, 100)
    assert lo < 0.3 < hi and 0.2 < lo and hi < 0.41


def test_simulate_resumes_and_reports_seat_rates(tmp_path, capsys):
    results = tmp_path / "sim.jsonl"
    args = ["simulate", "oneday", "--games", "3", "--players", "2", "--bots", "strong", "--no-progress",
            "--results", str(results), "--json"]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    first = json.loads(out)
    assert first["games"] == 3 and set(first["wins_by_seat"]) == {"1", "2"}
    assert sum(v["wins"] for v in first["wins_by_seat"].values()) + first["drawn"] == 3
    before = results.read_bytes()
    code, out, _ = run_cli(capsys, *args)
    assert code == 0 and results.read_bytes() == before and json.loads(out) == first  # resumed, nothing recomputed
