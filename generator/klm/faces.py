"""Keep London Moving faces: Station Cards, Fortune Cards, both backs, the reference cards and
the Play Field sheet. Faces draw the very :class:`~tubedeck.games.klm.StationCard` objects the
checker reasons about; nothing here decides a rule.

Station Card, top to bottom: name and Fare Zone; Line Colour bars; the illustration (the station
and its in-scope neighbours placed by compass bearing, each link in its line colour with its
Connection Number) beside the Nearest Station list (number badge + neighbour); Interchange,
Borough, Date Built, Heritage, Easy Access; the Card Description. The outline is black for a
tunnel station, white for an open section, and left off when the dataset does not know.
"""

from __future__ import annotations

import math
from functools import partial

from generator.document import Card, Deck, Sheet
from generator.emblem import emblem
from generator.options import PrintOptions
from generator.pen import Pen
from generator.sizes import Rect
from generator.text import TextFitError, fit
from generator.theme import BLUE, GREY, INK, PAPER, RED, YELLOW
from tubedeck.games.klm.cards import FortuneCard, StationCard
from tubedeck.games.klm.edition import Edition
from tubedeck.games.klm.rules import Texts
ACTION_COLOUR = {"disable": "#B3261E", "block_connection": "#B3261E", "enable": "#00782A", "protect": "#00782A",
                 "draw_fortune": "#0019A8", "draw_station": "#0019A8", "take_discard": "#6A3D9A",
                 "discard_fortune": "#6A3D9A"}
ACTION_GLYPH = {"disable": "X", "block_connection": "||", "enable": "OK", "protect": "+", "draw_fortune": "+1",
                "draw_station": "+1", "take_discard": "<-", "discard_fortune": "-1"}


def badge(pen: Pen, cx: float, cy: float, r: float, number: int) -> None:
    """A Connection Number: white disc, black ring, bold number."""
    pen.circle(cx, cy, r, fill="#FFFFFF", stroke=INK, width=0.3)
    pen.text_box(Rect(cx - r * 0.85, cy - r * 0.7, r * 1.7, r * 1.4), str(number), font="sans-bold", size=9,
                 min_size=3, colour=INK, max_lines=1, field="number")


def outline(pen: Pen, card: StationCard) -> None:
    t = pen.trim
    if card.outline == "black":
        pen.rect(t.x + 1.2, t.y + 1.2, t.w - 2.4, t.h - 2.4, stroke=INK, width=2.0, radius=3)
    elif card.outline == "white":
        pen.rect(t.x + 1.2, t.y + 1.2, t.w - 2.4, t.h - 2.4, stroke="#FFFFFF", width=2.0, radius=3)
        pen.rect(t.x + 0.15, t.y + 0.15, t.w - 0.3, t.h - 0.3, stroke="#C8C8C8", width=0.15, radius=3.5)
        pen.rect(t.x + 2.25, t.y + 2.25, t.w - 4.5, t.h - 4.5, stroke="#C8C8C8", width=0.15, radius=2.2)


def schematic(pen: Pen, box: Rect, card: StationCard) -> None:
    """The station (centre) and its neighbours by bearing; links in line colours, with numbers."""
    cx, cy = box.centre
    r = min(box.w, box.h) / 2 - 2.4
    spots = [[math.radians(c.bearing), c] for c in card.connections]
    spots.sort(key=lambda s: s[0])
    for _ in range(8):  # spread neighbours that share a bearing (at least 40 degrees apart)
        for a, b in zip(spots, spots[1:]):
            if b[0] - a[0] < math.radians(40):
                b[0] = a[0] + math.radians(40)
    if len(spots) > 1 and spots[0][0] + 2 * math.pi - spots[-1][0] < math.radians(40):
        spots[0][0] = spots[-1][0] + math.radians(40) - 2 * math.pi
    for angle, c in spots:
        x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
        colours = [m.colour for m in c.lines] or [GREY]
        nx_, ny_ = -math.sin(angle), math.cos(angle)
        for i, col in enumerate(colours):  # parallel strokes, one per line
            off = (i - (len(colours) - 1) / 2) * 1.1
            pen.line(cx + nx_ * off, cy + ny_ * off, x + nx_ * off, y + ny_ * off, stroke=col, width=1.0)
        badge(pen, x, y, 2.1, c.number)  # the neighbour, marked with the shared Connection Number
    if card.interchange:
        pen.circle(cx, cy, 2.6, fill="#FFFFFF", stroke=INK, width=0.8)
    else:
        pen.circle(cx, cy, 2.2, fill=INK)
    if not card.connections:
        pen.text_box(Rect(box.x, box.y, box.w, 6), "no connection in this deck", size=6, min_size=4, colour=GREY,
                     field="illustration")


