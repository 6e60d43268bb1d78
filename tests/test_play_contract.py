"""The play contract, over every registered game that is played (after OpenSpiel's API test).

Each game's engine implements :class:`tubedeck.play.State` and its ``solver/<id>/simulate.py``
declares a :class:`tubedeck.solver.simulation.Playing`. For every game and player count: a random playout
never reaches a state without legal actions (or chance outcomes) before the end, ``returns()`` are
all 0 until the end, ``current_player()`` is TERMINAL exactly at the end, ``describe`` gives words
for every legal action seen, ``observation`` is JSON for every seat, a replay of the actions gives
the same state and log, and the record a game makes passes its own declaration. Then a simulate
-> report round trip per game shows its wins and scores.
"""

from __future__ import annotations

import json
import random

import pytest

from tubedeck.game import edition, resolve
from tubedeck.games import record_schema, registry
from tubedeck.play import CHANCE, TERMINAL, chance_outcome, play_game, replay
from tubedeck.records import Field, Fold, Schema

from conftest import run_cli as run

PLAYED = [g for g in registry().values() if g.plays]
MAX_MOVES = 20_000  # a random playout longer than this is cut (the engines' own limits end them)
DESCRIBED = 40  # legal actions described per state (a sample where there are more)


def playing(game):
    return game.playing()


def seat_counts(game) -> list[int]:
    lo, hi = game.players
    return sorted({lo, min(hi, lo + 1), hi})


def random_bot(state, rng):
    return rng.choice(list(state.legal_actions()))


CASES = [(g.id, p) for g in PLAYED for p in seat_counts(g)]


@pytest.fixture(scope="module")
def editions():
    return {g.id: edition(g) for g in PLAYED}


def test_every_played_game_declares_its_playing():
    assert {g.id for g in PLAYED} == {"klm", "oneday", "keepmoving", "dice", "nextstation"}
    for g in PLAYED:
        rules = playing(g)
        assert rules.game is g and rules.bots and isinstance(rules.record, Schema)
        assert rules.record.mode == "simulate" and rules.record.game == g.id
        assert any("records:SIMULATE" in r or r.endswith(":SIMULATE") for c in g.simulations for r in c.records)
        assert all(c.records for c in g.checks + g.simulations if c.kind == "deals"), g.id


@pytest.mark.parametrize("gid, players", CASES)
def test_a_random_playout_follows_the_contract(gid, players, editions):
    game = registry()[gid]
    rules, ed = playing(game), editions[gid]
    rng, chance = random.Random(f"{gid}{players}"), random.Random(7)
    state = rules.start(ed, players, 3)
    assert state.players == players
    moves = 0
    while not state.is_terminal():
        assert state.returns() == (0.0,) * players, "returns() before the end"
        who = state.current_player()
        assert isinstance(state.clock(), str) and state.clock()
        if who == CHANCE:
            outcomes = list(state.chance_outcomes())
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9, "a chance node without outcomes"
            assert not state.legal_actions()
            action = chance_outcome(state, chance)
        else:
            assert 0 <= who < players
            legal = list(state.legal_actions())
            assert legal, f"no legal actions before the end ({state.clock()})"
            for a in (legal if len(legal) <= DESCRIBED else rng.sample(legal, DESCRIBED)):
                words = state.describe(a)
                assert isinstance(words, str) and words.strip(), a
            if moves % 25 == 0:
                for seat in range(players):
                    json.dumps(state.observation(seat))
            action = rng.choice(legal)
        state = state.apply(action)
        moves += 1
        if moves > MAX_MOVES:
            pytest.skip(f"random play of {gid} ran over {MAX_MOVES} moves (long, not stuck)")
    assert state.current_player() == TERMINAL
    assert not state.legal_actions() and not state.chance_outcomes()
    assert len(state.returns()) == players


@pytest.mark.parametrize("gid, players", CASES)
def test_a_replay_gives_the_same_game_and_its_record_passes_the_declaration(gid, players, editions):
    game = registry()[gid]
    rules, ed = playing(game), editions[gid]
    bot = next(iter(rules.bots))  # each game's first bot: random, fast
    bots = [rules.game.bot(bot)] * players
    a = play_game(rules.start(ed, players, 5), bots, 5, words=True)
    b = play_game(rules.start(ed, players, 5), bots, 5, words=True)
    assert a.moves == b.moves
    end = replay(rules.start(ed, players, 5), [m.action for m in a.moves])
    assert end == a.state and end.returns() == a.state.returns()
    record = rules.measure(a, ed)
    assert rules.record.validate(json.loads(json.dumps(record)), players) is None
    position, lines = rules.position(a.state)
    json.dumps(position)
    assert lines and all(isinstance(x, str) for x in lines)
    assert all(m.words.strip() for m in a.moves if m.seat != CHANCE)


def test_records_are_declared_in_words_with_bounded_numbers():
    for g in PLAYED:
        for c in g.checks + g.simulations:
            for target in c.records:
                s = resolve(target)
                assert s.game == g.id and s.version >= 1 and s.what
                for f in s.fields:
                    assert f.label and "_" not in f.label, (target, f.name)
                    if f.kind in ("measure", "scores", "tally"):
                        assert f.hi is not None, f"{target} {f.name}: a number read back must be bounded"
                    if f.kind == "measure":
                        assert f.unit, f"{target} {f.name}: a measure names its unit"


