"""The solo challenge page (``build nextstation --challenge S``): seed S's solo deal round by round
(pencil, departure, and every card flipped up to the round's end, drawn as the Station cards draw
them), a score box, and below a fold line an answer strip printed upside down: the proven best
score (or, unproven, the best game found), one drawing that reaches it on a schematic grid of dots (coordinates only: no symbols, no
districts, so the classic board is never reprinted) and its moves as text. A seed with no row in
``data/nextstation/challenges.csv`` is answered as the sheet is made by the quick search, with
the command that searches longer.

It follows the map sheet's pages and is played on the first of them (page 1 of the file:
:func:`~tubedeck.games.nextstation.challenge.printed`; the classic board is never printed), which
its "Map:" line names as that page's title does; every text is
``data/nextstation/challenge.toml``'s, the cards and the deal are the edition's own objects.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from tubedeck.games.nextstation.board import row_label
from tubedeck.games.nextstation.challenge import Challenge, Flip, Round, make_challenge, printed
from tubedeck.games.nextstation.edition import Edition
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.text import fit
from tubedeck.generator.theme import BOLD, GREY, INK, MUTED, PLAY_PT, TEXT, WHITE

from .parts import mark, mark_size, pencil_marks, symbol

ROW, TALL, SWITCH = 6.0, 9.0, 11.5  # mm per flip row; one that also says the round ends; a Switch's
STRIP = 98.0  # mm of the fold-under answer strip at the foot of the page
DASHES = (None, (2.6, 1.0), (0.7, 0.8), (3.2, 0.9, 0.7, 0.9))  # per round: tells the lines apart in grey
LINE_W = 0.8


def coordinate(edition: Edition, station: str) -> str:
    """A station's grid label (:meth:`~tubedeck.games.nextstation.board.Board.coordinate`): D8."""
    return edition.board.coordinate(station)


def card_name(edition: Edition, ident: str, names: dict, decks: dict) -> str:
    """A card as players say it (``Underground Joker``), in the Station cards' own words
    (``names``, ``decks``: :mod:`.faces`'s, handed over so that this module does not import it)."""
    card = edition.book.card(ident)
    if card.switch:
        return names[card.face]
    return f"{decks[card.deck]} {names.get(card.face, card.face.capitalize())}"


def mini_card(pen: Pen, edition: Edition, ident: str, x: float, y: float, w: float, h: float) -> None:
    """A Station card in small: its deck's colour (Underground with the yellow band), the symbol on a white disc."""
    card, colours = edition.book.card(ident), edition.book.colours
    pen.rect(x, y, w, h, fill=colours[card.deck], radius=0.8)
    if card.underground:
        pen.rect(x, y + h * 0.42, w, h * 0.16, fill=colours["underground_band"])
    r = min(w, h) / 2 - 0.45
    pen.circle(x + w / 2, y + h / 2, r, fill=WHITE, stroke=INK, width=0.2)
    symbol(pen, card.face, x + w / 2, y + h / 2, r * 0.78)


# -- the challenge ------------------------------------------------------------------------------
def round_column(pen: Pen, edition: Edition, ch: Challenge, k: int, box: Rect, scale: float,
                 name: Callable[[str], str]) -> None:
    """One round: a band in the pencil's colour, its departure, then the flips top to bottom."""
    rnd: Round = ch.rounds[k]
    colour = edition.book.colours[rnd.pencil]
    pen.rect(box.x, box.top - 7, box.w, 7, fill=colour, radius=1.2)
    pen.text(box.x + 2, box.top - 4.9, f"Round {k + 1}: {rnd.pencil.capitalize()}", font=BOLD, size=9,
             colour=pen.text_on(colour, WHITE), field="round")
    w, h = mark_size(edition.book, rnd.pencil)  # the departure's mark, on a white halo (the band is its colour)
    pen.rect(box.right - 2 - w - 0.6, box.top - 3.5 - h / 2 - 0.6, w + 1.2, h + 1.2, fill=WHITE, radius=h / 2 + 0.6)
    mark(pen, edition.book, rnd.pencil, box.right - 2 - w / 2, box.top - 3.5)
    marks = pencil_marks(edition.book)
    start = f"{ch.text('departure', pencil=rnd.pencil, mark=marks[rnd.pencil])} ({coordinate(edition, rnd.departure)})"
    pen.text_box(Rect(box.x, box.top - 15.5, box.w, 8), start, size=PLAY_PT, min_size=PLAY_PT, colour=INK,
                 align="left", valign="middle", max_lines=2, field="departure")
    y = box.top - 16.5
    for flip in rnd.flips:
        y = flip_row(pen, edition, ch, flip, box.x, y, box.w, scale, name)
    pen.line(box.x, y, box.right, y, stroke=GREY, width=0.2)


