"""The network model: loading, queries and scopes, on a tiny dataset and on London."""

from __future__ import annotations

import pytest

from tubedeck.errors import UsageError
from tubedeck.network import Network


def test_tiny_loads_and_derives_adjacency(tiny_dir):
    net = Network.load(tiny_dir)
    assert len(net.stations) == 6 and set(net.lines) == {"red", "blue"}
    assert net.neighbours("charlie", "red") == ("bravo", "delta", "foxtrot")
    assert net.neighbours("charlie") == ("alpha", "bravo", "delta", "foxtrot")
    assert net.termini("red") == ("alpha", "delta", "foxtrot")
    assert net.termini("blue") == ("charlie", "golf")
    assert net.interchanges() == ("alpha", "charlie")
    assert net.position("charlie", "red") == (("main", 3), ("spur", 1))
    assert net.station("charlie").zones == (1, 2)
    assert net.station("delta").interchanges == ("DLR", "river")
    assert net.station("foxtrot").step_free is None  # blank = unknown, never invented


def test_edges_are_never_typed_twice(tiny_dir):
    net = Network.load(tiny_dir)
    assert ("alpha", "charlie", "blue") in net.edges()
    assert len(net.edges("red")) == 4 and len(net.edges()) == 6


def test_subnetwork_by_zone_cuts_branches(tiny_dir):
    net = Network.load(tiny_dir)
    z1 = net.subnetwork(zones=[1])
    assert set(z1.stations) == {"alpha", "bravo", "charlie", "golf"}  # 1/2 counts for zone 1
    assert z1.neighbours("charlie", "red") == ("bravo",)
    z2 = net.subnetwork(zones=[2])
    assert set(z2.stations) == {"charlie", "delta", "foxtrot"}
    assert z2.termini("red") == ("delta", "foxtrot")


def test_subnetwork_by_line(tiny_dir):
    blue = Network.load(tiny_dir).subnetwork(lines=["blue"])
    assert set(blue.lines) == {"blue"} and set(blue.stations) == {"golf", "alpha", "charlie"}
    with pytest.raises(UsageError, match="unknown line 'green'"):
        Network.load(tiny_dir).subnetwork(lines=["green"])


def test_unknown_station_query_is_a_usage_error(tiny_dir):
    with pytest.raises(UsageError):
        Network.load(tiny_dir).neighbours("nowhere")


# -- London -------------------------------------------------------------------------------

TFL_COUNTS = {
    "district": 60, "piccadilly": 53, "northern": 52, "central": 49, "circle": 36, "metropolitan": 34,
    "hammersmith-city": 29, "jubilee": 27, "bakerloo": 25, "victoria": 16, "waterloo-city": 2,
}


def test_london_stations_per_line_as_tfl_counts(london):
    assert len(london.stations) == 272
    assert {line: len(london.stations_on(line)) for line in london.lines} == TFL_COUNTS


def _by_name(net, name):
    return next(s for s, st in net.stations.items() if st.name == name)


def test_northern_branches_and_termini(london):
    names = {london.stations[s].name for s in london.termini("northern")}
    assert names == {"Edgware", "High Barnet", "Mill Hill East", "Morden", "Battersea Power Station"}
    # Both central London branches exist: Charing Cross and Bank each reach Kennington.
    kennington = _by_name(london, "Kennington")
    nbrs = {london.stations[s].name for s in london.neighbours(kennington, "northern")}
    assert nbrs == {"Waterloo", "Elephant & Castle", "Oval", "Nine Elms"}
    euston = _by_name(london, "Euston")
    assert len(london.neighbours(euston, "northern")) == 4  # Camden Town x2 branches + Warren St + Mornington Cr
    assert len(london.branches_of("northern")) >= 6


def test_circle_shape(london):
    g = london.line_graph("circle")
    assert g.number_of_nodes() == 36
    ends = [london.stations[s].name for s in london.termini("circle")]
    assert len(ends) == 1 and ends[0].startswith("Hammersmith")
    # The loop: one cycle, through Edgware Road; the Hammersmith arm joins it.
    import networkx as nx

    cycles = nx.cycle_basis(g)
    # Hammersmith arm: Hammersmith .. Royal Oak, Paddington (H&C) = 9 stations off the 27-station loop.
    assert len(cycles) == 1 and len(cycles[0]) == 27
    loop_names = {london.stations[s].name for s in cycles[0]}
    assert any(n.startswith("Edgware Road") for n in loop_names)
    assert "Liverpool Street" in loop_names and "Tower Hill" in loop_names


def test_hainault_loop_and_heathrow_loop(london):
    import networkx as nx

    assert len(nx.cycle_basis(london.line_graph("central"))) == 1
    assert len(nx.cycle_basis(london.line_graph("piccadilly"))) == 1
    names = {london.stations[s].name for s in london.termini("piccadilly")}
    assert names == {"Cockfosters", "Uxbridge", "Heathrow Terminal 5"}


def test_london_zone_one(london):
    assert sum(1 for st in london.stations.values() if st.zone == "1") == 62
    assert london.station(_by_name(london, "Kennington")).zone == "1/2"


def test_london_names_as_tfl_writes_them(london):
    names = {st.name for st in london.stations.values()}
    for name in ("King's Cross St Pancras", "Heathrow Terminals 2 & 3", "Harrow & Wealdstone", "St James's Park"):
        assert name in names
