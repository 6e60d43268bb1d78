"""Keep Moving's rules, one test per rule (positions from km_helpers.position)."""

from __future__ import annotations

import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.keepmoving.play import new_game
from tubedeck.games.keepmoving.resolve import mask
from tubedeck.play import TERMINAL

from km_helpers import EDITION, chance, kinds, play_out, position

ROW = "S S S S S S S S S S S S S S"


def test_setup_lays_the_row_symbol_sides_up_and_deals_the_piles():
    r = EDITION.rules
    for seed in range(20):
        s = new_game(EDITION, 2, seed)
        assert len(s.row) == r.row and len(s.gpile) == r.ground_cards - r.row
        for index, up in s.row + s.gpile:
            if any(x.symbol for x in EDITION.ground[index].sides):
                assert up == 0
        assert s.pos[0] != s.pos[1] and all(r.start_offset <= p <= r.start_offset + 5 for p in s.pos)
        assert s.lives == (r.lives, r.lives) and s.supply == r.supply
        assert len(s.fpile) == r.function_cards - 2 * r.start_function
        # the first player has drawn (a chance node) or is deciding; the second holds 2 cards
        assert len(s.hand[1 - s.first]) == r.start_hand
        assert sum(len(s.hand[p]) + len(s.pile[p]) for p in range(2)) == 2 * (33 + 3) - (not chance(s))


def test_setup_is_seeded_and_refuses_bad_input():
    assert new_game(EDITION, 2, 5) == new_game(EDITION, 2, 5)
    assert len({new_game(EDITION, 2, k).key() for k in range(6)}) == 6
    with pytest.raises(UsageError):
        new_game(EDITION, 3, 1)
    with pytest.raises(UsageError):
        new_game(EDITION, 2, -1)


def test_a_turn_starts_with_a_draw_unless_the_hand_is_full():
    s = position(ROW, hands=(("one",) * 4, ()), piles=(("two",), ()), step=("start",))
    assert chance(s) and s.chance_outcomes() == [("two", 1.0)]
    s = s.apply("two")
    assert s.legal_actions() and s.hand[0].count("two") == 1
    full = position(ROW, hands=(("one",) * 5, ()), piles=(("two",), ()), step=("start",))
    assert not chance(full) and full.hand[0] == ("one",) * 5


def test_an_empty_pile_is_refilled_from_the_discards():
    s = position(ROW, hands=(("one",), ()), piles=((), ()), discards=(("six", "six", "low"), ()), step=("start",))
    assert chance(s) and dict(s.chance_outcomes()) == {"low": pytest.approx(1 / 3), "six": pytest.approx(2 / 3)}
    assert s.discard[0] == ()


def test_a_player_must_play_and_passes_only_with_nothing_playable():
    s = position(ROW, hands=(("protection",), ()))
    assert s.legal_actions() == (("pass",),)  # green: never on one's own turn
    s = position(ROW, hands=(("one", "protection"), ()))
    assert s.legal_actions() == (("play", "one"),)


def test_a_movement_card_ends_the_turn_and_a_blue_card_lets_you_play_again():
    s = position(ROW, pos=(3, 10), hands=(("life-potion", "one"), ()))
    s = s.apply(("play", "life-potion"))
    assert s.current_player() == 0 and ("end",) in s.legal_actions() and ("play", "one") in s.legal_actions()
    s = s.apply(("play", "one")).apply(("dir", 1))
    assert s.to_move == 1 and s.turn == 1 and s.discard[0] == ("life-potion", "one")


def test_direction_is_chosen_but_never_past_the_edge():
    s = position(ROW, pos=(1, 10), hands=(("three",), ()))
    s = s.apply(("play", "three"))
    assert s.pos[0] == 4 and s.to_move == 1  # left would pass the edge: right without asking
    s = position(ROW, pos=(5, 12), hands=(("three",), ())).apply(("play", "three"))
    assert s.legal_actions() == (("dir", -1), ("dir", 1))
    assert s.apply(("dir", -1)).pos[0] == 2


def test_moving_may_end_on_the_edge_card():
    s = position(ROW, pos=(3, 10), hands=(("three",), ())).apply(("play", "three")).apply(("dir", -1))
    assert s.pos[0] == 0


def test_dice_cards_roll_their_die():
    s = position(ROW, pos=(6, 12), hands=(("even",), ())).apply(("play", "even"))
    assert chance(s) and dict(s.chance_outcomes()) == pytest.approx({2: 1 / 3, 4: 1 / 3, 6: 1 / 3})
    s = s.apply(4)
    assert s.legal_actions() == (("dir", -1), ("dir", 1))
    for die, faces in (("odd", {1, 3, 5}), ("low", {1, 2, 3}), ("high", {4, 5, 6}), ("random", set(range(1, 7)))):
        t = position(ROW, pos=(6, 12), hands=((die,), ())).apply(("play", die))
        assert {o for o, _ in t.chance_outcomes()} == faces


