"""The printed sheets read back from their PDFs (PyMuPDF) and the Pen's recording: every district
drawn, names inside their own district box and over nothing opaque, score card fields apart, play
text at 7 pt, and each module deck with its own back."""

from __future__ import annotations

import math

import pymupdf
import pytest

from tubedeck import generator
from tubedeck.game import network
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.generate import river_path
from tubedeck.generator.document import Deck, Pages
from tubedeck.generator.fonts import text_width
from tubedeck.generator.nextstation.faces import documents
from tubedeck.generator.nextstation.map import (
    CLEAR,
    CORNER,
    CORNER_W,
    DEPARTURE_R,
    DISTRICT,
    INSET,
    KNOCK,
    RIVER,
    RIVER_W,
    SYMBOL_AT,
    SYMBOL_R,
    TOURIST_R,
    _fitting,
)
from tubedeck.generator.nextstation.parts import pencil_marks
from tubedeck.generator.pen import recording
from tubedeck.generator.sizes import MM, PT, Rect
from tubedeck.generator.text import measure
from tubedeck.generator.theme import INK, MIN_PT, PILE_BACKS, PLAY_PT, TEXT

PAPERS = ("a4", "letter")
COLUMN_HEADS = {"Districts", "Biggest", "district", "Thames", "points", "Line"}  # the score card's columns, as printed


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def _same(a, b) -> bool:
    return a is not None and all(abs(x - y) < 0.01 for x, y in zip(a, b))


@pytest.fixture(scope="module")
def ed():
    return load(network(None), map="4")


@pytest.fixture(scope="module", params=PAPERS)
def sheets(request, ed, tmp_path_factory):
    """paper -> {document: (page, recorded text lines, page height in mm)} for the two sheets."""
    opts = generator.PrintOptions.parse(paper=request.param, export="pdf")
    tmp = tmp_path_factory.mktemp(f"ns-{request.param}")
    out = {}
    for doc in documents(ed, opts):
        if isinstance(doc, Pages):
            with recording() as log:
                generator.render([doc], opts, tmp / doc.name)
            page = pymupdf.open(next((tmp / doc.name).glob("*.pdf")))[0]
            out[doc.name] = (page, list(log), page.rect.height / MM)
    return out


def _mm(page, rect) -> tuple[float, float, float, float]:
    """A PyMuPDF rect (pt, y down) as (x0, y0, x1, y1) in mm, y up as the Pen draws."""
    h = page.rect.height
    return rect.x0 / MM, (h - rect.y1) / MM, rect.x1 / MM, (h - rect.y0) / MM


def _extent(w) -> tuple[float, float, float, float]:
    """A recorded line's ink: its width, from descender to cap height (horizontal text only)."""
    return w.x, w.y - 0.22 * w.size * PT, w.x + w.width, w.y + 0.72 * w.size * PT


def _inside(a, b, tol: float = 0.01) -> bool:
    return a[0] >= b[0] - tol and a[1] >= b[1] - tol and a[2] <= b[2] + tol and a[3] <= b[3] + tol


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _filled(page, colour: str) -> list[tuple[float, float, float, float]]:
    """Rects (plain or rounded) filled with ``colour``; circles (all curves) left out."""
    return [_mm(page, d["rect"]) for d in page.get_drawings() if _same(d.get("fill"), _rgb(colour))
            and any(item[0] in ("l", "re", "qu") for item in d["items"])]


def test_every_district_is_drawn_corners_at_the_map_corners(sheets, ed):
    page = sheets["map"][0]
    main, boxes = _filled(page, DISTRICT), _filled(page, CORNER)
    corner = [r for r in boxes if r[2] - r[0] > 8]  # mm: the map's; the legend's swatch is 4 mm wide
    (swatch,) = [r for r in boxes if r[2] - r[0] <= 8]
    assert swatch[1] > max(r[3] for r in main)  # in the key above the map
    board = ed.sheet_maps[0].board
    assert len(main) == sum(d.kind == "main" for d in board.districts) == 9
    assert len(corner) == sum(d.kind == "corner" for d in board.districts) == 4
    reach_all = next(o for o in ed.book.objectives if o.measure == "districts")  # "Reach all 13 districts"
    assert len(main) + len(corner) == len(board.districts) == reach_all.threshold
    left, bottom = min(r[0] for r in main), min(r[1] for r in main)
    right, top = max(r[2] for r in main), max(r[3] for r in main)
    step = (right - left) / board.cols
    for x, y in ((left, bottom), (left, top), (right, bottom), (right, top)):  # one corner box at each
        assert sum(abs(r[0 if x == left else 2] - x) < step / 2 and abs(r[1 if y == bottom else 3] - y) < step / 2
                   for r in corner) == 1


