"""Pencil Powers (advanced module): each adds only what the card alone does not allow, once a round."""

from __future__ import annotations

import random

import pytest

from tubedeck.games.nextstation.edition import Deal, load
from tubedeck.games.nextstation.play import CHANCE, PASS, Line, Sheet, State, new_game


@pytest.fixture(scope="module")
def ed():
    return load(None)


def solo(ed, power, pencil="green"):
    pencils = (pencil,) + tuple(p for p in ed.rules.pencils if p != pencil)
    flips = tuple(tuple(c.id for c in ed.cards) for _ in range(4))
    d = Deal(0, 1, (pencils,), flips)
    sheet = Sheet((Line(pencil, (ed.board.departure(pencil).id,), ()),))
    return State(ed, 1, d, (sheet,), powers=((pencil, power),), used=(False,))


def test_joker_power_reaches_any_symbol_once_a_round(ed):
    s = solo(ed, "joker").apply(("flip", "street-square"))
    extra = [a for a in s.legal_actions() if len(a) == 4]
    assert extra and all(a[3] == "joker" for a in extra)
    assert ("draw", "r2c3", "r3c4", "joker") in extra  # a triangle on a Square card
    s = s.apply(("draw", "r2c3", "r3c4", "joker")).apply(("flip", "street-circle"))
    assert not any(len(a) == 4 for a in s.legal_actions())  # used this round


def test_switch_power_and_double_section(ed):
    s = solo(ed, "railroad-switch").apply(("flip", "street-square"))
    s = s.apply(("draw", "r2c3", "r2c6")).apply(("flip", "street-joker"))
    s = s.apply(("draw", "r2c6", "r1c6")).apply(("flip", "underground-joker"))
    assert any(a[:2] == ("draw", "r2c6") and a[3:] == ("railroad-switch",) for a in s.legal_actions())
    s = solo(ed, "double-section").apply(("flip", "street-joker"))
    pairs = [a for a in s.legal_actions() if a[0] == "draw2"]
    board = ed.board
    assert pairs and all(board.matches(a[4], board.by_id[a[2]].symbol) or board.by_id[a[2]].symbol == "question-mark"
                         for a in pairs)  # after a Joker both reach the same symbol
    s = s.apply(pairs[0])
    assert len(s.sheets[0].lines[-1].sections) == 2 and s.used == (True,)


def test_double_station_counts_the_biggest_district_once_more(ed):
    s = solo(ed, "double-station")
    for card in ("underground-circle", "underground-square", "underground-triangle", "underground-pentagon",
                 "underground-joker"):
        s = s.apply(("flip", card)).apply(PASS)
    assert s.sheets[0].round_scores == (2,)  # 1 district x (1 + 1)


def test_games_with_powers_and_objectives_never_get_stuck(ed):
    for seed in range(3):
        s, rng = new_game(ed, 3, seed, objectives=True, powers=True), random.Random(seed)
        while not s.is_terminal():
            s = s.apply(s.dealt_outcome() if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
        for p in range(3):
            f = s.final(p)
            assert f.lines == s.sheets[p].round_scores and f.total == sum(f.lines) + f.tourist + \
                f.interchange_points + f.objective_points
