"""A file that cannot be read is one problem, reported first (issue 23, item 8).

A Next Station map folder whose ``stations.csv`` was missing printed 311 problems: every section
naming an unknown station, the real cause last. The sweep generates every reader x file x fault
(missing, FIFO, a directory, not UTF-8, empty) and asks: exit 2, no traceback, no hang (a FIFO is
never opened), and the first problem names the file and what is wrong with it; with every other
file intact, it is the only problem.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import sys
from pathlib import Path

import pytest

from conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
FAULTS = {
    "missing": "not found",
    "fifo": "is not a regular file",
    "directory": "is a directory",
    "non-utf8": "not UTF-8: byte 0xe9",
    "empty": "is empty",
}
# reader -> (its files, how to copy them into a folder, the command reading them)
READERS = {
    "data": ("stations.csv", "lines.csv", "routes.csv"),
    "nextstation": ("map.toml", "districts.csv", "stations.csv", "sections.csv"),
    "dice": ("recipe.toml",),
    "keepmoving": ("ground.csv",),
}


def _setup(where: Path, reader: str) -> tuple[Path, list[str]]:
    folder = where / reader
    folder.mkdir(parents=True)
    out = str(where / "out")
    if reader == "data":
        for name in READERS[reader]:
            shutil.copy(DATA / name, folder / name)
        return folder, ["data", "check", "--data", str(folder)]
    if reader == "nextstation":
        for name in READERS[reader]:
            shutil.copy(DATA / "nextstation" / f"classic-{name}", folder / name)
        return folder, ["build", "nextstation", "--map", str(folder), "--out", out]
    if reader == "dice":
        shutil.copy(DATA / "dice" / "recipe.toml", folder / "recipe.toml")
        return folder, ["build", "dice", "--recipe", str(folder / "recipe.toml"), "--out", out]
    shutil.copy(DATA / "keepmoving" / "ground.csv", folder / "ground.csv")
    return folder, ["build", "keepmoving", "--ground", str(folder / "ground.csv"), "--out", out]


def _break(path: Path, fault: str) -> int | None:
    """Damage ``path``; the line a reader should name (non-UTF-8), else None."""
    if fault == "missing":
        path.unlink()
    elif fault == "fifo":
        path.unlink()
        os.mkfifo(path)
    elif fault == "directory":
        path.unlink()
        path.mkdir()
    elif fault == "non-utf8":
        raw = path.read_bytes()
        cut = raw.index(b"\n", len(raw) // 2) + 1
        path.write_bytes(raw[:cut] + b"caf\xe9," + raw[cut:])
        return raw[:cut].count(b"\n") + 1
    elif fault == "empty":
        path.write_bytes(b"")
    return None


CASES = [(reader, name, fault) for reader, names in READERS.items() for name in names for fault in FAULTS]


@pytest.fixture
def watchdog():
    """A FIFO opened for reading blocks for ever: end the test process rather than hang the suite."""
    faulthandler.dump_traceback_later(120, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.mark.parametrize("reader, name, fault", CASES, ids=[f"{r}-{n}-{f}" for r, n, f in CASES])
def test_an_unreadable_file_is_one_problem_reported_first(tmp_path, capsys, watchdog, reader, name, fault):
    folder, args = _setup(tmp_path, reader)
    line = _break(folder / name, fault)
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and "Traceback" not in err, err
    if fault == "directory" and reader in ("dice", "keepmoving"):  # a file option: click refuses it
        assert "is a directory" in err
        return
    lines = [x.strip() for x in err.splitlines() if x.strip()]
    assert lines[0] == "1 problem in the data:", err  # nothing that depends on the file is checked
    first = lines[1]
    assert first.split(":")[0].endswith(name) and FAULTS[fault] in first, err
    if line is not None:
        assert first.startswith(f"{first.split(':')[0]}:{line}: "), err  # the line of the bad byte


def test_the_unreadable_file_comes_before_other_files_problems(tmp_path, capsys):
    """Problems of files that were read are still listed, after the file that could not be."""
    folder, args = _setup(tmp_path, "data")
    (folder / "lines.csv").write_text("id,name,colour,text_colour\nred,Red,not-a-colour,#FFFFFF\n")
    _break(folder / "stations.csv", "missing")
    code, _, err = run_cli(capsys, *args)
    lines = [x.strip() for x in err.splitlines() if x.strip()]
    assert code == 2 and lines[1].startswith("stations.csv: file not found"), err
    assert any(x.startswith("lines.csv:2 [colour]") for x in lines[2:]), err
    assert not any("has no route" in x or "unknown station" in x for x in lines), err
