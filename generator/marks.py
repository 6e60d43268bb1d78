"""Page furniture: cut marks, crop crosses, rounded-corner guides and the fold line (the ruler
block is :mod:`tubedeck.generator.ruler`).

**Nothing here is ever drawn nearer than** :data:`~generator.sizes.PRINTER_MARGIN` **(6.35 mm)
to the paper edge**: home printers cannot print there, so a mark in that band is lost (or, on a
printer that shrinks the page to its printable area, moves every card). Marks are 0.25 pt black
(K only in CMYK) and are drawn only round the cards actually on the page (an empty slot gets no
marks), on front pages (duplex backs carry none). Styles (``--marks``):

* ``short`` (default): at every cut line, on every side of the cards, a mark along the line
  starting :data:`MARK_CLEAR` beyond the grid's outer bleed and running up to :data:`MARK_LENGTH`
  outwards, stopped at the printable limit. Where that leaves less than :data:`MIN_MARK` (the
  grid comes within ~3 mm of the limit: Letter portrait top and bottom, A4 sides with a 3 mm
  bleed), the mark runs instead from the printable limit :data:`MIN_MARK` (or up to 1 mm short
  of the trim) inwards: over the outer bleed when there is one, else along the cut line over
  the card's corner, in the part a 3 mm corner rounder removes. So every cut line keeps a
  printable mark at both ends and the card count per page stays.
* ``edge``: as ``short``, but each mark runs all the way to the printable limit (not into the
  unprintable band), stopping short of the ruler block if it would cross it.
* ``crosses``: a small cross (arms :data:`CROSS_ARM`) at every card corner, on the cut lines,
  inside the part a corner rounder removes; arms are cut at the printable limit.

Marks drawn over art (the inward fallback, crosses, corner guides) have a thin white line under
them (:data:`HALO`, 0.2 mm wider) so they show on dark colours too.
* ``none``: no marks.

``corners=True`` (``--corners``) adds a 3 mm-radius arc at every card corner: the line to cut
(or to line a corner punch up with) for rounded corners.

Distances called "depths" are millimetres from the paper edge a mark lies along.
"""

from __future__ import annotations

import math

from .fonts import text_width
from .layout import Slot, cut_lines
from .pen import Pen
from .sizes import PRINTER_MARGIN, PT, Paper, Rect
from .text import block

MARK_WIDTH = 0.25 * PT  # 0.25 pt in mm
MARK_LENGTH = 5.0
MARK_CLEAR = 1.0  # mm between the outer bleed and the start of a mark
MIN_MARK = 2.0  # shortest mark worth drawing inside the printable area
CROSS_ARM = 2.5  # mm each way from a card corner (a 3 mm corner rounder removes them)
CORNER_RADIUS = 3.0
HALO = MARK_WIDTH + 0.2  # a white line under marks drawn over art, so they show on dark colours
BLACK, WHITE = "#000000", "#FFFFFF"
SIDES = ("bottom", "top", "left", "right")


def grid_depths(paper: Paper, slots: tuple[Slot, ...]) -> dict[str, float]:
    """How far the grid's clip boxes (trim + bleed) stay from each paper edge, in mm."""
    return {side: clip for side, (clip, _) in side_depths(paper, slots).items()}


def side_depths(paper: Paper, slots: tuple[Slot, ...]) -> dict[str, tuple[float, float]]:
    """(clip depth, trim depth) of the grid from each paper edge: how far its bleed and its cards stay."""
    def depths(rects: list[Rect]) -> dict[str, float]:
        return {"bottom": min(r.y for r in rects), "top": paper.height - max(r.top for r in rects),
                "left": min(r.x for r in rects), "right": paper.width - max(r.right for r in rects)}
    clip, trim = depths([s.clip for s in slots]), depths([s.trim for s in slots])
    return {side: (clip[side], trim[side]) for side in SIDES}


