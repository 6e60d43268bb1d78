"""London's words on another city's print (docs/data.md, "Another city's words"): built on
``--data new-york``, the rulebooks, rule cards and map keys say the city's name, "the river" and
"the metro" where London's say London, the Thames and the Tube or Underground; the games' names
print as they are (One Day's is its recipe's: One Day in New York); London's print is unchanged.
One test per kind of change, each on the game that has it."""

from __future__ import annotations

from pathlib import Path

from tubedeck.content import data_root, localise
from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.generator import PrintOptions
from tubedeck.generator.rulebook import plain

NY = "new-york"
EAST_RIVER = Path(__file__).parent.parent / "data" / "nextstation" / "east-river.csv"


def book(game: str, data: str | None, **options) -> str:
    from importlib import import_module

    module, name = registry()[game].rulebook.split(":")
    make = getattr(import_module(module), name)
    return " ".join(plain(make(edition(registry()[game], data, **options), PrintOptions.parse())).split())


def test_the_city_s_name_for_london_s():  # Keep London Moving's rulebook
    ny, london = book("klm", NY), book("klm", None)
    assert "about the London Underground" in london and "a station of the London Underground" in london
    assert "about the New York metro" in ny and "a station of the New York metro" in ny
    assert "London Underground" not in ny
    assert "the published card game Keep London Moving" in ny  # a game's name is printed as it is


def test_the_river_for_the_thames():  # Next Station: the rulebook, the reference card and the map's key
    ny, london = book("nextstation", NY), book("nextstation", None)
    assert "Thames section" in london and "Thames" not in ny and "river section" in ny
    assert "this city's maps have none" in ny  # no --river: the rulebook says so, as the map's key does
    assert "this city's maps have none" not in book("nextstation", NY, river=str(EAST_RIVER))
    texts = edition(registry()["nextstation"], NY).book.texts
    assert "Thames" not in " ".join(v for v in texts.values() if isinstance(v, str))
    assert texts["legend_no_river"] == "No river on this map: no river points"
    assert edition(registry()["nextstation"], None).book.texts["legend_thames"].startswith("Thames:")
    objectives = edition(registry()["nextstation"], NY).book.objectives
    assert any(o.title == "Six river crossings" for o in objectives)


def test_the_metro_for_the_tube_and_the_underground():  # Tube Dice and One Day
    ny, london = book("dice", NY), book("dice", None)
    assert "your own Tube map" in london and "your own metro map" in ny
    assert ny.startswith("# Tube Dice")  # the game's name
    oneday = book("oneday", NY)
    assert "a trip on the metro of zone 1" in oneday and "Underground" not in oneday
    assert "One Day in New York is for 2 to 4 players" in oneday and "One Day in London" not in oneday


def test_london_s_words_are_london_s_and_the_swaps_keep_the_games_names():
    ny = data_root() / "cities" / NY
    text = "Next Station: London: cross the Thames on the Tube (Central London); 5th Underground card."
    assert localise(text, None) == localise(text, data_root()) == text
    assert localise(text, ny) == ("Next Station: London: cross the river on the metro (central New York); "
                                  "5th Underground card.")
