"""Checks at scale: shards joined by ``tubedeck merge`` and a Dask cluster both give the results
file of a single local run, byte for byte; progress without a terminal is a line every 10 s."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import time

import pytest

from tubedeck.cli.run import parse_shard
from tubedeck.errors import UsageError
from tubedeck.solver.runner import run_deals, time_left

from conftest import run_cli as run

CHECK = ("check", "klm", "--deals", "12", "--players", "3", "--no-progress")


def test_shards_merge_into_the_single_run_file(tmp_path, capsys):
    full = tmp_path / "full.jsonl"
    assert run(capsys, *CHECK, "--results", str(full))[0] == 0
    shards = []
    for k in (1, 2, 3):
        path = tmp_path / f"s{k}.jsonl"
        assert run(capsys, *CHECK, "--shard", f"{k}/3", "--results", str(path))[0] == 0
        header = json.loads(path.read_text().splitlines()[0])
        assert header["shard"] == f"{k}/3"
        assert [json.loads(l)["seed"] for l in path.read_text().splitlines()[1:]] == list(range(k - 1, 12, 3))
        shards.append(str(path))
    merged = tmp_path / "merged.jsonl"
    code, out, err = run(capsys, "merge", str(merged), *reversed(shards), "--json")
    assert code == 0 and json.loads(out)["records"] == 12
    assert merged.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("files, message", [
    (("s1.jsonl", "s2.jsonl"), "missing shard(s) 3/3"),
    (("s1.jsonl", "s1.jsonl", "s2.jsonl", "s3.jsonl"), "given twice"),
    (("s1.jsonl", "s2.jsonl", "other.jsonl"), "other parameters"),
    (("full.jsonl",), "not a shard"),
])
def test_bad_merges_exit_2(tmp_path, capsys, files, message):
    for k in (1, 2, 3):
        run(capsys, *CHECK, "--shard", f"{k}/3", "--results", str(tmp_path / f"s{k}.jsonl"))
    run(capsys, "check", "klm", "--deals", "12", "--players", "2", "--no-progress", "--shard", "3/3",
        "--results", str(tmp_path / "other.jsonl"))
    run(capsys, *CHECK, "--deals", "2", "--results", str(tmp_path / "full.jsonl"))
    code, _, err = run(capsys, "merge", str(tmp_path / "out.jsonl"), *(str(tmp_path / f) for f in files))
    assert code == 2 and message in err and not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("text, ok", [("1/1", (1, 1)), ("2/8", (2, 8)), ("0/3", None), ("4/3", None),
                                      ("a/b", None), ("3", None), ("-1/2", None)])
def test_shard_option(text, ok):
    if ok:
        assert parse_shard(text) == ok
    else:
        with pytest.raises(UsageError):
            parse_shard(text)


def test_progress_without_a_terminal_is_a_line_every_ten_seconds(capsys, monkeypatch):
    """The runner's progress (tubedeck.progress) on a clock that moves a second a look: nothing for
    2 s, then a line every 10 s, each with the deals done of those to do and the time left at the
    pace so far."""
    from types import SimpleNamespace

    import tubedeck.progress as progress

    from conftest import CountingClock

    clock = CountingClock(1.0)
    monkeypatch.setattr(progress, "time", SimpleNamespace(monotonic=clock, perf_counter=time.perf_counter))
    monkeypatch.setattr(progress, "ticking", lambda shown, every=0.5: contextlib.nullcontext())  # no helper thread
    records = list(run_deals(lambda: (lambda s: {"v": s}), range(30), {"game": "t"}, label="klm deals"))
    assert len(records) == 30
    lines = capsys.readouterr().err.splitlines()
    # two looks a deal (its pace, its line): the first line at 3 s, then one every 5 deals
    assert [line.split(", ")[0] for line in lines] == [f"klm deals: {k}/30" for k in (1, 6, 11, 16, 21, 26)], lines
    assert lines[0] == "klm deals: 1/30, left about 58 s, 3 s"
    assert time_left(10, 100, 20.0) == "about 3 min 00 s" and time_left(0, 100, 5.0) is None


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="Dask is not installed (pip install 'tubedeck[cluster]'; make test installs it)")
def test_a_local_dask_cluster_writes_the_same_bytes(tmp_path, capsys):
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert run(capsys, *CHECK, "--results", str(local), "--workers", "2")[0] == 0
    code, out, err = run(capsys, *CHECK, "--results", str(dask), "--runner", "dask", "--workers", "2")
    assert code == 0, err
    assert dask.read_bytes() == local.read_bytes()


def test_runner_options_are_checked(capsys):
    code, _, err = run(capsys, *CHECK, "--runner", "ray")
    assert code == 2 and "--runner must be one of local, dask" in err
    code, _, err = run(capsys, *CHECK, "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler needs --runner dask" in err


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="Dask is not installed (pip install 'tubedeck[cluster]'; make test installs it)")
@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_nothing(tmp_path):
    """Kill a Dask worker while a check runs at the cluster's address: its chunks are computed
    again elsewhere and the results file is still the local run's, byte for byte."""
    import os
    import signal
    import threading
    import time

    from distributed import Client, LocalCluster

    from tubedeck.solver.distributed import Runner
    from tubedeck.solver.klm.check import KlmCheck
    from tubedeck.solver.runner import run_check

    check = KlmCheck(3, "zone 1")
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    run_check(check, range(300), local, 1, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        errors: list = []
        worker = threading.Thread(target=lambda: _guarded(errors, run_check, check, range(300), dask, 2,
                                                          progress=False, runner=Runner("dask", cluster.scheduler_address)))
        worker.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not dask.exists() or len(dask.read_bytes().splitlines()) < 30):
            time.sleep(0.05)
        pids = client.run(os.getpid)
        os.kill(sorted(pids.values())[0], signal.SIGKILL)
        at_kill = len(dask.read_bytes().splitlines())
        worker.join(120)
    assert at_kill < 301, "the run ended before the kill: the test proved nothing"
    assert not worker.is_alive() and not errors, errors
    assert dask.read_bytes() == local.read_bytes()


def _guarded(errors: list, fn, *args, **kwargs) -> None:
    try:
        fn(*args, **kwargs)
    except BaseException as exc:  # noqa: BLE001 - handed to the test thread
        errors.append(exc)
