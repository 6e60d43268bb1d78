"""``tubedeck data import``: a GTFS feed to the project's dataset.

1. a real feed (the 1 and 2 trains of New York's subway, ``tests/data/gtfs/``, credited in
   data/README.md) imports into a dataset the project's own validator accepts;
2. a feed written from London's dataset imports back to the same stations and, line by line, the
   same adjacencies (the round trip);
3. the decisions: complexes merged from transfers, variants merged into their line, shuttles that
   share a short name kept apart, rare patterns left out, express skips dropped, zone rings;
4. every problem of a feed is located (file, line, column) and exits 2, never a traceback.
"""

from __future__ import annotations

import csv
import zipfile
from collections import defaultdict
from pathlib import Path

import pytest

from tubedeck.content import data_root
from tubedeck.errors import DataError, UsageError
from tubedeck.gtfs import branches, convert, slug, write
from tubedeck.network import Network

from conftest import run_cli

FIXTURE = Path(__file__).parent.parent / "data" / "gtfs" / "nyc-subway-1-2.zip"


def adjacency(folder: Path) -> dict[str, set[frozenset[str]]]:
    out: dict[str, set[frozenset[str]]] = defaultdict(set)
    rows = list(csv.DictReader(open(folder / "routes.csv", encoding="utf-8")))
    for a, b in zip(rows, rows[1:]):
        if (a["line"], a["branch"]) == (b["line"], b["branch"]):
            out[a["line"]].add(frozenset((a["station"], b["station"])))
    return dict(out)


def test_a_real_feed_imports_into_a_valid_dataset(tmp_path):
    dataset = convert(FIXTURE)
    write(dataset, tmp_path, city="New York", source="fixture", terms="MTA terms")
    net = Network.load(str(tmp_path))
    summary = net.summary()
    assert summary["lines"] == 2 and summary["stations"] == len(dataset.stations) == 81
    assert {line.name for line in dataset.lines} == {"1", "2"}
    adj = adjacency(tmp_path)
    # the 1 runs Van Cortlandt Park-242 St to South Ferry, a stop at a time
    assert frozenset(("van-cortlandt-park-242-st", "238-st")) in adj["1"]
    assert all(len(e) == 2 for e in adj["1"])
    toml = (tmp_path / "city.toml").read_text()
    assert 'name = "New York"' in toml and "Not endorsed" in toml


def london_feed(folder: Path) -> Path:
    """A GTFS zip of London's dataset: a station a stop (with one platform), a line a route, each
    branch one trip."""
    root = data_root()
    stations = list(csv.DictReader(open(root / "stations.csv", encoding="utf-8")))
    lines = list(csv.DictReader(open(root / "lines.csv", encoding="utf-8")))
    routes = list(csv.DictReader(open(root / "routes.csv", encoding="utf-8")))
    trips: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in routes:
        trips[(r["line"], r["branch"])].append(r["station"])
    path = folder / "london.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("routes.txt", "route_id,route_short_name,route_type,route_color,route_text_color\n" + "".join(
            f"{ln['id']},{ln['id']},1,{ln['colour'][1:]},{ln['text_colour'][1:]}\n" for ln in lines))
        z.writestr("stops.txt", "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n" + "".join(
            f"{s['id']},\"{s['name']}\",{s['lat']},{s['lon']},1,\n{s['id']}-p,\"{s['name']}\",{s['lat']},{s['lon']},0,{s['id']}\n"
            for s in stations))
        z.writestr("trips.txt", "route_id,trip_id\n" + "".join(f"{ln},{ln}-{br}\n" for ln, br in trips))
        z.writestr("stop_times.txt", "trip_id,stop_id,stop_sequence\n" + "".join(
            f"{ln}-{br},{sid}-p,{i}\n" for (ln, br), stops in trips.items() for i, sid in enumerate(stops, 1)))
    return path


def test_london_round_trips_through_gtfs(tmp_path):
    dataset = convert(london_feed(tmp_path), share=0.0, express="keep", centre="Bank")
    write(dataset, tmp_path / "back", city="London", source="round trip", terms="")
    Network.load(str(tmp_path / "back"))  # valid
    root = data_root()
    assert {s for s in dataset.stations} == {r["id"] for r in csv.DictReader(open(root / "stations.csv"))}
    original, back = adjacency(root), adjacency(tmp_path / "back")
    assert back == original
    assert next(s for s in dataset.stations.values() if s.id == "bank").zone == "1"