def _card_borders(page):
    return [_mm(page, d["rect"]) for d in page.get_drawings()
            if d.get("fill") is None and _same(d.get("color"), _rgb(INK))
            and d["rect"].width > 60 * MM and d["rect"].height > 50 * MM]


def test_station_names_sit_inside_their_district_box_above_the_score_card(sheets, ed):
    page, log, _ = sheets["map"]
    main = _filled(page, DISTRICT)
    card_top = max(r[3] for r in _card_borders(page))
    names = [w for w in log if w.field == "name"]
    assert len({w.text for w in names}) > 40
    for w in names:
        ink = _extent(w)
        assert any(_inside(ink, box) for box in main), f"{w.text!r} straddles a district border"
        assert ink[1] > card_top + 1, f"{w.text!r} runs into the score card"


def test_nothing_opaque_covers_the_sections_or_the_thames(sheets):
    """After the sections and the river only station symbols are filled, and each name line's
    tight white knockout (a line of 6 pt high: the dotted sections stop short of its letters),
    none of them on the Thames."""
    page = sheets["map"][0]
    drawings = page.get_drawings()
    river = [i for i, d in enumerate(drawings) if _same(d.get("color"), _rgb(RIVER))]
    sections = [i for i, d in enumerate(drawings) if d.get("dashes") not in (None, "[] 0")]
    assert river and sections
    main = _filled(page, DISTRICT)
    step = (max(r[2] for r in main) - min(r[0] for r in main)) / 10
    first, card_top = min(river + sections), max(r[3] for r in _card_borders(page))
    over = [d for d in drawings[first:] if d.get("fill") is not None and _mm(page, d["rect"])[1] > card_top]
    knockouts = [d["rect"] for d in over if _same(d["fill"], (1, 1, 1)) and d.get("color") is None
                 and d["rect"].height / MM <= 0.94 * MIN_PT * PT + 2 * KNOCK + 0.01]
    big = [d["rect"] for d in over if max(d["rect"].width, d["rect"].height) / MM > 0.5 * step
           and d["rect"] not in knockouts]
    assert not big, f"filled shapes over the map's lines: {big[:3]}"
    assert len(knockouts) >= 50  # every name's line
    for i in river:  # each leg of the river, as wide as its banks
        half = max(d["width"] for d in drawings if d["rect"] == drawings[i]["rect"]) / 2
        for it in drawings[i]["items"]:
            leg = pymupdf.Rect(it[1], it[2]).normalize() + (-half, -half, half, half)
            assert not [k for k in knockouts if k.intersects(leg)], "a name's knockout on the Thames"


@pytest.mark.parametrize("doc", ["map", "score-pad"])
def test_score_card_fields_and_texts_never_overlap(sheets, doc):
    page, log, _ = sheets[doc]
    cards = _card_borders(page)
    assert cards
    boxes = [r for r in _filled(page, "#FFFFFF") if any(_inside(r, c) for c in cards)]
    assert len(boxes) >= len(cards) * 22  # 16 line boxes, 3 interchanges, 2 objectives, the total
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not _meet(a, b), f"{doc}: boxes {a} and {b} overlap"
    texts = [(w, _extent(w)) for w in log if any(_inside(_extent(w), c) for c in cards)]
    for w, ink in texts:
        for box in boxes:
            assert not _meet(ink, box), f"{doc}: {w.text!r} runs into a box at {box}"
    for i, (w, a) in enumerate(texts):
        for v, b in texts[i + 1:]:
            assert not _meet(a, b), f"{doc}: {w.text!r} runs into {v.text!r}"
    heads = [(w, ink) for w, ink in texts if w.field == "head" and w.text.split()[0] in COLUMN_HEADS]
    assert len(heads) >= 4 * len(cards)
    for w, ink in heads:  # a column's heading no wider than the boxes under it
        under = [b for b in boxes if b[3] < ink[1] and ink[1] - b[3] < 8 and b[0] < ink[2] and ink[0] < b[2]]
        assert under and any(b[0] - 0.5 <= ink[0] and ink[2] <= b[2] + 0.5 for b in under), \
            f"{doc}: heading {w.text!r} is wider than its column's boxes"


