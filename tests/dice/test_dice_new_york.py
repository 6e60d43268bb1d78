"""Tube Dice on a second city: the bundled New York dataset (``--data new-york``).

The recipe's star (Baker Street) is not in New York, so the map is found by the measure London's
was chosen by: the smallest ring round a well-served station holding 20 stations in zones 1-2,
both zones on it, no line riding another's stations all the way; and the sheet builds.
"""

from __future__ import annotations

from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.games.dice.board import AUTO_STATIONS, nested_lines

from conftest import run_cli


def test_new_yorks_map_is_found_by_the_measure():
    board = edition(registry()["dice"], "new-york").board
    assert len(board.stations) >= AUTO_STATIONS and len(board.zones) == 2
    assert not nested_lines(board) and len(board.lines) > 5
    assert {c.sections for c in board.connections} == set(range(1, 7))


def test_the_sheet_builds_on_new_york(tmp_path, capsys):
    code, _, err = run_cli(capsys, "build", "dice", "--data", "new-york", "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "dice" / "sheet.pdf").is_file() and (tmp_path / "dice" / "rulebook.pdf").is_file()
