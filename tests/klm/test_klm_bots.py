"""Keep London Moving's bots and the simulator: seeded players, a strength order, the
``play`` / ``simulate`` commands, and the perfect-foresight checker as a bound on real games."""

from __future__ import annotations

import json
import random

import pytest

from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.klm.play import new_game
from tubedeck.play import play_game
from tubedeck.solver.klm.model import solve_deal
from tubedeck.solver.klm.players import PLAYERS, need
from tubedeck.solver.klm.simulate import PLAYING, fortune_decided, record
from tubedeck.solver.simulation import play

from conftest import run_cli as run


@pytest.fixture(scope="module")
def core():
    return edition(get("klm"), scope="zone 1")


def game(ed, players, seed, bots):
    """One game by the named bots, as ``simulate`` plays it."""
    return play(PLAYING, ed, players, seed, tuple(bots))


def test_bots_are_deterministic(core):
    for bots in (("random",) * 3, ("greedy",) * 3):
        a, b = game(core, 3, 4, bots), game(core, 3, 4, bots)
        assert a.moves == b.moves and a.state == b.state


def test_random_draws_from_its_stream(core):
    s = new_game(core, 2, 1)  # Unlucky Hand: two choices
    picks = {PLAYERS["random"](s, random.Random(k)) for k in range(20)}
    assert len(picks) > 1 and picks <= set(s.legal_actions())


def test_greedy_beats_random(core):
    wins = {"greedy": 0, "random": 0}
    for seed in range(30):
        bots = ("greedy", "random") if seed % 2 else ("random", "greedy")
        s = game(core, 2, seed, bots).state
        if s.winner is not None:
            wins[bots[s.winner]] += 1
    assert wins["greedy"] > 2 * wins["random"], wins


def test_need_counts_missing_cards(core):
    s = new_game(core, 2, 1, unlucky=False)
    assert 0 < need(s, 0) <= core.rules.path
    s = game(core, 2, 1, ("greedy", "greedy")).state
    assert s.winner is not None and need(s, s.winner) == 0


def test_the_record_says_who_won_in_turn_order(core):
    s = game(core, 3, 2, ("greedy",) * 3).state
    r = record(s)
    assert r["winner"] == s.winner + 1 and r["order"] == (s.winner - s.starter) % 3 + 1
    assert r["fortune_last3"] == fortune_decided(s) and r["turns"] == s.turn + 1


def _no_extra_draws(name):
    """A bot that never changes who draws which Station Card (no Rush Hour, no Lost Property)."""
    bot = PLAYERS[name]

    def play(state, rng):
        action = bot(state, rng)
        if action[0] == "fortune" and state.table.fortune[action[1]].action in ("draw_station", "take_discard"):
            return ("end",)
        return action
    return play


def test_the_perfect_foresight_win_is_never_later_than_a_played_win(core):
    """The checker's earliest win (every future draw known, no opponent) bounds every real game on
    the same deal, as long as no card effect changes the draws and nobody redraws an Unlucky Hand."""
    compared = 0
    for seed in range(40):
        players = 2 + seed % 2
        bot = _no_extra_draws("greedy")
        state = play_game(new_game(core, players, seed, unlucky=False), [bot] * players, seed).state
        w = state.winner
        if w is None:
            continue
        d = core.deal(players, seed)
        played = state.own_turns[w] + (1 if state.to_move == w else 0)
        if played > d.player(w).turns:
            continue  # won after the stock first ran out: outside the checker's window
        status, answers = solve_deal(core.adjacency, d, core.rules.path, 20.0, core.termini)
        assert status == "OPTIMAL"
        assert answers[w].turn is not None and answers[w].turn <= played, (seed, answers[w], played)
        compared += 1
    assert compared >= 10


def test_play_and_simulate_commands(capsys, tmp_path):
    code, out, err = run(capsys, "play", "klm", "--players", "2", "--seed", "3", "--scope", "zone 1",
                         "--bots", "lookahead,greedy")
    assert code == 0 and "winner: player" in out and "connects" in out
    res = tmp_path / "sim.jsonl"
    code, out, err = run(capsys, "simulate", "klm", "--games", "6", "--players", "3", "--scope", "zone 1",
                         "--results", str(res), "--no-progress", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["games"] == 6 and sum(v["count"] for v in d["wins_by_place"].values()) == 6 - d["no_winner"]
    assert d["measures"]["turns"]["unit"] == "turns" and "fortune_last3" in d["flags"]
    lines = res.read_text().splitlines()
    assert len(lines) == 7 and json.loads(lines[0])["mode"] == "simulate"
    code, out, err = run(capsys, "play", "klm", "--bots", "clever")
    assert code == 2 and "unknown bot" in err


def test_fortune_in_the_winners_last_three_turns_reads_the_log(core):
    for players in (3, 4):
        for seed in range(8):
            start = new_game(core, players, seed)
            played = play_game(start, [PLAYERS["greedy"]] * players, seed, words=True)
            s, log = played.state, [(m.clock, m.seat, m.action) for m in played.decisions()]
            last = sorted({int(c.split()[1]) for c, seat, _ in log if seat == s.winner and c.startswith("turn")})[-3:]
            assert fortune_decided(s) == any(seat == s.winner and a[0] == "fortune" and int(c.split()[1]) in last
                                             for c, seat, a in log if c.startswith("turn"))
