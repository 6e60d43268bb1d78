"""A game's rulebook, printed with the game: ``rulebook.pdf`` and ``rulebook-booklet.pdf``.

A game gives a :class:`Rulebook`: its words (``data/<game>/rulebook.md``, the markup of
:mod:`.markup`), the values its ``{placeholders}`` take (rules values from the edition, worked
examples replayed by the engine: the printed numbers are the engine's) and the figures it draws.
This package typesets it (:mod:`.typeset`) twice:

* ``rulebook.pdf``: the build's paper (A4 or Letter), portrait, two columns, the title across
  the top of the first page;
* ``rulebook-booklet.pdf``: half-size pages (A5 on A4, half-letter on Letter), one column, a
  cover, imposed two to a landscape sheet in booklet order (print double-sided, flip on the short
  edge, fold the stack in half): 4 pages per sheet, blank pages at the end to make up the four.

No printed text is under 8 pt (:data:`MIN_RULEBOOK_PT`); pages carry no ruler (nothing on them
is measured) and a footer with the game, the page and the page count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Callable, Mapping

from tubedeck.content import content

from ..document import Pages
from ..sizes import PRINTER_MARGIN, Paper, Rect
from ..text import measure
from ..theme import BOLD, INK, MUTED, TEXT
from .markup import Block, FigureRef, Heading, Item, PageBreak, Para, Ruling, Table, parse, plain_runs
from .typeset import MIN_RULEBOOK_PT, Piece, Placed, Setter, Style, paginate

if TYPE_CHECKING:
    from ..options import PrintOptions
    from ..pen import Pen


@dataclass(frozen=True)
class Figure:
    """A drawing in the rulebook: ``draw(pen, box)`` inside ``box`` (page mm), ``aspect`` =
    height / width (the typesetter gives it the column's width), an optional ``caption``."""

    draw: Callable[["Pen", Rect], None]
    aspect: float
    caption: str = ""


@dataclass(frozen=True)
class Rulebook:
    """What a game hands the typesetter (``Game.rulebook`` names the function that makes it)."""

    game: str  # the game id (the title mark's)
    title: str
    source: str  # the markup
    values: Mapping[str, object] = field(default_factory=dict)
    figures: Mapping[str, Figure] = field(default_factory=dict)
    name: str = "rulebook.md"  # where ``source`` came from, for messages

    def blocks(self) -> list[Block]:
        return parse(self.source, self.values, frozenset(self.figures), self.name)

    def localised(self, dataset: object) -> "Rulebook":
        """The book as it prints on the dataset at ``dataset`` (a folder; None or "" is London):
        its text, string values and captions through :func:`tubedeck.content.localise`."""
        from dataclasses import replace

        from tubedeck.content import localise

        where = str(dataset) if dataset else None
        return replace(self, source=localise(self.source, where),
                       values={k: localise(v, where) if isinstance(v, str) else v for k, v in self.values.items()},
                       figures={k: replace(f, caption=localise(f.caption, where)) for k, f in self.figures.items()})


def read_source(game: str, name: str = "rulebook.md") -> str:
    """The text of ``data/<game>/<name>``."""
    return content(game, name).read_text(encoding="utf-8")


def plain(book: Rulebook) -> str:
    """The book's text as it prints, one block a line (tables: cells joined by " | "): what
    tests read to compare the printed numbers with the engine's."""
    out: list[str] = []
    for block in book.blocks():
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + block.text)
        elif isinstance(block, (Para, Ruling)):
            out.append(plain_runs(block.runs))
        elif isinstance(block, Item):
            out.append(f"{block.label} {plain_runs(block.runs)}")
        elif isinstance(block, Table):
            out += [" | ".join(plain_runs(c) for c in row) for row in block.rows]
        elif isinstance(block, FigureRef):
            out.append(f"[figure {block.name}] {book.figures[block.name].caption}")
        elif isinstance(block, PageBreak):
            out.append("[quickref]" if block.quickref else "[page]")
    return "\n".join(out)


def bring(book: Rulebook) -> list[str]:
    """The items of the book's "What to bring" list (a heading starting so): what the how-to-print
    page repeats, so it is written once."""
    items: list[str] = []
    inside = False
    for block in book.blocks():
        if isinstance(block, Heading):
            inside = block.text.lower().startswith("what to bring")
        elif inside and isinstance(block, Item):
            items.append(plain_runs(block.runs))
    return items


