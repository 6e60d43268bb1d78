"""Where cards go on paper: the grid, duplex mirroring and the fold-over layout.

Page coordinates are millimetres from the paper's bottom-left. The grid of card trims is
centred inside the printable area (paper inset by 6.35 mm, the usual home-printer limit), with
an optional ``gap`` between cards. Slot 0 is the top-left card; slots run in reading order.
``make_layout(..., reserve=mm)`` keeps a strip free at the bottom of the printable area (the
engine's last resort when no margin has room for the ruler block, see :mod:`tubedeck.generator.ruler`).
``room=mm`` keeps the grid that far inside the printable area on every side: duplex backs whose
colour runs past their trims (``Deck.back_bleed``) need :data:`DRIFT_ROOM`, since a printer
prints nothing in its margin and a back page printed 1.5 mm off would otherwise leave a sliver
of paper on the outer cards (Letter's 266.7 mm of printable height holds three poker cards with none to spare).

Bleed on a sheet: art may extend ``bleed`` past the trim on the grid's outer edges (but not
into the printer margin) and ``min(bleed, gap / 2)`` between cards, so neighbours never
overprint each other. With ``gap = 0`` cards share cut lines (one cut, two cards); use
``--gap 6 --bleed 3`` for a full bleed round every card at the price of fewer cards per page.

Duplex: a back page is printed on the other side of its front page. On a portrait page, after
a **long-edge flip** (the sheet turned over like a book page) a back at column ``c`` lands
behind column ``cols-1-c``, so backs are mirrored about the page's vertical centre line; after a
**short-edge flip** rows are mirrored about the horizontal centre line (and the back faces are
drawn turned 180 degrees, :func:`tubedeck.generator.pdf.draw_face`). A landscape page is the other way
round (:func:`flips_rows`): the printer turns it onto the sheet, so its long-edge flip mirrors
rows (and turns the backs) and its short-edge flip columns. Because the grid is centred, a
mirrored slot is exactly another slot. ``back_offset`` (DX, DY) then shifts the whole back page
to cancel a printer's misregistration: DX mm to the right and DY mm up as the back side is seen
upright (its own page coordinates); :mod:`tubedeck.generator.calibration` prints a sheet to measure it.

Fold-over (for single-sided printers): the page is split by a vertical fold line at its centre;
fronts sit left of it, backs mirrored to the right. Fold along the line, glue, cut through both
layers: each back lands behind its front.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tubedeck.errors import UsageError

from .sizes import PRINTER_MARGIN, CardSize, Paper, Rect

FOLD_GUTTER = 3.0  # mm between the fold line and the nearest trim (room for a 3 mm bleed)
# mm the grid keeps inside the printable area for duplex backs that run past their trims: the
# 1.5 mm drift they must survive (more where the paper has it: A4 poker keeps 3.4 mm a side)
DRIFT_ROOM = 1.5


@dataclass(frozen=True)
class Slot:
    """A card position on a page: its trim, and the clip box its art may fill (both page mm)."""

    index: int
    row: int
    col: int
    trim: Rect
    clip: Rect

    def mirrored(self, paper: Paper, duplex: str, offset: tuple[float, float]) -> "Slot":
        """This slot as seen from the other side of the sheet, then shifted by ``offset``
        (``duplex``: "long", "short" (:func:`flips_rows`), or "fold": mirrored about the fold line)."""
        def flip(r: Rect) -> Rect:
            if duplex in ("long", "short") and flips_rows(paper, duplex):
                r = Rect(r.x, paper.height - r.top, r.w, r.h)
            elif duplex in ("long", "short", "fold"):
                r = Rect(paper.width - r.right, r.y, r.w, r.h)
            return r.moved(*offset)
        return Slot(self.index, self.row, self.col, flip(self.trim), flip(self.clip))


def flips_rows(paper: Paper, duplex: str) -> bool:
    """Whether turning the sheet over mirrors the page's rows (else its columns): a short-edge flip
    of a portrait page, a **long-edge** flip of a landscape one (the printer turns a landscape page
    onto the sheet, so the sheet's long edges are the page's top and bottom). The backs are then
    drawn turned 180 degrees, to read upright once the sheet is turned over."""
    return (duplex == "short") == (paper.width <= paper.height)


@dataclass(frozen=True)
class Layout:
    """The card positions of one page (same on every page of a deck) and their backs."""

    paper: Paper
    card: CardSize
    cols: int
    rows: int
    fronts: tuple[Slot, ...]
    backs: tuple[Slot, ...]  # backs[i] is behind fronts[i]; empty when printed single-sided
    fold: bool = False
    backs_on_same_page: bool = False  # fold-over: backs drawn on the front page itself

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    def pages_for(self, n: int) -> int:
        return max(1, math.ceil(n / self.per_page))


def _grid(region: Rect, card: CardSize, gap: float, align: str = "centre") -> tuple[int, int, float, float]:
    """cols, rows and the bottom-left of the grid's trims inside ``region``."""
    cols = int((region.w + gap + 1e-9) // (card.width + gap))
    rows = int((region.h + gap + 1e-9) // (card.height + gap))
    if cols < 1 or rows < 1:
        return 0, 0, 0.0, 0.0
    gw = cols * card.width + (cols - 1) * gap
    gh = rows * card.height + (rows - 1) * gap
    x0 = region.right - gw if align == "right" else region.x + (region.w - gw) / 2
    return cols, rows, x0, region.y + (region.h - gh) / 2


def _slots(cols: int, rows: int, x0: float, y0: float, card: CardSize, gap: float, bleed: float,
           outer: Rect) -> tuple[Slot, ...]:
    """Slots in reading order; each clip is trim + bleed, cut at half the gap and at ``outer``."""
    inner = min(bleed, gap / 2)
    out = []
    for i in range(cols * rows):
        r, c = divmod(i, cols)
        x = x0 + c * (card.width + gap)
        y = y0 + (rows - 1 - r) * (card.height + gap)
        trim = Rect(x, y, card.width, card.height)
        left = bleed if c == 0 else inner
        right = bleed if c == cols - 1 else inner
        top = bleed if r == 0 else inner
        bottom = bleed if r == rows - 1 else inner
        x1, y1 = max(x - left, outer.x), max(y - bottom, outer.y)
        x2, y2 = min(trim.right + right, outer.right), min(trim.top + top, outer.top)
        out.append(Slot(i, r, c, trim, Rect(x1, y1, x2 - x1, y2 - y1)))
    return tuple(out)


def orient(paper: Paper, orientation: str, card: CardSize, gap: float, fold: bool, room: float = 0.0) -> Paper:
    """The paper turned as asked; ``auto`` picks the orientation holding more cards (portrait on a
    tie), the grid ``room`` mm inside the printable area (:func:`make_layout`)."""
    if orientation == "portrait":
        return paper.portrait
    if orientation == "landscape":
        return paper.landscape
    p, l = paper.portrait, paper.landscape
    # (cards with the room first; then without it, which :func:`make_layout` falls back to)
    count = lambda q: (_capacity(q, card, gap, fold, room), _capacity(q, card, gap, fold))  # noqa: E731
    return l if count(l) > count(p) else p


def _capacity(paper: Paper, card: CardSize, gap: float, fold: bool, room: float = 0.0) -> int:
    cols, rows, _, _ = _grid(_regions(paper, fold, room=room)[0], card, gap)
    return cols * rows


def _regions(paper: Paper, fold: bool, reserve: float = 0.0, room: float = 0.0) -> tuple[Rect, Rect]:
    """The printable region for fronts (``room`` mm inside it on every side, none with ``fold``),
    and the outer limit for bleed (both above ``reserve`` mm kept free at the bottom of the
    printable area)."""
    printable = paper.rect.inset(PRINTER_MARGIN)
    printable = Rect(printable.x, printable.y + reserve, printable.w, printable.h - reserve)
    if not fold:
        return printable.inset(room), printable
    half = Rect(printable.x, printable.y, paper.width / 2 - FOLD_GUTTER - printable.x, printable.h)
    return half, printable


def make_layout(paper: Paper, card: CardSize, *, gap: float = 0.0, bleed: float = 0.0, duplex: str = "long",
                fold: bool = False, back_offset: tuple[float, float] = (0.0, 0.0), double_sided: bool = True,
                reserve: float = 0.0, room: float = 0.0) -> Layout:
    """Compute the page layout of a deck; UsageError if not one card fits the paper.

    ``reserve`` keeps that many mm free at the bottom of the printable area (for the ruler
    block when the margins have no room for it; the grid then loses a row). ``room`` keeps the
    grid that far inside the printable area on every side where a card still fits (the module's
    docstring)."""
    fold = fold and double_sided  # nothing to fold over without backs
    region, outer = _regions(paper, fold, reserve, room)
    cols, rows, x0, y0 = _grid(region, card, gap, align="right" if fold else "centre")
    if cols < 1 and room:  # a card that fits only without the room: printed so rather than refused
        return make_layout(paper, card, gap=gap, bleed=bleed, duplex=duplex, fold=fold, back_offset=back_offset,
                           double_sided=double_sided, reserve=reserve)
    if cols < 1:
        why = f"{'fold-over halves, ' if fold else ''}{PRINTER_MARGIN} mm margins"
        if reserve:
            why += f" and a {reserve:g} mm strip for the 50 mm ruler"
        raise UsageError(f"a {card.label()} card does not fit on {paper.name} {paper.orientation} paper: "
                         f"the space for cards is {region.w:.1f} x {region.h:.1f} mm ({why})")
    if fold:
        # Fronts end FOLD_GUTTER before the fold line: their bleed must not cross it.
        fold_outer = Rect(outer.x, outer.y, paper.width / 2 - outer.x, outer.h)
        fronts = _slots(cols, rows, x0, y0, card, gap, bleed, fold_outer)
        backs = tuple(s.mirrored(paper, "fold", (0.0, 0.0)) for s in fronts) if double_sided else ()
        return Layout(paper, card, cols, rows, fronts, backs, fold=True, backs_on_same_page=True)
    fronts = _slots(cols, rows, x0, y0, card, gap, bleed, outer)
    backs = ()
    if double_sided and duplex != "none":
        backs = tuple(s.mirrored(paper, duplex, back_offset) for s in fronts)
    return Layout(paper, card, cols, rows, fronts, backs)


def cut_lines(slots: tuple[Slot, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Distinct x of vertical and y of horizontal cut lines through the trims of ``slots``."""
    xs = sorted({round(v, 4) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, 4) for s in slots for v in (s.trim.y, s.trim.top)})
    return tuple(xs), tuple(ys)
