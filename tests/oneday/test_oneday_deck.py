"""One Day in London: the recipe, the derived network and deck, and seeded deals."""

from __future__ import annotations

import dataclasses

import pytest

from tubedeck.errors import DataError, UsageError
from tubedeck.games.oneday.board import derive_map, parse_stations
from tubedeck.games.oneday.cards import build_deck
from tubedeck.games.oneday.recipe import load_recipe
from tubedeck.games.oneday.setup import deal


@pytest.fixture(scope="module")
def gmap(london):
    return derive_map(london, load_recipe())


@pytest.fixture(scope="module")
def deck(gmap):
    return build_deck(gmap)


def test_every_figure_of_the_text(gmap, deck):
    copies = deck.copies()
    assert len(gmap.stations) == 62 and len(deck) == 72
    assert copies["kings-cross-st-pancras"] == 3
    assert copies["embankment"] == 2
    assert copies["sloane-square"] == 1
    assert gmap.lines_at("sloane-square") == ("district",)
    assert gmap.runs["district"].before_after("sloane-square") == (8, 11)
    assert gmap.runs["victoria"].stations[0] == "kings-cross-st-pancras"
    assert gmap.runs["piccadilly"].stations[-1] == "kings-cross-st-pancras"
    # "Kings Cross/St Pancras station is on 5 lines", "Embankment station is on 3 lines"
    assert len(gmap.lines_at("kings-cross-st-pancras")) == 5 and len(gmap.lines_at("embankment")) == 3


def test_recipe_exceptions_are_applied_with_reasons(gmap):
    recipe = gmap.recipe
    assert all(reason for *_, reason in recipe.exclude_lines + recipe.exclude_stations + recipe.merges)
    assert "circle" not in gmap.lines and len(gmap.lines) == 10
    for gone in ("kennington", "nine-elms", "battersea-power-station", "aldgate-east"):
        assert gone not in gmap.stations
    assert gmap.stations["aldgate"].members == ("aldgate", "aldgate-east")
    assert set(gmap.lines_at("aldgate")) == {"district", "hammersmith-city", "metropolitan"}
    assert "paddington" in gmap.stations and "edgware-road-bakerloo" in gmap.stations
    northern = gmap.runs["northern"].stations
    assert (northern[0], northern[-1]) == ("elephant-castle", "waterloo") and "euston" in northern
    assert len(gmap.runs["district"].stations) == 20


def test_copy_rule_is_an_option(london):
    one_per_line = build_deck(derive_map(london, load_recipe(copy_rule="one-per-line")))
    assert one_per_line.copies()["kings-cross-st-pancras"] == 4 and len(one_per_line) == 100
    assert len(build_deck(derive_map(london, load_recipe(copy_rule="single")))) == 62
    with pytest.raises(UsageError, match="unknown copy rule"):
        load_recipe(copy_rule="two")


def test_cards_carry_bands_and_copy_marks(deck):
    kx = [c for c in deck.cards if c.station == "kings-cross-st-pancras"]
    assert [c.copy_mark for c in kx] == ["1/3", "2/3", "3/3"]
    bands = {b.line: (b.before, b.after) for b in kx[0].bands}
    assert bands["victoria"] == (0, 7) and bands["piccadilly"] == (11, 0)
    assert len({c.id for c in deck.cards}) == 72


def test_bad_recipe_is_a_data_error(london, gmap):
    bad = dataclasses.replace(gmap.recipe, exclude_stations=(("nowhere", "because"),))
    with pytest.raises(DataError, match="nowhere"):
        derive_map(london, bad)
    # without the Kennington exclusion the Northern line is no longer one run
    forked = dataclasses.replace(gmap.recipe, exclude_stations=())
    with pytest.raises(DataError, match="northern"):
        derive_map(london, forked)


def test_deals_are_seeded_and_shaped(deck, gmap):
    rules = gmap.recipe
    a, b = deal(deck, 4, 7, rules), deal(deck, 4, 7, rules)
    assert a == b and deal(deck, 4, 8, rules) != a
    assert [len(r) for r in a.racks] == [10] * 4 and len(a.discards) == 3
    assert len(a.draw_pile) == 72 - 43
    ids = [c.id for r in a.racks for c in r] + [c.id for c in a.discards + a.draw_pile]
    assert sorted(ids) == sorted(c.id for c in deck.cards)
    for players in (1, 5):
        with pytest.raises(UsageError, match="2-4"):
            deal(deck, players, 1, rules)


def test_forgiving_names(gmap):
    assert parse_stations(gmap, "kings cross st. pancras, Elephant and Castle, ALDGATE EAST") == (
        "kings-cross-st-pancras", "elephant-castle", "aldgate")
    with pytest.raises(UsageError, match="did you mean 'Tower Hill'"):
        parse_stations(gmap, "Tower Hil")
    with pytest.raises(UsageError, match="ambiguous"):
        parse_stations(gmap, "Edgware Road")


def test_tfl_names_from_the_dataset_aliases(gmap, london):
    # TfL's journey-planner names (stations.csv `aliases`) resolve to the game's stations
    for alias, station in (("Edgware Road (Circle Line)", "edgware-road-hammersmith-city"),
                           ("Paddington (H&C Line)-Underground", "paddington")):
        assert any(alias in london.stations[m].aliases for m in gmap.stations[station].members)
        assert parse_stations(gmap, alias) == (station,)