def test_play_text_is_at_least_7pt(sheets, ed, tmp_path):
    for doc in ("map", "score-pad"):
        small = {(w.field, w.text, w.size) for w in sheets[doc][1]
                 if w.field not in ("name", "ruler") and w.size < PLAY_PT - 0.01}
        assert not small, f"{doc}: {sorted(small)[:4]}"
    for card in ("poker", "mini"):
        opts = generator.PrintOptions.parse(card=card, export="pdf")
        decks = [d for d in documents(ed, opts) if isinstance(d, Deck) and d.name in ("reference", "objectives",
                                                                                        "powers")]
        with recording() as log:
            generator.render(decks, opts, tmp_path / card)
        rules = [w for w in log if w.field in ("rules", "title")]
        assert rules and min(w.size for w in rules) >= PLAY_PT - 0.01, card


def test_module_backs_never_pass_for_station_or_aid_cards(ed, tmp_path):
    """Objectives and powers are drawn at random, each from its own deck: each back says which
    (a plain back for both, once, left the stored decks unsortable face down), on the paper
    ground, never the Station cards' blue; pencil and rules cards keep their word."""
    opts = generator.PrintOptions.parse(export="pdf")
    decks = {d.name: d for d in documents(ed, opts) if isinstance(d, Deck)}
    assert {"objectives", "powers"} <= set(decks) and "modules" not in decks
    backs = {}
    for name in ("stations", "objectives", "powers", "reference"):
        with recording() as log:
            generator.render([Deck(name, decks[name].cards[:1], back=decks[name].back)], opts, tmp_path / name)
        backs[name] = {w.text for w in log if w.page == 2 and w.field not in ("ruler", "footer")}
    assert "STATION CARDS" in backs["stations"]  # a designed back since issue 44: it says its deck
    assert "OBJECTIVES" in backs["objectives"] and "POWERS" in backs["powers"] and "RULES" in backs["reference"]
    assert len({frozenset(b) for b in backs.values()}) == len(backs)  # four backs, four words
    fills = {name: {d["fill"] for d in pymupdf.open(next((tmp_path / name).glob("*.pdf")))[1].get_drawings() if d.get("fill")}
             for name in ("stations", "objectives")}
    pile = tuple(int(PILE_BACKS["nextstation station"][i:i + 2], 16) / 255 for i in (1, 3, 5))

    def has(colours, want):
        return any(max(abs(a - b) for a, b in zip(c, want)) < 0.01 for c in colours)
    assert has(fills["stations"], pile) and not has(fills["objectives"], pile)  # the pile's ground; paper ground


def test_one_pencil_card_per_pencil_in_its_colour(ed, tmp_path):
    """Item 4's pencil cards: each titled with its pencil, on a band of the pencil's colour, with
    the rule book's text; face down they read PENCILS."""
    opts = generator.PrintOptions.parse(export="pdf")
    deck = next(d for d in documents(ed, opts) if d.name == "pencils")
    assert [c.id for c in deck.cards] == [f"pencil-{p}" for p in ed.rules.pencils]
    with recording() as log:
        generator.render([deck], opts, tmp_path / "pencils")
    fronts = " ".join(w.text for w in log if w.page == 1)
    for p in ed.rules.pencils:
        assert f"{p.capitalize()} pencil" in fronts
    assert ed.book.texts["pencil_card"].split()[0] in fronts and "PENCILS" in {w.text for w in log if w.page == 2}
    page = pymupdf.open(next((tmp_path / "pencils").glob("*.pdf")))[0]
    fills = {tuple(round(x, 2) for x in d["fill"]) for d in page.get_drawings() if d.get("fill")}
    for p in ed.rules.pencils:
        assert tuple(round(x, 2) for x in _rgb(ed.book.colours[p])) in fills, p


