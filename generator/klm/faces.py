"""Keep London Moving faces: Station Cards, Fortune Cards, both backs, the reference cards and
the Play Field sheet. Faces draw the very :class:`~tubedeck.games.klm.StationCard` objects the
checker reasons about; nothing here decides a rule.

The Station Card front is :mod:`tubedeck.generator.klm.station` (its illustration
:mod:`tubedeck.generator.klm.schematic`), the Fortune Card front :mod:`tubedeck.generator.klm.fortune`; both lay
out from the card's size. A reference card whose rules do not fit the card size at 7 pt is
split over as many cards as it takes ("Your turn (1/2)", "(2/2)").
"""

from __future__ import annotations

from functools import partial
from itertools import combinations

from tubedeck.games.klm.edition import Edition
from tubedeck.games.klm.rules import Texts
from tubedeck.generator.document import Card, Deck, Pages
from tubedeck.generator.identity import GROUNDS, Cover, bands_art, cover_faces, network_art, routes_of, strips_art
from tubedeck.generator.identity import back as designed_back
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import DRIFT, Pen
from tubedeck.generator.sizes import CardGeometry, Rect
from tubedeck.generator.text import TextFitError, fit, measure, sized
from tubedeck.generator.theme import BLUE, BOLD, GOLD_TEXT, INK, MIN_PT, PAPER, PLAY_PT, WHITE

from .fortune import ACTION_COLOUR, fortune_front  # noqa: F401 - faces' public names
from .station import fact_lines, outline, station_front  # noqa: F401

RULES_PT = (9.0, PLAY_PT)  # the reference is read in play: 7 pt at least, more cards instead

def _rules_fit(texts: list[str], box: Rect) -> tuple[float, list[float]] | None:
    """The largest common size (9 pt down to 7) at which ``texts`` stack in ``box``."""
    s = RULES_PT[0]
    while s >= RULES_PT[1] - 1e-9:
        fits = [measure(t, "sans", s, s, box.w) for t in texts]
        heights = [f.height for f in fits if f is not None]
        if len(heights) == len(texts) and sum(heights) + 1.2 * (len(texts) - 1) <= box.h:
            return s, heights
        s = round(s - 0.25, 2)
    return None