def mark_reach(depth: float, style: str, trim_depth: float | None = None) -> tuple[float, float] | None:
    """(inner, outer) end of the cut marks, as depths from the paper edge, on a side where the
    grid's bleed stays ``depth`` mm and its trims ``trim_depth`` mm (default: ``depth``) from the
    edge; None when ``style`` draws no mark there. ``outer`` is never below the printable limit.
    ``crosses``: how far the corner crosses' outer arms reach."""
    trim_depth = depth if trim_depth is None else trim_depth
    if style == "none":
        return None
    if style == "crosses":
        outer = max(trim_depth - CROSS_ARM, PRINTER_MARGIN)
        return (trim_depth, outer) if trim_depth - outer > 0.1 else None
    inner = depth - MARK_CLEAR
    outer = PRINTER_MARGIN if style == "edge" else max(inner - MARK_LENGTH, PRINTER_MARGIN)
    if inner - outer >= MIN_MARK - 1e-9:
        return inner, outer
    # No room outside the bleed: from the printable limit inwards, over the outer bleed if it is
    # deep enough, else over the card corner (at most MIN_MARK into the card).
    inner = max(trim_depth - MARK_CLEAR, PRINTER_MARGIN + MIN_MARK)
    if style != "edge":
        inner = min(inner, PRINTER_MARGIN + MARK_LENGTH)
    return inner, PRINTER_MARGIN


def edge_point(paper: Paper, side: str, along: float, depth: float) -> tuple[float, float]:
    """The page point ``depth`` mm in from ``side``'s edge, at ``along`` (x for bottom/top, y for left/right)."""
    return {"bottom": (along, depth), "top": (along, paper.height - depth),
            "left": (depth, along), "right": (paper.width - depth, along)}[side]


def cut_marks(pen: Pen, slots: tuple[Slot, ...], paper: Paper, style: str, keep_out: tuple[Rect, ...] | list[Rect] = ()) -> None:
    """Marks at every cut line of ``slots`` (the cards on this page), on all four sides (or corner
    crosses). A mark that would cross a ``keep_out`` box (the ruler block; only ``edge`` marks
    reach that far) stops :data:`KEEP_CLEAR` short of it."""
    if style == "none" or not slots:
        return
    if style == "crosses":
        crop_crosses(pen, slots, paper)
        return
    xs, ys = cut_lines(slots)
    for side, (depth, trim_depth) in side_depths(paper, slots).items():
        reach = mark_reach(depth, style, trim_depth)
        if reach is None:
            continue
        for along in (xs if side in ("bottom", "top") else ys):
            inner, outer = reach
            for box in keep_out:
                outer = max(outer, _blocked_at(paper, side, along, box, inner) + KEEP_CLEAR)
            if inner - outer > 0.5:
                ends = (*edge_point(paper, side, along, inner), *edge_point(paper, side, along, outer))
                if inner > depth - MARK_CLEAR + 1e-6:  # no room in the margin: it reaches over the art
                    pen.line(*ends, stroke=WHITE, width=HALO)
                pen.line(*ends, stroke=BLACK, width=MARK_WIDTH)


def corners_of(slots: tuple[Slot, ...]) -> list[tuple[float, float]]:
    """Every distinct trim corner of ``slots`` (page mm), sorted."""
    return sorted({(round(x, 4), round(y, 4)) for s in slots for x in (s.trim.x, s.trim.right)
                   for y in (s.trim.y, s.trim.top)})


def crop_crosses(pen: Pen, slots: tuple[Slot, ...], paper: Paper) -> None:
    """A cross at every card corner, its arms along the two cut lines, cut at the printable limit."""
    lo_x, hi_x = PRINTER_MARGIN, paper.width - PRINTER_MARGIN
    lo_y, hi_y = PRINTER_MARGIN, paper.height - PRINTER_MARGIN
    for x, y in corners_of(slots):
        arms = ((max(x - CROSS_ARM, lo_x), y, min(x + CROSS_ARM, hi_x), y),
                (x, max(y - CROSS_ARM, lo_y), x, min(y + CROSS_ARM, hi_y)))
        for colour, width in ((WHITE, HALO), (BLACK, MARK_WIDTH)):
            for arm in arms:
                pen.line(*arm, stroke=colour, width=width)


