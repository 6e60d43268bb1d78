"""The bundled ``surface`` column: the counts and the still-blank stations documented in
data/README.md, a few well-known facts, and the rule for stations whose lines differ.

The numbers are hard-coded on purpose: an edit that fills or blanks a station must update this
file and the README together."""

from __future__ import annotations

from collections import Counter

import pytest

from tubedeck.network import Network

# data/README.md, stations.csv notes, "surface": "Still blank: 6 stations".
STILL_BLANK = {
    "aldgate",
    "bayswater",
    "fulham-broadway",
    "hammersmith-district-piccadilly",
    "high-street-kensington",
    "whitechapel",
}
# data/README.md, "Counts: 115 tunnel, 151 open, 6 blank."
COUNTS = {"tunnel": 115, "open": 151, None: 6}


@pytest.fixture(scope="module")
def net() -> Network:
    return Network.load()


def test_every_value_is_open_tunnel_or_blank(net):
    assert {st.surface for st in net.stations.values()} <= {"open", "tunnel", None}


def test_blank_stations_are_exactly_the_documented_ones(net):
    blank = {sid for sid, st in net.stations.items() if st.surface is None}
    assert len(blank) == 6
    assert blank == STILL_BLANK


def test_counts_match_the_readme(net):
    assert Counter(st.surface for st in net.stations.values()) == COUNTS
    assert sum(COUNTS.values()) == len(net.stations) == 272


@pytest.mark.parametrize("sid", ["oxford-circus", "bank", "hampstead", "pimlico", "euston-square",
                                 "aldgate-east", "heathrow-terminal-5", "hounslow-west"])
def test_stations_in_tunnel(net, sid):
    assert net.station(sid).surface == "tunnel"


@pytest.mark.parametrize("sid", ["upminster", "wimbledon", "amersham", "stanmore", "epping",
                                 "hammersmith-hammersmith-city", "edgware-road-hammersmith-city",
                                 "farringdon", "barbican", "sloane-square"])
def test_stations_in_the_open(net, sid):
    assert net.station(sid).surface == "open"


@pytest.mark.parametrize("sid", ["baker-street", "south-kensington", "gloucester-road", "earls-court",
                                 "kings-cross-st-pancras", "notting-hill-gate"])
def test_mixed_station_with_any_line_in_tunnel_is_tunnel(net, sid):
    # The README rule: tunnel if the platforms of at least one Underground line are in tunnel
    # (Baker Street: Metropolitan platforms in the open, Bakerloo/Jubilee/Circle/H&C in tunnel).
    assert net.station(sid).surface == "tunnel"


@pytest.mark.parametrize("sid", ["finchley-road", "wembley-park", "west-ham", "acton-town", "barons-court"])
def test_station_with_every_line_in_the_open_is_open(net, sid):
    assert net.station(sid).surface == "open"


@pytest.mark.parametrize("line", ["victoria", "waterloo-city"])
def test_wholly_underground_lines(net, line):
    stops = {s for b in net.branches_of(line) for s in b.stations}
    assert stops and all(net.station(s).surface == "tunnel" for s in stops)
