"""One Day in London as played (tubedeck.games.oneday.play): a test per rule, random games that
never get stuck, and replay from seed and actions."""

from __future__ import annotations

import random
import re
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
        s = s.apply(order(s) if order else s.legal_actions()[0])
    return s


def play_random(ed, players, seed, steps, rng):
    s, actions = new_game(ed, players, seed, max_turns=steps), []
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal, (s.phase, s.turn)  # never stuck before the end
        a = rng.choice(legal)
        actions.append(a)
        s = s.apply(a)
    return s, actions


def test_setup_places_each_drawn_card_once_in_an_empty_slot_then_deals_the_piles(ed):
    s = new_game(ed, 3, 1)
    first = s.stock[0]
    s = s.apply(("place", 7))
    assert s.racks[0][7] == first and s.to_move == 1  # one card at a time, round the table
    with pytest.raises(UsageError):
        replace(s, to_move=0).apply(("place", 7))  # a placed card stays: slot 7 is taken
    s = after_setup(ed, 3, 1)
    assert all(None not in r for r in s.racks) and [len(p) for p in s.piles] == [1, 1, 1]
    assert len(s.stock) == len(ed.deck) - 3 * 10 - 3 and s.phase == "draw" and s.to_move == 0


def test_draw_from_a_discard_top_or_the_draw_pile(ed):
    s = after_setup(ed)
    assert set(s.legal_actions()) == {("draw", 0), ("draw", 1), ("draw", 2), ("draw", STOCK)}
    top = s.piles[1][-1]
    t = s.apply(("draw", 1))
    assert t.holding == top and t.piles[1] == () and t.phase == "exchange"
    u = s.apply(("draw", STOCK))
    assert u.holding == s.stock[0] and u.stock == s.stock[1:]


def test_exchange_or_keep_then_discard_onto_the_empty_pile_first(ed):
    s = after_setup(ed).apply(("draw", 1))  # pile 1 is now empty
    old = s.racks[0][4]
    t = s.apply(("exchange", 4))
    assert t.racks[0][4] == s.holding and t.holding == old
    assert t.legal_actions() == (("discard", 1),)  # the empty pile must take it
    u = t.apply(("discard", 1))
    assert u.piles[1] == (old,) and u.to_move == 1 and u.phase == "draw"
    kept = s.apply(("keep", None))
    assert kept.racks == s.racks and kept.holding == s.holding
    v = after_setup(ed).apply(("draw", STOCK)).apply(("keep", None))
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
    s = s.apply(("draw", 0)).apply(("exchange", 3))
    s = s.apply(s.legal_actions()[0])
    assert s.is_terminal() and s.winner == 0 and s.returns() == (1.0, -1.0)


def test_an_empty_draw_pile_is_refilled_from_the_buried_discards(ed):
    s = after_setup(ed)
    buried = tuple(ed.deck.cards[:5])
    s = replace(s, stock=s.stock[:1], piles=(buried + s.piles[0],) + s.piles[1:])
    t = s.apply(("draw", STOCK))
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
            again = again.apply(a)
            log.append((again.phase, again.to_move, again.turn))
        assert again == end and again.is_terminal()
        # the same seed and actions give the same log, step by step
        again2 = new_game(ed, 2 + seed % 3, seed, max_turns=150)
        assert [((again2 := again2.apply(a)).phase, again2.to_move, again2.turn) for a in actions] == log


def test_players_out_of_range_are_refused(ed):
    with pytest.raises(UsageError, match="2-4"):
        new_game(ed, 5, 0)


# -- the play contract (tubedeck.play) --------------------------------------------------------
def test_the_contract_shape_seats_chance_and_the_end(ed):
    from tubedeck.play import TERMINAL

    s = new_game(ed, 3, 2)
    assert s.current_player() == 0 and s.chance_outcomes() == () and s.dealt_outcome() is None
    assert s.edition is ed and "edition" not in repr(s)
    assert s == replace(s, edition=None)  # the edition is bound, not part of the position
    end, _ = play_random(ed, 2, 5, steps=3, rng=random.Random(0))
    assert end.current_player() == TERMINAL and end.legal_actions() == ()


