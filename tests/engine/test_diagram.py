"""The octilinear layout engine (generator/diagram), checked by its independent validator.

On a window of London's centre small enough for a fast deterministic budget (15 stations
around Oxford Circus): CP-SAT lays it out (every edge octilinear, circular orders kept, nothing
crossing), the validator (geometry only) agrees, and the same cut gives the same layout twice.
The validator itself is checked on layouts made wrong by hand.
"""

from __future__ import annotations

import math

import pytest

from tubedeck.game import network
from tubedeck.generator.diagram import Cut, Edge, from_network, problems, solve


@pytest.fixture(scope="module")
def window() -> Cut:
    net = network(None)
    c = net.stations["oxford-circus"]
    keep = {s for s, st in net.stations.items() if math.hypot((st.lat - c.lat) * 111, (st.lon - c.lon) * 69) <= 1.5}
    return from_network(net, keep)


@pytest.fixture(scope="module")
def laid(window):
    return solve(window, det_time=5.0)


def test_a_window_of_london_lays_out_as_a_diagram(window, laid):
    assert len(window.points) == 15 and len(window.edges) == 20
    assert laid.status in ("OPTIMAL", "FEASIBLE")
    assert problems(window, laid.positions, min_length=2) == []
    for (a, b), d in laid.directions.items():
        dx = laid.positions[b][0] - laid.positions[a][0]
        dy = laid.positions[b][1] - laid.positions[a][1]
        assert math.isclose(math.atan2(dy, dx), math.radians(45 * d) if d < 5 else math.radians(45 * d - 360))


def test_the_same_cut_gives_the_same_layout(window, laid):
    again = solve(window, det_time=5.0)
    assert again.positions == laid.positions and again.status == laid.status
    assert window.digest() == from_network(network(None), set(window.points)).digest()


def test_the_validator_sees_what_is_wrong():
    cut = Cut({"a": (0, 0), "b": (1, 0), "c": (0, 1), "d": (1, 1)}, {}, (Edge("a", "d", ("x",)), Edge("b", "c", ("y",))), ())
    crossing = {"a": (0, 0), "b": (2, 0), "c": (0, 2), "d": (2, 2)}
    assert any("meets" in p for p in problems(cut, crossing))
    bent = {"a": (0, 0), "b": (4, 0), "c": (0, 4), "d": (3, 1)}
    assert any("not octilinear" in p for p in problems(cut, bent))
    stacked = {"a": (0, 0), "b": (0, 0), "c": (0, 4), "d": (4, 4)}
    assert any("share the point" in p for p in problems(cut, stacked))
    star = Cut({"o": (0, 0), "e": (1, 0), "n": (0, 1), "w": (-1, 0)}, {},
               (Edge("e", "o", ()), Edge("n", "o", ()), Edge("o", "w", ())), ())
    assert problems(star, {"o": (0, 0), "e": (2, 0), "n": (0, 2), "w": (-2, 0)}) == []
    swapped = {"o": (0, 0), "e": (-2, 0), "n": (0, 2), "w": (2, 0)}  # east and west traded: mirrored
    assert any("another order" in p for p in problems(star, swapped))
