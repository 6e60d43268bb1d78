"""Sheet furniture: cut marks, the fold line, the 50 mm ruler and the print-at-100% note.

Cut marks sit outside the card grid at every cut line, so a guillotine or rotary-cutter user
lines the blade up with a mark on each side. They start 1 mm beyond the grid's outer bleed and
run 5 mm (``short``) or to the paper edge (``edge``), 0.25 pt black (K only in CMYK).

The ruler proves the sheet printed at 100%: if the bar does not measure 50 mm, the printer
scaled the page ("fit to page") and the cards will be the wrong size. It goes in the widest
margin, in a stretch free of cut marks, turned sideways when a side margin is the widest.
"""

from __future__ import annotations

from .layout import Slot, cut_lines
from .pen import Pen
from .sizes import PRINTER_MARGIN, PT, Paper, Rect
from .text import TextFitError, fit

MARK_WIDTH = 0.25 * PT  # 0.25 pt in mm
MARK_LENGTH = 5.0
MARK_CLEAR = 1.0  # mm between the outer bleed and the start of a mark
BLACK = "#000000"
NOTE = "Print at 100% / actual size (no fit to page): this bar is 50 mm"
RULER_BLOCK = 9.6  # mm across: page label, note, tick labels, ruler


def cut_marks(pen: Pen, slots: tuple[Slot, ...], paper: Paper, style: str) -> None:
    """Marks at every grid line, outside the grid's bleed on all four sides."""
    if style == "none" or not slots:
        return
    xs, ys = cut_lines(slots)
    clip = [s.clip for s in slots]
    left, right = min(c.x for c in clip), max(c.right for c in clip)
    bottom, top = min(c.y for c in clip), max(c.top for c in clip)

    def span(start: float, edge: float) -> tuple[float, float]:
        direction = 1 if edge > start else -1
        a = start + direction * MARK_CLEAR
        b = edge if style == "edge" else a + direction * MARK_LENGTH
        if direction * (b - edge) > 0:  # never past the paper edge
            b = edge
        return a, b

    for x in xs:
        for a, b in (span(top, paper.height), span(bottom, 0.0)):
            if abs(b - a) > 0.5:
                pen.line(x, a, x, b, stroke=BLACK, width=MARK_WIDTH)
    for y in ys:
        for a, b in (span(right, paper.width), span(left, 0.0)):
            if abs(b - a) > 0.5:
                pen.line(a, y, b, y, stroke=BLACK, width=MARK_WIDTH)


def fold_line(pen: Pen, paper: Paper) -> None:
    """The dashed fold line down the centre of a fold-over page, with a small label."""
    x = paper.width / 2
    pen.line(x, 0.0, x, paper.height, stroke="#808080", width=0.2, dash=(2.0, 1.5))
    pen.text(x - 1.0, paper.height - PRINTER_MARGIN - 2.0, "fold", size=5, colour="#606060", align="right")


def _free_spans(marks: tuple[float, ...], lo: float, hi: float) -> list[tuple[float, float]]:
    cuts = [lo] + [m for m in marks if lo < m < hi] + [hi]
    return [(a, b) for a, b in zip(cuts, cuts[1:])]


def ruler(pen: Pen, paper: Paper, slots: tuple[Slot, ...], label: str) -> None:
    """Place the ruler block in the widest margin around ``slots`` (all of the page if none)."""
    if slots:
        xs, ys = cut_lines(slots)
        clip = [s.clip for s in slots]
        margins = {
            "bottom": min(c.y for c in clip),
            "left": min(c.x for c in clip),
            "right": paper.width - max(c.right for c in clip),
        }
    else:
        xs, ys, margins = (), (), {"bottom": paper.height}
    side = "bottom" if margins["bottom"] >= RULER_BLOCK + 2 * MARK_CLEAR else max(margins, key=margins.get)
    if side == "bottom":
        top_v = margins["bottom"] - MARK_CLEAR - 0.5  # block's grid-side edge, mm from the edge
        spans = _free_spans(xs, PRINTER_MARGIN, paper.width - PRINTER_MARGIN)
        a, b = max(spans, key=lambda s: s[1] - s[0])
        frame = ((a + 1.0, max(top_v - RULER_BLOCK, 0.8)), (1.0, 0.0), (0.0, 1.0), 0.0)
    else:
        spans = _free_spans(ys, PRINTER_MARGIN, paper.height - PRINTER_MARGIN)
        a, b = max(spans, key=lambda s: s[1] - s[0])
        depth = max(margins[side] - MARK_CLEAR - 0.5 - RULER_BLOCK, 0.8)
        if side == "left":  # reads top to bottom, text tops toward the cards
            frame = ((depth, b - 1.0), (0.0, -1.0), (1.0, 0.0), -90.0)
        else:  # right margin: reads bottom to top, text tops toward the cards
            frame = ((paper.width - depth, a + 1.0), (0.0, 1.0), (-1.0, 0.0), 90.0)
    _draw_block(pen, frame, b - a - 2.0, label)


def _draw_block(pen: Pen, frame, length: float, label: str) -> None:
    """The block in a local frame: u along the ruler, v toward the cards (all mm)."""
    (ox, oy), (ux, uy), (vx, vy), angle = frame

    def at(u: float, v: float) -> tuple[float, float]:
        return (ox + u * ux + v * vx, oy + u * uy + v * vy)

    def text(u: float, v: float, s: str, size: float, align: str = "left") -> None:
        pen.text(*at(u, v), s, size=size, colour=BLACK, align=align, angle=angle, field="ruler")

    # Page label (outermost: least important if the printer clips the margin).
    try:
        f = fit(label, "sans", 5.0, 3.5, max(length, 10.0), 3.0, max_lines=1)
        text(0.0, 0.3, f.lines[0], f.size)
    except TextFitError:
        pass
    note = fit(NOTE, "sans-bold", 5.5, 3.0, max(length, 50.0), 3.0, max_lines=1)
    text(0.0, 2.6, note.lines[0], note.size)
    for mm in range(0, 51, 10):
        text(float(mm), 4.9, f"{mm}" if mm < 50 else "50 mm", 4.0, "left" if mm == 0 else "centre")
    base = 6.6
    pen.line(*at(0, base), *at(50, base), stroke=BLACK, width=0.15)
    for mm in range(51):
        h = 2.4 if mm % 10 == 0 else 1.6 if mm % 5 == 0 else 0.9
        pen.line(*at(mm, base), *at(mm, base + h), stroke=BLACK, width=0.12)


def sheet_safe(paper: Paper) -> Rect:
    """Where a Sheet may draw: the printable area above the ruler strip."""
    strip = 10.0  # the ruler block (9.6 mm) and a little air
    return Rect(PRINTER_MARGIN, PRINTER_MARGIN + strip, paper.width - 2 * PRINTER_MARGIN,
                paper.height - 2 * PRINTER_MARGIN - strip)


def sheet_ruler(pen: Pen, paper: Paper, label: str) -> None:
    frame = ((PRINTER_MARGIN, PRINTER_MARGIN), (1.0, 0.0), (0.0, 1.0), 0.0)
    _draw_block(pen, frame, paper.width - 2 * PRINTER_MARGIN, label)
