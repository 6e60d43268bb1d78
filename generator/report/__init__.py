"""``tubedeck report``: results files of any game as a self-contained HTML page and a PDF.

The page has each run's header (game, edition, options, seeds, engine, time limit), the
headline figures with 95% intervals (:mod:`.facts`) and the plots (:mod:`.plots`, matplotlib).
The HTML fetches nothing: styles inline, plots as inline SVG. The PDF goes through the print
engine (an A4 :class:`~tubedeck.generator.document.Pages`, plots placed as 200-dpi PNGs), so it carries the
engine's fonts, ruler and print settings like every other sheet.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tubedeck.atomic import write_bytes
from tubedeck.errors import UsageError
from tubedeck.progress import Progress

from .. import fonts, ruler
from ..document import Pages
from ..fonts import text_width
from ..options import PrintOptions
from ..sizes import PAPERS, Paper, Rect
from ..text import FittedText, block, wrap
from .facts import Facts, SchemaOf, read_facts
from .plots import DPI, Plot, plots

MAX_FILES = 12
TITLE = "tubedeck report"


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


MAX_VALUE = 200  # characters of a header value shown (a hand-edited header may hold anything)


def header_rows(f: Facts) -> list[tuple[str, str]]:
    """The run's header in words, the bots seat by seat."""
    rows = [("file", f.path.name)]
    for k, v in sorted(f.header.items()):
        text = "; ".join(f"seat {i}: {b}" for i, b in enumerate(f.bots, 1)) if k == "bots" and f.bots else _words(v)
        if len(text) > MAX_VALUE:
            text = f"{text[:MAX_VALUE]}... (the first {MAX_VALUE} of {len(text):,} characters)"
        rows.append((k, text))
    return rows


def _words(v) -> str:
    """A header value as a reader reads it: lists comma-separated, tables "key: value; ...", yes/no
    (the Run table printed raw JSON: ["greedy", "greedy"], {"content": ...})."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return ", ".join(_words(x) for x in v)
    if isinstance(v, dict):
        return "; ".join(f"{k}: {_words(x)}" for k, x in sorted(v.items()))
    return str(v)


STYLE = """body{font-family:DejaVu Sans,Verdana,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;
color:#1a1a1a;background:#fff;line-height:1.4}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0;width:100%;table-layout:fixed}th,td{border-bottom:1px solid #ccc;
text-align:left;padding:.2rem .4rem;vertical-align:top;overflow-wrap:anywhere}th{width:45%;font-weight:600}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}figcaption{font-weight:600}"""


def html_page(runs: list[Facts], charts: list[Plot]) -> str:
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{TITLE}</title>"
             f"<meta name='viewport' content='width=device-width'><style>{STYLE}</style></head><body>",
             f"<h1>{TITLE}: {html.escape(', '.join(r.label for r in runs))}</h1>"]
    for i, r in enumerate(runs, 1):
        parts.append(f"<h2>File {i}: {html.escape(r.label)}</h2>")
        parts.append("<h3>Run</h3>" + _table(header_rows(r)))
        parts.append("<h3>Headline figures (95% intervals)</h3>" + _table(r.headline()))
    parts.append("<h2>Plots</h2>")
    for c in charts:
        parts.append(f"<figure><figcaption>{html.escape(c.title)}</figcaption>{c.svg}</figure>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


# -- the PDF: blocks of text and plots flowed onto pages -------------------------------------------
FONT = fonts.DEFAULT_FONT
BOLD = "sans-bold"
ROW_PT = 8.0  # a figure row; wrapped, and shrunk only where one word is wider than its column
MIN_PT = 7.0  # the report's smallest text
ROW_GAP = 1.3  # mm between two rows
KEY_SHARE = 0.42  # of the text width: the figure column (the value column has the rest)
COLUMN_GAP = 4.0  # mm between the figure and its value


@dataclass(frozen=True)
class Block:
    """A piece of a page: ``draw(pen, x, top, width)`` within ``height`` mm below ``top``.
    ``keep``: stays on the page of the block after it (a heading)."""

    height: float
    draw: Callable[[Any, float, float, float], None]
    keep: bool = False


def fitted(text: str, width: float, size: float, font: str = FONT, min_size: float = MIN_PT) -> FittedText:
    """``text`` wrapped to ``width`` mm at ``size`` pt; smaller (to ``min_size``) only where a
    word is wider than the column, and broken within the word at ``min_size`` if even that is too
    wide: never cut short."""
    s = size
    while s >= min_size - 1e-9:
        lines = wrap(text, font, s, width)
        if lines is not None:
            return block(lines, font, s)
        s = round(s - 0.5, 4)
    return block(_broken(text, font, min_size, width), font, min_size)


def _broken(text: str, font: str, size: float, width: float) -> tuple[str, ...]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for ch in para:
            if line and text_width(line + ch, font, size) > width:
                lines.append(line.rstrip())
                line = ch.lstrip()
            else:
                line += ch
        lines.append(line)
    return tuple(lines)


def text_block(text: str, width: float, size: float, font: str = FONT, space: float = 1.5,
               keep: bool = False, field: str = "text") -> Block:
    fit = fitted(text, width, size, font)

    def draw(pen, x: float, top: float, _w: float) -> None:
        pen.fitted_lines(fit, x, top, font=font, colour="#000000", field=field)
    return Block(fit.height + space, draw, keep)


def row_blocks(rows: list[tuple[str, str]], width: float) -> list[Block]:
    """A two-column table: the figure on the left, its value on the right, each wrapped in its
    own column so neither runs into the other."""
    key_w = width * KEY_SHARE
    value_w = width - key_w - COLUMN_GAP
    out = []
    for k, v in rows:
        kf, vf = fitted(k, key_w, ROW_PT), fitted(v, value_w, ROW_PT)

        def draw(pen, x: float, top: float, _w: float, kf=kf, vf=vf) -> None:
            pen.fitted_lines(kf, x, top, font=FONT, colour="#000000", field="figure")
            pen.fitted_lines(vf, x + key_w + COLUMN_GAP, top, font=FONT, colour="#000000", field="value")
        out.append(Block(max(kf.height, vf.height) + ROW_GAP, draw))
    return out


def plot_block(c: Plot, width: float, height: float) -> Block:
    """A plot's title and its PNG at the size it was drawn (its text keeps its points), smaller
    only if wider than the page."""
    title = fitted(c.title, width, 9.5, BOLD)
    w_px, h_px = c.png_size
    w, h = w_px / DPI * 25.4, h_px / DPI * 25.4
    scale = min(1.0, width / w, (height - title.height - 3) / h)
    w, h = w * scale, h * scale

    def draw(pen, x: float, top: float, _w: float) -> None:
        pen.fitted_lines(title, x, top, font=BOLD, colour="#000000", field="title")
        pen.image(x, top - title.height - 2 - h, w, h, c.png)
    return Block(title.height + 2 + h + 6, draw)


def flow(blocks: list[Block], area: Rect) -> list[Callable]:
    """The blocks top to bottom onto as many pages of ``area`` as they need; a heading stays with
    what follows it."""
    pages: list[list[tuple[Block, float]]] = [[]]
    y, i = area.top, 0
    while i < len(blocks):
        group = [blocks[i]]
        while group[-1].keep and i + len(group) < len(blocks):
            group.append(blocks[i + len(group)])
        need = sum(b.height for b in group)
        if y - need < area.y and pages[-1]:
            pages.append([])
            y = area.top
        for b in group:
            pages[-1].append((b, y))
            y -= b.height
        i += len(group)

    def page(placed: list[tuple[Block, float]]):
        def draw(pen) -> None:
            for b, top in placed:
                b.draw(pen, area.x, top, area.w)
        return draw
    return [page(p) for p in pages]


def text_area(paper: Paper) -> Rect:
    """Where the report writes on a page of ``paper``: the sheet's safe area, a margin inside."""
    safe = ruler.sheet_safe(paper)
    return Rect(safe.x + 4, safe.y + 4, safe.w - 8, safe.h - 12)


