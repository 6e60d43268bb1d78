"""The ground cards as fold-over sheets, in every build (``--fold`` does the same for every deck):
each card's side A and side B side by side, cut round the pair, fold on the dashed line, glue.

The faces are the very ones the duplex deck prints: :class:`PlacedPen` hands each face a card's
own coordinates (origin at the card's bottom-left) on the sheet page, through the Pen's public
drawing calls only. A vertical fold turns side B over like a book page, so it is drawn upright.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Iterator

from generator.document import Sheet
from generator.options import PrintOptions
from generator.pen import DRIFT, Pen
from generator.sizes import Rect
from generator.theme import BOLD, INK, MUTED
from tubedeck.games.keepmoving.cards import GroundCard
from tubedeck.games.keepmoving.edition import Edition

SAFE = 4.0  # mm: a card's safe area inside its trim, as the engine's cards have it
GAP = 4.0  # mm between pairs: each pair is cut out on its own


class PlacedPen:
    """A card-sized window on a page pen: the drawing calls a face makes, moved by (dx, dy)."""

    def __init__(self, page: Pen, dx: float, dy: float, w: float, h: float, label: str):
        self._page, self._dx, self._dy = page, dx, dy
        self.trim = self.bleed_box = Rect(0, 0, w, h)
        self.safe = self.trim.inset(SAFE)
        self.art_box = self.trim.inset(DRIFT)
        self.mode, self.label = page.mode, label

    @property
    def ink_saver(self) -> bool:
        return self._page.ink_saver

    def _pts(self, points):
        return [(x + self._dx, y + self._dy) for x, y in points]

    def text_on(self, fill, colour=None):
        return self._page.text_on(fill, colour)

    def background(self, fill) -> None:
        if not self.ink_saver:
            b = self.art_box
            self.rect(b.x, b.y, b.w, b.h, fill=fill, radius=2.0)

    def rect(self, x, y, w, h, **kw) -> None:
        self._page.rect(x + self._dx, y + self._dy, w, h, **kw)

    def line(self, x1, y1, x2, y2, **kw) -> None:
        self._page.line(x1 + self._dx, y1 + self._dy, x2 + self._dx, y2 + self._dy, **kw)

    def polyline(self, points, **kw) -> None:
        self._page.polyline(self._pts(points), **kw)

    def polygon(self, points, **kw) -> None:
        self._page.polygon(self._pts(points), **kw)

    def circle(self, cx, cy, r, **kw) -> None:
        self._page.circle(cx + self._dx, cy + self._dy, r, **kw)

    def text(self, x, y, text, **kw) -> None:
        self._page.text(x + self._dx, y + self._dy, text, **kw)

    def text_box(self, box: Rect, text: str, **kw):
        return self._page.text_box(box.moved(self._dx, self._dy), text, **kw)

    @contextlib.contextmanager
    def clip(self, box: Rect | None = None) -> Iterator["PlacedPen"]:
        with self._page.clip((box or self.bleed_box).moved(self._dx, self._dy)):
            yield self


def fold_page(pen: Pen, cards: tuple[GroundCard, ...], w: float, h: float, title: str, face) -> None:
    s = pen.safe
    pen.text_box(Rect(s.x, s.top - 9, s.w, 9), f"{title}: cut round each pair, fold on the dashed line, glue. "
                 "Side A left, side B right.", font=BOLD, size=9, min_size=7, colour=INK, align="left",
                 max_lines=2, field="title")
    x0 = s.x + (s.w - 2 * w) / 2
    for k, card in enumerate(cards):
        y = s.top - 11 - (k + 1) * h - k * GAP
        for side in (0, 1):
            face(PlacedPen(pen, x0 + side * w, y, w, h, f"ground-fold/{card.id} side {'AB'[side]}"),
                 card=card, side=side)
        pen.rect(x0, y, 2 * w, h, stroke=INK, width=0.3)
        pen.line(x0 + w, y, x0 + w, y + h, stroke=MUTED, width=0.3, dash=[1.5, 1.0])


def fold_sheet(edition: Edition, options: PrintOptions, face) -> Sheet:
    """As many pairs a page as fit the printable height (a landscape page when a pair is wider
    than a portrait one allows)."""
    w, h = options.card.width, options.card.height
    landscape = 2 * w > 190
    long, short = max(options.paper.width, options.paper.height), min(options.paper.width, options.paper.height)
    page_h = (short if landscape else long) - 2 * 6.35 - 10 - 11  # margins, ruler strip, title
    per = max(1, int((page_h + GAP) // (h + GAP)))
    cards = edition.ground
    pages = tuple(partial(fold_page, cards=cards[i:i + per], w=w, h=h, title=f"{edition.texts.title} ground cards",
                          face=face) for i in range(0, len(cards), per))
    return Sheet("ground-fold", pages, title=f"{edition.texts.title}: ground cards, fold-over", landscape=landscape)
