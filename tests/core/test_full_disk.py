"""A results file survives a full disk: a record is whole or absent. The disk fills part-way
through a record (a fault-injecting ``os.write`` that writes some bytes, then ENOSPC); the command
exits 2 naming the file and what it kept, the file ends with its last whole record, and once
there is room the same command resumes it to the bytes an uninterrupted run writes."""

from __future__ import annotations

import errno
import json

import pytest

import tubedeck.solver.results as results_module

from conftest import run_cli as run

COMMANDS = [
    ("simulate", "dice", "--games", "6", "--players", "2", "--seed", "3"),
    ("check", "klm", "--deals", "6", "--players", "2", "--seed", "1", "--workers", "1"),
]


def filling(after: int, monkeypatch):
    """``os.write`` in the results writer: whole for ``after`` calls, then half a line and ENOSPC."""
    real, calls = results_module.os.write, {"n": 0}

    def write(fd, data):
        calls["n"] += 1
        if calls["n"] <= after:
            return real(fd, data)
        if calls["n"] == after + 1 and len(data) > 1:
            return real(fd, bytes(data[: len(data) // 2]))  # a torn line on disk...
        raise OSError(errno.ENOSPC, "No space left on device")  # ...then no room for the rest

    monkeypatch.setattr(results_module.os, "write", write)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("after", [0, 3])  # the header itself, or the third record
def test_a_full_disk_keeps_whole_records_and_the_same_command_resumes(args, after, tmp_path, monkeypatch, capsys):
    whole = tmp_path / "whole.jsonl"
    assert run(capsys, *args, "--results", str(whole), "--no-progress")[0] == 0
    path = tmp_path / "r.jsonl"
    with monkeypatch.context() as patched:
        filling(after, patched)
        code, _, err = run(capsys, *args, "--results", str(path), "--no-progress")
    assert code == 2 and "Traceback" not in err
    assert f"cannot write results file {path}: No space left on device" in err
    assert "cut back to its last whole record" in err and "run the same command to resume" in err
    kept = path.read_bytes()
    assert kept == b"" or kept.endswith(b"\n")
    lines = kept.splitlines()
    assert [json.loads(line)["kind"] == "header" for line in lines[:1]] == ([True] if after else [])
    assert len(lines) == after  # the header and the records before the one the disk cut
    records = max(after - 1, 0)
    assert f"the file keeps {records} record{'' if records == 1 else 's'} (" in err
    code, _, err = run(capsys, *args, "--results", str(path), "--no-progress")
    assert code == 0, err
    assert path.read_bytes() == whole.read_bytes()