SHORT = {"Hammersmith & City": "H&C", "Waterloo & City": "W&C"}  # the rulebook's abbreviations


def fact_lines(card: StationCard) -> list[tuple[str, str]]:
    """The glossary facts that are known, as (label, value); unknown ones are left off."""
    out = []
    if card.interchange:
        names = [SHORT.get(m.name, m.name) for m in card.line_marks if m.id in card.interchange_lines]
        names += list(card.interchange_modes)
        out.append(("Interchange", ", ".join(names)))
    if card.borough:
        out.append(("Borough", card.borough))
    if card.built:
        out.append(("Built", card.built))
    if card.heritage:
        out.append(("Heritage", card.heritage))
    if card.easy_access is not None:
        out.append(("Easy Access", "yes" if card.easy_access else "no"))
    return out


def station_front(pen: Pen, card: StationCard) -> None:
    s = pen.safe
    pen.background(PAPER)
    outline(pen, card)
    u = s.h / 81.0  # layout unit: 1 mm on a poker card
    top = s.top
    # name + zone
    zone_w = 11 * u
    pen.rect(s.right - zone_w, top - 6.5 * u, zone_w, 6.5 * u, fill=INK, radius=1)
    pen.text_box(Rect(s.right - zone_w + 0.5, top - 6.3 * u, zone_w - 1, 6.1 * u), f"Zone {card.zone}",
                 font="sans-bold", size=8, min_size=4, colour="#FFFFFF", max_lines=2, field="zone")
    pen.text_box(Rect(s.x, top - 11 * u, s.w - zone_w - 1.5, 11 * u), card.name, font="sans-bold", size=13,
                 min_size=6.5, colour=INK, align="left", valign="top", max_lines=3, field="name")
    top -= 12 * u
    # Line Colour(s)
    n = max(1, len(card.line_marks))
    bw = (s.w - (n - 1) * 0.8) / n
    for i, line in enumerate(card.line_marks):
        pen.rect(s.x + i * (bw + 0.8), top - 3.2 * u, bw, 3.2 * u, fill=line.colour, stroke=INK, width=0.1)
    label = " \u00b7 ".join(m.name for m in card.line_marks)
    pen.text_box(Rect(s.x, top - 7 * u, s.w, 3.4 * u), label, size=6.5, min_size=3.8, colour=INK, max_lines=1,
                 field="lines")
    top -= 8 * u
    # illustration + Nearest Station list
    ill_h = 27 * u
    schematic(pen, Rect(s.x, top - ill_h, s.w * 0.5, ill_h), card)
    lx, lw = s.x + s.w * 0.5 + 1, s.w * 0.5 - 1
    tag = "TERMINUS" if card.terminus else "Nearest stations"
    pen.text(lx, top - 2.6 * u, tag, font="sans-bold", size=6.5 if card.terminus else 5.5,
             colour=RED if card.terminus else GREY, field="terminus")
    rows = max(1, len(card.connections))
    row_h = min(4.6 * u, (ill_h - 4 * u) / rows)
    y = top - 4 * u
    for c in card.connections:
        badge(pen, lx + 1.9, y - row_h / 2, min(1.9, row_h / 2 - 0.1), c.number)
        pen.text_box(Rect(lx + 4.3, y - row_h, lw - 4.3, row_h), c.neighbour_name, size=6.5, min_size=3.5,
                     colour=INK, align="left", max_lines=2, field="nearest")
        y -= row_h
    top -= ill_h + 1.5 * u
    # facts
    facts = fact_lines(card)
    fact_h = 3.6 * u
    for label_, value in facts:
        rows = 2 if label_ == "Interchange" and pen.text_width(value, size=5.5) > s.w - 15 * u else 1
        pen.text_box(Rect(s.x, top - fact_h, 15 * u, fact_h), label_, font="sans-bold", size=5.5, min_size=3.5,
                     colour=INK, align="left", valign="top", max_lines=1, field="fact")
        pen.text_box(Rect(s.x + 15 * u, top - rows * fact_h, s.w - 15 * u, rows * fact_h), value, size=5.5,
                     min_size=3.5, colour=INK, align="left", valign="top", max_lines=rows, field="fact")
        top -= rows * fact_h
    # description
    if top - s.y > 3:
        pen.line(s.x, top - 0.6, s.right, top - 0.6, stroke=GREY, width=0.15)
        pen.text_box(Rect(s.x, s.y, s.w, top - 1.2 - s.y), card.description, font="sans-italic", size=6,
                     min_size=3.5, colour=INK, align="left", valign="top", field="description")


