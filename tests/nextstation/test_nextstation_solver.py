"""The CP-SAT best round agrees with the independent exhaustive search (which walks the rules
engine's own legal moves) on many seeded flip orders; every CP-SAT line replays legally."""

from __future__ import annotations

import re

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.edition import load
from tubedeck.solver.nextstation.check import ParSummary
from tubedeck.solver.nextstation.exhaustive import best_round as exhaustive
from tubedeck.solver.nextstation.model import best_round
from tubedeck.solver.nextstation.solve import solve_round

from ns_helpers import replay, short_rounds


@pytest.fixture(scope="module")
def ed():
    return load(None)


@pytest.mark.parametrize("count,least,most", [(14, 5, 6), (4, 7, 7)])
@pytest.mark.slow
def test_cp_sat_agrees_with_exhaustive_search(ed, count, least, most):
    n = 0
    for ts, dep in short_rounds(ed, count, most, least):
        want, _ = exhaustive(ed.board, ed.book, ts, dep)
        got = best_round(ed.board, ed.book, ts, dep, time_limit=60)
        assert got.status == "OPTIMAL" and got.score == want, (ts, dep)
        assert replay(ed, ts, dep, got.draws) == got.score
        n += 1
    assert n == count


def test_earlier_lines_constrain_the_round(ed):
    ts = next(short_rounds(ed, 1, 6))[0]
    dep = ed.board.departure("green").id
    free = best_round(ed.board, ed.book, ts, dep)
    drawn = frozenset(ed.board.section_between[frozenset((dep, v))].index for v in ("r3c4", "r1c3", "r2c6"))
    want, _ = exhaustive(ed.board, ed.book, ts, dep, drawn)
    got = best_round(ed.board, ed.book, ts, dep, drawn)
    assert got.score == want <= free.score


def test_solve_command_inputs(ed):
    r = solve_round(ed, flips="u-circle,s-joker,u-square,switch,u-triangle,u-pentagon,u-joker", pencil="green")
    assert r.result.status == "OPTIMAL" and r.as_dict()["score"] == r.result.score
    assert any("proven best" in line for line in r.describe())
    for kwargs in ({"round": 5}, {"pencil": "orange"}, {"flips": "u-circle"}, {"flips": ""}, {"seed": -1}, {"time_limit": 0}):
        with pytest.raises(UsageError):
            solve_round(ed, **kwargs)


def test_par_records_are_declared_and_hold_no_wall_clock_time(ed):
    """A par record passes its declaration and holds no time: the same seed, the same bytes."""
    from tubedeck.games import record_schema
    from tubedeck.solver.nextstation.check import ParCheck

    check = ParCheck(10.0)
    a, b = check()(3), check()(3)
    assert a == b and "seconds" not in a and check.validate(a) is None
    assert record_schema(check.header()) is check.record
    assert check.validate({**a, "score": 2000}) and check.validate({**a, "status": "DONE"})
    assert check.validate({**a, "bound": a["score"] - 1})  # a bound below the line found
    s = ParSummary()
    for score in (36, 40):
        s.add({"status": "OPTIMAL", "score": score, "bound": score, "turns": 7, "pencil": "green"})
    d = s.as_dict()
    assert (d["par"]["p10"], d["par"]["p90"]) == (36.4, 39.6) and "seconds" not in d


def test_answers_name_stations_as_the_sheets_do(ed):
    """solve prints the sheets' coordinates (D8: row letter from the top, column from 1), and a
    generated map's real names, never the data's ids (r3c7)."""
    assert ed.board.coordinate("r3c7") == "D8" and ed.board.place("r3c7") == "D8"
    r = solve_round(ed, seed=1, round=2, engine="auto")
    text = "\n".join(r.describe())
    assert f"from {ed.board.coordinate(r.departure)}," in text and "r3c7" not in text
    moves = [line.split()[-3:] for line in r.describe() if line.startswith("  turn") and "->" in line]
    assert moves and all(re.fullmatch(r"[A-J]\d{1,2}", m[0]) and re.fullmatch(r"[A-J]\d{1,2}", m[2]) for m in moves)
    from tubedeck.game import network
    gen = load(network(None), map="3")
    r = solve_round(gen, seed=1, round=2, engine="auto")
    assert gen.board.place(r.departure) in "\n".join(r.describe())
    assert gen.board.by_id[r.departure].name in gen.board.place(r.departure)


def test_check_and_simulate_name_their_map_and_keep_one_file_per_map(capsys, tmp_path, monkeypatch):
    """Two maps (or zones) side by side: each run names its map and writes its own results file
    (the same name made the second run refuse the first's file)."""
    from conftest import run_cli
    monkeypatch.chdir(tmp_path)
    seen = set()
    for extra in (["--map", "classic"], [], ["--map", "1", "--zones", "1-3"]):  # (the default: map 1, as printed)
        classic = extra[1:2] == ["classic"]
        code, out, err = run_cli(capsys, "check", "nextstation", "--games", "1", "--no-progress", *extra)
        assert code == 0, err
        assert ("on the classic map" if classic else f"on map 1{', zones 1-3' if len(extra) > 2 else ''} (") in out
        seen.add(out.strip().splitlines()[-1])
        code, out, err = run_cli(capsys, "simulate", "nextstation", "--games", "1", "--no-progress", *extra)
        assert code == 0, err
        assert ("played on the classic map" if classic
                else f"played on map 1{', zones 1-3' if len(extra) > 2 else ''}\n") in out
        seen.add(out.strip().splitlines()[-1])
    assert len(seen) == 6  # six results files


def test_play_and_solve_default_to_map_1_the_map_make_run_prints(capsys):
    """Without --map, play and solve play generated map 1 (page 1 of the map.pdf make run prints),
    not the classic, which is never printed; --map classic still plays the published layout."""
    from conftest import run_cli
    for args in (("play", "nextstation", "--seed", "2"), ("solve", "nextstation", "--seed", "2")):
        outs = {}
        for extra in ((), ("--map", "1"), ("--map", "classic")):
            code, out, err = run_cli(capsys, *args, *extra)
            assert code == 0, err
            outs[extra] = re.sub(r"\d+\.\d+ s\b", "T s", out)  # the solve's own time: the one part that varies
        assert outs[()] == outs[("--map", "1")] != outs[("--map", "classic")], args
        assert "Whitechapel" in outs[()] and "Whitechapel" not in outs[("--map", "classic")]  # (names: a generated map)
