"""One Day in London: a rack that is already a valid journey is answered without the state space
(so a one-shot ``solve oneday`` imports no numpy); the answer is the one the exact bound gives."""

from __future__ import annotations

import random

import pytest

from tubedeck.games.oneday.edition import load
from tubedeck.games.oneday.journey import validate
from tubedeck.solver.oneday import exchanges
from tubedeck.solver.oneday.exchanges import already_journey, caps_for, solve_one, solve_rack, space_of


@pytest.fixture(scope="module")
def edition(london):
    return load(london)


def _journeys(edition, count: int, seed: int) -> list[tuple[str, ...]]:
    """Valid journeys of the London map: the bound's target journeys for random racks."""
    rng, space, copies = random.Random(seed), space_of(edition), edition.deck.copies()
    stations, found = sorted(copies), []
    while len(found) < count:
        rack = rng.sample(stations, edition.rules.slots)
        sol = solve_rack(edition.board, space, rack, caps_for(space, copies), "auto")
        if sol.journey is not None:
            found.append(sol.journey.stations)
    return found


def test_a_valid_rack_gets_the_bounds_answer(edition):
    """For each journey taken as a rack: the shortcut's solution equals the exact bound's, field by field."""
    space, copies = space_of(edition), edition.deck.copies()
    for rack in _journeys(edition, 12, seed=5):
        verdict = validate(edition.board, rack)
        assert verdict.valid and verdict.journey is not None
        bound = solve_rack(edition.board, space, rack, caps_for(space, copies), "auto")
        assert already_journey(verdict.journey) == bound
        assert solve_one(edition, ",".join(edition.board.name(s) for s in rack), engine="auto").solution == bound


def test_the_shortcut_is_taken_only_for_a_valid_rack_and_auto(edition, monkeypatch):
    """The state space is built for an invalid rack and for ``--engine cp-sat`` (the engine of record
    decides every rack itself); never for a valid rack with ``auto``."""
    built = []
    monkeypatch.setattr(exchanges, "_SPACES", {})
    real = exchanges.state_space
    monkeypatch.setattr(exchanges, "state_space", lambda *a, **k: built.append(1) or real(*a, **k))
    journey = _journeys(edition, 1, seed=9)[0]
    names = [edition.board.name(s) for s in journey]
    built.clear()
    monkeypatch.setattr(exchanges, "_SPACES", {})
    report = solve_one(edition, ",".join(names), engine="auto")
    assert report.verdict.valid and report.solution.exchanges == 0 and built == []
    swapped = ",".join(names[:1] + names[2:3] + names[1:2] + names[3:])  # slots 2 and 3 swapped
    report = solve_one(edition, swapped, engine="auto")
    assert not report.verdict.valid and built == [1]
