"""Keep London Moving as played: a test per rule of the engine (tubedeck/games/klm/play.py and
effects.py), on the Victoria line's 16 cards (a chain from Brixton to Walthamstow Central, both
Termini), plus replay and never-stuck tests over random games."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.klm.effects import Effect
from tubedeck.games.klm.field import PlayField
from tubedeck.games.klm.play import END, PASS, new_game

CHAIN = ("brixton", "stockwell", "vauxhall", "pimlico", "victoria", "green-park", "oxford-circus", "warren-street",
         "euston", "kings-cross-st-pancras", "highbury-islington", "finsbury-park", "seven-sisters",
         "tottenham-hale", "blackhorse-road", "walthamstow-central")


@pytest.fixture(scope="module")
def ed():
    return edition(get("klm"), scope="victoria")


def field_of(*stations):
    f = PlayField()
    for a, b in zip(stations, stations[1:], strict=False):
        f = f.connect(a, b)
    return f


def start(ed, players=2, seed=0, **changes):
    """A game at Phase 2 of the starter's first turn, with ``changes`` applied."""
    s = new_game(ed, players, seed, unlucky=False)
    return s.evolve(**changes) if changes else s


def fortune(kind, copy=1):
    return f"{kind}-{copy}"


def test_the_game_is_the_checkers_deal(ed):
    d = ed.deal(3, 5)
    s = new_game(ed, 3, 5)
    assert s.phase == "unlucky" and s.starter == d.starter and s.rolls == d.turn_rolls
    assert s.hands == tuple(tuple(sorted(h)) for h in d.hands)
    assert s.stock == d.station_stock[15:] and s.fortune_stock == d.fortune_stock
    s = new_game(ed, 3, 5, unlucky=False)
    assert s.to_move == d.starter and s.roll == d.turn_rolls[0]


def test_phase_one_a_six_draws_a_fortune_card_else_a_station_card(ed):
    for seed in range(30):
        d = ed.deal(2, seed)
        s = new_game(ed, 2, seed, unlucky=False)
        me = d.starter
        if d.turn_rolls[0] == 6:
            assert len(s.fortune_hands[me]) == 1 and len(s.hands[me]) == 5
        else:
            assert s.fortune_hands[me] == () and len(s.hands[me]) == 6 and d.station_stock[10] in s.hands[me]


def test_unlucky_hand_redraws_four_once(ed):
    s = new_game(ed, 2, 3)
    before = len(s.stock)
    s = s.apply(("unlucky", True))
    assert len(s.hands[0]) == 4 and len(s.stock) == before + 1 and s.unlucky == (True, False)
    s = s.apply(("unlucky", False))
    assert s.phase == "play" and not any(a[0] == "unlucky" for a in s.legal_actions())


def test_a_connection_needs_the_same_connection_number_and_draws_a_fortune_card(ed):
    s = start(ed, hands=(("pimlico", "victoria", "euston"), ()), to_move=0, fortune_hands=((), ()))
    assert ("connect", "pimlico", "victoria") in s.legal_actions()
    assert not any(a[0] == "connect" and "euston" in a for a in s.legal_actions())
    after = s.apply(("connect", "pimlico", "victoria"))
    assert after.fields[0].cards == {"pimlico", "victoria"} and after.hands[0] == ("euston",)
    assert len(after.fortune_hands[0]) == 1


def test_one_connection_per_turn(ed):
    s = start(ed, hands=(("pimlico", "victoria", "green-park"), ()), to_move=0)
    s = s.apply(("connect", "pimlico", "victoria"))
    assert not any(a[0] == "connect" for a in s.legal_actions())
    with pytest.raises(UsageError):
        s.apply(("connect", "green-park", "victoria"))


def test_a_field_card_connects_to_a_hand_card(ed):
    s = start(ed, hands=(("green-park",), ()), fields=(field_of("pimlico", "victoria"), PlayField()), to_move=0)
    assert ("connect", "green-park", "victoria") in s.legal_actions()


