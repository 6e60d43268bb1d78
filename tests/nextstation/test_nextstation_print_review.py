"""The fresh-eyes print review of 2026-12 read back from the PDFs: no card carries a roundel-like
mark (a ring or disc crossed by a horizontal bar, whole or in two stubs); the map's scoring lines
(the Thames, district and corner-box borders) reach 3:1 against what they sit on in colour and
greyscale; every station symbol and name keeps 1.5 mm clear of the boxes' borders, and names keep
off the Thames and the dotted sections; the score card says the Thames column takes points; the
backs of the cards drawn face down (Station cards, Shared Objectives, Pencil Powers) look the
same printed 1.5 mm off (duplex drift) and cut 1 mm off."""

from __future__ import annotations

import pymupdf
import pytest
from engine.drift import DRIFTS, back_colours
from engine.drift import near_colour as near
from engine.test_calibration_emblem_bleed import bars_across, round_shapes  # the project's roundel measure

from tubedeck import generator
from tubedeck.game import network
from tubedeck.games.nextstation.edition import load
from tubedeck.generator.colour import contrast
from tubedeck.generator.document import Deck
from tubedeck.generator.nextstation.faces import documents
from tubedeck.generator.nextstation.map import CLEAR
from tubedeck.generator.pdf import sheet_layout, sheets_pdf
from tubedeck.generator.sizes import MM
from tubedeck.generator.theme import PAPER, PILE_BACKS


@pytest.fixture(scope="module")
def ed():
    return load(network(None), map="1")


# -- 1. no roundel ------------------------------------------------------------------------------
def stubs_either_side(page: pymupdf.Page, ring: pymupdf.Rect) -> list[pymupdf.Rect]:
    """Shapes lower than half of ``ring`` through its centre line that reach its left or right
    edge from outside: a bar drawn under a disc shows only as two stubs, one each side, which the
    engine's ``bars_across`` (one shape through and out both sides) does not see."""
    cy, tol = (ring.y0 + ring.y1) / 2, 0.05 * ring.width
    return [d["rect"] for d in page.get_drawings()
            if d["rect"].y0 < cy < d["rect"].y1 and d["rect"].height < ring.height / 2
            and ((d["rect"].x0 < ring.x0 and d["rect"].x1 > ring.x0 - tol)
                 or (d["rect"].x1 > ring.x1 and d["rect"].x0 < ring.x1 + tol))]


def roundel_like(page: pymupdf.Page) -> list[tuple]:
    """Rings and discs with a bar through them or a stub at each side."""
    out = []
    for ring in round_shapes(page):
        stubs = stubs_either_side(page, ring)
        cx = (ring.x0 + ring.x1) / 2
        if bars_across(page, ring) or (any(s.x0 < cx for s in stubs) and any(s.x1 > cx for s in stubs)):
            out.append(ring)
    return out


def test_the_measure_finds_a_bar_behind_a_disc():
    mm = 72 / 25.4
    doc = pymupdf.open()
    page = doc.new_page(width=63.5 * mm, height=88.9 * mm)
    for x0, x1 in ((3, 12), (52, 61)):  # the band's two visible ends, the disc between them
        page.draw_rect(pymupdf.Rect(x0 * mm, 42 * mm, x1 * mm, 47 * mm), fill=(1, 0.8, 0), color=None)
    page.draw_circle((32 * mm, 44 * mm), 20 * mm, color=(0, 0, 0), fill=(1, 1, 1))
    assert roundel_like(page)
    page = doc.new_page(width=63.5 * mm, height=88.9 * mm)
    page.draw_rect(pymupdf.Rect(3 * mm, 10 * mm, 61 * mm, 15 * mm), fill=(1, 0.8, 0), color=None)  # a bar below
    page.draw_circle((32 * mm, 44 * mm), 20 * mm, color=(0, 0, 0), fill=(1, 1, 1))
    assert not roundel_like(page)