# -- page geometry --------------------------------------------------------------------------------
SIDE, TOP, BOTTOM = 14.0, 13.0, 17.0  # mm; the footer's baseline sits 10 mm above the paper's edge
FOOTER = 10.0
BAND = 36.0  # the title across the first page of rulebook.pdf
MARK = 26.0  # the title mark's box


@dataclass(frozen=True)
class Format:
    """One way to set the book: the page size, margins, columns, and whether page 1 is a cover."""

    width: float
    height: float
    style: Style
    cover: bool  # page 1 is a cover of its own (the booklet), else a title band (the sheet)
    side: float = SIDE

    def frames(self, page: int) -> list[Rect]:
        area = Rect(self.side, BOTTOM, self.width - 2 * self.side, self.height - TOP - BOTTOM)
        if page == 0 and not self.cover:
            area = Rect(area.x, area.y, area.w, area.h - BAND)
        n, g = self.style.columns, self.style.gutter
        w = (area.w - (n - 1) * g) / n
        return [Rect(area.x + i * (w + g), area.y, w, area.h) for i in range(n)]


def sheet_format(paper: Paper) -> Format:
    p = paper.portrait
    return Format(p.width, p.height, Style(columns=2 if p.width - 2 * SIDE >= 150 else 1), cover=False)


def booklet_format(paper: Paper) -> Format:
    sheet = paper.landscape
    return Format(sheet.width / 2, sheet.height, Style(columns=1), cover=True, side=12.0)


@dataclass(frozen=True)
class Laid:
    """A book set in one format: its pages (placed pieces) and where the quick reference starts."""

    book: Rulebook
    format: Format
    pages: tuple[tuple[Placed, ...], ...]
    quickref: int | None  # the first page of the quick reference (0-based), if any

    @property
    def count(self) -> int:
        return len(self.pages)


def lay_out(book: Rulebook, fmt: Format) -> Laid:
    """Set ``book`` in ``fmt``: every piece measured and placed (UsageError on a bad source)."""
    blocks = book.blocks()
    width = fmt.frames(1)[0].w
    setter = Setter(fmt.style, width, book.figures)  # type: ignore[arg-type]
    pieces: list[Piece] = []
    quick_at: int | None = None
    first = 1 if blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1 else 0
    if first and len(blocks) > 1 and isinstance(blocks[1], Para) and blocks[1].subtitle:
        first = 2
    for block in blocks[first:]:
        made = setter.block(block)
        if isinstance(block, PageBreak) and block.quickref:
            quick_at = len(pieces)
        pieces += made
    offset = 1 if fmt.cover else 0
    pages = paginate(pieces, lambda page: fmt.frames(page + offset))
    quickref = None
    if quick_at is not None:
        target = next((p for p in pieces[quick_at:] if not p.new_page and not p.gap), None)
        quickref = next((i for i, page in enumerate(pages) if any(pl.piece is target for pl in page)), None)
    laid = tuple(tuple(page) for page in pages)
    if fmt.cover:
        laid = ((),) + laid
        quickref = None if quickref is None else quickref + 1
    return Laid(book, fmt, laid, quickref)


def subtitle(book: Rulebook) -> str:
    blocks = book.blocks()
    if len(blocks) > 1 and isinstance(blocks[1], Para) and blocks[1].subtitle:
        return plain_runs(blocks[1].runs)
    return ""


def draw_title_mark(pen: "Pen", box: Rect, game: str) -> bool:
    """The game's title mark (``generator/identity.py``) in ``box``; False where there is none."""
    try:
        from .. import identity  # type: ignore[attr-defined]
    except ImportError:
        return False
    mark = getattr(identity, "title_mark", None)
    if mark is None or game not in getattr(identity, "IDENTITIES", {game: None}):
        return False
    mark(pen, box, game)
    return True


def _fit_line(text: str, font: str, size: float, width: float) -> float:
    """The largest size <= ``size`` (and >= the floor) at which ``text`` fits ``width`` on one line
    (the engine's own fitting, :func:`~tubedeck.generator.text.measure`); the floor if none does."""
    fitted = measure(text, font, size, MIN_RULEBOOK_PT, width, max_lines=1)
    return fitted.size if fitted is not None else MIN_RULEBOOK_PT


