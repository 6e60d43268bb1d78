"""Tube Dice's map sheet: geometry rules of the layout, and the printed PDF on A4 and Letter."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pymupdf
import pytest

from tubedeck.games.dice.edition import load
from tubedeck.games.dice.recipe import ordinal, pass_groups, seat_passes
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.dice.faces import areas, documents, map_layout
from tubedeck.generator.dice.layout import BOX, RADIUS, label_clashes, need, overlaps, rect_segment_distance
from tubedeck.generator.sizes import MM, Rect
from tubedeck.network import Network

ROOT = Path(__file__).resolve().parents[2]
A4_SAFE = Rect(6.35, 16.35, 297 - 12.7, 210 - 22.7)


@pytest.fixture(scope="module", params=["london", "tinycity"])
def ed(request):
    return load(Network.load(None if request.param == "london" else ROOT / "tests" / "data" / "tinycity"))


def test_no_label_over_a_line_a_box_a_circle_or_another_label(ed):
    area, _ = areas(A4_SAFE)
    lay = map_layout(ed, area)
    b = ed.board
    for s, lab in enumerate(lay.labels):
        others = [l for t, l in enumerate(lay.labels) if t != s]
        assert not label_clashes(lab.box, b, lay.at, lay.half, others, s, area), b.stations[s].name
        for _, corners in lay.boxes:  # the boxes themselves, corner by corner
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            assert not overlaps(lab.box, Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        for _, _, p, q in lay.strokes:
            assert rect_segment_distance(lab.box, p, q) > 0.6


@pytest.mark.parametrize("safe", [A4_SAFE, Rect(6.35, 16.35, 279.4 - 12.7, 215.9 - 22.7)], ids=["a4", "letter"])
def test_two_names_stand_two_millimetres_apart(safe):
    """Names 1 mm apart read as one ("Regent's Park" beside "Warren Street" on Letter, drawn from
    geography, once read "Regent's Warren")."""
    ed = load(Network.load())
    lay = map_layout(ed, areas(safe)[0])
    for s, a in enumerate(lay.labels):
        for t in range(s):
            b = lay.labels[t].box
            gap = math.hypot(max(b.x - a.box.right, a.box.x - b.right, 0.0), max(b.y - a.box.top, a.box.y - b.top, 0.0))
            assert gap >= 2.0 - 1e-9, (ed.board.stations[s].name, ed.board.stations[t].name, round(gap, 2))


def test_each_label_is_nearest_its_own_station_circle(ed):
    from tubedeck.generator.dice.layout import OWN_MARGIN, box_distance

    area, _ = areas(A4_SAFE)
    lay = map_layout(ed, area)
    names = [st.name for st in ed.board.stations]
    assert any(lab.star for lab in lay.labels)
    for s, lab in enumerate(lay.labels):
        mine = box_distance(lab.box, lay.at[s])
        assert mine <= RADIUS + 12.5, names[s]
        for t, p in enumerate(lay.at):
            if t != s:  # e.g. the star's label was once nearer Bond Street than Oxford Circus
                assert box_distance(lab.box, p) >= mine + OWN_MARGIN - 1e-6, (names[s], names[t])


def test_section_boxes_keep_off_lines_they_do_not_belong_to(ed):
    """Every box keeps BOX_AIR mm off every other connection's strokes (issue 44: a box sat where the
    Metropolitan crosses the Northern and Victoria, and one of Baker Street - Regent's Park on the
    Metropolitan beside it); tests/dice/test_dice_box_clearance.py checks the same on the built PDFs."""
    from tubedeck.generator.dice.layout import BOX_AIR, box_air, stroke_half

    area, _ = areas(A4_SAFE)
    lay = map_layout(ed, area)
    b = ed.board
    name = {c.index: f"{b.stations[c.a].name}-{b.stations[c.b].name}" for c in b.connections}
    air = [(box_air(corners, lay.at[c.a], lay.at[c.b], stroke_half(len(c.lines))), name[k], name[c.index])
           for k, corners in lay.boxes for c in b.connections if c.index != k]
    worst = min(air)
    assert worst[0] >= BOX_AIR - 1e-6, worst


def _apart(a, b) -> float:
    """How far apart two convex polygons are (separating axes; below 0: they overlap)."""
    def axes(poly):
        return [(p[1] - q[1], q[0] - p[0]) for p, q in zip(poly, poly[1:] + poly[:1])]
    gap = -math.inf
    for ax, ay in axes(a) + axes(b):
        n = math.hypot(ax, ay)
        pa, pb = [(x * ax + y * ay) / n for x, y in a], [(x * ax + y * ay) / n for x, y in b]
        gap = max(gap, min(pb) - max(pa), min(pa) - max(pb))
    return gap


def test_no_two_connections_boxes_overlap(ed):
    """Boxes are placed connection by connection clear of those placed before: where the
    Metropolitan crosses Euston-Warren Street, two connections' boxes overlapped (0.03 mm)."""
    area, _ = areas(A4_SAFE)
    lay = map_layout(ed, area)
    boxes = [(k, list(corners)) for k, corners in lay.boxes]
    gaps = [_apart(a, b) for i, (k, a) in enumerate(boxes) for m, b in boxes[:i] if m != k]
    assert gaps and min(gaps) > 0.1