@pytest.mark.parametrize("card", ["poker", "mini"])
def test_no_card_carries_a_roundel_like_mark(ed, tmp_path, card):
    """Every Next Station deck, fronts and backs: no ring or disc crossed by a horizontal bar."""
    opts = generator.PrintOptions.parse(card=card, export="pdf")
    decks = [d for d in documents(ed, opts) if isinstance(d, Deck)]
    assert {d.name for d in decks} >= {"stations", "objectives", "powers", "pencils", "reference"}
    generator.render(decks, opts, tmp_path)
    pages, paths = 0, sorted(tmp_path.glob("*.pdf"))
    for path in paths:
        for page in pymupdf.open(path):
            assert not roundel_like(page), f"{path.name} page {page.number + 1}: {roundel_like(page)[:2]}"
            pages += 1
    assert len(paths) >= 2 and pages >= 2 * len(paths)  # fronts and backs of every deck
    # the Underground cards still tell themselves apart in black and white: yellow side bands
    stations = pymupdf.open(tmp_path / "stations.pdf")
    yellow = tuple(int(ed.book.colours["underground_band"][i:i + 2], 16) / 255 for i in (1, 3, 5))
    bands = [d for p in stations for d in p.get_drawings()
             if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], yellow))]
    assert len(bands) == 2 * sum(c.underground for c in ed.book.cards)
    assert all(d["rect"].height > 3 * d["rect"].width for d in bands)


# -- 2. the scoring lines read at 3:1 -----------------------------------------------------------
MAPS = ("1", "2", "3", "4")  # the map sheet's default pages


@pytest.fixture(scope="module")
def maps():
    return load(network(None), map=MAPS[0], sheets=len(MAPS))


@pytest.fixture(scope="module", params=["colour", "greyscale"])
def map_pages(request, maps, tmp_path_factory):
    """The map sheet of maps 1-4, built in colour and in greyscale: its pages, read back."""
    ed = maps
    opts = generator.PrintOptions.parse(export="pdf", mode=request.param)
    tmp = tmp_path_factory.mktemp(f"ns-map-{request.param}")
    generator.render([d for d in documents(ed, opts) if d.name == "map"], opts, tmp)
    return list(pymupdf.open(tmp / "map.pdf"))[:len(MAPS)]


def _colour(c) -> tuple[float, float, float]:
    return (c[0],) * 3 if len(c) == 1 else tuple(c[:3])  # a DeviceGray colour as RGB


def _ratio(a, b) -> float:
    return contrast(_colour(a), _colour(b))


def district_boxes(page: pymupdf.Page) -> list[dict]:
    """The district and corner boxes: filled, outlined, tinted (not a white score-card field), at
    least a cell wide (not the legend's swatch)."""
    return [d for d in page.get_drawings() if d.get("fill") and d.get("color")
            and min(_colour(d["fill"])) < 0.99 and d["rect"].width > 8 * MM]


def test_the_district_borders_read_at_3_to_1_against_both_sides(map_pages):
    for page in map_pages:
        boxes = district_boxes(page)
        assert len(boxes) == 13, page.number
        for d in boxes:
            around = [b for b in boxes if b is not d and b["rect"].contains(d["rect"])]
            outside = around[0]["fill"] if around else (1.0, 1.0, 1.0)  # a corner box sits in a main one
            assert _ratio(d["color"], d["fill"]) >= 3, (page.number, d["rect"], _ratio(d["color"], d["fill"]))
            assert _ratio(d["color"], outside) >= 3, (page.number, d["rect"], _ratio(d["color"], outside))


def thames(page: pymupdf.Page) -> list[dict]:
    """The Thames's strokes on the map: wide (over 1 mm), straight, unfilled, longer than a cell."""
    return [d for d in page.get_drawings() if d.get("fill") is None and d.get("color") and (d.get("width") or 0) > MM
            and all(i[0] == "l" for i in d["items"]) and max(d["rect"].width, d["rect"].height) > 20 * MM]


def test_the_thames_reads_at_3_to_1_on_every_fill_it_crosses(map_pages):
    """Its outermost stroke (the banks, when a paler one runs inside) against the district and
    corner fills and the paper between the boxes."""
    for page in map_pages:
        strokes = thames(page)
        assert strokes, page.number
        edge = max(strokes, key=lambda d: d["width"])
        fills = {tuple(_colour(d["fill"])) for d in district_boxes(page)} | {(1.0, 1.0, 1.0)}
        worst = min(_ratio(edge["color"], f) for f in fills)
        assert worst >= 3, (page.number, worst)
        for inner in strokes:  # any paler water inside leaves a bank at least 0.3 mm wide each side
            if inner is not edge and inner["rect"] == edge["rect"]:
                assert edge["width"] - inner["width"] >= 0.6 * MM