def test_entering_lava_costs_a_life_to_the_supply():
    s = position("S L S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), supply=4)
    s = s.apply(("play", "one"))
    assert s.lives == (9, 10) and s.supply == 5


def test_entering_grassland_takes_a_life_from_the_supply_if_any():
    s = position("S G S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), supply=2)
    assert s.apply(("play", "one")).lives == (11, 10)
    s = position("S G S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), supply=0)
    assert s.apply(("play", "one")).lives == (10, 10)


def test_dry_soil_does_nothing_and_passing_over_lava_is_not_entering():
    s = position("S L L S S S S S S S S S S S", pos=(0, 10), hands=(("three",), ()))
    s = s.apply(("play", "three"))
    assert s.lives == (10, 10) and s.supply == 10


def test_a_function_symbol_draws_a_function_card_unless_the_hand_is_full():
    s = position("S SF S S S S S S S S S S S S", pos=(0, 10), hands=(("one", "two"), ()), fpile=("stun", "swap"))
    s = s.apply(("play", "one"))
    assert chance(s) and dict(s.chance_outcomes()) == {"stun": 0.5, "swap": 0.5}
    assert "swap" in s.apply("swap").hand[0]
    full = position("S SF S S S S S S S S S S S S", pos=(0, 10), hands=(("one",) + ("two",) * 5, ()), fpile=("stun",))
    assert not chance(full.apply(("play", "one")))
    empty = position("S SF S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), fpile=())
    assert empty.apply(("play", "one")).to_move == 1


def test_leaving_a_card_turns_it_over():
    s = position("L S S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), backs="G " + " ".join("S" * 13))
    s = s.apply(("play", "one"))
    assert kinds(s).split()[0] == "G"


def test_a_replace_card_goes_under_the_pile_turned_over_and_the_top_card_takes_its_place():
    s = position("SR S S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()),
                 backs="L " + " ".join("S" * 13), pile="G S")
    top = s.gpile[0]
    s = s.apply(("play", "one"))
    assert s.row[0] == top and kinds(s).split()[0] == "G"
    assert s.gpile[-1] == (0, 1)  # under the pile, the other side (lava) up


def test_landing_on_the_other_meeple_pushes_it_one_card_on_with_its_card_counting():
    s = position("S S S L S S S S S S S S S S", pos=(0, 2), hands=(("two",), ()),
                 backs=" ".join("G" * 14))
    s = s.apply(("play", "two"))
    assert s.pos == (2, 3) and s.lives == (10, 9)
    assert kinds(s).split()[0] == "G" and kinds(s).split()[2] == "S"  # only the mover's card turns over


def test_a_meeple_pushed_over_the_edge_enters_from_the_other_end():
    s = position("L S S S S S S S S S S S S S", pos=(11, 13), hands=(("two",), ()))
    s = s.apply(("play", "two")).apply(("dir", 1))
    assert s.pos == (13, 0) and s.lives == (10, 9)


def test_protection_never_answers_a_push_by_the_other_meeple():
    s = position("S S S L S S S S S S S S S S", pos=(0, 2), hands=(("two",), ("protection",)))
    s = s.apply(("play", "two"))
    assert s.lives == (10, 9) and s.hand[1] == ("protection",)


def test_protection_answers_lava_entered_by_ones_own_move():
    s = position("S L S S S S S S S S S S S S", pos=(0, 10), hands=(("one", "protection"), ()))
    s = s.apply(("play", "one"))
    assert s.current_player() == 0 and s.legal_actions() == (("protect",), ("accept",))
    assert s.apply(("protect",)).lives == (10, 10) and "protection" in s.apply(("protect",)).discard[0]
    assert s.apply(("accept",)).lives == (9, 10)


def test_losing_the_last_life_cube_loses_the_game():
    s = position("S L S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()), lives=(1, 4))
    s = s.apply(("play", "one"))
    assert s.is_terminal() and s.winner == 1 and s.returns() == (-1.0, 1.0) and s.ended == "lava"
    assert s.legal_actions() == () and s.current_player() == TERMINAL


def test_double_rolls_the_random_die_and_moves_twice_as_far():
    s = position(ROW, pos=(3, 10), hands=(("double",), ()))
    s = s.apply(("play", "double"))
    assert {o for o, _ in s.chance_outcomes()} == set(range(1, 7))
    assert s.apply(3).pos[0] == 9  # 6 to the right (left would pass the edge)
    far = s.apply(6)  # 12 fits neither way from card 4: the meeple stops on the end card chosen
    assert far.legal_actions() == (("dir", -1), ("dir", 1)) and far.apply(("dir", 1)).pos[0] == 13


def test_exchange_swaps_two_empty_cards_or_one_with_the_pile():
    s = position("L G S S S S S S S S S S S S", pos=(5, 6), hands=(("exchange",), ()), pile="GF S")
    assert ("play", "exchange", 5, 7) not in s.legal_actions()  # occupied
    t = s.apply(("play", "exchange", 0, 1))
    assert kinds(t).split()[:2] == ["G", "L"]
    t = s.apply(("play", "exchange", 0, "pile"))
    assert kinds(t).split()[0] == "GF" and t.gpile[-1] == (0, 1)


def test_life_potion_gives_two_cubes_from_what_the_supply_has():
    assert position(ROW, pos=(3, 9), hands=(("life-potion",), ()), supply=5).apply(("play", "life-potion")).lives == (12, 10)
    assert position(ROW, pos=(3, 9), hands=(("life-potion",), ()), supply=1).apply(("play", "life-potion")).lives == (11, 10)


def test_a_lock_forbids_its_numbers_on_the_opponents_next_turn_only():
    s = position(ROW, pos=(3, 9), hands=(("lock-even", "one"), ()))
    s = s.apply(("play", "lock-even")).apply(("play", "one"))
    if s.legal_actions() and s.legal_actions()[0][0] == "dir":
        s = s.apply(s.legal_actions()[0])
    assert s.locks[1] == mask((2, 4, 6))
    opp = position(ROW, pos=(3, 9), to_move=1, hands=((), ("two", "even", "random", "three", "double")),
                   locks=(0, mask((2, 4, 6))))
    assert {a[1] for a in opp.legal_actions()} == {"random", "three", "double"}
    rolled = opp.apply(("play", "random")).apply(4)  # a forbidden roll: no move, the card is spent
    assert rolled.pos == (3, 9) and rolled.to_move == 0 and rolled.locks == (0, 0)


@pytest.mark.parametrize("lock,numbers", [("lock-high", (4, 5, 6)), ("lock-low", (1, 2, 3)), ("lock-odd", (1, 3, 5))])
def test_every_lock_names_its_numbers(lock, numbers):
    assert EDITION.card(lock).numbers == numbers
    opp = position(ROW, pos=(3, 9), to_move=1, hands=((), ("one", "four", "low", "high", "odd", "even")),
                   locks=(0, mask(numbers)))
    allowed = {a[1] for a in opp.legal_actions()}
    assert ("one" in allowed) == (1 not in numbers) and ("four" in allowed) == (4 not in numbers)


def test_double_is_locked_by_its_die_not_the_doubled_distance():
    opp = position(ROW, pos=(3, 9), to_move=1, hands=((), ("double",)), locks=(0, mask((2, 4, 6))))
    s = opp.apply(("play", "double"))
    assert s.apply(2).pos == (3, 9) and s.apply(3).current_player() == 1  # 3 -> 6 cards: allowed


def test_new_hand_discards_the_hand_and_draws_one_more():
    s = position(ROW, pos=(3, 9), hands=(("new-hand", "one", "two"), ()), piles=(("six",) * 10, ()))
    s = s.apply(("play", "new-hand"))
    assert s.hand[0] == () and set(s.discard[0]) == {"new-hand", "one", "two"}
    for _ in range(3):
        s = s.apply("six")
    assert s.hand[0] == ("six",) * 3 and not chance(s)


def test_push_moves_the_opponent_three_cards_round_the_end_onto_the_next_card_if_taken():
    s = position("L S S S S S S S S S S S S S", pos=(3, 12), hands=(("push",), ()))
    t = s.apply(("play", "push", 1))
    assert t.pos[1] == 1  # 12 -> 13, 0, 1
    s = position("S S S S L S S S S S S S S S", pos=(3, 0), hands=(("push",), ()))
    t = s.apply(("play", "push", 1))
    assert t.pos[1] == 4 and t.lives == (10, 9)  # lands on the pusher: one card on, lava counts


def test_protection_answers_the_opponents_push_swap_steal_stun_and_locks():
    for card, action in (("push", ("play", "push", 1)), ("swap", ("play", "swap")), ("steal", ("play", "steal")),
                         ("stun", ("play", "stun")), ("lock-odd", ("play", "lock-odd"))):
        s = position("S S S S L S S S S S S S S S", pos=(3, 1), hands=((card, "one"), ("protection", "two")))
        s = s.apply(action)
        assert s.current_player() == 1 and s.legal_actions() == (("protect",), ("accept",)), card
        t = s.apply(("protect",))
        assert t.pos == (3, 1) and t.hand[1] == ("two",) and t.stunned == (False, False) and t.locks == (0, 0)
        assert t.current_player() == 0 and ("end",) in t.legal_actions()


def test_relocation_replaces_every_empty_card():
    s = position(ROW, pos=(0, 13), hands=(("relocation",), ()), pile=" ".join(["L"] * 14))
    t = s.apply(("play", "relocation"))
    assert kinds(t).split() == ["S"] + ["L"] * 12 + ["S"]


def test_steal_takes_a_random_card_from_the_opponent():
    s = position(ROW, pos=(3, 9), hands=(("steal",), ("six", "six", "low")))
    s = s.apply(("play", "steal"))
    assert dict(s.chance_outcomes()) == pytest.approx({"low": 1 / 3, "six": 2 / 3})
    t = s.apply("low")
    assert t.hand == (("low",), ("six", "six"))


def test_stun_keeps_the_opponent_from_playing_on_their_next_turn():
    s = position(ROW, pos=(3, 9), hands=(("stun", "one"), ("two",)), piles=((), ("three",)))
    s = s.apply(("play", "stun")).apply(("play", "one"))
    s = s.apply(s.legal_actions()[0]) if not chance(s) and s.to_move == 0 else s
    assert s.to_move == 1 and chance(s)
    s = s.apply("three")  # the stunned player draws, then plays nothing
    assert s.to_move == 0 and s.hand[1] == ("three", "two") and s.stunned == (False, False)


def test_swap_changes_places_and_both_landing_cards_count():
    s = position("S S S L S S S S G S S S S S", pos=(3, 8), hands=(("swap",), ()))
    t = s.apply(("play", "swap"))
    assert t.pos == (8, 3) and t.lives == (11, 9)
    assert kinds(t).split()[3] == "L" and kinds(t).split()[8] == "G"  # no card turned over


def test_the_game_is_drawn_at_the_turn_limit():
    s = position(ROW, pos=(3, 9), hands=(("one",), ()))
    s.turn = EDITION.rules.max_turns - 1
    s = s.apply(("play", "one")).apply(("dir", 1))
    assert s.is_terminal() and s.winner is None and s.returns() == (0.0, 0.0)


def test_illegal_actions_and_outcomes_are_refused():
    s = position(ROW, pos=(3, 9), hands=(("one",), ()))
    with pytest.raises(UsageError):
        s.apply(("play", "six"))
    with pytest.raises(UsageError):
        s.apply(3)


def test_random_games_never_get_stuck_and_keep_the_cubes():
    rng = random.Random(7)
    for seed in range(60):
        s, log = play_out(new_game(EDITION, 2, seed), rng)
        total = sum(s.lives) + s.supply
        assert total == 2 * EDITION.rules.lives + EDITION.rules.supply
        assert s.winner is not None or s.ended == "turn limit"


def test_replay_gives_the_same_log():
    a_state, a_log = play_out(new_game(EDITION, 2, 3), random.Random(11))
    b_state, b_log = play_out(new_game(EDITION, 2, 3), random.Random(11))
    assert a_log == b_log and a_state == b_state
    s = new_game(EDITION, 2, 3)
    for _, choice in a_log:
        s = s.apply(choice)
    assert s == a_state


def test_a_replace_card_is_turned_over_when_the_ground_pile_is_empty():
    s = position("SR S S S S S S S S S S S S S", pos=(0, 10), hands=(("one",), ()),
                 backs="L " + " ".join("S" * 13), pile="S")
    s.gpile = ()
    s = s.apply(("play", "one"))
    assert s.row[0] == (0, 1) and kinds(s).split()[0] == "L"


def test_the_draw_card_draws_two_and_ends_the_turn():
    s = position(ROW, pos=(3, 9), hands=(("draw",), ()), piles=(("six", "six", "low"), ()))
    s = s.apply(("play", "draw"))
    assert chance(s)
    s = s.apply("six").apply("low")
    assert s.hand[0] == ("low", "six") and s.to_move == 1 and s.pos == (3, 9)


def test_a_pushed_meeple_draws_the_function_card_of_its_landing_card():
    s = position("S S S SF S S S S S S S S S S", pos=(0, 2), hands=(("two",), ()), fpile=("stun",))
    s = s.apply(("play", "two"))
    assert chance(s) and s.apply("stun").hand[1] == ("stun",)


def test_swap_onto_lava_may_be_protected_by_the_swapper_but_a_push_card_landing_not():
    s = position("S S S L S S S S S S S S S S", pos=(8, 3), hands=(("swap", "protection"), ()))
    s = s.apply(("play", "swap"))
    assert s.current_player() == 0 and s.legal_actions() == (("protect",), ("accept",))
    assert s.apply(("protect",)).lives == (10, 10)
    t = position("S S S S S S L S S S S S S S", pos=(0, 3), hands=(("push",), ("protection",)))
    t = t.apply(("play", "push", 1))
    assert t.legal_actions() == (("protect",), ("accept",))  # the card may be answered...
    t = t.apply(("accept",))
    assert t.pos[1] == 6 and t.lives == (10, 9) and t.hand[1] == ("protection",)  # ...its landing not
