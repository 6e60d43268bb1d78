"""Keep Moving on the play contract (tubedeck.play): the state's shape, ``describe`` in a player's
words, ``observation``, replays, and records that pass the declaration that reads them back."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games import record_schema
from tubedeck.games.keepmoving.play import State, new_game
from tubedeck.games.keepmoving.records import MAX_TURNS, SIMULATE
from tubedeck.games.keepmoving.resolve import mask
from tubedeck.play import CHANCE, TERMINAL, replay
from tubedeck.solver.keepmoving.simulate import PLAYING
from tubedeck.solver.keepmoving.simulate import position as final_position
from tubedeck.solver.simulation import play

from km_helpers import EDITION, position

ROW = "S S S S S S S S S S S S S S"
LAVA_3 = "S S L S S S S S S S S S S S"  # lava at position 3


# -- the state ------------------------------------------------------------------------------------
def test_the_state_is_a_dataclass_whose_copy_holds_every_field():
    s = new_game(EDITION, 2, 7)
    assert dataclasses.is_dataclass(s) and s.players == 2
    t = s._copy()  # an unset slot would raise here: every field is copied
    assert t is not s and t.key() == s.key() and t == s and hash(t) == hash(s) and t.edition is s.edition
    assert t.players == 2 and copy.copy(s) == s
    assert len(s.key()) == len(dataclasses.fields(State)) - 2  # all but the edition and the player count


def test_current_player_clock_and_the_end():
    s = new_game(EDITION, 2, 3)
    assert s.current_player() == CHANCE and s.clock() == "turn 1" and s.dealt_outcome() is None
    assert s.legal_actions() == () and s.chance_outcomes()
    p = play(PLAYING, EDITION, 2, 3, ("greedy", "greedy"), words=True)
    end = p.state
    assert end.is_terminal() and end.current_player() == TERMINAL and end.legal_actions() == ()
    assert end.chance_outcomes() == [] and sorted(end.returns()) == [-1.0, 1.0]
    assert p.moves[-1].clock == f"turn {end.turn + 1}"  # the deciding turn, not finished


def test_a_played_game_replays_from_new_game_to_an_equal_state():
    for seed, bots in ((5, ("greedy", "random")), (6, ("random", "lookahead"))):
        p = play(PLAYING, EDITION, 2, seed, bots)
        assert replay(new_game(EDITION, 2, seed), [m.action for m in p.moves]) == p.state


# -- describe: a player's words ---------------------------------------------------------------------
def test_a_die_card_a_roll_and_a_chosen_direction():
    s = position(LAVA_3, pos=(4, 10), hands=(("low",), ()))
    assert s.describe(("play", "low")) == "plays Low"
    s = s.apply(("play", "low"))
    assert s.describe(2) == "player 1 rolls 2"
    s = s.apply(2)
    assert s.describe(("dir", -1)) == "moves 2 left to position 3 (lava: 9 cubes left)"
    assert s.describe(("dir", 1)) == "moves 2 right to position 7 (dry soil)"


def test_a_move_card_with_one_way_to_go_says_where_it_went():
    s = position(ROW, pos=(1, 10), hands=(("three",), ()))
    assert s.describe(("play", "three")) == "plays Three, moves 3 right to position 5 (dry soil)"
    g = position("S G S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()))
    assert g.describe(("play", "one")) == "plays One, moves 1 right to position 2 (grassland: 11 cubes)"


def test_draws_and_steals_name_the_cards():
    s = position(ROW, hands=(("one",), ()), piles=(("six",), ()), step=("start",))
    assert s.describe("six") == "player 1 draws Six"
    f = position("S SF S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), fpile=("stun",))
    assert f.apply(("play", "one")).describe("stun") == "player 1 draws the function card Stun"
    t = position(ROW, hands=(("steal",), ("life-potion",)))
    assert t.describe(("play", "steal")) == "plays Steal"
    assert t.apply(("play", "steal")).describe("life-potion") == "player 1 steals Life Potion from player 2"


def test_protection_and_accepting_name_what_they_answer():
    s = position(ROW, pos=(0, 3), hands=(("push",), ("protection",))).apply(("play", "push", 1))
    assert s.describe(("protect",)) == "uses Protection against the Push"
    assert s.describe(("dir", 1)) == "dir 1"  # not an action here: plain words, never a crash
    assert s.describe(("accept",)) == "accepts the Push, player 2's meeple goes to position 7 (dry soil)"
    lock = position(ROW, hands=(("lock-even",), ("protection",))).apply(("play", "lock-even"))
    assert lock.describe(("protect",)) == "uses Protection against the Lock Even"
    lava = position(LAVA_3, pos=(1, 10), hands=(("one", "protection"), ())).apply(("play", "one")).apply(("dir", 1))
    assert lava.describe(("protect",)) == "uses Protection against the lava"
    assert lava.describe(("accept",)) == "accepts the lava, player 1 loses 1 cube (now 9)"


def test_function_cards_and_the_end_of_a_turn_in_words():
    s = position(ROW, pos=(3, 10), hands=(("life-potion", "exchange", "double"), ()), supply=4)
    assert s.describe(("play", "life-potion")) == "plays Life Potion, player 1 gains 2 cubes (now 12)"
    assert s.describe(("play", "exchange", 2, "pile")).startswith("plays Exchange: the ground card at position 3 "
                                                                  "goes under the ground pile")
    assert s.describe(("play", "exchange", 0, 5)) == ("plays Exchange: the ground cards at positions 1 and 6 "
                                                      "change places")
    assert s.apply(("play", "life-potion")).describe(("end",)) == "ends the turn"
    d = s.apply(("play", "double"))
    assert d.describe(3) == "player 1 rolls 3, doubled: 6, moves 6 right to position 10 (dry soil)"
    locked = position(ROW, pos=(6, 12), hands=(("low",), ()), locks=(mask([2]), 0)).apply(("play", "low"))
    assert locked.describe(2) == "player 1 rolls 2 (locked: no move)"
    assert position(ROW, hands=(("protection",), ())).describe(("pass",)) == "passes (nothing playable)"


def test_a_push_by_the_meeple_and_the_last_cube():
    s = position(LAVA_3, pos=(0, 1), hands=(("one",), ()), lives=(10, 1))
    assert s.describe(("play", "one")) == ("plays One, moves 1 right to position 2 (dry soil), pushes player 2 to "
                                           "position 3 (lava: 0 cubes left); player 2 has no cubes left: "
                                           "player 1 wins")


def test_a_played_log_has_words_for_every_move_and_no_ids():
    p = play(PLAYING, EDITION, 2, 8, ("random", "greedy"), words=True)
    for m in p.moves:
        assert m.words and "(" not in m.words.split(" ")[0], m
        assert not any(x in m.words for x in ("life-potion", "lock-", "new-hand", "('", "',", "dir ", "None")), m
    _, lines = final_position(p.state)
    assert any("cubes" in line for line in lines) and any("[1]" in line for line in lines)


# -- observation --------------------------------------------------------------------------------------
def test_an_observation_shows_what_the_seat_sees_and_nothing_hidden():
    a = position(ROW, hands=(("one", "six"), ("stun", "two")), piles=(("low", "high"), ("odd",)),
                 discards=(("even",), ()), fpile=("swap", "push"))
    b = position(ROW, hands=(("one", "six"), ("four", "five")), piles=(("random", "draw"), ("six",)),
                 discards=(("even",), ()), fpile=("steal", "stun"), pile="L G S S")
    o = a.observation(0)
    json.dumps(o)
    assert o["hand"] == ["one", "six"] and o["other_hand"] == 2 and o["piles"] == [2, 1]
    assert o["discards"] == [["even"], []] and o["function_pile"] == 2 and o["ground_pile"] == 4
    assert o["meeples"] == [1, 6] and o["cubes"] == [10, 10] and o["row"][0] == {"position": 1, "kind": "dry soil",
                                                                                  "symbol": ""}
    assert o["legal_actions"] == [["play", "one"], ["play", "six"]] and a.observation(1)["legal_actions"] == []
    assert a.observation(0) == b.observation(0)  # the other hand's cards, pile contents and orders are unseen
    assert a.observation(1) != b.observation(1)
    with pytest.raises(UsageError):
        a.observation(2)


# -- records ------------------------------------------------------------------------------------------
def test_records_of_many_games_pass_the_declaration_that_reads_them():
    for seed in range(200):
        bots = ("random", "greedy") if seed % 2 else ("random", "random")
        record = PLAYING.measure(play(PLAYING, EDITION, 2, seed, bots), EDITION)
        assert SIMULATE.validate(record, 2) is None, (seed, record)
        assert record["place"] == (1 if record["winner"] == record["first"] else 2)
    short = dataclasses.replace(EDITION, rules=dataclasses.replace(EDITION.rules, max_turns=6))
    record = PLAYING.measure(play(PLAYING, short, 2, 1, ("greedy", "greedy")), short)
    assert record["winner"] is None and record["place"] is None and record["turns"] == 6
    assert record["ended"] == "turn limit" and SIMULATE.validate(record, 2) is None
    assert EDITION.rules.max_turns <= MAX_TURNS


@pytest.mark.parametrize("change,message", [
    (lambda r: r.update(place=2), "place"),
    (lambda r: r.update(ended="volcano"), "ended"),
    (lambda r: r.update(winner=None, place=None), "turn limit"),
    (lambda r: r.update(first=3), "first"),
    (lambda r: r.update(turns=0), "turns"),
    (lambda r: r.update(functions={"teleport": 1}), "teleport"),
    (lambda r: r.update(functions={"stun": 10**9}), "functions"),
    (lambda r: r.pop("place"), "place"),
])
def test_an_impossible_record_is_refused(change, message):
    record = {"winner": 1, "first": 1, "place": 1, "turns": 30, "ended": "lava", "functions": {"stun": 1}}
    assert SIMULATE.validate(record, 2) is None
    change(record)
    assert message in (SIMULATE.validate(record, 2) or "")


def test_results_of_the_old_version_are_refused_with_what_to_do():
    assert record_schema({"game": "keepmoving", "mode": "simulate", "version": 2}) is SIMULATE
    with pytest.raises(UsageError, match="re-run"):
        record_schema({"game": "keepmoving", "mode": "simulate", "version": 1})


def test_the_random_bot_draws_from_its_stream():
    s = position(ROW, pos=(5, 12), hands=(("one", "two", "three"), ()))
    picks = {PLAYING.game.bot("random")(s, random.Random(k)) for k in range(20)}
    assert len(picks) > 1 and picks <= set(s.legal_actions())