def _gap(p, a, b) -> float:
    """The distance from point p to the segment ab."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


@pytest.mark.parametrize("seed", [0, 1, 3, 4])
def test_the_thames_runs_clear_of_every_symbol_and_between_the_banks(seed):
    """Drawn in steps between rows and columns: never over a symbol or a tourist site's points
    (maps 1 and 3 drew it across the Oval and Elephant & Castle), and every station lies on its
    own bank of the drawn river (the bank its sections are scored by)."""
    made = load(network(None), map=str(seed)).sheet_maps[0]
    river = river_path(made.river)
    segments = list(zip(river, river[1:]))
    for st in made.board.stations:
        centre = (st.col + 0.5, st.row + SYMBOL_AT)
        reach = max(TOURIST_R if st.tourist else 1.2 * SYMBOL_R, DEPARTURE_R if st.departure else 0) + RIVER_W / 2
        assert min(_gap(centre, a, b) for a, b in segments) > reach, st.name
        y = next(a[1] for a, b in segments if a[1] == b[1] and a[0] <= centre[0] <= b[0])
        assert (centre[1] > y) == (st.row > made.river[st.col]), st.name


def test_every_station_name_fits_its_box_on_the_smallest_map(sheets):
    """Letter's name box (12.3 x 5.7 mm, measured off the printed grid) takes every name of the
    network, shortened as it must be: 'Heathrow Terminals 2 & 3' stopped map builds with wide
    zones; a name with no way to shorten ends in an ellipsis."""
    _, log, _ = sheets["map"]
    centres = sorted(w.x + w.width / 2 for w in log if w.field == "coordinate" and w.text.isdigit())
    step = (centres[-1] - centres[0]) / (len(centres) - 1)
    box = Rect(0, 0, 12.3, 5.7)
    pad = INSET + CORNER_W / 2 + CLEAR  # the map's name box: CLEAR inside its cell's (corner) box
    assert box.w <= step - 2 * pad + 0.01, step
    names = [s.name for s in network(None).stations.values()]
    names += ["Abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz Abcdefghijklmnopqrstuvwxyz",
              "Abcde Fghij Klmno Pqrst Uvwxy Zabcd Efghi Jklmn Opqrs"]
    for name in names:
        text = _fitting(name, box)
        assert measure(text, TEXT, MIN_PT, MIN_PT, box.w, box.h, 2) is not None, name
    # (13.9 mm wide it was "Heathrow Term. 2 & 3"; 12.3 mm, 1.5 mm inside the box's border, cuts more)
    assert _fitting("Heathrow Terminals 2 & 3", box) == "Heat. Term. 2\u2026"
    assert _fitting(names[-2], box) == "Abcd. Abcd."
    assert _fitting(names[-1], box).endswith("\u2026")


def test_a_name_split_to_fit_breaks_where_a_syllable_may():
    """A name too wide for its box on one line takes a hyphen where a syllable may break: on
    Letter 'Whitechapel' printed as 'Whitec-hapel' and 'Bermondsey' as 'Bermon-dsey'."""
    for name, split in (("Whitechapel", "White-chapel"), ("Blackfriars", "Black-friars"),
                        ("Knightsbridge", "Knights-bridge"), ("Hampstead", "Hamp-stead"),
                        ("Bermondsey", "Bermond-sey"), ("Fenchurch", "Fen-church")):
        box = Rect(0, 0, text_width(name, TEXT, MIN_PT) - 0.2, 5.7)  # the whole word is too wide
        assert _fitting(name, box) == split
    # no break a syllable allows: the middle, as before
    assert _fitting("Xxxxxxxxxxxx", Rect(0, 0, text_width("Xxxxxxxxxxxx", TEXT, MIN_PT) - 0.2, 5.7)) \
        == "Xxxxxxx-xxxxx"


def test_the_grid_is_labelled_as_the_challenge_and_solve_name_stations(sheets, ed):
    """Row letters on both sides and column numbers above, each level with its row or column of
    stations (their names), so 'D8' on a challenge page or in solve's answer finds its station."""
    _, log, _ = sheets["map"]
    board = ed.sheet_maps[0].board
    labels = [w for w in log if w.field == "coordinate"]
    letters = [w for w in labels if w.text.isalpha()]
    numbers = [w for w in labels if w.text.isdigit()]
    assert sorted(w.text for w in letters) == sorted([chr(65 + k) for k in range(board.rows)] * 2)
    assert sorted(int(w.text) for w in numbers) == list(range(1, board.cols + 1))
    names = {}
    for w in log:
        if w.field == "name":
            names.setdefault(w.text, []).append(w)
    step = (max(w.x for w in numbers) - min(w.x for w in numbers)) / (board.cols - 1)
    whole = [st for st in board.stations if len(names.get(st.name, ())) == 1]  # a name on one line
    assert len(whole) > 15
    for st in whole:
        name = names[st.name][0]
        row = [w for w in letters if w.text == board.coordinate(st.id)[0]]
        assert all(abs(w.y - name.y) < 0.6 * step for w in row), st.name
        col = next(w for w in numbers if w.text == board.coordinate(st.id)[1:])
        assert abs(col.x + col.width / 2 - (name.x + name.width / 2)) < 0.5 * step, st.name


