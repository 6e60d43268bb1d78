"""The classic Next Station map as data: its figures, and located errors for bad map files."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from tubedeck.content import game_dir
from tubedeck.errors import DataError, UsageError
from tubedeck.games.nextstation.board import load_board
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.rules import load_rules

DATA = game_dir("nextstation")


@pytest.fixture(scope="module")
def ed():
    return load(None)


def test_classic_figures(ed):
    b = ed.board
    assert (b.rows, b.cols, len(b.stations), len(b.sections), len(b.districts)) == (10, 10, 53, 155, 13)
    assert Counter(s.symbol for s in b.stations) == {"circle": 13, "square": 13, "triangle": 13, "pentagon": 13,
                                                     "question-mark": 1}
    assert sum(s.thames for s in b.sections) == 24
    assert sorted(s.id for s in b.stations if s.tourist) == ["r1c6", "r3c0", "r3c5", "r6c9", "r9c4"]
    assert {p: b.departure(p).id for p in ed.rules.pencils} == {"green": "r2c3", "pink": "r3c7",
                                                              "purple": "r5c2", "blue": "r7c5"}
    sizes = Counter(s.district for s in b.stations)
    assert sizes["central"] == 9 and sorted(sizes.values()) == [1] * 4 + [4] * 4 + [6] * 4 + [9]


def test_crossings_are_derived_x_shapes(ed):
    b = ed.board
    assert len(b.crossings) == 116
    for i, j in b.crossings:
        x, y = b.sections[i], b.sections[j]
        assert not {x.a, x.b} & {y.a, y.b}
    # the two diagonals of a unit square cross
    pair = b.section_between[frozenset(("r0c1", "r1c2"))] if frozenset(("r0c1", "r1c2")) in b.section_between else None
    one = b.section_between[frozenset(("r0c2", "r1c1"))]
    assert any(one.index in p for p in b.crossings)
    assert pair is None or (min(pair.index, one.index), max(pair.index, one.index)) in b.crossings


def test_every_nearest_pair_is_a_section(ed):
    b = ed.board
    cells = {(s.row, s.col): s.id for s in b.stations}
    for s in b.stations:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            r, c = s.row + dr, s.col + dc
            while 0 <= r < 10 and 0 <= c < 10 and (r, c) not in cells:
                r, c = r + dr, c + dc
            if (r, c) in cells:
                assert frozenset((s.id, cells[r, c])) in b.section_between


def test_cards_and_rules(ed):
    assert len(ed.cards) == 11
    assert sum(c.underground for c in ed.cards) == 5 and sum(c.switch for c in ed.cards) == 1
    assert ed.scores.tourist_track == (0, 1, 2, 4, 6, 8, 11, 14, 17, 21, 25)
    assert ed.scores.interchange[2:] == (2, 5, 9)
    assert (ed.rules.players_min, ed.rules.players_max, ed.rules.rounds) == (1, 4, 4)
    assert len(ed.book.objectives) == 5 and len(ed.book.powers) == 4


def broken(tmp_path, name, old, new):
    folder = tmp_path / "map"
    folder.mkdir()
    for part in ("map.toml", "stations.csv", "sections.csv", "districts.csv"):
        shutil.copy(DATA / f"classic-{part}", folder / part)
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return folder


@pytest.mark.parametrize("name,old,new,where,words", [
    ("stations.csv", "r0c0,0,0,", "r0c0,0,12,", "stations.csv:2", "off the 10x10 grid"),
    ("stations.csv", "r0c0,0,0,pentagon", "r0c0,0,0,hexagon", "stations.csv:2", "unknown symbol 'hexagon'"),
    ("stations.csv", "r0c1,0,1,triangle,northwest", "r0c1,0,1,triangle,mayfair", "stations.csv:3",
     "unknown district 'mayfair'"),
    ("stations.csv", "r0c1,0,1,triangle,northwest", "r0c1,0,1,triangle,south", "stations.csv:3",
     "outside district 'south'"),
    ("sections.csv", "r0c0,r0c1,", "r0c0,r0c2,", "sections.csv:2", "skips station 'r0c1'"),
    ("sections.csv", "r0c0,r0c1,", "r0c0,r1c3,", "sections.csv:2", "not along one of the 8 directions"),
    ("sections.csv", "r0c0,r0c1,", "r0c0,r9c9x,", "sections.csv:2", "unknown station 'r9c9x'"),
    ("stations.csv", ",green\n", ",\n", "stations.csv", "pencil 'green' has 0 departure stations"),
    ("stations.csv", "r0c0,0,0,", "r0c0,zero,0,", "stations.csv:2 [row]", "row must be a whole number 0-9, got 'zero'"),
    ("stations.csv", "r0c0,0,0,", "r0c0,0,10,", "stations.csv:2 [col]", "off the 10x10 grid"),
    ("stations.csv", "r0c0,0,0,", "r0c0,\u00b2,0,", "stations.csv:2 [row]", "row must be a whole number 0-9"),
    ("districts.csv", "northwest,main,0-2,0-2", "northwest,main,0-\u00b2,0-2", "districts.csv", "bands like 0-2"),
    ("districts.csv", "northwest,main,0-2,0-2", "northwest,main,0-2,0-3", "districts.csv",
     "the boxes of main districts 'northwest' and 'north' overlap"),
    ("stations.csv", "r3c5,3,5,question-mark", "r3c5,3,5,circle", "stations.csv", "0 stations with the ? symbol"),
    ("stations.csv", "r9c9,9,9,square", "r9c9,9,9,circle", "stations.csv",
     "symbols unbalanced: 14 circle, 12 square, 13 triangle, 13 pentagon"),
])
def test_bad_map_files_are_located(tmp_path, name, old, new, where, words):
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(DataError) as err:
        load_board(folder, load_rules().rules)
    text = str(err.value)
    assert words in text and where in text, text


def test_unknown_map_is_a_usage_error():
    with pytest.raises(UsageError):
        load(None, map="no-such-map")


def test_the_published_shape_is_checked_and_errors_do_not_cascade(tmp_path):
    """12 districts are refused (the rules need 9 main and 4 corner ones); an empty districts file
    is one problem, not one per station and section; a station off the grid is reported on its
    own row, not again on every section naming it."""
    folder = broken(tmp_path, "districts.csv", "corner-se,corner,9,9\n", "")
    stations = folder / "stations.csv"
    stations.write_text(stations.read_text().replace("r9c9,9,9,square,corner-se", "r9c9,9,9,square,southeast"))
    with pytest.raises(DataError, match="3 corner districts, the rules need 4"):
        load_board(folder, load_rules().rules)
    (folder / "districts.csv").write_text("id,kind,rows,cols\n")
    with pytest.raises(DataError) as err:
        load_board(folder, load_rules().rules)
    assert [p.message for p in err.value.problems] == ["file has a header but no records"]
    (folder / "districts.csv").write_text("id,kind,rows,cols\nnorth,main,0-2,3-x\n")
    with pytest.raises(DataError) as err:
        load_board(folder, load_rules().rules)
    assert len(err.value.problems) == 1 and "bands like 0-2" in str(err.value)
    (tmp_path / "off").mkdir()
    folder = broken(tmp_path / "off", "stations.csv", "r0c0,0,0,", "r0c0,0,12,")
    with pytest.raises(DataError) as err:
        load_board(folder, load_rules().rules)
    assert len(err.value.problems) == 1 and "off the 10x10 grid" in str(err.value)


def test_generated_maps_have_the_published_shape():
    """What a map folder must meet, generated maps meet too."""
    from tubedeck.game import network
    from tubedeck.games.nextstation.board import _structure
    for seed in ("1", "6"):
        ed = load(network(None), map=seed)
        problems = []
        b = ed.board
        _structure("", ed.rules, {d.id: d for d in b.districts}, {s.id: s for s in b.stations}, problems)
        assert problems == []


@pytest.mark.parametrize("name,old,new", [
    ("stations.csv", "r3c5,3,5,question-mark", "r3c5,3,55,question-mark"),  # the ? station's row
    ("stations.csv", "r2c3,2,3,", "r2c3,2,x,"),  # the green departure's row
    ("districts.csv", "north,main,0-2,3-6", "north,main,0-2,3-x"),  # a district's band: its 6 stations
])
def test_one_bad_row_is_one_problem(tmp_path, name, old, new):
    """The whole map's checks (districts, ?, symbols, departures) wait for a clean read."""
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(DataError) as err:
        load_board(folder, load_rules().rules)
    assert len(err.value.problems) == 1, str(err.value)
