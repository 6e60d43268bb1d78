"""Full-page print quality, read back from the real files (PyMuPDF / pypdf), one part per item:

1. no cut mark (or crop cross, corner guide, fold line) nearer than 6.35 mm to the paper edge,
   and every cut line still marked at both ends, over papers x orientations x cards x bleed/gap;
2. short-edge duplex turns every back 180 degrees (an asymmetric back, found on the raster);
3. sheet PDFs: TrimBox/BleedBox = the page, ``/Duplex`` as ``--duplex`` says;
4. decks sharing sheets (``Deck.share``), and no marks round an empty slot;
5. the duplex calibration sheet: each back scale lies exactly behind its front crosshair;
6. POD PNGs: the shop's exact size with bleed, one shared back per deck, a progress bar;
7. crop crosses and rounded-corner guides;
8. the tuck box net.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest
from pypdf import PdfReader

from tubedeck.errors import UsageError
from tubedeck.generator import Card, Deck, Pages, PrintOptions, render
from tubedeck.generator.layout import cut_lines, flips_rows
from tubedeck.generator.marks import CROSS_ARM, MIN_MARK
from tubedeck.generator.pdf import deck_layout, deck_sheets_pdf, sheet_pdf
from tubedeck.generator.sizes import MM, PRINTER_MARGIN, Rect, parse_paper

TOL = 0.02  # mm


def filled(colour: str):
    """A face filling exactly its trim (so every drawing on a sheet page is a card or furniture)."""
    def face(pen):
        pen.rect(0, 0, pen.trim.w, pen.trim.h, fill=colour)
    return face


def colour_of(k: int, side: int) -> str:
    return "#%02x%02x30" % (k + 1, 0x10 * side)


def deck_of(n: int, name: str = "d", share: str | None = None, back: bool = True, **kw) -> Deck:
    cards = [Card(f"{name}{k}", filled(colour_of(k, 1))) for k in range(n)]
    return Deck(name, cards, back=filled("#202080") if back else None, share=share, **kw)


def open_pdf(data: bytes) -> pymupdf.Document:
    return pymupdf.open(stream=data, filetype="pdf")


def mm_rect(page, r) -> Rect:
    """A PyMuPDF rect (points, y down) as page mm (origin bottom-left)."""
    h = page.rect.height
    return Rect(r.x0 / MM, (h - r.y1) / MM, r.width / MM, r.height / MM)


def thin_black(page) -> list[Rect]:
    """Cut marks, crosses and corner guides: 0.25 pt black strokes, as page mm boxes."""
    return [mm_rect(page, d["rect"]) for d in page.get_drawings()
            if d.get("color") == (0.0, 0.0, 0.0) and d.get("width") and d["width"] / MM < 0.1]


# -- 1. cut marks stay printable ------------------------------------------------------------------
COMBOS = [(paper, orientation, card, bleed, gap)
          for paper in ("a4", "letter") for orientation in ("auto", "portrait", "landscape")
          for card in ("poker", "bridge", "mini", "tarot", "square", "poker-landscape", "60x90")
          for bleed, gap in ((0, 0), (3, 0), (2, 0), (0, 2), (3, 6))]


def _build(paper, orientation, card, bleed, gap, marks, n=None, corners=False):
    try:
        options = PrintOptions.parse(paper=paper, orientation=orientation, card=card, bleed=bleed, gap=gap,
                                     marks=marks, corners=corners)
        layout = deck_layout(deck_of(1), options)
    except UsageError:
        pytest.skip("card does not fit this paper")
    deck = deck_of(n or layout.per_page)
    data, _, layout = deck_sheets_pdf(deck, options)
    return open_pdf(data), layout


@pytest.mark.parametrize("paper, orientation, card, bleed, gap", COMBOS)
@pytest.mark.parametrize("marks", ["short", "edge"])
def test_cut_marks_stay_printable_and_mark_every_cut_line(paper, orientation, card, bleed, gap, marks):
    doc, layout = _build(paper, orientation, card, bleed, gap, marks)
    p = layout.paper
    printable = p.rect.inset(PRINTER_MARGIN)
    for page in doc:  # fronts and backs: every drawing (cards, marks, ruler) inside the printable area
        for d in page.get_drawings():
            assert printable.contains(mm_rect(page, d["rect"]), tol=TOL), (paper, card, d["rect"])
    cuts = thin_black(doc[0])
    xs, ys = cut_lines(layout.fronts)
    grid_mid_x = (min(xs) + max(xs)) / 2
    grid_mid_y = (min(ys) + max(ys)) / 2
    for x in xs:  # a printable mark of >= 2 mm on the line at both ends
        on = [m for m in cuts if abs(m.x - x) < TOL and m.w < TOL and m.h >= MIN_MARK - TOL]
        assert any(m.y > grid_mid_y for m in on) and any(m.top < grid_mid_y for m in on), (x, on)
    for y in ys:
        on = [m for m in cuts if abs(m.y - y) < TOL and m.h < TOL and m.w >= MIN_MARK - TOL]
        assert any(m.x > grid_mid_x for m in on) and any(m.right < grid_mid_x for m in on), (y, on)


@pytest.mark.parametrize("paper, orientation, card, bleed, gap",
                         [c for c in COMBOS if c[1] == "auto" or c[2] == "poker"])
def test_crosses_corner_guides_and_fold_line_stay_printable(paper, orientation, card, bleed, gap):
    doc, layout = _build(paper, orientation, card, bleed, gap, "crosses", corners=True)
    printable = layout.paper.rect.inset(PRINTER_MARGIN)
    for d in doc[0].get_drawings():
        assert printable.contains(mm_rect(doc[0], d["rect"]), tol=TOL)
    fold = open_pdf(deck_sheets_pdf(deck_of(3), PrintOptions.parse(paper=paper, card="mini", fold=True,
                                                                   bleed=bleed))[0])
    page = fold[0]
    printable = Rect(0, 0, page.rect.width / MM, page.rect.height / MM).inset(PRINTER_MARGIN)
    for d in page.get_drawings():  # the fold line too
        assert printable.contains(mm_rect(page, d["rect"]), tol=TOL), d["rect"]


def test_letter_keeps_nine_poker_cards_with_every_mark_printable():
    doc, layout = _build("letter", "auto", "poker", 0, 0, "short")
    assert layout.per_page == 9  # the marks for the column cuts run from the printable limit inwards
    tops = [m for m in thin_black(doc[0]) if m.w < TOL and m.top > layout.paper.height - 10]
    assert len(tops) == 4 and all(m.top <= layout.paper.height - PRINTER_MARGIN + TOL for m in tops)


# -- 2. short-edge backs turned 180 degrees ----------------------------------------------------
def flagged_back(colour: str):
    """An asymmetric back: its own colour with a black flag in its top-right corner."""
    def face(pen):
        pen.background(colour)
        pen.rect(pen.trim.w - 14, pen.trim.h - 14, 10, 10, fill="#000000")
    return face


def pixel(pix, page_h_mm: float, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    scale = pix.xres / 25.4  # px per mm
    return pix.pixel(int(x_mm * scale), int((page_h_mm - y_mm) * scale))


def near(got, want, tol: int = 3) -> bool:
    want = tuple(int(want[i:i + 2], 16) for i in (1, 3, 5)) if isinstance(want, str) else want
    return all(abs(a - b) <= tol for a, b in zip(got, want))


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("bleed", [0, 3])
def test_backs_read_upright_after_the_flip(duplex, bleed):
    cards = [Card(f"c{k}", filled(colour_of(k, 1)), flagged_back("#%02x8080" % (40 + 20 * k))) for k in range(5)]
    options = PrintOptions.parse(duplex=duplex, bleed=bleed, gap=6 if bleed else 0)
    data, _, layout = deck_sheets_pdf(Deck("flags", cards), options)
    doc = open_pdf(data)
    pix = doc[1].get_pixmap(dpi=100)
    h = layout.paper.height
    for k in range(5):
        b = layout.backs[k].trim
        # Where the flag must be printed so that, after this flip, it sits top-right of the card's
        # back as the card (front upright) is turned over like a book page.
        if not flips_rows(layout.paper, duplex):
            flag, other = (b.right - 9, b.top - 9), (b.x + 9, b.y + 9)
        else:  # a portrait page's short-edge flip, a landscape one's long-edge flip: the back page
            # is upside down relative to a book-page turn (generator.layout.flips_rows)
            flag, other = (b.x + 9, b.y + 9), (b.right - 9, b.top - 9)
        assert pixel(pix, h, *flag) == (0, 0, 0), (duplex, k)
        assert pixel(pix, h, *other) != (0, 0, 0), (duplex, k)
        # the turned art stays inside its own clip box: the neighbour's slot is untouched
        clip = layout.backs[k].clip
        from tubedeck.generator.pen import DRIFT

        art = 0.6 if bleed else DRIFT + 0.6  # without a bleed, art stops DRIFT mm inside the trim
        inside = pixel(pix, h, clip.x + art, clip.y + clip.h / 2)
        assert near(inside[1:], (0x80, 0x80)), (duplex, k, inside)


# -- 3. TrimBox/BleedBox and /Duplex ---------------------------------------------------------
def viewer_duplex(data: bytes) -> str:
    return str(PdfReader(io.BytesIO(data)).trailer["/Root"]["/ViewerPreferences"]["/Duplex"])


@pytest.mark.parametrize("args, expected", [
    ({"duplex": "long"}, "/DuplexFlipLongEdge"), ({"duplex": "short"}, "/DuplexFlipShortEdge"),
    ({"duplex": "none"}, "/Simplex"), ({"fold": True}, "/Simplex")])
def test_sheet_pdfs_have_trim_bleed_boxes_and_the_duplex_preference(args, expected):
    data, pages, _ = deck_sheets_pdf(deck_of(11), PrintOptions.parse(**args))
    assert viewer_duplex(data) == expected
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        box = [float(v) for v in page.mediabox]
        assert [float(v) for v in page.trimbox] == box and [float(v) for v in page.bleedbox] == box
    assert viewer_duplex(deck_sheets_pdf(deck_of(3, back=False), PrintOptions.parse())[0]) == "/Simplex"
    single, _ = sheet_pdf(Pages("s", (lambda pen: None,)), PrintOptions.parse(**args))
    assert viewer_duplex(single) == "/Simplex"
    assert [float(v) for v in PdfReader(io.BytesIO(single)).pages[0].trimbox] == \
        [float(v) for v in PdfReader(io.BytesIO(single)).pages[0].mediabox]


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
def test_qpdf_check_passes(tmp_path):
    from tubedeck.generator.calibration import calibration_sheet

    options = PrintOptions.parse(duplex="short", export="pdf,cards,tuckbox", marks="crosses", corners=True)
    docs = [deck_of(4, name="a", share="mix"), deck_of(2, name="b", share="mix"), calibration_sheet(options)]
    manifest = render(docs, options, tmp_path / "g")
    pdfs = [tmp_path / f.path for f in manifest.files if f.path.endswith(".pdf")]
    assert len(pdfs) == 6
    for path in pdfs:
        run = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert run.returncode == 0 and "No syntax or stream encoding errors" in run.stdout, (path, run.stdout)


# -- 4. shared sheets, and no marks round empty slots ------------------------------------------
def test_small_decks_share_sheets_each_card_with_its_own_back(tmp_path):
    big = Deck("big", [Card(f"b{k}", filled(colour_of(k, 1))) for k in range(5)], back=filled("#102030"),
               share="cards")
    small = Deck("small", [Card(f"s{k}", filled(colour_of(10 + k, 1))) for k in range(2)],
                 back=filled("#203040"), share="cards")
    own = Deck("own", [Card("o", filled(colour_of(20, 1)), back=filled("#304050"))], share="cards")
    alone = deck_of(2, name="alone")
    manifest = render([big, small, own, alone], PrintOptions.parse(export="pdf,contact"), tmp_path / "g")
    files = {f.path: f for f in manifest.files}
    shared = files["g/cards.pdf"]
    assert shared.kind == "sheets-pdf" and shared.pages == 2 and shared.decks == ("g/big", "g/small", "g/own")
    assert "g/big.pdf" not in files and "g/small.pdf" not in files and "g/alone.pdf" in files
    assert {"g/big-contact.png", "g/small-contact.png", "g/own-contact.png"} <= set(files)
    assert manifest.decks["g/small"] == ["s0", "s1"] and "g/cards.pdf with g/big, g/own" in manifest.layouts["g/small"]
    assert manifest.as_dict()["files"][0]["decks"] == ["g/big", "g/small", "g/own"]
    doc = pymupdf.open(tmp_path / "g/cards.pdf")
    layout = deck_layout(big, PrintOptions.parse())
    pix = doc[1].get_pixmap(dpi=72)
    backs = ["#102030"] * 5 + ["#203040"] * 2 + ["#304050"]
    for k, colour in enumerate(backs):  # each card's back, behind it
        b = layout.backs[k].trim
        got = pixel(pix, layout.paper.height, *b.centre)
        assert near(got, colour), (k, got, colour)


def test_a_sheet_group_needs_one_card_size_and_its_own_name(tmp_path):
    a = deck_of(2, name="a", share="mix")
    b = deck_of(2, name="b", share="mix", size=PrintOptions.parse(card="mini").card)
    with pytest.raises(UsageError, match="one card size"):
        render([a, b], PrintOptions.parse(export="pdf"), tmp_path / "g")
    with pytest.raises(UsageError, match="name of another document"):
        render([deck_of(2, name="a", share="c"), deck_of(1, name="c")], PrintOptions.parse(export="pdf"), tmp_path / "h")


@pytest.mark.parametrize("marks", ["short", "edge", "crosses"])
@pytest.mark.parametrize("fold", [False, True])
def test_no_cut_marks_round_empty_slots(marks, fold):
    data, _, layout = deck_sheets_pdf(deck_of(2), PrintOptions.parse(marks=marks, fold=fold, orientation="portrait"))
    used = layout.fronts[:2] + (layout.backs[:2] if fold else ())
    xs, ys = cut_lines(used)
    top = max(s.trim.top for s in used)
    bottom = min(s.trim.y for s in used)
    for m in thin_black(open_pdf(data)[0]):
        vertical = m.w < TOL
        on = any(abs((m.x if vertical else m.y) - v) < TOL for v in (xs if vertical else ys))
        assert on, m  # every mark lies on a cut line of a card that is there
        if vertical and marks != "edge":
            assert m.y >= bottom - 7.1 and m.top <= top + 7.1, m  # and next to those cards


# -- 5. duplex calibration -------------------------------------------------------------------
def long_lines(page, length: float, colour) -> list[Rect]:
    return [mm_rect(page, d["rect"]) for d in page.get_drawings()
            if d.get("color") == colour and abs(max(d["rect"].width, d["rect"].height) / MM - length) < 0.05]


@pytest.mark.parametrize("duplex, offset", [("long", "0,0"), ("short", "0,0"), ("long", "0.5,-1")])
def test_calibration_scales_lie_behind_the_front_crosshairs(tmp_path, duplex, offset):
    from tubedeck.generator.calibration import ARM, SCALE, calibration_sheet

    options = PrintOptions.parse(duplex=duplex, back_offset=offset)
    manifest = render([calibration_sheet(options)], options, tmp_path / "calibration")
    assert [f.path for f in manifest.files] == ["calibration/calibration.pdf"]
    data = (tmp_path / "calibration/calibration.pdf").read_bytes()
    assert viewer_duplex(data) == ("/DuplexFlipLongEdge" if duplex == "long" else "/DuplexFlipShortEdge")
    doc = open_pdf(data)
    assert doc.page_count == 2
    paper = parse_paper("a4")
    fronts = long_lines(doc[0], 2 * ARM, (0.0, 0.0, 0.0))
    backs = long_lines(doc[1], 2 * SCALE, pytest.approx((0.0, 0.098, 0.659), abs=0.01))
    centres = lambda lines: sorted((round(r.x + r.w / 2, 2), round(r.y + r.h / 2, 2)) for r in lines if r.w > r.h)  # noqa: E731
    dx, dy = (float(v) for v in offset.split(","))
    flip = (lambda x, y: (paper.width - x, y)) if duplex == "long" else (lambda x, y: (x, paper.height - y))
    expected = sorted((round(fx + dx, 2), round(fy + dy, 2)) for fx, fy in (flip(x, y) for x, y in centres(fronts)))
    got = centres(backs)
    assert len(expected) == len(got) == 5
    assert all(g == pytest.approx(e, abs=0.01) for g, e in zip(got, expected)), (got, expected)
    text = " ".join((doc[0].get_text() + doc[1].get_text()).split())
    assert "--back-offset" in text and "right is +" in text and f"--back-offset {offset}" in text


def test_calibration_needs_duplex_and_readme_documents_the_sign():
    from tubedeck.generator.calibration import calibration_sheet

    with pytest.raises(UsageError, match="double-sided"):
        calibration_sheet(PrintOptions.parse(duplex="none"))
    readme = (Path(__file__).resolve().parents[2] / "generator" / "README.md").read_text()
    assert "--back-offset DX,DY" in readme and "DX mm to the right" in readme


# -- 6. POD and PNG exports ----------------------------------------------------------------------
def png_size(path: Path) -> tuple[int, int]:
    import struct

    return struct.unpack(">II", path.read_bytes()[16:24])


@pytest.mark.parametrize("pod, size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_pod_pngs_have_the_shops_bleed_size_and_one_shared_back(tmp_path, pod, size):
    cards = [Card(f"c{k}", lambda pen: pen.background("#DC241F")) for k in range(6)]
    cards.append(Card("own", lambda pen: pen.background("#DC241F"), back=lambda pen: pen.background("#0019A8")))
    deck = Deck("d", cards, back=lambda pen: pen.background("#00782A"))
    manifest = render([deck], PrintOptions.parse(pod=pod), tmp_path / "g")
    pngs = {f.path: f for f in manifest.files if f.kind == "png"}
    assert set(pngs) == {f"g/png/d/c{k}-front.png" for k in range(6)} | {"g/png/d/own-front.png",
                                                                          "g/png/d/own-back.png", "g/png/d/back.png"}
    assert pngs["g/png/d/back.png"].shared_by == 6 and manifest.as_dict()["files"][-1] != {}
    assert all(png_size(tmp_path / p) == size for p in pngs)
    with pymupdf.open(tmp_path / "g/png/d/back.png") as img:  # bleed: the back's green reaches every edge
        pix = img[0].get_pixmap()
        assert near(pix.pixel(0, 0), "#00782A", 6) and near(pix.pixel(pix.width - 1, pix.height - 1), "#00782A", 6)
    assert (tmp_path / "g/d-cards.pdf").is_file()


def test_pod_refuses_a_card_size_it_has_no_template_for():
    with pytest.raises(UsageError) as err:
        PrintOptions.parse(pod="tgc", card="tarot")
    assert "poker 63.5 x 88.9 mm (825 x 1125 px)" in str(err.value) and "tarot 70 x 120 mm" in str(err.value)
    with pytest.raises(UsageError, match="300 dpi"):
        PrintOptions.parse(pod="mpc", dpi=600)
    fixed = Deck("fixed", [Card("a", lambda pen: None)], size=PrintOptions.parse(card="square").card)
    with pytest.raises(UsageError, match="square"):
        render([fixed], PrintOptions.parse(pod="tgc"), "/tmp/never-written-tubedeck")


def test_render_reports_the_file_and_page_it_draws_and_writes_the_same_bytes(tmp_path, capsys):
    from tubedeck.progress import Progress

    deck = Deck("d", [Card(f"c{k}", lambda pen: None) for k in range(3)], back=lambda pen: None)
    sheet = Pages("s", (lambda pen: None, lambda pen: None))
    options = PrintOptions.parse(export="pdf,png,svg,contact")
    render([deck, sheet], options, tmp_path / "a", progress=True)
    assert capsys.readouterr().err == ""  # a quick render off a terminal: silent
    told = io.StringIO()
    with Progress("build g", stream=told, tty=False, start_after=0, every=0) as progress:  # every update a line
        render([deck, sheet], options, tmp_path / "b", progress=progress)
    render([deck, sheet], options, tmp_path / "c")
    lines = told.getvalue().splitlines()
    assert capsys.readouterr().err == ""  # only the given stream
    for at in ("b/d.pdf page 1/2", "b/d.pdf page 2/2", "b/png/d face 6/6", "b/png/d PNG 1/4", "b/png/d PNG 4/4",
               "b/svg/d SVG 4/4", "b/d-contact.png card 4/4", "b/s.pdf page 2/2"):
        assert any(line.startswith(f"build g: at {at}, ") for line in lines), (at, lines)
    for name in ("d.pdf", "s.pdf", "d-contact.png", "png/d/c0-front.png", "png/d/back.png", "svg/d/c2-front.svg"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes() \
            == (tmp_path / "c" / name).read_bytes(), name


# -- 7. crop crosses and rounded-corner guides --------------------------------------------------
def test_crosses_at_every_card_corner_and_corner_guides():
    data, _, layout = deck_sheets_pdf(deck_of(4), PrintOptions.parse(marks="crosses", corners=True, gap=4))
    page = open_pdf(data)[0]
    marks = thin_black(page)
    corners = {(round(x, 2), round(y, 2)) for s in layout.fronts[:4] for x in (s.trim.x, s.trim.right)
               for y in (s.trim.y, s.trim.top)}
    arms = [m for m in marks if (m.w < TOL) != (m.h < TOL) and max(m.w, m.h) <= 2 * CROSS_ARM + TOL]
    centres = {(round(m.x + m.w / 2, 2), round(m.y + m.h / 2, 2)) for m in arms if min(m.y, m.x) > 0}
    assert corners <= centres and len(arms) == 2 * len(corners)
    arcs = [m for m in marks if abs(m.w - 3.0) < 0.05 and abs(m.h - 3.0) < 0.05]
    assert len(arcs) == 4 * 4  # a 3 mm quarter circle in every corner of the four cards
    plain = open_pdf(deck_sheets_pdf(deck_of(4), PrintOptions.parse(gap=4))[0])[0]
    assert not [m for m in thin_black(plain) if abs(m.w - 3.0) < 0.05 and abs(m.h - 3.0) < 0.05]


def test_marks_and_corners_options_are_checked():
    assert PrintOptions.parse(marks="crosses", corners=True).corners
    with pytest.raises(UsageError, match="crosses"):
        PrintOptions.parse(marks="dots")


# -- 8. tuck box ------------------------------------------------------------------------------
@pytest.mark.parametrize("n, boxes", [(30, 1), (272, 3)])
def test_tuck_box_net_sized_from_the_deck(tmp_path, n, boxes):
    from tubedeck.generator.tuckbox import CARD_THICKNESS, GLUE, PLAY

    deck = Deck("stations", [Card(f"c{k}", lambda pen: None) for k in range(n)], title="Test deck: stations")
    manifest = render([deck], PrintOptions.parse(export="tuckbox"), tmp_path / "g")
    assert [(f.path, f.kind, f.pages) for f in manifest.files] == [("g/stations-tuckbox.pdf", "tuckbox-pdf", 1)]
    page = pymupdf.open(tmp_path / "g/stations-tuckbox.pdf")[0]
    net = [mm_rect(page, d["rect"]) for d in page.get_drawings() if d.get("width") and d["width"] / MM >= 0.2]
    x0, y0 = min(r.x for r in net), min(r.y for r in net)
    x1, y1 = max(r.right for r in net), max(r.top for r in net)
    per_box = -(-n // boxes)
    w, depth = 63.5 + PLAY, per_box * CARD_THICKNESS + PLAY
    assert max(x1 - x0, y1 - y0) == pytest.approx(2 * w + 2 * depth + GLUE, abs=0.05)
    text = page.get_text()
    assert "Test deck: stations" in text.replace("\n", " ") and f"{per_box} cards" in text
    assert (f"make {boxes} of these" in text) == (boxes > 1)
    printable = Rect(0, 0, page.rect.width / MM, page.rect.height / MM).inset(PRINTER_MARGIN)
    assert all(printable.contains(r, tol=TOL) for r in net)


@pytest.mark.parametrize("bleed, gap", [(0, 0)])  # the default build
def test_default_output_survives_duplex_drift_and_miscut(bleed, gap):
    """Print the backs 1.5 mm off and cut 1 mm off the line: around every card's nominal trim a
    reader sees its own back's colour or paper, never a neighbour's colour. Without a bleed that
    needs full-colour art to stop DRIFT mm inside the trim (generator.pen.Pen.art_box)."""
    from tubedeck.generator.pen import DRIFT

    colours = ["#C00000", "#00A000", "#0000C0", "#C0C000", "#00C0C0", "#C000C0", "#808000", "#008080", "#800080"]
    cards = [Card(f"c{k}", filled("#FFFFFF"), (lambda c: lambda pen: pen.background(c))(colours[k])) for k in range(9)]
    _, _, nominal = deck_sheets_pdf(Deck("drift", cards), PrintOptions.parse(bleed=bleed, gap=gap))
    for dx, dy in ((1.5, 1.5), (-1.5, -1.5), (1.5, -1.5)):
        data, _, _ = deck_sheets_pdf(Deck("drift", cards), PrintOptions.parse(bleed=bleed, gap=gap,
                                                                               back_offset=f"{dx},{dy}"))
        pix = open_pdf(data)[1].get_pixmap(dpi=100)
        h = nominal.paper.height
        for k, slot in enumerate(nominal.backs[:9]):
            t = slot.trim
            mine = tuple(int(colours[k][i:i + 2], 16) for i in (1, 3, 5))
            for m in (-1.0, 1.0):  # a miscut 1 mm inside or outside the line
                for x, y in ((t.x + m, t.y + t.h / 2), (t.right - m, t.y + t.h / 2),
                             (t.x + t.w / 2, t.y + m), (t.x + t.w / 2, t.top - m)):
                    got = pixel(pix, h, x, y)
                    assert near(got, (255, 255, 255)) or near(got, mine), (dx, dy, k, x, y, got)
    assert DRIFT >= 2.5


@pytest.mark.parametrize("paper, card, bleed", [(p, c, b) for p in ("a4", "letter")
                                               for c in ("poker", "bridge", "mini", "tarot", "square", "60x90")
                                               for b in (0, 3)])
def test_sheet_furniture_prints_at_6pt_or_more_with_its_page_number(paper, card, bleed):
    """The ruler's numbers, the 100% note and the page label never shrink below 6 pt; a label too
    long for its strip is shortened, never dropped while the page number fits."""
    doc, _ = _build(paper, "auto", card, bleed, 0, "short")
    for k, page in enumerate(doc, start=1):
        spans = [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]
                 if s["text"].strip()]
        assert spans and min(s["size"] for s in spans) >= 6.0 - 1e-6
        text = page.get_text()
        assert "Print at 100%" in text and f"page {k} of {len(doc)}" in text


def test_label_forms_drop_the_title_then_all_but_the_page():
    from tubedeck.generator.ruler import label_forms

    assert label_forms("Game: deck - fronts - page 2 of 9") == ("Game: deck - fronts - page 2 of 9",
                                                                "fronts - page 2 of 9", "page 2 of 9")
    assert label_forms("page 1 of 1") == ("page 1 of 1",)
