"""The advanced modules, Shared Objectives and Pencil Powers, as played, printed, bot-played and
simulated: a test per rule, the printed texts against the engine, replays, the bots and the
``simulate nextstation --objectives --powers`` records and summary."""

from __future__ import annotations

import json
import random

import pytest

from tubedeck.games.nextstation.edition import Deal, load
from tubedeck.games.nextstation.play import CHANCE, PASS, Line, Sheet, State, drawn_objectives, new_game
from tubedeck.games.nextstation.powers import deal_powers
from tubedeck.games.nextstation.records import SIMULATE
from tubedeck.games.nextstation.scoring import final_score, line_score, objective_reached
from tubedeck.play import replay
from tubedeck.solver.nextstation.players import PLAYERS, Goals, _best_now, _context, greedy_player, power_moves
from tubedeck.solver.nextstation.simulate import PLAYING, modules
from tubedeck.solver.simulation import bot_for, play

from conftest import run_cli as run

POWERS = {"joker", "railroad-switch", "double-section", "double-station"}  # what the engine plays


@pytest.fixture(scope="module")
def ed():
    return load(None)


def solo(ed, power, pencil="green"):
    pencils = (pencil,) + tuple(p for p in ed.rules.pencils if p != pencil)
    d = Deal(0, 1, (pencils,), tuple(tuple(c.id for c in ed.cards) for _ in range(4)))
    sheet = Sheet((Line(pencil, (ed.board.departure(pencil).id,), ()),))
    return State(ed, 1, d, (sheet,), powers=((pencil, power),), used=(False,))


def until_drawn(s):
    while s.current_player() == CHANCE:
        s = s.apply(s.dealt_outcome())
    return s


def finish(s, bot=greedy_player, rng=None):
    rng = rng or random.Random(0)
    while not s.is_terminal():
        s = s.apply(s.dealt_outcome() if s.current_player() == CHANCE else bot(s, rng))
    return s


# -- the card counts and the printed texts against the engine -----------------------------------
def test_card_counts_and_the_printed_figures(ed):
    book = ed.book
    assert len(book.objectives) == 5 and ed.rules.objectives_drawn == 2 and ed.rules.objective_points == 10
    assert {p.id for p in book.powers} == POWERS and len(book.powers) == len(ed.rules.pencils) == 4
    assert book.texts["objective_title"] == "Shared Objective: +10"
    card = " ".join(book.texts["rules_card"])
    assert "lay 2 face up" in card and "+10 for it" in card and "Once a round" in card
    assert "once a round" in book.texts["power_title"]


def test_each_objective_prints_the_threshold_the_engine_counts(ed):
    board, objs = ed.board, {o.id: o for o in ed.book.objectives}
    for o in objs.values():
        assert str(o.threshold) in o.text, o.id
    assert objs["all-districts"].threshold == len(board.districts) == 13
    assert objs["all-tourist-sites"].threshold == sum(s.tourist for s in board.stations)
    assert objs["all-central-stations"].threshold == sum(s.district == "central" for s in board.stations)
    assert {o.measure for o in objs.values()} == {"interchanges", "districts", "tourist-sites", "central-stations",
                                                   "thames"}


def test_each_power_card_text_says_what_the_engine_does(ed):
    text = {p.id: p.text for p in ed.book.powers}
    assert "Joker" in text["joker"] and "Railroad Switch" in text["railroad-switch"]
    assert "second section" in text["double-section"] and "same symbol" in text["double-section"]
    assert "counts twice" in text["double-station"]


# -- Shared Objectives ----------------------------------------------------------------------------
def _just(ed, oid):
    """Lines (stations, sections) meeting the objective exactly, and the same one short."""
    board = ed.board
    st = [s.id for s in board.stations]
    if oid == "eight-interchanges":
        return ([tuple(st[:8])] * 2, [()] * 2), ([tuple(st[:8]), tuple(st[:7])], [()] * 2)
    if oid == "all-districts":
        one = [next(s.id for s in board.stations if s.district == d.id) for d in board.districts]
        return ([tuple(one)], [()]), ([tuple(one[:-1])], [()])
    if oid == "all-tourist-sites":
        t = [s.id for s in board.stations if s.tourist]
        return ([tuple(t)], [()]), ([tuple(t[:-1])], [()])
    if oid == "all-central-stations":
        c = [s.id for s in board.stations if s.district == "central"]
        return ([tuple(c)], [()]), ([tuple(c[:-1])], [()])
    th = tuple(sec.index for sec in board.sections if sec.thames)
    assert len(th) >= 6
    return ([("x",)], [th[:6]]), ([("x",)], [th[:5]])


