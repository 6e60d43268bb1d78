"""Keep Moving bots, ``play`` and ``simulate``: seeded, legal, and the command line's answers."""

from __future__ import annotations

import json
import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.solver.keepmoving.players import PLAYERS
from tubedeck.solver.keepmoving.simulate import PLAYING, play_one
from tubedeck.solver.simulation import parse_bots, play

from conftest import run_cli as run
from km_helpers import EDITION, position


@pytest.mark.parametrize("bot", sorted(PLAYERS))
def test_every_bot_takes_the_safe_card(bot):
    if bot == "random":
        pytest.skip("random is random")
    s = position("S L S S S S S S S S S S S S", pos=(0, 10), hands=(("one", "two"), ()))
    assert PLAYERS[bot](s, random.Random(0)) == ("play", "two")


def test_games_replay_exactly_and_every_bot_plays_legally():
    for bots in (("random", "greedy"), ("greedy", "lookahead")):
        a, b = play(PLAYING, EDITION, 2, 4, bots), play(PLAYING, EDITION, 2, 4, bots)
        assert a.moves == b.moves and a.state == b.state and a.state.is_terminal()
    assert play_one(EDITION, 2, 2, "greedy").as_dict() == play_one(EDITION, 2, 2, "greedy").as_dict()


def test_seeded_games_are_the_ones_played_before_the_play_contract():
    # the driver draws chance from Random(f"{seed}:chance") as the old simulate did: same games
    expected = {0: (1, 1, 56, "lava"), 1: (2, 2, 54, "lava"), 2: (2, 1, 42, "pushed onto lava")}
    for seed, want in expected.items():
        r = PLAYING.measure(play(PLAYING, EDITION, 2, seed, ("greedy", "greedy")), EDITION)
        assert (r["winner"], r["first"], r["turns"], r["ended"]) == want


def test_greedy_beats_random():
    wins = sum(play(PLAYING, EDITION, 2, seed, ("greedy", "random")).state.winner == 0 for seed in range(30))
    assert wins >= 24


def test_bad_bots_are_refused():
    assert parse_bots("lookahead", 2, PLAYERS) == ("lookahead", "lookahead")
    with pytest.raises(UsageError):
        parse_bots("clever", 2, PLAYERS)
    with pytest.raises(UsageError):
        parse_bots("greedy,greedy,greedy", 2, PLAYERS)
    with pytest.raises(UsageError, match="must be 2"):
        play_one(EDITION, 3, 0, "greedy")


def test_simulate_reports_length_wins_by_place_functions_and_ends(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "keepmoving", "--games", "6", "--players", "2", "--results",
                         str(tmp_path / "r.jsonl"), "--no-progress", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["games"] == 6 and d["measures"]["turns"]["median"] > 0 and d["measures"]["turns"]["unit"] == "turns"
    assert set(d["wins_by_place"]) == {"1", "2"} and set(d["wins_by_place"]["1"]) >= {"share", "interval95"}
    assert sum(d["ended"].values()) == 6 and d["tallies"]["functions"]["per_record"]
    header = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert header["version"] == 2 and header["ground"] == "ground.csv"
    code, _, err = run(capsys, "simulate", "keepmoving", "--games", "2", "--players", "3", "--results",
                       str(tmp_path / "s.jsonl"), "--no-progress")
    assert code == 2 and "2" in err


def test_play_prints_each_turn_in_words_and_the_final_position(capsys):
    code, out, err = run(capsys, "play", "keepmoving", "--seed", "1", "--bots", "greedy,random")
    assert code == 0, err
    assert "turn 1:" in out and "draws" in out and "plays " in out and "final position:" in out
    assert "cubes" in out and "winner: player" in out and "('play'" not in out and "dir" not in out


def test_a_bad_ground_file_exits_2(capsys, tmp_path):
    bad = tmp_path / "ground.csv"
    bad.write_text("id,a_kind,a_symbol,b_kind,b_symbol\ng1,lava,,magma,\n")
    code, _, err = run(capsys, "play", "keepmoving", "--ground", str(bad))
    assert code == 2 and "unknown kind 'magma'" in err and "ground.csv:2" in err
