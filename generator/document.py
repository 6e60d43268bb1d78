"""What a game hands the engine: decks of cards, and full-page sheets.

* A :class:`Deck` is a named list of :class:`Card` s. Every card has a stable ``id`` (used in
  file names and the manifest), a ``front`` face and optionally its own ``back`` face; cards
  without one use the deck's shared ``back`` (and a deck with neither prints single-sided).
* A :class:`Face` is any callable ``face(pen) -> None`` drawing in card coordinates (see
  :mod:`tubedeck.generator.pen`). Bind per-card data with a closure or ``functools.partial``.
* Small decks may **share sheets**: decks given the same ``share`` name (a sheet group) are
  packed onto common print-and-play sheets, written as one ``SHARE.pdf`` (each card keeps its
  own back); their other files (one-card PDF, PNG, SVG, contact sheet) stay per deck.
* A :class:`Pages` is a full-page document (play field, map, rack, score pad): one or more
  page-drawing callables ``draw(pen)`` in page millimetres; the engine adds the ruler and the
  print-at-100% note in a reserved strip at the bottom, outside ``pen.safe``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from tubedeck.errors import UsageError

from .sizes import CardSize, Paper

if TYPE_CHECKING:
    from .pen import Pen

Face = Callable[["Pen"], None]  # any callable(pen) works

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _check_id(kind: str, ident: str) -> None:
    if not _ID.match(ident):
        raise UsageError(f"{kind} id {ident!r}: use letters, digits, '-', '_' and '.' (it names files)")


@dataclass(frozen=True)
class Card:
    """One card: stable ``id`` (file-name safe), ``front`` face, optional own ``back`` face.

    ``label`` is a human name for manifests and errors (default: the id)."""

    id: str
    front: Face
    back: Face | None = None
    label: str = ""

    def __post_init__(self) -> None:
        _check_id("card", self.id)

    @property
    def name(self) -> str:
        return self.label or self.id


@dataclass(frozen=True)
class Deck:
    """A named deck. ``back`` is the shared back for cards without their own.

    ``size`` fixes the card format for this deck (``None``: the build's ``--card`` option).
    ``copies`` > 1 prints every card that many times (e.g. two identical sets).
    ``share`` names a sheet group: every deck of the same build with that name is packed onto
    common sheets, written as ``SHARE.pdf`` (``None``: the deck has sheets of its own).
    ``back_bleed``: on duplex back pages each back may reach that many mm past its trim, into the
    margins, gaps and empty slots (printable area allowing) and over its neighbours' edges: for a
    back every card shares, one flat colour at its edges, that must look the same printed off by
    a duplex drift (a back running to the trim would show paper at the grid's edge)."""

    name: str
    cards: tuple[Card, ...]
    back: Face | None = None
    size: CardSize | None = None
    title: str = ""
    copies: int = 1
    share: str | None = None
    back_bleed: float = 0.0

    def __post_init__(self) -> None:
        _check_id("deck", self.name)
        if self.share is not None:
            _check_id("sheet group", self.share)
        object.__setattr__(self, "cards", tuple(self.cards))
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:
                raise UsageError(f"deck {self.name!r}: duplicate card id {card.id!r}")
            seen.add(card.id)
        if not self.cards:
            raise UsageError(f"deck {self.name!r} has no cards")
        if self.copies < 1:
            raise UsageError(f"deck {self.name!r}: copies must be >= 1")

    @property
    def double_sided(self) -> bool:
        return self.back is not None or any(c.back is not None for c in self.cards)

    def back_of(self, card: Card) -> Face | None:
        return card.back if card.back is not None else self.back

    def printed(self) -> tuple[Card, ...]:
        """The cards in print order, with copies."""
        return tuple(c for c in self.cards for _ in range(self.copies))


@dataclass(frozen=True)
class Pages:
    """A full-page document: ``pages`` are ``draw(pen)`` callables in page mm (origin bottom-left).

    ``paper`` fixes the paper (``None``: the build's ``--paper``/orientation options).
    ``duplex=True``: the pages are front/back pairs to print on both sides (the PDF asks the
    viewer for the build's ``--duplex`` flip, or for ``flip`` when the document needs its own:
    a booklet imposed on landscape sheets turns on the short edge); otherwise single-sided.
    ``furniture=False``: no ruler and print-at-100% note in the bottom strip (a rulebook, whose
    scale nothing depends on); ``pen.safe`` is then the whole printable area.
    ``note`` says what to do with the pages once printed and ``instead_of`` names a document this
    one replaces (print one or the other): both for the how-to-print page (``generator/howto.py``),
    which also writes ``instead_of`` into the PDF's subject so ``OUT/README.pdf`` can say it."""

    name: str
    pages: tuple[Callable, ...]
    title: str = ""
    paper: Paper | None = None
    landscape: bool | None = None  # None: as the build options say
    duplex: bool = False
    flip: str | None = None  # "long" or "short": the duplex flip this document needs (None: --duplex)
    furniture: bool = True
    note: str = ""  # what to do with the printed pages, for the game's README.pdf ("one copy per player")
    instead_of: str = ""  # another document this one replaces when printed (the booklet: "rulebook")

    def __post_init__(self) -> None:
        _check_id("sheet", self.name)
        if self.flip not in (None, "long", "short"):
            raise UsageError(f"sheet {self.name!r}: flip must be 'long' or 'short'")
        object.__setattr__(self, "pages", tuple(self.pages))
        if not self.pages:
            raise UsageError(f"sheet {self.name!r} has no pages")
