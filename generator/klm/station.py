"""Keep London Moving's Station Card front, drawn from its :mod:`~generator.klm.plan`.

Top to bottom: the name and the Fare Zone; the Line Colour bars and the lines' names; the
illustration (:mod:`tubedeck.generator.klm.schematic`: the station and its in-scope neighbours by compass
bearing, links in line colours, each end marked with the shared Connection Number) above or
beside the Nearest Stations list (number badge + neighbour); the facts (Interchange, Borough,
Built, Heritage, Easy Access); the Card Description. The outline is black for a tunnel station,
white for an open section, and left off when the dataset does not know; it says so on the card, on
a tab at the end of the Line Colour bars (:func:`frame_tab`: TUNNEL, OPEN AIR, NOT KNOWN, 7 pt);
everything else lies in
:func:`content_box`, 1.5 mm inside the outline's inner edge on every card size. What a card size cannot
carry is left off in the plan's order; nothing play needs goes below 7 pt.
"""

from __future__ import annotations

from tubedeck.games.klm.cards import StationCard
from tubedeck.generator.icons import badge, badge_size
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT, Rect
from tubedeck.generator.text import size_label
from tubedeck.generator.theme import BOLD, GREY, INK, ITALIC, MUTED, PAPER, PLAY_PT, RED_TEXT, TEXT, WHITE

from .plan import (  # noqa: F401
    CAPS,
    FRAME_GAP,
    FRAME_PT,
    FRAME_WORDS,
    GAP,
    HEAD_PT,
    ROW_GAP,
    Plan,
    fact_lines,
    frame_word,
    heading,
    heading_height,
    ink_height,
    number_pt,
    plan,
    row_height,
)
from .plan import frame_tab as plan_frame_tab
from .schematic import schematic

OUTLINE = (3.0, 3.9)  # mm inside the trim: clear of a miscut and of the drift margin, outside the text
EDGE = 0.2  # mm: the black lines edging a white outline, centred on its two edges
PAD = 1.5  # mm between the outline's inner edge (its edging line included) and anything inside it


CORNER = 2.4  # mm: the outline's outer corner radius; its edges are concentric with it


def corner(inset: float) -> float:
    """The corner radius of the outline's line ``inset`` mm inside the trim: concentric curves, so
    the inner edge's radius (1.4 mm) stays under :data:`PAD` and the content's corners keep the
    padding too (a corner of radius r > PAD comes within r - (r - PAD) * sqrt 2 of them)."""
    return CORNER - (inset - OUTLINE[0])


def content_box(trim: Rect) -> Rect:
    """Where a Station Card's content goes: :data:`PAD` inside the outline's inner edge (5.5 mm
    inside the trim), on every card, outlined or not, so every size keeps the padding."""
    return trim.inset(OUTLINE[1] + EDGE / 2 + PAD)


def outline(pen: Pen, card: StationCard) -> None:
    """Tunnel: a solid black frame. Open section: a white frame edged in black, so it reads on the
    cream card and in greyscale. Both sit inside the trim, clear of cutting error."""
    t = pen.trim
    a, b = OUTLINE
    mid, width = (a + b) / 2, b - a
    box = t.inset(mid)
    if card.outline == "black":
        pen.rect(box.x, box.y, box.w, box.h, stroke=INK, width=width, radius=corner(mid))
    elif card.outline == "white":
        pen.rect(box.x, box.y, box.w, box.h, stroke=WHITE, width=width, radius=corner(mid))
        for edge in (a, b):
            e = t.inset(edge)
            pen.rect(e.x, e.y, e.w, e.h, stroke=INK, width=EDGE, radius=corner(edge))


def frame_tab(pen: Pen, card: StationCard, y: float, h: float) -> float:
    """The outline's word on a tab the outline carries, in the Line Colour bars' row (``y`` its
    bottom, ``h`` its height) at the card's right: TUNNEL in white on a black tab that grows out of
    the black outline, OPEN AIR on a white tab edged in black that opens into the white outline,
    NOT KNOWN (no outline) on a plain tab edged in grey. The word ends at the content box's right,
    :data:`PAD` inside the outline's inner edge, like all the text. Returns the tab's left end."""
    word, w, _ = plan_frame_tab(card)
    t, s = pen.trim, content_box(pen.trim)
    a, b = OUTLINE
    x = s.right - w - PAD  # the word keeps PAD on its left too
    baseline = y + (h - CAPS * FRAME_PT * PT) / 2  # the capitals centred on the tab
    if card.outline == "black":
        pen.rect(x, y, t.right - (a + b) / 2 - x, h, fill=INK, radius=0.6)
        colour = WHITE
    elif card.outline == "white":
        inner = t.right - b  # the white band's inner edge line
        pen.rect(x, y, t.right - (a + b) / 2 - x, h, fill=WHITE)  # over the inner edge line: one white shape
        pen.polyline(((inner, y + h), (x, y + h), (x, y), (inner, y)), stroke=INK, width=EDGE)
        colour = INK
    else:
        pen.rect(x, y, s.right + PAD - x, h, fill=WHITE, stroke=GREY, width=EDGE, radius=0.6)
        colour = INK
    pen.text(s.right, baseline, word, font=BOLD, size=FRAME_PT, colour=colour, align="right", field="frame")
    return x