def test_branches_cover_every_edge_once_and_start_at_junctions():
    edges = {frozenset(e) for e in [("a", "b"), ("b", "c"), ("c", "d"), ("c", "x"), ("x", "y"), ("b", "z")]}
    cut = branches(edges, lambda s: s.upper())
    pairs = [frozenset(p) for _, stops in cut for p in zip(stops, stops[1:])]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, edges)) and len(pairs) == len(edges)
    assert cut[0][0] == "main" and len(cut[0][1]) == 5  # the longest trail: a-b-c-x-y or y-x-c-b-a
    for _, stops in cut[1:]:
        assert any(stops[0] in other for _, other in cut if other is not stops)  # leaves from a junction
    loop = branches({frozenset(e) for e in [("a", "b"), ("b", "c"), ("c", "a")]}, str)
    assert len(loop) == 1 and loop[0][1][0] == loop[0][1][-1]  # a loop comes back to its start


def feed(tmp_path: Path, **files: str) -> Path:
    base = {
        "routes.txt": "route_id,route_short_name,route_long_name,route_type,route_color\n"
                      "A,A,Avenue,1,0062CF\nAX,AX,Avenue Express,1,0062CF\nS1,S,First Shuttle,1,808183\n"
                      "S2,S,Second Shuttle,1,808183\nBUS,B1,Bus,3,00FF00\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
                     "1,One,40.70,-74.00,1,\n2,Two,40.71,-74.00,1,\n3,Three,40.72,-74.00,1,\n"
                     "4,Four,40.73,-74.00,1,\n5,Two Av,40.711,-74.001,1,\n6,Six,40.80,-74.00,1,\n",
        "transfers.txt": "from_stop_id,to_stop_id,transfer_type\n2,5,2\n",
        "trips.txt": "route_id,trip_id\nA,t1\nA,t2\nAX,t3\nS1,s1\nS2,s2\nBUS,b1\n",
        "stop_times.txt": "trip_id,stop_id,stop_sequence\n"
                          "t1,1,1\nt1,2,2\nt1,3,3\nt1,4,4\nt2,4,1\nt2,3,2\nt2,2,3\nt2,1,4\n"
                          "t3,1,1\nt3,4,2\ns1,3,1\ns1,6,2\ns2,5,1\ns2,6,2\nb1,1,1\nb1,6,2\n",
    }
    base.update(files)
    folder = tmp_path / "feed"
    folder.mkdir(exist_ok=True)
    for name, text in base.items():
        (folder / name).write_text(text)
    return folder


def test_the_decisions(tmp_path):
    d = convert(feed(tmp_path))
    names = {s.name for s in d.stations.values()}
    assert "Two / Two Av" in names  # a complex from a transfer between two stations
    assert {line.id for line in d.lines} == {"a", "s1", "s2"}  # AX into A; shuttles apart; no bus
    assert {line.name for line in d.lines} == {"A", "First Shuttle", "Second Shuttle"}
    a = next(line for line in d.lines if line.id == "a")
    edges = {frozenset(p) for _, stops in a.branches for p in zip(stops, stops[1:])}
    assert frozenset(("one", "four")) not in edges  # the express skip is dropped...
    kept = convert(feed(tmp_path), express="keep")
    a = next(line for line in kept.lines if line.id == "a")
    assert frozenset(("one", "four")) in {frozenset(p) for _, s in a.branches for p in zip(s, s[1:])}  # ...or kept
    apart = convert(feed(tmp_path), merge={}, auto_merge=False)
    assert "ax" in {line.id for line in apart.lines}
    rings = convert(feed(tmp_path), centre="One", ring_km=2.0)
    zones = {s.name: s.zone for s in rings.stations.values()}
    assert zones["One"] == "1" and zones["Six"] == "6"  # 11.1 km north: the sixth 2 km ring
    stops = ("stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,zone_id\n"
             "1,One,40.70,-74.00,1,,1\n2,Two,40.71,-74.00,1,,1\n3,Three,40.72,-74.00,1,,2\n"
             "4,Four,40.73,-74.00,1,,3\n5,Two Av,40.711,-74.001,1,,2\n6,Six,40.80,-74.00,1,,4\n")
    fares = convert(feed(tmp_path, **{"stops.txt": stops}))
    assert {s.name: s.zone for s in fares.stations.values()} == {
        "Two / Two Av": "1/2", "One": "1", "Three": "2", "Four": "3", "Six": "4"}  # the feed's own zones
    assert "zone_id" in fares.notes[-1] or any("zone_id" in n for n in fares.notes)


