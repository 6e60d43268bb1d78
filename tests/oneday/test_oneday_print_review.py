"""The print review's One Day findings, read back from the built PDFs: the map's lines keep 3:1 on
the paper in colour and in grey (a light line by its dark casing) and each has its own dash
pattern, on the map and in the key; station names are play size and never overlap; the station
cards' number discs and line chips sit at least 1.5 mm inside their tinted panel; the station
cards' back looks the same printed 1.5 mm off (duplex drift) and cut 1 mm off."""

from __future__ import annotations

import pymupdf
import pytest
from engine.drift import DRIFTS, back_colours

from tubedeck.games.oneday.edition import load
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.colour import contrast, luminance
from tubedeck.generator.oneday.faces import documents
from tubedeck.generator.pdf import sheets_pdf
from tubedeck.generator.theme import PILE_BACKS, PLAY_PT

MM = 72 / 25.4
WHITE = (1.0, 1.0, 1.0)


def _built(london, tmp_path, name: str) -> pymupdf.Document:
    docs = [d for d in documents(load(london), PrintOptions.parse()) if d.name == name]
    render(docs, PrintOptions.parse(export="pdf"), tmp_path)
    return pymupdf.open(next(tmp_path.rglob(f"{name}.pdf")))


def _grey(c: tuple[float, float, float]) -> tuple[float, float, float]:
    g = luminance(c)
    return g, g, g


@pytest.fixture(scope="module")
def map_page(london, tmp_path_factory):
    with _built(london, tmp_path_factory.mktemp("map"), "map") as doc:
        page = doc[0]
        yield page.get_drawings(), page.get_text("dict")


def test_every_line_reads_on_paper_in_colour_and_grey_and_has_its_own_pattern(london, map_page):
    drawings, _ = map_page
    ed = load(london)
    colours: dict[str, tuple[float, ...]] = {}
    strokes = [d for d in drawings if d.get("color") is not None and len(d["items"]) == 1 and d["items"][0][0] == "l"
               and d["rect"].y1 < 190 * MM]  # the map and its key, not the scale bar under them
    inks = {}  # a segment's end points -> the widest dark stroke drawn along it (a casing)
    for d in strokes:
        _, p, q = d["items"][0]
        if contrast(d["color"], WHITE) >= 12:
            key = (round(p.x, 1), round(p.y, 1), round(q.x, 1), round(q.y, 1))
            inks[key] = max(inks.get(key, 0.0), d["width"])
    patterns: dict[str, set[str]] = {}
    for line in sorted(ed.board.runs):
        spec = ed.board.lines[line].colour.lstrip("#")
        colour = tuple(int(spec[i:i + 2], 16) / 255 for i in (0, 2, 4))
        mine = [d for d in strokes if all(abs(a - b) < 0.003 for a, b in zip(d["color"], colour))]
        assert mine, line
        colours[line] = colour
        patterns[line] = {d.get("dashes") or "[] 0" for d in mine}
        reads = min(contrast(colour, WHITE), contrast(_grey(colour), WHITE)) >= 3.0
        for d in mine:  # the colour itself reads on paper, or dark rails wider than it run along it
            _, p, q = d["items"][0]
            cased = inks.get((round(p.x, 1), round(p.y, 1), round(q.x, 1), round(q.y, 1)), 0.0) > d["width"]
            assert reads or cased, (line, d["width"])
    # one pattern per line, on its map strokes and its key swatch alike; no two lines share one
    assert all(len(p) == 1 for p in patterns.values()), {ln: p for ln, p in patterns.items() if len(p) > 1}
    seen = [next(iter(p)) for p in patterns.values()]
    assert len(set(seen)) == len(seen), patterns
    # the key draws each line's stroke (with its pattern) below the map
    for line, colour in colours.items():
        low = [d for d in strokes if all(abs(a - b) < 0.003 for a, b in zip(d["color"], colour))
               and d["rect"].y0 > 170 * MM]
        assert low and {d.get("dashes") or "[] 0" for d in low} == patterns[line], line