def test_a_terminus_forms_one_connection_only(ed):
    assert {"brixton", "walthamstow-central"} <= ed.table.termini
    s = start(ed, hands=(("green-park",), ()), fields=(field_of("pimlico", "victoria"), PlayField()), to_move=0)
    assert ("connect", "green-park", "victoria") in s.legal_actions()
    as_terminus = dataclasses.replace(s.table, termini=s.table.termini | {"victoria"})
    assert ("connect", "green-park", "victoria") not in s.evolve(table=as_terminus).legal_actions()


def test_a_disabled_card_takes_no_connection_and_does_not_win(ed):
    path = CHAIN[1:5]
    s = start(ed, hands=(("green-park",), ()), fields=(field_of(*path), PlayField()), to_move=0,
              effects=(Effect("disabled", 0, 1, 9, "victoria"),))
    assert ("connect", "green-park", "victoria") not in s.legal_actions()
    s = s.evolve(effects=(Effect("disabled", 0, 1, 9, "stockwell"),))
    won = s.apply(("connect", "green-park", "victoria"))
    assert won.winner is None and won.fields[0].longest(5) == 5


def test_five_continuous_active_stations_win(ed):
    s = start(ed, hands=(("green-park",), ()), fields=(field_of(*CHAIN[1:5]), PlayField()), to_move=0)
    won = s.apply(("connect", "green-park", "victoria"))
    assert won.is_terminal() and won.winner == 0 and won.returns() == (1.0, -1.0)
    assert won.legal_actions() == ()


def test_a_disable_lasts_the_casters_own_turns_after_the_turn_of_play(ed):
    s = start(ed, to_move=1, fields=(field_of(*CHAIN[1:6]), field_of("euston", "warren-street")),
              effects=(), fortune_hands=((), (fortune("signal-failure"),)), hands=((), ()))
    s = s.apply(("fortune", "signal-failure-1", 0, "victoria"))
    cast = s.own_turns[1] + 1
    assert s.disabled(0) == {"victoria"} and s.effects[0].until == cast + 3
    for _ in range(3):  # the caster's turn of play (1), then turns 2 and 3: still Disabled
        s = s.evolve(phase="play", roll=1).apply(END)
        assert s.disabled(0) == {"victoria"} and s.winner is None
        s = s.evolve(phase="play", roll=1).apply(END)
    assert s.to_move == 1 and s.own_turns[1] == 3
    s = s.evolve(phase="play", roll=1).apply(END)  # the caster ends turn 4 = 1 + 3
    assert s.disabled(0) == frozenset() and s.winner == 0  # Active again: the waiting path wins


def test_one_fortune_card_per_turn(ed):
    s = start(ed, to_move=0, hands=((), ()),
              fortune_hands=(("rush-hour-1", "fare-top-up-1"), ()))
    s = s.apply(("fortune", "rush-hour-1"))
    assert not any(a[0] == "fortune" for a in s.legal_actions())


def test_each_fortune_effect(ed):
    two = (field_of("pimlico", "victoria", "green-park"), field_of("euston", "warren-street", "oxford-circus"))
    base = start(ed, to_move=0, fields=two, hands=(("brixton",), ("seven-sisters",)), effects=(),
                 discards=("tottenham-hale",), fortune_hands=((), ("good-service-1",)), connections=0, fortunes=0)

    def play(card, *args, **changes):
        s = base.evolve(fortune_hands=((card,), base.fortune_hands[1]), **changes)
        return s.apply(("fortune", card, *args))

    s = play("engineering-works-1", 1, "oxford-circus", "warren-street")
    assert s.disabled(1) == {"oxford-circus", "warren-street"}
    s = play("line-closure-1", "victoria")  # every opponent: the Victoria card with most Connections
    assert s.disabled(1) == {"warren-street"}
    s = play("good-service-1", "pimlico", effects=(Effect("disabled", 0, 1, 5, "pimlico"),))
    assert s.disabled(0) == frozenset()
    s = play("step-free-upgrade-1")
    assert s.has_effect("protected", 0) and "step-free-upgrade-1" not in s.fortune_discards
    guarded = base.evolve(effects=(Effect("protected", 1, 1, 9),), fortune_hands=(("signal-failure-1",), ()))
    assert not any(a[0] == "fortune" for a in guarded.legal_actions())
    s = play("fare-top-up-1")
    assert len(s.fortune_hands[0]) == 1 and s.fortune_hands[0][0] in s.fresh
    s = play("rush-hour-1")
    assert len(s.hands[0]) == 2 and len(s.stock) == len(base.stock) - 1
    s = play("lost-property-1")
    assert "tottenham-hale" in s.hands[0] and s.discards == ()
    s = play("ticket-inspection-1", 1, "good-service-1")
    assert s.fortune_hands[1] == () and "good-service-1" in s.fortune_discards
    s = play("doors-closing-1", 1)
    assert s.has_effect("blocked", 1)
    blocked = s.evolve(to_move=1, phase="play", connections=0)
    assert not any(a[0] == "connect" for a in blocked.legal_actions())


