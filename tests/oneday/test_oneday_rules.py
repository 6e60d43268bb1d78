"""One Day in London: the journey validator, one passing and one failing rack per rule."""

from __future__ import annotations

import pytest

from tubedeck.games.oneday.board import derive_map, parse_stations
from tubedeck.games.oneday.journey import validate
from tubedeck.games.oneday.recipe import load_recipe

WINNING = ("Blackfriars, Tower Hill, Aldgate, Farringdon, Baker Street, Oxford Circus, Elephant & Castle, "
           "King's Cross St Pancras, Waterloo, Edgware Road (Bakerloo)")


@pytest.fixture(scope="module")
def gmap(london):
    return derive_map(london, load_recipe())


def check(gmap, text):
    return validate(gmap, parse_stations(gmap, text))


def test_the_texts_winning_example(gmap):
    v = check(gmap, WINNING)
    assert v.valid, v.message
    rides = [(r.line, gmap.name(r.stops[0]), gmap.name(r.stops[-1])) for r in v.journey.rides]
    assert rides == [
        ("district", "Blackfriars", "Aldgate"),
        ("metropolitan", "Aldgate", "Baker Street"),
        ("bakerloo", "Baker Street", "Elephant & Castle"),
        ("northern", "Elephant & Castle", "Waterloo"),
        ("bakerloo", "Waterloo", "Edgware Road (Bakerloo)"),
    ]
    assert v.journey.rides[0].stops[1] == "tower-hill"


def test_length(gmap):
    v = validate(gmap, parse_stations(gmap, "Blackfriars, Tower Hill"))
    assert not v.valid and v.rule == "length"


def test_consecutive_stops_share_a_line(gmap):
    v = check(gmap, WINNING.replace("Farringdon", "Pimlico"))
    assert not v.valid and v.rule == "connect" and v.slot == 4 and "Pimlico" in v.message


def test_any_distance_along_a_line(gmap):
    # the whole District from one end to the other, then back on the Piccadilly
    v = check(gmap, "Edgware Road (Hammersmith & City), Aldgate, Liverpool Street, Bank, Waterloo, Embankment, "
                    "Westminster, Green Park, Victoria, Pimlico")
    assert v.valid, v.message


def test_no_backtracking_on_one_line(gmap):
    v = check(gmap, "Sloane Square, Victoria, Westminster, St James's Park, Embankment, Charing Cross, "
                    "Piccadilly Circus, Oxford Circus, Bond Street, Green Park")
    assert not v.valid and v.rule == "backtrack" and v.slot == 4 and "District" in v.message
    ok = check(gmap, "Sloane Square, Victoria, Westminster, Embankment, Charing Cross, "
                     "Piccadilly Circus, Oxford Circus, Bond Street, Green Park, Hyde Park Corner")
    assert ok.valid, ok.message


def test_a_change_on_the_same_track_keeps_the_direction(gmap):
    # Metropolitan east to Aldgate, then the Hammersmith & City (same track) back west: backtracking
    v = check(gmap, "Baker Street, King's Cross St Pancras, Aldgate, Farringdon, Paddington, "
                    "Marylebone, Oxford Circus, Victoria, Pimlico, Vauxhall")
    assert not v.valid and v.rule == "backtrack" and v.slot == 4
    # the example: any order of the shared stations was "valid" as 8 rides; it is not
    v = check(gmap, "Baker Street, Farringdon, Great Portland Street, Moorgate, Euston Square, Liverpool Street, "
                    "King's Cross St Pancras, Aldgate, Barbican, Baker Street")
    assert not v.valid and v.rule == "backtrack" and v.slot == 3
    # a change onto the other line of the track going on the same way is fine
    v = check(gmap, "Baker Street, Great Portland Street, Euston Square, King's Cross St Pancras, Farringdon, "
                    "Barbican, Moorgate, Liverpool Street, Aldgate, Tower Hill")
    assert v.valid, v.message
    # reversing needs a change through a line not on that track: Northern out, Victoria back
    v = check(gmap, "Baker Street, King's Cross St Pancras, Euston, King's Cross St Pancras, "
                    "Great Portland Street, Baker Street, Oxford Circus, Victoria, Pimlico, Vauxhall")
    assert v.valid, v.message
    lines = [r.line for r in v.journey.rides]
    assert lines[:3] == ["metropolitan", "northern", "victoria"] and lines[3] in ("metropolitan", "hammersmith-city")


def test_line_and_station_recur_after_another_line(gmap):
    # Bakerloo south, Northern, Bakerloo north again through Oxford Circus twice
    v = check(gmap, "Baker Street, Oxford Circus, Waterloo, Embankment, Charing Cross, Oxford Circus, "
                    "Regent's Park, Baker Street, Bond Street, Green Park")
    assert v.valid, v.message
    assert v.journey.stations.count("oxford-circus") == 2
    # ... but not on the same line with no other line in between (that is backtracking)
    bad = check(gmap, "Baker Street, Oxford Circus, Waterloo, Oxford Circus, Regent's Park, Baker Street, "
                      "Bond Street, Green Park, Victoria, Pimlico")
    assert not bad.valid and bad.rule == "backtrack" and bad.slot == 4


def test_never_the_same_station_twice_in_a_row(gmap):
    v = check(gmap, WINNING.replace("Oxford Circus", "Baker Street"))
    assert not v.valid and v.rule == "repeat" and v.slot == 6


def test_first_failing_slot_is_reported(gmap):
    v = check(gmap, "Blackfriars, Tower Hill, Aldgate, Farringdon, Baker Street, Oxford Circus, Elephant & Castle, "
                    "Waterloo, King's Cross St Pancras, Edgware Road (Bakerloo)")
    assert not v.valid and v.slot == 9 and v.rule == "backtrack" and "Northern" in v.message