def test_every_other_zone_is_ringed_in_ink_and_the_key_shows_it(tmp_path):
    """Zone 2's stations had a pale grey halo (1.27:1 on white: gone in black and white) and the
    zones table no symbol. Now a second ink ring, and each zone's row shows its station mark."""
    from tubedeck.generator.dice.layout import ZONE_RING, ringed

    ed = load(Network.load())
    board = ed.board
    assert [ringed(board, z.zone) for z in board.zones] == [i % 2 == 1 for i in range(len(board.zones))]
    render(documents(ed, PrintOptions.parse(paper="a4")), PrintOptions.parse(paper="a4", export="pdf"), tmp_path)
    with pymupdf.open(tmp_path / "sheet.pdf") as doc:  # (not the cover card's cover.pdf)
        page = doc[0]
        lay = map_layout(ed, areas(A4_SAFE)[0])
        rings = [(round(d["rect"].width / MM, 2), d.get("color")) for d in page.get_drawings()
                 if d.get("color") is not None and abs(d["rect"].width / MM - 2 * (RADIUS + ZONE_RING)) < 0.1]
        ringed_stations = sum(ringed(board, board.zone_of[i]) for i in range(len(lay.at)))
        assert ringed_stations >= 1 and len(rings) == ringed_stations
        assert all(max(c) < 0.2 for _, c in rings)  # ink, not a tint
        # the zones table: one mark per zone, a ring on the ringed ones (circles of 3.4 and 4.4 mm)
        mark_x = (areas(A4_SAFE)[1].x + 5.5) * MM  # where the table draws each zone's mark
        marks = [round(d["rect"].width / MM, 1) for d in page.get_drawings()
                 if d.get("color") is not None and abs((d["rect"].x0 + d["rect"].x1) / 2 - mark_x) < 0.5 * MM
                 and d["rect"].width < 6 * MM]  # (not the lines' 11 mm swatches above)
        assert sorted(set(marks)) == [3.4, 4.4] and marks.count(3.4) == len(board.zones)


def test_circles_boxes_and_connections_have_room(ed):
    area, _ = areas(A4_SAFE)
    lay = map_layout(ed, area)
    b = ed.board
    assert 2 * RADIUS >= 6.0
    for c in b.connections:
        (x1, y1), (x2, y2) = lay.at[c.a], lay.at[c.b]
        assert math.hypot(x2 - x1, y2 - y1) >= need(c.sections) - 0.05  # boxes between the circles
        assert sum(1 for k, _ in lay.boxes if k == c.index) == c.sections
    for i, p in enumerate(lay.at):
        assert area.x <= p[0] <= area.right and area.y <= p[1] <= area.top
        for q in lay.at[:i]:
            assert math.hypot(p[0] - q[0], p[1] - q[1]) > 2 * RADIUS + BOX


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheet_prints_landscape_with_readable_names(paper, tmp_path):
    ed = load(Network.load(), sheets=2)
    opts = PrintOptions.parse(export="pdf", paper=paper)
    render(documents(ed, opts), opts, tmp_path)
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        assert pdf.page_count == 2  # --sheets 2: a pad
        page = pdf[0]
        assert page.rect.width > page.rect.height
        spans = [s for bl in page.get_text("dict")["blocks"] for ln in bl.get("lines", []) for s in ln["spans"]]
        text = " ".join(s["text"] for s in spans)
        for st in ed.board.stations:
            assert st.name.split(" ")[0] in text
        names = {w for st in ed.board.stations for w in st.name.split(" ")}
        named = [s for s in spans if s["text"].split(" ")[0] in names]
        assert named and min(s["size"] for s in named) >= 6.0 - 0.01  # (the engine's ruler is not a face)
        for line in ed.board.lines:
            assert line.name in text
        assert "Score" in text and "Passes" in text and "Zone 1" in text
        star = ed.board.stations[ed.board.star].name
        assert f"Central London around {star}: {len(ed.board.stations)} stations" in text and " km" not in text
        # every station circle is at least 6 mm across
        circles = [d for d in page.get_drawings() if d.get("fill") == (1.0, 1.0, 1.0)
                   and abs(d["rect"].width - d["rect"].height) < 0.01 and d["rect"].width >= 6 * MM - 0.1]
        assert len(circles) >= len(ed.board.stations)