@pytest.mark.parametrize("name, text, says", [
    ("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\n1,One,forty,-74\n", "stops.txt:2 [stop_lat]"),
    ("stops.txt", "stop_id,stop_name,stop_lon\n", "stops.txt:1 [stop_lat]: no column 'stop_lat'"),
    ("stop_times.txt", "trip_id,stop_id,stop_sequence\nt1,99,1\n", "stop_times.txt:2 [stop_id]"),
    ("stop_times.txt", "trip_id,stop_id,stop_sequence\nt1,1,first\n", "stop_times.txt:2 [stop_sequence]"),
    ("routes.txt", "route_id,route_type\nA,subway\n", "routes.txt:2 [route_type]"),
    ("routes.txt", "route_id,route_type\nB,3\n", "no route of type"),
    ("routes.txt", "route_id,route_type,route_color\nA,1,blue\n", "routes.txt:2 [route_color]"),
    ("trips.txt", "", "trips.txt:1: empty file"),
])
def test_a_broken_feed_is_located(tmp_path, name, text, says):
    with pytest.raises(DataError) as err:
        convert(feed(tmp_path, **{name: text}))
    assert says in str(err.value)


def test_the_command(tmp_path, capsys):
    code, out, err = run_cli(capsys, "data", "import", str(FIXTURE), "--out", str(tmp_path / "ny"), "--city",
                             "New York", "--centre", "Times Sq-42 St")
    assert code == 0, err
    assert "81 stations, 2 lines" in " ".join(out.split())  # rich wraps at the terminal's width
    code, out, _ = run_cli(capsys, "data", "check", "--data", str(tmp_path / "ny"))
    assert code == 0 and "81 stations" in " ".join(out.split())
    for bad in (["--merge", "FX"], ["--express", "sometimes"], ["--share", "1.5"], ["--ring", "0"],
                ["--modes", "one"], ["--centre", "Atlantis"]):
        code, _, err = run_cli(capsys, "data", "import", str(FIXTURE), "--out", str(tmp_path / "x"), *bad)
        assert code == 2 and "Traceback" not in err and err.strip(), bad
    code, _, err = run_cli(capsys, "data", "import", str(tmp_path / "nothing.zip"), "--out", str(tmp_path / "x"))
    assert code == 2 and "no such GTFS zip or folder" in err


def test_ids_are_the_dataset_slug_rule():
    assert slug("King's Cross St Pancras") == "kings-cross-st-pancras"
    assert slug("Heathrow Terminals 2 & 3") == "heathrow-terminals-2-3"
    assert slug("Times Sq-42 St") == "times-sq-42-st"
    with pytest.raises(UsageError):
        convert(FIXTURE, express="sometimes")


def test_bundled_cities_by_name(capsys):
    code, out, _ = run_cli(capsys, "data", "list")
    assert code == 0 and "london" in out and "new-york" in out and "423 stations, 25 lines" in out
    code, out, _ = run_cli(capsys, "data", "check", "--data", "new-york")
    assert code == 0 and "cities/new-york" in out
    code, _, err = run_cli(capsys, "data", "check", "--data", "atlantis")
    assert code == 2 and "bundled city: london, new-york" in err
    toml = (data_root() / "cities" / "new-york" / "city.toml").read_text()
    assert "Not endorsed" in toml and "MTA New York City Transit" in toml