# -- the schema and the fold, by hand ------------------------------------------------------------
TOY = Schema("toy", "simulate", 3, "one toy game", (
    Field("winner", "winner", "winner", null=True),
    Field("place", "place", "the winner's place in turn order", null=True),
    Field("starter", "seat", "who started"),
    Field("turns", "measure", "turns played, the winning turn included", "turns", 1, 100),
    Field("scores", "scores", "final score", "points", 0, 50),
    Field("fast", "flag", "fast ending"),
    Field("cards", "tally", "cards played", hi=99),
    Field("players[].turn", "measure", "a player's earliest win", "turns", 1, 100, null=True),
))


def _toy(**changes):
    r = {"winner": 2, "place": 1, "starter": 2, "turns": 7, "scores": [3, 9], "fast": False, "cards": {"a": 2},
         "players": [{"turn": 4}, {"turn": None}]}
    return r | changes


@pytest.mark.parametrize("changes, why", [
    ({}, None),
    ({"winner": 3}, "'winner' must be a seat 1-2"),
    ({"winner": True}, "'winner' must be a seat 1-2"),
    ({"turns": 10**9}, "'turns' must be a whole number 1-100"),
    ({"scores": [1]}, "'scores' must be 2 whole number(s) 0-50"),
    ({"cards": {"a": 10**9}}, "'cards' must be names with whole counts 0-99"),
    ({"players": [{"turn": 0}]}, "'players[].turn' must be a whole number 1-100"),
    ({"fast": 1}, "'fast' must be true or false"),
])
def test_the_declaration_validates_and_bounds_records(changes, why):
    record = _toy(**changes)
    assert TOY.validate(record, 2) == why
    if why is None:
        del record["turns"]
        assert TOY.validate(record, 2) == "'turns' missing"


def test_the_fold_reads_by_kind_not_by_name():
    f = Fold(TOY, 2)
    for r in (_toy(), _toy(winner=1, place=2, starter=1, turns=9, fast=True), _toy(winner=None, place=None)):
        f.add(r)
    d = f.figures()
    assert d["no_winner"] == 1 and d["wins_by_seat"]["1"]["count"] == 1 and d["wins_by_seat"]["2"]["count"] == 1
    assert d["wins_by_place"]["1"]["count"] == 1
    assert set(d["measures"]) == {"turns", "players[].turn"}  # the starting seat is no measure
    assert d["measures"]["turns"]["label"] == "turns played, the winning turn included"
    assert d["seats"]["starter"]["counts"] == {"1": 1, "2": 2}
    assert d["scores_by_seat"]["2"]["mean"] == 9 and d["flags"]["fast"]["count"] == 1
    assert d["tallies"]["cards"]["per_record"] == {"a": 2.0}


def test_a_results_file_of_another_version_is_refused_with_a_message_to_rerun():
    schema = resolve(registry()["klm"].simulations[0].records[0])
    assert record_schema({"game": "klm", "mode": "simulate", "version": schema.version}) is schema
    with pytest.raises(Exception, match="re-run"):
        record_schema({"game": "klm", "mode": "simulate", "version": schema.version - 1})
    with pytest.raises(Exception, match="re-run"):
        record_schema({"game": "klm", "version": 1})  # an old check file: no mode
    with pytest.raises(Exception, match="unknown game"):
        record_schema({"game": ["klm"], "mode": "simulate"})


# -- simulate -> report, every game in one call --------------------------------------------------
RUNS = {
    "klm": ["simulate", "klm", "--games", "8", "--players", "3", "--scope", "zone 1"],
    "oneday": ["simulate", "oneday", "--games", "6", "--players", "2"],
    "keepmoving": ["simulate", "keepmoving", "--games", "8"],
    "dice": ["simulate", "dice", "--games", "6", "--players", "3"],
    "nextstation": ["simulate", "nextstation", "--games", "3", "--players", "2"],
    "klm-check": ["check", "klm", "--deals", "6", "--players", "3", "--engine", "auto", "--scope", "zone 1"],
    "par": ["check", "nextstation", "--deals", "3"],
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    import sys

    from tubedeck.cli import main

    root = tmp_path_factory.mktemp("contract-results")
    files = {}
    for key, args in RUNS.items():
        files[key] = root / f"{key}.jsonl"
        try:
            main([*args, "--results", str(files[key]), "--no-progress", "--json"])
        except SystemExit as exc:
            assert exc.code in (0, None, 1), (key, exc.code)
    sys.stdout.flush()
    return files


def test_one_report_reads_every_game_right(results, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "report", *map(str, results.values()), "--out", str(tmp_path), "--json")
    assert code == 0, err
    figures = {f["game"] + ("-" + f["mode"] if f["mode"] != "simulate" else ""): f
               for f in json.loads(out)["files"]}
    assert set(figures) == {"klm", "oneday", "keepmoving", "dice", "nextstation", "klm-check", "nextstation-par"}
    for key in ("klm", "oneday", "keepmoving", "dice", "nextstation"):
        f = figures[key]
        wins = sum(w["count"] for w in f["wins_by_seat"].values())
        assert abs(wins + f["no_winner"] - f["records"]) < 1e-6, key  # every game won, drawn or shared
        assert wins > 0, key
        for m in f.get("measures", {}).values():
            assert m["unit"] and "_" not in m["label"], m  # words, not a field name
    for key in ("dice", "nextstation"):
        assert figures[key]["scores_by_seat"], key  # the scoring games show their scores
    assert "seats" in figures["keepmoving"] and "first" not in figures["keepmoving"].get("measures", {})
    assert figures["klm-check"]["statuses"] and figures["nextstation-par"]["statuses"]
    page = (tmp_path / "report.html").read_text()
    assert "Win rate by seat" in page and "final scores" in page
