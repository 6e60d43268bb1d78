"""Typesetting a rulebook: blocks -> pieces of known height -> frames (columns) -> pages.

Everything is measured before anything is drawn, so the page count (the footer's "3 / 12") and
the booklet's imposition are known up front, and the same input gives the same pages. A piece
is the unit that never breaks: a line of a paragraph, a table row, a figure. A heading keeps
with what follows it; space between blocks is dropped at the top of a column.

Type scale (points): body :data:`Style.body` (9), never below :data:`MIN_RULEBOOK_PT` (8) anywhere,
figures included (``tests/engine/test_rulebook_typeset.py`` reads every size back from the PDF).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from tubedeck.errors import UsageError

from .. import fonts
from ..sizes import Rect
from ..theme import BOLD, GREY, INK, ITALIC, MUTED, TEXT
from .markup import Block, FigureRef, Heading, Item, PageBreak, Para, Ruling, Run, Table

if TYPE_CHECKING:
    from ..pen import Pen

MIN_RULEBOOK_PT = 8.0
PT = 25.4 / 72.0  # mm per point
TINT = "#ECEFF5"  # the ruling box and table header: INK reads on it at 15:1
BAR = "#3A4A7A"  # the ruling box's left bar (a mark, 8:1 on white)


@dataclass(frozen=True)
class Style:
    body: float = 9.0
    leading: float = 1.3  # baseline to baseline, times the size
    h2: float = 12.5
    h3: float = 10.0
    table: float = 8.5
    caption: float = 8.0
    gap: float = 2.2  # mm between blocks
    columns: int = 2
    gutter: float = 7.0  # mm between columns


@dataclass
class Piece:
    height: float
    draw: Callable[["Pen", float, float, float], None]  # (pen, x, top, width)
    keep: bool = False  # keep with the next piece in the same column
    gap: bool = False  # space only: dropped at the top of a column
    new_page: bool = False  # a page break before anything else


@dataclass(frozen=True)
class Placed:
    piece: Piece
    x: float
    top: float
    width: float


Token = list[Run]  # the fragments of one word (a word may change font: "**Bank**'s")


def _tokens(runs: Sequence[Run]) -> list[Token]:
    """Words as lists of (text, font) fragments, split at spaces."""
    words: list[Token] = []
    open_word = False
    for text, font in runs:
        parts = text.split(" ")
        for i, part in enumerate(parts):
            if i > 0:
                open_word = False
            if not part:
                continue
            if open_word:
                words[-1].append((part, font))
            else:
                words.append([(part, font)])
                open_word = True
    return words


def _width(token: Token, size: float) -> float:
    return sum(fonts.text_width(t, f, size) for t, f in token)


def wrap_runs(runs: Sequence[Run], size: float, width: float) -> list[list[Run]]:
    """Greedy line breaking of runs into lines of at most ``width`` mm (a word longer than the
    line gets a line of its own: the overflow test catches it)."""
    space = fonts.text_width(" ", TEXT, size)
    lines: list[list[Token]] = [[]]
    used = 0.0
    for token in _tokens(runs):
        w = _width(token, size)
        if lines[-1] and used + space + w > width + 1e-9:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0.0) + w
        lines[-1].append(token)
    out: list[list[Run]] = []
    for line in lines:
        merged: list[Run] = []
        for i, token in enumerate(line):
            for j, (text, font) in enumerate(token):
                text = (" " if i > 0 and j == 0 else "") + text
                if merged and merged[-1][1] == font:
                    merged[-1] = (merged[-1][0] + text, font)
                elif i > 0 and j == 0 and merged:  # the space goes with the word before
                    merged[-1] = (merged[-1][0] + " ", merged[-1][1])
                    merged.append((text[1:], font))
                else:
                    merged.append((text, font))
        out.append(merged)
    return out


def draw_line(pen: "Pen", x: float, baseline: float, line: Sequence[Run], size: float, colour: str = INK,
              field: str = "rulebook") -> float:
    """Draw one wrapped line's runs from ``x``; the width drawn (mm)."""
    at = x
    for text, font in line:
        if text.strip():
            pen.text(at, baseline, text, font=font, size=size, colour=colour, field=field)
        at += fonts.text_width(text, font, size)
    return at - x


