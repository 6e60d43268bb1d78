"""A tuck box for a deck (``--export tuckbox``): one sheet with the net of a one-piece box, cut
lines solid, fold lines dashed, the deck's title on the front panel.

The inside of the box is the card plus :data:`PLAY` mm each way, and as deep as the deck: 0.3 mm
per card (:data:`CARD_THICKNESS`) plus :data:`PLAY`. The net, left to right: front, side, back,
side, glue flap (glued inside the front); the back carries the top lid and its tuck flap, the
front the bottom lid and its tuck flap (a reverse tuck end box); each side has a dust flap at
either end, and the front a thumb notch. The sheet turns to whichever orientation (and the net
90 degrees) fits the paper's printable area; a deck too thick for one box on the paper gets the
net of a smaller box and the words "make N of these" (each holds the count printed on it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from tubedeck.errors import UsageError

from .document import Deck, Pages
from .options import PrintOptions
from .pen import Pen
from .ruler import sheet_safe
from .sizes import Paper
from .text import TextFitError, fit

CARD_THICKNESS = 0.3  # mm per card
PLAY = 2.0  # mm added to the deck's thickness, and to the card's width and height
GLUE = 8.0  # glue flap width
INSET = 1.0  # tuck flaps are this much narrower each side, so they slide in
HEADER = 9.0  # mm above the net for the heading and instructions
CUT, FOLD = 0.3, 0.25  # line widths (mm)
INK, GREY = "#000000", "#707070"


@dataclass(frozen=True)
class Net:
    """A tuck box's net in its own mm (origin bottom-left): cut polylines, fold segments, panels."""

    w: float  # inside width, height and depth
    h: float
    d: float
    cards: int  # how many cards it holds

    @property
    def tuck(self) -> float:
        return min(15.0, max(8.0, 0.15 * self.h))

    @property
    def width(self) -> float:
        return 2 * self.w + 2 * self.d + GLUE

    @property
    def height(self) -> float:
        return self.h + 2 * (self.d + self.tuck)

    def panels(self) -> dict[str, tuple[float, float, float, float]]:
        """x, y, w, h of the printed panels."""
        w, h, d, y0 = self.w, self.h, self.d, self.d + self.tuck
        return {"front": (0.0, y0, w, h), "back": (w + d, y0, w, h), "top": (w + d, y0 + h, w, d),
                "glue": (2 * w + 2 * d, y0, GLUE, h)}

    def lines(self) -> tuple[list[list[tuple[float, float]]], list[tuple[float, float, float, float]]]:
        """(cut polylines, fold segments)."""
        w, h, d, t = self.w, self.h, self.d, self.tuck
        y0, y1 = d + t, d + t + h
        cuts: list[list[tuple[float, float]]] = []
        folds = [(x, y0, x, y1) for x in (w, w + d, 2 * w + d, 2 * w + 2 * d)]
        # front: left edge through the bottom lid, top edge with a thumb notch
        notch = min(10.0, w / 5)
        arc = [(w / 2 + notch * math.cos(math.radians(a)), y1 + notch * math.sin(math.radians(a)))
               for a in range(180, 361, 10)]
        cuts.append([(0.0, t), (0.0, y1), (w / 2 - notch, y1)] + arc + [(w, y1)])
        # bottom lid and tuck under the front, top lid and tuck over the back
        for x, edge, sign in ((0.0, y0, -1), (w + d, y1, 1)):
            lid = edge + sign * d
            folds += [(x, edge, x + w, edge), (x + INSET, lid, x + w - INSET, lid)]
            cuts.append([(x, edge), (x, lid), (x + INSET, lid)] + _tuck(x + INSET, lid, w - 2 * INSET, t, sign)
                        + [(x + w - INSET, lid), (x + w, lid), (x + w, edge)])
        cuts.append([(w + d, y0), (2 * w + d, y0)])  # the back's free bottom edge
        # dust flaps on both sides, at both ends
        dust = min(0.4 * w, 20.0, d + t - 1.0)
        chamfer = min(2.0, d / 4, dust / 3)
        for x in (w, 2 * w + d):
            for edge, sign in ((y1, 1), (y0, -1)):
                folds.append((x, edge, x + d, edge))
                cuts.append([(x, edge), (x + chamfer, edge + sign * dust), (x + d - chamfer, edge + sign * dust),
                             (x + d, edge)])
        cuts.append(self.glue_flap())
        return cuts, folds

    def glue_flap(self) -> list[tuple[float, float]]:
        x, y, w, h = self.panels()["glue"]
        taper = min(4.0, h / 6)
        return [(x, y), (x + w, y + taper), (x + w, y + h - taper), (x, y + h)]


def _tuck(x: float, y: float, w: float, t: float, sign: int) -> list[tuple[float, float]]:
    """The free edge of a tuck flap ``w`` wide, ``t`` deep from ``y`` (``sign`` 1: up, -1: down),
    its two outer corners rounded: from its left side round to its right side."""
    r = min(5.0, t / 2, w / 4)
    cy = y + sign * (t - r)
    pts = []
    for cx, angles in ((x + r, range(180, 89, -15)), (x + w - r, range(90, -1, -15))):
        pts += [(cx + r * math.cos(math.radians(a)), cy + sign * r * math.sin(math.radians(a))) for a in angles]
    return pts


