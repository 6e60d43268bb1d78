"""Tube Dice's rules engine: one test per rule (and per decision), replay, never stuck."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.dice.edition import load
from tubedeck.games.dice.play import SKIP, Sheet, State, blank_sheet, new_game, use, uses
from tubedeck.network import Network
from tubedeck.play import CHANCE, play_game, replay
from tubedeck.solver.dice.players import PLAYERS


@pytest.fixture(scope="module")
def ed():
    return load(Network.load())


def rolled(ed, players=2, dice=(1, 2, 3, 4, 5), seed=0) -> State:
    return new_game(ed, players, seed).apply(("roll", dice))


def first_use(ed, sheet: Sheet, sections: int, number: int = 3) -> Sheet:
    return use(ed.board, sheet, ed.board.star, number, sections, 0)


def test_first_use_only_on_the_star(ed):
    s = rolled(ed)
    assert s.to_move == 0 and s.phase == "keep"
    assert {a[1] for a in s.legal_actions()} == {SKIP, ed.board.star}


def test_the_active_player_keeps_two_and_the_others_use_two_of_the_other_three(ed):
    s = rolled(ed, players=3, dice=(6, 6, 1, 2, 3))
    s = dataclasses.replace(s, sheets=tuple(blank_sheet(ed.board, 0) for _ in range(3)))
    keep_66 = next(a for a in s.legal_actions() if a[0] == (0, 1) and a[1] == SKIP)
    after = s.apply(keep_66)
    assert after.left == (1, 2, 3) and after.phase == "use" and after.to_move == 1
    # the others use any 2 of 1, 2, 3 (one as station, one as connections), never a kept 6
    sections_at_star = {k for _, k, _ in ed.board.masks.at[ed.board.star]}
    got = {(a[2], a[3]) for a in after.legal_actions() if a[1] != SKIP}
    assert got == {(n, k) for n in (1, 2, 3) for k in (1, 2, 3) if n != k and k in sections_at_star}
    after2 = after.apply(after.legal_actions()[0])
    assert after2.to_move == 2 and after2.left == (1, 2, 3)


def test_empty_station_needs_a_marked_connection_to_it(ed):
    b = ed.board
    k = b.masks.at[b.star][0][1]
    sheet = first_use(ed, blank_sheet(b, 0), k)
    marked_ends = {o for c, kk, o in b.masks.at[b.star] if kk == k}
    every_die = (1, 2, 3, 4, 5, 6)
    stations = {s for (s, n, kk) in uses(b, sheet, every_die)}
    assert stations == {b.star} | marked_ends  # neighbours over unmarked connections are not open


def test_existing_station_only_with_its_own_number(ed):
    b = ed.board
    k = b.masks.at[b.star][0][1]
    sheet = first_use(ed, blank_sheet(b, 0), k, number=4)
    assert (b.star, 4, k) in uses(b, sheet, (4, k))
    assert all(n == 4 for (s, n, _) in uses(b, sheet, (1, 2, 3, 4, 5, 6)) if s == b.star)
    assert not any(s == b.star for (s, _, _) in uses(b, sheet, (5, 5)))
    assert sheet.nums[b.star] == 4 and use(b, sheet, b.star, 4, k, 0).nums == sheet.nums


def test_every_connection_with_exactly_that_many_sections_is_marked(ed):
    b = ed.board
    at = b.masks.at[b.star]
    k = at[0][1]
    sheet = first_use(ed, blank_sheet(b, 0), k)
    for c, kk, _ in at:
        assert bool(sheet.marked >> c & 1) == (kk == k)
    assert sheet.marked.bit_count() == sum(1 for _, kk, _ in at if kk == k)


def test_both_actions_must_be_possible(ed):
    b = ed.board
    present = {k for _, k, _ in b.masks.at[b.star]}
    missing = [k for k in range(1, 7) if k not in present]
    assert missing, "the star has every section count; pick another test station"
    sheet = blank_sheet(b, 0)
    assert not any(kk == missing[0] for (_, _, kk) in uses(b, sheet, (missing[0], missing[0])))


def test_passes_change_a_die_by_one_each_never_past_1_or_6(ed):
    b = ed.board
    present = sorted({k for _, k, _ in b.masks.at[b.star]})
    k = present[0]
    far = 6 if k <= 3 else 1
    for passes in range(0, 6):
        sheet = blank_sheet(b, passes)
        found = uses(b, sheet, (far, far))
        ok = {(n, kk): cost for (s, n, kk), cost in found.items() if kk == k}
        if abs(far - k) <= passes:
            assert ok and min(ok.values()) == abs(far - k)
        else:
            assert not ok
    # no wrap: a 6 never becomes a 1 with one pass
    found = uses(b, blank_sheet(b, 1), (6, 6))
    assert all(n >= 5 and kk >= 5 for (_, n, kk) in found)
    # the passes spent come off the sheet
    s = rolled(ed, players=1, dice=(far, far, far, far, far))
    s = dataclasses.replace(s, sheets=(blank_sheet(b, 5),))
    a = next(a for a in s.legal_actions() if a[1] != SKIP and a[3] == k)
    assert s.apply(a).sheets[0].passes == 5 - abs(far - k) - abs(far - a[2])


def _complete_but_one(ed, line: int) -> tuple[Sheet, tuple]:
    """A sheet where line ``line`` lacks only its last station's number (and that station's use)."""
    b = ed.board
    m = b.masks
    info = b.lines[line]
    last = info.stations[-1]
    nums = [0] * len(b.stations)
    for s in info.stations:
        if s != last:
            nums[s] = 1
    filled = sum(1 << s for s in info.stations if s != last)
    marked = m.line_connections[line]
    sheet = Sheet(tuple(nums), filled, marked, 0, 0, 0, 0)
    k = m.at[last][0][1]
    return sheet, (last, 2, k)


def test_line_completion_high_first_ties_share_then_low(ed):
    line = 0
    sheet, (s, n, k) = _complete_but_one(ed, line)
    st = rolled(ed, players=3, dice=(n, k, n, k, 6))
    st = dataclasses.replace(st, sheets=(sheet, sheet, blank_sheet(ed.board, 0)))
    a = ((0, 1), s, n, k)
    st = st.apply(a)
    st = st.apply(((), s, n, k))
    st = st.apply(((), SKIP, 0, 0))
    high, low = ed.lines[line].high, ed.lines[line].low
    zone_pts = sum(z.high for z, zz in zip(ed.zones, range(len(ed.zones))) if st.sheets[0].zones >> zz & 1)
    assert st.sheets[0].points - zone_pts == high and st.sheets[1].points - zone_pts == high  # ties share
    assert st.claimed[0] & 1
    # a later completion scores low: next roll, player 2 rolls, player 3 completes the line
    later = dataclasses.replace(st, sheets=(st.sheets[0], st.sheets[1], sheet))
    later = later.apply(("roll", (n, k, 6, n, k)))
    assert later.to_move == 1
    later = later.apply(((0, 2), SKIP, 0, 0))
    later = later.apply(((), s, n, k))
    later = later.apply(((), SKIP, 0, 0))
    assert later.sheets[2].points == low


def test_zone_completion_needs_every_station(ed):
    b = ed.board
    zone = b.masks.zone_stations[0]
    all_but = zone & ~(1 << b.star)
    sheet = Sheet(tuple(1 if all_but >> i & 1 else 0 for i in range(len(b.stations))), all_but, 0, 0, 0, 0, 0)
    k = b.masks.at[b.star][0][1]
    assert not sheet.zones
    assert use(b, sheet, b.star, 1, k, 0).zones & 1


def test_game_ends_after_the_turn_a_player_completes_enough_lines(ed):
    b = ed.board
    every = Sheet((1,) * len(b.stations), (1 << len(b.stations)) - 1, (1 << len(b.connections)) - 1, 0, 0, 0, 0)
    st = rolled(ed, players=2, dice=(1, 1, 1, 1, 1))
    st = dataclasses.replace(st, sheets=(every, blank_sheet(b, 0)))
    k = b.masks.at[b.star][0][1]
    st = st.apply(((0, 1), b.star, 1, k), check=False)
    assert not st.is_terminal() and st.phase == "use"  # the others still use this roll
    st = st.apply(((), SKIP, 0, 0))
    assert st.is_terminal() and st.returns()[0] > 0


def test_score_counts_points_and_unused_passes(ed):
    st = rolled(ed, players=1)
    st = dataclasses.replace(st, sheets=(blank_sheet(ed.board, 3)._replace(points=7),), phase="over")
    assert st.scores() == (7 + 3 * ed.rules.pass_points,)


def test_later_seats_start_with_their_extra_passes_and_score_them_unused(ed):
    # our rule against seat 1's advantage: seat k starts with passes + extra_passes[k - 1]
    r = ed.rules
    # docs/dice.md, Seat advantage: seat 1 has none, no later seat has fewer than the seat before,
    # and the last seat has some (the default: one more for the 4th)
    assert len(r.extra_passes) == r.players_max and r.extra_passes[0] == 0
    assert all(a <= b for a, b in zip(r.extra_passes, r.extra_passes[1:])) and r.extra_passes[-1] > 0
    for players in (1, 2, 3, 4):
        st = new_game(ed, players, 0)
        assert tuple(s.passes for s in st.sheets) == tuple(r.passes + r.extra_passes[k] for k in range(players))
    assert new_game(ed, 1, 0).sheets[0].passes == r.passes  # solo = seat 1: the solver's passes
    over = dataclasses.replace(new_game(ed, 4, 0), phase="over")
    assert over.scores() == tuple(r.pass_points * (r.passes + e) for e in r.extra_passes)
    # the extra passes spend like any other: writing the number farthest from the dice that seat 4
    # can still reach (with 4 passes: a 6 read from 2s) is open to seat 4, not seat 1
    sheets = new_game(ed, 4, 0).sheets
    k, far = max(((k, n) for _, k, _ in ed.board.masks.at[ed.board.star] for n in range(1, 7)
                  if abs(n - k) <= sheets[3].passes), key=lambda kn: (abs(kn[1] - kn[0]), -kn[0], -kn[1]))
    cost = abs(far - k)
    assert sheets[0].passes < cost <= sheets[3].passes
    assert uses(ed.board, sheets[3], (k, k, k))[(ed.board.star, far, k)] == cost
    assert (ed.board.star, far, k) not in uses(ed.board, sheets[0], (k, k, k))


def test_illegal_actions_are_refused(ed):
    st = rolled(ed)
    with pytest.raises(UsageError):
        st.apply(((0, 1), 0 if ed.board.star else 1, 1, 1))
    with pytest.raises(UsageError):
        new_game(ed, 2, 0).apply(("roll", (7, 1, 1, 1, 1)))
    with pytest.raises(UsageError):
        new_game(ed, 9, 0)


def test_replay_gives_the_same_log_and_state(ed):
    bots = [PLAYERS[b] for b in ("greedy", "random", "lookahead")]
    a = play_game(new_game(ed, 3, 11), bots, 11)
    b = play_game(new_game(ed, 3, 11), bots, 11)
    assert a.moves == b.moves and a.state == b.state
    replayed = replay(new_game(ed, 3, 11), [m.action for m in a.moves])
    assert replayed == a.state and replayed.is_terminal()


def test_random_games_never_get_stuck_and_bots_play_legally(ed):
    for seed in range(12):
        st = new_game(ed, 1 + seed % 4, seed)
        bots = ("random", "greedy", "lookahead", "random")
        streams = [random.Random(f"{seed}:{p}") for p in range(4)]
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st = st.apply(st.dealt_outcome())
                continue
            legal = st.legal_actions()
            assert legal
            action = PLAYERS[bots[st.to_move]](st, streams[st.to_move])
            assert action in legal
            st = st.apply(action)
        assert st.turn <= ed.rules.max_turns
