"""Next Station: London as played (tubedeck.games.nextstation.play): a test per rule, scoring as
the rulebook counts it, replay from seed and actions, random games that never get stuck."""

from __future__ import annotations

import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.edition import Deal, deal, load, pencil_orders
from tubedeck.games.nextstation.flips import parse_flips, turns
from tubedeck.games.nextstation.play import CHANCE, PASS, Line, Sheet, State, new_game
from tubedeck.games.nextstation.scoring import final_score, line_score

ALL = ("green", "pink", "purple", "blue")


@pytest.fixture(scope="module")
def ed():
    return load(None)


def solo(ed, pencils=ALL, rounds=4):
    flips = tuple(tuple(c.id for c in ed.cards) for _ in range(rounds))
    d = Deal(0, 1, (pencils,), flips)
    return State(ed, 1, d, (Sheet((Line(pencils[0], (ed.board.departure(pencils[0]).id,), ()),)),))


def flip(s, ed, card):
    return s.apply(("flip", card))


def draws(s, ed):
    return {a[1:] for a in s.legal_actions() if a[0] == "draw"}


def test_first_section_starts_at_the_departure_and_reaches_the_symbol(ed):
    s = flip(solo(ed), ed, "street-square")
    assert s.current_player() == 0 and PASS in s.legal_actions()
    # green departs from r2c3: its square neighbours are r1c3 and r2c6
    assert draws(s, ed) == {("r2c3", "r1c3"), ("r2c3", "r2c6")}


def test_joker_and_the_question_mark_match_any_symbol(ed):
    s = flip(solo(ed), ed, "street-joker")
    assert len(draws(s, ed)) == len(ed.board.incident["r2c3"])
    s = flip(solo(ed, ("purple", "green", "pink", "blue")), ed, "street-circle")
    s = s.apply(("draw", "r5c2", "r5c4"))
    s = flip(s, ed, "street-pentagon")
    assert ("r5c4", "r3c5") not in draws(s, ed)  # r5c4-r3c5 is no section; but a ? neighbour is reachable:
    s = flip(solo(ed, ("pink", "green", "purple", "blue")), ed, "street-circle")
    s = s.apply(("draw", "r3c7", "r3c6"))
    s = flip(s, ed, "street-triangle")
    assert ("r3c6", "r3c5") in draws(s, ed)


def test_sections_grow_from_either_end_only(ed):
    s = flip(solo(ed), ed, "street-square")
    s = s.apply(("draw", "r2c3", "r2c6"))  # line: r2c3 - r2c6
    s = flip(s, ed, "street-joker")
    starts = {u for u, _ in draws(s, ed)}
    assert starts == {"r2c3", "r2c6"}
    s = s.apply(("draw", "r2c6", "r1c6"))  # r2c3 - r2c6 - r1c6: r2c6 is no end now
    s = flip(s, ed, "underground-joker")
    assert {u for u, _ in draws(s, ed)} == {"r2c3", "r1c6"}


def test_railroad_switch_lets_a_section_start_anywhere_on_the_line(ed):
    s = flip(solo(ed), ed, "street-square")
    s = s.apply(("draw", "r2c3", "r2c6"))
    s = flip(s, ed, "street-joker")
    s = s.apply(("draw", "r2c6", "r1c6"))  # r2c3 - r2c6 - r1c6: r2c6 is in the middle
    s = flip(s, ed, "street-switch")
    assert s.current_player() == CHANCE  # the next card is flipped at once
    s = flip(s, ed, "underground-joker")
    assert s.turn.switch
    assert "r2c6" in {u for u, _ in draws(s, ed)}
    s = s.apply(("draw", "r2c6", "r3c6"))  # a branch: the line now has three ends
    s = flip(s, ed, "street-circle")
    assert not s.turn.switch
    ends = {u for u, _ in draws(s, ed)}
    assert "r2c6" not in ends and ends <= {"r2c3", "r1c6", "r3c6"}