def test_station_names_are_play_size_and_no_text_overlaps(london, map_page):
    _, text = map_page
    ed = load(london)
    spans = [sp for b in text["blocks"] for ln in b.get("lines", ()) for sp in ln["spans"] if sp["text"].strip()]
    words = {w for st in ed.board.stations.values() for w in st.name.replace("(", " ").replace(")", " ").split()}
    names = [sp for sp in spans if sp["size"] < 12 and set(sp["text"].replace("(", " ").replace(")", " ").split()) <= words
             and len(sp["text"].strip()) > 2]
    assert len(names) >= len(ed.board.stations)
    assert min(sp["size"] for sp in names) >= PLAY_PT - 0.01
    boxes = [pymupdf.Rect(sp["bbox"]) for sp in spans]
    clash = [(spans[i]["text"], spans[j]["text"]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
             if (boxes[i] & boxes[j]).get_area() > 0.05]
    assert clash == []


def test_station_cards_numbers_and_chips_sit_inside_their_panel(london, tmp_path):
    discs = chips = 0
    worst = []
    with _built(london, tmp_path, "stations") as doc:
        for page in doc:
            drawings = page.get_drawings()
            panels = [d["rect"] for d in drawings if d.get("fill") and d.get("color") is None and d["rect"].width > 40 * MM]
            for d in drawings:
                if d.get("color") is None or d.get("fill") is None:
                    continue
                r = d["rect"]
                on = [p for p in panels if p.contains(r)]
                if not on:
                    continue
                panel = min(on, key=lambda p: p.width * p.height)
                # the outline is centred on the path: half of it lies outside the mark
                gap = (min(r.x0 - panel.x0, panel.x1 - r.x1, r.y0 - panel.y0, panel.y1 - r.y1) - d["width"] / 2) / MM
                if d["fill"] == WHITE:
                    discs += 1
                else:
                    chips += 1
                worst.append(gap)
    assert discs >= 2 * 72 and chips >= 72
    assert min(worst) >= 1.5 - 1e-3, min(worst)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_station_backs_look_the_same_under_a_1_5_mm_duplex_drift(london, duplex):
    """Review: the back was a blue panel 3 mm inside the trim with a centred emblem; a 1.5 mm
    drift left 1.5 mm of paper on one side and 4.5 on the other, and the draw pile prints over
    many sheets, which drift differently. Now every pixel of every back, drifted 1.5 mm either way
    each way and cut 1 mm off, is the back's one colour."""
    base = PrintOptions.parse(export="pdf", duplex=duplex)
    deck = [next(d for d in documents(load(london), base) if d.name == "stations")]
    n = len(deck[0].printed())
    nominal = sheets_pdf(deck, base, "nominal")[2]
    blue = tuple(int(PILE_BACKS["oneday station"][i:i + 2], 16) for i in (1, 3, 5))
    for dx, dy in DRIFTS:
        count, seen = back_colours(sheets_pdf(deck, base.with_(back_offset=(dx, dy)), "s")[0], nominal, range(n))
        assert count == n and all(max(abs(a - b) for a, b in zip(c, blue)) <= 2 for c in seen), \
            f"drift {dx}, {dy}: {len(seen)} colours on the backs, {sorted(seen)[:4]}..."


def test_each_key_name_sits_as_near_its_mark_as_the_others(london, map_page):
    """Review: the key's "station" stood 6 mm right of its circle (in the column the line names
    keep after their chips), the line names 1.5 mm from their chips. Every name now starts the
    same distance from the mark to its left: a chip, or the station circle in the chips' place."""
    drawings, text = map_page
    ed = load(london)
    names = [ed.board.lines[ln].name for ln in ed.board.runs] + ["station"]
    spans = [s for b in text["blocks"] for ln in b.get("lines", ()) for s in ln["spans"]
             if s["text"].strip() in names and s["size"] >= 7.4]  # the key's 7.5 pt names, not map labels
    assert sorted(s["text"].strip() for s in spans) == sorted(names)
    gaps = {}
    for s in spans:
        x0, y0, _, y1 = s["bbox"]
        mid = (y0 + y1) / 2
        left = [d["rect"].x1 for d in drawings if d.get("fill") is not None and d["rect"].x1 <= x0 + 0.1
                and abs((d["rect"].y0 + d["rect"].y1) / 2 - mid) < 1.5 * MM and d["rect"].width < 8 * MM]
        assert left, s["text"]
        gaps[s["text"].strip()] = (x0 - max(left)) / MM
    assert max(gaps.values()) - min(gaps.values()) < 0.3, gaps