def line_width(line: Sequence[Run], size: float) -> float:
    return sum(fonts.text_width(t, f, size) for t, f in line)


def _ascent(size: float) -> float:
    return fonts.metrics(TEXT)[0] * size * PT


class Setter:
    """Turns blocks into pieces for one column width and style."""

    def __init__(self, style: Style, width: float, figures: Mapping[str, "FigureLike"]):
        self.style, self.width, self.figures = style, width, figures

    def gap(self, mm: float | None = None) -> Piece:
        return Piece(self.style.gap if mm is None else mm, lambda pen, x, top, w: None, gap=True)

    def lines(self, runs: Sequence[Run], size: float, *, indent: float = 0.0, label: str = "",
              colour: str = INK, band: str | None = None, pad: float = 0.0) -> list[Piece]:
        lead = size * self.style.leading * PT
        asc = _ascent(size)
        out: list[Piece] = []
        for i, line in enumerate(wrap_runs(runs, size, self.width - indent - 2 * pad)):
            def draw(pen: "Pen", x: float, top: float, w: float, line=line, first=i == 0) -> None:
                if band is not None:
                    pen.rect(x, top - lead, w, lead, fill=band)
                    pen.rect(x, top - lead, 0.9, lead, fill=BAR)
                baseline = top - (lead - size * PT) / 2 - asc
                if first and label:
                    draw_line(pen, x + pad, baseline, [(label, BOLD)], size, colour)
                draw_line(pen, x + pad + indent, baseline, line, size, colour)
            out.append(Piece(lead, draw))
        return out

    def heading(self, block: Heading) -> list[Piece]:
        size = self.style.h2 if block.level == 2 else self.style.h3
        pieces = [self.gap(self.style.gap * (2.2 if block.level == 2 else 1.2))]
        lines = self.lines(((block.text, BOLD),), size)
        if block.level == 2:
            def rule(pen: "Pen", x: float, top: float, w: float) -> None:
                pen.line(x, top - 0.6, x + w, top - 0.6, stroke=GREY, width=0.3)
            lines.append(Piece(1.6, rule))
        for p in lines:
            p.keep = True
        return pieces + lines

    def table(self, block: Table) -> list[Piece]:
        size, pad = self.style.table, 1.2
        lead = size * self.style.leading * PT
        columns = len(block.rows[0])
        natural = [max(line_width(list(cell), size) for cell in (r[c] for r in block.rows)) + 2 * pad
                   for c in range(columns)]
        least = [max(max((_width(t, size) for t in _tokens(r[c])), default=0.0) for r in block.rows) + 2 * pad
                 for c in range(columns)]
        if sum(least) > self.width + 1e-6:
            raise UsageError(f"a table's words need {sum(least):.0f} mm, the column has {self.width:.0f} mm")
        if sum(natural) <= self.width:
            widths = [n * self.width / sum(natural) for n in natural]
        else:
            spare = self.width - sum(least)
            extra = [n - m for n, m in zip(natural, least)]
            widths = [m + spare * e / (sum(extra) or 1) for m, e in zip(least, extra)]
        pieces: list[Piece] = []
        for r, row in enumerate(block.rows):
            header = r == 0
            cells = [wrap_runs([(t, BOLD if header else f) for t, f in cell], size, widths[c] - 2 * pad)
                     for c, cell in enumerate(row)]
            height = max(len(c) for c in cells) * lead + 2 * pad * 0.6

            def draw(pen: "Pen", x: float, top: float, w: float, cells=cells, header=header, height=height) -> None:
                if header:
                    pen.rect(x, top - height, w, height, fill=TINT)
                pen.line(x, top - height, x + w, top - height, stroke=GREY, width=0.25)
                at = x
                for c, lines in enumerate(cells):
                    for i, line in enumerate(lines):
                        baseline = top - pad * 0.6 - i * lead - (lead - size * PT) / 2 - _ascent(size)
                        draw_line(pen, at + pad, baseline, line, size)
                    at += widths[c]
            pieces.append(Piece(height, draw, keep=header))
        return pieces

    def figure(self, block: FigureRef) -> list[Piece]:
        figure = self.figures[block.name]
        height = figure.aspect * self.width

        def draw(pen: "Pen", x: float, top: float, w: float) -> None:
            figure.draw(pen, Rect(x, top - height, w, height))
        pieces = [Piece(height, draw)]
        if figure.caption:
            caption = self.lines(((figure.caption, ITALIC),), self.style.caption, colour=MUTED)
            pieces[-1].keep = True
            for p in caption[:-1]:
                p.keep = True
            pieces += [Piece(1.0, lambda pen, x, top, w: None, keep=True)] + caption
        return pieces

    def block(self, block: Block) -> list[Piece]:
        s = self.style
        if isinstance(block, Heading):
            return self.heading(block)
        if isinstance(block, Para):
            return [self.gap()] + self.lines(block.runs, s.body)
        if isinstance(block, Item):
            indent = max(fonts.text_width(block.label, BOLD, s.body) + 1.2, 3.4)
            return [self.gap(0.8)] + self.lines(block.runs, s.body, indent=indent, label=block.label)
        if isinstance(block, Table):
            return [self.gap()] + self.table(block)
        if isinstance(block, Ruling):
            pad = 2.0
            lines = self.lines(block.runs, s.body - 0.5, band=TINT, pad=pad)

            def edge(pen: "Pen", x: float, top: float, w: float) -> None:
                pen.rect(x, top - 1.4, w, 1.4, fill=TINT)
                pen.rect(x, top - 1.4, 0.9, 1.4, fill=BAR)
            first = Piece(1.4, edge, keep=True)
            return [self.gap(), first] + lines + [Piece(1.4, edge)]
        if isinstance(block, FigureRef):
            return [self.gap(3.0)] + self.figure(block)
        if isinstance(block, PageBreak):
            return [Piece(0.0, lambda pen, x, top, w: None, new_page=True)]
        raise TypeError(block)