def row_height(flip: Flip, scale: float = 1.0) -> float:
    return scale * (SWITCH if flip.turn is None else TALL if flip.last else ROW)


def flip_row(pen: Pen, edition: Edition, ch: Challenge, flip: Flip, x: float, top: float, w: float,
             scale: float, name: Callable[[str], str]) -> float:
    """One flipped card: its turn, the card in small and its name (a Switch: what it does);
    returns the row's bottom."""
    note = ""
    if flip.turn is None:
        note = ch.text("switch_ignored" if flip.ignored else "switch",
                       switch_ignored_turns=edition.rules.switch_ignored_turns)
    elif flip.last:
        note = ch.text("round_end", round_end=edition.rules.round_end)
    h = row_height(flip, scale)
    y = top - h
    pen.line(x, top, x + w, top, stroke=GREY, width=0.2)
    mid = top - ROW * scale / 2
    if flip.turn is not None:
        pen.text(x + 3, mid - 1.2, str(flip.turn), font=BOLD, size=9, colour=INK, align="centre", field="flip")
    mini_card(pen, edition, flip.card, x + 6.5, mid - 2.2, 6.4, 4.4)
    text = name(flip.card) if flip.turn is not None else note
    right = Rect(x + 14.5, y + 0.4, w - 15, h - 0.8)
    if flip.turn is None:
        beside = Rect(right.x, y + 0.4, right.w, mid + 2.4 - y - 0.4)  # its first line level with the card
        pen.text_box(beside, text, size=PLAY_PT, min_size=PLAY_PT, colour=INK, align="left", valign="top", max_lines=3,
                     field="flip")
        return y
    pen.text_box(Rect(right.x, mid - 2.2, right.w, 4.4), text, size=8,
                 min_size=PLAY_PT, colour=INK, align="left", max_lines=1, field="flip")
    if note:
        pen.text_box(Rect(x + 6.5, y + 0.3, w - 7, mid - 2.2 - y - 0.3), note, font=BOLD, size=PLAY_PT,
                     min_size=PLAY_PT, colour=INK, align="left", max_lines=1, field="flip")
    return y


def score_box(pen: Pen, edition: Edition, ch: Challenge, box: Rect) -> None:
    """Boxes to write in: each round's line, tourist track, interchanges, total."""
    pen.text(box.x, box.top - 3.5, ch.text("score"), font=BOLD, size=9, colour=INK, field="score")
    heads: list[tuple[str, str | None]] = [(f"Round {k + 1}", r.pencil) for k, r in enumerate(ch.rounds)]
    heads += [("Tourist", None), ("Interchanges", None), ("Total", None)]
    cell = box.w / len(heads)
    for i, (head, pencil) in enumerate(heads):
        x = box.x + i * cell
        w = mark_size(edition.book, pencil)[0] if pencil else 0.0
        if pencil:  # the round's pencil by its mark, as the map and the score card show it
            mark(pen, edition.book, pencil, x + 0.6 + w / 2, box.top - 7.4)
        pen.text(x + (w + 1.8 if pencil else 0.6), box.top - 8.4, head, size=PLAY_PT, colour=INK, field="score")
        last = i == len(heads) - 1
        pen.rect(x + 0.6, box.y, cell - 1.2, box.h - 11, fill=WHITE, stroke=INK, width=0.6 if last else 0.3)


def map_line(ch: Challenge, edition: Edition) -> str:
    """Which map the challenge is for, by the name its page's title prints."""
    made = edition.generated
    return ch.text(ch.kind, map=made.name if ch.kind == "generated" and made is not None else ch.map)