def test_a_name_stations_share_gets_the_lines_that_stop_there(tmp_path):
    from tubedeck.gtfs import Line, Station, disambiguate
    from tubedeck.names import fold

    stops = ("stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
             "1,One,40.70,-74.00,1,\n2,Two,40.71,-74.00,1,\n3,Three,40.72,-74.00,1,\n"
             "4,Six,40.73,-74.00,1,\n5,Two Av,40.711,-74.001,1,\n6,Six,40.80,-74.00,1,\n")
    d = convert(feed(tmp_path, **{"stops.txt": stops}))
    names = {s.name for s in d.stations.values()}
    assert {"Six (A)", "Six (S)"} <= names and "Six" not in names  # the shuttles' short name S
    assert {"six-a", "six-s"} <= set(d.stations)  # ids are the names' slugs
    assert any("2 stations share a name" in n for n in d.notes)
    # the real feed: the 1 and the 2 each have a 125 St
    real = {s.name for s in convert(FIXTURE).stations.values()}
    assert {"125 St (1)", "125 St (2)"} <= real and "125 St" not in real
    # too long for a card's name line with every line: only the lines the other has not
    lines = {k: Line(k, k.upper(), "#000000", "#FFFFFF") for k in ("1", "2", "3", "4", "a")}
    long = "Long Street Name Over Here Now"
    group = {"x": Station("x", long, 0, 0, lines={"1", "2", "3", "4"}),
             "y": Station("y", long, 0, 0, lines={"4", "a"}),
             "z": Station("z", "Elsewhere", 0, 0, lines={"4"})}
    assert disambiguate(group, lines) == 2
    assert [group[k].name for k in "xyz"] == [f"{long} (1/2/3)", f"{long} (A)", "Elsewhere"]
    # long line names are written as London's two-record stations are
    lines = {k: Line(k, k.title(), "#000000", "#FFFFFF") for k in ("district", "piccadilly", "circle")}
    pair = {"h": Station("h", "Hammersmith", 0, 0, lines={"piccadilly", "district"}),
            "c": Station("c", "Hammersmith", 0, 0, lines={"circle"})}
    disambiguate(pair, lines)
    assert pair["h"].name == "Hammersmith (District & Piccadilly)" and pair["c"].name == "Hammersmith (Circle)"
    # the same lines at two stations of one name: a number tells them apart
    lines = {"s": Line("s", "Shuttle", "#000000", "#FFFFFF", short="S")}
    twins = {"a": Station("a", "Park Pl", 0, 0, lines={"s"}), "b": Station("b", "Park Pl", 0, 0, lines={"s"})}
    disambiguate(twins, lines)
    assert sorted(fold(s.name) for s in twins.values()) == ["park pl s", "park pl s 2"]


def test_no_two_stations_of_new_york_share_a_name():
    from collections import Counter

    from tubedeck.names import fold

    rows = list(csv.DictReader(open(data_root() / "cities" / "new-york" / "stations.csv", encoding="utf-8")))
    repeated = [n for n, k in Counter(fold(r["name"]) for r in rows).items() if k > 1]
    assert not repeated, repeated
    names = {r["name"] for r in rows}
    assert {"Canal St (1/2)", "Canal St (A/C/E)", "34 St-Penn Station (1/2/3)", "86 St (R)"} <= names
    assert all(len(n) <= 34 for n in names)  # a card's name line (the longest, 34, shared by no other)


def test_stop_times_are_held_a_trip_at_a_time_and_any_order_imports_the_same(tmp_path, monkeypatch):
    """A grouped feed is read once, a trip closed when the next begins; rows of a trip scattered
    through the file (shuffled here) give the same dataset, by a second read of those trips."""
    import random
    import tracemalloc

    from tubedeck import gtfs

    reads: list[str] = []
    rows = gtfs.Feed.rows

    def counting(self, name, required=()):
        reads.append(name)
        return rows(self, name, required)

    monkeypatch.setattr(gtfs.Feed, "rows", counting)
    folder = tmp_path / "feed"
    folder.mkdir()
    with zipfile.ZipFile(FIXTURE) as z:
        z.extractall(folder)
    lines = (folder / "stop_times.txt").read_text(encoding="utf-8-sig").splitlines()[:20_001]  # ~460 trips
    (folder / "stop_times.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tracemalloc.start()
    grouped = convert(folder)
    grouped_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert reads.count("stop_times.txt") == 1
    body = lines[1:]
    random.Random(7).shuffle(body)
    (folder / "stop_times.txt").write_text("\n".join([lines[0], *body]) + "\n", encoding="utf-8")
    reads.clear()
    tracemalloc.start()
    shuffled = convert(folder)
    shuffled_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert reads.count("stop_times.txt") == 2  # the scattered trips read again
    assert shuffled.stations == grouped.stations
    assert [(ln.id, ln.branches) for ln in shuffled.lines] == [(ln.id, ln.branches) for ln in grouped.lines]
    # holding one trip, not every trip's stop times (measured in bytes allocated, not time)
    assert grouped_peak < shuffled_peak / 2, (grouped_peak, shuffled_peak)