def back(pen: Pen, colour: str, ring: str, word: str, ink: str = "#FFFFFF", title: str = "KEEP LONDON MOVING") -> None:
    t, s = pen.trim, pen.safe
    pen.background(colour)
    frame = ink if not pen.ink_saver else colour
    pen.rect(s.x, s.y, s.w, s.h, stroke=frame, width=0.6, radius=2.5)
    emblem(pen, t.w / 2, t.h / 2, min(t.w, t.h) * 0.3, ring, ring, word)
    text_colour = ink if not pen.ink_saver else colour
    pen.text_box(Rect(s.x, s.top - 12, s.w, 10), title, font="sans-bold", size=11, min_size=6, colour=text_colour,
                 max_lines=2, field="title")


station_back = partial(back, colour=BLUE, ring=RED, word="STATION")
fortune_back = partial(back, colour=YELLOW, ring=RED, word="FORTUNE", ink=INK)


def fortune_front(pen: Pen, card: FortuneCard, footer: str) -> None:
    k, t, s = card.kind, pen.trim, pen.safe
    colour = ACTION_COLOUR[k.action]
    pen.background(PAPER)
    band = s.h * 0.2
    pen.rect(pen.bleed_box.x, s.top - band, pen.bleed_box.w, band + (pen.bleed_box.top - s.top), fill=colour)
    pen.text_box(Rect(s.x, s.top - band + 1, s.w, band - 1.5), k.name, font="sans-bold", size=14, min_size=7,
                 colour="#FFFFFF", max_lines=2, field="name")
    r = min(t.w, t.h) * 0.17
    cy = s.top - band - r - 4
    pen.circle(t.w / 2, cy, r, fill="#FFFFFF", stroke=colour, width=1.8)
    glyph = str(k.turns) if k.turns else ACTION_GLYPH[k.action]
    pen.text_box(Rect(t.w / 2 - r * 0.7, cy - r * 0.55, r * 1.4, r * 1.1), glyph, font="sans-bold", size=24,
                 min_size=8, colour=colour, max_lines=1, field="glyph")
    if k.turns:
        pen.text_box(Rect(s.x, cy - r - 5, s.w, 4), f"{k.turns} turn{'s' if k.turns > 1 else ''} (yours)",
                     size=7, min_size=4, colour=INK, max_lines=1, field="turns")
    pen.text_box(Rect(s.x, s.y + 7, s.w, cy - r - 7 - s.y - 7), k.effect, size=10, min_size=5.5, colour=INK,
                 max_lines=8, field="effect")
    pen.text_box(Rect(s.x, s.y, s.w, 5.5), footer,
                 font="sans-italic", size=5.5, min_size=3.5, colour=GREY, max_lines=2, field="footer")