@pytest.mark.parametrize("oid", ["eight-interchanges", "all-districts", "all-tourist-sites", "all-central-stations",
                                 "six-thames"])
def test_each_objective_is_met_at_its_threshold_and_not_below(ed, oid):
    obj = next(o for o in ed.book.objectives if o.id == oid)
    (lines, secs), (short, short_secs) = _just(ed, oid)
    lines = [tuple(s for s in l if s != "x") or (ed.board.stations[0].id,) for l in lines]
    short = [tuple(s for s in l if s != "x") or (ed.board.stations[0].id,) for l in short]
    assert objective_reached(obj, ed.board, lines, secs)
    assert not objective_reached(obj, ed.board, short, short_secs)


def test_each_objective_met_scores_plus_10_on_the_pad(ed):
    board, book = ed.board, ed.book
    objs = tuple(o for o in book.objectives if o.id in ("all-tourist-sites", "all-central-stations"))
    sites = tuple(s.id for s in board.stations if s.tourist or s.district == "central")
    both = final_score(board, book, [sites], [()], objs)
    assert both.objectives == tuple(o.id for o in objs) and both.objective_points == 20
    assert both.total == sum(both.lines) + both.tourist + both.interchange_points + 20
    plain = final_score(board, book, [sites], [()])
    assert both.total - plain.total == 2 * ed.rules.objective_points


def test_the_seeded_game_lays_2_objectives_and_each_player_scores_them_apart(ed):
    s = new_game(ed, 2, 11, objectives=True)
    assert len(s.objectives) == 2 and s.objectives == tuple(o.id for o in drawn_objectives(ed, 11))
    assert new_game(ed, 2, 11).objectives == ()
    end = finish(s)
    for p in range(2):
        f = end.final(p)
        mine = [o for o in ed.book.objectives if o.id in s.objectives]
        lines = [l.stations for l in end.sheets[p].lines]
        secs = [l.sections for l in end.sheets[p].lines]
        assert f.objectives == tuple(o.id for o in mine if objective_reached(o, ed.board, lines, secs))
        assert f.objective_points == 10 * len(f.objectives)


# -- Pencil Powers --------------------------------------------------------------------------------
def test_a_power_per_pencil_stays_with_it_all_game(ed):
    s = new_game(ed, 2, 3, powers=True)
    assert dict(s.powers).keys() == set(ed.rules.pencils) and set(dict(s.powers).values()) == POWERS
    assert s.powers == deal_powers(ed.book, 3) == new_game(ed, 2, 3, powers=True).powers
    assert new_game(ed, 2, 3).powers == () and new_game(ed, 2, 3).power(0) is None
    seen = set()
    while not s.is_terminal():
        if s.current_player() >= 0:
            for p in range(2):
                assert s.power(p) == dict(s.powers)[s.sheets[p].lines[-1].pencil]
                seen.add(s.power(p))
        s = s.apply(s.dealt_outcome() if s.current_player() == CHANCE else greedy_player(s))
    assert seen == POWERS  # over 4 rounds each seat holds each pencil


def test_a_power_once_a_round_then_again_next_round(ed):
    s = until_drawn(solo(ed, "joker"))
    use = next(a for a in s.legal_actions() if len(a) == 4)
    s = s.apply(use)
    assert s.used == (True,)
    r = s.round
    while s.round == r:
        s = s.apply(s.dealt_outcome()) if s.current_player() == CHANCE else s.apply(PASS)
        if s.round == r and s.current_player() == 0:
            assert not any(len(a) == 4 for a in s.legal_actions())
    assert s.used == (False,)


