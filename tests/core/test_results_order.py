"""A results file ends in seed order, whatever filled it (a reviewer found a partial merge resumed
to seeds 4, 6, 7, 9, 10, 5, 8: not the bytes one run writes); a resume refuses a stored seed the run
cannot have (a seed edited to 999 was kept and seed 6 recomputed at the end, without a word); the
merge's hint names the command that made the shards; counts take their plural only when not 1."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

import tubedeck.solver.results as results_mod
from tubedeck.errors import UsageError
from tubedeck.solver.merge import Merged
from tubedeck.solver.results import open_locked, sort_results
from tubedeck.solver.runner import Interrupted, TimeUp, _alarm_held, run_deals

from conftest import run_cli as run

SIM = ("simulate", "dice", "--games", "7", "--players", "2", "--seed", "4", "--no-progress")
HEADER = {"game": "t", "players": 2}


def _seeds(path: Path) -> list:
    return [json.loads(line).get("seed", "hdr") for line in path.read_text().splitlines()]


def _factory():
    return lambda seed: {"value": seed * 3}


def write_line(path: Path, seeds, header: dict = HEADER) -> bytes:
    text = json.dumps({"kind": "header", **header}, sort_keys=True) + "\n"
    text += "".join(json.dumps({"seed": s, "value": s * 3}, sort_keys=True) + "\n" for s in seeds)
    path.write_text(text)
    return path.read_bytes()


# -- 1. seed order --------------------------------------------------------------------------------
def test_a_partial_merge_resumed_is_the_file_one_run_writes(tmp_path, capsys):
    shards = [tmp_path / f"sh{k}.jsonl" for k in (1, 2, 3)]
    for k, shard in enumerate(shards, 1):
        assert run(capsys, *SIM, "--shard", f"{k}/3", "--results", str(shard))[0] == 0
    merged, whole = tmp_path / "merged3.jsonl", tmp_path / "whole.jsonl"
    code, out, err = run(capsys, "merge", str(merged), str(shards[0]), str(shards[2]), "--allow-partial")
    assert code == 0, err
    text = " ".join(out.split())
    assert "2 seeds missing (5, 8); to compute them, run the same simulation again without --shard, with " \
           f"--results {merged}" in text, text
    assert "same check" not in text
    assert run(capsys, *SIM, "--results", str(whole))[0] == 0
    # The merged header is a single run's, byte for byte (the shard's keys dropped).
    assert merged.read_bytes().splitlines()[0] == whole.read_bytes().splitlines()[0]
    assert run(capsys, *SIM, "--results", str(merged))[0] == 0
    assert _seeds(merged) == ["hdr", 4, 5, 6, 7, 8, 9, 10]
    assert merged.read_bytes() == whole.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merged3.jsonl", "sh1.jsonl", "sh2.jsonl", "sh3.jsonl",
                                                          "whole.jsonl"]  # no temporary file left


def test_an_unfinished_run_leaves_its_appends_and_the_next_complete_one_orders_them(tmp_path):
    path = tmp_path / "r.jsonl"
    write_line(path, [0, 1, 4, 5])
    # A run that stops early (the consumer stops, as a time limit does) leaves what it appended.
    gen = run_deals(_factory, range(8), HEADER, path, progress=False)
    assert [next(gen)["seed"] for _ in range(4)] == [0, 1, 2, 3]
    gen.close()
    assert _seeds(path) == ["hdr", 0, 1, 4, 5, 2, 3]
    # A complete run (nothing left to compute but 6 and 7) puts the whole file in order.
    assert [r["seed"] for r in run_deals(_factory, range(8), HEADER, path, progress=False)] == list(range(8))
    assert path.read_bytes() == write_line(tmp_path / "one.jsonl", range(8))
    # In order already: not rewritten (the same file, not a copy renamed onto it).
    inode = path.stat().st_ino
    list(run_deals(_factory, range(8), HEADER, path, progress=False))
    assert path.stat().st_ino == inode


def test_a_run_with_nothing_to_compute_orders_an_out_of_order_file(tmp_path):
    path = tmp_path / "r.jsonl"
    write_line(path, [3, 0, 2, 1])
    calls = []
    list(run_deals(lambda: (lambda s: calls.append(s) or {}), range(4), HEADER, path, progress=False))
    assert calls == [] and path.read_bytes() == write_line(tmp_path / "one.jsonl", range(4))


def test_retry_unknown_recomputes_in_place(tmp_path, capsys):
    """``--retry-unknown`` drops the undecided records and appends their recomputed ones: the file
    then ends in seed order, the bytes one run writes (it ended 0, 2, 3, 1)."""
    results = tmp_path / "r.jsonl"
    args = ("check", "klm", "--deals", "4", "--players", "3", "--scope", "zone 1", "--no-progress",
            "--results", str(results))
    assert run(capsys, *args)[0] == 0
    whole = results.read_text()
    lines = whole.splitlines()
    rec = json.loads(lines[2])
    rec.update(status="UNKNOWN", winnable=None, first=None)
    for pl in rec["players"]:
        pl.update(status="UNKNOWN", turn=None, path=[], schedule=[])
    results.write_text("\n".join(lines[:2] + [json.dumps(rec, sort_keys=True)] + lines[3:]) + "\n")
    assert run(capsys, *args, "--retry-unknown")[0] == 0
    assert _seeds(results) == ["hdr", 0, 1, 2, 3] and results.read_text() == whole


@pytest.mark.parametrize("chunk,fan", [(1 << 20, 64), (200, 2), (1, 3), (700, 64)])
def test_the_external_sort_gives_the_in_memory_order(tmp_path, monkeypatch, chunk, fan):
    """Tiny chunks and fan-in force spill files and several merge passes (1 byte: a run per record)."""
    monkeypatch.setattr(results_mod, "SORT_CHUNK", chunk)
    monkeypatch.setattr(results_mod, "SORT_FAN", fan)
    seeds = list(range(0, 600, 2)) + list(range(1, 600, 2))
    random.Random(7).shuffle(seeds[:200])
    path = tmp_path / "r.jsonl"
    write_line(path, seeds)
    with path.open("a") as fh:
        fh.write("\n")  # a blank line (skipped by a resume) is dropped
    sort_results(path)
    assert path.read_bytes() == write_line(tmp_path / "one.jsonl", range(600))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "r.jsonl"]


def test_a_lock_taken_on_a_file_renamed_away_is_taken_again_on_the_new_one(tmp_path, monkeypatch):
    """A finishing run renames its sorted file onto the name while holding the old one's lock; a
    run that opened the old file just before must not append to it (nobody reads it again)."""
    path, new = tmp_path / "r.jsonl", tmp_path / "new.jsonl"
    write_line(path, [1, 0])
    write_line(new, [0, 1])
    real = results_mod.fcntl.flock
    calls = []

    def flock(fd, op):  # the rename lands between the open and the lock
        if not calls:
            os.replace(new, path)
        calls.append(fd)
        return real(fd, op)

    monkeypatch.setattr(results_mod.fcntl, "flock", flock)
    out = open_locked(path)
    try:
        assert os.fstat(out.fileno()).st_ino == path.stat().st_ino and len(calls) == 2
    finally:
        out.close()


def test_the_time_limit_does_not_cut_the_sort_of_a_complete_run():
    """Every seed is stored: a limit passing while the file is put in order changes nothing; a
    limit not yet reached is set again after."""
    fired = []
    old = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        with _alarm_held():
            time.sleep(0.1)
        time.sleep(0.05)
        assert fired == []
        signal.setitimer(signal.ITIMER_REAL, 5)
        with _alarm_held():
            assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
        assert 4 < signal.getitimer(signal.ITIMER_REAL)[0] <= 5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- 2. seeds the run cannot have --------------------------------------------------------------
def test_a_seed_edited_out_of_the_run_is_refused_with_its_line(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    args = ("check", "klm", "--deals", "10", "--seed", "0", "--players", "3", "--scope", "zone 1", "--no-progress",
            "--results", str(path))
    assert run(capsys, *args)[0] == 0
    lines = path.read_text().splitlines(keepends=True)
    assert json.loads(lines[7])["seed"] == 6
    lines[7] = lines[7].replace('"seed": 6,', '"seed": 999,')
    path.write_text("".join(lines))
    before = path.read_bytes()
    code, out, err = run(capsys, *args)
    msg = " ".join(err.split())
    assert code == 2 and f"{path.name}:8:" in msg and "seed 999 is not one of this run's seeds (0-9)" in msg, msg
    assert "seed 6 of the run is not stored" in msg and "Traceback" not in err
    assert path.read_bytes() == before


def test_a_seed_no_run_from_this_seed_has_is_refused(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    assert run(capsys, *SIM, "--results", str(path))[0] == 0  # seeds 4-10
    before = path.read_bytes()
    code, _, err = run(capsys, "simulate", "dice", "--games", "3", "--players", "2", "--seed", "5", "--no-progress",
                       "--results", str(path))
    msg = " ".join(err.split())
    assert code == 2 and f"{path.name}:2:" in msg and "seed 4 is not one of this run's seeds (5, 6, 7)" in msg, msg
    assert "no run from seed 5 has it" in msg and path.read_bytes() == before
    # A resume with a smaller count than the file holds reads a prefix of it: fine, nothing computed.
    code, out, err = run(capsys, "simulate", "dice", "--games", "3", "--players", "2", "--seed", "4", "--no-progress",
                         "--results", str(path), "--json")
    assert code == 0, err
    assert path.read_bytes() == before


def test_a_shard_refuses_a_seed_off_its_slice(tmp_path):
    path = tmp_path / "r.jsonl"
    write_line(path, [5, 6, 11])  # shard 1/3 of seeds 5-16 holds 5, 8, 11, 14
    with pytest.raises(UsageError, match=r"r.jsonl:3: .*seed 6 is not one of this run's seeds \(5, 8, \.\.\. 14\) "
                                         r"and no run of this shard's slice \(5 \+ a multiple of 3\) has it"):
        list(run_deals(_factory, range(5, 17, 3), HEADER, path, progress=False))


def test_a_wider_run_is_read_only_when_it_holds_this_run(tmp_path):
    path = tmp_path / "r.jsonl"
    before = write_line(path, [0, 1, 2, 3, 4, 5])
    assert [r["seed"] for r in run_deals(_factory, range(3), HEADER, path, progress=False)] == [0, 1, 2]
    assert path.read_bytes() == before
    write_line(path, [0, 2, 3, 4, 5])  # seed 1 of the run is not stored: 3-5 cannot be this run's
    with pytest.raises(UsageError, match=r"r.jsonl:5: .*seed 4 is not one of this run's seeds \(0-3\), "
                                         r"and seed 1 of the run is not stored"):
        list(run_deals(_factory, range(4), HEADER, path, progress=False))


# -- 3, 4. words --------------------------------------------------------------------------------
def test_counts_of_one_are_singular(tmp_path):
    path = tmp_path / "r.jsonl"
    write_line(path, [0])
    assert str(Interrupted(1, path)).startswith("interrupted: 1 record stored in")
    assert str(Interrupted(2, path)).startswith("interrupted: 2 records stored in")
    assert str(TimeUp(None, 1, None, path)).startswith("time limit reached after 1 seed: 1 record stored")
    assert str(TimeUp(None, 0, 1, path)).startswith("time limit reached after 0 of 1 seed: 1 record stored")
    assert str(TimeUp(None, 1, 5, None)) == "time limit reached after 1 of 5 seeds: resume with the same command"
    one = Merged(path, 1, 1, 1).describe()
    assert one == [f"merged 1 of 1 shard: 1 record into {path}"]
    partial = " ".join(Merged(path, 1, 1, 2, missing=1, examples=(3,), command="check").describe())
    assert "merged 1 of 2 shards: 1 record into" in partial and "1 seed missing (3)" in partial
    assert "run the same check again without --shard" in partial
