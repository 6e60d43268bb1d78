"""``tubedeck report``: results files of any game as a self-contained HTML page and a PDF.

The page has each run's header (game, edition, options, seeds, engine, time limit), the
headline figures with 95% intervals (:mod:`.facts`) and the plots (:mod:`.plots`, matplotlib).
The HTML fetches nothing: styles inline, plots as inline SVG. The PDF goes through the print
engine (an A4 :class:`~tubedeck.generator.document.Pages`, plots placed as 200-dpi PNGs), so it carries the
engine's fonts, ruler and print settings like every other sheet.
"""

from __future__ import annotations

import html
from pathlib import Path

from tubedeck.atomic import write_bytes
from tubedeck.errors import UsageError

from ..document import Pages
from ..options import PrintOptions
from .facts import Facts, SchemaOf, read_facts
from .plots import Plot, plots

MAX_FILES = 12
TITLE = "tubedeck report"


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def header_rows(f: Facts) -> list[tuple[str, str]]:
    return [("file", f.path.name)] + [(k, _words(v)[:200]) for k, v in sorted(f.header.items())]


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


def _lines(pen, x: float, y: float, rows: list[tuple[str, str]], bottom: float) -> float:
    for k, v in rows:
        if y < bottom:
            break
        pen.text(x, y, k[:60], size=8, field="figure")
        pen.text(x + 75, y, v[:70], size=8, field="value")
        y -= 4.2
    return y


def _figures_page(r: Facts, title: str):
    def figures(pen):
        top = pen.safe.top - 8
        pen.text(pen.safe.x + 4, top, title[:90], size=11, field="title")
        y = _lines(pen, pen.safe.x + 4, top - 10, header_rows(r), pen.safe.y + 150)
        _lines(pen, pen.safe.x + 4, y - 6, r.headline(), pen.safe.y + 20)
    return figures


def facts_sheet(results: Path, schema_of: SchemaOf) -> Pages:
    """``build GAME --facts``: one page of a results file's run and headline figures."""
    r = read_facts(results, schema_of)
    return Pages("deck-facts", (_figures_page(r, f"Deck facts: {r.label}"),), title="Deck facts")


def report_sheet(runs: list[Facts], charts: list[Plot]) -> Pages:
    """An A4 sheet: a page of figures per file, then two plots per page."""
    pages = [_figures_page(r, f"{TITLE}, file {i}: {r.label}") for i, r in enumerate(runs, 1)]
    for k in range(0, len(charts), 2):
        def two(pen, pair=charts[k:k + 2]):
            top = pen.safe.top - 8
            for j, c in enumerate(pair):
                y = top - j * 125
                pen.text(pen.safe.x + 4, y, c.title, size=10, field="title")
                w = pen.safe.w - 8
                h = min(108.0, w * 0.45)
                pen.image(pen.safe.x + 4, y - 4 - h, w, h, c.png)
        pages.append(two)
    return Pages("report", tuple(pages), title=TITLE)


def write_report(paths: list[Path], out: Path, schema_of: SchemaOf) -> tuple[list[Path], list[Facts]]:
    """Fold every results file by its declared record (``schema_of(header)``), draw the plots
    once, write ``report.html`` and ``report.pdf``; returns the files written and the folds."""
    if not paths:
        raise UsageError("report needs at least one results file")
    if len(paths) > MAX_FILES:
        raise UsageError(f"report compares at most {MAX_FILES} results files, got {len(paths)}")
    runs = [read_facts(Path(p), schema_of) for p in paths]
    charts = plots(runs)
    from ..engine import render

    page = out / "report.html"
    write_bytes(page, html_page(runs, charts).encode("utf-8"))
    render([report_sheet(runs, charts)], PrintOptions.parse(export="pdf"), out, root=out)
    return [page, out / "report.pdf"], runs