def test_greyscale_tells_every_line_apart():
    from tubedeck.generator.colour import luminance, rgb
    from tubedeck.generator.linestyle import GREY_APART, PATTERNS, cased

    ed = load(Network.load())
    assert len(ed.board.lines) <= len(PATTERNS) and len(set(PATTERNS)) == len(PATTERNS)
    case = cased(tuple(l.colour for l in ed.board.lines))
    plain = [luminance(rgb(l.colour)) for l, c in zip(ed.board.lines, case) if not c]
    for i, g in enumerate(plain):  # plain lines differ in grey; cased ones by their rails (and all by dashes)
        assert all(abs(g - h) >= GREY_APART for h in plain[:i])
    names = {l.id: l.name for l in ed.board.lines}
    assert case[[l.id for l in ed.board.lines].index("victoria")], names  # the reviewer's Bakerloo/Victoria pair


def test_every_drawn_line_reaches_3_to_1_on_white_by_its_colour_or_its_casing(tmp_path):
    from tubedeck.generator.colour import contrast, rgb

    ed = load(Network.load())
    opts = PrintOptions.parse(export="pdf")
    render(documents(ed, opts), opts, tmp_path)
    strokes: dict = {}  # segment -> [(colour, width)] drawn along it
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        for d in pdf[0].get_drawings():
            if d.get("color") is None or len(d["items"]) != 1 or d["items"][0][0] != "l":
                continue
            _, p, q = d["items"][0]
            key = (round(p.x, 1), round(p.y, 1), round(q.x, 1), round(q.y, 1))
            strokes.setdefault(key, []).append((tuple(d["color"]), d["width"]))

    def near(a, b):
        return max(abs(x - y) for x, y in zip(a, b)) < 0.01

    for line in ed.board.lines:
        c = rgb(line.colour)
        drawn = [k for k, v in strokes.items() if any(near(col, c) for col, _ in v)]
        assert len(drawn) >= 2, line.name  # on the map and in the lines table
        for k in drawn:  # the widest non-white stroke along it is what meets the paper
            edge = max((cw for cw in strokes[k] if not near(cw[0], (1, 1, 1))), key=lambda cw: cw[1])
            assert contrast(edge[0], (1.0, 1.0, 1.0)) >= 3.0, (line.name, edge)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_challenge_page_prints_the_rolls_and_the_proven_best(paper, tmp_path):
    ed = load(Network.load(), challenge="3")
    assert ed.challenge.rolls == ed.rolls(3, ed.rules.challenge_turns)
    if ed.challenge.best is None:
        # issue 27 changed the default map; challenges.csv holds the proofs made for it so far
        # (docs/dice.md): print a proven best as a proof would give it, the strip's other text below
        assert ed.challenge.status == ""
        ed = dataclasses.replace(ed, challenge=dataclasses.replace(ed.challenge, best=40, status="OPTIMAL"))
    assert ed.challenge.best is not None and ed.challenge.status == "OPTIMAL"
    opts = PrintOptions.parse(export="pdf", paper=paper)
    render(documents(ed, opts), opts, tmp_path)
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        assert pdf.page_count == 2
        text = pdf[1].get_text()
        assert f"Best possible score: {ed.challenge.best}" in text and "turn 10" in text
        assert "proven by CP-SAT" not in text  # the solver is credited on its own small line
        spans = [s for bl in pdf[1].get_text("dict")["blocks"] for ln in bl.get("lines", []) for s in ln["spans"]]
        boxes = [pymupdf.Rect(s["bbox"]) for s in spans if s["size"] >= 5.9]
        for i, a in enumerate(boxes):  # no two texts overlap
            for b in boxes[:i]:
                inter = a & b
                assert inter.is_empty or inter.width < 0.3 or inter.height < 0.3
    unknown = load(Network.load(), challenge="999")  # not in challenges.csv: the strip names the command
    assert unknown.challenge.best is None
    render(documents(unknown, opts), opts, tmp_path / "unknown")
    with pymupdf.open(tmp_path / "unknown" / "sheet.pdf") as pdf:
        text = " ".join(pdf[1].get_text().split())
        assert f"tubedeck solve dice --seed 999 --rolls {ed.rules.challenge_turns}" in text


