"""Bots for One Day in London as played: ``bot(state, rng)``, seeded and deterministic, the lookahead
one wins games; ``play oneday`` logs every move in words; ``simulate oneday`` writes records its
own validator reads back (the declared :data:`SIMULATE`), resumable, with seat win rates."""

from __future__ import annotations

import json
import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.oneday.play import new_game
from tubedeck.games.oneday.records import MAX_TURNS, SIMULATE
from tubedeck.play import play_game
from tubedeck.solver.oneday.players import PLAYERS
from tubedeck.solver.oneday.simulate import PLAYING
from tubedeck.solver.simulation import parse_bots, play
from tubedeck.stats import wilson

from conftest import run_cli


@pytest.fixture(scope="module")
def ed():
    return edition(get("oneday"))


def test_bots_are_deterministic(ed):
    for bots in (("random", "greedy"), ("lookahead", "random")):
        a = play_game(new_game(ed, 2, 4, max_turns=60), [PLAYERS[b] for b in bots], 4)
        b = play_game(new_game(ed, 2, 4, max_turns=60), [PLAYERS[b] for b in bots], 4)
        assert a == b


def test_the_random_bot_draws_from_its_stream(ed):
    s = new_game(ed, 2, 4)
    picks = {PLAYERS["random"](s, random.Random(k)) for k in range(20)}
    assert len(picks) > 1 and picks <= set(s.legal_actions())


def test_the_lookahead_bot_wins_and_its_winning_rack_is_a_journey(ed):
    won = 0
    for seed in range(3):
        state = play(PLAYING, ed, 3, seed, ("lookahead",) * 3).state
        if state.winner is not None:
            won += 1
            assert state.has_journey(state.winner)
    assert won == 3


def test_seeded_lookahead_games_count_the_turns_played():
    """Seeds 0-2 at 2 players: 30, 29 and 32 turns played, the winning turn included."""
    ed = edition(get("oneday"))
    assert [PLAYING.measure(play(PLAYING, ed, 2, s, ("lookahead", "lookahead")), ed)["turns"] for s in range(3)] == [30, 29, 32]


def test_bot_names_are_checked_and_repeat_to_fill_the_table():
    assert parse_bots("lookahead,random", 3, PLAYERS) == ("lookahead", "random", "lookahead")
    # "strong", the look-ahead's name before docs/glossary.md, is still taken
    assert parse_bots("strong,random", 3, PLAYING.bots, dict(PLAYING.game.aliases)) == ("lookahead", "random",
                                                                                       "lookahead")
    assert next(iter(PLAYING.bots)) == "lookahead"  # the default bot
    with pytest.raises(UsageError, match="unknown bot"):
        parse_bots("clever", 2, PLAYERS)


def test_wilson_interval_contains_the_share():
    lo, hi = wilson(30, 100)
    assert lo < 0.3 < hi and 0.2 < lo and hi < 0.41


