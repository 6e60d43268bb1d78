"""PDF writers: print-and-play sheets, one-card-per-page files, full-page Sheets.

Every PDF is deterministic (``invariant=1``: fixed dates, content-derived ID), embeds only
subset TrueType fonts (the canvas's initial font is ours, so not even an unused Helvetica
resource appears), asks viewers not to scale when printing (``/PrintScaling /None``), and
carries a title and author. One-card pages also get a TrimBox (the card) and a BleedBox.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from . import fonts, marks, ruler
from .colour import Mode
from .document import Card, Deck, Face, Sheet
from .layout import Layout, Slot, make_layout, orient
from .options import PrintOptions
from .pen import PdfPen
from .sizes import MM, CardGeometry, CardSize, Paper, Rect


def new_canvas(buf: io.BytesIO, width_mm: float, height_mm: float, title: str, author: str,
               mode: Mode) -> Canvas:
    fonts.register_fonts()
    c = Canvas(buf, pagesize=(width_mm * MM, height_mm * MM), invariant=1, pageCompression=1,
               initialFontName=fonts.pdf_name(fonts.DEFAULT_FONT), initialFontSize=8,
               enforceColorSpace="cmyk" if mode is Mode.CMYK else None)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("tubedeck")
    c.setSubject(f"tubedeck print file ({mode.value})")
    c.setViewerPreference("PrintScaling", "None")
    return c


def draw_face(canvas: Canvas, face: Face, trim_origin: tuple[float, float], geom: CardGeometry,
              clip: Rect | None, mode: Mode, label: str) -> None:
    """Run ``face`` with card coordinates at ``trim_origin`` (page mm), clipped to ``clip`` (page mm)."""
    pen = PdfPen(canvas, trim_origin, geom.trim, geom.bleed_box, geom.safe, mode, label)
    with pen.placed():
        box = geom.bleed_box if clip is None else clip.moved(-trim_origin[0], -trim_origin[1])
        with pen.clip(box):
            face(pen)


def deck_size(deck: Deck, options: PrintOptions) -> CardSize:
    return deck.size or options.card


def deck_layout(deck: Deck, options: PrintOptions) -> Layout:
    """The deck's page layout; if its margins leave no room for the ruler block on a front or a
    back page, the same layout again with :data:`ruler.RESERVE` mm kept free at the bottom."""
    card = deck_size(deck, options)
    paper = orient(options.paper, options.orientation, card, options.gap, options.fold and deck.double_sided)

    def layout(reserve: float) -> Layout:
        return make_layout(paper, card, gap=options.gap, bleed=options.bleed, duplex=options.duplex,
                           fold=options.fold, back_offset=options.back_offset, double_sided=deck.double_sided,
                           reserve=reserve)

    first = layout(0.0)
    return first if all(ruler.fits(paper, slots, style, first.fold) for slots, style in _pages(first, options)) \
        else layout(ruler.RESERVE)


def _pages(layout: Layout, options: PrintOptions) -> list[tuple[tuple[Slot, ...], str]]:
    """The slots and cut-mark style of each kind of page: fronts (with fold-over backs), duplex backs."""
    if layout.backs_on_same_page:
        return [(layout.fronts + layout.backs, options.marks)]
    return [(layout.fronts, options.marks)] + ([(layout.backs, "none")] if layout.backs else [])


def _furniture(canvas: Canvas, layout: Layout, slots: tuple[Slot, ...], options: PrintOptions, label: str,
               with_marks: bool) -> None:
    paper = layout.paper
    style = options.marks if with_marks else "none"
    pen = PdfPen(canvas, (0.0, 0.0), paper.rect, paper.rect, paper.rect, options.mode, label)
    block = ruler.place(paper, slots, label, style, layout.fold)
    with pen.placed():
        marks.cut_marks(pen, slots, paper, style, keep_out=[p.box for p in block])
        if layout.fold:
            marks.fold_line(pen, paper, slots)
        ruler.draw(pen, block)


def deck_sheets_pdf(deck: Deck, options: PrintOptions) -> tuple[bytes, int, Layout]:
    """The print-and-play PDF of a deck: grid pages, fronts and backs interleaved (or fold-over)."""
    layout = deck_layout(deck, options)
    geom = CardGeometry(layout.card.width, layout.card.height, options.bleed)
    cards = deck.printed()
    buf = io.BytesIO()
    title = deck.title or deck.name
    c = new_canvas(buf, layout.paper.width, layout.paper.height, title, options.author, options.mode)
    n_sheets = layout.pages_for(len(cards))
    duplex_pages = bool(layout.backs) and not layout.backs_on_same_page
    total = n_sheets * (2 if duplex_pages else 1)
    page = 0

    def put(face: Face, slot: Slot, card: Card, side: str) -> None:
        draw_face(c, face, (slot.trim.x, slot.trim.y), geom, slot.clip, options.mode, f"{deck.name}/{card.id} {side}")

    for s in range(n_sheets):
        chunk = cards[s * layout.per_page:(s + 1) * layout.per_page]
        page += 1
        for card, slot in zip(chunk, layout.fronts):
            put(card.front, slot, card, "front")
        if layout.backs_on_same_page:
            for card, slot in zip(chunk, layout.backs):
                back = deck.back_of(card)
                if back is not None:
                    put(back, slot, card, "back")
        used = layout.fronts + (layout.backs if layout.backs_on_same_page else ())
        kind = "fold-over" if layout.backs_on_same_page else "fronts"
        _furniture(c, layout, used, options, f"{title} - {kind} - page {page} of {total}", True)
        c.showPage()
        if duplex_pages:
            page += 1
            for card, slot in zip(chunk, layout.backs):
                back = deck.back_of(card)
                if back is not None:
                    put(back, slot, card, "back")
            flip = f"{options.duplex}-edge flip"
            _furniture(c, layout, layout.backs, options, f"{title} - backs ({flip}) - page {page} of {total}", False)
            c.showPage()
    c.save()
    return buf.getvalue(), total, layout


def card_faces(deck: Deck) -> list[tuple[Card, str, Face]]:
    """Every distinct face to export: each card's front, then its back (shared backs included)."""
    out: list[tuple[Card, str, Face]] = []
    for card in deck.cards:
        out.append((card, "front", card.front))
        back = deck.back_of(card)
        if back is not None:
            out.append((card, "back", back))
    return out