# -- 4. the Thames column says what to write ----------------------------------------------------
def test_the_thames_column_takes_points_as_the_rules_add_them(ed, map_pages, tmp_path):
    """It read "Thames x2": the number of sections or the points? The rules add points ("+2 per
    Thames section"), so the column between "+" and "=" says points."""
    opts = generator.PrintOptions.parse(export="pdf")
    generator.render([d for d in documents(ed, opts) if d.name == "score-pad"], opts, tmp_path)
    pad = pymupdf.open(tmp_path / "score-pad.pdf")[0]
    assert f"+ {ed.rules.thames_points} per Thames section" in " ".join(pad.get_text().split())  # the rules' rate
    for page, cards in ((pad, 4), (map_pages[0], 1)):
        text = " ".join(page.get_text().split())
        assert "Thames x" not in text, page.number
        assert text.count("Thames points") == cards, text[:200]


# -- 3. symbols and names clear of the frames, names off the Thames and the sections -------------
def _ink(d) -> pymupdf.Rect:
    w = (d.get("width") or 0) / 2
    return d["rect"] + (-w, -w, w, w)


def _clearance(ink: pymupdf.Rect, box: dict) -> float:
    """mm from ``ink`` to ``box``'s border (its stroke), inside or outside it; -1 across it."""
    w = box["width"] / 2
    inner, outer = box["rect"] + (w, w, -w, -w), box["rect"] + (-w, -w, w, w)
    if inner.contains(ink):
        return min(ink.x0 - inner.x0, inner.x1 - ink.x1, ink.y0 - inner.y0, inner.y1 - ink.y1) / MM
    if not outer.intersects(ink):
        dx, dy = max(outer.x0 - ink.x1, ink.x0 - outer.x1, 0), max(outer.y0 - ink.y1, ink.y0 - outer.y1, 0)
        return (dx * dx + dy * dy) ** 0.5 / MM
    return -1.0


def _legs(d) -> list[pymupdf.Rect]:
    """A stroked path's straight legs as thin boxes as wide as its stroke."""
    w = (d.get("width") or 0) / 2
    return [pymupdf.Rect(it[1], it[2]).normalize() + (-w, -w, w, w) for it in d["items"] if it[0] == "l"]


def _on(leg: pymupdf.Rect, p: pymupdf.Point, q: pymupdf.Point, ink: pymupdf.Rect, w: float) -> bool:
    """Whether the segment p-q, ``w`` wide, runs through ``ink`` (sampled every 0.2 mm)."""
    if not leg.intersects(ink):
        return False
    n = max(2, int(abs(q - p) / (0.2 * MM)))
    grown = ink + (-w, -w, w, w)
    return any(grown.contains(p + (q - p) * (k / n)) for k in range(n + 1))


def map_clearances(page: pymupdf.Page) -> list[tuple]:
    """What runs into what on a map page: symbols (every shape drawn after the dotted sections
    but the name knockouts) and names (6 pt spans, ink from descender to cap height) closer than
    1.5 mm to a district or corner box's border; names on the Thames; names a dotted section
    crosses where no white knockout lies between."""
    drawings = page.get_drawings()
    boxes = district_boxes(page)
    grid = boxes[0]["rect"]
    for b in boxes:
        grid |= b["rect"]
    first = next(i for i, d in enumerate(drawings) if d.get("dashes") not in (None, "[] 0"))
    sections = [d for d in drawings if d.get("dashes") not in (None, "[] 0")]
    river = thames(page)
    knockouts = [d["rect"] for d in drawings[first:] if d.get("fill") and min(_colour(d["fill"])) > 0.99
                 and d.get("color") is None]
    symbols = [d for d in drawings[first:] if d not in river and d["rect"] not in knockouts
               and grid.intersects(d["rect"]) and max(d["rect"].width, d["rect"].height) < 12 * MM]
    names = [(s["text"], pymupdf.Rect(s["bbox"][0], s["origin"][1] - 0.72 * s["size"], s["bbox"][2],
                                      s["origin"][1] + 0.22 * s["size"]))
             for b in page.get_text("dict")["blocks"] for line in b.get("lines", ()) for s in line["spans"]
             if s["text"].strip() and s["size"] < 6.5 and grid.contains(pymupdf.Rect(s["bbox"]))]
    assert len(symbols) > 50 and len(names) > 50
    out = [("symbol", round(c, 2), tuple(round(v / MM, 1) for v in _ink(d)))
           for d in symbols for b in boxes if (c := _clearance(_ink(d), b)) < CLEAR - 0.01]
    for text, ink in names:
        out += [("name by a border", round(c, 2), text) for b in boxes if (c := _clearance(ink, b)) < CLEAR - 0.01]
        if any(leg.intersects(ink) for d in river for leg in _legs(d)):
            out.append(("name on the Thames", text))
        if not any(k.contains(ink) for k in knockouts) and any(
                _on(leg, it[1], it[2], ink, d["width"] / 2) for d in sections
                for leg, it in zip(_legs(d), [i for i in d["items"] if i[0] == "l"])):
            out.append(("a section through a name", text))
    return out