def paragraphs(pen: Pen, box: Rect, texts: list[str], size: float = 8.0, min_size: float = 4.0,
               gap: float = 1.2) -> None:
    """Stack paragraphs top-down in ``box`` at the largest common size that fits them all."""
    s = size
    while s >= min_size - 1e-9:
        try:
            heights = [fit(t, "sans", s, s, box.w, box.h).height for t in texts]
        except TextFitError:
            heights = None
        if heights and sum(heights) + gap * (len(texts) - 1) <= box.h:
            top = box.top
            for t, h in zip(texts, heights):
                pen.text_box(Rect(box.x, top - h, box.w, h), t, size=s, min_size=s, colour=INK, align="left",
                             valign="top", field="rules")
                top -= h + gap
            return
        s = round(s - 0.25, 2)
    raise TextFitError(pen.label, "rules", " ".join(texts), box.w, box.h, min_size)


def reference_front(pen: Pen, title: str, lines: list[str]) -> None:
    s = pen.safe
    pen.background(PAPER)
    pen.rect(pen.bleed_box.x, s.top - 9, pen.bleed_box.w, 9 + pen.bleed_box.top - s.top, fill=BLUE)
    pen.text_box(Rect(s.x, s.top - 8, s.w, 7), title, font="sans-bold", size=12, min_size=6, colour="#FFFFFF",
                 max_lines=1, field="title")
    paragraphs(pen, Rect(s.x, s.y, s.w, s.h - 11), lines)


def play_field(pen: Pen, card_w: float, card_h: float, texts: Texts) -> None:
    s = pen.safe
    pen.text_box(Rect(s.x, s.top - 12, s.w, 12), texts.play_field_title, font="sans-bold", size=18,
                 min_size=9, colour=INK, field="title")
    slots = (("Station Cards Stock", BLUE), ("Discarded Station Cards", BLUE),
             ("Fortune Cards Stock", "#B38F00"), ("Discarded Fortune Cards", "#B38F00"))
    gap = (s.w - 4 * card_w) / 5
    if gap < 2:  # landscape A4 fits four poker cards; otherwise two rows
        card_w, card_h = card_w * 0.7, card_h * 0.7
        gap = (s.w - 4 * card_w) / 5
    y = s.top - 22 - card_h
    for i, (name, colour) in enumerate(slots):
        x = s.x + gap + i * (card_w + gap)
        face_up = "Discarded" in name
        pen.rect(x, y, card_w, card_h, stroke=colour, width=0.6, radius=2.5, fill=None)
        pen.text_box(Rect(x + 2, y + 2, card_w - 4, card_h - 4), name + ("\n(face up)" if face_up else "\n(face down)"),
                     font="sans-bold", size=10, min_size=5, colour=colour, field="slot")
    pen.text_box(Rect(s.x, s.y, s.w, y - 6 - s.y), texts.play_field_notes, size=11, min_size=6, colour=INK, align="left",
                 valign="top", field="notes")


def documents(edition: Edition, options: PrintOptions) -> list:
    """Every Keep London Moving print document of one edition: the Station deck of its scope,
    the Fortune deck, the quick-reference cards and the Play Field sheet."""
    deck, texts = edition.deck, edition.book.texts
    card_mm = (options.card.width, options.card.height)
    stations = Deck("stations", [Card(c.station, partial(station_front, card=c), label=c.name)
                                 for c in sorted(deck.cards, key=lambda c: (c.name.lower(), c.station))],
                    back=station_back, title=f"Keep London Moving: Station Cards ({deck.scope.label})")
    fortunes = Deck("fortune", [Card(f.id, partial(fortune_front, card=f, footer=texts.fortune_footer),
                                     label=f.kind.name) for f in edition.fortune],
                    back=fortune_back, title="Keep London Moving: Fortune Cards")
    reference = Deck("reference", [Card(f"reference-{i + 1}", partial(reference_front, title=r.title, lines=list(r.lines)),
                                        label=r.title) for i, r in enumerate(texts.reference)],
                     back=station_back, title="Keep London Moving: quick reference")
    field = Sheet("play-field", (partial(play_field, card_w=card_mm[0], card_h=card_mm[1], texts=texts),),
                  title=texts.play_field_title, landscape=True)
    return [stations, fortunes, reference, field]
