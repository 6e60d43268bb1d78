"""Bad input anywhere on the command line: a message, exit code 2, never a traceback."""

from __future__ import annotations

import pytest

from tubedeck.cli import main

BAD = [
    ["check", "klm", "--time-limit", "nan", "--deals", "1"],
    ["check", "klm", "--time-limit", "-1", "--deals", "1"],
    ["check", "klm-bound", "--time-limit", "0"],
    ["check", "klm", "--deals", "0"],
    ["check", "klm", "--players", "7"],
    ["check", "klm", "--scope", "zone 99"],
    ["check", "klm", "--scope", "central,nosuchline"],
    ["check", "klm", "--workers", "0", "--deals", "1"],
    ["check", "oneday", "--players", "5"],
    ["check", "oneday", "--deals", "-3"],
    ["solve", "oneday", "--rack", "Bank,Bank"],
    ["solve", "oneday", "--rack", "Bank,Monument,Zzyzx,a,b,c,d,e,f,g"],
    ["solve", "oneday", "--rack", "Bank", "--engine", "magic"],
    ["build", "sampler", "--paper", "a3"],
    ["build", "sampler", "--card", "0x0"],
    ["build", "sampler", "--bleed", "nan"],
    ["build", "sampler", "--mode", "sepia"],
    ["build", "sampler", "--export", "gif"],
    ["build", "klm", "--scope", "zones 9-1"],
    ["data", "check", "--data", "/nonexistent/dir"],
    ["data", "stats", "--bogus"],
    ["nosuchcommand"],
    ["check", "nextstation", "--players", "7", "--deals", "1"],
    ["solve", "nextstation", "--sheets", "5"],  # what to print is build's alone
    ["solve", "nextstation", "--challenge", "3"],
    ["simulate", "nextstation", "--sheets", "2", "--games", "1"],
    ["solve", "nextstation", "--flips", ""],
    ["solve", "nextstation", "--flips", "u-circle,,u-square"],
    ["solve", "nextstation", "--map", "\u00b2"],  # '²'.isdigit() is True; int('²') raised
    ["solve", "nextstation", "--map", "1", "--zones", "\u00b2-3"],
    ["check", "klm", "--deals", "1", "--shard", "\u00b2/3"],
    ["solve", "dice", "--sheets", "5"],
    ["play", "klm", "--bots", "greedy,,random"],  # an empty name dropped a seat's bot without a word
    ["play", "dice", "--scope", ""],  # fell back to the default map without a word
    ["simulate", "klm", "--workers", "0", "--games", "1"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_exits_2_without_traceback(args, tmp_path, capsys):
    try:
        code = main(args + (["--out", str(tmp_path)] if args[0] == "build" else []))
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.err + captured.out
    assert captured.err.strip(), "a message must say what is wrong"
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_bound_on_a_scope_too_small_is_refused_not_proven(capsys):
    from conftest import run_cli

    code, out, err = run_cli(capsys, "check", "klm-bound", "--scope", "zone 9", "--players", "2")
    assert code == 2 and "too few" in err and "proven" not in out


def test_more_bots_than_seats_is_refused():
    from tubedeck.errors import UsageError
    from tubedeck.solver.simulation import parse_bots
    assert parse_bots("greedy,random", 3, ("greedy", "random")) == ("greedy", "random", "greedy")
    with pytest.raises(UsageError, match="3 bots for 1 player"):
        parse_bots("random,greedy,lookahead", 1, ("random", "greedy", "lookahead"))


@pytest.mark.parametrize("game", ["klm", "dice", "nextstation"])
def test_no_players_is_named_as_such(game, capsys):
    """--players 0 is a players' range error, not 'too many bots'."""
    try:
        code = main(["play", game, "--players", "0"])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and "players" in err and "bots" not in err, err


@pytest.mark.parametrize("game", ["klm", "dice", "nextstation", "keepmoving", "oneday"])
def test_a_huge_table_is_refused_before_any_seat_is_made(game, capsys):
    """``play GAME --players 99999999999`` built a seat list that long (hundreds of MB, then a
    hang) before the game's range refused it. Now the range is checked first, and no seat list
    longer than any game seats is ever made."""
    import tracemalloc

    from tubedeck.errors import UsageError
    from tubedeck.games import registry
    from tubedeck.solver.simulation import MAX_SEATS, parse_bots

    tracemalloc.start()
    try:
        code = main(["play", game, "--players", "99999999999"])
    except SystemExit as exc:
        code = exc.code
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    err = capsys.readouterr().err
    seats = registry()[game].seats
    assert code == 2 and f"--players must be {seats} for" in err and "99999999999" in err, err
    assert peak < 200 * 2**20
    with pytest.raises(UsageError, match=f"1-{MAX_SEATS}"):
        parse_bots("greedy", 10**11, {"greedy": None})


SEEDED = [["play", "klm"], ["play", "oneday"], ["play", "nextstation"], ["play", "keepmoving"], ["play", "dice"],
          ["solve", "klm"], ["solve", "nextstation"], ["solve", "dice"]]


@pytest.mark.parametrize("args", SEEDED, ids=[" ".join(a) for a in SEEDED])
@pytest.mark.parametrize("seed", ["-5", str(2**62), "99999999999999999999999"])
def test_one_seed_range_and_one_message_everywhere(args, seed, capsys):
    """``play klm --seed 10**23`` played, ``solve klm --seed -5`` solved, and three other commands
    named three other ranges. Every play and solve now says the same."""
    try:
        code = main(args + ["--seed", seed])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and f"--seed must be a whole number 0-{2**62 - 1}, got {seed}" in err, err


def test_a_deterministic_budget_is_named_as_itself(capsys):
    from conftest import run_cli

    code, _, err = run_cli(capsys, "check", "klm", "--deal-limit", "nan", "--deals", "1")
    assert code == 2 and "--deal-limit must be a positive number" in err, err

    for game in ("nextstation", "dice"):
        code, _, err = run_cli(capsys, "solve", game, "--det-limit", "-1")
        assert code == 2 and "--det-limit must be a positive number" in err, err


def test_a_bad_worker_count_is_refused_before_the_results_file_is_named(capsys):
    from conftest import run_cli

    code, _, err = run_cli(capsys, "simulate", "klm", "--workers", "0", "--games", "1")
    assert code == 2 and "--workers must be" in err and "results:" not in err


def test_a_date_of_the_right_shape_that_is_no_date_is_refused(tmp_path, capsys):
    import csv
    import shutil
    from pathlib import Path

    from conftest import run_cli

    data = Path(__file__).resolve().parents[2] / "data"
    for name in ("stations.csv", "lines.csv", "routes.csv"):
        shutil.copy(data / name, tmp_path / name)
    rows = list(csv.reader(open(tmp_path / "stations.csv", newline="", encoding="utf-8")))
    rows[1][rows[0].index("opened")] = "1876-13-45"
    with open(tmp_path / "stations.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    code, out, err = run_cli(capsys, "data", "check", "--data", str(tmp_path))
    assert code == 2 and "stations.csv:2 [opened]: '1876-13-45' is not a date" in out + err


def test_counts_read_as_words():
    from tubedeck.words import plural

    assert [plural(1, "game"), plural(2, "game"), plural(0.5, "win"), plural(1, "match", "matches")] == \
        ["1 game", "2 games", "0.5 wins", "1 match"]
