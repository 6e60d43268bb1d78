"""The One Day reference map: no line crosses a station it does not serve; labels stay apart."""

from __future__ import annotations

import math

import pymupdf
import pytest

from generator import PrintOptions, fonts
from generator.oneday_faces import _overlaps, _project, _segment_distance, place_labels, relax
from generator.sizes import Rect
from tubedeck.games.oneday import derive_map, load_recipe

BOX = Rect(30, 20, 190, 160)


@pytest.fixture(scope="module")
def gmap(london):
    return derive_map(london, load_recipe())


def test_no_line_passes_over_a_station_it_does_not_serve(gmap):
    raw = _project(gmap, BOX)
    at = relax(gmap, raw)
    worst = math.inf
    for line, run in gmap.runs.items():
        for a, b in zip(run.stations, run.stations[1:]):
            for s in gmap.stations:
                if line not in gmap.lines_at(s) and s not in (a, b):
                    worst = min(worst, _segment_distance(at[s], at[a], at[b])[0])
    assert worst >= 1.5
    moved = max(math.hypot(at[s][0] - raw[s][0], at[s][1] - raw[s][1]) for s in at)
    assert moved <= 6.0 + 1e-9  # geography stays recognisable
    assert relax(gmap, raw) == at  # deterministic


def test_labels_do_not_overlap_each_other_or_leave_the_area(gmap):
    class Widths:  # place_labels only asks the pen for text widths
        text_width = staticmethod(fonts.text_width)

    at = relax(gmap, _project(gmap, BOX))
    area = Rect(10, 10, 240, 180)
    size = 6.0
    placed = place_labels(Widths(), gmap, at, size, area)
    assert set(placed) == set(gmap.stations)
    h = size * 0.3528 * 0.8
    boxes = []
    for s, (x, y, align) in placed.items():
        w = Widths().text_width(gmap.name(s), "sans", size)
        left = x if align == "left" else (x - w if align == "right" else x - w / 2)
        boxes.append(Rect(left, y, w, h))
    clashes = sum(_overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert clashes == 0
    assert all(area.x <= b.x and b.right <= area.right and area.y <= b.y and b.top <= area.top for b in boxes)


def test_every_station_is_named_on_the_printed_map(tmp_path, gmap, london):
    from generator import render
    from generator.oneday_faces import documents

    docs = [d for d in documents(PrintOptions.parse(), london) if d.name == "map"]
    render(docs, PrintOptions.parse(export="pdf"), tmp_path)
    with pymupdf.open(next(tmp_path.rglob("map.pdf"))) as doc:
        text = " ".join(doc[0].get_text().split())
    for st in gmap.stations.values():
        assert st.name in text, st.name
