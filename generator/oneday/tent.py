"""One Day in London's tent rack (``--racks tent``, the default): a net to cut, fold and glue into a
tent that stands a player's cards up, faces towards their owner, backs to the table.

The tent, seen from the side, is a right triangle: the **front** leans back at :data:`LEAN` degrees
from the table, the **back** stands upright under its top edge (the ridge) and the **base** joins
their feet. Across the front run the rack's slots as **slits** (cut lines a card wide plus
:data:`~.faces.SLEEVE` mm for a sleeve), one slot pitch apart: the pitch of the cards' name strip
(:func:`~.faces.strip`), so each card lies over the one above it and shows its strip, as on the
flat mat. A card's foot goes up to :data:`TUCK_MAX` mm in behind the front through its slit; slot
1's slit is the highest, slot N's the lowest, :data:`FOOT` mm above the foot fold with its tuck.
Above slot 1's slit the front runs on to the ridge, so the top cards lean on it (up to half a card,
as far as the paper allows).

A card's name strip is its top, most of a card above its slit, so each **slot number** stands
beside its card's strip (not its slit, where another card's strip shows): in a column left of the
slits, where no card covers it, upright as the owner looks at the front. The top cards' strips rise
above the ridge, so that column runs on past it as a narrow **post** in the front's plane, up to
slot 1's number.

The net is two pieces, cut lines solid and fold lines dashed as :mod:`generator.tuckbox` draws
them, glue tabs grey: the **front** with its post and a glue tab at either end (the foot tab is glued
under the base's free end, the ridge tab, beside the post, inside the top of the back), and the
**back and base** in one strip.
:func:`plan` puts the two pieces side by side on a portrait page, else turned across it one above
the other, else each on a page of its own, and refuses (UsageError) a card too big for any.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from tubedeck.errors import UsageError
from tubedeck.games.oneday.edition import Edition
from tubedeck.generator.document import Pages
from tubedeck.generator.pen import Pen
from tubedeck.generator.ruler import sheet_safe
from tubedeck.generator.sizes import PT, Paper, Rect
from tubedeck.generator.theme import BOLD, INK, MUTED, RED_TEXT, TEXT

LEAN = 65.0  # degrees between the front and the table: the cards lean back a little, faces up to the owner
LEANS = (LEAN, 70.0, 75.0)  # steeper where the paper is short (the back and base are shorter then)
TUCK_MAX = 8.0  # mm of a card's foot behind the front (less where the slots are closer than TUCK_MAX + 3)
FOOT = 3.0  # mm from the foot fold to the lowest card's foot, behind the front
TOP_MIN = 5.0  # mm at least from slot 1's slit to the ridge
SUPPORT = 0.5  # the share of the top card the front reaches up to, where the paper allows
NUMBERS = 9.0  # mm: the strip of slot numbers, left of the slits
SIDE = 3.0  # mm of front either side of the numbers and the slits
GLUE = 10.0  # mm: the glue tabs' depth
GAP = 6.0  # mm between the two pieces on a page
HEAD = 15.0  # mm above the net for the heading and the instructions
NUMBER_UP = 3.5  # mm from the foot of a card's strip (the next card's top edge) to its number's middle
POST_CLEAR = 3.0  # mm of post above slot 1's number's middle
CUT, FOLD = 0.3, 0.25  # line widths (mm), as generator/tuckbox.py
CUT_INK, FOLD_GREY, TAB_FILL = "#000000", "#707070", "#E6E6E6"
NUMBER_PT = 9.0  # the slot numbers: play text (>= 7 pt)


@dataclass(frozen=True)
class Tent:
    """The tent for cards ``card_w`` x ``card_h`` mm, ``slots`` of them ``pitch`` mm apart, its
    front ``front`` mm from the foot fold to the ridge (all in mm, in the front's own frame: x from
    its left edge, y up from the foot fold)."""

    card_w: float
    card_h: float
    pitch: float
    slots: int
    front: float
    sleeve: float = 3.0
    lean: float = LEAN  # degrees between the front and the table

    @property
    def tuck(self) -> float:
        return min(TUCK_MAX, self.pitch - 3.0)

    @property
    def slit(self) -> float:
        """A slit's length: the card and its sleeve room."""
        return self.card_w + self.sleeve

    @property
    def width(self) -> float:
        """Every panel's width: side, numbers, slit, side."""
        return SIDE + NUMBERS + self.slit + SIDE

    @property
    def slit_x(self) -> float:
        return SIDE + NUMBERS

    def slit_y(self, slot: int) -> float:
        """Slot ``slot``'s slit (1 = the top), mm above the foot fold."""
        return FOOT + self.tuck + (self.slots - slot) * self.pitch

    @property
    def least_front(self) -> float:
        return self.slit_y(1) + TOP_MIN

    @property
    def height(self) -> float:
        """The ridge's height above the table."""
        return self.front * math.sin(math.radians(self.lean))

    @property
    def back(self) -> float:
        return self.height  # upright

    @property
    def base(self) -> float:
        return self.front * math.cos(math.radians(self.lean))

    def number_y(self, slot: int) -> float:
        """The middle of slot ``slot``'s number, mm above the foot fold: beside its card's strip."""
        return self.card_top(slot) - self.pitch + NUMBER_UP

    @property
    def post(self) -> float:
        """How far the number column runs from the foot fold (past the ridge, where it must)."""
        return max(self.front, self.number_y(1) + POST_CLEAR)

    @property
    def front_piece(self) -> float:
        """The front piece's length: foot tab, then the front and its ridge tab or the post."""
        return GLUE + max(self.front + GLUE, self.post)

    @property
    def back_piece(self) -> float:
        """The back-and-base piece's length."""
        return self.back + self.base

    def card_top(self, slot: int) -> float:
        """Where the card in ``slot`` ends, mm above the foot fold along the front's slope."""
        return self.slit_y(slot) - self.tuck + self.card_h


