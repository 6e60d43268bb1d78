"""The Tube Dice map as a diagram (generator/diagram), read off the printed sheet.

On A4 (what `make run` prints) the default map is drawn by the layout engine: every line stroke at
a multiple of 45 degrees and no two lines crossing (the layout from geography had 12% of the
stroke length octilinear and a crossing at Euston); its layout ships with tubedeck, so a build
solves nothing. Letter's map area is narrower than the diagram needs: that sheet is
drawn from geography, and the build says so.
"""

from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest

from tubedeck.errors import UsageError
from tubedeck.games.dice.edition import load
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.diagram.measure import read
from tubedeck.generator.dice.faces import areas, documents
from tubedeck.generator.dice.layout import DIAGRAM, DIAGRAM_BUDGET, LABEL_ROOM, RADIUS, STEP, board_cut, layout
from tubedeck.generator.sizes import Rect
from tubedeck.network import Network

A4_SAFE = Rect(6.35, 16.35, 297 - 12.7, 210 - 22.7)
LETTER_SAFE = Rect(6.35, 16.35, 279.4 - 12.7, 215.9 - 22.7)


@pytest.fixture(scope="module")
def ed():
    return load(Network.load())


def test_the_a4_sheet_is_a_diagram(ed, tmp_path):
    opts = PrintOptions.parse(export="pdf", paper="a4")
    render(documents(ed, opts), opts, tmp_path)
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        page = pdf[0]
        area, _ = areas(A4_SAFE)
        mm = 72 / 25.4
        clip = pymupdf.Rect(area.x * mm, 0, area.right * mm, page.rect.height)
        got = read(page, clip)
    assert got.strokes >= len(ed.board.connections)
    assert got.octilinear_share >= 0.999, got
    assert got.crossings == 0, got


def test_the_default_maps_layout_ships(ed, tmp_path, monkeypatch):
    """The shipped cache holds the A4 sheet's layout (remade by `python -m
    tubedeck.generator.diagram.ship` after a change to the engine: this test says when)."""
    from tubedeck.generator.diagram.cache import laid_out

    monkeypatch.setenv("TUBEDECK_CACHE", str(tmp_path))  # nothing from the user's cache
    area, _ = areas(A4_SAFE)
    box = area.inset(RADIUS + 8, RADIUS + 5).inset(LABEL_ROOM, 0)
    spec = replace(DIAGRAM, width=int(box.w // STEP), height=int(box.h // STEP))
    lay, hit = laid_out(board_cut(ed.board), spec, budget=DIAGRAM_BUDGET)
    assert hit, "the shipped layouts are stale: run python -m tubedeck.generator.diagram.ship"
    assert lay.status in ("OPTIMAL", "FEASIBLE")


def test_a_diagram_keeping_too_little_of_the_city_gives_way_to_geography(ed, capsys, monkeypatch):
    """A diagram under CITY_ORDER is drawn from geography where that fits, and said; where geography
    finds no room either, the diagram is drawn after all (New York's map on Letter), and said."""
    from tubedeck.generator import fonts
    from tubedeck.generator.dice import layout as dice_layout

    area, _ = areas(A4_SAFE)
    monkeypatch.setattr(dice_layout, "CITY_ORDER", 1.01)  # no diagram keeps it all
    lay = layout(ed.board, area, fonts.text_width)
    assert "drawn from geography: the diagram keeps" in capsys.readouterr().err
    monkeypatch.setattr(dice_layout, "_geographic", lambda *a: (_ for _ in ()).throw(UsageError("no room")))
    again = layout(ed.board, area, fonts.text_width)
    assert "is a diagram keeping" in capsys.readouterr().err and again.at != lay.at


def test_a_map_the_diagram_cannot_draw_is_drawn_from_geography_and_said(ed, capsys):
    from tubedeck.generator import fonts

    area, _ = areas(LETTER_SAFE)
    lay = layout(ed.board, area, fonts.text_width)
    assert len(lay.at) == len(ed.board.stations)
    err = capsys.readouterr().err
    assert "is drawn from geography" in err, err
