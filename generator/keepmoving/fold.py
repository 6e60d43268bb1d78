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

from tubedeck.games.keepmoving.cards import GroundCard
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.generator.document import Pages
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import DRIFT, Pen
from tubedeck.generator.ruler import sheet_safe
from tubedeck.generator.sizes import Rect
from tubedeck.generator.theme import BOLD, INK, MUTED

SAFE = 4.0  # mm: a card's safe area inside its trim, as the engine's cards have it
GAP = 4.0  # mm between pairs: each pair is cut out on its own
TITLE = 5.0  # mm: the one-line title and the space under it


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


def fold_page(pen: Pen, cards: tuple[GroundCard, ...], w: float, h: float, cols: int, title: str, face,
              first: int = 1) -> None:
    """``cards`` in pairs of sides; ``first``: the first card's number in the ground composition."""
    s = pen.safe
    pen.text_box(Rect(s.x, s.top - TITLE + 0.5, s.w, TITLE - 0.5), f"{title}: cut round each pair, fold on the "
                 "dashed line, glue. A on the left, B on the right.", font=BOLD, size=9, min_size=7, colour=INK,
                 align="left", valign="top", max_lines=1, field="title")
    x0 = s.x + (s.w - cols * 2 * w - (cols - 1) * GAP) / 2
    for k, card in enumerate(cards):
        row, col = divmod(k, cols)
        x, y = x0 + col * (2 * w + GAP), s.top - TITLE - (row + 1) * h - row * GAP
        for side in (0, 1):
            face(PlacedPen(pen, x + side * w, y, w, h, f"ground-fold/{card.id} side {'AB'[side]}"),
                 card=card, side=side, number=first + k)
        pen.rect(x, y, 2 * w, h, stroke=INK, width=0.3)
        pen.line(x + w, y, x + w, y + h, stroke=MUTED, width=0.3, dash=[1.5, 1.0])


def grid(paper, w: float, h: float) -> tuple[bool, int, int]:
    """(landscape, columns, rows) of pairs: the orientation that holds the most (portrait on a tie)."""
    best = (False, 1, 1)
    for landscape in (False, True):
        safe = sheet_safe(paper.landscape if landscape else paper.portrait)
        cols = int((safe.w + GAP) // (2 * w + GAP))
        rows = int((safe.h - TITLE + GAP) // (h + GAP))
        if cols * rows > best[1] * best[2]:
            best = (landscape, cols, rows)
    return best


def fold_sheet(edition: Edition, options: PrintOptions, face) -> Pages:
    """As many pairs a page as fit the printable area, in whichever orientation holds more (A4 poker:
    2 x 2 on a landscape page)."""
    w, h = options.card.width, options.card.height
    landscape, cols, rows = grid(options.paper, w, h)
    per, cards = cols * rows, edition.ground
    pages = tuple(partial(fold_page, cards=cards[i:i + per], w=w, h=h, cols=cols,
                          title=f"{edition.texts.title} ground cards", face=face, first=i + 1) for i in range(0, len(cards), per))
    return Pages("ground-fold", pages, title=f"{edition.texts.title}: ground cards, fold-over", landscape=landscape,
                 note="the same 28 ground cards, front and back on one side: cut each strip, fold on its line, glue",
                 instead_of="ground")
