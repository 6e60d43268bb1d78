"""Tube Dice bots, simulation summary and the points rule."""

from __future__ import annotations

import json

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.dice.edition import awards, load
from tubedeck.network import Network
from tubedeck.solver.dice.balance import difficulty
from tubedeck.solver.dice.simulate import PLAYING, simulation
from tubedeck.solver.simulation import parse_bots, play

from conftest import run_cli


@pytest.fixture(scope="module")
def ed():
    return load(Network.load())


def game(ed, players, seed, bots):
    return PLAYING.measure(play(PLAYING, ed, players, seed, bots), ed)


def test_bots_are_deterministic_and_greedy_beats_random(ed):
    assert game(ed, 3, 4, ("greedy", "random", "lookahead")) == game(ed, 3, 4, ("greedy", "random", "lookahead"))
    wins = {"greedy": 0.0, "random": 0.0}
    for s in range(10):
        for bots in (("greedy", "random"), ("random", "greedy")):
            r = game(ed, 2, s, bots)
            for w in r["winners"]:
                wins[bots[w - 1]] += 1 / len(r["winners"])
    assert wins["greedy"] > wins["random"]
    assert parse_bots("greedy,random", 3, PLAYING.bots) == ("greedy", "random", "greedy")
    with pytest.raises(UsageError):
        parse_bots("clever", 2, PLAYING.bots)


def test_simulation_summary_reports_length_scores_seats_and_completions(ed, tmp_path, capsys):
    code, out, _ = run_cli(capsys, "simulate", "dice", "--games", "12", "--players", "3", "--results",
                           str(tmp_path / "r.jsonl"), "--no-progress", "--json")
    d = json.loads(out)
    assert code == 0 and d["games"] == 12
    m = d["measures"]
    assert m["rolls"]["unit"] == "rolls" and m["rounds"]["unit"] == "rounds"
    assert m["rounds"]["median"] == -(-m["rolls"]["median"] // 3)  # ceil(rolls / players), one per game
    assert set(d["wins_by_seat"]) == {"1", "2", "3"} and set(d["scores_by_seat"]) == {"1", "2", "3"}
    assert d["scores_by_seat"]["1"]["unit"] == "points"
    assert abs(sum(w["count"] for w in d["wins_by_seat"].values()) - 12) < 0.01  # ties split
    assert set(d["lines"]) == {l.name for l in ed.board.lines} and "zone 1" in d["zones"]
    assert d["margin"]["unit"] == "points"
    header = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert header["extra_passes"] == list(ed.rules.extra_passes)  # a file from another pass track is refused
    assert header["version"] == 4 and header["mode"] == "simulate"
    # the words: rolls are rolls, rounds are rounds
    code, out, _ = run_cli(capsys, "simulate", "dice", "--games", "12", "--players", "3", "--results",
                           str(tmp_path / "r.jsonl"), "--no-progress")
    assert code == 0
    assert "rolls of the dice played" in out and "rounds played" in out and "winner minus last" in out
    assert "rounds (rolls" not in out and "as roller" not in out
    with pytest.raises(UsageError):
        simulation(ed, 5)


def test_points_follow_the_recipe_rule(ed):
    assert all(a.source == "simulated" for a in ed.lines + ed.zones)  # data/dice/points.csv describes this map
    rule = ed.recipe.points
    for a in ed.lines + ed.zones:
        assert (a.high, a.low) == rule.points(a.difficulty)
        assert rule.min_high <= a.high <= rule.max_high and a.low <= a.high
    assert difficulty(10, 1.0, 200) == 10 and difficulty(10, 0.5, 200) == 15 and difficulty(None, 0, 200) == 400
    # a harder line never scores less than an easier one
    ranked = sorted(ed.lines, key=lambda a: a.difficulty)
    assert all(x.high <= y.high for x, y in zip(ranked, ranked[1:]))
    # another scope is not described by points.csv: the size rule
    other = load(Network.load(), scope="zone 1 within 2.2 km")
    assert all(a.source == "size" for a in other.lines)
    lines, _ = awards(other.recipe, other.board, {})
    assert lines == other.lines
