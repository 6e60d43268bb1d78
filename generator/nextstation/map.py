"""The map sheet of a generated Next Station map (never the classic board): the grid of stations
with their symbols and real names, the dotted potential sections, the Thames, the district boxes,
tourist sites, departure stations in their pencil colour, and the score card below, as the
published sheet carries it."""

from __future__ import annotations

import math

from generator.pen import Pen
from generator.sizes import Rect
from generator.text import measure
from generator.theme import BOLD, GREY, INK, MIN_PT, PLAY_PT, TEXT, WHITE, short_line_name
from tubedeck.games.nextstation.board import row_label
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.generate import STATION_AT, river_path
from tubedeck.games.nextstation.rules import QUESTION_MARK

from .parts import score_card, symbol

RIVER = "#9CC9E8"
DISTRICT = "#FFF3C4"
CORNER = "#FCE3A0"  # a corner district: its own, darker box


RIVER_W = 0.12  # the Thames's width, in cells (it runs along tubedeck's river_path)
SYMBOL_R = 0.17  # a station's circle, in cells (its symbol is drawn 1.2 times that)
TOURIST_R = 1.7 * SYMBOL_R  # to the tips of a tourist site's compass points


ABBREVIATIONS = {"Station": "Stn", "Street": "St", "Road": "Rd", "Junction": "Jn", "Broadway": "Bdwy"}


def _fitting(name: str, box: Rect) -> str:
    """The name, else with its bracketed line shortened (H&C), else without the brackets, else
    with the Tube map's abbreviations (Stn, St, Rd), else with its longest word split by a hyphen
    (Knights-bridge) so that it wraps, else with its long words cut to 4 letters and a full stop
    from the longest on (Heathrow Term. 2 & 3), else cut short with an ellipsis: any name in any
    city's data fits its box."""
    base, _, rest = name.partition(" (")
    inner = rest.rstrip(")")
    short = " ".join(ABBREVIATIONS.get(w, w) for w in base.split())

    def fits(text: str) -> bool:
        return measure(text, TEXT, MIN_PT, MIN_PT, box.w, box.h, 2) is not None

    def split(text: str) -> str:
        long = max(text.split(), key=len)
        return text.replace(long, f"{long[:len(long) // 2 + 1]}-{long[len(long) // 2 + 1:]}", 1)

    tries = (name, f"{base} ({short_line_name(inner)})" if inner else name, base, short, split(base), split(short))
    for text in tries:
        if fits(text):
            return text
    words = short.split()
    for k in sorted(range(len(words)), key=lambda k: -len(words[k])):
        if len(words[k]) > 5:
            words[k] = words[k][:4] + "."
            if fits(" ".join(words)):
                return " ".join(words)
    text = " ".join(words)
    while len(text) > 1 and not fits(text + "\u2026"):
        text = text[:-1].rstrip()
    return text + "\u2026"


# Where a station sits in its cell (fractions of the cell from its top): the symbol high, its
# name in the free lower part, so a name stays inside its own cell (and district box).
SYMBOL_AT = STATION_AT  # the symbol's centre below the cell's top (where sections are scored from)
NAME_AT = 0.6  # the name's top below the cell's top
INSET = 0.8  # mm between a district box and its cells' edges
CARD_H = 72.0  # mm of the score card below the map
LABEL = 4.0  # mm beside and above the grid for its coordinates (row letters, column numbers)


def _acceptance(made) -> str:
    """Why this map was accepted: its par beside the classic's, and the candidates refused."""
    fig = made.figures
    text = f"par {fig['par']:g} (classic {fig['classic_par']:g}); candidate {made.tries}"
    if made.rejected:
        text += f": {len(made.rejected)} refused for " + ", ".join(sorted({why.split()[0] for why in made.rejected}))
    return text