def test_joker_power_adds_only_what_the_card_does_not_allow(ed):
    s = solo(ed, "joker").apply(("flip", "street-square"))
    board = ed.board
    plain = [a for a in s.legal_actions() if a[0] == "draw" and len(a) == 3]
    power = [a for a in s.legal_actions() if len(a) == 4]
    assert all(board.matches(a[2], "square") for a in plain)
    assert power and all(not board.matches(a[2], "square") for a in power)
    assert not set(a[:3] for a in power) & set(plain)


def test_switch_power_starts_from_inside_the_line(ed):
    s = solo(ed, "railroad-switch").apply(("flip", "street-square"))
    s = s.apply(("draw", "r2c3", "r2c6")).apply(("flip", "street-joker")).apply(("draw", "r2c6", "r1c6"))
    s = s.apply(("flip", "underground-joker"))
    inner = [a for a in s.legal_actions() if len(a) == 4]
    assert inner and all(a[3] == "railroad-switch" and a[1] == "r2c6" for a in inner)  # the middle station
    s = s.apply(inner[0])
    assert s.used == (True,) and len(s.sheets[0].lines[-1].sections) == 3


def test_double_section_both_reach_the_flipped_symbol(ed):
    board = ed.board
    s = solo(ed, "double-section").apply(("flip", "street-circle"))
    pairs = [a for a in s.legal_actions() if a[0] == "draw2"]
    assert pairs
    for a in pairs:
        assert board.matches(a[2], "circle") and board.matches(a[4], "circle")
        assert a[3] in (a[1], a[2])  # from an end of the line as it stands after the first
    s2 = s.apply(pairs[0])
    line = s2.sheets[0].lines[-1]
    assert line.stations[1:] == (pairs[0][2], pairs[0][4]) and s2.used == (True,)
    assert "Pencil Power: a second section" in s.describe(pairs[0])


def test_double_station_scores_districts_x_most_plus_one(ed):
    s = finish(new_game(ed, 1, 8, powers=True))
    held = dict(s.powers)
    for line, points in zip(s.sheets[0].lines, s.sheets[0].round_scores):
        sc = line_score(ed.board, ed.book, line.stations, line.sections)
        twice = held[line.pencil] == "double-station"  # D x (M + 1) + Thames, else D x M + Thames
        assert points == sc.points + (sc.districts if twice else 0)
    assert modules(s)["power_points"] == [sum(
        line_score(ed.board, ed.book, l.stations, l.sections).districts
        for l in s.sheets[0].lines if held[l.pencil] == "double-station")]


# -- replays, bots ---------------------------------------------------------------------------------
def test_a_game_with_both_modules_replays_from_its_log(ed):
    played = play(PLAYING, ed, 3, 21, ("greedy", "lookahead", "random"), objectives=True, powers=True)
    start = new_game(ed, 3, 21, objectives=True, powers=True)
    again = replay(start, [a for _, a in played.state.log])
    assert again == played.state and again.returns() == played.state.returns()
    assert any(a[0] == "draw2" or len(a) == 4 for _, a in played.state.log)  # powers were used


@pytest.mark.parametrize("name", sorted(PLAYERS) + ["mcts:8"])
def test_every_bot_is_legal_and_seeded_with_both_modules(ed, name):
    bot = bot_for(PLAYING, name)
    uses = 0
    s = new_game(ed, 2, 5, objectives=True, powers=True)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s = s.apply(s.dealt_outcome())
            continue
        a = bot(s, random.Random(3))
        assert a in s.legal_actions() and a == bot(s, random.Random(3)), name
        uses += a[0] == "draw2" or len(a) == 4
        s = s.apply(a)
    if name != "random":
        assert uses, name  # the power uses are among what each bot weighs


def test_greedy_uses_a_power_only_when_it_beats_every_plain_draw(ed):
    s = new_game(ed, 1, 2, objectives=True, powers=True)
    checked = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s = s.apply(s.dealt_outcome())
            continue
        ctx, line, drawn, power = _context(s)
        plain, _ = _best_now(ctx, line, drawn, s.drawing, None)
        a = greedy_player(s)
        if a[0] == "draw2" or len(a) == 4:
            after = next(nl for act, nl, _ in power_moves(ed.board, line, drawn, s.drawing, power) if act == a)
            assert ctx.value(after) > plain
            checked += 1
        s = s.apply(a)
    assert checked