def _nearest(pen: Pen, p: Plan, card: StationCard, x: float, top: float) -> None:
    if heading_height(card, p.compact):
        pen.text(x, top - 0.928 * HEAD_PT * PT, heading(card), font=BOLD, size=HEAD_PT,
                 colour=RED_TEXT if card.terminus else MUTED, field="terminus")
        top -= heading_height(card, p.compact)
    pill_h = badge_size("0", number_pt(p.list_pt, p.compact))[1]
    if not p.rows:
        pen.text(x, top - 0.928 * PLAY_PT * PT, "no connection in this deck", size=PLAY_PT, colour=MUTED,
                 field="illustration")
        return
    per = -(-len(p.rows) // p.cols)
    y = top
    for i, (number, name) in enumerate(p.rows):
        col, k = divmod(i, per)
        if k == 0:
            y = top
        cx = x + col * (p.list_w + 2.0)
        badge(pen, cx + p.pill_w / 2, y - pill_h / 2, number, number_pt(p.list_pt, p.compact), width=p.pill_w)
        pen.fitted_lines(name, cx + p.pill_w + 1.0, y - (pill_h - ink_height(p.list_pt)) / 2, font=TEXT, colour=INK,
                         field="nearest")
        y -= row_height(pill_h, p.list_pt, name) + ROW_GAP[p.compact]


def station_front(pen: Pen, card: StationCard, size: str = "") -> None:
    s = content_box(pen.trim)
    p = plan(card, s, size or size_label(pen.trim.w, pen.trim.h), pen.label)
    pen.background(PAPER)
    outline(pen, card)
    g, top = p.gap, s.top
    zw, zh, zpt = p.zone
    pen.rect(s.right - zw, top - zh, zw, zh, fill=INK, radius=1)
    pen.text(s.right - zw / 2, top - zh / 2 - 0.36 * zpt * PT, f"Zone {card.zone}", font=BOLD, size=zpt,
             colour=WHITE, align="centre", field="zone")
    pen.fitted_lines(p.name, s.x, top, font=BOLD, colour=INK, field="name", align="left")
    top -= p.header_h + g
    tab_x = frame_tab(pen, card, top - p.bars_h, p.bars_h)
    n = max(1, len(card.line_marks))
    bw = (tab_x - FRAME_GAP - s.x - (n - 1) * 0.8) / n
    for i, line in enumerate(card.line_marks):
        pen.rect(s.x + i * (bw + 0.8), top - p.bars_h, bw, p.bars_h, fill=line.colour, stroke=INK, width=0.1)
    top -= p.bars_h
    if p.label:
        pen.fitted_lines(p.label, s.x + s.w / 2, top - 0.6, font=TEXT, colour=INK, field="lines",
                         align="centre")
        top -= 0.6 + p.label.height
    top -= g
    text_x, text_w = s.x, s.w
    if p.arrangement == "side":
        schematic(pen, Rect(s.x, top - p.d, p.d, p.d), card, number_pt(p.list_pt, p.compact), p.numbered)
        _nearest(pen, p, card, s.x + p.d + GAP, top)
        top -= max(p.d, p.list_h) + g
    elif p.arrangement == "stack":
        schematic(pen, Rect(s.x, top - p.d, s.w, p.d), card, number_pt(p.list_pt, p.compact), p.numbered, p.ring_d)
        top -= p.d + g
        _nearest(pen, p, card, s.x, top)
        top -= p.list_h + g
    elif p.arrangement == "wide":
        schematic(pen, Rect(s.right - p.d, top - p.d, p.d, p.d), card, number_pt(p.list_pt, p.compact), p.numbered)
        text_w = p.desc_w
        _nearest(pen, p, card, s.x, top)
        top -= p.list_h + g
    else:
        _nearest(pen, p, card, s.x, top)
        top -= p.list_h + g
    if p.facts:
        for label, value in p.facts:
            pen.fitted_lines(label, text_x, top, font=BOLD, colour=INK, field="fact", align="left")
            pen.fitted_lines(value, text_x + p.fact_label_w, top, font=TEXT, colour=INK, field="fact", align="left")
            top -= value.height + 0.35 * value.size * PT
        top -= g
    if p.desc is not None:
        pen.line(text_x, top + g / 2, text_x + text_w, top + g / 2, stroke=GREY, width=0.15)
        pen.fitted_lines(p.desc, text_x, top, font=ITALIC, colour=INK, field="description", align="left")