def paragraphs(pen: Pen, box: Rect, texts: list[str], size: float = RULES_PT[0], min_size: float = RULES_PT[1],
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


def _reference_body(safe: Rect) -> Rect:
    return Rect(safe.x, safe.y, safe.w, safe.h - 11)


def reference_front(pen: Pen, title: str, lines: list[str]) -> None:
    s, b = pen.safe, pen.art_box
    pen.background(PAPER)
    pen.rect(b.x, s.top - 9, b.w, 9 + b.top - s.top, fill=BLUE)
    pen.text_box(Rect(s.x, s.top - 8, s.w, 7), title, font=BOLD, size=12, min_size=7, colour=WHITE, max_lines=1,
                 field="title")
    paragraphs(pen, _reference_body(s), lines)


def reference_cards(texts: Texts, safe: Rect) -> list[tuple[str, list[str]]]:
    """(title, lines) per reference card: each reference on one card if it fits at 7 pt, else split
    into as few consecutive parts as fit, the split that prints the biggest type ("Your turn (1/2)")."""
    body = _reference_body(safe)
    out = []
    for ref in texts.reference:
        lines = list(ref.lines)
        k, rest = 0, lines
        while rest:  # how many cards, filling each in turn
            n = len(rest)
            while n > 1 and _rules_fit(rest[:n], body) is None:
                n -= 1
            k, rest = k + 1, rest[n:]
        best, parts = -1.0, [lines]
        for cuts in combinations(range(1, len(lines)), k - 1):
            split = [lines[a:b] for a, b in zip((0,) + cuts, cuts + (len(lines),))]
            fits = [_rules_fit(part, body) for part in split]
            worst = min((f[0] for f in fits if f is not None), default=0.0) if all(fits) else -1.0
            if worst > best:
                best, parts = worst, split
        for i, part in enumerate(parts):  # a paragraph that fits no card fails when drawn, by name
            out.append((ref.title if len(parts) == 1 else f"{ref.title} ({i + 1}/{len(parts)})", part))
    return out


def play_field(pen: Pen, card_w: float, card_h: float, texts: Texts) -> None:
    s = pen.safe
    pen.text_box(Rect(s.x, s.top - 12, s.w, 12), texts.play_field_title, font=BOLD, size=18,
                 min_size=9, colour=INK, field="title")
    slots = (("Station Cards Stock", BLUE, BLUE), ("Discarded Station Cards", BLUE, BLUE),
             ("Fortune Cards Stock", GOLD_TEXT, GOLD_TEXT), ("Discarded Fortune Cards", GOLD_TEXT, GOLD_TEXT))
    # (the Fortune yellow outlined the Fortune slots: 1.44:1 on white, faint in black and white)
    room = s.h - 22 - 30  # below the title; at least 30 mm for the notes
    card_w, card_h = card_w + 3.0, card_h + 3.0  # room for a sleeved card
    scale = min(1.0, (s.w - 5 * 2) / (4 * card_w), room / card_h)  # four slots in a row, true size if they fit
    card_w, card_h = card_w * scale, card_h * scale
    gap = (s.w - 4 * card_w) / 5
    y = s.top - 22 - card_h
    for i, (name, colour, ink) in enumerate(slots):
        x = s.x + gap + i * (card_w + gap)
        face_up = "Discarded" in name
        pen.rect(x, y, card_w, card_h, stroke=colour, width=0.8, radius=2.5, fill=None)
        pen.text_box(Rect(x + 2, y + 2, card_w - 4, card_h - 4), name + ("\n(face up)" if face_up else "\n(face down)"),
                     font=BOLD, size=10, min_size=MIN_PT, colour=ink, field="slot")
    pen.text_box(Rect(s.x, s.y, s.w, y - 6 - s.y), texts.play_field_notes, size=11, min_size=MIN_PT, colour=INK,
                 align="left", valign="top", field="notes")


def designed_backs(edition: Edition) -> tuple:
    """The three decks' designed backs (:mod:`tubedeck.generator.identity`), drawn from the scope's
    network: the Station Cards its lines as a diagram on the Station blue, the Fortune Cards the
    lines' colours as bands and the reference cards the lines as a strip map, both on the Fortune
    yellow (they share sheets: their grounds run over each other's edges)."""
    net = edition.scope_network
    lines = sorted(net.lines.values(), key=lambda line: line.name)
    return (designed_back("klm", "Station Cards", network_art(routes_of(net)), GROUNDS["klm stations"]),
            designed_back("klm", "Fortune Cards", bands_art([line.colour for line in lines]), GROUNDS["klm fortune"]),
            designed_back("klm", "Quick Reference", strips_art([(line.colour, len(net.stations_on(line.id)))
                                                                for line in lines]), GROUNDS["klm fortune"]))


def cover_deck(edition: Edition, size: str, contents: tuple[str, ...]) -> Deck:
    """The cover card, printed on the Fortune Cards' sheets (one card size; its back on their yellow)."""
    from tubedeck.games.klm import GAME

    cover = Cover(GAME.summary, GAME.players, "about 30 min", contents)
    front, back = cover_faces("klm", cover, network_art(routes_of(edition.scope_network)),
                              back_ground=GROUNDS["klm fortune"])
    return Deck("cover", (Card("cover", sized(front, size), back=sized(back, size), label="cover"),),
                title="Keep London Moving: cover card", share="fortune-and-reference", back_bleed=DRIFT)


def documents(edition: Edition, options: PrintOptions) -> list:
    """Every Keep London Moving print document of one edition: the Station deck of its scope,
    the Fortune deck, the quick-reference cards, the Play Field sheet and the cover card."""
    deck, texts = edition.deck, edition.book.texts
    size = options.card.label()
    card_mm = (options.card.width, options.card.height)
    s_back, f_back, r_back = (sized(b, size) for b in designed_backs(edition))
    stations = Deck("stations", tuple(Card(c.station, partial(station_front, card=c, size=size), label=c.name)
                                      for c in sorted(deck.cards, key=lambda c: (c.name.lower(), c.station))),
                    back=s_back, title=f"Keep London Moving: Station Cards ({deck.scope.label})", back_bleed=DRIFT)
    fortunes = Deck("fortune", tuple(Card(f.id, partial(fortune_front, card=f, footer=texts.fortune_footer, size=size),
                                          label=f.kind.name) for f in edition.fortune),
                    back=f_back, title="Keep London Moving: Fortune Cards", share="fortune-and-reference",
                    back_bleed=DRIFT)
    safe = CardGeometry(options.card.width, options.card.height).safe
    reference = Deck("reference", tuple(Card(f"reference-{i + 1}", sized(partial(reference_front, title=t, lines=lines),
                                                                         size), label=t)
                                        for i, (t, lines) in enumerate(reference_cards(texts, safe))),
                     back=r_back, title="Keep London Moving: quick reference", share="fortune-and-reference",
                     back_bleed=DRIFT)
    field = Pages("play-field", (partial(play_field, card_w=card_mm[0], card_h=card_mm[1], texts=texts),),
                  title=texts.play_field_title, landscape=True, note="one sheet in the middle of the table")
    contents = (f"{len(stations.cards)} Station Cards ({deck.scope.label})", f"{len(fortunes.cards)} Fortune Cards",
                f"{len(reference.cards)} quick-reference cards", "the Play Field sheet", "this cover card")
    return [stations, fortunes, reference, field, cover_deck(edition, size, contents)]