def box_for(deck: Deck, options: PrintOptions, cards: int) -> Net:
    size = deck.size or options.card
    return Net(size.width + PLAY, size.height + PLAY, cards * CARD_THICKNESS + PLAY, cards)


def plan(deck: Deck, options: PrintOptions) -> tuple[Net, int, Paper, bool]:
    """(net, boxes needed, paper, net turned 90 degrees) for the fewest boxes that fit the paper."""
    total = len(deck.printed())
    papers = {"portrait": [options.paper.portrait], "landscape": [options.paper.landscape]}.get(
        options.orientation, [options.paper.portrait, options.paper.landscape])
    for boxes in range(1, total + 1):
        net = box_for(deck, options, math.ceil(total / boxes))
        for paper in papers:
            room = sheet_safe(paper)
            for turned in (False, True):
                nw, nh = (net.height, net.width) if turned else (net.width, net.height)
                if nw <= room.w and nh + HEADER <= room.h:
                    return net, boxes, paper, turned
    card = box_for(deck, options, 1)
    raise UsageError(f"deck {deck.name!r}: a tuck box for {card.w - PLAY:g} x {card.h - PLAY:g} mm cards "
                     f"({card.width:.0f} x {card.height:.0f} mm flat) does not fit on {options.paper.name} paper")


def _page(pen: Pen, deck: Deck, net: Net, boxes: int, turned: bool) -> None:
    room = pen.safe
    nw, nh = (net.height, net.width) if turned else (net.width, net.height)
    ox, oy = room.x + (room.w - nw) / 2, room.y + (room.h - HEADER - nh) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return (ox + net.height - y, oy + x) if turned else (ox + x, oy + y)

    title = deck.title or deck.name
    make = f"make {boxes} of these boxes, each holds up to {net.cards} cards" if boxes > 1 else f"holds {net.cards} cards"
    pen.text(room.x, room.top - 3.5, f"Tuck box: {title}", font="sans-bold", size=9, field="tuckbox heading")
    pen.text(room.x, room.top - 7.5, f"Inside {net.w:.1f} x {net.h:.1f} x {net.d:.1f} mm, {make}. Cut the solid "
             "lines, fold the dashed ones, glue the flap inside the front.", size=6, colour=GREY, field="tuckbox help")
    angle = 90.0 if turned else 0.0
    pen.polygon([at(x, y) for x, y in net.glue_flap()], fill="#E6E6E6")
    cuts, folds = net.lines()
    for x1, y1, x2, y2 in folds:
        pen.line(*at(x1, y1), *at(x2, y2), stroke=GREY, width=FOLD, dash=(2.0, 1.5))
    for points in cuts:
        pen.polyline([at(x, y) for x, y in points], stroke=INK, width=CUT)
    _label(pen, at, angle, net.panels()["front"], title, 16, "title", top_clear=min(10.0, net.w / 5) + 2)
    _label(pen, at, angle, net.panels()["back"], f"{net.cards} cards", 9, "count")
    _label(pen, at, angle, net.panels()["glue"], "glue", 6, "glue", along=True)


def _label(pen: Pen, at, angle: float, panel, text: str, size: float, field: str, top_clear: float = 0.0,
           along: bool = False) -> None:
    """Fit ``text`` in ``panel`` (net mm, 3 mm in from its edges) and draw it centred there."""
    x, y, w, h = panel
    pad = 3.0
    if along:  # read along a narrow panel
        w, h, angle, pad = h, w, angle + 90.0, 1.5
        angle = angle - 180.0 if 90.0 < angle % 360.0 <= 270.0 else angle  # never upside down
    w, h = w - 2 * pad, h - 2 * pad - top_clear
    if w <= 2 or h <= 2:
        return
    try:
        f = fit(text, "sans-bold", size, min(size, 4.0), w, h, card="tuck box", field=field)
    except TextFitError:
        return
    cx, cy = x + panel[2] / 2, y + (panel[3] - top_clear) / 2
    rad = math.radians(angle)
    for i, line in enumerate(f.lines):  # baseline offsets from the block's centre, in its own frame
        v = f.height / 2 - f.ascent - i * f.leading
        px, py = at(cx, cy)
        pen.text(px - v * math.sin(rad), py + v * math.cos(rad), line, font="sans-bold", size=f.size,
                 align="centre", angle=angle, field=field)


def tuckbox_sheet(deck: Deck, options: PrintOptions) -> Pages:
    """The one-page document with the deck's tuck box net."""
    net, boxes, paper, turned = plan(deck, options)
    return Pages(f"{deck.name}-tuckbox", (partial(_page, deck=deck, net=net, boxes=boxes, turned=turned),),
                 title=f"{deck.title or deck.name}: tuck box", paper=paper, landscape=paper.width > paper.height)


def tuckbox_pdf(deck: Deck, options: PrintOptions) -> tuple[bytes, int]:
    from .pdf import sheet_pdf

    return sheet_pdf(tuckbox_sheet(deck, options), options)