def test_switch_on_turn_1_or_2_is_ignored(ed):
    book = ed.book
    order = ("street-switch", "street-circle", "underground-circle", "underground-square", "underground-triangle",
             "underground-pentagon", "underground-joker")
    assert not any(t.switch for t in turns(book, order))
    order2 = ("street-circle",) + order[:1] + order[2:]
    assert not any(t.switch for t in turns(book, order2))
    order3 = ("street-circle", "street-joker", "street-switch") + order[2:]
    ts = turns(book, order3)
    assert [t.switch for t in ts] == [False, False, True, False, False, False, False]


def test_round_ends_after_the_fifth_underground_card(ed):
    order = ("underground-circle", "underground-square", "street-joker", "underground-triangle",
             "underground-pentagon", "underground-joker", "street-circle")
    ts = turns(ed.book, order)
    assert len(ts) == 6 and ts[-1].last and ts[-1].card == "underground-joker"
    s = solo(ed)
    for card in order[:6]:
        s = flip(s, ed, card)
        s = s.apply(PASS)
    assert s.round == 1 and s.flipped == () and s.sheets[0].round_scores == (1,)  # departure alone: 1 x 1
    with pytest.raises(UsageError):
        turns(ed.book, order[:5])


def test_no_loops_no_section_twice_no_crossing(ed):
    s = flip(solo(ed), ed, "street-square")
    s = s.apply(("draw", "r2c3", "r1c3"))
    s = flip(s, ed, "street-triangle")
    # r1c3 -> back to r2c3 (a triangle) would revisit a station of the line
    assert all(v != "r2c3" for _, v in draws(s, ed))
    # crossing: every drawn section blocks the sections crossing it on the whole sheet
    board = ed.board
    drawn = board.section_between[frozenset(("r2c3", "r1c3"))].index
    for u, v in draws(s, ed):
        assert board.section_between[frozenset((u, v))].index not in board.crossing[drawn]


def test_later_lines_cannot_reuse_or_cross_earlier_sections(ed):
    s = solo(ed, ("green", "purple", "pink", "blue"))
    s = flip(s, ed, "street-triangle")
    s = s.apply(("draw", "r2c3", "r3c4"))  # green: r2c3 - r3c4
    for card in ("underground-circle", "underground-square", "underground-triangle", "underground-pentagon",
                 "underground-joker"):
        s = flip(s, ed, card)
        s = s.apply(PASS)
    assert s.round == 1 and s.sheets[0].lines[-1].pencil == "purple"
    s = flip(s, ed, "street-triangle")
    assert ("r5c2", "r3c4") in draws(s, ed)  # an interchange from round 2 on
    s = s.apply(("draw", "r5c2", "r3c4"))
    s = flip(s, ed, "street-joker")
    board = ed.board
    green = board.section_between[frozenset(("r2c3", "r3c4"))].index
    for u, v in draws(s, ed):
        idx = board.section_between[frozenset((u, v))].index
        assert idx != green and idx not in board.crossing[green]
    assert ("r3c4", "r2c3") not in draws(s, ed)


def test_pencils_pass_so_everyone_draws_each_colour_once(ed):
    for players in (1, 2, 3, 4):
        d = deal(ed, players, 5)
        for p in range(players):
            assert sorted(d.pencils[p]) == sorted(ALL)
        for r in range(4):
            assert len({d.pencils[p][r] for p in range(players)}) == players
    # 2 players sit at places 0 and 2 with a spare pencil on each one's left
    assert pencil_orders(ed.rules, 2, ALL) == (("green", "blue", "purple", "pink"), ("purple", "pink", "green", "blue"))


def test_round_score_is_a_product_plus_thames(ed):
    b = ed.board
    # r7c5 (south) - r4c5 (central) crosses the Thames: 2 districts x 1 + 2
    sec = b.section_between[frozenset(("r7c5", "r4c5"))]
    assert sec.thames
    sc = line_score(b, ed.book, ("r7c5", "r4c5"), (sec.index,))
    assert (sc.districts, sc.biggest, sc.thames, sc.points) == (2, 1, 1, 4)
    # three central stations and one south: 2 districts x 3 + one Thames section
    path = ("r7c5", "r4c5", "r4c4", "r3c4")
    secs = tuple(b.section_between[frozenset(p)].index for p in zip(path, path[1:]))
    assert line_score(b, ed.book, path, secs).points == 2 * 3 + 2