def tent_for(card_w: float, card_h: float, pitch: float, slots: int, longest: float) -> Tent | None:
    """The tent with the tallest front (up to :data:`SUPPORT` of a card past slot 1's slit) whose
    longer piece is at most ``longest`` mm, at the first of :data:`LEANS` that allows the least
    front; None if none does."""
    t = Tent(card_w, card_h, pitch, slots, 0.0)
    least = t.least_front
    want = max(least, t.slit_y(1) - t.tuck + SUPPORT * card_h)
    if GLUE + t.number_y(1) + POST_CLEAR > longest + 1e-9:
        return None  # no room for slot 1's number on the post
    for lean in LEANS:
        factor = math.sin(math.radians(lean)) + math.cos(math.radians(lean))
        most = min(longest / factor, longest - 2 * GLUE)
        if most >= least - 1e-9:
            return Tent(card_w, card_h, pitch, slots, math.floor(min(want, most) * 10) / 10, lean=lean)
    return None


@dataclass(frozen=True)
class Plan:
    """How the net goes on paper: ``turned`` pieces run across the page; ``split``: a page each."""

    tent: Tent
    turned: bool
    split: bool


def plan(card_w: float, card_h: float, pitch: float, slots: int, paper: Paper) -> Plan:
    """The first arrangement that fits the portrait page's printable area under the heading: both
    pieces side by side, both turned across one above the other, or a page each (either way)."""
    room = sheet_safe(paper.portrait)
    h, w = room.h - HEAD, room.w
    probe = Tent(card_w, card_h, pitch, slots, 0.0)
    tries = ((2 * probe.width + GAP <= w, h, False, False),
             (2 * probe.width + GAP <= h, w, True, False),
             (probe.width <= w, h, False, True),
             (probe.width <= h, w, True, True))
    for fits, longest, turned, split in tries:
        tent = tent_for(card_w, card_h, pitch, slots, longest) if fits else None
        if tent is not None:
            return Plan(tent, turned, split)
    raise UsageError(f"a tent rack for {card_w:g} x {card_h:g} mm cards ({slots} slots {pitch:g} mm apart) does not fit "
                     f"on {paper.name} paper: use --racks flat")