def test_the_bots_objective_count_is_the_pads(ed):
    rng = random.Random(4)
    for seed in range(4):
        s = new_game(ed, 1, seed, objectives=True)
        objs = [o for o in ed.book.objectives if o.id in s.objectives]
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s = s.apply(s.dealt_outcome())
                continue
            sheet = s.sheets[0]
            goals = Goals.of(s, sheet.lines[:-1])
            assert goals is not None
            lines = [l.stations for l in sheet.lines]
            secs = [l.sections for l in sheet.lines]
            assert goals.met(ed.board, sheet.lines[-1]) == sum(objective_reached(o, ed.board, lines, secs)
                                                               for o in objs)
            s = s.apply(rng.choice(s.legal_actions()))


def test_the_modules_raise_the_bots_scores(ed):
    for name in ("greedy", "lookahead"):
        plain = sum(play(PLAYING, ed, 1, seed, (name,)).state.final(0).total for seed in range(4))
        both = sum(play(PLAYING, ed, 1, seed, (name,), objectives=True, powers=True).state.final(0).total
                   for seed in range(4))
        assert both > plain, name


# -- records and the command line ----------------------------------------------------------------
def test_records_hold_each_modules_part_per_seat(ed):
    rec = PLAYING.measure(play(PLAYING, ed, 2, 6, ("greedy", "lookahead"), objectives=True, powers=True), ed,
                          objectives=True, powers=True)
    assert SIMULATE.validate(rec, 2) is None and SIMULATE.version == 6
    assert len(rec["objectives"]) == 2 and all(len(o) == 2 for o in rec["objectives"])
    assert rec["objective_points"] == [10 * sum(o.values()) for o in rec["objectives"]]
    assert all(set(u) == POWERS and sum(u.values()) <= 4 and u["double-station"] == 1 for u in rec["powers_used"])
    off = PLAYING.measure(play(PLAYING, ed, 2, 6, ("greedy", "greedy")), ed)
    assert off["objectives"] is off["objective_points"] is off["powers_used"] is off["power_points"] is None
    for bad in ({"objective_points": None}, {"objective_points": [10, 0, 0]}, {"powers_used": None},
                {"powers_used": [{"joker": 5}, {"joker": 0}]}, {"power_points": [999, 0]},
                {"objectives": [{}, {}]}, {"objective_points": [0, 0]} if any(rec["objective_points"]) else
                {"objective_points": [10, 10]}):
        assert SIMULATE.validate({**rec, **bad}, 2), bad


def test_simulate_with_both_modules_reports_each(capsys, tmp_path):
    out_file = tmp_path / "r.jsonl"
    code, out, err = run(capsys, "simulate", "nextstation", "--games", "3", "--players", "1", "--bots", "greedy",
                         "--objectives", "--powers", "--results", str(out_file), "--no-progress", "--json")
    assert code == 0, err
    m = json.loads(out)["modules"]
    assert set(m) == {"mean", "objectives", "powers"}
    assert m["objectives"]["mean_without"] < m["mean"] or m["objectives"]["mean_points"] == 0
    assert set(m["powers"]["used"]) == POWERS and m["powers"]["used"]["double-station"] == 1.0
    head, *records = [json.loads(l) for l in out_file.read_text().splitlines()]
    assert head["version"] == 6 and head["objectives"] is True and head["powers"] is True
    assert all(r["objectives"] is not None and r["powers_used"] is not None for r in records)
    code, out, err = run(capsys, "simulate", "nextstation", "--games", "2", "--players", "1", "--powers",
                         "--results", str(tmp_path / "p.jsonl"), "--no-progress")
    assert code == 0, err
    assert "Pencil Powers:" in out and "used (of the rounds held)" in out and "Shared Objectives" not in out
    code, _, err = run(capsys, "simulate", "nextstation", "--games", "1", "--players", "1", "--optimum", "--powers",
                       "--results", str(tmp_path / "o.jsonl"), "--no-progress")
    assert code == 2 and "--powers" in err
