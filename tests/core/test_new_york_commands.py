"""Every tube game plays, simulates and solves on the bundled New York dataset (``--data new-york``),
as on London: exit 0 and a result (the builds and the checks' agreement with the brute force are
each game's own tests: tests/<game>/test_*_new_york.py)."""

from __future__ import annotations

import pytest

from conftest import run_cli

COMMANDS = [
    ("play", "klm", "--seed", "1", "--players", "3"),
    ("play", "oneday", "--seed", "1"),
    ("play", "dice", "--seed", "1"),
    ("play", "nextstation", "--seed", "1"),
    ("simulate", "klm", "--games", "2", "--players", "2"),
    ("simulate", "oneday", "--games", "2"),
    ("simulate", "dice", "--games", "2"),
    ("solve", "klm", "--seed", "1", "--players", "2"),
    ("solve", "dice", "--seed", "1", "--rolls", "4"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_command_on_new_york(command, capsys, tmp_path):
    extra = ("--results", str(tmp_path / "r.jsonl"), "--no-progress") if command[0] == "simulate" else ()
    code, out, err = run_cli(capsys, *command, "--data", "new-york", *extra)
    assert code == 0, err
    assert out.strip() and "Traceback" not in err


def test_the_attribution_line_prints_with_the_build(capsys, tmp_path):
    import pymupdf

    code, _, err = run_cli(capsys, "build", "klm", "--data", "new-york", "--out", str(tmp_path))
    assert code == 0, err
    with pymupdf.open(tmp_path / "klm" / "README.pdf") as doc:
        text = " ".join(doc[0].get_text().split())
    assert "Network data: MTA New York City Transit. Not endorsed by it; no claim of accuracy." in text