def _cross(p, q, a, b) -> bool:
    def side(u, v, w) -> int:
        d = (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
        return (d > 1e-6) - (d < -1e-6)
    return side(p, q, a) * side(p, q, b) < 0 and side(a, b, p) * side(a, b, q) < 0


def test_the_printed_thames_sections_are_those_crossing_the_printed_river(sheets, ed):
    """Read back from the PDF: each dotted section (drawn in the board's order) crosses the
    printed river exactly when the board scores it as a Thames section."""
    page = sheets["map"][0]
    drawings = page.get_drawings()
    river = [(i[1], i[2]) for d in drawings if _same(d.get("color"), _rgb(RIVER)) for i in d["items"] if i[0] == "l"]
    dotted = [d for d in drawings if d.get("dashes") not in (None, "[] 0")]
    board = ed.sheet_maps[0].board
    assert river and len(dotted) == len(board.sections)
    for d, sec in zip(dotted, board.sections):
        (_, p, q), = [i for i in d["items"] if i[0] == "l"]
        crossed = any(_cross(p, q, a, b) for a, b in river)
        assert crossed == sec.thames, (board.by_id[sec.a].name, board.by_id[sec.b].name)


# -- item 4: departures and pencil rows told apart in black and white ---------------------------
@pytest.fixture(scope="module", params=["greyscale", "ink-saver"])
def bw(request, ed, tmp_path_factory):
    """The map sheet printed in black-and-white modes: (page, recording, faces-quality report)."""
    from engine.test_faces_quality import inspect

    opts = generator.PrintOptions.parse(export="pdf", mode=request.param)
    tmp = tmp_path_factory.mktemp(f"ns-{request.param}")
    doc = next(d for d in documents(ed, opts) if d.name == "map")
    with recording() as log:
        generator.render([doc], opts, tmp)
    pdf = tmp / "map.pdf"
    return pymupdf.open(pdf)[0], list(log), inspect(pdf, list(log), "map", cards=False), request.param


def test_each_departure_and_each_pencil_row_carries_its_mark_in_black_and_white(bw, ed):
    """The four pencils' colours print as one grey (pink, purple and blue within 2% of each
    other) and as pale tints in ink-saver: each departure station carries its pencil's mark
    inside its symbol, each score card row the same mark before the pencil's name, all distinct
    and readable (>= 4.5:1 against what is printed behind them, read off the raster)."""
    page, log, report, mode = bw
    marks = pencil_marks(ed.book)
    assert len(set(marks.values())) == len(marks) == len(ed.rules.pencils)
    board = ed.sheet_maps[0].board
    labels = [w for w in log if w.field == "coordinate"]
    cols = {w.text: w.x + w.width / 2 for w in labels if w.text.isdigit()}
    rows = {w.text: w.y for w in labels if w.text.isalpha()}
    step = cols["2"] - cols["1"]
    on_map = [w for w in log if w.field == "mark" and w.y > min(rows.values()) - step]
    assert len(on_map) == len(marks) + len(marks)  # a mark in each departure, each one in the legend
    for pencil, text in marks.items():
        st = board.departure(pencil)
        label = board.coordinate(st.id)
        x, y = cols[label[1:]], rows[label[0]]
        inside = [w for w in on_map if abs(w.x + w.width / 2 - x) < 0.2 * step and abs(w.y - y) < 0.5 * step]
        assert [w.text for w in inside] == [text], (pencil, label, [w.text for w in inside])
    card_top = max(r[3] for r in _card_borders(page))
    names = [w for w in log if w.field == "pencil" and w.y < card_top]
    assert [w.text for w in names] == [p.capitalize() for p in ed.rules.pencils]
    for w in names:  # the row's mark, left of its pencil's name on the same line
        row = [m.text for m in log if m.field == "mark" and abs(m.y - w.y) < 2.5 and m.x < w.x]
        assert row == [marks[w.text.lower()]], (w.text, row)
    shown = {s.text for s in report.spans if s.field == "mark"}
    assert shown == set(marks.values())
    worst = {text: ratio for ratio, _, text in report.contrasts if text in shown}
    assert worst and min(worst.values()) >= 4.5, (mode, worst)


def test_the_pencil_cards_carry_their_mark(ed, tmp_path):
    opts = generator.PrintOptions.parse(export="pdf", mode="greyscale")
    deck = next(d for d in documents(ed, opts) if d.name == "pencils")
    with recording() as log:
        generator.render([deck], opts, tmp_path / "pencils")
    marks = pencil_marks(ed.book)
    fronts = [w for w in log if w.page == 1]
    for p in ed.rules.pencils:
        title = next(w for w in fronts if w.text == f"{p.capitalize()} pencil")
        mine = [w.text for w in fronts if w.field == "mark" and abs(w.x - title.x) < 30 and w.y < title.y
                and title.y - w.y < 40]
        assert mine == [marks[p]], (p, mine)


# -- item 5: the map's words are for players; cards say their points ----------------------------
def test_the_map_title_names_the_map_and_keys_its_marks(sheets, ed):
    """No 'par 40 (classic 40); candidate 1' (the build's console says that): the map's name,
    and a legend for tourist sites, the ? station, the Thames, the corner districts (nested in
    the main boxes: the key says they count on their own) and each departure's mark."""
    page, log, _ = sheets["map"]
    made = ed.sheet_maps[0]
    top = max(w.y for w in log if w.field == "coordinate")
    head = [w for w in log if w.y > top + 1]
    words = " ".join(w.text for w in head)
    assert "par" not in words.split() and "candidate" not in words and "classic" not in words
    assert made.name in {w.text for w in head if w.field == "title"}
    texts = ed.book.texts
    legend = [w.text for w in head if w.field == "legend"]
    for key in ("legend_tourist", "legend_question", "legend_thames", "legend_corner", "legend_departures"):
        assert texts[key] in legend, key
    assert f"+{ed.rules.thames_points}" in texts["legend_thames"]
    assert legend[-len(ed.rules.pencils):] == [p.capitalize() for p in ed.rules.pencils]
    marks = [w.text for w in head if w.field == "mark"]
    assert marks == [pencil_marks(ed.book)[p] for p in ed.rules.pencils]
    assert min(w.size for w in head) >= PLAY_PT - 0.01


def test_objective_cards_say_their_points_and_the_reference_covers_both_modules(ed, tmp_path):
    """Each Shared Objective card says its +10, and the rules reference (7 pt, as many cards as
    that takes) says how both modules are played, in the numbers the engine plays them with."""
    from tubedeck.games.nextstation.play import new_game
    from tubedeck.games.nextstation.powers import deal_powers

    rules = ed.rules
    for card in ("poker", "mini"):
        opts = generator.PrintOptions.parse(card=card, export="pdf")
        decks = {d.name: d for d in documents(ed, opts) if d.name in ("objectives", "reference")}
        logs = {}
        for name, deck in decks.items():
            with recording() as log:
                generator.render([deck], opts, tmp_path / card / name)
            logs[name] = list(log)
        titles = " ".join(w.text for w in logs["objectives"] if w.field == "title" and w.page == 1)
        assert " ".join(titles.split()).count(f"Shared Objective: +{rules.objective_points}") == \
            len(ed.book.objectives), card
        reference = " ".join(w.text for w in logs["reference"] if w.field == "rules" and w.page == 1)
        reference = " ".join(reference.split())
        assert f"Shared Objectives (optional): lay {rules.objectives_drawn} face up" in reference, card
        assert f"scores +{rules.objective_points} for it" in reference
        assert "Pencil Powers (optional): lay one face up beside each pencil" in reference
        assert "Once a round, whoever draws with the pencil may use its power" in reference
        assert min(w.size for w in logs["reference"] if w.field == "rules") >= PLAY_PT - 0.01
    state = new_game(ed, 2, 3, objectives=True, powers=True)  # the engine: as printed
    assert len(state.objectives) == rules.objectives_drawn
    assert sorted(p for p, _ in deal_powers(ed.book, 3)) == sorted(rules.pencils)
