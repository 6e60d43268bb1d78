"""The One Day reference map as printed (A4 landscape): no line crosses a station it does not
serve; labels stay apart, off other markers, near their own marker, and clear of the lines; line
chips on the strokes name the lines that print alike in greyscale wherever they meet."""

from __future__ import annotations

import math

import pymupdf
import pytest

from tubedeck.games.oneday.board import derive_map
from tubedeck.games.oneday.recipe import load_recipe
from tubedeck.generator import PrintOptions, fonts
from tubedeck.generator.colour import contrast, rgb
from tubedeck.generator.oneday.chips import CHIP_PT, chip_size, line_letters
from tubedeck.generator.oneday.map import (
    CHIP_CLEAR,
    LINE_WIDTH,
    _box_distance,
    _strokes,
    chip_box,
    clip_length,
    layout,
    marker_radius,
    overlaps,
    project,
    relax,
    segment_distance,
    segment_hits,
    stretches,
)
from tubedeck.generator.sizes import Rect

SAFE = Rect(6.35, 16.35, 284.3, 187.3)  # pen.safe of an A4 landscape sheet


@pytest.fixture(scope="module")
def gmap(london):
    return derive_map(london, load_recipe())


@pytest.fixture(scope="module")
def lay(gmap):
    return layout(gmap, SAFE, fonts.text_width)


def test_no_line_passes_over_a_station_it_does_not_serve(gmap, lay):
    worst = math.inf
    for line, run in gmap.runs.items():
        for a, b in zip(run.stations, run.stations[1:], strict=False):
            for s in gmap.stations:
                if line not in gmap.lines_at(s) and s not in (a, b):
                    worst = min(worst, segment_distance(lay.at[s], lay.at[a], lay.at[b])[0])
    # marker radius + half a stroke + the side-by-side offset of a shared segment, and a gap
    assert worst >= 1.1 + 0.5 + 0.5 + 0.3
    raw = project(gmap, Rect(SAFE.x + 24, lay.area.y + 4, SAFE.w - 42, lay.area.h - 8))
    moved = max(math.hypot(lay.at[s][0] - raw[s][0], lay.at[s][1] - raw[s][1]) for s in raw)
    assert moved <= 6.0 + 1e-9  # geography stays recognisable
    assert layout(gmap, SAFE, fonts.text_width) == lay  # deterministic
    # Regent's Park and Warren Street no longer sit under the Metropolitan / H&C stroke
    met = gmap.runs["metropolitan"].stations
    for s in ("regents-park", "warren-street"):
        d = min(segment_distance(lay.at[s], lay.at[a], lay.at[b])[0] for a, b in zip(met, met[1:], strict=False) if s not in (a, b))
        assert d >= 2.5, s


def test_relax_is_deterministic_and_capped(gmap):
    raw = project(gmap, Rect(30, 20, 190, 160))
    at = relax(gmap, raw, cap=2.0)
    assert relax(gmap, raw, cap=2.0) == at
    assert max(math.hypot(at[s][0] - raw[s][0], at[s][1] - raw[s][1]) for s in at) <= 2.0 + 1e-9


def test_labels_are_apart_inside_and_next_to_their_own_marker(gmap, lay):
    assert set(lay.labels) == set(gmap.stations)
    boxes = {s: lab.box for s, lab in lay.labels.items()}
    names = sorted(boxes)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if overlaps(boxes[a], boxes[b])]
    assert clashes == []
    for s, box in boxes.items():
        assert lay.area.contains(box), s
        assert not overlaps(box, lay.legend), s
        for t, (x, y) in lay.at.items():
            r = marker_radius(gmap, t)
            if t != s:
                assert not overlaps(box, Rect(x - r, y - r, 2 * r, 2 * r)), (s, t)
        own = _box_distance(box, lay.at[s])
        nearest_other = min(_box_distance(box, p) for t, p in lay.at.items() if t != s)
        assert own <= 6.0 and own + 1.5 <= nearest_other, s  # reads as this station's name


def test_no_line_runs_through_a_label(gmap, lay):
    through = {s: sum(clip_length(lab.box, p, q) for _, p, q in lay.drawn) for s, lab in lay.labels.items()}
    touched = {s: round(v, 2) for s, v in through.items() if v > 0}
    # the reviewers' lists: Tottenham Court Road, Regent's Park, Edgware Road (H&C), Monument,
    # Mansion House, then Cannon Street were crossed; now no line touches any label
    assert touched == {}


