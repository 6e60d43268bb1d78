"""The Shared Objective and Pencil Power cards laid out as cards: a coloured head band with the
module's title, the card's name, a vector icon of its own (one per objective measure and per
power, drawn with the Pen), the rule at a size that reads across the table, and an example
sentence on a tinted panel at the foot. The layout fills the card from the head band to the foot
on every card size; on a small card the icon gives way first, then the example.

The icons (:data:`ICONS`) are drawn from the map's own marks (station symbols, the Thames, the
district boxes, pencil colours), so a card looks like what it asks for on the map sheet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from tubedeck.games.nextstation.rules import JOKER, SWITCH
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.text import FittedText, measure
from tubedeck.generator.theme import BOLD, INK, ITALIC, PAPER, PLAY_PT, TEXT, WHITE

from .map import CORNER, DISTRICT, DISTRICT_LINE, thames
from .parts import symbol

PANEL = "#F1ECDD"  # the example's panel: INK reads on it at 14:1
RULE_PT = (10.5, PLAY_PT)  # the rule: as large as fits, never below what play needs
NAME_PT = (14.0, 9.0)
NAME_ONE_LINE = 10.0  # a name shrinks to this on one line before it takes two
TITLE_PT = 10.0  # the module's title on the head band
ICON_MOST = 0.48  # of the safe height: the icon's largest
RULE_GOOD = 9.0  # the rule's size the icon shrinks for (down to 26% of the card) before the rule shrinks
EXAMPLE_PT = (8.0, PLAY_PT)
GAP = 1.6  # mm between the card's parts
PAD = 1.4  # mm inside the example's panel


# -- icons ----------------------------------------------------------------------------------------
# Each icon draws inside the square of side ``a`` centred on (cx, cy); ``colours`` are the pencils'.
Icon = Callable[[Pen, float, float, float, dict], None]


def _station(pen: Pen, x: float, y: float, r: float, face: str = "circle", fill: str = WHITE) -> None:
    symbol(pen, face, x, y, r, INK, fill=fill)


def _spikes(pen: Pen, x: float, y: float, r: float, width: float) -> None:
    for k in range(8):
        ang = math.radians(k * 45 + 22.5)
        pen.line(x + math.cos(ang) * r * 1.2, y + math.sin(ang) * r * 1.2, x + math.cos(ang) * r * 1.75,
                 y + math.sin(ang) * r * 1.75, stroke=INK, width=width)


def icon_interchanges(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """Three lines of three colours through one station: an interchange, ringed. No line runs
    across: a ring with a level bar through it would recall the Underground's roundel."""
    w = a * 0.07
    h = a * 0.42
    turns = (math.radians(90), math.radians(30), math.radians(150))
    for (dx, dy), pencil in zip(((math.cos(t), math.sin(t)) for t in turns), ("green", "pink", "blue")):
        pen.line(cx - dx * h, cy - dy * h, cx + dx * h, cy + dy * h, stroke=colours[pencil], width=w)
        for s in (-1, 1):
            _station(pen, cx + s * dx * h, cy + s * dy * h, a * 0.07)
    pen.circle(cx, cy, a * 0.16, fill=WHITE, stroke=INK, width=a * 0.045)
    pen.circle(cx, cy, a * 0.08, fill=INK)