def challenge_page(pen: Pen, edition: Edition, ch: Challenge, name: Callable[[str], str]) -> None:
    s = pen.safe
    title = f"{edition.book.texts['title']} - {ch.text('title', seed=ch.seed)}"
    pen.text(s.x, s.top - 5, title, font=BOLD, size=13, colour=INK, field="title")
    pen.text_box(Rect(s.x, s.top - 11.5, s.w, 5), map_line(ch, edition), font=BOLD, size=9, min_size=PLAY_PT, colour=INK,
                 align="left", max_lines=1, field="map")
    how = pen.text_box(Rect(s.x, s.top - 26, s.w, 14), ch.text("how"), size=8, min_size=PLAY_PT, colour=INK,
                       align="left", valign="top", field="how")
    top = s.top - 12.5 - how.height - 3
    gap = 3.0
    w = (s.w - gap * (len(ch.rounds) - 1)) / len(ch.rounds)
    fold = s.y + STRIP
    rows = max(sum(row_height(f) for f in r.flips) for r in ch.rounds)
    scale = max(1.0, min(1.3, (top - 16.5 - (fold + 36)) / rows))  # fill the page, up to 1.3 x
    for k, r in enumerate(ch.rounds):
        h = 16.5 + sum(row_height(f, scale) for f in r.flips)
        round_column(pen, edition, ch, k, Rect(s.x + k * (w + gap), top - h, w, h), scale, name)
    score_box(pen, edition, ch, Rect(s.x, fold + 6, s.w, 24))
    pen.line(s.x - 2, fold, s.right + 2, fold, stroke=INK, width=0.3, dash=(2.0, 1.5))
    pen.text(s.x, fold + 1.4, ch.text("fold"), font=BOLD, size=PLAY_PT, colour=MUTED, field="note")
    answer_strip(pen, edition, ch, Rect(s.x, s.y, s.w, STRIP - 3))


# -- the answer strip, upside down --------------------------------------------------------------
class Upside:
    """Draws in a box turned half round (180 degrees): lay the strip out upright in ``box``'s own
    coordinates and it prints upside down, to read once folded under."""

    def __init__(self, pen: Pen, box: Rect):
        self.pen, self.box = pen, box

    def at(self, x: float, y: float) -> tuple[float, float]:
        return self.box.x + self.box.right - x, self.box.y + self.box.top - y

    def text(self, x: float, y: float, text: str, **kw) -> None:
        align = {"left": "left", "centre": "centre", "right": "right"}[kw.pop("align", "left")]
        self.pen.text(*self.at(x, y), text, angle=180, align=align, **kw)

    def line(self, a: tuple[float, float], b: tuple[float, float], **kw) -> None:
        self.pen.line(*self.at(*a), *self.at(*b), **kw)

    def circle(self, x: float, y: float, r: float, **kw) -> None:
        self.pen.circle(*self.at(x, y), r, **kw)

    def wrapped(self, box: Rect, text: str, size: float, **kw) -> float:
        """Text wrapped to ``box`` at ``size`` (never smaller); returns the y below it."""
        fitted = fit(text, kw.get("font", TEXT), size, size, box.w, box.h, field=kw.get("field", "text"))
        y = box.top - fitted.ascent
        for line in fitted.lines:
            self.text(box.x, y, line, size=fitted.size, **kw)
            y -= fitted.leading
        return y


def answer_strip(pen: Pen, edition: Edition, ch: Challenge, box: Rect) -> None:
    up = Upside(pen, box)
    head = f"{ch.text('title', seed=ch.seed)}: answer"
    up.text(box.x, box.top - 4, head, font=BOLD, size=9, colour=INK, field="answer")
    proven = ch.answer.status == "OPTIMAL"
    up.text(box.x, box.top - 10.5, ch.text("answer" if proven else "answer_found", score=ch.answer.score),
            font=BOLD, size=12, colour=INK, field="answer")
    credit = "credit" if proven else "credit_found" if ch.answer.bound is not None else "credit_searched"
    up.wrapped(Rect(box.x, box.top - 19, box.w, 6.5), ch.text(credit, bound=ch.answer.bound, command=ch.command),
               PLAY_PT, colour=MUTED, field="note")
    board = edition.board
    side = min(box.h - 30, 64.0)  # below the score and a credit of up to two lines
    grid = Rect(box.x + 6, box.y + 9, side, side)
    dot_grid(up, edition, ch, grid)
    key = ch.text("key", last_row=row_label(board.rows - 1), cols=board.cols)
    up.wrapped(Rect(box.x, box.y, box.w, 7), key, PLAY_PT, colour=INK, field="note")
    left = grid.right + 6
    w = (box.right - left) / len(ch.rounds)
    for k in range(len(ch.rounds)):
        moves_column(up, edition, ch, k, Rect(left + k * w, grid.y, w - 2, box.top - 19 - grid.y))


