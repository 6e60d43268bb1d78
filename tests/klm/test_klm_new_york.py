"""Keep London Moving on a second city: the bundled New York dataset (``--data new-york``).

The deal checker must not know London: on decks cut from New York's lines (a line's stations,
small enough for the independent brute force of ``test_klm_bruteforce``), CP-SAT and the exact
path search agree with the brute force on every player of every deal; the default scope (zone 1:
4 km around Times Sq-42 St) builds a deck.
"""

from __future__ import annotations

import pytest
from test_klm_bruteforce import RULES, brute_force

from tubedeck.game import network
from tubedeck.games.klm.cards import build_deck
from tubedeck.games.klm.edition import load
from tubedeck.games.klm.scope import parse_scope
from tubedeck.games.klm.setup import deal
from tubedeck.solver.klm.model import solve_deal
from tubedeck.solver.klm.paths import solve_deal_paths


@pytest.fixture(scope="module")
def new_york():
    return network("new-york")


def test_the_default_scope_builds_on_new_york(new_york):
    edition = load(new_york)
    assert 50 <= len(edition.deck.cards) <= 90  # zone 1: the 4 km ring
    assert "times-sq-42-st" in {c.station for c in edition.deck.cards}


@pytest.mark.parametrize("line", ["g", "l", "7", "s-franklin"])
def test_checkers_agree_with_brute_force_on_new_york_lines(new_york, line):
    scope_line = {"s-franklin": "fs"}.get(line, line)
    try:
        scope = parse_scope(scope_line, new_york)
    except Exception as exc:  # noqa: BLE001 - the scope language names lines by name
        pytest.skip(f"{scope_line}: {exc}")
    deck = build_deck(new_york, scope)
    adjacency = {s: tuple(deck.graph[s]) for s in deck.graph}
    termini = frozenset(c.station for c in deck.cards if c.terminus)
    stations = tuple(c.station for c in deck.cards)
    decided = 0
    for seed in range(12):
        players = 2 + seed % 2
        if len(stations) < 5 * players + 1:
            continue
        d = deal(stations, (), players, seed, RULES)
        status, answers = solve_deal(adjacency, d, RULES.path, termini=termini)
        _, fast = solve_deal_paths(adjacency, d, RULES.path, termini)
        assert status == "OPTIMAL"
        for a, b in zip(answers, fast):
            expected = brute_force(deck, d, a.seat)
            assert a.turn == expected == b.turn, (line, seed, a.seat)
            decided += 1
    assert decided >= 10 or len(stations) < 11
