"""PDF writers: print-and-play sheets, one-card-per-page files, full-page Sheets.

Every PDF is deterministic (``invariant=1``: fixed dates, content-derived ID), embeds only
subset TrueType fonts (the canvas's initial font is ours, so not even an unused Helvetica
resource appears), asks viewers not to scale when printing (``/PrintScaling /None``) and to
print with the right flip (``/Duplex``: ``DuplexFlipLongEdge`` / ``DuplexFlipShortEdge`` for
duplex print-and-play pages, else ``Simplex``), and carries a title and author. Every page has
a TrimBox and a BleedBox: on sheets the page itself is the trim (boxes = the paper); a
one-card page's TrimBox is the card and its BleedBox the card plus bleed (= the page).

Print-and-play sheets hold the cards of one deck, or of every deck sharing a sheet group
(``Deck.share``), each card with its own back. On a short-edge duplex flip the back pages are
turned over top to bottom, so every back face is drawn turned 180 degrees about its card's
centre: a card held upright and turned like a book page shows its back upright, as on long-edge.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace

from reportlab.pdfgen.canvas import Canvas

from tubedeck.errors import UsageError

from . import fonts, marks, ruler
from .colour import Mode
from .document import Card, Deck, Face, Pages
from .layout import DRIFT_ROOM, Layout, Slot, flips_rows, make_layout, orient
from .options import PrintOptions
from .pen import PdfPen
from .sizes import MM, PRINTER_MARGIN, CardGeometry, CardSize, Paper, Rect

Step = Callable[[int, int], None]  # step(i, n): page or face i of n is being drawn (a progress line)


def new_canvas(buf: io.BytesIO, width_mm: float, height_mm: float, title: str, author: str,
               mode: Mode, duplex: str = "Simplex") -> Canvas:
    """A deterministic canvas; every page's TrimBox and BleedBox are the page (callers with a
    bleed set their own per page), ``duplex`` is the ``/Duplex`` viewer preference."""
    fonts.register_fonts()
    c = Canvas(buf, pagesize=(width_mm * MM, height_mm * MM), invariant=1, pageCompression=1,
               initialFontName=fonts.pdf_name(fonts.DEFAULT_FONT), initialFontSize=8,
               enforceColorSpace="cmyk" if mode is Mode.CMYK else None)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("tubedeck")
    c.setSubject(f"tubedeck print file ({mode.value})")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", duplex)
    page = (0, 0, width_mm * MM, height_mm * MM)
    c.setTrimBox(page)
    c.setBleedBox(page)
    return c


def draw_face(canvas: Canvas, face: Face, trim_origin: tuple[float, float], geom: CardGeometry,
              clip: Rect | None, mode: Mode, label: str, turned: bool = False) -> None:
    """Run ``face`` with card coordinates at ``trim_origin`` (page mm), clipped to ``clip`` (page
    mm); ``turned``: the face turned 180 degrees about the card's centre (short-edge duplex backs)."""
    pen = PdfPen(canvas, trim_origin, geom.trim, geom.bleed_box, geom.safe, mode, label)
    box = geom.bleed_box if clip is None else clip.moved(-trim_origin[0], -trim_origin[1])
    if turned:
        box = Rect(geom.width - box.right, geom.height - box.top, box.w, box.h)
        cx, cy = (trim_origin[0] + geom.width / 2) * MM, (trim_origin[1] + geom.height / 2) * MM
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(180)
        canvas.translate(-cx, -cy)
    with pen.placed():
        with pen.clip(box):
            face(pen)
    if turned:
        canvas.restoreState()


def deck_size(deck: Deck, options: PrintOptions) -> CardSize:
    return deck.size or options.card


def sheet_layout(card: CardSize, double_sided: bool, options: PrintOptions, back_bleed: float = 0.0) -> Layout:
    """The page layout of cards of one size; if its margins leave no room for the ruler block on
    a front or a back page, the same layout again with :data:`ruler.RESERVE` mm kept free at the bottom.
    ``back_bleed``: duplex backs' clips reach that far past their trims (:class:`Deck`), so the
    grid keeps :data:`~generator.layout.DRIFT_ROOM` inside the printable area (``make_layout(room=)``:
    a back printed 1.5 mm off still covers every outer card; on Letter poker this turns the page
    to 4 x 2 cards, where 3 x 3 filled the printable height)."""
    fold = options.fold and double_sided
    room = min(back_bleed, DRIFT_ROOM) if double_sided and options.duplex != "none" and not fold else 0.0
    paper = orient(options.paper, options.orientation, card, options.gap, fold, room)

    def layout(reserve: float) -> Layout:
        made = make_layout(paper, card, gap=options.gap, bleed=options.bleed, duplex=options.duplex,
                           fold=options.fold, back_offset=options.back_offset, double_sided=double_sided,
                           reserve=reserve, room=room)
        if back_bleed <= 0 or not made.backs or made.backs_on_same_page:
            return made
        area = paper.rect.inset(PRINTER_MARGIN)  # the fronts' limit (above ``reserve``), mirrored behind them
        area = Rect(area.x, area.y + reserve, area.w, area.h - reserve)
        limit = Slot(0, 0, 0, area, area).mirrored(paper, options.duplex, options.back_offset).trim
        return replace(made, backs=tuple(replace(s, clip=_grown(s, back_bleed, limit)) for s in made.backs))

    first = layout(0.0)
    return first if all(ruler.fits(paper, slots, style, first.fold) for slots, style in _pages(first, options)) \
        else layout(ruler.RESERVE)