def dot_grid(up: Upside, edition: Edition, ch: Challenge, grid: Rect) -> None:
    """Every cell a dot, rows lettered, columns numbered; each round's line in its pencil's
    colour and dash, its departure ringed with the round's number."""
    board, colours = edition.board, edition.book.colours
    step = grid.w / max(board.rows, board.cols)

    def at(station: str) -> tuple[float, float]:
        st = board.by_id[station]
        return grid.x + (st.col + 0.5) * step, grid.top - (st.row + 0.5) * step

    for c in range(board.cols):
        up.text(grid.x + (c + 0.5) * step, grid.top + 1.2, str(c + 1), size=PLAY_PT, colour=INK, align="centre",
                field="coordinate")
    for r in range(board.rows):
        up.text(grid.x - 1.2, grid.top - (r + 0.5) * step - 1.0, row_label(r), size=PLAY_PT, colour=INK,
                align="right", field="coordinate")
        for c in range(board.cols):
            up.circle(grid.x + (c + 0.5) * step, grid.top - (r + 0.5) * step, 0.35, fill=GREY)
    for k, moves in enumerate(ch.answer.moves):
        colour = colours[ch.rounds[k].pencil]
        for m in moves:
            up.line(at(m.start), at(m.end), stroke=WHITE, width=LINE_W + 0.5)
            up.line(at(m.start), at(m.end), stroke=colour, width=LINE_W, dash=DASHES[k % len(DASHES)])
        for m in moves:
            for st in (m.start, m.end):
                up.circle(*at(st), 0.6, fill=INK)
    for k, rnd in enumerate(ch.rounds):
        x, y = at(rnd.departure)
        up.circle(x, y, 1.9, fill=WHITE, stroke=colours[rnd.pencil], width=0.6)
        up.text(x, y - 1.05, str(k + 1), font=BOLD, size=PLAY_PT, colour=INK, align="centre", field="move")


def moves_column(up: Upside, edition: Edition, ch: Challenge, k: int, box: Rect) -> None:
    """A round's moves: a sample of its line (colour and dash), then ``turn T: C4 -> D5`` lines."""
    rnd = ch.rounds[k]
    colour = edition.book.colours[rnd.pencil]
    up.text(box.x, box.top - 2.8, f"Round {k + 1}: {rnd.pencil.capitalize()}", font=BOLD, size=7.5,
            colour=INK, field="move")
    up.line((box.x, box.top - 5.0), (box.x + 14, box.top - 5.0), stroke=WHITE, width=LINE_W + 0.5)
    up.line((box.x, box.top - 5.0), (box.x + 14, box.top - 5.0), stroke=colour, width=LINE_W,
            dash=DASHES[k % len(DASHES)])
    moves = ch.answer.moves[k]
    step = min(3.4, (box.h - 9) / max(1, len(moves)))
    for i, m in enumerate(moves):
        text = f"turn {m.turn}: {coordinate(edition, m.start)} -> {coordinate(edition, m.end)}"
        up.text(box.x, box.top - 9.0 - i * step, text, size=PLAY_PT, colour=INK, field="move")
    if not moves:
        up.text(box.x, box.top - 9.0, "no section", size=PLAY_PT, colour=INK, field="move")


def challenge_pages(edition: Edition, names: dict, decks: dict, challenge: Challenge | None = None) -> tuple:
    """The page ``documents`` adds after the map sheet for ``--challenge S`` (none without it).
    The challenge and its answer are read here, before anything is drawn, so a bad row of
    challenges.csv stops the build with its DataError (exit 2)."""
    if challenge is None and edition.challenge is None:
        return ()
    ch = challenge or make_challenge(edition)
    played = printed(edition)  # the first map of the file: the one the challenge is for
    return (partial(challenge_page, edition=played, ch=ch,
                    name=partial(card_name, played, names=names, decks=decks)),)
