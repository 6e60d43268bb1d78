"""The map sheet of a generated Next Station map (never the classic board): the grid of stations
with their symbols and real names, the dotted potential sections, the Thames, the district boxes,
tourist sites, departure stations in their pencil colour, and the score card below, as the
published sheet carries it."""

from __future__ import annotations

import math

from generator.pen import Pen
from generator.sizes import Rect
from generator.text import measure
from generator.theme import BOLD, GREY, INK, MIN_PT, PAPER, PLAY_PT, TEXT, WHITE, short_line_name
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.rules import QUESTION_MARK

from .parts import score_card, symbol

RIVER = "#9CC9E8"
DISTRICT = "#FFF3C4"


def _river(splits: tuple[float, ...]) -> list[tuple[float, float]]:
    """(col, row) points of the drawn Thames, from the generated map's per-column splits."""
    if not splits:
        return []
    return [(-0.5, splits[0])] + [(c, t) for c, t in enumerate(splits)] + [(len(splits) - 0.5, splits[-1])]


def _fitting(name: str, box: Rect) -> str:
    """The name, else with its bracketed line shortened (H&C), else without the brackets, else
    with its longest word split by a hyphen (Knights-bridge) so that it wraps."""
    base, _, rest = name.partition(" (")
    inner = rest.rstrip(")")
    long = max(base.split(), key=len)
    split = base.replace(long, f"{long[:len(long) // 2 + 1]}-{long[len(long) // 2 + 1:]}", 1)
    for text in (name, f"{base} ({short_line_name(inner)})" if inner else name, base, split):
        if measure(text, TEXT, MIN_PT, MIN_PT, box.w, box.h, 2) is not None:
            return text
    return split


def map_page(pen: Pen, edition: Edition, page: int = 0) -> None:
    made = edition.sheet_maps[page]
    board = made.board
    s = pen.safe
    book = edition.book
    title = f"{book.texts['title']} - {board.title}, map {made.seed}"
    pen.text_box(Rect(s.x, s.top - 7, s.w, 7), title, font=BOLD, size=12, min_size=PLAY_PT, colour=INK,
                 max_lines=1, align="left", field="title")
    card_h = 86.0
    side = min(s.w, s.h - 9 - card_h - 3)
    step = side / board.cols
    x0 = s.x + (s.w - side) / 2
    y0 = s.top - 9  # top of the grid

    def at(row: float, col: float) -> tuple[float, float]:
        return x0 + (col + 0.5) * step, y0 - (row + 0.5) * step

    for d in board.districts:  # district boxes
        if d.kind != "main":
            continue
        left, top = x0 + d.cols[0] * step + 0.8, y0 - d.rows[0] * step - 0.8
        w, h = (d.cols[1] - d.cols[0] + 1) * step - 1.6, (d.rows[1] - d.rows[0] + 1) * step - 1.6
        pen.rect(left, top - h, w, h, fill=DISTRICT, stroke="#C9A227", width=0.4, radius=2)
    river = _river(made.river)
    if river:
        pen.polyline([at(r, c) for c, r in river], stroke=RIVER, width=step * 0.28)
    for sec in board.sections:  # the dotted potential sections
        a, b = board.by_id[sec.a], board.by_id[sec.b]
        pen.line(*at(a.row, a.col), *at(b.row, b.col), stroke=GREY, width=0.3, dash=[0.6, 1.0])
    r = step * 0.2
    for st in board.stations:
        cx, cy = at(st.row, st.col)
        if st.tourist:  # compass points round a tourist site
            for k in range(8):
                ang = math.radians(k * 45)
                pen.line(cx + math.cos(ang) * r * 1.15, cy + math.sin(ang) * r * 1.15,
                         cx + math.cos(ang) * r * 1.6, cy + math.sin(ang) * r * 1.6, stroke=INK, width=0.5)
        fill = book.colours[st.departure] if st.departure else WHITE
        if st.symbol == QUESTION_MARK:
            pen.circle(cx, cy, r, fill=fill, stroke=INK, width=0.5)
            pen.text(cx, cy - 1.4, "?", font=BOLD, size=10, colour=INK, align="centre", field="symbol")
        else:
            pen.circle(cx, cy, r * 1.05, fill=WHITE) if not st.departure else None
            symbol(pen, st.symbol, cx, cy, r * 1.2, INK, fill=fill)
        label = Rect(cx - step / 2 + 0.5, cy - r * 1.7 - 6.2, step - 1.0, 6.0)
        pen.rect(label.x, label.y, label.w, label.h, fill=PAPER)
        pen.text_box(label, _fitting(st.name or st.id, label), size=MIN_PT, min_size=MIN_PT, colour=INK,
                     max_lines=2, valign="top", field="name")
    score_card(pen, Rect(s.x, s.y, s.w, card_h), edition)
