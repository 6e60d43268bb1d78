"""Per-card exports for print-on-demand shops, and the contact sheet.

* PNG: each face of the one-card-per-page PDF rasterised by PyMuPDF at ``dpi`` (300), so PNGs
  are pixel-for-pixel what the PDF prints. Size = (card + 2 x bleed) at dpi, rounded; with a
  ``--pod`` preset exactly the shop's template (The Game Crafter's poker template, 1/8 in bleed,
  825 x 1125 px; MakePlayingCards' 0.12 in, 822 x 1122). Every PNG (contact sheets too) is tagged
  with its resolution (pHYs), so it opens at its real size. A back shared by the deck's cards is
  written once (``back.png``), not once per card (:func:`tubedeck.generator.pdf.export_faces`).
* SVG: each face drawn again through :class:`~generator.svgpen.SvgPen` (vector, mm units), the
  same faces as the PNGs.
* Contact sheet: every front (and the backs) as a thumbnail grid with ids, one PNG per deck.
"""

from __future__ import annotations

import io
import math

import pymupdf

from .document import Deck
from .options import PrintOptions
from .pdf import Step, deck_size, draw_face, export_faces, new_canvas
from .sizes import CardGeometry
from .svgpen import SvgPen

CONTACT_MAX_PX = 2400  # contact sheet width in pixels (at most)


def png_bytes(pix: "pymupdf.Pixmap", dpi: float) -> bytes:
    """PNG bytes tagged with ``dpi`` (the pHYs chunk), so a print shop or viewer sees the true size."""
    pix.set_dpi(round(dpi), round(dpi))
    return pix.tobytes("png")


def _pixmap_png(page, width_px: int, height_px: int, dpi: int) -> bytes:
    r = page.rect
    pix = page.get_pixmap(matrix=pymupdf.Matrix(width_px / r.width, height_px / r.height), alpha=False)
    if (pix.width, pix.height) != (width_px, height_px):  # float rounding: clip to the exact size
        pix = page.get_pixmap(matrix=pymupdf.Matrix(width_px / r.width, height_px / r.height), alpha=False,
                              clip=pymupdf.Rect(0, 0, r.width - 1e-3, r.height - 1e-3))
    return png_bytes(pix, dpi)


def png_size(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    return round(width_mm / 25.4 * dpi), round(height_mm / 25.4 * dpi)


def card_pngs(cards_pdf: bytes, size_px: tuple[int, int], dpi: int, pages: list[int] | None = None,
              step: Step | None = None) -> list[bytes]:
    """Rasterise ``pages`` (default: every page) of a one-card-per-page PDF to PNG bytes of
    exactly ``size_px``; ``step(i, n)`` before the i-th PNG of n (a progress line)."""
    out = []
    with pymupdf.open(stream=cards_pdf, filetype="pdf") as doc:
        wanted = list(range(doc.page_count)) if pages is None else pages
        for k, i in enumerate(wanted, 1):
            if step is not None:
                step(k, len(wanted))
            out.append(_pixmap_png(doc[i], *size_px, dpi))
    return out


def card_svgs(deck: Deck, options: PrintOptions, bleed: float, step: Step | None = None) -> list[bytes]:
    """One SVG per face of :func:`tubedeck.generator.pdf.export_faces` (the shared back once);
    ``step(i, n)`` before the i-th of n."""
    size = deck_size(deck, options)
    geom = CardGeometry(size.width, size.height, bleed)
    out = []
    faces = export_faces(deck)
    for k, (_, _, face, label) in enumerate(faces, 1):
        if step is not None:
            step(k, len(faces))
        pen = SvgPen(geom, options.mode, label)
        with pen.clip(geom.bleed_box):
            face(pen)
        out.append(pen.tostring().encode("utf-8"))
    return out


def contact_sheet(deck: Deck, options: PrintOptions, step: Step | None = None) -> bytes:
    """A PNG grid of every card (fronts, then each distinct back once) labelled with ids;
    ``step(i, n)`` before the i-th thumbnail of n."""
    size = deck_size(deck, options)
    geom = CardGeometry(size.width, size.height, 0.0)
    items = [(c.id, "front", c.front) for c in deck.cards]
    if deck.back is not None:
        items.append(("(shared back)", "back", deck.back))
    items += [(c.id, "back", c.back) for c in deck.cards if c.back is not None]
    gap, label_h = 3.0, 4.0
    cell_w, cell_h = size.width + gap, size.height + gap + label_h
    cols = max(1, min(len(items), round(math.sqrt(len(items) * cell_h / cell_w))))
    rows = math.ceil(len(items) / cols)
    width, height = cols * cell_w + gap, rows * cell_h + gap
    buf = io.BytesIO()
    c = new_canvas(buf, width, height, f"{deck.title or deck.name}: contact sheet", options.author, options.mode)
    from .pen import PdfPen  # local: the label pen needs no card geometry

    for i, (ident, side, face) in enumerate(items):
        if step is not None:
            step(i + 1, len(items))
        r, col = divmod(i, cols)
        x = gap + col * cell_w
        y = height - (r + 1) * cell_h + label_h
        draw_face(c, face, (x, y), geom, None, options.mode, f"{deck.name}/{ident} {side}")
        pen = PdfPen(c, (x, y - label_h), geom.trim, geom.trim, geom.trim, options.mode)
        with pen.placed():
            pen.rect(0, label_h, size.width, size.height, stroke="#999999", width=0.2)
            text = ident if side == "front" else f"{ident} (back)"
            pen.text(size.width / 2, 1.2, text[:40], size=7, colour="#333333", align="centre")
    c.showPage()
    c.save()
    dpi = max(20, int(min(150.0, CONTACT_MAX_PX / (width / 25.4))))
    with pymupdf.open(stream=buf.getvalue(), filetype="pdf") as doc:
        return png_bytes(doc[0].get_pixmap(dpi=dpi, alpha=False), dpi)
