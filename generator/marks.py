"""Sheet furniture: cut marks and the fold line (the ruler block is :mod:`generator.ruler`).

Cut marks sit outside the card grid at every cut line, so a guillotine or rotary-cutter user
lines the blade up with a mark on each side. They start 1 mm beyond the grid's outer bleed,
0.25 pt black (K only in CMYK), and run:

* ``short``: 5 mm outwards, but never into the 6.35 mm unprintable margin when at least 2 mm
  of mark fits before it (the mark is shortened). Where the grid itself comes within ~3 mm of
  the margin (Letter portrait top and bottom, A4 sides with a 3 mm bleed) there is no such
  room: the mark keeps its 5 mm and runs into the margin as a best effort (printers that reach
  closer to the edge print it; the others drop it, and the other side's marks still guide the cut);
* ``edge``: to the paper edge, through the margin (the user asked for it), except that a mark
  stops short of the ruler block when it would cross it;
* ``none``: no marks.

Distances here are "depths": millimetres from the paper edge a mark lies along.
"""

from __future__ import annotations

from .layout import Slot, cut_lines
from .pen import Pen
from .fonts import text_width
from .sizes import PRINTER_MARGIN, PT, Paper, Rect
from .text import block

MARK_WIDTH = 0.25 * PT  # 0.25 pt in mm
MARK_LENGTH = 5.0
MARK_CLEAR = 1.0  # mm between the outer bleed and the start of a mark
MIN_MARK = 2.0  # shortest mark worth drawing inside the printable area
BLACK = "#000000"


def grid_depths(paper: Paper, slots: tuple[Slot, ...]) -> dict[str, float]:
    """How far the grid's clip boxes (trim + bleed) stay from each paper edge, in mm."""
    clip = [s.clip for s in slots]
    return {"bottom": min(c.y for c in clip), "top": paper.height - max(c.top for c in clip),
            "left": min(c.x for c in clip), "right": paper.width - max(c.right for c in clip)}


def mark_reach(depth: float, style: str) -> tuple[float, float] | None:
    """(inner, outer) end of a cut mark, as depths from the paper edge, for a grid edge
    ``depth`` mm from it; None when ``style`` draws no mark there."""
    if style == "none":
        return None
    inner = depth - MARK_CLEAR
    outer = 0.0 if style == "edge" else inner - MARK_LENGTH
    if style == "short" and inner - PRINTER_MARGIN >= MIN_MARK:
        outer = max(outer, PRINTER_MARGIN)  # room to stay printable: do
    outer = max(outer, 0.0)
    return (inner, outer) if inner - outer > 0.5 else None


def edge_point(paper: Paper, side: str, along: float, depth: float) -> tuple[float, float]:
    """The page point ``depth`` mm in from ``side``'s edge, at ``along`` (x for bottom/top, y for left/right)."""
    return {"bottom": (along, depth), "top": (along, paper.height - depth),
            "left": (depth, along), "right": (paper.width - depth, along)}[side]


def cut_marks(pen: Pen, slots: tuple[Slot, ...], paper: Paper, style: str, keep_out: list[Rect] = ()) -> None:
    """Marks at every grid line, outside the grid's bleed on all four sides. A mark that would
    cross a ``keep_out`` box (the ruler block; only ``edge`` marks reach that far) stops
    :data:`KEEP_CLEAR` short of it."""
    if style == "none" or not slots:
        return
    xs, ys = cut_lines(slots)
    for side, depth in grid_depths(paper, slots).items():
        reach = mark_reach(depth, style)
        if reach is None:
            continue
        for along in (xs if side in ("bottom", "top") else ys):
            inner, outer = reach
            for box in keep_out:
                outer = max(outer, _blocked_at(paper, side, along, box) + KEEP_CLEAR)
            if inner - outer > 0.5:
                pen.line(*edge_point(paper, side, along, inner), *edge_point(paper, side, along, outer),
                         stroke=BLACK, width=MARK_WIDTH)


KEEP_CLEAR = 0.6  # mm between a shortened mark and the box it stops at


def _blocked_at(paper: Paper, side: str, along: float, box: Rect) -> float:
    """The depth where a mark at ``along`` on ``side`` first meets ``box`` (-inf if never)."""
    pad = KEEP_CLEAR - 0.1  # a mark passing at the ruler's own clearance is not blocked
    if side in ("bottom", "top"):
        if not box.x - pad < along < box.right + pad:
            return float("-inf")
        return box.top if side == "bottom" else paper.height - box.y
    if not box.y - pad < along < box.top + pad:
        return float("-inf")
    return box.right if side == "left" else paper.width - box.x


FOLD_LABEL_SIZE = 4.5


def fold_line(pen: Pen, paper: Paper, slots: tuple[Slot, ...] = ()) -> None:
    """The dashed fold line down the centre of a fold-over page, labelled "fold" (turned to read
    down the line, just right of it) in the top or bottom margin when that margin has room."""
    x = paper.width / 2
    pen.line(x, 0.0, x, paper.height, stroke="#808080", width=0.2, dash=(2.0, 1.5))
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
