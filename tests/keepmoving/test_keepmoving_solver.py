"""The survival solver against hand-computed values and an independent brute force.

The brute force shares nothing with the solver but the rules engine: no memo, no shortcuts, and
the opponent is modelled by emptying their hand, pile and discards, so the engine itself plays
their turn as a pass; P's N-th turn has ended when the turn counter passes it."""

from __future__ import annotations

import json
import random
import re

import pytest

from tubedeck.errors import UsageError
from tubedeck.solver.keepmoving.position import from_json, read_state, to_json
from tubedeck.solver.keepmoving.survive import ranked, solve_one, survival

from km_helpers import EDITION, chance, position

MOVES = ("one", "two", "three", "four", "five", "six", "even", "odd", "low", "high", "random", "draw")


def brute(s, p: int, last_turn: int) -> float:
    if s.is_terminal():
        return 0.0 if s.winner == 1 - p else 1.0
    if s.turn > last_turn:
        return 1.0
    if chance(s):
        return sum(q * brute(s.apply(o), p, last_turn) for o, q in s.chance_outcomes())
    values = [brute(s.apply(a), p, last_turn) for a in s.legal_actions()]
    return max(values) if s.current_player() == p else min(values)


def test_one_turn_with_a_random_die_by_hand():
    # lava on cards 2, 4, 6 (0-based 1, 3, 5): from the left end a roll of 1, 3 or 5 burns the last cube
    s = position("S L S L S L S S S S S S S S", pos=(0, 13), hands=(("random",), ()), lives=(1, 10))
    assert survival(s, 0, 1) == pytest.approx(0.5) == brute(s, 0, s.turn)
    s = position("S L S L S L S S S S S S S S", pos=(0, 13), hands=(("random", "even"), ()), lives=(1, 10))
    best = ranked(s, 1)
    assert best[0][0] == ("play", "even") and best[0][1] == pytest.approx(1.0) and dict(best)[("play", "random")] == pytest.approx(0.5)


def test_protection_and_grassland_count():
    s = position("S L S L S L S S S S S S S S", pos=(0, 13), hands=(("random", "protection"), ()), lives=(1, 10))
    assert survival(s, 0, 1) == pytest.approx(1.0)
    # two turns: the first move must reach grassland to afford lava next turn
    s = position("S G L L L L L L L L L L L L", pos=(0, 13), hands=(("one", "two"), ()), lives=(1, 10),
                 piles=(("one",), ()), backs=" ".join(["S"] * 14))
    values = dict(ranked(s, 2))
    assert values[("play", "one")] == pytest.approx(1.0) and values[("play", "two")] == pytest.approx(0.0)


def _random_position(rng: random.Random):
    row = " ".join(rng.choice("LLLGS") + rng.choice(["", "", "", "R"]) for _ in range(14))
    backs = " ".join(rng.choice("LGS") for _ in range(14))
    a, b = rng.sample(range(14), 2)
    hand = tuple(rng.choice(MOVES) for _ in range(rng.randint(1, 2)))
    pile = tuple(rng.choice(MOVES[:6] + ("random",)) for _ in range(rng.randint(1, 3)))
    return position(row, pos=(a, b), hands=(hand, ()), piles=(pile, ()), backs=backs, lives=(rng.randint(1, 2), 10),
                    supply=rng.randint(0, 2), pile="S L G")


@pytest.mark.parametrize("turns", [1, 2])
def test_the_solver_agrees_with_the_brute_force(turns):
    rng = random.Random(turns)
    for _ in range(25 if turns == 1 else 12):
        s = _random_position(rng)
        for action, value in ranked(s, turns):
            assert value == pytest.approx(brute(s.apply(action), 0, s.turn + 2 * (turns - 1))), (s, action)


def test_positions_round_trip_through_json(tmp_path):
    s = solve_one(EDITION, seed=3, turns=1).state
    path = tmp_path / "p.json"
    path.write_text(json.dumps(to_json(s)))
    t = read_state(path, EDITION)
    assert to_json(t) == to_json(s) and t.legal_actions() == s.legal_actions()


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(positions=[3, 3]), "share"),
    (lambda d: d.update(row=d["row"][:-1]), "must hold 14"),
    (lambda d: d["hands"][0].append("teleport"), "card ids"),
    (lambda d: d.update(lives=[0, 3]), "lives[0]"),
    (lambda d: d.update(extra=1), "unknown"),
    (lambda d: d["row"].__setitem__(0, ["g99", "A"]), "row[0]"),
])
def test_a_bad_position_is_a_usage_error(change, message):
    raw = to_json(solve_one(EDITION, seed=3, turns=1).state)
    change(raw)
    with pytest.raises(UsageError, match=re.escape(message)):
        from_json(raw, EDITION)  # noqa


def test_bad_options_are_refused():
    with pytest.raises(UsageError):
        solve_one(EDITION)
    with pytest.raises(UsageError):
        solve_one(EDITION, seed=1, turns=9)