def test_over_the_hand_limits_the_player_discards(ed):
    hand = CHAIN[1:8]
    s = start(ed, to_move=0, hands=(hand, ()), fortune_hands=(("rush-hour-1", "rush-hour-2", "rush-hour-3"), ()))
    s = s.apply(END)
    assert s.phase == "discard" and {a[1] for a in s.legal_actions()} == set(hand)
    s = s.apply(("discard", "pimlico")).apply(("discard", "victoria"))
    assert s.phase == "discard" and all(a[1].startswith("rush-hour") for a in s.legal_actions())
    s = s.apply(("discard", "rush-hour-2"))
    assert s.to_move == 1 and s.discards[-2:] == ("pimlico", "victoria") and "rush-hour-2" in s.fortune_discards


def test_an_empty_stock_is_refilled_from_the_discards(ed):
    s = start(ed, to_move=0, stock=(), discards=("euston", "pimlico"), hands=((), ()), rolls=(1, 1, 1))
    s = s.apply(END)
    assert s.reshuffles == 1 and len(s.hands[1]) == 1 and len(s.stock) == 1 and s.discards == ()


def test_fast_gameplay_starts_when_both_stocks_are_empty(ed):
    s = start(ed, to_move=0, stock=(), discards=(), hands=(("euston",), ("pimlico",)), rolls=(1, 2, 1, 6))
    s = s.apply(END)
    assert s.fast and s.fast_from == 1 and s.hands[1] == ("pimlico",)
    s = s.apply(END)  # turn 3 rolls a 1: take a Station Card from another hand
    assert s.phase == "take" and ("take", 1, "pimlico") in s.legal_actions() and PASS in s.legal_actions()
    s = s.apply(("take", 1, "pimlico"))
    assert s.hands[0] == ("euston", "pimlico") and "pimlico" in s.fresh


def test_fast_gameplay_takes_from_a_play_field_and_orphans_return(ed):
    s = start(ed, to_move=0, fast=True, stock=(), discards=(), roll=6, phase="take",
              fields=(PlayField(), field_of("pimlico", "victoria")), hands=((), ()))
    assert ("take", 1, "victoria") in s.legal_actions()
    s = s.apply(("take", 1, "victoria"))
    assert s.fields[1] == PlayField() and s.hands[1] == ("pimlico",) and s.hands[0] == ("victoria",)
    assert not any(a[0] == "connect" for a in s.legal_actions())  # taken this turn: not playable


def test_fast_gameplay_has_no_station_hand_limit(ed):
    s = start(ed, to_move=0, fast=True, hands=(CHAIN[1:9], ()), fortune_hands=((), ()))
    assert s.apply(END).to_move == 1


def test_random_games_never_get_stuck_and_replay(ed):
    for seed in range(12):
        s, log = new_game(ed, 2 + seed % 2, seed), []
        rng = random.Random(seed)
        while not s.is_terminal():
            acts = s.legal_actions()
            assert acts, (seed, s.phase)
            a = rng.choice(acts)
            log.append(a)
            s = s.apply(a)
        replay = new_game(ed, 2 + seed % 2, seed)
        for a in log:
            replay = replay.apply(a)
        assert replay == s and replay.winner == s.winner


def test_max_turns_ends_without_a_winner(ed):
    s = new_game(ed, 2, 1, max_turns=3, unlucky=False)
    while not s.is_terminal():
        s = s.apply(END if END in s.legal_actions() else s.legal_actions()[0])
    assert s.winner is None and s.turn == 3 and s.returns() == (0.0, 0.0)