def test_every_station_is_named_on_the_printed_map(tmp_path, gmap, london):
    from tubedeck.games.oneday.edition import load
    from tubedeck.generator import render
    from tubedeck.generator.oneday.faces import documents

    docs = [d for d in documents(load(london), PrintOptions.parse()) if d.name == "map"]
    render(docs, PrintOptions.parse(export="pdf"), tmp_path)
    with pymupdf.open(next(tmp_path.rglob("map.pdf"))) as doc:
        text = " ".join(doc[0].get_text().split())
    for st in gmap.stations.values():
        assert st.name in text, st.name


def test_the_page_layout_is_worked_out_once_per_map_and_page(gmap, lay):
    from tubedeck.generator.oneday.map import page_layout

    first = page_layout(gmap, SAFE)
    assert first == lay and page_layout(gmap, SAFE) is first  # the same object: not laid out again
    other = Rect(SAFE.x, SAFE.y, SAFE.w - 10, SAFE.h)
    assert page_layout(gmap, other) is not first


@pytest.mark.parametrize("card", ["poker", "mini", "mini-landscape"])
def test_bands_grow_with_fewer_lines_and_numbers_stay_legible(london, card):
    """A one-line card's band is far taller than a five-line card's; every band's numbers >= 7 pt."""
    from tubedeck.games.oneday.edition import load
    from tubedeck.generator import CardGeometry
    from tubedeck.generator.oneday.faces import _bands, strip
    from tubedeck.generator.sizes import parse_card

    size = parse_card(card)
    safe = CardGeometry(size.width, size.height).safe
    ed = load(london)
    deck = ed.deck
    pitch = strip(ed.board, deck, size.width, size.height).pitch
    heights = {}
    for c in deck.cards:
        band_h, _, pt, _ = _bands(c, size.height - pitch - 1.0, safe.y + 4.0, c.id, card)
        assert pt >= 7.0
        heights.setdefault(len(c.bands), []).append(band_h)
    assert min(heights[1]) > 1.8 * max(heights[max(heights)])


ALIKE = 1.5  # two lines' colours under this contrast print as about the same grey


def _on(c, p, q) -> bool:
    cross = (q[0] - p[0]) * (c[1] - p[1]) - (q[1] - p[1]) * (c[0] - p[0])
    return (abs(cross) <= 1e-6 * max(1.0, math.dist(p, q)) and min(p[0], q[0]) - 1e-6 <= c[0] <= max(p[0], q[0]) + 1e-6
            and min(p[1], q[1]) - 1e-6 <= c[1] <= max(p[1], q[1]) + 1e-6)


def test_where_two_lines_print_alike_each_way_out_carries_its_letter(gmap, lay):
    """In greyscale Bakerloo and Victoria print the same grey (113 against 112) and leave Oxford
    Circus side by side: a player following one could take the other. Wherever two lines that
    print alike meet, each way out of that station along either (its stretch, up to the next
    station another line serves) can be told: it carries its line's chip, or every way out along
    the other line does (the unlabelled grey is then not the other), or the two share its track."""
    lines = sorted(gmap.runs)
    alike = [(a, b) for i, a in enumerate(lines) for b in lines[i + 1:]
             if contrast(rgb(gmap.lines[a].colour), rgb(gmap.lines[b].colour)) < ALIKE]
    assert ("bakerloo", "victoria") in alike and ("metropolitan", "piccadilly") in alike
    by = {(ln, pair): (p, q) for ln, pair, p, q in _strokes(gmap, lay.at)}

    def ways(line, other, s):  # the line's stretches out of s not on the other's track
        return [st for st in stretches(gmap, line) if s in (st[0][0], st[-1][1])
                and not all((other, frozenset(x)) in by for x in st)]

    def chipped(line, stretch):
        return any(ln == line and _on(c, *by[line, frozenset(x)]) for x in stretch for ln, c in lay.chips)

    missing, labelled = [], 0
    for a, b in alike:
        for s in gmap.stations:
            if a not in gmap.lines_at(s) or b not in gmap.lines_at(s):
                continue
            for line, other in ((a, b), (b, a)):
                for stretch in ways(line, other, s):
                    if chipped(line, stretch):
                        labelled += 1
                    elif not all(chipped(other, st) for st in ways(other, line, s)):
                        missing.append((line, other, s, stretch))
    assert labelled > 20 and missing == []