# -- drawing ------------------------------------------------------------------------------------------
class _Frame:
    """A piece's own frame (x across it, y along it, mm) placed on the page at ``(ox, oy)``;
    turned: the piece runs left to right across the page, its y along the page's x."""

    def __init__(self, ox: float, oy: float, width: float, turned: bool):
        self.ox, self.oy, self.width, self.turned = ox, oy, width, turned

    def at(self, x: float, y: float) -> tuple[float, float]:
        if self.turned:  # the piece's up (y) runs to the page's right; its x runs down the page
            return self.ox + y, self.oy + self.width - x
        return self.ox + x, self.oy + y

    @property
    def angle(self) -> float:
        return -90.0 if self.turned else 0.0


def _lines(pen: Pen, f: _Frame, cuts: list[list[tuple[float, float]]], folds: list[tuple[float, float, float, float]],
           tabs: list[list[tuple[float, float]]]) -> None:
    for tab in tabs:
        pen.polygon([f.at(x, y) for x, y in tab], fill=TAB_FILL)
    for x1, y1, x2, y2 in folds:
        pen.line(*f.at(x1, y1), *f.at(x2, y2), stroke=FOLD_GREY, width=FOLD, dash=[2.0, 1.5])
    for points in cuts:
        pen.polyline([f.at(x, y) for x, y in points], stroke=CUT_INK, width=CUT)


def _label(pen: Pen, f: _Frame, x: float, y: float, text: str, size: float, font: str = TEXT,
           colour: str = INK, align: str = "centre", field: str = "tent") -> None:
    """Text along the piece's own x (upright as the piece stands), baseline at ``(x, y)``."""
    px, py = f.at(x, y)
    pen.text(px, py, text, font=font, size=size, colour=colour, align=align, angle=f.angle, field=field)


def _tab(x0: float, y0: float, w: float, depth: float, sign: int) -> list[tuple[float, float]]:
    """A glue tab on the edge y = ``y0`` from ``x0`` to ``x0 + w``, ``depth`` deep (``sign`` 1: up),
    its ends tapered so it folds in cleanly."""
    taper = min(4.0, w / 6)
    return [(x0, y0), (x0 + taper, y0 + sign * depth), (x0 + w - taper, y0 + sign * depth), (x0 + w, y0)]


def front_piece(pen: Pen, f: _Frame, tent: Tent, title: str) -> None:
    """Foot tab, front (slits, slot numbers), ridge tab beside the number post: y from the foot
    tab's free edge."""
    w, y0, y1 = tent.width, GLUE, GLUE + tent.front
    col = SIDE + NUMBERS  # the number column's width; the post is its continuation past the ridge
    top = y0 + tent.post
    foot = _tab(0.0, y0, w, GLUE, -1)
    if top > y1 + 1e-9:
        ridge = _tab(col, y1, w - col, GLUE, 1)
        outline = [(0.0, y0), (0.0, top), (col, top), (col, y1)]
        ridge_fold = (col, y1, w, y1)
    else:
        ridge = _tab(0.0, y1, w, GLUE, 1)
        outline = [(0.0, y0), (0.0, y1)]
        ridge_fold = (0.0, y1, w, y1)
    cuts = [outline, [(w, y0), (w, y1)], foot, ridge]
    cuts += [[(tent.slit_x, y0 + tent.slit_y(k)), (tent.slit_x + tent.slit, y0 + tent.slit_y(k))]
             for k in range(1, tent.slots + 1)]
    _lines(pen, f, cuts, [(0.0, y0, w, y0), ridge_fold], [foot, ridge])
    for k in range(1, tent.slots + 1):
        _label(pen, f, col / 2 + 0.6, y0 + tent.number_y(k) - 0.36 * NUMBER_PT * PT, str(k), NUMBER_PT, BOLD,
               RED_TEXT, field="slot")
        # which slit is which, where its own card covers it once in: "slot 3's card" just above the slit
        _label(pen, f, tent.slit_x + tent.slit / 2, y0 + tent.slit_y(k) + 1.2, f"slot {k}'s card", 8, colour=MUTED,
               field="slit")
    _label(pen, f, w / 2, GLUE / 2 - 1.2, "glue under the base", 8, colour=MUTED, field="glue")
    _label(pen, f, col + (w - col) / 2, y1 + GLUE / 2 - 1.2, "glue inside the back", 8, colour=MUTED, field="glue")
    _label(pen, f, tent.slit_x + tent.slit / 2, y0 + FOOT + 0.6, "front: faces you", 8, colour=MUTED, field="panel")