def file_blocks(r: Facts, title: str, width: float) -> list[Block]:
    return [text_block(title, width, 11.0, BOLD, space=3.0, keep=True, field="title"),
            text_block("Run", width, 9.5, BOLD, keep=True, field="heading"),
            *row_blocks(header_rows(r), width),
            Block(3.0, lambda *_: None),
            text_block("Headline figures (95% intervals)", width, 9.5, BOLD, keep=True, field="heading"),
            *row_blocks(r.headline(), width)]


# A facts page fits A4 and Letter alike (the build's --paper picks either): their common area.
FACTS_PAPER = Paper("a4-letter", 210.0, 279.4)


def facts_sheet(results: Path, schema_of: SchemaOf) -> Pages:
    """``build GAME --facts``: a page of a results file's run and headline figures (a second if
    they need it)."""
    r = read_facts(results, schema_of)
    area = text_area(FACTS_PAPER)
    return Pages("deck-facts", tuple(flow(file_blocks(r, f"Deck facts: {r.label}", area.w), area)),
                 title="Deck facts", landscape=False)


def report_sheet(runs: list[Facts], charts: list[Plot], paper: Paper = PAPERS["a4"]) -> Pages:
    """An A4 sheet: the figures of each file, then the plots, as many to a page as fit."""
    area = text_area(paper.portrait)
    pages: list[Callable] = []
    for i, r in enumerate(runs, 1):
        pages += flow(file_blocks(r, f"{TITLE}, file {i}: {r.label}", area.w), area)
    pages += flow([plot_block(c, area.w, area.h) for c in charts], area)
    return Pages("report", tuple(pages), title=TITLE, paper=paper, landscape=False)


def write_report(paths: list[Path], out: Path, schema_of: SchemaOf,
                 progress: Progress | None = None) -> tuple[list[Path], list[Facts]]:
    """Fold every results file by its declared record (``schema_of(header)``), draw the plots
    once, write ``report.html`` and ``report.pdf``; returns the files written and the folds.
    ``progress`` is told each step (reading a file, each plot, each PDF page)."""
    if not paths:
        raise UsageError("report needs at least one results file")
    if len(paths) > MAX_FILES:
        raise UsageError(f"report compares at most {MAX_FILES} results files, got {len(paths)}")

    def tell(**fields: Any) -> None:
        if progress is not None:
            progress.update(**fields)

    def reading(name: str) -> Callable[[int], None]:
        return lambda k: tell(at=f"{name}, {k:,} records")

    runs = []
    for i, p in enumerate(paths, 1):
        name = f"reading {Path(p).name} ({i}/{len(paths)})"
        tell(at=name)
        runs.append(read_facts(Path(p), schema_of, reading(name)))
    charts = plots(runs, lambda i, n, what: tell(at=f"plot {i}/{n}: {what}"))
    from ..engine import render

    tell(at="writing report.html")
    page = out / "report.html"
    write_bytes(page, html_page(runs, charts).encode("utf-8"))
    options = PrintOptions.parse(export="pdf")
    render([report_sheet(runs, charts, options.paper)], options, out, root=out, progress=progress)
    return [page, out / "report.pdf"], runs
