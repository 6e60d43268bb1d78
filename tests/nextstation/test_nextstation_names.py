"""A generated map's station names keep what tells two stations apart: a name the map's cell is
too narrow for loses its bracketed lines (New York's "34 St-Penn Station (1/2/3)" prints "34
St-Penn Station"), except where that would print two stations of the map under one name; then
the brackets stay and the name before them gives way ("34 St-Penn Stn (1/2/3)")."""

from __future__ import annotations

from dataclasses import replace

from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.generator.nextstation.map import _fitting, map_page
from tubedeck.generator.sizes import Rect

from blank_pen import BlankPen

CELL = Rect(0, 0, 14.13, 6.27)  # a name's box on an A4 map sheet (mm)


def test_the_brackets_go_only_where_no_other_name_needs_them():
    assert _fitting("34 St-Penn Station (1/2/3)", CELL) == "34 St-Penn Station"
    assert _fitting("34 St-Penn Station (1/2/3)", CELL, keep=True) == "34 St-Penn Stn (1/2/3)"
    assert _fitting("Cathedral Pkwy (110 St) (A/B/C)", CELL, keep=True).endswith("(A/B/C)")  # the last brackets
    assert _fitting("86 St (1/2)", CELL, keep=True) == _fitting("86 St (1/2)", CELL) == "86 St (1/2)"


def test_two_stations_of_one_name_on_a_map_print_apart():
    ed = edition(registry()["nextstation"], "new-york", map="1")
    made = ed.sheet_maps[0]
    first, second = made.board.stations[:2]
    renamed = {first.id: "34 St-Penn Station (7/8/9)", second.id: "34 St-Penn Station (H/K/T)"}  # lines New York lacks
    board = replace(made.board, stations=tuple(replace(s, name=renamed.get(s.id, s.name))
                                               for s in made.board.stations))
    twin = replace(ed, generated=replace(made, board=board), board=board)
    names: list[str] = []

    class Names(BlankPen):
        def _text(self, x, y, text, font, size, colour, align, angle):
            names.append(text)

    map_page(Names(210, 297, box=Rect(0, 0, 210, 297), safe=Rect(10, 10, 190, 277)), twin)
    assert any("(7/8/9)" in n for n in names) and any("(H/K/T)" in n for n in names), names