def corner_guides(pen: Pen, slots: tuple[Slot, ...], radius: float = CORNER_RADIUS, steps: int = 12) -> None:
    """A quarter circle of ``radius`` inside every card corner: where to cut rounded corners."""
    for s in slots:
        t = s.trim
        for cx, cy, start in ((t.x + radius, t.y + radius, 180), (t.right - radius, t.y + radius, 270),
                              (t.right - radius, t.top - radius, 0), (t.x + radius, t.top - radius, 90)):
            pts = [(cx + radius * math.cos(math.radians(start + 90 * k / steps)),
                    cy + radius * math.sin(math.radians(start + 90 * k / steps))) for k in range(steps + 1)]
            pts = [(round(x, 4), round(y, 4)) for x, y in pts]
            pen.polyline(pts, stroke=WHITE, width=HALO)
            pen.polyline(pts, stroke=BLACK, width=MARK_WIDTH)


KEEP_CLEAR = 0.6  # mm between a shortened mark and the box it stops at


def _blocked_at(paper: Paper, side: str, along: float, box: Rect, inner: float = float("inf")) -> float:
    """The depth where a mark at ``along`` on ``side``, running out from depth ``inner``, first
    meets ``box`` (-inf if never: not across its path, or deeper in the page than the mark)."""
    pad = KEEP_CLEAR - 0.1  # a mark passing at the ruler's own clearance is not blocked
    if side in ("bottom", "top"):
        if not box.x - pad < along < box.right + pad:
            return float("-inf")
        near, far = (box.y, box.top) if side == "bottom" else (paper.height - box.top, paper.height - box.y)
    else:
        if not box.y - pad < along < box.top + pad:
            return float("-inf")
        near, far = (box.x, box.right) if side == "left" else (paper.width - box.right, paper.width - box.x)
    if near >= inner:
        return float("-inf")
    return min(far, inner)


FOLD_LABEL_SIZE = 4.5


def fold_line(pen: Pen, paper: Paper, slots: tuple[Slot, ...] = ()) -> None:
    """The dashed fold line down the centre of a fold-over page (inside the printable area),
    labelled "fold" (turned to read down the line, just right of it) in the top or bottom margin
    when that margin has room."""
    x = paper.width / 2
    pen.line(x, PRINTER_MARGIN, x, paper.height - PRINTER_MARGIN, stroke="#808080", width=0.2, dash=(2.0, 1.5))
    rect = fold_label_rect(paper, slots)
    if rect is not None:
        line = block(("fold",), "sans", FOLD_LABEL_SIZE)
        pen.text(rect.x + line.height - line.ascent, rect.top, "fold", size=FOLD_LABEL_SIZE, colour="#606060",
                 angle=-90.0)


def fold_label_rect(paper: Paper, slots: tuple[Slot, ...]) -> Rect | None:
    """The fold label's box (page mm): between the fold line and the nearest cut line (3 mm
    right of it), in the printable part of the top (else bottom) margin; None if neither has room."""
    length, thick = text_width("fold", "sans", FOLD_LABEL_SIZE), block(("fold",), "sans", FOLD_LABEL_SIZE).height
    depths = grid_depths(paper, slots) if slots else {"top": paper.height, "bottom": paper.height}
    for side in ("top", "bottom"):
        if depths[side] - MARK_CLEAR - PRINTER_MARGIN >= length:
            y = paper.height - PRINTER_MARGIN - length if side == "top" else PRINTER_MARGIN
            return Rect(paper.width / 2 + 0.3, y, thick, length)
    return None