class FigureLike:  # the typesetter's view of a Figure (generator.rulebook.Figure)
    draw: Callable[["Pen", Rect], None]
    aspect: float
    caption: str


@dataclass
class Page:
    placed: list[Placed] = field(default_factory=list)
    quickref: bool = False


def paginate(pieces: list[Piece], frames: Callable[[int], list[Rect]]) -> list[list[Placed]]:
    """Pieces into the columns ``frames(page)`` gives each page (0-based), in order."""
    pages: list[list[Placed]] = [[]]
    page, column = 0, 0
    cols = frames(0)
    used = 0.0

    def advance(new_page: bool = False) -> None:
        nonlocal page, column, cols, used
        if new_page or column + 1 >= len(cols):
            page, column = page + 1, 0
            pages.append([])
            cols = frames(page)
        else:
            column += 1
        used = 0.0

    def chain(i: int) -> float:
        """The height of piece i and every piece it keeps with."""
        h = pieces[i].height
        while pieces[i].keep and i + 1 < len(pieces) and not pieces[i + 1].new_page:
            i += 1
            h += pieces[i].height
        return h

    for i, piece in enumerate(pieces):
        if piece.new_page:
            if pages[-1]:
                advance(new_page=True)
            continue
        if piece.gap and used == 0.0:
            continue
        frame = cols[column]
        need = chain(i) if piece.keep else piece.height
        if used > 0.0 and (used + piece.height > frame.h + 1e-6 or (piece.keep and used + need > frame.h + 1e-6)):
            advance()
            if piece.gap:
                continue
            frame = cols[column]
        if piece.height > frame.h + 1e-6:
            raise UsageError(f"a piece of the rulebook {piece.height:.0f} mm high does not fit a column {frame.h:.0f} mm high")
        pages[-1].append(Placed(piece, frame.x, frame.top - used, frame.w))
        used += piece.height
    while pages and not pages[-1]:
        pages.pop()
    return pages


__all__ = ["MIN_RULEBOOK_PT", "Piece", "Placed", "Setter", "Style", "draw_line", "paginate", "wrap_runs"]
