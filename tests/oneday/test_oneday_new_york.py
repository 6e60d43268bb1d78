"""One Day on a second city: the bundled New York dataset (``--data new-york``).

1. the edition: another city's recipe (``data/oneday/city-recipe.toml``: zone 1, each line's
   longest run, lines sharing track counted once) makes a deck a table can play from;
2. the minimum-exchange solver agrees with the independent exhaustive search of
   ``test_oneday_solver`` on racks over New York's own stations and lines: the G, the L and the 7
   where they cross in Brooklyn and Queens (their runs read from the dataset, not typed).
"""

from __future__ import annotations

import random
import string

import pytest
from test_oneday_solver import check_against_exhaustive, toy_map

from tubedeck.game import network
from tubedeck.games.oneday.edition import load

LINES = ("g", "l", "7")
WINDOW = ("lorimer-st-metropolitan-av", "court-sq-court-sq-23-st")  # the G's crossings with the L and the 7


@pytest.fixture(scope="module")
def new_york():
    return network("new-york")


def test_another_citys_recipe_makes_a_playable_deck(new_york):
    edition = load(new_york)
    rec = edition.board.recipe
    assert rec.name == "One Day in New York" and rec.runs == "longest" and rec.track == "auto"
    assert 60 <= len(edition.board.stations) <= 80
    assert rec.players_max * rec.slots + rec.discard_piles < len(edition.deck) <= 120
    assert any({"n", "q"} <= group or {"a", "c"} <= group for group in edition.board.shared_track)


def runs_near_the_g(net) -> dict[str, str]:
    """Each of LINES cut to its stops within three of WINDOW's stations, as letters."""
    keep: set[str] = set()
    for b in net.branches:
        if b.line in LINES:
            for hub in WINDOW:
                if hub in b.stations:
                    i = b.stations.index(hub)
                    keep |= set(b.stations[max(0, i - 3): i + 4])
    g = next(b for b in net.branches if b.line == "g")
    i, j = sorted(g.stations.index(h) for h in WINDOW)
    keep |= set(g.stations[i:j + 1])
    runs: dict[str, list[str]] = {}
    for b in net.branches:
        if b.line in LINES:
            part = [s for s in b.stations if s in keep]
            if len(part) > len(runs.get(b.line, [])):
                runs[b.line] = part
    letters = dict(zip(sorted({s for r in runs.values() for s in r}), string.ascii_letters))
    return {line: "".join(letters[s] for s in stops) for line, stops in runs.items()}


def test_the_solver_agrees_with_the_exhaustive_search_on_new_york(new_york):
    runs = runs_near_the_g(new_york)
    assert set(runs) == set(LINES) and all(len(r) >= 4 for r in runs.values())
    stations = sorted(set("".join(runs.values())))
    assert len(stations) <= 26
    rng = random.Random(46)
    for _ in range(40):
        slots = rng.randint(4, 6)
        gmap = toy_map(slots, runs)
        rack = "".join(rng.choice(stations) for _ in range(slots))
        caps = {s: rng.choice([0, 1, 1, 2]) for s in stations}
        for s in rack:
            caps[s] = max(caps[s], 1)
        check_against_exhaustive(gmap, runs, rack, caps)


def test_a_tall_city_gets_a_portrait_map_page(new_york):
    """Manhattan runs north-south: New York's map page is portrait, London's zone 1 landscape (the
    map filled a third of a landscape page)."""
    from tubedeck.generator.oneday.map import wide

    assert not wide(load(new_york).board)
    assert wide(load(network(None)).board)