# -- a record the run writes passes the validator that reads it back ------------------------------
@pytest.mark.parametrize("first", range(0, 500, 100))
@pytest.mark.slow
def test_two_player_records_of_the_default_bot_pass_their_validator(ed, first):
    """Seeds 0-499 at 2 players with the default bot, in hundreds (the issue's 153, 248, 474, 489
    among them: 153 is a win on the winner's first turn with one exchange). Seeds 500-999 passed
    too; they took 22 s of the suite's time and found nothing the first 500 did not."""
    for seed in range(first, first + 100):
        record = PLAYING.measure(play(PLAYING, ed, 2, seed, ("lookahead", "lookahead")), ed)
        assert SIMULATE.validate(record, 2) is None, (seed, record, SIMULATE.validate(record, 2))
        if record["winner"] is not None:
            assert record["exchanges"] <= -(-(record["turns"] - record["winner"] + 1) // 2)


def test_four_player_records_of_cheap_bots_pass_their_validator(ed):
    for seed in range(40):
        bots = ("random", "greedy", "random", "greedy")[seed % 2:] + ("random", "greedy")[: seed % 2]
        record = PLAYING.measure(play(PLAYING, ed, 4, seed, bots), ed)
        assert SIMULATE.validate(record, 4) is None, (seed, record)


def test_four_player_records_of_the_lookahead_bot_pass_their_validator(ed):
    for seed in range(15):
        record = PLAYING.measure(play(PLAYING, ed, 4, seed, ("lookahead",) * 4), ed)
        assert SIMULATE.validate(record, 4) is None, (seed, record)
        assert record["winner"] is not None


@pytest.mark.parametrize("change, why", [
    ({"turns": 0, "exchanges": 1}, "at most the winner's own turns"),
    ({"exchanges": None}, "winner's exchanges"),
    ({"winner": None}, "winner's exchanges"),
    ({"winner": 2}, "the winner must have played the last turn"),
    ({"rounds": 1}, "rounds begun"),
    ({"turns": MAX_TURNS + 1}, "'turns' must be"),
    ({"reshuffles": -1}, "'reshuffles' must be"),
    ({"winner": 3}, "'winner' must be a seat 1-2"),
])
def test_the_validator_refuses_impossible_records(change, why):
    good = {"winner": 1, "turns": 3, "rounds": 2, "reshuffles": 0, "exchanges": 2}
    assert SIMULATE.validate(good, 2) is None
    assert why in SIMULATE.validate({**good, **change}, 2)


# -- the commands -----------------------------------------------------------------------------------
def test_play_logs_every_move_in_words(capsys):
    code, out, err = run_cli(capsys, "play", "oneday", "--players", "2", "--seed", "1")
    assert code == 0, err
    assert "turn 1:\n  player 1: draws " in out and "puts " in out and " in slot " in out
    assert "turns played, the winning turn included: 29" in out and "winner: player 1" in out
    assert "(a journey: the win)" in out and "('" not in out
    code, out, err = run_cli(capsys, "play", "oneday", "--players", "2", "--seed", "1", "--json")
    d = json.loads(out)
    assert d["turns"] == 29 and d["winner"] == 1 and len(d["position"]["racks"]) == 2
    assert d["log"][0] == {"clock": "setup", "seat": 1, "action": ["place", d["log"][0]["action"][1]],
                           "words": d["log"][0]["words"]}


def test_simulate_resumes_and_reports_seat_rates(tmp_path, capsys):
    results = tmp_path / "sim.jsonl"
    args = ["simulate", "oneday", "--games", "3", "--players", "2", "--bots", "lookahead", "--no-progress",
            "--results", str(results), "--json"]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    first = json.loads(out)
    assert first["games"] == 3 and set(first["wins_by_seat"]) == {"1", "2"}
    assert first["no_winner"] == 0  # the lookahead bot wins these
    assert first["measures"]["turns"]["label"] == "turns played (to the winning turn or the cap)"
    assert first["capped"] == 0 and first["max_turns"] == MAX_TURNS
    header = json.loads(results.read_text().splitlines()[0])
    assert (header["mode"], header["version"], header["max_turns"]) == ("simulate", SIMULATE.version, MAX_TURNS)
    before = results.read_bytes()
    code, out, _ = run_cli(capsys, *args)
    assert code == 0 and results.read_bytes() == before and json.loads(out) == first  # resumed, nothing recomputed


def test_simulate_seed_153_resumes(tmp_path, capsys):
    """The issue's case: a win on the first turn with one exchange, stored then read back."""
    results = tmp_path / "sim.jsonl"
    args = ["simulate", "oneday", "--games", "1", "--seed", "153", "--players", "2", "--no-progress",
            "--results", str(results)]
    for _ in range(2):
        code, _, err = run_cli(capsys, *args)
        assert code == 0, err
    record = json.loads(results.read_text().splitlines()[1])
    assert record == {"seed": 153, "winner": 1, "turns": 1, "rounds": 1, "reshuffles": 0, "exchanges": 1}


def test_an_old_simulate_file_is_refused(tmp_path, capsys):
    results = tmp_path / "sim.jsonl"
    args = ["simulate", "oneday", "--games", "1", "--players", "2", "--no-progress", "--results", str(results)]
    assert run_cli(capsys, *args)[0] == 0
    lines = results.read_text().splitlines()
    header = json.loads(lines[0])
    results.write_text(json.dumps({**header, "version": 2}) + "\n" + "\n".join(lines[1:]) + "\n")
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and "version" in err


# -- a game the turn cap stops says so ----------------------------------------------------------------
def test_a_capped_game_says_it_stopped_at_the_cap(capsys):
    """Two greedy bots stall (docs/oneday.md: 99 of 100 such games reach the cap); seed 1 does."""
    code, out, err = run_cli(capsys, "play", "oneday", "--players", "2", "--seed", "1", "--bots", "greedy")
    assert code == 0, err
    tail = out.splitlines()[-4:]
    assert tail[:2] == [f"no winner: stopped at the {MAX_TURNS}-turn cap", f"turns played: {MAX_TURNS} (the cap)"], tail
    assert "winning turn" not in out and "\nno winner\n" not in out + "\n" and "winner: player" not in out
    code, out, err = run_cli(capsys, "play", "oneday", "--players", "2", "--seed", "1", "--bots", "greedy", "--json")
    d = json.loads(out)
    assert d["capped"] is True and d["winner"] is None and d["turns"] == MAX_TURNS


def test_a_won_game_names_its_winner_and_winning_turn(capsys):
    code, out, err = run_cli(capsys, "play", "oneday", "--players", "2", "--seed", "1", "--bots", "lookahead", "--json")
    assert code == 0, err
    assert json.loads(out)["capped"] is False
    code, out, err = run_cli(capsys, "play", "oneday", "--players", "2", "--seed", "1", "--bots", "lookahead")
    assert out.splitlines()[-5:-3] == ["winner: player 1", "turns played, the winning turn included: 29"]
    assert "cap" not in out


def test_simulate_counts_the_capped_games(tmp_path, capsys):
    args = ["simulate", "oneday", "--games", "2", "--players", "2", "--bots", "greedy", "--no-progress",
            "--results", str(tmp_path / "sim.jsonl")]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert f"  stopped at the {MAX_TURNS}-turn cap (no winner): 2 of 2 games" in out.splitlines()
    code, out, err = run_cli(capsys, *args, "--json")
    d = json.loads(out)
    assert d["capped"] == d["no_winner"] == 2 and d["max_turns"] == MAX_TURNS


def test_the_readme_examples_finish(tmp_path, capsys):
    """README.md's One Day play and simulate examples, the registry's, are won, not capped."""
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    game = get("oneday")
    for verb, cmd in [("play", c) for c in game.plays] + [("simulate", c) for c in game.simulations]:
        assert f"tubedeck {verb} oneday {' '.join(cmd.example)}" in readme
        extra = ["--no-progress", "--results", str(tmp_path / "sim.jsonl")] if verb == "simulate" else []
        code, out, err = run_cli(capsys, verb, "oneday", *cmd.example, "--json", *extra)
        assert code == 0, err
        d = json.loads(out)
        assert d["capped"] in (False, 0) and d.get("no_winner", 0) == 0, (verb, d)
