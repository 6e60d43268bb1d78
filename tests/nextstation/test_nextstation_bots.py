"""Next Station bots: legal, deterministic given their stream, and ordered by strength on average."""

from __future__ import annotations

import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.play import CHANCE, new_game
from tubedeck.solver.nextstation.players import PLAYERS
from tubedeck.solver.nextstation.simulate import PLAYING, play_one
from tubedeck.solver.simulation import parse_bots, play


@pytest.fixture(scope="module")
def ed():
    return load(None)


def test_bots_pick_legal_actions_and_repeat_themselves(ed):
    for name, bot in PLAYERS.items():
        s = new_game(ed, 2, 4)
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s = s.apply(s.dealt_outcome())
                continue
            a = bot(s, random.Random(7))
            assert a in s.legal_actions() and a == bot(s, random.Random(7)), name
            s = s.apply(a)


def test_greedy_beats_random_and_lookahead_beats_greedy_on_average(ed):
    mean = {name: sum(play(PLAYING, ed, 1, seed, (name,)).state.final(0).total for seed in range(6)) / 6
            for name in PLAYERS}
    assert mean["random"] < mean["greedy"] < mean["lookahead"]


def test_play_report_and_bad_bots(ed):
    r = play_one(ed, players=2, seed=1, bots="greedy,random")
    d = r.as_dict()
    assert len(d["scores"]) == 2 and r.describe()[0].startswith("Next Station")
    with pytest.raises(UsageError):
        parse_bots("clever", 2, PLAYERS)
    with pytest.raises(UsageError):
        play_one(ed, players=5)
