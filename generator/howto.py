""""How to print it": the first page of every game's output, and ``OUT/README.pdf`` for them all.

A game's ``README.pdf`` is drawn from what the build really wrote (the manifest: each file, its
pages) and the documents behind it (a deck printed double-sided or fold-over, a booklet to fold):
what to print, on what paper, single- or double-sided and with which flip, what to cut or fold,
what to bring (the rulebook's "What to bring" list), and how long the cutting takes. ``OUT/README.pdf``
lists every game folder under ``OUT`` the same way, read back from the PDFs there (their page
counts and the double-sided flip each asks the printer for), so ``make run``'s three builds leave
one index of the whole box.

Time estimates are stated as such: about 10 seconds a card with a paper trimmer (twice that with
scissors), a figure for planning, not a measurement of anyone's hands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from tubedeck.words import plural

from . import fonts
from .document import Deck, Pages
from .rulebook.markup import Block, Heading, Item, Para, Table, plain_runs
from .rulebook.typeset import Piece, Placed, Setter, Style, paginate
from .sizes import PRINTER_MARGIN, Rect
from .theme import BOLD, INK, MUTED, TEXT

if TYPE_CHECKING:
    from .engine import Manifest
    from .options import PrintOptions
    from .pen import Pen

SIZE = 9.0  # body text (the rulebook's floor is 8 pt; this is a page to read once, at arm's length)
SECONDS_PER_CARD = 10  # cutting with a trimmer (scissors: about twice)
CARD_STOCK = "card stock (160-300 gsm), or paper for sleeved cards"


@dataclass(frozen=True)
class Row:
    """One file to print: its name, pages, how to print it and what to do next."""

    file: str
    pages: int
    how: str
    then: str
    instead: bool = False  # an alternative to another file: left out of the page count


def _flip(options: "PrintOptions") -> str:
    return {"long": "double-sided, flip on the long edge", "short": "double-sided, flip on the short edge"}.get(
        options.duplex, "single-sided, then print the back pages on the reverse by hand")


def rows(documents: Sequence[Deck | Pages], manifest: "Manifest", options: "PrintOptions") -> list[Row]:
    """The files to print, rulebook first, in the order the build wrote them."""
    by_name = {d.name: d for d in documents}
    out: list[Row] = []
    for f in manifest.files:
        name = Path(f.path).name
        if f.kind == "sheets-pdf":
            decks = [by_name[d.split("/")[-1]] for d in (f.decks or (f.document,)) if d.split("/")[-1] in by_name]
            cards = sum(len(d.printed()) for d in decks if isinstance(d, Deck))
            double = any(isinstance(d, Deck) and d.double_sided for d in decks)
            if options.fold and double:
                how = f"single-sided on {CARD_STOCK}; fold each sheet on its fold line, glue"
            elif double:
                how = f"{_flip(options)}, on {CARD_STOCK}"
            else:
                how = f"single-sided, on {CARD_STOCK}"
            out.append(Row(name, f.pages, how, f"cut along the marks: {cards} card{'s' * (cards != 1)}"))
        elif f.kind == "sheet-pdf":
            doc = by_name.get(f.document)
            if not isinstance(doc, Pages):
                continue
            if doc.flip == "short" and doc.duplex:
                how = "double-sided, flip on the short edge, on paper"
            elif doc.name == "rulebook":
                how = "single- or double-sided, on paper"
            elif doc.duplex:
                how = f"{_flip(options)}, on paper"
            else:
                how = "single-sided, on paper"
            then = doc.note or "as its pages say"
            if doc.instead_of:
                then = f"instead of {doc.instead_of}.pdf (print one or the other): {then}"
            out.append(Row(name, f.pages, how, then, bool(doc.instead_of)))
    out.sort(key=lambda r: (not r.file.startswith("rulebook"), r.file.startswith("rulebook-booklet")))
    return out


def cards_to_cut(documents: Sequence[Deck | Pages]) -> int:
    return sum(len(d.printed()) for d in documents if isinstance(d, Deck))


def minutes(cards: int) -> int:
    return math.ceil(cards * SECONDS_PER_CARD / 60)


# -- drawing: the rulebook's typesetter, top down ----------------------------------------------------
STYLE = Style(body=SIZE, table=8.5, columns=1)


def _table(header: Sequence[str], body: Sequence[Sequence[str]]) -> Table:
    return Table(tuple(tuple(((cell, TEXT),) for cell in row) for row in (header, *body)))


def _pieces(blocks: Sequence[Block], width: float, muted: Sequence[str] = ()) -> list[Piece]:
    """The blocks set for a column ``width`` (paragraphs in ``muted`` in the secondary colour)."""
    setter = Setter(STYLE, width, {})
    out: list[Piece] = []
    for block in blocks:
        if isinstance(block, Para) and plain_runs(block.runs) in muted:
            out += [setter.gap()] + setter.lines(block.runs, 8.5, colour=MUTED)
        else:
            out += setter.block(block)
    return out


def _flow(pen: "Pen", box: Rect, placed: Sequence[Placed]) -> None:
    for p in placed:
        p.piece.draw(pen, p.x, p.top, p.width)


def _mark(pen: "Pen", box: Rect, game: str) -> bool:
    from .rulebook import draw_title_mark

    return draw_title_mark(pen, box, game)


CALIBRATION = ("Double-sided card sheets: print one sheet first and hold it to the light. Each back's colour "
               "runs past its card's edges, so a shift of a millimetre or two does not show once cut; if yours "
               "is larger, whoever built these files can measure the printer (tubedeck build calibration) and "
               "build them again with the shift it reads (--back-offset). The contact sheets (*-contact.png) "
               "are previews, not for print.")


def game_blocks(table: Sequence[Row], bring: Sequence[str], cards: int, credit: str = "") -> list[Block]:
    """What a game's README.pdf says, as the typesetter's blocks."""
    sheets = sum(r.pages for r in table if not r.instead)  # an alternative counted once, not twice
    time = (f"{plural(sheets, 'printed page')}. {plural(cards, 'card')} to cut: about "
            f"{plural(minutes(cards), 'minute')} with a paper trimmer, about twice that with scissors and a "
            f"ruler, besides what the other pages ask (cutting, folding, gluing)." if cards else
            f"{plural(sheets, 'printed page')}; nothing to cut but what the pages say.")
    blocks: list[Block] = [
        Para((("Print every page at 100% (\"actual size\"), never \"fit to page\": the cards are cut to the "
               "millimetre. Each card sheet carries a 50 mm ruler; measure it once after printing.", TEXT),)),
        Heading(2, "What to print"),
        _table(("File", "Pages", "How to print", "Then"), [(r.file, str(r.pages), r.how, r.then) for r in table]),
        Para(((CALIBRATION, TEXT),)),
    ]
    if bring:
        blocks += [Heading(2, "What to bring")] + [Item("\u2022", ((item, TEXT),)) for item in bring]
    blocks += [Heading(2, "How long it takes"), Para(((time, TEXT),))]
    if credit:
        blocks += [Heading(2, "The network"), Para(((credit, TEXT),))]
    return blocks


def draw_game_page(pen: "Pen", *, game: str, title: str, table: Sequence[Row], bring: Sequence[str], cards: int,
                   players: str = "", credit: str = "") -> None:
    box = pen.trim.inset(14.0, 14.0)
    has = _mark(pen, Rect(box.x, box.top - 22, 31, 22), game)
    x = box.x + (37 if has else 0)
    size = 20.0
    while size > 12 and fonts.text_width(title, BOLD, size) > box.right - x:
        size -= 1
    pen.text(x, box.top - 9, title, font=BOLD, size=size, colour=INK, field="how-to-print")
    pen.text(x, box.top - 17, "How to print and make it" + (f" \u00b7 {players} players" if players else ""),
             font=TEXT, size=11, colour=MUTED, field="how-to-print")
    body = Rect(box.x, box.y, box.w, box.h - 27)
    pages = paginate(_pieces(game_blocks(table, bring, cards, credit), body.w, muted=(CALIBRATION,)),
                     lambda page: [body])
    _flow(pen, body, pages[0])  # one page: a game's files and its list fit it (the index pages on)


def game_page(*, game: str, title: str, documents: Sequence[Deck | Pages], manifest: "Manifest",
              options: "PrintOptions", bring: Sequence[str], players: str = "", credit: str = "") -> Pages:
    """``README.pdf``: how to print and make the game, from what the build wrote; ``credit``: the
    dataset's attribution line (another city's ``city.toml``), printed at the foot."""
    table = rows(documents, manifest, options)
    draw = partial(draw_game_page, game=game, title=title, table=table, bring=tuple(bring),
                   cards=cards_to_cut(documents), players=players, credit=credit)
    return Pages("README", (draw,), title=f"{title}: how to print it", landscape=False, furniture=False)


# -- OUT/README.pdf -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Folder:
    name: str
    title: str
    files: tuple[tuple[str, int, str], ...]  # (file, pages, how)


def read_folder(folder: Path) -> Folder | None:
    """A game folder as its PDFs say: their titles, page counts and the flip they ask for."""
    import pymupdf

    files = []
    title = folder.name
    for pdf in sorted(folder.glob("*.pdf")):
        try:
            with pymupdf.open(pdf) as doc:
                pages = doc.page_count
                meta_title = (doc.metadata or {}).get("title", "")
                duplex = doc.pdf_catalog() and doc.xref_get_key(doc.pdf_catalog(), "ViewerPreferences/Duplex")[1]
                keywords = (doc.metadata or {}).get("keywords", "") or ""
        except Exception:  # noqa: BLE001 - a file that is not ours (or half-written) is left out of the index
            continue
        if pdf.name == "README.pdf":
            title = meta_title.split(":")[0] or title
            continue
        how = {"/DuplexFlipLongEdge": "double-sided, long-edge flip",
               "/DuplexFlipShortEdge": "double-sided, short-edge flip"}.get(str(duplex), "single-sided")
        if pdf.name == "rulebook.pdf":
            how = "single- or double-sided"
        if keywords.startswith("instead-of:"):
            how += f"; or instead of {keywords.removeprefix('instead-of:')}"
        files.append((pdf.name, pages, how))
    return Folder(folder.name, title, tuple(files)) if files else None


INDEX_INTRO = ("One folder per game. Start with each game's README.pdf (what to print on what paper, what to cut, "
               "what to bring, how long it takes) and its rulebook.pdf where it has one (sampler/ is the print "
               "engine's proof sheet, not a game). Print at 100% (\"actual size\"). Files marked \"or instead of\" "
               "are another way to make the same thing: print one of the two.")


def index_pages(folders: Sequence[Folder], box: Rect) -> list[list[Placed]]:
    """The index set in ``box``, page by page (the first page under its title)."""
    blocks: list[Block] = [Para(((INDEX_INTRO, TEXT),))]
    for folder in folders:
        blocks += [Heading(2, f"{folder.title}  ({folder.name}/)"),
                   _table(("File", "Pages", "Print"), [(f, str(p), h) for f, p, h in folder.files])]
    first = Rect(box.x, box.y, box.w, box.h - 14)
    return paginate(_pieces(blocks, box.w), lambda page: [first if page == 0 else box])


def draw_index(pen: "Pen", placed: Sequence[Placed], first: bool) -> None:
    box = pen.trim.inset(14.0, 14.0)
    if first:
        pen.text(box.x, box.top - 9, "What is in this folder", font=BOLD, size=20, colour=INK, field="how-to-print")
    _flow(pen, box, placed)


def index_pdf(out: Path, options: "PrintOptions") -> bytes | None:
    """``OUT/README.pdf``'s bytes, over every game folder in ``out`` (None: no folder to list)."""
    from .pdf import sheet_pdf

    folders = [f for f in (read_folder(d) for d in sorted(out.iterdir()) if d.is_dir() and not d.name.startswith("."))
               if f is not None and (out / f.name / "README.pdf").exists()]
    if not folders:
        return None
    box = options.paper.portrait.rect.inset(14.0, 14.0)  # the page the index prints on (Pages: portrait)
    laid = index_pages(folders, box)
    pages = tuple(partial(draw_index, placed=p, first=i == 0) for i, p in enumerate(laid))
    doc = Pages("README", pages, title="What is in this folder", landscape=False, furniture=False)
    data, _ = sheet_pdf(doc, options)
    return data


assert PRINTER_MARGIN < 14.0  # the pages' margins stay printable
__all__ = ["Folder", "Row", "game_page", "index_pdf", "minutes", "read_folder", "rows"]
