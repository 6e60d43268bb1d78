"""Every kind of bad data is reported with file, line and column, all at once, never a traceback."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tubedeck.cli import main
from tubedeck.dataset import read_dataset
from tubedeck.errors import DataError
from tubedeck.network import Network

from conftest import TINY_LINES, TINY_ROUTES, TINY_STATIONS, write_dataset


def problems_of(directory):
    with pytest.raises(DataError) as info:
        read_dataset(directory)
    return info.value.problems


def one(problems, file, column=None):
    hits = [p for p in problems if p.file == file and (column is None or p.column == column)]
    assert hits, f"no problem for {file} [{column}] in {problems}"
    return hits[0]


def test_missing_column(tmp_path):
    d = write_dataset(tmp_path, stations=TINY_STATIONS.replace(",zone,", ",zonez,", 1))
    p = one(problems_of(d), "stations.csv", "zone")
    assert p.line == 1 and "missing column" in p.message


def test_duplicate_id(tmp_path):
    d = write_dataset(tmp_path, stations=TINY_STATIONS + "alpha,Alpha Again,51.5,-0.1,1,,,,,,\n")
    p = one(problems_of(d), "stations.csv", "id")
    assert p.line == 8 and "duplicate id 'alpha'" in p.message and "line 2" in p.message


def test_unknown_station_in_routes(tmp_path):
    d = write_dataset(tmp_path, routes=TINY_ROUTES + "blue,main,4,zulu\n")
    p = one(problems_of(d), "routes.csv", "station")
    assert p.line == 11 and "unknown station 'zulu'" in p.message


def test_unknown_line_in_routes(tmp_path):
    d = write_dataset(tmp_path, routes=TINY_ROUTES + "green,main,1,alpha\ngreen,main,2,bravo\n")
    p = one(problems_of(d), "routes.csv", "line")
    assert p.line == 11 and "unknown line 'green'" in p.message


def test_route_repeating_a_station_consecutively(tmp_path):
    d = write_dataset(tmp_path, routes=TINY_ROUTES + "blue,main,4,charlie\n")
    p = one(problems_of(d), "routes.csv", "station")
    assert p.line == 11 and "repeats the previous stop" in p.message


def test_line_with_no_route(tmp_path):
    d = write_dataset(tmp_path, lines=TINY_LINES + "green,Green Line,#00782A,#FFFFFF\n")
    p = one(problems_of(d), "lines.csv", "id")
    assert p.line == 4 and "no route" in p.message


def test_bad_hex_colour(tmp_path):
    d = write_dataset(tmp_path, lines=TINY_LINES.replace("#E32017", "red"))
    p = one(problems_of(d), "lines.csv", "colour")
    assert p.line == 2 and "bad hex colour 'red'" in p.message


@pytest.mark.parametrize("zone", ["0", "1-2", "A", "", "12", "3/2", "2/4"])
def test_bad_zone(tmp_path, zone):
    d = write_dataset(tmp_path, stations=TINY_STATIONS.replace("Hackney", "Hackney").replace(",51.54,-0.14,2,", f",51.54,-0.14,{zone},"))
    p = one(problems_of(d), "stations.csv", "zone")
    assert p.line == 6


@pytest.mark.parametrize("column,old,new", [("lat", "51.54", "95.0"), ("lon", "-0.14", "-181"), ("lat", "51.54", "north")])
def test_lat_lon_out_of_range(tmp_path, column, old, new):
    d = write_dataset(tmp_path, stations=TINY_STATIONS.replace(f"{old}", new, 1))
    p = one(problems_of(d), "stations.csv", column)
    assert p.line == 6


def test_non_utf8_bytes(tmp_path):
    d = write_dataset(tmp_path)
    raw = (d / "stations.csv").read_bytes().replace(b"Golf", b"G\xf6lf")
    (d / "stations.csv").write_bytes(raw)
    p = one(problems_of(d), "stations.csv")
    assert p.line == 7 and "not UTF-8" in p.message


def test_empty_file(tmp_path):
    d = write_dataset(tmp_path, routes="")
    p = one(problems_of(d), "routes.csv")
    assert "empty" in p.message


def test_every_problem_reported_at_once(tmp_path):
    d = write_dataset(tmp_path, lines=TINY_LINES.replace("#E32017", "#XYZ"),
                      stations=TINY_STATIONS.replace(",2,Hackney", ",0,Hackney"),
                      routes=TINY_ROUTES + "blue,main,4,zulu\n")
    files = {p.file for p in problems_of(d)}
    assert files == {"lines.csv", "stations.csv", "routes.csv"}


def test_cli_reports_bad_data_with_exit_2_and_no_traceback(tmp_path, capsys):
    d = write_dataset(tmp_path, lines=TINY_LINES.replace("#E32017", "#XYZ"))
    assert main(["data", "check", "--data", str(d)]) == 2
    err = capsys.readouterr().err
    assert "lines.csv:2 [colour]" in err and "Traceback" not in err


def test_cli_stats_json_on_tiny(tiny_dir, capsys):
    import json

    with pytest.raises(SystemExit) as exit_info:
        main(["data", "stats", "--data", str(tiny_dir), "--json"])
    assert exit_info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stations"] == 6 and {r["line"]: r["stations"] for r in data["per_line"]} == {"blue": 3, "red": 5}


def test_cli_unknown_option_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["data", "check", "--no-such-option"])
    assert exit_info.value.code == 2


# -- property: random edits of a valid dataset validate or give only structured errors -----

EDIT_CHARS = st.sampled_from(list(",\n\"#;/-.0123456789abcxyz\u00e9 ") + ["\ufffd", "\x00"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(["stations.csv", "lines.csv", "routes.csv"]),
       edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 3), st.text(EDIT_CHARS, max_size=4)),
                      min_size=1, max_size=4),
       raw_bytes=st.binary(max_size=3))
def test_random_edits_never_raise_anything_but_data_error(tmp_path, file, edits, raw_bytes):
    d = write_dataset(tmp_path / f"d{random.random()}")
    data = (d / file).read_bytes()
    for pos, cut, text in edits:
        pos %= len(data) + 1
        data = data[:pos] + text.encode() + data[pos + cut:]
    if raw_bytes:
        data += raw_bytes
    (d / file).write_bytes(data)
    try:
        Network.load(d)  # validation and the model built on it: only DataError may escape
    except DataError as exc:
        assert exc.problems and all(p.file in {"stations.csv", "lines.csv", "routes.csv"} for p in exc.problems)
        assert all(isinstance(p.message, str) and p.message for p in exc.problems)


def test_cli_json_errors_are_json(tmp_path, capsys):
    import json

    d = write_dataset(tmp_path, lines=TINY_LINES.replace("#E32017", "#XYZ"))
    assert main(["data", "check", "--data", str(d), "--json"]) == 2
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False and payload["problems"][0]["column"] == "colour"