def test_describe_names_stations_and_slots_in_a_players_words(ed):
    s = new_game(ed, 2, 3)
    assert s.describe(("place", 2)) == f"puts {s.stock[0].name} in slot 3 of the rack"
    s = after_setup(ed)
    top = s.piles[1][-1]
    assert s.describe(("draw", 1)) == f"draws {top.name} from discard pile 2"
    assert s.describe(("draw", STOCK)) == "draws from the draw pile"  # face down: not named
    t = s.apply(("draw", STOCK))
    assert t.describe(("exchange", 5)) == f"exchanges it for {t.racks[0][5].name} in slot 6"
    assert t.describe(("keep", None)) == "keeps the rack (discards the drawn card)"
    u = t.apply(("exchange", 5))
    assert u.describe(("discard", 0)) == f"discards {t.racks[0][5].name} on pile 1"
    for state in (s, t, u):  # names, never card ids (bank-1) nor raw tuples
        for words in map(state.describe, state.legal_actions()):
            assert not re.search(r"[a-z]-\d|\('|None|stock", words), words


def test_clock_says_setup_then_the_turn_played(ed):
    s = new_game(ed, 2, 3)
    assert s.clock() == "setup"
    s = after_setup(ed)
    assert s.clock() == "turn 1" and s.turn == 0
    s = s.apply(("draw", STOCK)).apply(("keep", None))
    assert s.clock() == "turn 1"
    s = s.apply(s.legal_actions()[0])
    assert s.clock() == "turn 2" and s.turn == 1 and s.to_move == 1


def test_turns_count_the_winning_turn(ed):
    from tubedeck.games.oneday.board import parse_stations

    win = parse_stations(ed.board, "Blackfriars, Tower Hill, Aldgate, Farringdon, Baker Street, Oxford Circus, "
                                   "Elephant & Castle, King's Cross St Pancras, Waterloo, Edgware Road (Bakerloo)")
    cards = {}
    for c in ed.deck.cards:
        cards.setdefault(c.station, c)
    rack = tuple(cards[s] for s in win)
    s = after_setup(ed)
    s = replace(s, racks=(rack[:3] + (s.racks[0][3],) + rack[4:],) + s.racks[1:], piles=((rack[3],),) + s.piles[1:])
    s = s.apply(("draw", 0)).apply(("exchange", 3))
    s = s.apply(s.legal_actions()[0])
    assert s.winner == 0 and s.turn == 1 and s.clock() == "over after 1 turn"  # the first turn, played


def test_observation_shows_only_what_the_seat_sees(ed):
    import json

    s = after_setup(ed, players=3).apply(("draw", STOCK))
    mine, theirs = s.observation(0), s.observation(1)
    json.dumps(mine)  # JSON-able
    assert mine["rack"] == [c.id for c in s.racks[0]] and theirs["rack"] == [c.id for c in s.racks[1]]
    assert mine["holding"] == s.holding.id and theirs["holding"] is None  # drawn face down
    assert mine["stock"] == len(s.stock) and mine["placed"] == [10, 10, 10]
    assert mine["piles"] == [[c.id for c in p] for p in s.piles]
    text = json.dumps(theirs)
    assert not any(f'"{c.id}"' in text for c in s.racks[0] if c not in s.racks[1])  # other racks hidden
    assert not any(f'"{c.id}"' in text for c in s.stock if c not in s.racks[1])  # the stock's order too
    setup = new_game(ed, 2, 3)
    assert setup.observation(0)["holding"] == setup.stock[0].id and setup.observation(1)["holding"] is None


def test_a_played_games_log_replays_to_an_equal_state(ed):
    from tubedeck.play import play_game, replay
    from tubedeck.solver.oneday.players import PLAYERS

    for seed, bots in ((0, ("lookahead", "random")), (7, ("greedy", "random", "lookahead"))):
        start = new_game(ed, len(bots), seed, max_turns=200)
        played = play_game(start, [PLAYERS[b] for b in bots], seed, words=True)
        assert replay(start, [m.action for m in played.moves]) == played.state
        assert all(m.words and "(not legal here)" not in m.words for m in played.moves)