def test_line_chips_sit_on_their_own_stroke_clear_of_everything_else(gmap, lay):
    size = chip_size(line_letters(gmap).values())
    by = {(ln, pair): (p, q) for ln, pair, p, q in _strokes(gmap, lay.at)}
    boxes = []
    on: dict[frozenset, set[str]] = {}
    for line, c in lay.chips:
        box = chip_box(c, size)
        (pair,) = [pair for (ln, pair), (p, q) in by.items() if ln == line and _on(c, p, q)]
        assert lay.area.contains(box), line
        wide = box.inset(-(LINE_WIDTH / 2 + 0.1))  # the strokes' painted width
        assert not any(segment_hits(wide, p, q) for (_, other), (p, q) in by.items() if other != pair), (line, c)
        on.setdefault(pair, set()).add(line)
        for s, lab in lay.labels.items():
            assert not overlaps(box, lab.box.inset(-CHIP_CLEAR)), (line, s)
        for s, (x, y) in lay.at.items():
            r = marker_radius(gmap, s) + CHIP_CLEAR
            assert not overlaps(box, Rect(x - r, y - r, 2 * r, 2 * r)), (line, s)
        assert not any(overlaps(box, other.inset(-CHIP_CLEAR)) for other in boxes), (line, c)
        boxes.append(box)
    assert {line for line, _ in lay.chips} == set(gmap.runs)
    # lines drawn side by side: a chip covers its neighbours' strokes, so all of them have one there
    for pair, lines in on.items():
        assert lines == {ln for ln, other in by if other == pair}, sorted(pair)
    assert any(len(lines) > 1 for lines in on.values())


def test_the_printed_map_shows_every_chip_letter(tmp_path, london, gmap):
    """Read back from the PDF: one letter span per chip on the map and one per key entry, at the
    play size, each in its line's chip."""
    from tubedeck.games.oneday.edition import load
    from tubedeck.generator import render
    from tubedeck.generator.oneday.faces import documents
    from tubedeck.generator.oneday.map import page_layout

    ed = load(london)
    docs = [d for d in documents(ed, PrintOptions.parse()) if d.name == "map"]
    render(docs, PrintOptions.parse(export="pdf"), tmp_path)
    letters = line_letters(gmap)
    with pymupdf.open(next(tmp_path.rglob("map.pdf"))) as doc:
        spans = [sp for b in doc[0].get_text("dict")["blocks"] for ln in b.get("lines", ()) for sp in ln["spans"]
                 if sp["text"].strip() in letters.values()]
    assert all(sp["size"] >= CHIP_PT - 0.01 for sp in spans)
    chips = page_layout(ed.board, SAFE).chips
    assert len(chips) >= 50
    assert len(spans) == len(chips) + len(gmap.runs)


def test_the_map_is_the_diagram_unless_it_leaves_more_names_touched(gmap, monkeypatch, capsys):
    """Both drawings are made and named: London's diagram leaves more names touched by a line than
    geography, so geography prints and stderr says why; where geography is worse (squeezed here to
    half its size), the diagram prints, every stroke at a multiple of 45 degrees."""
    import tubedeck.generator.oneday.map as odmap

    lay = layout(gmap, SAFE, fonts.text_width)
    said = capsys.readouterr().err
    assert "drawn from geography: the diagram leaves" in said and f"geography {len(lay.crossed)}" in said
    touched = int(said.split("the diagram leaves ")[1].split()[0])
    assert touched > len(lay.crossed)

    def squeezed(gmap, at):
        cx = sum(x for x, _ in at.values()) / len(at)
        cy = sum(y for _, y in at.values()) / len(at)
        return {s: (cx + (x - cx) / 2, cy + (y - cy) / 2) for s, (x, y) in at.items()}
    monkeypatch.setattr(odmap, "relax", squeezed)
    diagram = layout(gmap, SAFE, fonts.text_width)
    assert "drawn from geography" not in capsys.readouterr().err
    assert len(diagram.crossed) == touched
    for _, p, q in diagram.drawn:
        angle = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 45
        assert min(angle, 45 - angle) < 0.01