def draw_page(pen: "Pen", laid: Laid, index: int, dx: float = 0.0) -> None:
    """Page ``index`` of ``laid``, its left edge at ``dx`` on the paper."""
    fmt, book = laid.format, laid.book
    sub = subtitle(book)
    if index == 0 and fmt.cover:
        w = fmt.width - 2 * fmt.side
        box = Rect(dx + fmt.side, fmt.height * 0.45, w, w * 0.62)
        draw_title_mark(pen, box, book.game)
        size = _fit_line(book.title, BOLD, 24.0, w)
        pen.text(dx + fmt.width / 2, fmt.height * 0.36, book.title, font=BOLD, size=size, colour=INK,
                 align="centre", field="rulebook")
        pen.text(dx + fmt.width / 2, fmt.height * 0.36 - 10, "Rules", font=TEXT, size=14, colour=MUTED,
                 align="centre", field="rulebook")
        if sub:
            sub_size = _fit_line(sub, TEXT, 10.0, w)
            pen.text(dx + fmt.width / 2, fmt.height * 0.36 - 18, sub, font=TEXT, size=sub_size, colour=INK,
                     align="centre", field="rulebook")
    elif index == 0:
        top = fmt.height - TOP
        x = dx + fmt.side
        w = fmt.width - 2 * fmt.side
        has_mark = draw_title_mark(pen, Rect(x, top - MARK, MARK * 1.4, MARK), book.game)
        tx = x + (MARK * 1.4 + 6 if has_mark else 0)
        size = _fit_line(book.title, BOLD, 24.0, x + w - tx)
        pen.text(tx, top - 11, book.title, font=BOLD, size=size, colour=INK, field="rulebook")
        pen.text(tx, top - 19, "Rules", font=TEXT, size=12, colour=MUTED, field="rulebook")
        if sub:
            pen.text(tx, top - 26, sub, font=TEXT, size=_fit_line(sub, TEXT, 9.0, x + w - tx), colour=INK,
                     field="rulebook")
        pen.line(x, top - BAND + 4, x + w, top - BAND + 4, stroke=INK, width=0.5)
    for placed in laid.pages[index]:
        placed.piece.draw(pen, placed.x + dx, placed.top, placed.width)
    if not (index == 0 and fmt.cover) and index < laid.count:
        quick = laid.quickref is not None and index >= laid.quickref
        footer = f"{book.title} \u00b7 {'Quick reference' if quick else 'Rules'}"
        pen.text(dx + fmt.side, FOOTER, footer, font=TEXT, size=MIN_RULEBOOK_PT, colour=MUTED, field="rulebook")
        pen.text(dx + fmt.width - fmt.side, FOOTER, f"{index + 1} / {laid.count}", font=TEXT,
                 size=MIN_RULEBOOK_PT, colour=MUTED, align="right", field="rulebook")


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """The booklet's sheet sides as (left, right) page indices (0-based; None: a blank page), in
    printing order: front of sheet 1, its back, front of sheet 2, ... for ``pages`` made up to
    a multiple of four. Folded, sheet 1 is the outside: its front holds the last and first pages."""
    n = -(-pages // 4) * 4 if pages else 0

    def real(i: int) -> int | None:
        return i if i < pages else None
    sides: list[tuple[int | None, int | None]] = []
    for s in range(n // 4):
        sides.append((real(n - 1 - 2 * s), real(2 * s)))
        sides.append((real(2 * s + 1), real(n - 2 - 2 * s)))
    return sides


def _draw_side(pen: "Pen", laid: Laid, side: tuple[int | None, int | None]) -> None:
    half = laid.format.width
    for slot, index in enumerate(side):
        if index is not None:
            draw_page(pen, laid, index, dx=slot * half)


def documents(book: Rulebook, options: "PrintOptions") -> list[Pages]:
    """``rulebook`` (the build's paper, two columns) and ``rulebook-booklet`` (folded half-size pages)."""
    sheet = lay_out(book, sheet_format(options.paper))
    booklet = lay_out(book, booklet_format(options.paper))
    assert booklet.format.side >= PRINTER_MARGIN
    return [
        Pages("rulebook", tuple(partial(draw_page, laid=sheet, index=i) for i in range(sheet.count)),
              title=f"{book.title}: rules", landscape=False, furniture=False,
              note="read it first; keep it with the game"),
        Pages("rulebook-booklet", tuple(partial(_draw_side, laid=booklet, side=s)
                                        for s in booklet_order(booklet.count)),
              title=f"{book.title}: rules (booklet)", landscape=True, duplex=True, flip="short", furniture=False,
              note="fold the stack in half, staple in the fold (or leave it loose)", instead_of="rulebook"),
    ]


__all__ = ["MIN_RULEBOOK_PT", "Figure", "bring", "draw_title_mark", "Format", "Laid", "Rulebook", "booklet_format", "booklet_order",
           "documents", "draw_page", "lay_out", "plain", "read_source", "sheet_format"]
