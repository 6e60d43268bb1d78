"""Keep Moving bots, ``play`` and ``simulate``: seeded, legal, and the command line's answers."""

from __future__ import annotations

import json
import random

import pytest

from conftest import run_cli as run
from km_helpers import EDITION, position
from solver.keepmoving.players import PLAYERS
from solver.keepmoving.simulate import parse_bots, play_game, play_one
from tubedeck.errors import UsageError


@pytest.mark.parametrize("bot", sorted(PLAYERS))
def test_every_bot_takes_the_safe_card(bot):
    if bot == "random":
        pytest.skip("random is random")
    s = position("S L S S S S S S S S S S S S", pos=(0, 10), hands=(("one", "two"), ()))
    assert PLAYERS[bot](s, random.Random(0)) == ("play", "two")


def test_games_replay_exactly_and_every_bot_plays_legally():
    for bots in (("random", "greedy"), ("greedy", "lookahead")):
        a, log_a = play_game(EDITION, 4, bots)
        b, log_b = play_game(EDITION, 4, bots)
        assert log_a == log_b and a == b and a.is_terminal()
    assert play_one(EDITION, 2, "greedy").as_dict() == play_one(EDITION, 2, "greedy").as_dict()


def test_greedy_beats_random():
    wins = sum(play_game(EDITION, seed, ("greedy", "random"))[0].winner == 0 for seed in range(30))
    assert wins >= 24


def test_bad_bots_are_refused():
    with pytest.raises(UsageError):
        parse_bots("clever")
    with pytest.raises(UsageError):
        parse_bots("greedy,greedy,greedy")


def test_simulate_reports_length_first_player_functions_and_ends(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "keepmoving", "--games", "6", "--players", "2", "--results",
                         str(tmp_path / "r.jsonl"), "--no-progress", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["games"] == 6 and d["turns_per_player"]["median"] > 0
    assert set(d["first_player_wins"]) >= {"share", "interval95"} and d["ended"]
    code, _, err = run(capsys, "simulate", "keepmoving", "--games", "2", "--players", "3", "--results",
                       str(tmp_path / "s.jsonl"), "--no-progress")
    assert code == 2 and "2" in err


def test_a_bad_ground_file_exits_2(capsys, tmp_path):
    bad = tmp_path / "ground.csv"
    bad.write_text("id,a_kind,a_symbol,b_kind,b_symbol\ng1,lava,,magma,\n")
    code, _, err = run(capsys, "play", "keepmoving", "--ground", str(bad))
    assert code == 2 and "unknown kind 'magma'" in err and "ground.csv:2" in err
