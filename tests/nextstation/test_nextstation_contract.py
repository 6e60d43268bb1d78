"""Next Station on the play contract (:mod:`tubedeck.play`): the State protocol, moves in a
player's words (card names, the sheet coordinate D8, a generated map's station names), replays,
and declared records that every run's record passes."""

from __future__ import annotations

import json
import random
import re

import pytest

from tubedeck.errors import UsageError
from tubedeck.games import record_schema
from tubedeck.games.nextstation.edition import Deal, load
from tubedeck.games.nextstation.play import CHANCE, PASS, TERMINAL, Line, Sheet, State, new_game
from tubedeck.games.nextstation.records import SIMULATE
from tubedeck.play import Played, chance_outcome, play_game, replay
from tubedeck.solver.nextstation.simulate import PLAYING, play_one, simulation
from tubedeck.solver.simulation import play

ID = re.compile(r"\br\d+c\d+\b")  # a station's data id: never in words


@pytest.fixture(scope="module")
def ed():
    return load(None)


@pytest.fixture(scope="module")
def gen():
    from tubedeck.game import network

    return load(network(None), map="2")


def solo(ed, power=None, pencil="green"):
    pencils = (pencil,) + tuple(p for p in ed.rules.pencils if p != pencil)
    d = Deal(0, 1, (pencils,), tuple(tuple(c.id for c in ed.cards) for _ in range(4)))
    sheet = Sheet((Line(pencil, (ed.board.departure(pencil).id,), ()),))
    return State(ed, 1, d, (sheet,), powers=((pencil, power),) if power else (), used=(False,))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_record_a_run_writes_passes_the_declaration(ed, players):
    bots = ("greedy", "random", "random", "greedy")[:players]
    for seed in range(200):
        variant = {"objectives": seed % 3 == 1, "powers": seed % 4 == 2}
        record = PLAYING.measure(play(PLAYING, ed, players, seed, bots, **variant), ed, **variant)
        assert SIMULATE.validate(record, players) is None, (seed, record)
        assert json.loads(json.dumps(record)) == record


def test_the_declaration_refuses_what_no_game_writes(ed):
    good = PLAYING.measure(play(PLAYING, ed, 2, 5, ("greedy", "random")), ed)
    assert SIMULATE.validate(good, 2) is None
    for bad in ({"scores": [1000, 3]}, {"scores": [1]}, {"winners": [3]}, {"lines": [[1, 2]]},
                {"lines": [[500, 500], [0]]}, {"lines": [[1, 2, 3, 4, 5], [0]]},
                {"optimum": {"status": "OPTIMAL", "score": 100, "bound": 100}},  # 2 players: no optimum
                {"optimum": "fine"}):
        assert SIMULATE.validate({**good, **bad}, 2), bad
    solo_record = PLAYING.measure(play(PLAYING, ed, 1, 5, ("greedy",)), ed)
    for bad in ({"status": "UNKNOWN", "score": 100, "bound": 120}, {"status": "FEASIBLE", "score": 100, "bound": 90},
                {"status": "DONE", "score": 1, "bound": 1}):
        assert SIMULATE.validate({**solo_record, "optimum": bad}, 1), bad
    assert SIMULATE.validate({**solo_record, "optimum": {"status": "FEASIBLE", "score": 150, "bound": 200}}, 1) is None


def test_old_results_files_are_refused_with_a_word_to_re_run(ed):
    sim = simulation(ed, 1, bots="greedy")
    header = sim.header()
    assert header["version"] == SIMULATE.version and record_schema(header) is SIMULATE
    with pytest.raises(UsageError, match="re-run"):
        record_schema({**header, "version": 3})


def test_the_state_protocol(ed):
    s = new_game(ed, 2, 9)
    assert s.current_player() == CHANCE and s.legal_actions() == []
    outcomes = s.chance_outcomes()
    assert len(outcomes) == len(ed.cards) and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert s.dealt_outcome() == ("flip", s.deal.flips[0][0])
    s = s.apply(s.dealt_outcome())
    if s.current_player() == 0:  # (a Switch first: the next card at once)
        assert s.chance_outcomes() == [] and s.dealt_outcome() is None and PASS in s.legal_actions()
    with pytest.raises(UsageError):
        new_game(ed, 2, 9).apply(PASS)  # a card is flipped first
    end = play_game(new_game(ed, 2, 9), [PLAYING.game.bot("random")] * 2, 9).state
    assert end.current_player() == TERMINAL and end.legal_actions() == [] and end.chance_outcomes() == []
    assert end.dealt_outcome() is None and all(r > 0 for r in end.returns())


def test_seeded_flips_are_the_deals_own(ed):
    """A seeded game flips its deal's cards in their order (so stored answers replay as before)."""
    played = play_game(new_game(ed, 3, 11), [PLAYING.game.bot("greedy")] * 3, 11, words=True)
    flips: dict[int, list[str]] = {}
    for m in played.moves:
        if m.seat == CHANCE:
            flips.setdefault(int(m.clock.split()[1].rstrip(",")), []).append(m.action[1])
    assert sorted(flips) == [1, 2, 3, 4]
    for r, cards in flips.items():
        assert tuple(cards) == played.state.deal.flips[r - 1][:len(cards)] and len(cards) >= 5


def test_chance_outcome_takes_the_deal(ed):
    s = new_game(ed, 1, 4)
    assert chance_outcome(s, random.Random(0)) == s.dealt_outcome()