@pytest.fixture(scope="module")
def colour_pages(maps, tmp_path_factory):
    opts = generator.PrintOptions.parse(export="pdf")
    tmp = tmp_path_factory.mktemp("ns-map")
    generator.render([d for d in documents(maps, opts) if d.name == "map"], opts, tmp)
    return list(pymupdf.open(tmp / "map.pdf"))[:len(MAPS)]


def test_symbols_and_names_keep_clear_on_maps_1_to_4(colour_pages):
    for page in colour_pages:
        assert not map_clearances(page), (page.number + 1, map_clearances(page)[:6])


@pytest.mark.parametrize("seed,zones", [("5", "1-2"), ("9", "1-2"), ("12", "1-3")])
def test_symbols_and_names_keep_clear_on_other_maps_on_letter(seed, zones, tmp_path):
    """Letter's map is the smaller (cells of 16.7 mm, A4's 18.5): other seeds and wider zones."""
    ed = load(network(None), map=seed, zones=zones)
    opts = generator.PrintOptions.parse(export="pdf", paper="letter")
    generator.render([d for d in documents(ed, opts) if d.name == "map"], opts, tmp_path)
    page = pymupdf.open(tmp_path / "map.pdf")[0]
    assert not map_clearances(page), map_clearances(page)[:6]


# -- 4. the piles' backs survive duplex drift ---------------------------------------------------
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_drawn_cards_backs_look_the_same_under_a_1_5_mm_duplex_drift(ed, duplex):
    """Review: the Station back was a blue panel 3 mm inside the trim with a centred emblem, the
    objective and power backs a framed emblem on paper; a 1.5 mm drift left 1.5 mm of paper on
    one side and 4.5 on the other, and sheets drift differently. Now every pixel of every Station
    back, drifted 1.5 mm either way each way and cut 1 mm off, is the blue. The decks of the shared
    sheets keep a mark each on the paper ground, which runs over their neighbours' edges: pencil and
    rules cards are never drawn, and objectives and powers are drawn each from its own deck, whose
    cards share a sheet (poker), so a drift moves all their marks alike."""
    base = generator.PrintOptions.parse(export="pdf", duplex=duplex)
    docs = {d.name: d for d in documents(ed, base) if isinstance(d, Deck)}
    stations, shared = [docs["stations"]], [d for d in docs.values() if d.share == "cards"]
    n = {d.name: len(d.printed()) for d in docs.values()}
    assert [d.name for d in shared][:2] == ["objectives", "powers"]  # the sheets' first cards
    drawn = n["objectives"] + n["powers"]
    nominal = {id(g): sheets_pdf(g, base, "nominal")[2] for g in (stations, shared)}
    for dx, dy in DRIFTS:
        options = base.with_(back_offset=(dx, dy))
        count, seen = back_colours(sheets_pdf(stations, options, "s")[0], nominal[id(stations)], range(n["stations"]))
        assert count == n["stations"] and near(seen, PILE_BACKS["nextstation station"]), f"Station backs, drift {dx}, {dy}: {len(seen)} colours"
        data = sheets_pdf(shared, options, "c")[0]
        count, seen = back_colours(data, nominal[id(shared)], range(drawn))
        assert count == drawn and near(seen, PAPER), f"shared backs' edges, drift {dx}, {dy}: {len(seen)} colours"
        count, seen = back_colours(data, nominal[id(shared)], range(drawn), edge=None)
        assert any(not near({c}, PAPER) for c in seen)  # each deck's mark and art, inside the safe area
        count, seen = back_colours(data, nominal[id(shared)], range(drawn, sum(n[d.name] for d in shared)), edge=None)
        assert any(not near({c}, PAPER) for c in seen)  # the PENCILS and RULES marks
    # the objectives and powers of the default size share one sheet: one drift for every mark
    layout = sheet_layout(base.card, True, base)
    assert n["objectives"] + n["powers"] <= len(layout.fronts)