def _pass_track(page):
    """(circles as (x, y) centres, {label: (x, y)}) of the pass track: the unfilled 5.2 mm circles."""
    from tubedeck.generator.dice.faces import PASS_R

    circles = [((d["rect"].x0 + d["rect"].x1) / 2, (d["rect"].y0 + d["rect"].y1) / 2) for d in page.get_drawings()
               if d.get("fill") is None and d.get("color") is not None
               and abs(d["rect"].width - 2 * PASS_R * MM) < 0.2 and abs(d["rect"].height - 2 * PASS_R * MM) < 0.2]
    spans = [s for bl in page.get_text("dict")["blocks"] for ln in bl.get("lines", []) for s in ln["spans"]]
    labels = {s["text"]: ((s["bbox"][0] + s["bbox"][2]) / 2, (s["bbox"][1] + s["bbox"][3]) / 2, s["size"])
              for s in spans if s["text"] == "everyone" or s["text"].endswith(" to roll")}
    return circles, labels


def _group_labels(ed):
    """{label: (boxes, first seat)} the pass track should print: the recipe's groups
    (:func:`pass_groups`) named by its ``[text]`` ("everyone", "4th to roll", "2nd-4th to roll")."""
    text, last = ed.recipe.text, ed.rules.players_max
    return {(text.pass_everyone if first == 1 else
             text.pass_seats.format(seats=ordinal(first) if first == last else f"{ordinal(first)}-{ordinal(last)}")):
            (count, first) for count, first in pass_groups(ed.rules)}


def test_the_pass_track_shows_each_seats_passes(tmp_path):
    ed = load(Network.load(), challenge="3")
    r = ed.rules
    expected = _group_labels(ed)  # the recipe's extra_passes, e.g. [0, 0, 0, 1]: "everyone", "4th to roll"
    assert len(expected) >= 2  # the recipe gives some later seat extra boxes
    opts = PrintOptions.parse(export="pdf")
    render(documents(ed, opts), opts, tmp_path)
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        circles, labels = _pass_track(pdf[0])
        assert set(labels) == set(expected)
        assert all(size >= 7.0 - 0.01 for _, _, size in labels.values())  # play text
        assert len(circles) == r.passes + r.extra_passes[-1]
        # each circle belongs to the label under it (nearest); seat k uses the groups up to its own
        group = {}
        for cx, cy in circles:
            name = min(labels, key=lambda t: abs(labels[t][0] - cx) + abs(labels[t][1] - cy))
            assert labels[name][1] > cy  # the label is below its circles
            group[name] = group.get(name, 0) + 1
        assert group == {name: count for name, (count, _) in expected.items()}
        for seat in range(1, r.players_max + 1):
            assert sum(n for name, n in group.items() if expected[name][1] <= seat) == r.passes_of(seat - 1)
        text = " ".join(pdf[0].get_text().split())
        assert f"passes: {seat_passes(r)} (see the pass track)" in text
        # the solo challenge is seat 1: its page shows seat 1's passes only
        solo, solo_labels = _pass_track(pdf[1])
        assert len(solo) == r.passes and not solo_labels


