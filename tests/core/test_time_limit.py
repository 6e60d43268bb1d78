"""``--time-limit`` is wall-clock seconds for the whole command (a reviewer found `check` reading it
as CP-SAT seconds per deal, 40 s spent at --time-limit 8, and `check klm-bound` per question). A
deal's own budget is ``--deal-limit``. A run stopped by the clock keeps every deal done, in seed
order, stores nothing of a deal it cut, sums up what it did and resumes to the very file one run
writes."""

from __future__ import annotations

import json
import time

from conftest import run_cli


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_a_check_stops_at_its_time_limit_and_resumes_to_the_same_bytes(tmp_path, capsys):
    part, whole = tmp_path / "part.jsonl", tmp_path / "whole.jsonl"
    args = ("check", "klm", "--players", "4", "--no-progress", "--json")
    # (warmed up first: the limit counts start-up, and a cold test process may spend it importing)
    assert run_cli(capsys, *args, "--deals", "1", "--results", str(tmp_path / "warm.jsonl"))[0] == 0
    start = time.perf_counter()
    code, out, err = run_cli(capsys, *args, "--deals", "100000", "--time-limit", "3", "--results", str(part))
    spent = time.perf_counter() - start
    assert code == 0, err
    assert spent < 10 * 3 + 10  # a margin that holds at ten times the load: the point is it stopped, not how fast
    got = json.loads(out)
    done = [r["seed"] for r in _records(part)]
    assert done == list(range(len(done))) and 0 < len(done) < 100000  # a prefix, whole records only
    assert got["stopped"].startswith(f"time limit reached after {len(done)} of 100000 seeds")
    assert got["deals"] == len(done)
    n = len(done) + 3
    assert run_cli(capsys, *args, "--deals", str(n), "--results", str(part))[0] == 0  # resume: no limit
    assert run_cli(capsys, *args, "--deals", str(n), "--results", str(whole))[0] == 0
    assert part.read_bytes() == whole.read_bytes()


def test_not_every_seed_run_fails_require_all(tmp_path, capsys):
    code, out, err = run_cli(capsys, "simulate", "dice", "--games", "100000", "--time-limit", "2", "--no-progress",
                             "--require-all", "--results", str(tmp_path / "r.jsonl"))
    assert code == 1 and "time limit reached" in out and "not every seed was run" in err


def test_a_deal_the_clock_cuts_stores_nothing(tmp_path, capsys):
    """A whole Next Station game takes far longer than 2 s: it is stopped, and not stored."""
    results = tmp_path / "r.jsonl"
    code, out, err = run_cli(capsys, "check", "nextstation", "--game", "--deals", "1", "--seed", "5",
                             "--time-limit", "2", "--no-progress", "--results", str(results))
    assert code == 0, err
    assert "time limit reached after 0 of 1 seed: 0 records stored" in out, out
    assert _records(results) == []


def test_the_bound_check_says_what_is_proven_when_the_clock_stops_it(capsys):
    start = time.perf_counter()
    code, out, err = run_cli(capsys, "check", "klm-bound", "--scope", "london", "--players", "4",
                             "--time-limit", "1")
    # building the whole network's model is cut too (a margin that holds at ten times the load)
    assert time.perf_counter() - start < 10 * 1 + 10
    assert code == 0, err
    assert "undecided within the time limit" in out and "witness below" not in out and "no bound" not in out
    code, out, _ = run_cli(capsys, "check", "klm-bound", "--scope", "london", "--players", "4",
                           "--time-limit", "1", "--json")
    got = json.loads(out)
    assert got["status"] == "undecided" and got["witness_stock"] is None and got["bound_global_turn"] is None


def test_a_deadline_dropped_by_the_interpreter_rings_again(monkeypatch):
    """CPython drops an exception a signal handler raises inside a garbage-collector callback
    ("Exception ignored": the suite met it once). The timer rings again until the deadline is
    caught, so a long seed is still stopped. (Signals come late on a loaded machine, never early: the
    second ring is at least 0.1 + 0.2 s on, and the timer it came from repeats every RING_AGAIN.)"""
    import signal
    import threading

    import pytest

    from tubedeck.solver import runner

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        pytest.skip("needs SIGALRM in the main thread")
    monkeypatch.setattr(runner, "RING_AGAIN", 0.2)
    rang, repeats = [], []
    start = time.perf_counter()
    with pytest.raises(runner._Deadline):
        with runner._alarm(time.perf_counter() + 0.1):
            while time.perf_counter() - start < 30:  # a guard only: the rings come at 0.1 and 0.3 s
                try:
                    time.sleep(0.01)
                except runner._Deadline:
                    rang.append(time.perf_counter() - start)
                    repeats.append(signal.getitimer(signal.ITIMER_REAL)[1])
                    if len(rang) == 1:
                        continue  # dropped, as the interpreter drops it in a gc callback
                    raise
    assert len(rang) == 2 and rang[1] >= 0.1 + 0.2 - 0.01 and repeats == [pytest.approx(0.2)] * 2
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # and once out, it rings no more
