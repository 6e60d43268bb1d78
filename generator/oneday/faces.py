"""One Day in London print faces: station cards, card back, rules card, rack sheet (the map sheet:
:mod:`generator.oneday.map`).

Every face draws the game's own objects (:class:`tubedeck.games.oneday.cards.StationCard`, the
:class:`~tubedeck.games.oneday.board.GameMap`); nothing about the game is restated here.
"""

from __future__ import annotations

from functools import partial

from generator.document import Card, Deck, Sheet
from generator.emblem import emblem
from generator.options import PrintOptions
from generator.pen import Pen
from generator.sizes import Rect
from generator.theme import BLUE, INK, PAPER, RED
from tubedeck.games.oneday.board import GameMap
from tubedeck.games.oneday.cards import StationCard
from tubedeck.games.oneday.edition import Edition

from .map import figures, map_page


def card_front(pen: Pen, card: StationCard, gmap: GameMap) -> None:
    """Name at the top, one band per line (before, line, after), copy mark at the foot."""
    t, s = pen.trim, pen.safe
    pen.background(PAPER)
    pen.rect(s.x, s.top - 2.2, s.w, 1.2, fill=RED)
    pen.text_box(Rect(s.x, s.top - 20, s.w, 17), card.name, font="sans-bold", size=15, min_size=7,
                 colour=INK, max_lines=3, field="name")
    n = len(card.bands)
    top, bottom = s.top - 23, s.y + 8
    band_h = min(9.0, (top - bottom - (n - 1) * 1.5) / n)
    y = top - band_h
    for band in card.bands:
        line = gmap.lines[band.line]
        pen.rect(t.x - 3, y, t.w + 6, band_h, fill=line.colour)
        text_box = Rect(s.x, y + 0.5, s.w, band_h - 1)
        pen.text_box(Rect(text_box.x, text_box.y, 9, text_box.h), str(band.before), font="sans-bold", size=11,
                     min_size=6, colour=line.text_colour, align="left", max_lines=1, field="before")
        pen.text_box(Rect(text_box.right - 9, text_box.y, 9, text_box.h), str(band.after), font="sans-bold",
                     size=11, min_size=6, colour=line.text_colour, align="right", max_lines=1, field="after")
        pen.text_box(Rect(text_box.x + 9, text_box.y, text_box.w - 18, text_box.h), line.name, font="sans-bold",
                     size=9, min_size=5, colour=line.text_colour, max_lines=2, field="line")
        y -= band_h + 1.5
    pen.text(s.right, s.y + 1, card.copy_mark, size=8, colour=INK, align="right", field="copy")
    pen.text(s.x, s.y + 1, "< before | after >", size=6, colour=INK, field="legend")


def card_back(pen: Pen, title: str = "One Day in London") -> None:
    t = pen.trim
    pen.background(BLUE)
    ring = RED if not pen.ink_saver else BLUE
    emblem(pen, t.w / 2, t.h / 2, min(t.w, t.h) * 0.3, ring, ring, title.upper())


def rules_front(pen: Pen, edition: Edition) -> None:
    gmap = edition.board
    s = pen.safe
    pen.background(PAPER)
    pen.text_box(Rect(s.x, s.top - 8, s.w, 8), gmap.recipe.name, font="sans-bold", size=11, min_size=7,
                 colour=INK, max_lines=1, field="title")
    text = "\n".join(f"\u2022 {r}" for r in gmap.recipe.texts("rules", **figures(edition)))
    pen.text_box(Rect(s.x, s.y, s.w, s.h - 9), text, size=7, min_size=4, colour=INK, align="left", valign="top",
                 field="rules")


def rack_page(pen: Pen, gmap: GameMap) -> None:
    s = pen.safe
    slots, players = gmap.recipe.slots, gmap.recipe.players_max
    pen.text(s.x, s.top - 6, f"{gmap.recipe.name}: racks (slot 1 is the start of the journey)", font="sans-bold",
             size=12, colour=INK)
    row_h = (s.h - 12) / players
    w = (s.w - 10) / slots
    for p in range(players):
        y = s.top - 12 - (p + 1) * row_h
        pen.text(s.x, y + row_h - 5, f"Player {p + 1}", font="sans-bold", size=9, colour=INK)
        for k in range(slots):
            x = s.x + 5 + k * w
            pen.rect(x + 1, y + 3, w - 2, row_h - 12, stroke=INK, width=0.3, radius=2)
            pen.text(x + w / 2, y + 5, str(k + 1), font="sans-bold", size=10, colour=INK, align="centre")
            if k < slots - 1:
                pen.text(x + w, y + row_h / 2, ">", size=9, colour=RED, align="centre")


def documents(edition: Edition, options: PrintOptions) -> list:
    """Every One Day in London print document of one edition: the deck, the rules card, the map
    and rack sheets."""
    gmap, deck = edition.board, edition.deck
    name = gmap.recipe.name
    back = partial(card_back, title=name)
    cards = [Card(c.id, partial(card_front, card=c, gmap=gmap), label=f"{c.name} {c.copy_mark}") for c in deck.cards]
    rules = Card("rules", partial(rules_front, edition=edition), label="rules summary")
    return [
        Deck("stations", cards, back=back, title=f"{name}: {len(cards)} station cards"),
        Deck("rules", [rules], back=back, title=f"{name}: rules summary"),
        Sheet("map", (partial(map_page, edition=edition),), title=f"{name}: map", landscape=True),
        Sheet("racks", (partial(rack_page, gmap=gmap),), title=f"{name}: racks", landscape=True),
    ]