def test_the_rules_paragraph_names_each_seats_passes():
    r = load(Network.load()).rules
    # the recipe's own list: every seat named once, in order, with its passes ("3 each for the 1st-3rd to roll, 4 for the 4th"),
    # or one number when every seat has the same
    said = seat_passes(r)
    if said.isdigit():
        assert {r.passes_of(k) for k in range(r.players_max)} == {int(said)}
    else:
        seats = []
        for i, part in enumerate(said.split(", ")):
            n, _, who = part.partition(" for the ")
            n = n.removesuffix(" each")
            assert who.endswith(" to roll") == (i == 0)
            first, _, last = who.removesuffix(" to roll").partition("-")
            assert part.split(" ")[1] == ("each" if last else "for")  # "each" for several seats
            for seat in range(int(first[:-2]), int((last or first)[:-2]) + 1):
                assert r.passes_of(seat - 1) == int(n)
                seats.append(seat)
        assert seats == list(range(1, r.players_max + 1))
    assert seat_passes(dataclasses.replace(r, extra_passes=(0, 0, 0, 1))) == "3 each for the 1st-3rd to roll, 4 for the 4th"
    assert seat_passes(dataclasses.replace(r, extra_passes=(0, 3, 3, 3))) == "3 for the 1st to roll, 6 each for the 2nd-4th"  # equal extras
    assert seat_passes(dataclasses.replace(r, extra_passes=(0, 3, 3, 4))) == "3 for the 1st to roll, 6 each for the 2nd-3rd, 7 for the 4th"
    assert seat_passes(dataclasses.replace(r, extra_passes=(0, 0, 2, 2))) == "3 each for the 1st-2nd to roll, 5 each for the 3rd-4th"
    assert seat_passes(dataclasses.replace(r, extra_passes=(0, 0, 0, 0))) == "3"
    assert pass_groups(dataclasses.replace(r, extra_passes=(0, 2, 2, 5))) == ((3, 1), (2, 2), (3, 4))
    assert pass_groups(dataclasses.replace(r, extra_passes=(0, 0, 0, 1))) == ((3, 1), (1, 4))


def test_a_long_pass_track_wraps_inside_the_column(tmp_path):
    from tubedeck.generator.dice.faces import PASS_R

    base = load(Network.load())
    rules = dataclasses.replace(base.rules, passes=9, extra_passes=(0, 2, 5, 9))
    ed = dataclasses.replace(base, recipe=dataclasses.replace(base.recipe, rules=rules))
    opts = PrintOptions.parse(export="pdf")
    render(documents(ed, opts), opts, tmp_path)
    _, col = areas(A4_SAFE)
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        circles, labels = _pass_track(pdf[0])
        assert len(circles) == 18 and set(labels) == {"everyone", "2nd-4th to roll", "3rd-4th to roll", "4th to roll"}
        for x, _ in circles:
            assert col.x * MM <= x - PASS_R * MM and x + PASS_R * MM <= col.right * MM + 0.1
        assert len({round(y) for _, y in circles}) == 2  # wrapped onto a second row


def test_the_subtitle_names_another_scope_in_plain_words():
    from tubedeck.generator.dice.faces import subtitle

    assert subtitle(load(Network.load(), scope="zone 1 within 1.2 km")).startswith("Zone 1 within 1.2 km of Baker Street:")
    assert subtitle(load(Network.load(ROOT / "tests" / "data" / "tinycity"))).startswith("The whole network:")
    # lines by their names, never the dataset's ids (New York's "all except 3,5,6,c,..." printed them)
    assert subtitle(load(Network.load(), scope="central,jubilee in zone 1")).startswith("Central, Jubilee in zone 1:")
    wide = subtitle(load(Network.load(), scope="all except circle,hammersmith-city in zones 1-2 within 1.5 km"))
    assert wide.startswith("6 lines in zones 1-2 within 1.5 km of Baker Street") and "circle" not in wide, wide


def test_a_map_too_big_for_the_sheet_is_refused_with_a_message(capsys, tmp_path):
    from conftest import run_cli

    code, _, err = run_cli(capsys, "build", "dice", "--scope", "zone 1", "--out", str(tmp_path), "--export", "pdf")
    assert code == 2 and "stations" in err and "smaller scope" in err
    assert not (tmp_path / "dice" / "sheet.pdf").exists()
