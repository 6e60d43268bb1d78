"""The 50 mm ruler, the "print at 100% / actual size" note and the page label.

The ruler proves the sheet printed at 100%: if the bar does not measure 50 mm, the printer
scaled the page ("fit to page") and the cards will be the wrong size. Every sheet page carries
it, and the whole block (ruler, tick numbers, note, page label) keeps:

* at least :data:`~generator.sizes.PRINTER_MARGIN` (6.35 mm) from every paper edge;
* at least :data:`CLEAR` from every card's clip box (trim + bleed) and from every cut mark and
  the fold line.

Placement (:func:`place`) searches the free **strips** of the four margins (see
:func:`free_strips`) for the first design that fits, most generous first (:data:`DESIGNS`):
the full block (label, note, numbered ruler); note and numbered ruler, the label in another
strip; a compact block (note over a ruler with "50 mm" at its end), the label elsewhere; the
ruler alone, with the note and the label in other strips (Letter portrait with a 3 mm bleed:
2.75 mm of free side margin). A label that finds no room is left out; the ruler and note never
are. Strips along the left/right margins hold the block turned 90 degrees (Letter portrait: 3
poker rows fill the height, so the ruler sits in the 12.7 mm side margin). If no design fits,
:func:`fits` says so and the engine lays the cards out again with :data:`RESERVE` mm kept free
at the bottom (one row fewer: the last resort). Cut marks are placed around the block: ``edge``
marks are planned as ``short`` ones and stop short of the block (``marks.cut_marks(keep_out=)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .layout import Slot, cut_lines
from .marks import MARK_CLEAR, MARK_LENGTH, edge_point, fold_label_rect, mark_reach, side_depths
from .pen import Pen
from .sizes import PRINTER_MARGIN, Paper, Rect
from .text import TextFitError, fit
from .text import block as block_of

CLEAR = 0.6  # mm between the block and cards, cut marks or the fold line
ROW_GAP = 0.25  # mm between the block's rows
NOTE = "Print at 100% / actual size (no fit to page): this bar is 50 mm"
NOTE_SHORT = "Print at 100% / actual size: this bar is 50 mm"
NOTE_PT, NOTE_MIN_PT = 6.0, 6.0  # the quality bar: no printed text under 6 pt
LABEL_PT, LABEL_MIN_PT = 6.0, 6.0
NUMBER_PT = 6.0
TICK = 2.2  # mm: height of the 10 mm ticks (5 mm: 1.5, 1 mm: 0.9)
BLACK = "#000000"

NOTE_APART = "Print at 100% / actual size (no fit to page): the ruler must measure 50 mm"
NOTE_APART_SHORT = "Print at 100% / actual size: the ruler is 50 mm"

# Designs, most generous first: the main block's rows (bottom up), then rows placed on their own
# in other strips ("note-apart" is required, a "label" that finds no room is left out).
FULL = ("label", "note", "numbers", "ticks")
NO_LABEL = ("note", "numbers", "ticks")
COMPACT = ("note", "ticks+50")
RULER_ONLY = ("ticks+50",)
DESIGNS = ((FULL, ()), (NO_LABEL, ("label",)), (COMPACT, ("label",)), (RULER_ONLY, ("note-apart", "label")))
_TEXT_ROWS = {  # part: (texts to try, font, size, minimum size)
    "label": (None, "sans", LABEL_PT, LABEL_MIN_PT),
    "note": ((NOTE, NOTE_SHORT), "sans-bold", NOTE_PT, NOTE_MIN_PT),
    "note-apart": ((NOTE_APART, NOTE_APART_SHORT), "sans-bold", NOTE_PT, NOTE_MIN_PT),
    "numbers": (("50 mm",), "sans", NUMBER_PT, NUMBER_PT),
}
U0 = 0.1  # mm: the block's items start this far along, so the 0 tick's stroke stays inside it


@dataclass(frozen=True)
class Strip:
    """A free rectangle of a margin (page mm), lying along the paper edge ``side``."""

    rect: Rect
    side: str

    @property
    def length(self) -> float:
        return self.rect.w if self.side in ("bottom", "top") else self.rect.h

    @property
    def depth(self) -> float:
        return self.rect.h if self.side in ("bottom", "top") else self.rect.w


@dataclass(frozen=True)
class Block:
    """Drawing items in a local frame: ``u`` along the ruler, ``v`` up the text, both from 0."""

    items: tuple[tuple, ...]
    length: float
    depth: float


def _fit_line(texts: tuple[str, ...], font: str, size: float, min_size: float, length: float):
    for text in texts:
        try:
            return fit(text, font, size, min_size, length, 1e3, max_lines=1)
        except TextFitError:
            continue
    return None


def label_forms(label: str) -> tuple[str, ...]:
    """The page label, then shorter forms for a narrow strip: the title dropped ("fronts - page 1
    of 8"), then the page alone ("page 1 of 8"). Text stays at 6 pt or more rather than shrinking."""
    parts = label.split(" - ")
    return tuple(dict.fromkeys(" - ".join(parts[k:]) for k in (0, 1, len(parts) - 1) if k < len(parts)))


@lru_cache(maxsize=512)
def build_block(parts: tuple[str, ...], length: float, label: str) -> Block | None:
    """The rows ``parts`` stacked from v = 0 up, text fitted to ``length``; None if they cannot fit."""
    items: list[tuple] = []
    v, width = 0.0, 0.0
    for part in parts:
        if part in _TEXT_ROWS:
            texts, font, size, low = _TEXT_ROWS[part]
            f = _fit_line(texts or label_forms(label), font, size, low, length)
            if f is None:
                return None
            base = v + f.height - f.ascent
            if part == "numbers":
                for mm in range(0, 51, 10):
                    items.append(("text", float(mm), base, f"{mm}" if mm < 50 else "50 mm", font, f.size,
                                  "left" if mm == 0 else "centre"))
                width = max(width, 50.0 + Pen.text_width("50 mm", font, f.size) / 2)
            else:
                items.append(("text", 0.0, base, f.lines[0], font, f.size, "left"))
                width = max(width, Pen.text_width(f.lines[0], font, f.size))
            v += f.height + ROW_GAP
        else:  # the ruler: a base line and ticks pointing up (v), optionally "50 mm" past its end
            base = v + 0.1
            items.append(("line", 0.0, base, 50.0, base, 0.15))
            for mm in range(51):
                h = TICK if mm % 10 == 0 else 1.5 if mm % 5 == 0 else 0.9
                items.append(("line", float(mm), base, float(mm), base + h, 0.12))
            width = max(width, 50.06)
            row = TICK + 0.2
            if part == "ticks+50":
                tag = block_of(("50 mm",), "sans", NUMBER_PT)
                items.append(("text", 51.0, v + tag.height - tag.ascent, "50 mm", "sans", NUMBER_PT, "left"))
                width = max(width, 51.0 + Pen.text_width("50 mm", "sans", NUMBER_PT))
                row = max(row, tag.height)
            v += row + ROW_GAP
    width += 2 * U0
    return Block(tuple(items), width, v - ROW_GAP) if width <= length + 1e-9 else None


def free_strips(paper: Paper, slots: tuple[Slot, ...], marks: str, fold: bool = False) -> list[Strip]:
    """The margins' free rectangles around ``slots`` (drawn with cut marks ``marks``), best first.

    Each margin spans from the printable limit to :data:`CLEAR` short of the grid's clips. Where
    cut marks cross it, it is split at every cut line (kept :data:`CLEAR` clear); beyond the
    marks' outer ends an unsplit band along the whole margin is offered too. Order: bottom, top,
    left, right; within a margin, deeper strips first, then those nearer its centre."""
    marks = "short" if marks == "edge" else marks  # edge marks stop short of the block (cut_marks' keep_out)
    xs, ys = cut_lines(slots)
    fold_cuts: tuple[float, ...] = ()
    if fold:  # the fold line, and the fold label beside it
        label = fold_label_rect(paper, slots)
        fold_cuts = (paper.width / 2,) + ((label.right,) if label else ())
    out: list[tuple[tuple, Strip]] = []
    for rank, (side, (depth, trim_depth)) in enumerate(side_depths(paper, slots).items()):
        inner = depth - CLEAR
        if inner - PRINTER_MARGIN < 1.0:
            continue
        horizontal = side in ("bottom", "top")
        span = (PRINTER_MARGIN, (paper.width if horizontal else paper.height) - PRINTER_MARGIN)
        always = fold_cuts if horizontal else ()  # the fold line runs across the whole margin
        reach = mark_reach(depth, marks, trim_depth)  # crosses: their outer arms, at the same cut lines
        bands = [(inner, ((xs if horizontal else ys) + always) if reach else always)]
        if reach and reach[1] - CLEAR - PRINTER_MARGIN >= 1.0:
            bands.append((reach[1] - CLEAR, always))
        for top, band_cuts in bands:
            stops = sorted(c for c in band_cuts if span[0] < c < span[1])
            for a, b in zip([span[0]] + [c + CLEAR for c in stops], [c - CLEAR for c in stops] + [span[1]]):
                if b - a < 1.0:
                    continue
                p, q = edge_point(paper, side, a, PRINTER_MARGIN), edge_point(paper, side, b, top)
                rect = Rect(min(p[0], q[0]), min(p[1], q[1]), abs(q[0] - p[0]), abs(q[1] - p[1]))
                mid = (span[0] + span[1]) / 2
                out.append(((rank, -round(top, 3), round(abs((a + b) / 2 - mid), 3)), Strip(rect, side)))
    return [s for _, s in sorted(out, key=lambda t: t[0])]


@dataclass(frozen=True)
class Placed:
    """A block put on the page: the local frame's origin, u and v directions, text angle; its box."""

    block: Block
    origin: tuple[float, float]
    u: tuple[float, float]
    v: tuple[float, float]
    angle: float
    box: Rect


def _place(strip: Strip, block: Block) -> Placed:
    """Centre ``block`` along ``strip``, against its grid side, text up toward the grid (top
    margin: upright), reading left to right, or turned 90 degrees in a side margin."""
    r, bl, bd = strip.rect, block.length, block.depth
    if strip.side == "bottom":
        origin, u, v, angle = (r.x + (r.w - bl) / 2, r.top - bd), (1.0, 0.0), (0.0, 1.0), 0.0
    elif strip.side == "top":
        origin, u, v, angle = (r.x + (r.w - bl) / 2, r.y), (1.0, 0.0), (0.0, 1.0), 0.0
    elif strip.side == "left":  # reads top to bottom
        origin, u, v, angle = (r.right - bd, r.top - (r.h - bl) / 2), (0.0, -1.0), (1.0, 0.0), -90.0
    else:  # right: reads bottom to top
        origin, u, v, angle = (r.x + bd, r.y + (r.h - bl) / 2), (0.0, 1.0), (-1.0, 0.0), 90.0
    corners = [(origin[0] + a * u[0] + b * v[0], origin[1] + a * u[1] + b * v[1]) for a in (0, bl) for b in (0, bd)]
    x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
    box = Rect(x0, y0, max(p[0] for p in corners) - x0, max(p[1] for p in corners) - y0)
    return Placed(block, origin, u, v, angle, box)


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def _split(strip: Strip, box: Rect) -> list[Strip]:
    """What is left of ``strip`` along its length on either side of ``box`` (less CLEAR)."""
    r = strip.rect
    if strip.side in ("bottom", "top"):
        parts = [Rect(r.x, r.y, box.x - CLEAR - r.x, r.h),
                 Rect(box.right + CLEAR, r.y, r.right - box.right - CLEAR, r.h)]
    else:
        parts = [Rect(r.x, r.y, r.w, box.y - CLEAR - r.y), Rect(r.x, box.top + CLEAR, r.w, r.top - box.top - CLEAR)]
    return [Strip(p, strip.side) for p in parts if p.w > 1.0 and p.h > 1.0]


def _fit_in(strips: list[Strip], parts: tuple[str, ...], label: str) -> Placed | None:
    for strip in strips:
        block = build_block(parts, round(strip.length, 4), label)
        if block is not None and block.depth <= strip.depth + 1e-9:
            return _place(strip, block)
    return None


def plan(strips: list[Strip], label: str) -> list[Placed] | None:
    """The ruler block (and its rows placed apart) put in ``strips``; None if no design fits."""
    for parts, apart in DESIGNS:
        main = _fit_in(strips, parts, label)
        if main is None:
            continue
        placed, free = [main], strips
        for part in apart:
            free = [p for s in free for p in (_split(s, placed[-1].box) if _overlap(s.rect, placed[-1].box) else [s])]
            extra = _fit_in(free, (part,), label)
            if extra is None and part != "label":
                break
            placed += [extra] if extra else []
        else:
            return placed
    return None


def fits(paper: Paper, slots: tuple[Slot, ...], marks: str, fold: bool = False) -> bool:
    """True if the ruler and note fit round ``slots`` (used by the layout's last-resort check)."""
    return plan(free_strips(paper, slots, marks, fold), "page 99 of 99") is not None


# The strip kept free at the bottom when nothing else fits: cut marks, then the compact block.
RESERVE = MARK_CLEAR + MARK_LENGTH + 2 * CLEAR + 5.0


def draw(pen: Pen, placed: list[Placed]) -> None:
    """Draw placed blocks in black (page coordinates: ``pen`` is the page's pen)."""
    for p in placed:
        def at(u: float, v: float, p: Placed = p) -> tuple[float, float]:
            (ox, oy), (ux, uy), (vx, vy) = p.origin, p.u, p.v
            u += U0
            return (ox + u * ux + v * vx, oy + u * uy + v * vy)

        for item in p.block.items:
            if item[0] == "text":
                _, u, v, text, font, size, align = item
                pen.text(*at(u, v), text, font=font, size=size, colour=BLACK, align=align, angle=p.angle,
                         field="ruler")
            else:
                _, u1, v1, u2, v2, width = item
                pen.line(*at(u1, v1), *at(u2, v2), stroke=BLACK, width=width)


def place(paper: Paper, slots: tuple[Slot, ...], label: str, marks: str = "short",
          fold: bool = False) -> list[Placed]:
    """The ruler block's placement in the margins around ``slots`` (cut marks drawn as ``marks``)."""
    placed = plan(free_strips(paper, slots, marks, fold), label)
    if placed is None:
        raise AssertionError(f"no room for the ruler on {label!r}: the layout should have reserved some")
    return placed


SHEET_STRIP = 10.0  # mm kept at the bottom of a full-page document (inside the margin) for the block


def sheet_safe(paper: Paper) -> Rect:
    """Where a full-page document may draw: the printable area above the ruler strip."""
    return Rect(PRINTER_MARGIN, PRINTER_MARGIN + SHEET_STRIP, paper.width - 2 * PRINTER_MARGIN,
                paper.height - 2 * PRINTER_MARGIN - SHEET_STRIP)


def sheet_ruler(pen: Pen, paper: Paper, label: str) -> None:
    """The block in a full-page document's bottom strip, :data:`CLEAR` below ``sheet_safe``."""
    strip = Strip(Rect(PRINTER_MARGIN, PRINTER_MARGIN, paper.width - 2 * PRINTER_MARGIN, SHEET_STRIP - CLEAR),
                  "bottom")
    draw(pen, plan([strip], label) or [])


__all__ = ["CLEAR", "RESERVE", "Placed", "Strip", "draw", "fits", "free_strips", "place", "plan",
           "sheet_ruler", "sheet_safe"]
