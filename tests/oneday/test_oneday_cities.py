"""One Day in London on another city's network: the recipe, not London, decides the game."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from tubedeck.errors import DataError
from tubedeck.games.oneday.board import load_map
from tubedeck.games.oneday.cards import build_deck
from tubedeck.games.oneday.recipe import load_recipe

from conftest import run_cli as run

TESTS = Path(__file__).resolve().parent.parent
TINY = TESTS / "data" / "tinycity"
TINY_RECIPE = TESTS / "data" / "tinycity_oneday.toml"




def test_tinycity_recipe_derives_a_game():
    gmap = load_map(TINY, TINY_RECIPE)
    assert set(gmap.stations) == {"alpha", "bravo", "charlie", "delta", "echo", "hotel", "india", "juliet"}
    assert len(build_deck(gmap)) == 8 and gmap.recipe.slots == 3


def test_build_oneday_for_tinycity_prints_the_recipes_own_texts(tmp_path, capsys):
    code, out, err = run(capsys, "build", "oneday", "--data", str(TINY), "--recipe", str(TINY_RECIPE),
                         "--out", str(tmp_path), "--json")
    assert code == 0, err
    manifest = json.loads(out)
    assert len(manifest["decks"]["oneday/stations"]) == 8
    with pymupdf.open(tmp_path / "oneday" / "map.pdf") as doc:
        text = doc[0].get_text()
    assert "One Day in Tinycity: the toy map" in text and "8 stations of an invented city." in text
    assert "zone 1" not in text and "Kennington" not in text
    with pymupdf.open(tmp_path / "oneday" / "rules.pdf") as doc:
        assert "a rack of 3 stops" in " ".join(doc[0].get_text().split())


def test_build_all_on_another_city_skips_one_day_with_a_note(tmp_path, capsys):
    code, out, err = run(capsys, "build", "all", "--data", str(TINY), "--out", str(tmp_path))
    assert code == 0
    assert "skipped oneday" in err and "--recipe" in err
    assert (tmp_path / "klm").is_dir() and not (tmp_path / "oneday").exists()


def test_build_oneday_on_another_city_without_a_recipe_exits_2(tmp_path, capsys):
    code, _, err = run(capsys, "build", "oneday", "--data", str(TINY), "--out", str(tmp_path))
    assert code == 2 and "does not fit" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf"])
def test_solve_time_limit_must_be_positive_and_finite(capsys, value):
    code, _, err = run(capsys, "solve", "oneday", "--data", str(TINY), "--recipe", str(TINY_RECIPE),
                       "--rack", "alpha,bravo,india", "--time-limit", value)
    assert code == 2 and "--time-limit" in err


@pytest.mark.parametrize("old,new,key", [("slots = 3", "slots = 0", "game.slots"),
                                         ("players_min = 2", "players_min = 5", "game.players_min")])
def test_recipe_numbers_are_checked(tmp_path, old, new, key):
    bad = tmp_path / "r.toml"
    bad.write_text(TINY_RECIPE.read_text().replace(old, new))
    with pytest.raises(DataError) as info:
        load_recipe(bad)
    assert info.value.problems[0].column == key


def test_resuming_with_another_recipe_is_refused(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    common = ["check", "oneday", "--data", str(TINY), "--players", "2", "--deals", "2", "--no-progress",
              "--results", str(results)]
    code, _, err = run(capsys, *common, "--recipe", str(TINY_RECIPE))
    assert code == 0, err
    before = results.read_bytes()
    other = tmp_path / "other.toml"
    other.write_text(TINY_RECIPE.read_text().replace("discard_piles = 1", "discard_piles = 0"))
    code, _, err = run(capsys, *common, "--recipe", str(other))
    assert code == 2 and "other parameters" in err
    assert results.read_bytes() == before


def test_a_deck_too_small_to_deal_writes_nothing(tmp_path, capsys):
    big = tmp_path / "big.toml"
    big.write_text(TINY_RECIPE.read_text().replace("slots = 3", "slots = 5"))  # 2 x 5 + 1 > 8 cards
    results = tmp_path / "r.jsonl"
    code, _, err = run(capsys, "check", "oneday", "--data", str(TINY), "--recipe", str(big), "--players", "2",
                       "--deals", "1", "--no-progress", "--results", str(results))
    assert code == 2 and "cannot deal" in err
    assert not results.exists()
