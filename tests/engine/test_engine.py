"""Print engine on real files: geometry to 0.1 mm, duplex/fold backs, fonts, text fitting, modes."""

from __future__ import annotations

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from tubedeck.errors import UsageError
from tubedeck.generator import Card, Deck, PrintOptions, Rect, TextFitError
from tubedeck.generator.layout import make_layout
from tubedeck.generator.options import POD_BLEED
from tubedeck.generator.pdf import deck_cards_pdf, deck_sheets_pdf
from tubedeck.generator.sampler.faces import sampler_deck
from tubedeck.generator.sizes import MM, PRINTER_MARGIN, CardSize, parse_card, parse_paper

TOL = 0.1  # mm


def marker(k: int, side: int):
    """A face filling its trim with a colour that encodes (card index, side)."""
    colour = "#%02x%02x30" % (k + 1, 0x10 * side)

    def face(pen):
        pen.rect(0, 0, pen.trim.w, pen.trim.h, fill=colour)
    return face


def marker_deck(n: int, per_card_backs: bool = True, size: CardSize | None = None) -> Deck:
    cards = [Card(f"c{k}", marker(k, 1), marker(k, 2) if per_card_backs else None) for k in range(n)]
    return Deck("markers", cards, back=None if per_card_backs else marker(250, 2), size=size)


