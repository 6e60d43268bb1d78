"""Tube Dice's map: derived from the dataset by the recipe; other cities; located errors."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tubedeck.errors import DataError, UsageError
from tubedeck.games.dice.board import derive_board
from tubedeck.games.dice.edition import load, roll_sequence
from tubedeck.games.dice.recipe import load_recipe
from tubedeck.network import Network

from conftest import run_cli, toy_dataset, write_dataset

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ed():
    return load(Network.load())


def test_london_map_from_the_recipe(ed):
    b = ed.board
    assert b.stations[b.star].id == load_recipe().map.star
    assert 18 <= len(b.stations) <= 30 and len(b.lines) >= 6
    assert Counter(c.sections for c in b.connections).keys() == set(range(1, 7))
    # sections follow real length: every 1-section hop is no longer than any 6-section hop
    ones = max(c.km for c in b.connections if c.sections == 1)
    sixes = min(c.km for c in b.connections if c.sections == 6)
    assert ones <= sixes
    # connections are pairs, shared by every line there (Euston - Warren Street: Northern and Victoria)
    eu, ws = b.index("euston"), b.index("warren-street")
    shared = [c for c in b.connections if {c.a, c.b} == {eu, ws}]
    assert len(shared) == 1 and set(shared[0].lines) == {"northern", "victoria"}
    assert len({frozenset((c.a, c.b)) for c in b.connections}) == len(b.connections)
    for line in b.lines:
        for k in line.connections:
            c = b.connections[k]
            assert c.a in line.stations and c.b in line.stations
    assert sum(len(z.stations) for z in b.zones) == len(b.stations)


def test_another_city_uses_the_fallback_star_and_scope(tmp_path):
    tiny = load(Network.load(ROOT / "tests" / "data" / "tinycity"))
    assert len(tiny.board.stations) == 10 and set(c.sections for c in tiny.board.connections) == set(range(1, 7))
    toy = load(Network.load(toy_dataset(tmp_path / "toy")))  # every station at one place: ranks still bin
    assert {c.sections for c in toy.board.connections} == set(range(1, 7))
    assert len(toy.board.zones) == 2


def test_scopes(ed):
    net = Network.load()
    r = load_recipe()
    wide = derive_board(net, r, "zone 1 within 2.5 km")
    assert len(wide.stations) > len(ed.board.stations)
    lines = derive_board(net, r, "central,victoria,bakerloo in zone 1")
    assert {l.id for l in lines.lines} == {"bakerloo", "central", "victoria"}
    but = derive_board(net, r, "all except circle,hammersmith-city in zones 1-2 within 2.2 km")
    assert {l.id for l in but.lines} == {l.id for l in derive_board(net, r, "zones 1-2 within 2.2 km").lines} - {
        "circle", "hammersmith-city"}


@pytest.mark.parametrize("scope, message", [
    ("district in zone 1", "no star station"),
    ("metropolitan,district in zone 1", "disconnected"),
    ("zone 1 within 0.6 km", "too few"),
    ("zone 99", "unknown zone"),
    ("purple in zone 1", "unknown line"),
    ("zone 1 within 0 km", "radius"),
])
def test_bad_scopes_are_refused_with_a_message(scope, message):
    with pytest.raises(UsageError, match=message):
        derive_board(Network.load(), load_recipe(), scope)


def test_recipe_problems_are_located(tmp_path):
    text = (ROOT / "data" / "dice" / "recipe.toml").read_text()
    bad = tmp_path / "r.toml"
    bad.write_text(text.replace("values = [1, 2, 3, 4, 5, 6]", "values = [1, 2, 3, 4, 5, 7]")
                   .replace("dice = 5 ", "dice = 5\ncolour = 1 "))
    with pytest.raises(DataError) as exc:
        load_recipe(bad)
    where = {p.column for p in exc.value.problems}
    assert "sections.values" in where and "game.colour" in where
    assert "cannot reach" in str(exc.value)
    scoped = tmp_path / "s.toml"
    scope = load_recipe().map.scope
    scoped.write_text(text.replace(f'scope = "{scope}"', 'scope = "metropolitan,district in zone 1"'))
    with pytest.raises(DataError, match=r"map.scope.*disconnected"):
        load(Network.load(), recipe=scoped)


@pytest.mark.parametrize("extra, message", [
    ("[0, 3, 3]", "one number per seat"),
    ("[1, 3, 3, 4]", "the first must be 0"),
    ("[0, 3, 2, 4]", "never fall"),
    ("[0, 3, 3, -1]", "never fall"),
    ("[0, 3, 3, 28]", "at most 30"),
    ('"3"', "list of whole numbers"),
    ("[0, 1.5, 2, 2]", "list of whole numbers"),
])
def test_extra_passes_problems_are_located(tmp_path, extra, message):
    text = (ROOT / "data" / "dice" / "recipe.toml").read_text()
    line = f"extra_passes = {list(load_recipe().rules.extra_passes)}"  # the recipe's own line, as written
    assert text.count(line) == 1
    bad = tmp_path / "r.toml"
    bad.write_text(text.replace(line, f"extra_passes = {extra}"))
    with pytest.raises(DataError, match=message) as exc:
        load_recipe(bad)
    assert {p.column for p in exc.value.problems} == {"game.extra_passes"}
    assert str(bad) in str(exc.value)
    missing = tmp_path / "m.toml"
    missing.write_text(text.replace(line, ""))
    with pytest.raises(DataError, match="game.extra_passes"):
        load_recipe(missing)


def test_seeds_and_sheets_are_checked(ed):
    assert roll_sequence(ed.rules, 5, 3) == roll_sequence(ed.rules, 5, 3)
    for bad in (-1, 2**62, True):
        with pytest.raises(UsageError):
            roll_sequence(ed.rules, bad, 3)
    with pytest.raises(UsageError):
        roll_sequence(ed.rules, 1, 0)
    with pytest.raises(UsageError, match="sheets"):
        load(Network.load(), sheets=0)
    with pytest.raises(UsageError, match="challenge"):
        load(Network.load(), challenge="x1")


def test_cli_bad_input_exits_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, "simulate", "dice", "--games", "1", "--scope", "district in zone 1",
                           "--results", str(tmp_path / "r.jsonl"), "--no-progress")
    assert code == 2 and "no star station" in err
    disconnected = write_dataset(tmp_path / "split", routes="line,branch,seq,station\nred,main,1,alpha\nred,main,2,bravo\n"
                                 "red,main,3,charlie\nred,main,4,delta\nblue,main,1,foxtrot\nblue,main,2,golf\n")
    code, _, err = run_cli(capsys, "play", "dice", "--data", str(disconnected), "--json")
    assert code == 2 and "disconnected" in err
    code, out, _ = run_cli(capsys, "play", "dice", "--data", str(ROOT / "tests" / "data" / "tinycity"), "--json")
    assert code == 0 and json.loads(out)["scores"]
