"""Tube Dice on the play contract (:mod:`tubedeck.play`): whose move, chance, words, what a seat
sees, replay, and the declared simulate record every played game must pass."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games import record_schema
from tubedeck.games.dice.edition import load
from tubedeck.games.dice.play import SKIP, blank_sheet, new_game, use, use_cost, uses
from tubedeck.games.dice.records import SIMULATE
from tubedeck.network import Network
from tubedeck.play import CHANCE, TERMINAL, chance_outcome, play_game, replay
from tubedeck.solver.dice.players import PLAYERS
from tubedeck.solver.dice.simulate import PLAYING, position
from tubedeck.solver.simulation import play

from conftest import run_cli


@pytest.fixture(scope="module")
def ed():
    return load(Network.load())


def test_whose_move_chance_then_seats_then_terminal(ed):
    st = new_game(ed, 3, 5)
    assert st.current_player() == CHANCE and st.legal_actions() == ()
    assert st.dealt_outcome() == ("roll", st.rolls[0])  # the seeded roll, in the order rolled
    st = st.apply(chance_outcome(st, random.Random(0)))
    assert st.current_player() == 0 and st.chance_outcomes() == () and st.dealt_outcome() is None
    st = st.apply(st.legal_actions()[0])
    assert st.current_player() == 1  # the others use the roll in seat order
    over = dataclasses.replace(st, phase="over")
    assert over.current_player() == TERMINAL and over.legal_actions() == () and over.chance_outcomes() == ()
    assert st.returns() == (0.0,) * 3 and over.returns() == tuple(float(x) for x in over.scores())


def test_chance_outcomes_are_every_distinct_roll_with_its_probability(ed):
    outcomes = new_game(ed, 2, 0).chance_outcomes()
    assert len(outcomes) == math.comb(6 + 5 - 1, 5) == 252
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert all(a[0] == "roll" and list(a[1]) == sorted(a[1]) for a, p in outcomes)
    probs = dict(outcomes)
    assert math.isclose(probs[("roll", (1, 1, 1, 1, 1))], 1 / 6**5)
    assert math.isclose(probs[("roll", (1, 2, 3, 4, 5))], 120 / 6**5)
    # an outcome drawn from them is a roll the engine takes
    st = new_game(ed, 2, 0).apply(outcomes[100][0])
    assert st.dice == outcomes[100][0][1] and st.phase == "keep"


def test_the_edition_is_bound_at_the_start_and_not_compared(ed):
    st = new_game(ed, 2, 3)
    assert st.edition is ed and "edition" not in repr(st)[:200]
    other = dataclasses.replace(ed)  # an equal edition, another object
    assert new_game(other, 2, 3) == st and hash(new_game(other, 2, 3)) == hash(st)


def test_the_legality_check_agrees_with_uses(ed):
    """apply's check (use_cost, one use) accepts exactly what legal_actions lists (uses)."""
    b, rng = ed.board, random.Random(4)
    sheet = blank_sheet(b, 3)
    for _ in range(60):
        dice = tuple(rng.randint(1, 6) for _ in range(3))
        found = uses(b, sheet, dice)
        for s in range(len(b.stations)):
            for n in range(0, 8):
                for k in range(0, 8):
                    assert use_cost(b, sheet, dice, s, n, k) == found.get((s, n, k)), (sheet, dice, s, n, k)
        if found:
            (s, n, k), cost = rng.choice(sorted(found.items()))
            sheet = use(b, sheet, s, n, k, cost)
    assert use_cost(b, sheet, (1, 2), "x", 1, 1) is None and use_cost(b, sheet, (1, 2), 10**6, 1, 1) is None


def test_illegal_actions_of_any_shape_are_refused(ed):
    st = new_game(ed, 2, 0).apply(("roll", (1, 2, 3, 4, 5)))
    for bad in ("keep", (), ((0, 1),), ((9, 1), SKIP, 0, 0), ((0, 1), SKIP, 1, 0), ((), SKIP, 0, 0),
                ((0, 1), "x", 1, 1), ((0, 1), ed.board.star, 1, 7)):
        with pytest.raises(UsageError):
            st.apply(bad)
    for bad in (("roll", [1, 2, 3, 4, 5]), ("roll", (1, 2, 3)), "roll", ("roll", (0, 1, 1, 1, 1))):
        with pytest.raises(UsageError):
            new_game(ed, 2, 0).apply(bad)


def test_describe_says_each_action_in_a_players_words(ed):
    b = ed.board
    star = b.stations[b.star].name
    k = b.masks.at[b.star][0][1]
    st = new_game(ed, 2, 0)
    assert st.describe(("roll", (3, 3, 5, 1, 6))) == "rolls 3 3 5 1 6"
    assert st.clock() == "roll 1 (player 1 rolls)"
    st = st.apply(("roll", (4, k, 6, 6, 6)))
    assert st.describe(((0, 1), b.star, 4, k)) == \
        f"keeps 4 and {k}: writes 4 in {star} and marks its connections of {k} section{'s' if k != 1 else ''}"
    assert st.describe(((0, 1), SKIP, 0, 0)) == f"keeps 4 and {k}: uses no dice"
    st = st.apply(((2, 3), SKIP, 0, 0))  # player 1 keeps 6 and 6; player 2 uses 4, k and 6
    assert st.describe(((), SKIP, 0, 0)) == "uses no dice"
    # passes: a 6 read as a 5 costs one
    far = next(a for a in st.legal_actions() if a[1] != SKIP and use_cost(b, st.sheets[1], st.left, *a[1:]) > 0)
    cost = use_cost(b, st.sheets[1], st.left, *far[1:])
    assert st.describe(far).endswith(f" ({cost} pass)" if cost == 1 else f" ({cost} passes)")
    # a station holding a number already: its number is used, not written
    st = st.apply(((), b.star, 4, k))
    st = st.apply(("roll", (4, k, 1, 1, 1)))
    assert st.sheets[1].nums[b.star] == 4 and st.current_player() == 1 and st.clock() == "roll 2 (player 2 rolls)"
    assert st.describe(((0, 1), b.star, 4, k)).startswith(f"keeps 4 and {k}: uses the 4 in {star} and marks")
    for words in (st.describe(a) for a in st.legal_actions()):
        assert "(" not in words.split(":")[0] and "None" not in words and "-1" not in words