def icon_districts(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """The 3 x 3 district boxes and the 4 corner boxes, a station reached in every one."""
    cell = a / 3
    x0, y0 = cx - a / 2, cy - a / 2
    for i in range(3):
        for j in range(3):
            pen.rect(x0 + i * cell + 0.3, y0 + j * cell + 0.3, cell - 0.6, cell - 0.6, fill=DISTRICT,
                     stroke=DISTRICT_LINE, width=0.35, radius=0.8)
            pen.circle(x0 + (i + 0.5) * cell, y0 + (j + 0.5) * cell, cell * 0.13, fill=colours["green"],
                       stroke=INK, width=0.25)
    c = cell * 0.36
    for i in (0, 1):
        for j in (0, 1):
            x, y = x0 + 0.6 + i * (a - 1.2 - c), y0 + 0.6 + j * (a - 1.2 - c)
            pen.rect(x, y, c, c, fill=CORNER, stroke=DISTRICT_LINE, width=0.45, radius=0.5)
            pen.circle(x + c / 2, y + c / 2, c * 0.22, fill=colours["green"], stroke=INK, width=0.2)


def icon_tourist_sites(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """Five tourist sites (spiked stations) on one network."""
    r = a * 0.33
    points = [(cx + r * math.cos(math.radians(90 + k * 72)), cy + r * math.sin(math.radians(90 + k * 72)))
              for k in range(5)]
    pen.polyline(points + [points[0]], stroke=colours["purple"], width=a * 0.05)
    for x, y in points:
        _spikes(pen, x, y, a * 0.075, max(0.3, a * 0.02))
        _station(pen, x, y, a * 0.075)


def icon_central_stations(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """The central district's box, its 9 stations all on the line."""
    pen.rect(cx - a / 2, cy - a / 2, a, a, fill=DISTRICT, stroke=DISTRICT_LINE, width=0.6, radius=1.2)
    step = a / 3.4
    pts = [(cx + (i - 1) * step, cy + (1 - j) * step) for j in range(3)
           for i in (range(3) if j % 2 == 0 else range(2, -1, -1))]  # a snake through all nine
    pen.polyline(pts, stroke=colours["pink"], width=a * 0.05)
    faces = ("circle", "square", "triangle")
    for k, (x, y) in enumerate(pts):
        _station(pen, x, y, a * 0.075, faces[k % 3])


def icon_thames(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """The Thames, with lines of several colours crossing it."""
    river = [(cx - a / 2 + a * k / 12, cy + a * 0.08 * math.sin(k * math.pi / 4)) for k in range(13)]
    thames(pen, river, a * 0.16)
    for k, pencil in enumerate(("green", "pink", "blue")):
        x = cx + (k - 1) * a * 0.32
        lean = (k - 1) * a * 0.08
        pen.line(x - lean, cy - a * 0.4, x + lean, cy + a * 0.4, stroke=colours[pencil], width=a * 0.05)
        _station(pen, x - lean, cy - a * 0.4, a * 0.065, "square")
        _station(pen, x + lean, cy + a * 0.4, a * 0.065, "pentagon")


def icon_double_section(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """Two sections drawn on one card: three square stations, the line through them."""
    pts = [(cx - a * 0.4, cy - a * 0.3), (cx, cy + a * 0.05), (cx + a * 0.4, cy + a * 0.3)]
    pen.polyline(pts, stroke=colours["blue"], width=a * 0.06)
    for x, y in pts:
        _station(pen, x, y, a * 0.12, "square")
    # a small card with a square above the first section: one card
    pen.rect(cx - a * 0.47, cy + a * 0.12, a * 0.24, a * 0.33, fill=WHITE, stroke=INK, width=0.35, radius=0.6)
    symbol(pen, "square", cx - a * 0.35, cy + a * 0.285, a * 0.08)


def icon_joker(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """A card that plays as a Joker: a card with the four symbols."""
    pen.rect(cx - a * 0.3, cy - a * 0.42, a * 0.6, a * 0.84, fill=WHITE, stroke=INK, width=a * 0.035,
             radius=a * 0.06)
    symbol(pen, JOKER, cx, cy, a * 0.26)


def icon_railroad_switch(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """A line with a branch started from its middle station: the Railroad Switch's fork."""
    main = [(cx - a * 0.42, cy - a * 0.32), (cx - a * 0.05, cy - a * 0.2), (cx + a * 0.38, cy - a * 0.32)]
    pen.polyline(main, stroke=colours["green"], width=a * 0.06)
    pen.line(main[1][0], main[1][1], cx + a * 0.3, cy + a * 0.3, stroke=colours["green"], width=a * 0.06,
             dash=[a * 0.08, a * 0.05])
    for (x, y), face in zip(main, ("square", "pentagon", "square")):
        _station(pen, x, y, a * 0.08, face)
    _station(pen, cx + a * 0.3, cy + a * 0.3, a * 0.1, "triangle")
    pen.rect(cx - a * 0.47, cy + a * 0.05, a * 0.26, a * 0.36, fill=WHITE, stroke=INK, width=0.35, radius=0.6)
    symbol(pen, SWITCH, cx - a * 0.34, cy + a * 0.23, a * 0.1)  # on a card, as the Station card shows it


def icon_double_station(pen: Pen, cx: float, cy: float, a: float, colours: dict) -> None:
    """A station circled by hand on the line: it counts twice. The line climbs (a level line
    through a ring would recall the Underground's roundel)."""
    d = a * 0.32
    pen.line(cx - d, cy - d, cx + d, cy + d, stroke=colours["purple"], width=a * 0.06)
    for k in (-1, 1):
        _station(pen, cx + k * d, cy + k * d, a * 0.07, "square")
    _station(pen, cx, cy, a * 0.13, "pentagon")
    pts = [(cx + a * 0.27 * math.cos(t) * (1 + 0.04 * math.sin(3 * t)), cy + a * 0.24 * math.sin(t))
           for t in (math.radians(d) for d in range(20, 400, 20))]
    pen.polyline(pts, stroke=INK, width=a * 0.035)  # the hand-drawn ring, a little over closed


ICONS: dict[str, Icon] = {
    # Shared Objectives, by what they measure
    "interchanges": icon_interchanges,
    "districts": icon_districts,
    "tourist-sites": icon_tourist_sites,
    "central-stations": icon_central_stations,
    "thames": icon_thames,
    # Pencil Powers, by id
    "double-section": icon_double_section,
    "joker": icon_joker,
    "railroad-switch": icon_railroad_switch,
    "double-station": icon_double_station,
}


# -- the card -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Where a module card's parts go (card mm): the boxes the face draws in, top to bottom."""

    head: Rect
    name: Rect
    name_fit: FittedText
    icon: Rect | None  # None: no room on this card size
    rule: Rect
    example: Rect | None  # the tinted panel; None: no room
    rule_fit: FittedText
    example_fit: FittedText | None


def layout(safe: Rect, art: Rect, title: str, name: str, rule: str, example: str,
           rule_pt: float | None = None) -> Layout:
    """The parts from the top of the art box down: the head band (the module's title), the card's
    name, the icon, the rule and, at the foot, the example's panel. The icon takes what the texts
    leave, at most :data:`ICON_MOST` of the safe height; it gives way first (to 26%) so that the rule keeps
    :data:`RULE_GOOD`, then the rule shrinks to 7 pt, then the icon shrinks to 20% and goes, with the
    example. ``rule_pt``: the rule's largest size (:func:`deck_rule_pt`: one size for a deck)."""
    rule_pt = rule_pt or max(RULE_PT[0], math.floor(min(14.0, safe.w / 4.8) * 2) / 2)  # bigger card, bigger rule
    example_pt = max(EXAMPLE_PT[0], rule_pt * 0.8)
    head_h = min(10.0, max(7.5, safe.h * 0.12))
    title_fit = (measure(title, BOLD, TITLE_PT, PLAY_PT, safe.w, max_lines=1)
                 or measure(title, BOLD, TITLE_PT, PLAY_PT, safe.w, max_lines=2))
    low = art.top - head_h if title_fit is None else min(art.top - head_h, safe.top - title_fit.height - 1.8)
    head = Rect(art.x, low, art.w, art.top - low)
    top = head.y - GAP
    name_fit = (measure(name, BOLD, NAME_PT[0], NAME_ONE_LINE, safe.w, max_lines=1)
                or measure(name, BOLD, NAME_PT[0], NAME_PT[1], safe.w, max_lines=2))
    name_fit = name_fit or FittedText(NAME_PT[1], (name,), 0.0, 0.0, 5.0)  # (text_box reports what cannot fit)
    name_h = name_fit.height
    name_box = Rect(safe.x, top - name_h, safe.w, name_h)
    top = name_box.y - GAP
    bottom = safe.y
    tries = [(floor, icon, example) for floor, icons in ((RULE_GOOD, (0.42, 0.36, 0.3, 0.26)),
                                                         (RULE_PT[1], (0.26, 0.2)))
             for icon in icons for example in (True,)] + [(RULE_PT[1], 0.2, False), (RULE_PT[1], 0.0, False)]
    for floor, with_icon, with_example in tries:
        icon_h = safe.h * with_icon
        ex_fit = measure(example, ITALIC, example_pt, EXAMPLE_PT[1], safe.w - 2 * PAD) if with_example else None
        ex_h = ex_fit.height + 2 * PAD if ex_fit else 0.0
        room = top - bottom - icon_h - (GAP if icon_h else 0) - (ex_h + GAP if ex_fit else 0)
        rule_fit = measure(rule, TEXT, rule_pt, floor, safe.w, room)
        if rule_fit is None:
            continue
        # the icon takes the room the rule leaves (within 42% of the card)
        spare = room - rule_fit.height
        if icon_h:
            icon_h = min(safe.h * ICON_MOST, icon_h + max(0.0, spare - 2 * GAP))
        icon = Rect(safe.x, top - icon_h, safe.w, icon_h) if icon_h else None
        rule_top = (icon.y - GAP) if icon else top
        ex = Rect(safe.x, bottom, safe.w, ex_h) if ex_fit else None
        rule_bottom = (ex.top + GAP) if ex else bottom
        return Layout(head, name_box, name_fit, icon, Rect(safe.x, rule_bottom, safe.w, rule_top - rule_bottom), ex,
                      rule_fit, ex_fit)
    # nothing fits: let text_box report the field that does not fit (with the card and size)
    return Layout(head, name_box, name_fit, None, Rect(safe.x, bottom, safe.w, top - bottom), None,
                  FittedText(RULE_PT[1], (), 0, 0, 0), None)


def deck_rule_pt(safe: Rect, art: Rect, cards: tuple[tuple[str, str, str, str], ...]) -> float:
    """The size every rule of a deck is set in: the smallest any of its cards needs, so the
    cards of one deck read alike. ``cards``: (title, name, rule, example) of each."""
    return min(layout(safe, art, *card).rule_fit.size for card in cards)


def module_front(pen: Pen, title: str, name: str, rule: str, example: str, icon: Icon, accent: str,
                 colours: dict, deck: tuple[tuple[str, str, str, str], ...] = ()) -> None:
    """A Shared Objective or Pencil Power card (see the module docstring); ``deck``: every card
    of its deck as (title, name, rule, example), so all rules print at one size."""
    s, art = pen.safe, pen.art_box
    pen.background(PAPER)
    lay = layout(s, art, title, name, rule, example, deck_rule_pt(s, art, deck) if deck else None)
    pen.rect(lay.head.x, lay.head.y, lay.head.w, lay.head.h, fill=accent, radius=2.0)
    band = Rect(s.x, lay.head.y + 0.8, s.w, max(1.0, min(lay.head.top, s.top) - lay.head.y - 1.0))
    pen.text_box(band, title, font=BOLD, size=TITLE_PT, min_size=PLAY_PT, colour=pen.text_on(accent, WHITE),
                 max_lines=2, field="title")
    pen.text_box(lay.name, name, font=BOLD, size=NAME_PT[0], min_size=NAME_PT[1], colour=INK,
                 max_lines=1 if len(lay.name_fit.lines) == 1 else 2, field="name")
    if lay.icon is not None:
        box = lay.icon
        w = min(box.w, 1.9 * box.h)  # no long flat frame: a ring inside it would read as a roundel's bar
        pen.rect(box.x + (box.w - w) / 2, box.y, w, box.h, fill=WHITE, stroke=accent, width=0.5, radius=2.5)
        a = min(box.w, box.h) * 0.82
        icon(pen, box.x + box.w / 2, box.y + box.h / 2, a, colours)
    pen.text_box(lay.rule, rule, size=lay.rule_fit.size or RULE_PT[0], min_size=RULE_PT[1], colour=INK, align="left", valign="middle",
                 field="rules")
    if lay.example is not None:
        e = lay.example
        pen.rect(e.x, e.y, e.w, e.h, fill=PANEL, radius=1.5)
        pen.text_box(e.inset(PAD, PAD), example, font=ITALIC, size=lay.example_fit.size if lay.example_fit else
                     EXAMPLE_PT[0], min_size=EXAMPLE_PT[1],
                     colour=INK, align="left", valign="middle", field="example")


__all__ = ["ICONS", "Layout", "deck_rule_pt", "layout", "module_front"]
