"""Drawing parts shared by the Next Station faces and the map sheet: the symbols as vector
shapes, and one player's score card."""

from __future__ import annotations

import math

from tubedeck.errors import DataError, Problem
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.rules import JOKER, SWITCH
from tubedeck.generator.fonts import text_width
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.text import measure
from tubedeck.generator.theme import BOLD, INK, PLAY_PT, TEXT, WHITE


# -- symbols, drawn as vector shapes ----------------------------------------------------------
def _regular(cx: float, cy: float, r: float, n: int, turn: float = 90.0) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(turn + k * 360 / n)), cy + r * math.sin(math.radians(turn + k * 360 / n)))
            for k in range(n)]


def symbol(pen: Pen, face: str, cx: float, cy: float, r: float, colour: str = INK, fill: str | None = None) -> None:
    """One map symbol (or the Joker / Railroad Switch mark) fitting a circle of radius ``r``."""
    w = max(0.5, r * 0.16)
    if face == "circle":
        pen.circle(cx, cy, r * 0.82, fill=fill, stroke=colour, width=w)
    elif face == "square":
        a = r * 0.72
        pen.rect(cx - a, cy - a, 2 * a, 2 * a, fill=fill, stroke=colour, width=w)
    elif face == "triangle":
        pen.polygon(_regular(cx, cy - r * 0.12, r * 0.95, 3), fill=fill, stroke=colour, width=w)
    elif face == "pentagon":
        pen.polygon(_regular(cx, cy, r * 0.88, 5), fill=fill, stroke=colour, width=w)
    elif face == JOKER:  # the four symbols in a 2 x 2: any of them
        q = r * 0.46
        for k, sym in enumerate(("circle", "square", "triangle", "pentagon")):
            symbol(pen, sym, cx + (-q if k % 2 == 0 else q), cy + (q if k < 2 else -q), q * 0.95, colour, fill)
    elif face == SWITCH:  # a track that forks: one line in, two out
        pen.line(cx - r * 0.9, cy, cx - r * 0.1, cy, stroke=colour, width=w * 1.4)
        pen.polyline([(cx - r * 0.1, cy), (cx + r * 0.8, cy + r * 0.6)], stroke=colour, width=w * 1.4)
        pen.polyline([(cx - r * 0.1, cy), (cx + r * 0.8, cy - r * 0.6)], stroke=colour, width=w * 1.4)
        pen.circle(cx - r * 0.1, cy, r * 0.16, fill=colour)
    else:
        raise ValueError(f"no drawing for symbol {face!r}")


# -- pencil marks -------------------------------------------------------------------------------
def pencil_marks(book) -> dict[str, str]:
    """Each pencil's mark (``mark_<pencil>`` in ``rules.toml`` ``[text]``: G, Pk, Pu, B): printed
    on its departure station, its score card row, its pencil card and the challenge page, so a
    black-and-white print tells the departures apart (their colours print as one grey).
    DataError when a mark is missing or two are alike."""
    marks = {p: book.texts.get(f"mark_{p}") for p in book.rules.pencils}
    problems = [Problem("rules.toml", None, f"text.mark_{p}", "missing or empty: every pencil needs a mark")
                for p, m in marks.items() if not isinstance(m, str) or not m.strip()]
    seen = [m for m in marks.values() if isinstance(m, str)]
    if not problems and len(set(seen)) < len(seen):
        problems.append(Problem("rules.toml", None, "text.mark_green", f"pencil marks must differ, got {seen}"))
    if problems:
        raise DataError(problems)
    return {p: str(m) for p, m in marks.items()}


MARK_PAD = 0.8  # mm of a mark's pill on either side of its letters


def mark_size(book, pencil: str, size: float = PLAY_PT) -> tuple[float, float]:
    """(width, height) in mm of :func:`mark`'s pill."""
    return text_width(pencil_marks(book)[pencil], BOLD, size) + 2 * MARK_PAD, size * CAP + 2 * MARK_PAD


def mark(pen: Pen, book, pencil: str, cx: float, cy: float, size: float = PLAY_PT) -> float:
    """A pencil's mark: its letters, bold, on a pill of the pencil's colour (outlined, so an
    ink-saver tint still shows its edge); returns the pill's width."""
    colour = book.colours[pencil]
    w, h = mark_size(book, pencil, size)
    pen.rect(cx - w / 2, cy - h / 2, w, h, fill=colour, stroke=INK, width=0.25, radius=h / 2)
    pen.text(cx, cy - size * CAP / 2, pencil_marks(book)[pencil], font=BOLD, size=size,
             colour=pen.text_on(colour, WHITE), align="centre", field="mark")
    return w


# -- the score pad ------------------------------------------------------------------------------
# The card's rows, top to bottom, in row units: each row owns a band of the box's height and draws
# only inside it, so no field can run into the next one whatever the box's height.
BANDS = (("title", 1.0), ("heads", 1.4), ("pencils", None), ("note", None), ("track", 1.4),
         ("inter_head", 1.1), ("inter", 1.1), ("objectives", 1.2), ("total", 1.6))
PENCIL_ROW = 1.3  # units per pencil's row: its boxes are written in
NOTE = "Tourist sites: one circle per site on each line; score the leftmost uncrossed one"
CAP = 0.7 * 0.3528  # mm of cap height per pt: a line of text sits centred on this