def _grown(slot: Slot, by: float, limit: Rect) -> Rect:
    """``slot``'s clip grown to ``by`` mm past its trim on every side, within ``limit`` (never shrunk)."""
    c, g = slot.clip, slot.trim.inset(-by)
    x1, y1 = min(c.x, max(g.x, limit.x)), min(c.y, max(g.y, limit.y))
    x2, y2 = max(c.right, min(g.right, limit.right)), max(c.top, min(g.top, limit.top))
    return Rect(x1, y1, x2 - x1, y2 - y1)


def deck_layout(deck: Deck, options: PrintOptions) -> Layout:
    return sheet_layout(deck_size(deck, options), deck.double_sided, options, deck.back_bleed)


def _pages(layout: Layout, options: PrintOptions) -> list[tuple[tuple[Slot, ...], str]]:
    """The slots and cut-mark style of each kind of page: fronts (with fold-over backs), duplex backs."""
    if layout.backs_on_same_page:
        return [(layout.fronts + layout.backs, options.marks)]
    return [(layout.fronts, options.marks)] + ([(layout.backs, "none")] if layout.backs else [])


def _furniture(canvas: Canvas, layout: Layout, full: tuple[Slot, ...], used: tuple[Slot, ...], fronts: tuple[Slot, ...],
               options: PrintOptions, label: str, with_marks: bool) -> None:
    """Ruler block (placed round the page's ``full`` grid, the same on every page), then cut marks
    round the ``used`` slots only and corner guides on the ``fronts`` printed."""
    paper = layout.paper
    style = options.marks if with_marks else "none"
    pen = PdfPen(canvas, (0.0, 0.0), paper.rect, paper.rect, paper.rect, options.mode, label)
    block = ruler.place(paper, full, label, style, layout.fold)
    with pen.placed():
        marks.cut_marks(pen, used, paper, style, keep_out=[p.box for p in block])
        if with_marks and options.corners:
            marks.corner_guides(pen, fronts)
        if layout.fold:
            marks.fold_line(pen, paper, full)
        ruler.draw(pen, block)


def group_size(decks: list[Deck], options: PrintOptions) -> CardSize:
    """The one card size of decks sharing sheets; a UsageError naming them if they differ."""
    sizes = {(deck_size(d, options).width, deck_size(d, options).height) for d in decks}
    if len(sizes) > 1:
        which = ", ".join(f"{d.name} ({deck_size(d, options).label()})" for d in decks)
        raise UsageError(f"sheet group {decks[0].share!r}: decks sharing sheets must have one card size: {which}")
    return deck_size(decks[0], options)


def deck_sheets_pdf(deck: Deck, options: PrintOptions, step: Step | None = None) -> tuple[bytes, int, Layout]:
    """The print-and-play PDF of one deck: grid pages, fronts and backs interleaved (or fold-over)."""
    return sheets_pdf([deck], options, deck.title or deck.name, step)


def sheets_pdf(decks: list[Deck], options: PrintOptions, title: str,
               step: Step | None = None) -> tuple[bytes, int, Layout]:
    """Print-and-play pages holding every card of ``decks`` in order (one deck, or a sheet group),
    each with its own back; no marks round an empty slot. ``step(page, pages)`` before each page."""
    cards: list[tuple[Deck, Card]] = [(d, c) for d in decks for c in d.printed()]
    card = group_size(decks, options)
    layout = sheet_layout(card, any(d.double_sided for d in decks), options, max(d.back_bleed for d in decks))
    geom = CardGeometry(card.width, card.height, options.bleed)
    duplex_pages = bool(layout.backs) and not layout.backs_on_same_page
    buf = io.BytesIO()
    c = new_canvas(buf, layout.paper.width, layout.paper.height, title, options.author, options.mode,
                   options.pdf_duplex if duplex_pages else "Simplex")
    n_sheets = layout.pages_for(len(cards))
    total = n_sheets * (2 if duplex_pages else 1)
    turned = duplex_pages and flips_rows(layout.paper, options.duplex)
    page = 0

    def put(face: Face, slot: Slot, deck: Deck, card: Card, side: str, turn: bool = False) -> None:
        draw_face(c, face, (slot.trim.x, slot.trim.y), geom, slot.clip, options.mode, f"{deck.name}/{card.id} {side}",
                  turned=turn)

    def backs(chunk, slots: tuple[Slot, ...], turn: bool) -> tuple[Slot, ...]:
        drawn = []
        for (deck, item), slot in zip(chunk, slots):
            back = deck.back_of(item)
            if back is not None:
                put(back, slot, deck, item, "back", turn)
                drawn.append(slot)
        return tuple(drawn)

    for s in range(n_sheets):
        chunk = cards[s * layout.per_page:(s + 1) * layout.per_page]
        page += 1
        if step is not None:
            step(page, total)
        for (deck, item), slot in zip(chunk, layout.fronts):
            put(item.front, slot, deck, item, "front")
        fronts = layout.fronts[:len(chunk)]
        full, used = layout.fronts, fronts
        if layout.backs_on_same_page:
            full, used = layout.fronts + layout.backs, fronts + backs(chunk, layout.backs, False)
        kind = "fold-over" if layout.backs_on_same_page else "fronts"
        _furniture(c, layout, full, used, fronts, options, f"{title} - {kind} - page {page} of {total}", True)
        c.showPage()
        if duplex_pages:
            page += 1
            if step is not None:
                step(page, total)
            drawn = backs(chunk, layout.backs, turned)
            flip = f"{options.duplex}-edge flip"
            _furniture(c, layout, layout.backs, drawn, (), options, f"{title} - backs ({flip}) - page {page} of {total}",
                       False)
            c.showPage()
    c.save()
    return buf.getvalue(), total, layout