def test_a_logged_game_replays_to_an_equal_state(ed):
    for players, seed in ((1, 3), (2, 8), (4, 1)):
        bots = [PLAYING.game.bot(b) for b in ("greedy", "random", "lookahead", "random")[:players]]
        start = new_game(ed, players, seed, objectives=True, powers=seed % 2 == 0)
        played = play_game(start, bots, seed)
        again = replay(start, [m.action for m in played.moves])
        assert again == played.state and again.log == played.state.log
        assert again.returns() == played.state.returns()


def test_the_same_seed_plays_the_same_game(ed):
    a = play(PLAYING, ed, 2, 6, ("random", "random"))
    b = play(PLAYING, ed, 2, 6, ("random", "random"))
    assert a.moves == b.moves and isinstance(a, Played)


# -- words -------------------------------------------------------------------------------------
def test_flips_are_said_by_the_cards_printed_names(ed):
    s = solo(ed)
    assert s.describe(("flip", "underground-circle")) == "flips the Circle card (Underground)"
    assert s.describe(("flip", "street-joker")) == "flips the Joker card (Street)"
    assert s.describe(("flip", "street-switch")) == "flips the Railroad Switch card (Street)"
    assert s.clock() == "round 1, card 1"
    s = s.apply(("flip", "street-square"))
    assert s.clock() == "round 1, card 1"  # the seats draw for the card just flipped
    assert s.describe(PASS) == "passes"


def test_draws_are_said_by_the_sheet_coordinates(ed):
    s = solo(ed).apply(("flip", "street-square"))
    assert s.describe(("draw", "r2c3", "r2c6")) == "draws C4 - C7"
    assert ed.board.coordinate("r3c7") == "D8"


def test_a_generated_map_names_its_stations_after_the_coordinates(gen):
    board = gen.board
    s = new_game(gen, 1, 2)
    while s.current_player() == CHANCE:
        s = s.apply(s.dealt_outcome())
    u, v = next(a[1:] for a in s.legal_actions() if a[0] == "draw")
    words = s.describe(("draw", u, v))
    assert words == f"draws {board.coordinate(u)} {board.by_id[u].name} - {board.coordinate(v)} {board.by_id[v].name}"
    assert board.by_id[u].name and not ID.search(words)


def test_pencil_powers_are_said_in_words(ed):
    s = solo(ed, "joker").apply(("flip", "street-square"))
    joker = next(a for a in s.legal_actions() if len(a) == 4)
    assert s.describe(joker).endswith(", the card played as a Joker (Pencil Power)")
    s = solo(ed, "double-section").apply(("flip", "street-joker"))
    pair = next(a for a in s.legal_actions() if a[0] == "draw2")
    words = s.describe(pair)
    assert words.startswith("draws C4 - ") and " and " in words and words.endswith("(Pencil Power: a second section)")
    s = solo(ed, "railroad-switch").apply(("flip", "street-square"))
    s = s.apply(("draw", "r2c3", "r2c6")).apply(("flip", "street-joker"))
    s = s.apply(("draw", "r2c6", "r1c6")).apply(("flip", "underground-joker"))
    switch = next(a for a in s.legal_actions() if len(a) == 4)
    assert "as if a Railroad Switch came with the card (Pencil Power)" in s.describe(switch)
    assert not any(ID.search(s.describe(a)) for a in s.legal_actions())


def test_play_logs_every_move_in_words_and_the_final_sheets_by_coordinate(ed, gen):
    for edition in (ed, gen):
        r = play_one(edition, players=2, seed=1, bots="greedy,random", powers=True)
        text = "\n".join(r.describe())
        assert not ID.search(text), ID.search(text)
        assert "round 1, card 1:" in text and "flips the " in text and "final position:" in text
        assert re.search(r"player 1: lines \d+ \+ \d+ \+ \d+ \+ \d+, tourist \d+", text)
        d = r.as_dict()
        stations = [st for sheet in d["position"]["sheets"] for line in sheet["lines"] for st in line["stations"]]
        assert stations and all(st["at"] == edition.board.coordinate(st["id"]) for st in stations)
        assert all(m["words"] and not ID.search(m["words"]) for m in d["log"])


def test_the_observation_shows_the_table_but_not_the_order_of_the_cards_to_come(ed):
    s = new_game(ed, 3, 2, objectives=True, powers=True)
    for _ in range(3):
        s = s.apply(s.dealt_outcome() if s.current_player() == CHANCE else PASS)
    views = [s.observation(p) for p in range(3)]
    assert all({k: v for k, v in o.items() if k != "seat"} == {k: v for k, v in views[0].items() if k != "seat"}
               for o in views)
    o = views[0]
    assert json.loads(json.dumps(o)) == o
    assert o["face_down"] == sorted(o["face_down"]) and set(o["face_down"]) | set(o["flipped"]) == {c.id for c in ed.cards}
    assert len(o["sheets"]) == 3 and len(o["objectives"]) == 2 and len(o["powers"]) == 4
    other = new_game(ed, 3, 2, objectives=True, powers=True)  # another order of the same cards face down
    other = State(ed, 3, Deal(2, 3, other.deal.pencils, tuple(tuple(reversed(f)) for f in other.deal.flips)),
                  other.sheets, objectives=other.objectives, powers=other.powers, used=other.used)
    assert other.observation(0)["face_down"] == sorted(c.id for c in ed.cards)
    with pytest.raises(ValueError):
        s.observation(3)


def test_solve_json_puts_the_sheet_coordinate_beside_every_station(ed):
    from tubedeck.solver.nextstation.solve import solve_round

    d = solve_round(ed, seed=1, round=2, engine="auto").as_dict()
    spots = [d["departure"], *d["stations"], *(x for m in d["draws"] for x in (m["from"], m["to"]))]
    assert len(spots) > 3 and all(s["at"] == ed.board.coordinate(s["id"]) for s in spots)