def deck_cards_pdf(deck: Deck, options: PrintOptions, bleed: float) -> tuple[bytes, int]:
    """One face per page (front, back, front, back...): page = card + bleed, TrimBox = card."""
    card = deck_size(deck, options)
    geom = CardGeometry(card.width, card.height, bleed)
    w, h = card.width + 2 * bleed, card.height + 2 * bleed
    buf = io.BytesIO()
    c = new_canvas(buf, w, h, f"{deck.title or deck.name} (one card per page)", options.author, options.mode)
    faces = card_faces(deck)
    for item, side, face in faces:
        c.setTrimBox((bleed * MM, bleed * MM, (bleed + card.width) * MM, (bleed + card.height) * MM))
        c.setBleedBox((0, 0, w * MM, h * MM))
        draw_face(c, face, (bleed, bleed), geom, None, options.mode, f"{deck.name}/{item.id} {side}")
        c.showPage()
    c.save()
    return buf.getvalue(), len(faces)


def sheet_paper(sheet: Sheet, options: PrintOptions) -> Paper:
    paper = sheet.paper or options.paper
    if sheet.landscape is not None:
        return paper.landscape if sheet.landscape else paper.portrait
    return paper.landscape if options.orientation == "landscape" else paper.portrait


def sheet_pdf(sheet: Sheet, options: PrintOptions) -> tuple[bytes, int]:
    """A full-page document: each page drawn in page mm, ruler and note in the bottom strip."""
    paper = sheet_paper(sheet, options)
    buf = io.BytesIO()
    title = sheet.title or sheet.name
    c = new_canvas(buf, paper.width, paper.height, title, options.author, options.mode)
    n = len(sheet.pages)
    for i, draw in enumerate(sheet.pages, 1):
        label = f"{sheet.name} page {i}"
        pen = PdfPen(c, (0.0, 0.0), paper.rect, paper.rect, ruler.sheet_safe(paper), options.mode, label)
        with pen.placed():
            draw(pen)
            ruler.sheet_ruler(pen, paper, f"{title} - page {i} of {n}")
        c.showPage()
    c.save()
    return buf.getvalue(), n