def card_faces(deck: Deck) -> list[tuple[Card, str, Face]]:
    """Every face of the one-card-per-page PDF, in page order: each card's front, then its back
    (its own, or the deck's shared back)."""
    out: list[tuple[Card, str, Face]] = []
    for card in deck.cards:
        out.append((card, "front", card.front))
        back = deck.back_of(card)
        if back is not None:
            out.append((card, "back", back))
    return out


def export_faces(deck: Deck) -> list[tuple[int, str, Face, str]]:
    """The faces per-card exports write, as (page of the one-card PDF, file stem, face, label for
    errors): every front (``ID-front``), every card's own back (``ID-back``), and the deck's shared
    back once (``back``) where cards use it, instead of one identical file per card."""
    out: list[tuple[int, str, Face, str]] = []
    shared = False
    for page, (card, side, face) in enumerate(card_faces(deck)):
        if side == "back" and card.back is None:
            if not shared:
                out.append((page, "back", face, f"{deck.name}/(shared back)"))
            shared = True
        else:
            out.append((page, f"{card.id}-{side}", face, f"{deck.name}/{card.id} {side}"))
    return out


def deck_cards_pdf(deck: Deck, options: PrintOptions, bleed: float, step: Step | None = None) -> tuple[bytes, int]:
    """One face per page (front, back, front, back...): page = card + bleed, TrimBox = card;
    ``step(page, pages)`` before each page."""
    card = deck_size(deck, options)
    geom = CardGeometry(card.width, card.height, bleed)
    w, h = card.width + 2 * bleed, card.height + 2 * bleed
    buf = io.BytesIO()
    c = new_canvas(buf, w, h, f"{deck.title or deck.name} (one card per page)", options.author, options.mode)
    faces = card_faces(deck)
    for i, (item, side, face) in enumerate(faces, 1):
        if step is not None:
            step(i, len(faces))
        c.setTrimBox((bleed * MM, bleed * MM, (bleed + card.width) * MM, (bleed + card.height) * MM))
        c.setBleedBox((0, 0, w * MM, h * MM))
        draw_face(c, face, (bleed, bleed), geom, None, options.mode, f"{deck.name}/{item.id} {side}")
        c.showPage()
    c.save()
    return buf.getvalue(), len(faces)


def sheet_paper(sheet: Pages, options: PrintOptions) -> Paper:
    paper = sheet.paper or options.paper
    if sheet.landscape is not None:
        return paper.landscape if sheet.landscape else paper.portrait
    return paper.landscape if options.orientation == "landscape" else paper.portrait


def sheet_pdf(sheet: Pages, options: PrintOptions, step: Step | None = None) -> tuple[bytes, int]:
    """A full-page document: each page drawn in page mm, ruler and note in the bottom strip;
    ``step(page, pages)`` before each page."""
    paper = sheet_paper(sheet, options)
    buf = io.BytesIO()
    title = sheet.title or sheet.name
    duplex = (options.pdf_duplex if options.duplex != "none" else "DuplexFlipLongEdge") if sheet.duplex else "Simplex"
    if sheet.duplex and sheet.flip is not None:
        duplex = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}[sheet.flip]
    c = new_canvas(buf, paper.width, paper.height, title, options.author, options.mode, duplex)
    if sheet.instead_of:  # what OUT/README.pdf reads back: print this or the other, not both
        c.setKeywords(f"instead-of:{sheet.instead_of}.pdf")
    n = len(sheet.pages)
    for i, draw in enumerate(sheet.pages, 1):
        if step is not None:
            step(i, n)
        label = f"{sheet.name} page {i}"
        safe = ruler.sheet_safe(paper) if sheet.furniture else paper.rect.inset(PRINTER_MARGIN)
        pen = PdfPen(c, (0.0, 0.0), paper.rect, paper.rect, safe, options.mode, label)
        with pen.placed():
            draw(pen)
            if sheet.furniture:
                ruler.sheet_ruler(pen, paper, f"{title} - page {i} of {n}")
        c.showPage()
    c.save()
    return buf.getvalue(), n