def test_tourist_track_and_interchanges(ed):
    b, book = ed.board, ed.book
    assert book.scores.tourist(7) == 14 and book.scores.tourist(12) == 25
    lines = [("r3c5", "r3c4"), ("r3c4", "r3c5"), ("r3c5", "r4c5"), ("r3c5", "r2c6")]
    secs = [(b.section_between[frozenset(l)].index,) for l in lines]
    fs = final_score(b, book, lines, secs)
    # r3c5 on 4 lines (9), r3c4 on 2 (2); the ? station is a tourist site on all 4 lines: 4 marks = 6
    assert fs.interchanges == (1, 0, 1) and fs.interchange_points == 11
    assert fs.tourist_marks == 4 and fs.tourist == 6
    assert fs.total == sum(fs.lines) + 6 + 11


def test_objectives_score_ten_each(ed):
    b, book = ed.board, ed.book
    central = [s.id for s in b.stations if s.district == "central"]
    fs = final_score(b, book, [tuple(central)], [()], book.objectives)
    assert fs.objectives == ("all-central-stations",) and fs.objective_points == 10
    s = new_game(ed, 2, 3, objectives=True)
    assert len(s.objectives) == 2 and s.objectives == new_game(ed, 2, 3, objectives=True).objectives


def test_illegal_actions_are_refused(ed):
    s = solo(ed)
    with pytest.raises(UsageError):
        s.apply(PASS)  # a card must be flipped first
    s = flip(s, ed, "street-square")
    with pytest.raises(UsageError):
        s.apply(("draw", "r2c3", "r0c1"))  # r0c1 is a triangle


def test_parse_flips(ed):
    assert parse_flips(ed.book, "s-circle, switch, u-circle,u-square,u-triangle,u-pentagon,u-joker")[1] == "street-switch"
    for bad, words in (("s-hexagon", "unknown Station card"), ("u-circle,u-circle", "twice"),
                       ("u-circle,u-square", "5th"), ("", "empty"), ("  ", "empty"),
                       ("u-circle,,u-square,u-triangle,u-pentagon,u-joker", "position 2"),
                       ("u-circle,u-square,u-triangle,u-pentagon,u-joker,", "position 6"),
                       ("u-circle,u-square,u-triangle,u-pentagon,u-joker,s-circle", "street-circle is never")):
        with pytest.raises(UsageError, match=words):
            parse_flips(ed.book, bad)
    with pytest.raises(UsageError, match="street-circle, street-switch are never flipped"):
        parse_flips(ed.book, "u-circle,u-square,u-triangle,u-pentagon,u-joker,s-circle,switch")


def play_random(ed, players, seed):
    s, actions, rng = new_game(ed, players, seed), [], random.Random(seed)
    while not s.is_terminal():
        chance = s.current_player() == CHANCE
        legal = [a for a, _ in s.chance_outcomes()] if chance else s.legal_actions()
        assert legal and (s.legal_actions() == [] if chance else s.chance_outcomes() == [])
        a = s.dealt_outcome() if chance else rng.choice(legal)
        assert a in legal
        actions.append(a)
        s = s.apply(a)
    return s, actions


def test_random_games_never_get_stuck_and_end_after_four_rounds(ed):
    for seed in range(12):
        s, _ = play_random(ed, 1 + seed % 4, seed)
        assert s.is_terminal() and s.legal_actions() == []
        for sheet in s.sheets:
            assert len(sheet.round_scores) == 4 and len(sheet.lines) == 4
            assert len(set(sheet.drawn)) == sum(len(l.sections) for l in sheet.lines)  # no section twice
            drawn = sheet.drawn
            assert not any(j in drawn for i in drawn for j in ed.board.crossing[i])
        assert all(r > 0 for r in s.returns())


def test_replay_gives_the_same_log(ed):
    s, actions = play_random(ed, 3, 7)
    t = new_game(ed, 3, 7)
    for a in actions:
        t = t.apply(a)
    assert t == s and t.log == s.log
