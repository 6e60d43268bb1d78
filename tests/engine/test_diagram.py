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
from tubedeck.generator.diagram import Cut, Edge, Spec, from_network, lns, problems, solve


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
    # a-d and b-c side by side in the city, so they may not cross on the map
    cut = Cut({"a": (0, 0), "d": (1, 0), "b": (0, 1), "c": (1, 1)}, {}, (Edge("a", "d", ("x",)), Edge("b", "c", ("y",))), ())
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


# -- the large-neighbourhood search, the spec and the cache ------------------------------------------


@pytest.fixture(scope="module")
def wider() -> Cut:
    """25 stations round Oxford Circus (one pair of edges crosses in the city: the Metropolitan
    over the Northern and Victoria between Euston and Warren Street)."""
    net = network(None)
    c = net.stations["oxford-circus"]
    keep = {s for s, st in net.stations.items()
            if math.hypot((st.lat - c.lat) * 111.2, (st.lon - c.lon) * 111.2 * math.cos(math.radians(c.lat))) <= 2.0}
    return from_network(net, keep)


@pytest.fixture(scope="module")
def wider_laid(wider):
    return lns(wider, Spec(), budget=1.5)


def test_the_search_lays_out_a_wider_window_the_validator_accepts(wider, wider_laid):
    from tubedeck.generator.diagram.layout import broken, city_crossings

    assert len(wider.points) == 25 and len(city_crossings(wider)) == 1
    spec = Spec()
    lay = wider_laid
    assert lay.status == "FEASIBLE" and broken(wider, lay.positions, spec) == []
    assert problems(wider, lay.positions, min_length=spec.min_length) == []
    apart = [max(abs(p[0] - q[0]), abs(p[1] - q[1])) for s, p in lay.positions.items()
             for t, q in lay.positions.items() if s < t]
    assert min(apart) >= spec.spacing  # stations two steps apart, joined or not
    again = lns(wider, spec, budget=1.5)
    assert again.positions == lay.positions  # deterministic: CP-SAT's deterministic time, one worker


def test_room_and_bounds_are_kept(wider):
    """An edge given room is at least that long; the layout stays inside the width and height."""
    edge = wider.edges[0]
    roomy = Cut(wider.points, wider.names, wider.edges, wider.turns, ((edge.a, edge.b, 5),))
    lay = lns(roomy, Spec(width=30, height=30), budget=1.5)
    (ax, ay), (bx, by) = lay.positions[edge.a], lay.positions[edge.b]
    assert max(abs(ax - bx), abs(ay - by)) >= 5
    assert problems(roomy, lay.positions, min_length=2) == []
    assert all(0 <= x <= 30 and 0 <= y <= 30 for x, y in lay.positions.values())
    short = {**lay.positions, edge.b: (ax + 2 if bx > ax else ax - 2, ay) if ay == by else lay.positions[edge.b]}
    if ay == by:  # the validator reads the room too
        assert any("shorter than 5" in p for p in problems(roomy, short, min_length=2))


def test_the_validator_lets_city_crossings_cross_once():
    # a-d and b-c cross in the city (an X); e-f and g-h do not (two parallel strokes)
    cut = Cut({"a": (0, 0), "d": (1, 1), "b": (1, 0), "c": (0, 1)}, {}, (Edge("a", "d", ("x",)), Edge("b", "c", ("y",))), ())
    assert problems(cut, {"a": (0, 0), "d": (2, 2), "b": (2, 0), "c": (0, 2)}) == []
    apart = Cut({"a": (0, 0), "d": (1, 0), "b": (0, 1), "c": (1, 1)}, {}, (Edge("a", "d", ("x",)), Edge("b", "c", ("y",))), ())
    assert any("meets" in p for p in problems(apart, {"a": (0, 0), "d": (2, 2), "b": (2, 0), "c": (0, 2)}))


def test_the_cache_reads_back_what_it_wrote_and_ignores_a_damaged_file(window, tmp_path, monkeypatch):
    from tubedeck.generator.diagram import cache

    monkeypatch.setenv("TUBEDECK_CACHE", str(tmp_path))
    spec = Spec()
    first, hit = cache.laid_out(window, spec, budget=0.5)
    assert not hit and first.positions
    again, hit = cache.laid_out(window, spec, budget=0.5)
    assert hit and again.positions == first.positions and again.directions == first.directions
    (file,) = tmp_path.glob("*.json")
    file.write_text('{"positions": {"nowhere": [0, 0]}}')
    solved, hit = cache.laid_out(window, spec, budget=0.5)
    assert not hit and solved.positions == first.positions
    assert cache.key(window, spec, 0.5) != cache.key(window, Spec(spacing=3), 0.5) != cache.key(window, spec, 1.0)


def test_city_order_reads_a_folded_map(window, laid):
    from tubedeck.generator.diagram.check import city_order

    assert city_order(window, laid.positions) >= 0.9
    mirrored = {s: (-x, y) for s, (x, y) in laid.positions.items()}  # west and east traded
    assert city_order(window, mirrored) <= 0.6


def test_a_window_is_a_model_of_its_own_stations(wider, wider_laid):
    """A window's model holds variables for the stations it frees and none for the fixed ones
    (numbers in its constraints), and writes no separation for a pair that cannot meet: a window
    of three stations on a 25-station map stays small."""
    from tubedeck.generator.diagram.layout import _build, _frame

    spec = Spec()
    lay = wider_laid
    frame = _frame(wider, spec.min_length)
    free = set(sorted(lay.positions)[:3])
    built = _build(wider, frame, spec, soft=True, free=free, current=lay, move=2, reach=0.0)
    names = [v.name for v in built.model.proto.variables]
    placed = {n[2:] for n in names if n.startswith(("x_", "y_"))}
    assert placed == free
    whole = _build(wider, frame, spec, soft=True, free=set(wider.points), current=lay, move=2, reach=0.0)
    assert built.pairs < whole.pairs / 4 and len(names) < len(whole.model.proto.variables) / 4


def test_a_grown_map_stays_off_the_grid_edge_and_new_stations_start_beside_the_placed():
    """A map grown off its geography is moved back to the middle of the grid after each step
    (else a station beyond the edge has no room); a station with no neighbour placed yet starts
    beside the placed station nearest it in the city, not where the city would put it on the grid."""
    from tubedeck.generator.diagram.layout import Layout, _beside, _centred, _frame

    cut = Cut({"a": (0.0, 0.0), "b": (1.0, 0.0), "c": (5.0, 0.0)}, {"a": "A", "b": "B", "c": "C"},
              (Edge("a", "b", ("l",)),), ())
    frame = _frame(cut, 2)
    edge = Layout({"a": (0, 1), "b": (2, 1)}, {("a", "b"): 0}, "FEASIBLE")
    mid = _centred(edge, frame)
    xs, ys = [p[0] for p in mid.positions.values()], [p[1] for p in mid.positions.values()]
    assert abs((min(xs) + max(xs)) - frame.size) <= 1 and abs((min(ys) + max(ys)) - frame.size_y) <= 1
    assert mid.positions["b"][0] - mid.positions["a"][0] == 2  # moved, not changed
    far = {"a": (20, 10), "b": (22, 10)}  # the map has drifted from the city's grid
    x, y = _beside(cut, frame, far, "c")
    assert (x, y) == (22 + round(4.0 / frame.unit), 10) != frame.start["c"]