def _bands(box: Rect, pencils: int) -> dict[str, Rect]:
    """Each row's band (pencils: one band holding a row per pencil; the note one line or two),
    spread over the box."""
    one_line = measure(NOTE, TEXT, PLAY_PT, PLAY_PT, box.w - 6, max_lines=1) is not None
    sized = {"pencils": pencils * PENCIL_ROW, "note": 1.1 if one_line else 1.8}
    units = [(name, sized[name] if u is None else u) for name, u in BANDS]
    step = min(12.0, (box.h - 6) / sum(u for _, u in units))
    out, top = {}, box.top - 3
    for name, u in units:
        out[name] = Rect(box.x + 3, top - u * step, box.w - 6, u * step)
        top -= u * step
    return out


def _baseline(band: Rect, size: float) -> float:
    return band.y + (band.h - size * CAP) / 2


def _field(pen: Pen, x: float, band: Rect, w: float, h: float = 6.0, width: float = 0.3) -> None:
    """A white box to write in, centred in its band's height (0.6 mm clear above and below)."""
    h = min(h, band.h - 1.2)
    pen.rect(x, band.y + (band.h - h) / 2, w, h, fill=WHITE, stroke=INK, width=width)


def score_card(pen: Pen, box: Rect, edition: Edition) -> None:
    """One player's score card: a row per pencil (districts x biggest district + Thames = line),
    the tourist track, interchanges (x2, x5, x9), objectives and the total. Rows spread over the
    box's height (a 2 x 2 page on A4 or Letter)."""
    book = edition.book
    pen.rect(box.x, box.y, box.w, box.h, stroke=INK, width=0.4, radius=2)
    pencils = book.rules.pencils
    band = _bands(box, len(pencils))
    x0, inner = band["title"].x, band["title"].w
    pen.text(x0, _baseline(band["title"], 9), "Player:", font=BOLD, size=9, colour=INK, field="title")
    heads = ("Districts", "Biggest district", book.texts["score_thames"], "Line")
    ops = ("x", "+", "=")
    label_w = 22.0
    cell = (inner - label_w) / len(heads)
    hb = band["heads"]
    for k, h in enumerate(heads):  # wraps to two lines rather than run past its column
        pen.text_box(Rect(x0 + label_w + k * cell + 2, hb.y, cell - 4, hb.h), h, size=PLAY_PT, min_size=PLAY_PT,
                     colour=INK, max_lines=2, valign="bottom", field="head")
    rows = band["pencils"]
    unit = rows.h / len(pencils)
    widest = max(mark_size(book, p)[0] for p in pencils)
    for i, pencil in enumerate(pencils):
        row = Rect(rows.x, rows.top - (i + 1) * unit, rows.w, unit)
        mid = row.y + row.h / 2
        mark(pen, book, pencil, x0 + widest / 2, mid)  # its departure's mark
        pen.text(x0 + widest + 1.2, _baseline(row, 8), pencil.capitalize(), size=8, colour=INK, field="pencil")
        for k in range(len(heads)):
            _field(pen, x0 + label_w + k * cell + 2, row, cell - 4, 7.4)
            if k < len(ops):
                pen.text(x0 + label_w + (k + 1) * cell, _baseline(row, 8), ops[k], font=BOLD, size=8, colour=INK,
                         align="centre", field="op")
    pen.text_box(band["note"], NOTE, size=PLAY_PT, min_size=PLAY_PT, colour=INK, max_lines=2, align="left",
                 field="note")
    track = book.scores.tourist_track
    tb = band["track"]
    width = inner / len(track)
    radius = min(3.6, width / 2 - 0.4, tb.h / 2 - 0.4)
    for k, pts in enumerate(track):
        cx = x0 + (k + 0.5) * width
        pen.circle(cx, tb.y + tb.h / 2, radius, fill=WHITE, stroke=INK, width=0.4)
        pen.text(cx, _baseline(tb, PLAY_PT), str(pts), font=BOLD, size=PLAY_PT, colour=INK, align="centre",
                 field="track")
    pen.text(x0, _baseline(band["inter_head"], 8), "Interchanges (stations on 2, 3, 4 of your lines):", font=BOLD,
             size=8, colour=INK, field="head")
    inter = [(k, v) for k, v in enumerate(book.scores.interchange) if v]
    group = inner / len(inter)
    ib = band["inter"]
    for j, (k, v) in enumerate(inter):
        ix = x0 + j * group
        pen.text(ix, _baseline(ib, PLAY_PT), f"{k} lines", size=PLAY_PT, colour=INK, field="head")
        _field(pen, ix + 10.5, ib, 7)
        pen.text(ix + 18.5, _baseline(ib, 8), f"x{v}", font=BOLD, size=8, colour=INK, field="op")
    ob = band["objectives"]
    text = f"Objectives: +{book.rules.objective_points} each"
    pen.text(x0, _baseline(ob, 8), text, size=8, colour=INK, field="head")
    left = x0 + text_width(text, TEXT, 8) + 3
    for j in range(book.rules.objectives_drawn):
        _field(pen, left + j * 12, ob, 9)
    total = band["total"]
    pen.text(x0, _baseline(total, 10), "Total", font=BOLD, size=10, colour=INK, field="head")
    _field(pen, x0 + 16, total, 30, 8, width=0.6)