def map_page(pen: Pen, edition: Edition, page: int = 0) -> None:
    made = edition.sheet_maps[page]
    board = made.board
    s = pen.safe
    book = edition.book
    title = f"{book.texts['title']} - {board.title}, map {made.seed}"
    note_w = 62.0
    pen.text_box(Rect(s.x, s.top - 7, s.w - note_w, 7), title, font=BOLD, size=12, min_size=PLAY_PT, colour=INK,
                 max_lines=1, align="left", field="title")
    pen.text_box(Rect(s.x + s.w - note_w, s.top - 7, note_w, 7), _acceptance(made), size=PLAY_PT, min_size=PLAY_PT,
                 colour=INK, max_lines=2, align="right", field="acceptance")
    side = min(s.w - 2 * LABEL, s.h - 9 - LABEL - CARD_H - 3)
    step = side / board.cols
    x0 = s.x + (s.w - side) / 2
    y0 = s.top - 9 - LABEL  # top of the grid

    def at(row: float, col: float) -> tuple[float, float]:
        return x0 + (col + 0.5) * step, y0 - (row + SYMBOL_AT) * step

    # District boxes: the main ones, then the corner districts (one cell each) as their own boxes
    # inside them, darker, as the published map marks them.
    for d in sorted(board.districts, key=lambda d: d.kind != "main"):
        corner = d.kind != "main"
        inset = INSET * (2.2 if corner else 1)
        left, top = x0 + d.cols[0] * step + inset, y0 - d.rows[0] * step - inset
        w, h = (d.cols[1] - d.cols[0] + 1) * step - 2 * inset, (d.rows[1] - d.rows[0] + 1) * step - 2 * inset
        pen.rect(left, top - h, w, h, fill=CORNER if corner else DISTRICT, stroke="#C9A227",
                 width=0.8 if corner else 0.4, radius=2)
    river = river_path(made.river)
    if river:  # between the rows it splits, over the line between their cells, under the names
        pen.polyline([(x0 + x * step, y0 - y * step) for x, y in river], stroke=RIVER, width=step * RIVER_W)
    for sec in board.sections:  # the dotted potential sections
        a, b = board.by_id[sec.a], board.by_id[sec.b]
        pen.line(*at(a.row, a.col), *at(b.row, b.col), stroke=GREY, width=0.3, dash=[0.6, 1.0])
    r = step * SYMBOL_R
    for st in board.stations:
        cx, cy = at(st.row, st.col)
        if st.tourist:  # compass points round a tourist site
            for k in range(8):
                ang = math.radians(k * 45)
                pen.line(cx + math.cos(ang) * r * 1.3, cy + math.sin(ang) * r * 1.3,
                         cx + math.cos(ang) * step * TOURIST_R, cy + math.sin(ang) * step * TOURIST_R, stroke=INK, width=0.5)
        fill = book.colours[st.departure] if st.departure else WHITE
        if st.symbol == QUESTION_MARK:
            pen.circle(cx, cy, r, fill=fill, stroke=INK, width=0.5)
            pen.text(cx, cy - 1.4, "?", font=BOLD, size=10, colour=INK, align="centre", field="symbol")
        else:
            pen.circle(cx, cy, r * 1.05, fill=WHITE) if not st.departure else None
            symbol(pen, st.symbol, cx, cy, r * 1.2, INK, fill=fill)
    for st in board.stations:  # names last and without a plate: sections and the Thames show through
        cx = x0 + (st.col + 0.5) * step
        top = y0 - (st.row + NAME_AT) * step
        bottom = y0 - (st.row + 1) * step + INSET + 0.6
        label = Rect(cx - step / 2 + INSET + 0.6, bottom, step - 2 * (INSET + 0.6), top - bottom)
        pen.text_box(label, _fitting(st.name or st.id, label), size=MIN_PT, min_size=MIN_PT, colour=INK,
                     max_lines=2, valign="top", field="name")
    for k in range(board.rows):  # the coordinates the challenge page and solve use: A-J, 1-10
        y = y0 - (k + 0.5) * step - 1.0
        pen.text(x0 - LABEL / 2, y, row_label(k), font=BOLD, size=PLAY_PT, colour=INK, align="centre",
                 field="coordinate")
        pen.text(x0 + side + LABEL / 2, y, row_label(k), font=BOLD, size=PLAY_PT, colour=INK, align="centre",
                 field="coordinate")
    for k in range(board.cols):
        pen.text(x0 + (k + 0.5) * step, y0 + 1.0, str(k + 1), font=BOLD, size=PLAY_PT, colour=INK,
                 align="centre", field="coordinate")
    score_card(pen, Rect(s.x, s.y, s.w, CARD_H), edition)