def back_piece(pen: Pen, f: _Frame, tent: Tent, title: str) -> None:
    """Base, then back (y from the base's free edge): the back's top edge is the ridge."""
    w, b, t = tent.width, tent.base, tent.base + tent.back
    cuts = [[(0.0, 0.0), (w, 0.0), (w, t), (0.0, t), (0.0, 0.0)]]
    _lines(pen, f, cuts, [(0.0, b, w, b)], [])
    _label(pen, f, w / 2, b / 2 - 1.2, "base: on the table", 8, colour=MUTED, field="panel")
    _label(pen, f, w / 2, b + tent.back / 2, title, 10, BOLD, field="panel")
    _label(pen, f, w / 2, b + tent.back / 2 - 6, "back: faces the other players", 8, colour=MUTED, field="panel")


def tent_page(pen: Pen, tent: Tent, turned: bool, pieces: tuple[str, ...], player: int, title: str,
              slots: int) -> None:
    """One page of a player's tent: the heading, then ``pieces`` ("front", "back") as planned."""
    s = pen.safe
    head = f"Player {player}: tent rack" + ("" if len(pieces) == 2 else f" ({'front' if pieces[0] == 'front' else 'back and base'})")
    pen.text(s.x, s.top - 4.5, head, font=BOLD, size=10, colour=INK, field="title")
    pen.text_box(Rect(s.x, s.top - HEAD + 0.5, s.w, HEAD - 7.0),
                 f"Cut the solid lines, the {slots} slits too (a craft knife); fold the dashed lines inwards; glue "
                 "the grey tabs. Slide each card's foot into its slit, face towards you: slot 1 at the top. "
                 f"Push each card {tent.tuck:g} mm in. A slot number stands beside its card's name, well above its slit.",
                 size=8, min_size=8, colour=INK, align="left", valign="top", field="help")
    lengths = {"front": tent.front_piece, "back": tent.back_piece}
    room = Rect(s.x, s.y, s.w, s.h - HEAD)
    across = len(pieces) * tent.width + (len(pieces) - 1) * GAP
    along = max(lengths[p] for p in pieces)
    if turned:
        x0, y0 = room.x + (room.w - along) / 2, room.top - (room.h - across) / 2
        frames = [_Frame(x0, y0 - (i + 1) * tent.width - i * GAP, tent.width, True) for i in range(len(pieces))]
    else:
        x0, y0 = room.x + (room.w - across) / 2, room.y + (room.h - along) / 2
        frames = [_Frame(x0 + i * (tent.width + GAP), y0, tent.width, False) for i in range(len(pieces))]
    for piece, frame in zip(pieces, frames):
        (front_piece if piece == "front" else back_piece)(pen, frame, tent, title)


def tent_sheet(edition: Edition, card_w: float, card_h: float, pitch: float, paper: Paper) -> Pages:
    """A tent rack per player the game allows: a page each (two where the pieces need a page each)."""
    gmap = edition.board
    p = plan(card_w, card_h, pitch, gmap.recipe.slots, paper)
    parts: tuple[tuple[str, ...], ...] = (("front",), ("back",)) if p.split else (("front", "back"),)
    pages = tuple(partial(tent_page, tent=p.tent, turned=p.turned, pieces=part, player=k + 1, title=gmap.recipe.name,
                          slots=gmap.recipe.slots)
                  for k in range(gmap.recipe.players_max) for part in parts)
    return Pages("racks", pages, title=f"{gmap.recipe.name}: tent racks", landscape=False,
                 note="best on thin card (160-250 g/m2): one rack per player; cut, fold on the dashed lines, "
                      "glue the tabs")
