"""One Day recipes: problems are located (table, entry, key) and all reported at once; the texts'
placeholders are checked; names a player types get a message that says what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tubedeck.errors import DataError, UsageError
from tubedeck.games.oneday.board import derive_map, load_map, parse_stations
from tubedeck.games.oneday.recipe import default_recipe, load_recipe, zone_phrase
from tubedeck.network import Network

from conftest import run_cli as run

TESTS = Path(__file__).resolve().parent.parent
TINY = TESTS / "data" / "tinycity"
TINY_RECIPE = TESTS / "data" / "tinycity_oneday.toml"


def edited(tmp_path: Path, source: Path, *edits: tuple[str, str]) -> Path:
    text = source.read_text(encoding="utf-8")
    for pattern, replacement in edits:
        new = re.sub(pattern, replacement, text, count=1, flags=re.M)
        assert new != text, pattern
        text = new
    out = tmp_path / "recipe.toml"
    out.write_text(text, encoding="utf-8")
    return out


def problems_of(path: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        load_recipe(path)
    return [str(p) for p in info.value.problems]


def test_recipe_problems_name_table_entry_and_key_all_at_once(tmp_path):
    bad = edited(tmp_path, default_recipe(),
                 (r'^reason = "The dataset \(like TfL\) splits Paddington.*\n', ""),  # [[merge]] #2 loses its reason
                 (r"^slots = 10", "slots = 1"),
                 (r"^players_max = 4", "players_max = 1"),
                 (r'^line = "circle"', 'line = "circle"\nreasons = "typo"'))
    found = problems_of(bad)
    assert f"{bad} [merge #2]: missing 'reason'" in found
    assert f"{bad} [game.slots]: must be at least 2, got 1" in found
    assert any(p.startswith(f"{bad} [game.players_min]: must be 1..players_max (1)") for p in found)
    assert any("[exclude_lines #1]: unknown key 'reasons'" in p for p in found)
    assert len(found) == 4


def test_recipe_wrong_types_are_located(tmp_path):
    bad = edited(tmp_path, TINY_RECIPE, (r"^zones = \[1, 2\]", 'zones = "1"'), (r'^station = "golf"', "station = 7"))
    found = problems_of(bad)
    assert any("[scope]: 'zones' must be a non-empty list of whole numbers" in p for p in found)
    assert any("[exclude_stations #2]: 'station' must be a non-empty string" in p for p in found)


def test_text_table_and_placeholders_are_checked(tmp_path):
    bad = edited(tmp_path, TINY_RECIPE, (r'^map_note = .*\n', ""),
                 (r'"Consecutive stops share a line', '"Ride {lnes} lines; consecutive stops share a line'))
    found = problems_of(bad)
    assert any("[text]: missing 'map_note'" in p for p in found)
    assert any("[text.rules #2]: unknown placeholder {lnes}" in p for p in found)
    # every known placeholder is filled when printed
    rec = load_recipe(edited(tmp_path, TINY_RECIPE, (r'^map_title = .*', 'map_title = "{name}: {zones}, {slots} '
                                                     'slots, {players_min}-{players_max} players, {piles} pile, '
                                                     '{stations} stations, {cards} cards"')))
    assert rec.texts("map_title", stations=8, cards=8) == [
        "One Day in Tinycity: zones 1 and 2, 3 slots, 2-3 players, 1 pile, 8 stations, 8 cards"]


def test_the_london_texts_take_the_zones_from_the_recipe():
    rec = load_recipe()
    assert any("one continuous journey in zone 1." in r for r in rec.texts("rules"))
    assert "(zone 1, no Circle line)" in rec.texts("map_title")[0]
    assert zone_phrase((1,)) == "zone 1" and zone_phrase((1, 2, 3)) == "zones 1, 2 and 3"


def test_not_one_run_names_the_recipes_zones(tmp_path):
    forked = edited(tmp_path, TINY_RECIPE, (r'^\[\[exclude_stations\]\]\nstation = "foxtrot"\n.*\n', ""))
    with pytest.raises(DataError) as info:
        load_map(TINY, forked)
    text = str(info.value)
    assert "line 'red': its part in zones 1 and 2 is not one run of stops" in text and "zone-1" not in text


def test_recipe_names_the_dataset_lacks_are_located():
    with pytest.raises(DataError) as info:
        derive_map(Network.load(TINY), load_recipe())
    places = {p.column for p in info.value.problems}
    assert {"exclude_lines #1", "exclude_stations #1", "merge #2", "orientation #1"} <= places


def test_every_bad_name_in_a_rack_is_reported_at_once(london):
    gmap = derive_map(london, load_recipe())
    with pytest.raises(UsageError) as info:
        parse_stations(gmap, "Bank, Brixton, Tower Hil, Nowhere, Kennington, Nine Elms")
    message = str(info.value)
    assert "slot 2: Brixton is not on this game's map (zone 2; the game covers zone 1)" in message
    assert "slot 3: unknown station 'Tower Hil'; did you mean 'Tower Hill'?" in message
    assert "slot 4: unknown station 'Nowhere'" in message
    assert "slot 5: Kennington is not on this game's map (left out by the recipe" in message
    assert "slot 6: Nine Elms is not on this game's map (opened 2021-09-20, after the game)" in message


def test_held_cards_are_named_as_held(capsys):
    code, _, err = run(capsys, "solve", "oneday", "--rack", "Bank,Monument,Tower Hill,Aldgate,Liverpool Street,"
                       "Moorgate,Barbican,Farringdon,Euston Square,Baker Street", "--held", "Nowhere")
    assert code == 2 and "--held card 1: unknown station 'Nowhere'" in err and "slot" not in err