def trims(page) -> dict[tuple[int, int], Rect]:
    """{(card index, side): trim rect in mm, PDF orientation (origin bottom-left)} on a page."""
    h = page.rect.height
    out = {}
    for d in page.get_drawings():
        fill = d.get("fill")
        if not fill:
            continue
        r, g, b = (round(v * 255) for v in fill)
        if b == 0x30 and g in (0x10, 0x20):
            x = d["rect"]
            out[(r - 1, g // 0x10)] = Rect(x.x0 / MM, (h - x.y1) / MM, x.width / MM, x.height / MM)
    return out


def close(a: Rect, b: Rect) -> bool:
    return all(abs(u - v) <= TOL for u, v in ((a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)))


def open_pdf(data: bytes) -> pymupdf.Document:
    return pymupdf.open(stream=data, filetype="pdf")


# -- sizes and grid -----------------------------------------------------------------------------
@pytest.mark.parametrize("paper, pts", [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_nine_poker_cards_per_page_and_page_size(paper, pts):
    data, pages, layout = deck_sheets_pdf(marker_deck(9), PrintOptions.parse(paper=paper))
    assert (layout.cols, layout.rows) == (3, 3)
    doc = open_pdf(data)
    assert pages == doc.page_count == 2
    assert doc[0].rect.width == pytest.approx(pts[0], abs=0.01)
    assert doc[0].rect.height == pytest.approx(pts[1], abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_trim_within_a_tenth_of_a_mm(paper):
    p = parse_paper(paper)
    data, _, _ = deck_sheets_pdf(marker_deck(9), PrintOptions.parse(paper=paper))
    found = trims(open_pdf(data)[0])
    x0, top = (p.width - 3 * 63.5) / 2, p.height - (p.height - 3 * 88.9) / 2
    assert x0 >= PRINTER_MARGIN and p.height - top >= PRINTER_MARGIN - 1e-9
    for k in range(9):
        r, c = divmod(k, 3)
        expected = Rect(x0 + c * 63.5, top - (r + 1) * 88.9, 63.5, 88.9)
        assert close(found[(k, 1)], expected), (k, found[(k, 1)], expected)


def test_gap_and_landscape_paper():
    opts = PrintOptions.parse(gap=2, orientation="landscape", card="mini")
    data, _, layout = deck_sheets_pdf(marker_deck(3), opts)
    page = open_pdf(data)[0]
    assert page.rect.width > page.rect.height
    found = trims(page)
    assert found[(1, 1)].x - found[(0, 1)].right == pytest.approx(2.0, abs=TOL)
    assert found[(0, 1)].w == pytest.approx(44.5, abs=TOL)


@pytest.mark.parametrize("spec, wh", [("poker", (63.5, 88.9)), ("bridge", (57.2, 88.9)), ("mini", (44.5, 63.5)),
                                      ("tarot", (70, 120)), ("square", (70, 70)), ("60x90", (60, 90)),
                                      ("poker-landscape", (88.9, 63.5)), ("90 x 60mm", (90, 60))])
def test_card_sizes(spec, wh):
    c = parse_card(spec)
    assert (c.width, c.height) == pytest.approx(wh)


@pytest.mark.parametrize("bad", ["huge", "5x5", "60x", "poker-sideways"])
def test_bad_card_sizes(bad):
    with pytest.raises(UsageError):
        parse_card(bad)


@settings(max_examples=60, deadline=None)
@given(w=st.floats(20, 150), h=st.floats(20, 150), gap=st.floats(0, 8), bleed=st.sampled_from([0.0, 3.0]),
       paper=st.sampled_from(["a4", "letter"]), duplex=st.sampled_from(["long", "short"]))
def test_layout_properties(w, h, gap, bleed, paper, duplex):
    p = parse_paper(paper)
    layout = make_layout(p, CardSize("x", w, h), gap=gap, bleed=bleed, duplex=duplex)
    printable = p.rect.inset(PRINTER_MARGIN)
    for s in layout.fronts:
        assert printable.contains(s.trim) and printable.contains(s.clip) and s.clip.contains(s.trim)
    for a, b in zip(layout.fronts, layout.fronts[1:]):  # clips never overlap in reading order
        assert a.clip.right <= b.clip.x + 1e-6 or a.clip.y >= b.clip.top - 1e-6
    fronts = {(round(s.trim.x, 6), round(s.trim.y, 6)) for s in layout.fronts}
    assert {(round(s.trim.x, 6), round(s.trim.y, 6)) for s in layout.backs} == fronts  # mirror = a slot


# -- backs: duplex, fold, offsets ---------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_of_card_k_sits_behind_card_k(paper, duplex):
    p = parse_paper(paper)
    data, pages, _ = deck_sheets_pdf(marker_deck(11), PrintOptions.parse(paper=paper, duplex=duplex, bleed=3))
    doc = open_pdf(data)
    assert pages == doc.page_count == 4  # front, back, front, back
    for k in range(11):
        sheet = k // 9
        front = trims(doc[2 * sheet])[(k, 1)]
        back = trims(doc[2 * sheet + 1])[(k, 2)]
        # Turn the back page over the way the printer does, and it must cover the front exactly.
        seen = (Rect(p.width - back.right, back.y, back.w, back.h) if duplex == "long"
                else Rect(back.x, p.height - back.top, back.w, back.h))
        assert close(seen, front), (k, seen, front)
    assert all(side == 1 for k, side in trims(doc[0])) and all(side == 2 for k, side in trims(doc[1]))


def test_back_offset_moves_backs_only():
    plain, _, _ = deck_sheets_pdf(marker_deck(2), PrintOptions.parse())
    moved, _, _ = deck_sheets_pdf(marker_deck(2), PrintOptions.parse(back_offset="1.5,-2"))
    a, b = open_pdf(plain), open_pdf(moved)
    assert close(trims(a[0])[(0, 1)], trims(b[0])[(0, 1)])
    assert close(trims(b[1])[(0, 2)], trims(a[1])[(0, 2)].moved(1.5, -2))


def test_shared_back_and_single_sided():
    data, pages, _ = deck_sheets_pdf(marker_deck(10, per_card_backs=False), PrintOptions.parse())
    assert pages == 4 and (250, 2) in trims(open_pdf(data)[1])
    single = Deck("fronts", [Card("a", marker(0, 1))])
    assert deck_sheets_pdf(single, PrintOptions.parse())[1] == 1
    assert deck_sheets_pdf(marker_deck(3), PrintOptions.parse(duplex="none"))[1] == 1


def test_fold_over_backs_mirror_about_the_fold():
    data, pages, layout = deck_sheets_pdf(marker_deck(5), PrintOptions.parse(fold=True))
    assert layout.fold and layout.paper.width > layout.paper.height  # auto picks landscape: 4 vs 3
    assert pages == 2 == open_pdf(data).page_count
    found = trims(open_pdf(data)[0])
    mid = layout.paper.width / 2
    for k in range(4):
        f, b = found[(k, 1)], found[(k, 2)]
        assert f.right <= mid - 2.9 and b.x >= mid + 2.9
        assert close(Rect(2 * mid - b.right, b.y, b.w, b.h), f)


def test_card_too_big_for_paper():
    with pytest.raises(UsageError, match="does not fit"):
        deck_sheets_pdf(marker_deck(1), PrintOptions.parse(card="250x280"))


# -- PDF properties ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def london_pdf(london):
    data, _, layout = deck_sheets_pdf(sampler_deck(london), PrintOptions.parse(bleed=3))
    return data, layout


def test_fonts_embedded_subset_truetype_only(london_pdf):
    doc = open_pdf(london_pdf[0])
    seen = set()
    for i in range(doc.page_count):
        for _xref, ext, ftype, basefont, *_ in doc.get_page_fonts(i):
            assert ext == "ttf" and ftype == "TrueType", basefont
            assert "+" in basefont and "Helvetica" not in basefont
            seen.add(basefont.split("+")[1])
    assert seen == {"BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold"}


def spans_in_safe_areas(data: bytes, layout) -> set[str]:
    """Assert every text span on front pages lies in its card's safe area; return the texts."""
    doc = open_pdf(data)
    names = set()
    step = 2 if layout.backs and not layout.fold else 1
    for i in range(0, doc.page_count, step):
        page = doc[i]
        h = page.rect.height / MM
        cards = [s.trim for s in layout.fronts + (layout.backs if layout.fold else ())]
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    x0, y0, x1, y1 = (v / MM for v in span["bbox"])
                    box = Rect(x0, h - y1, x1 - x0, y1 - y0)
                    owner = [t for t in cards if box.x < t.right and box.right > t.x and box.y < t.top and box.top > t.y]
                    if not owner:
                        continue  # page furniture: ruler and note
                    assert len(owner) == 1 and owner[0].inset(4.0).contains(box, tol=0.05), (span["text"], box)
                    names.add(span["text"])
    return names


def test_no_text_outside_its_cards_safe_area(london_pdf):
    names = spans_in_safe_areas(*london_pdf)
    for name in ("King's Cross St Pancras", "Heathrow Terminals 2 & 3", "Harrow & Wealdstone"):
        assert any(name in n or (n in name and len(n) > 8) for n in names), name


@pytest.mark.parametrize("card", ["poker", "mini", "poker-landscape"])
def test_long_names_fit_in_safe_area(card):
    from functools import partial

    from tubedeck.generator.sampler.faces import station_front
    from tubedeck.network import Station

    names = ["Cutty Sark for Maritime Greenwich", "King's Cross St Pancras", "Heathrow Terminals 2 & 3",
             "Harrow & Wealdstone", "Hammersmith (District & Piccadilly)"]
    lines = [("Hammersmith & City", "#F3A9BB", "#000000"), ("Waterloo & City", "#95CDBA", "#000000"),
             ("Metropolitan", "#9B0056", "#FFFFFF"), ("Northern", "#000000", "#FFFFFF"),
             ("Piccadilly", "#003688", "#FFFFFF"), ("Circle", "#FFD300", "#000000")]
    cards = [Card(f"s{i}", partial(station_front, station=Station(f"s{i}", n, 0, 0, "2/3"), lines=lines))
             for i, n in enumerate(names)]
    deck = Deck("long", cards)
    data, _, layout = deck_sheets_pdf(deck, PrintOptions.parse(card=card, bleed=3))
    text = " ".join(spans_in_safe_areas(data, layout))
    for word in ("Cutty", "Greenwich", "Pancras", "Wealdstone", "Piccadilly)"):
        assert word in text


def test_viewer_preferences_metadata_and_one_card_boxes():
    deck = marker_deck(2)
    data, pages = deck_cards_pdf(deck, PrintOptions.parse(), bleed=3.0)
    reader = PdfReader(__import__("io").BytesIO(data))
    assert pages == len(reader.pages) == 4
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert reader.metadata.title and reader.metadata.author == "tubedeck"
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx((63.5 + 6) * MM, abs=0.01)
    trim = [float(v) / MM for v in page.trimbox]
    assert trim == pytest.approx([3, 3, 66.5, 91.9], abs=0.01)
    assert [float(v) / MM for v in page.bleedbox] == pytest.approx([0, 0, 69.5, 94.9], abs=0.01)


def test_pod_bleeds():
    assert round((63.5 + 2 * POD_BLEED["tgc"]) / 25.4 * 300) == 825
    assert round((88.9 + 2 * POD_BLEED["mpc"]) / 25.4 * 300) == 1122


# -- text fitting -----------------------------------------------------------------------------
def test_text_shrinks_and_wraps_and_errors_clearly():
    def tight(pen):
        pen.text_box(Rect(4, 4, 30, 6), "Cutty Sark for Maritime Greenwich", size=12, min_size=4, field="name")

    def impossible(pen):
        pen.text_box(Rect(4, 4, 10, 3), "Cutty Sark for Maritime Greenwich", size=12, min_size=8, field="name")

    deck_sheets_pdf(Deck("ok", [Card("cutty", tight)]), PrintOptions.parse())
    with pytest.raises(TextFitError) as err:
        deck_sheets_pdf(Deck("bad", [Card("cutty-sark", impossible)]), PrintOptions.parse())
    assert isinstance(err.value, UsageError)
    assert "bad/cutty-sark front" in str(err.value) and "'name'" in str(err.value)


def test_missing_glyph_is_an_error():
    def face(pen):
        pen.text(5, 5, "Tube \u4e2d", field="name")
    with pytest.raises(UsageError, match="no glyph"):
        deck_sheets_pdf(Deck("glyph", [Card("x", face)]), PrintOptions.parse())


@pytest.mark.parametrize("card, per_page", [("mini", 18), ("poker-landscape", 9), ("square", 8)])
def test_sampler_fits_every_station_on_mini_and_landscape_cards(london, card, per_page):
    deck = sampler_deck(london)
    data, pages, layout = deck_sheets_pdf(deck, PrintOptions.parse(card=card))
    n = len(deck.cards)
    assert layout.per_page == per_page and pages == open_pdf(data).page_count == 2 * -(-n // per_page)
    names = spans_in_safe_areas(data, layout)  # asserts every span on a card lies in its safe area
    text = " ".join(sorted(names))
    for name in ("King's Cross St Pancras", "Heathrow Terminals 2 & 3", "Harrow & Wealdstone", "Bank"):
        assert all(word in text for word in name.split()), name
    assert sum("Zone" in t for t in names) >= 1


def test_an_empty_text_box_says_so_without_negative_sizes():
    def squeezed(pen):
        pen.text_box(Rect(4, 10, 2.0, -3.1), "Bank", size=8, min_size=6, field="name")

    with pytest.raises(TextFitError) as err:
        deck_sheets_pdf(Deck("tiny", [Card("bank", squeezed)]), PrintOptions.parse())
    message = str(err.value)
    assert "-3.1" not in message and "needs more than" not in message
    assert "tiny/bank front: field 'name' has no room for 'Bank'" in message
    assert "2.0 mm wide and 0.0 mm high" in message


@pytest.mark.parametrize("spec, expected", [("300x300", "a 300 x 300 mm card"), ("tarot", "a tarot 70 x 120 mm card")])
def test_card_too_big_message_reads_well(spec, expected):
    card = parse_card(spec)
    assert card.label() == expected[2:-5]
    big = CardSize(card.name, card.width * 3, card.height * 3) if spec == "tarot" else card
    with pytest.raises(UsageError) as err:
        make_layout(parse_paper("a4"), big)
    message = str(err.value)
    if spec == "300x300":
        assert message.startswith("a 300 x 300 mm card does not fit on a4 portrait paper")
        assert "300x300" not in message
    assert "space for cards is 197.3 x 284.3 mm" in message


# -- colour modes -----------------------------------------------------------------------------
def _ops(data: bytes) -> str:
    doc = open_pdf(data)
    return " ".join(doc[i].read_contents().decode("latin-1") for i in range(doc.page_count))


def test_colour_modes_use_the_right_colour_space():
    deck = Deck("m", [Card("a", marker(0, 1))], back=marker(1, 2))
    cmyk = _ops(deck_sheets_pdf(deck, PrintOptions.parse(mode="cmyk"))[0])
    grey = _ops(deck_sheets_pdf(deck, PrintOptions.parse(mode="greyscale"))[0])
    rgb = _ops(deck_sheets_pdf(deck, PrintOptions.parse(mode="colour"))[0])
    assert " k" in cmyk and " rg" not in cmyk and " RG" not in cmyk
    assert " g" in grey and " rg" not in grey and " k" not in grey
    assert " rg" in rgb


def test_ink_saver_skips_backgrounds(london):
    one = Deck("one", sampler_deck(london).cards[:1], back=sampler_deck(london).back)
    full = open_pdf(deck_sheets_pdf(one, PrintOptions.parse())[0])
    saver = open_pdf(deck_sheets_pdf(one, PrintOptions.parse(mode="ink-saver"))[0])
    def ink(page) -> float:
        pix = page.get_pixmap(dpi=20)
        return sum(1 - sum(pix.pixel(x, y)) / 765 for x in range(0, pix.width, 2) for y in range(0, pix.height, 2))

    assert ink(saver[1]) < 0.3 * ink(full[1])  # the back: no full-bleed blue


# -- sheet furniture: ruler block, note, label, cut marks ----------------------------------------
def page_items(page):
    """(text spans, ruler lines, cut marks) on a page, as page-mm Rects (origin bottom-left)."""
    h = page.rect.height / MM

    def rect(r) -> Rect:
        x0, y0, x1, y1 = (v / MM for v in r)
        return Rect(x0, h - y1, x1 - x0, y1 - y0)

    spans = [(s["text"], rect(s["bbox"])) for b in page.get_text("dict")["blocks"] for ln in b.get("lines", [])
             for s in ln["spans"]]
    ruler, cuts = [], []
    for d in page.get_drawings():
        if d.get("color") == (0.0, 0.0, 0.0) and d.get("width"):
            (cuts if d["width"] / MM < 0.1 else ruler).append(rect(d["rect"]))
    return spans, ruler, cuts


def assert_clear_of_edges_cards_and_marks(page, paper, clips, cut_boxes=()):
    printable = paper.rect.inset(PRINTER_MARGIN)
    spans, ruler, cuts = page_items(page)
    furniture = [(t, r) for t, r in spans if not any(r.x < c.right and r.right > c.x and r.y < c.top
                                                       and r.top > c.y for c in clips)]
    assert any("100%" in t for t, _ in furniture), "the print-at-100% note is missing"
    assert any(abs(max(r.w, r.h) - 50) < 0.01 for r in ruler), "the 50 mm ruler bar is missing"
    for what, r in furniture + [("ruler", r) for r in ruler]:
        assert printable.contains(r, tol=0.01), (what, r)  # >= 6.35 mm from every paper edge
        for c in clips:
            assert not (r.x < c.right and r.right > c.x and r.y < c.top and r.top > c.y), (what, r, c)
        for m in list(cuts) + list(cut_boxes):
            assert not (r.x < m.right and r.right > m.x and r.y < m.top and r.top > m.y), (what, r, m)
    return furniture


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0, 3])
def test_ruler_note_and_label_stay_printable_and_off_the_cards(paper, bleed):
    deck = Deck("markers", [Card(f"c{k}", marker(k, 1), marker(k, 2)) for k in range(11)],
                title="tubedeck sampler: station cards")
    data, pages, layout = deck_sheets_pdf(deck, PrintOptions.parse(paper=paper, bleed=bleed, orientation="portrait"))
    assert (layout.cols, layout.rows) == (3, 3)  # nine poker cards per page stay
    doc = open_pdf(data)
    p = parse_paper(paper)
    for i in range(doc.page_count):
        slots = layout.fronts if i % 2 == 0 else layout.backs
        furniture = assert_clear_of_edges_cards_and_marks(doc[i], p, [s.clip for s in slots])
        assert any(f"page {i + 1} of {pages}" in t for t, _ in furniture)  # the label is there too


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_ruler_stays_printable_and_below_the_safe_area(paper):
    from tubedeck.generator import Pages
    from tubedeck.generator.pdf import sheet_pdf

    seen = {}

    def page(pen):
        seen["safe"] = pen.safe
        pen.rect(pen.safe.x, pen.safe.y, pen.safe.w, pen.safe.h, fill="#0a1030")

    data, _ = sheet_pdf(Pages("s", (page,), title="a sheet"), PrintOptions.parse(paper=paper))
    assert_clear_of_edges_cards_and_marks(open_pdf(data)[0], parse_paper(paper), [seen["safe"]])


@pytest.mark.parametrize("bleed", [0, 3])
def test_short_cut_marks_stay_printable_where_there_is_room(bleed):
    p = parse_paper("a4")
    data, _, _ = deck_sheets_pdf(marker_deck(9), PrintOptions.parse(bleed=bleed))
    _, _, cuts = page_items(open_pdf(data)[0])
    vertical = [m for m in cuts if m.h > m.w]  # marks of the vertical cuts, in the top/bottom margins
    assert len(vertical) == 8 and all(m.y >= PRINTER_MARGIN - 0.01 and m.top <= p.height - PRINTER_MARGIN + 0.01
                                      for m in vertical)
    edge = deck_sheets_pdf(marker_deck(9), PrintOptions.parse(bleed=bleed, marks="edge"))[0]
    # asked for: to the edge of the printable area, never into the 6.35 mm a home printer cannot reach
    assert min(m.y for m in page_items(open_pdf(edge)[0])[2]) == pytest.approx(PRINTER_MARGIN, abs=0.01)


def test_ruler_reserves_a_row_only_when_no_margin_has_room():
    card = CardSize("tall", 197.0, 142.0)  # two rows fill A4's printable area: no margin left anywhere
    deck = Deck("big", [Card("a", marker(0, 1)), Card("b", marker(1, 1))], size=card)
    data, pages, layout = deck_sheets_pdf(deck, PrintOptions.parse(orientation="portrait"))
    assert (layout.cols, layout.rows) == (1, 1) and pages == 2
    assert_clear_of_edges_cards_and_marks(open_pdf(data)[0], layout.paper, [s.clip for s in layout.fronts])


# -- text contrast in greyscale / ink-saver ------------------------------------------------------
def jubilee_band(pen):
    pen.rect(0, pen.trim.h - 20, pen.trim.w, 20, fill="#A0A5A9")  # the Jubilee line's grey
    pen.text_box(Rect(4, pen.trim.h - 16, pen.trim.w - 8, 12), "Zone 2", size=12, colour="#FFFFFF", field="zone")
    pen.text(4, 10, "Canary Wharf", size=9, colour="#FFFFFF")  # white on white paper: left alone
    pen.rect(2, 30, 20, 10, fill="#0019A8")
    pen.text(4, 33, "Blue", size=9, colour="#FFFFFF")  # reads on dark blue in every mode


def span_colours(data: bytes) -> dict[str, int]:
    page = open_pdf(data)[0]
    return {s["text"]: s["color"] for b in page.get_text("dict")["blocks"] for ln in b.get("lines", [])
            for s in ln["spans"]}


def test_greyscale_text_on_a_light_grey_fill_turns_black():
    deck = Deck("j", [Card("jubilee", jubilee_band)])
    grey = span_colours(deck_sheets_pdf(deck, PrintOptions.parse(mode="greyscale"))[0])
    colour = span_colours(deck_sheets_pdf(deck, PrintOptions.parse(mode="colour"))[0])
    assert grey["Zone 2"] == 0x000000 and colour["Zone 2"] == 0xFFFFFF  # colour: the designer's choice
    assert grey["Canary Wharf"] == 0xFFFFFF and grey["Blue"] == 0xFFFFFF


def test_pen_text_on_picks_a_readable_colour():
    from tubedeck.generator.colour import Mode, contrast, text_on

    assert text_on("#A0A5A9", Mode.GREYSCALE, "#FFFFFF") == "#000000"
    assert text_on("#0019A8", Mode.GREYSCALE, "#FFFFFF") == "#FFFFFF"
    assert text_on("#0019A8", Mode.COLOUR) == "#FFFFFF" and text_on("#FFD300", Mode.COLOUR) == "#000000"
    assert text_on("#DC241F", Mode.INK_SAVER, "#FFFFFF") == "#FFFFFF"  # ink-saver already darkens it
    assert contrast((1, 1, 1), (0, 0, 0)) == pytest.approx(21)


def test_the_pdf_writer_formats_its_numbers_in_c():
    """ReportLab's C accelerators (the ``rl_accel`` dependency) are loaded: its pure-Python number
    formatting was a fifth of a KLM build, and the bytes are the same either way."""
    from reportlab.lib import rl_accel

    assert type(rl_accel.fp_str).__name__ == "builtin_function_or_method"
