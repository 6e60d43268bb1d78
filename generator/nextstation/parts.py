"""Drawing parts shared by the Next Station faces and the map sheet: the symbols as vector
shapes, and one player's score card."""

from __future__ import annotations

import math

from generator.pen import Pen
from generator.sizes import Rect
from generator.theme import BOLD, INK, MIN_PT, PLAY_PT, WHITE
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.rules import JOKER, SWITCH


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


# -- the score pad ------------------------------------------------------------------------------
def score_card(pen: Pen, box: Rect, edition: Edition) -> None:
    """One player's score card: a row per pencil (districts x biggest district + Thames = line),
    the tourist track, interchanges (x2, x5, x9), objectives and the total. Rows spread over the
    box's height (a 2 x 2 page on A4 or Letter)."""
    book = edition.book
    pen.rect(box.x, box.y, box.w, box.h, stroke=INK, width=0.4, radius=2)
    x0, inner = box.x + 3, box.w - 6
    pencils = book.rules.pencils
    step = min(12.0, (box.h - 8) / (len(pencils) + 9.5))  # the vertical unit: a line row
    y = box.top - 3 - step * 0.7
    pen.text(x0, y, "Player:", font=BOLD, size=9, colour=INK, field="title")
    heads = ("Districts", "Biggest district", "Thames x2", "Line")
    ops = ("x", "+", "=")
    label_w = 22.0
    cell = (inner - label_w) / len(heads)
    y -= step
    for k, h in enumerate(heads):
        pen.text(x0 + label_w + (k + 0.5) * cell, y, h, size=PLAY_PT, colour=INK, align="centre", field="head")
    row_h = min(step, 9.0)
    for pencil in pencils:
        y -= step
        pen.circle(x0 + 2.5, y + row_h / 2, 2.0, fill=book.colours[pencil])
        pen.text(x0 + 6, y + row_h / 2 - 1.2, pencil.capitalize(), size=8, colour=INK, field="pencil")
        for k in range(len(heads)):
            pen.rect(x0 + label_w + k * cell + 2, y + 0.8, cell - 4, row_h - 1.6, fill=WHITE, stroke=INK, width=0.3)
            if k < len(ops):
                pen.text(x0 + label_w + (k + 1) * cell, y + row_h / 2 - 1.2, ops[k], font=BOLD, size=8, colour=INK,
                         align="centre", field="op")
    y -= step * 1.1
    pen.text_box(Rect(x0, y - 1.5, inner, 5), "Tourist sites: one circle per site on each line; "
                 "score the leftmost uncrossed one", size=PLAY_PT, min_size=MIN_PT, colour=INK, max_lines=1,
                 align="left", field="note")
    track = book.scores.tourist_track
    width = inner / len(track)
    radius = min(3.6, width / 2 - 0.4)
    y -= step * 0.9
    for k, pts in enumerate(track):
        cx = x0 + (k + 0.5) * width
        pen.circle(cx, y, radius, fill=WHITE, stroke=INK, width=0.4)
        pen.text(cx, y - 1.2, str(pts), font=BOLD, size=PLAY_PT, colour=INK, align="centre", field="track")
    y -= step * 1.2
    pen.text(x0, y, "Interchanges (stations on 2, 3, 4 of your lines):", font=BOLD, size=8, colour=INK, field="head")
    inter = [(k, v) for k, v in enumerate(book.scores.interchange) if v]
    group = inner / len(inter)
    y -= step * 0.9
    for j, (k, v) in enumerate(inter):
        ix = x0 + j * group
        pen.text(ix, y, f"{k} lines", size=PLAY_PT, colour=INK, field="head")
        pen.rect(ix + 10.5, y - 1.6, 7, 5.5, fill=WHITE, stroke=INK, width=0.3)
        pen.text(ix + 18.5, y, f"x{v}", font=BOLD, size=8, colour=INK, field="op")
    y -= step
    pen.text(x0, y, f"Objectives: +{book.rules.objective_points} each", size=8, colour=INK, field="head")
    for j in range(book.rules.objectives_drawn):
        pen.rect(x0 + 40 + j * 12, y - 1.6, 9, 5.5, fill=WHITE, stroke=INK, width=0.3)
    y -= step * 1.1
    pen.text(x0, y, "Total", font=BOLD, size=10, colour=INK, field="head")
    pen.rect(x0 + 16, y - 2.4, 30, 8, fill=WHITE, stroke=INK, width=0.6)
