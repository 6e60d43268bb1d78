"""One Day in London as played (tubedeck.games.oneday.play): a test per rule, random games that
never get stuck, and replay from seed and actions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.oneday.play import STOCK, is_journey, new_game


@pytest.fixture(scope="module")
def ed():
    return edition(get("oneday"))


def after_setup(ed, players=2, seed=3, order=None):
    s = new_game(ed, players, seed)
    while s.phase == "setup":
        s = s.apply(order(s) if order else s.legal_actions()[0], ed)
    return s


def play_random(ed, players, seed, steps, rng):
    s, actions = new_game(ed, players, seed, max_turns=steps), []
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal, (s.phase, s.turn)  # never stuck before the end
        a = rng.choice(legal)
        actions.append(a)
        s = s.apply(a, ed)
    return s, actions


def test_setup_places_each_drawn_card_once_in_an_empty_slot_then_deals_the_piles(ed):
    s = new_game(ed, 3, 1)
    first = s.stock[0]
    s = s.apply(("place", 7), ed)
    assert s.racks[0][7] == first and s.to_move == 1  # one card at a time, round the table
    with pytest.raises(UsageError):
        replace(s, to_move=0).apply(("place", 7), ed)  # a placed card stays: slot 7 is taken
    s = after_setup(ed, 3, 1)
    assert all(None not in r for r in s.racks) and [len(p) for p in s.piles] == [1, 1, 1]
    assert len(s.stock) == len(ed.deck) - 3 * 10 - 3 and s.phase == "draw" and s.to_move == 0


def test_draw_from_a_discard_top_or_the_draw_pile(ed):
    s = after_setup(ed)
    assert set(s.legal_actions()) == {("draw", 0), ("draw", 1), ("draw", 2), ("draw", STOCK)}
    top = s.piles[1][-1]
    t = s.apply(("draw", 1), ed)
    assert t.holding == top and t.piles[1] == () and t.phase == "exchange"
    u = s.apply(("draw", STOCK), ed)
    assert u.holding == s.stock[0] and u.stock == s.stock[1:]


def test_exchange_or_keep_then_discard_onto_the_empty_pile_first(ed):
    s = after_setup(ed).apply(("draw", 1), ed)  # pile 1 is now empty
    old = s.racks[0][4]
    t = s.apply(("exchange", 4), ed)
    assert t.racks[0][4] == s.holding and t.holding == old
    assert t.legal_actions() == (("discard", 1),)  # the empty pile must take it
    u = t.apply(("discard", 1), ed)
    assert u.piles[1] == (old,) and u.to_move == 1 and u.phase == "draw"
    kept = s.apply(("keep", None), ed)
    assert kept.racks == s.racks and kept.holding == s.holding
    v = after_setup(ed).apply(("draw", STOCK), ed).apply(("keep", None), ed)
    assert {a for a in v.legal_actions()} == {("discard", 0), ("discard", 1), ("discard", 2)}


def test_a_valid_journey_wins_at_once(ed):
    from tubedeck.games.oneday.board import parse_stations

    win = parse_stations(ed.board, "Blackfriars, Tower Hill, Aldgate, Farringdon, Baker Street, Oxford Circus, "
                                   "Elephant & Castle, King's Cross St Pancras, Waterloo, Edgware Road (Bakerloo)")
    cards = {}
    for c in ed.deck.cards:
        cards.setdefault(c.station, c)
    rack = tuple(cards[s] for s in win)
    assert is_journey(rack, ed)
    s = after_setup(ed)
    # give seat 1 the winning rack but one card, and that card on top of pile 0
    missing = rack[3]
    s = replace(s, racks=(rack[:3] + (s.racks[0][3],) + rack[4:],) + s.racks[1:],
                piles=((missing,),) + s.piles[1:])
    s = s.apply(("draw", 0), ed).apply(("exchange", 3), ed)
    s = s.apply(s.legal_actions()[0], ed)
    assert s.is_terminal() and s.winner == 0 and s.returns() == (1.0, -1.0)


def test_an_empty_draw_pile_is_refilled_from_the_buried_discards(ed):
    s = after_setup(ed)
    buried = tuple(ed.deck.cards[:5])
    s = replace(s, stock=s.stock[:1], piles=(buried + s.piles[0],) + s.piles[1:])
    t = s.apply(("draw", STOCK), ed)
    assert sorted(c.id for c in t.stock) == sorted(c.id for c in buried) and t.piles[0] == s.piles[0][-1:]
    assert t.reshuffles == 1


def test_a_game_too_long_ends_drawn(ed):
    s, _ = play_random(ed, 2, 5, steps=3, rng=random.Random(0))
    assert s.is_terminal() and (s.winner is not None or s.turn == 3)
    if s.winner is None:
        assert s.returns() == (0.0, 0.0)


def test_random_games_never_get_stuck_and_replay_to_the_same_log(ed):
    for seed in range(6):
        rng = random.Random(seed)
        end, actions = play_random(ed, 2 + seed % 3, seed, steps=150, rng=rng)
        again = new_game(ed, 2 + seed % 3, seed, max_turns=150)
        log = []
        for a in actions:
            again = again.apply(a, ed)
            log.append((again.phase, again.to_move, again.turn))
        assert again == end and again.is_terminal()
        # the same seed and actions give the same log, step by step
        again2 = new_game(ed, 2 + seed % 3, seed, max_turns=150)
        assert [((again2 := again2.apply(a, ed)).phase, again2.to_move, again2.turn) for a in actions] == log


def test_players_out_of_range_are_refused(ed):
    with pytest.raises(UsageError, match="2-4"):
        new_game(ed, 5, 0)