def test_play_prints_every_move_in_words_and_the_final_sheets(ed, capsys):
    code, out, _ = run_cli(capsys, "play", "dice", "--players", "2", "--seed", "1")
    assert code == 0
    assert "roll 1 (player 1 rolls):" in out and "  rolls " in out and "player 1: keeps " in out
    assert "final position:" in out and "stations: " in out and "lines completed: " in out
    assert "passes left" in out and ("winner: player" in out or "shared win" in out)
    assert "((" not in out and "[" not in out  # no raw actions
    code, out, _ = run_cli(capsys, "play", "dice", "--players", "2", "--seed", "1", "--json")
    d = json.loads(out)
    assert d["rolls"] == len([m for m in d["log"] if m["seat"] is None]) and d["position"]["sheets"][0]["seat"] == 1
    assert all(m["words"] for m in d["log"])


def test_observation_is_everything_but_the_rolls_to_come(ed):
    st = new_game(ed, 3, 7).apply(("roll", (1, 2, 3, 4, 5)))
    seen = st.observation(1)
    json.dumps(seen)  # JSON-able
    assert seen["seat"] == 1 and seen["dice"] == [1, 2, 3, 4, 5] and len(seen["sheets"]) == 3
    assert seen["to_move"] == 0 and seen["roll"] == 1
    text = json.dumps(seen)
    assert "rolls" not in seen and "seed" not in seen and str(list(st.rolls[1])) not in text
    assert seen == st.observation(1) and st.observation(0)["sheets"] == seen["sheets"]  # all sheets are public


def test_played_games_replay_to_an_equal_state(ed):
    for players, seed in ((1, 3), (2, 4), (4, 5)):
        bots = [PLAYERS[b] for b in ("random", "lookahead", "greedy", "random")[:players]]
        played = play_game(new_game(ed, players, seed), bots, seed, words=True)
        assert replay(new_game(ed, players, seed), [m.action for m in played.moves]) == played.state
        assert played.state.turn == sum(1 for m in played.moves if m.seat == CHANCE)


def test_seeded_games_keep_their_seeded_rolls(ed):
    played = play(PLAYING, ed, 2, 9, ("greedy", "greedy"))
    rolls = [m.action[1] for m in played.moves if m.seat == CHANCE]
    assert rolls == list(ed.rolls(9).turns[:len(rolls)])


@pytest.mark.parametrize("players, bots", [(2, ("greedy", "random")), (4, ("random", "greedy", "random", "greedy"))])
def test_every_record_a_run_writes_passes_the_declared_schema(ed, players, bots):
    seen_first = False
    for seed in range(200):
        played = play(PLAYING, ed, players, seed, bots)
        r = PLAYING.measure(played, ed)
        assert SIMULATE.validate(r, players) is None, (seed, r)
        assert set(r) == {f.name for f in SIMULATE.fields}
        seen_first |= any(x is not None for x in r["line_first"])
    assert seen_first


def test_records_the_schema_refuses(ed):
    r = PLAYING.measure(play(PLAYING, ed, 2, 1, ("greedy", "greedy")), ed)
    assert SIMULATE.validate(r, 2) is None
    bad = [{"rounds": r["rounds"] + 1}, {"rolls": 0}, {"rolls": 10**9}, {"scores": [1]}, {"scores": [-1, 2]},
           {"winners": [3]}, {"winners": [p for p in (1, 2) if p not in r["winners"]] or [1, 2]},
           {"lines": r["lines"][:-1]}, {"lines": [3] * len(r["lines"])}, {"line_first": [10**6] * len(r["lines"])},
           {"zone_first": "x"}, {"lines": [0] * 10**4}]
    for change in bad:
        assert SIMULATE.validate({**r, **change}, 2), change
    missing = dict(r)
    del missing["rounds"]
    assert SIMULATE.validate(missing, 2)


def test_the_record_is_declared_and_old_files_are_refused():
    assert {f.name: (f.kind, f.unit) for f in SIMULATE.fields} == {
        "rolls": ("measure", "rolls"), "rounds": ("measure", "rounds"), "scores": ("scores", "points"),
        "winners": ("winners", ""), "lines": ("detail", ""), "line_first": ("detail", "rolls"),
        "zone_first": ("detail", "rolls")}
    assert all(f.hi for f in SIMULATE.of("measure", "scores"))
    assert record_schema({"game": "dice", "mode": "simulate", "version": 4}) is SIMULATE
    for old in (2, 3):  # 3: the old default map (issue 27)
        with pytest.raises(UsageError, match="re-run"):
            record_schema({"game": "dice", "mode": "simulate", "version": old})


def test_position_names_stations_lines_and_zones(ed):
    played = play(PLAYING, ed, 2, 1, ("greedy", "greedy"))
    d, lines = position(played.state)
    names = {s.name for s in ed.board.stations}
    assert all(set(sheet["stations"]) <= names for sheet in d["sheets"])
    assert all(len(line) <= 78 for line in lines)
    assert [sheet["score"] for sheet in d["sheets"]] == list(played.state.scores())
    json.dumps(d)
