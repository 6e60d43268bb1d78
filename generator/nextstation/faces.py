"""Next Station: London print faces: the 11 Station cards (vector symbols), their back, the
Shared Objective and Pencil Power cards (our own words), the 4 pencil cards (passed on with the
pencils), a rules reference card with its own back, and a score pad page. The classic board is
never printed: its layout is the publisher's.

Every face draws the edition's own objects (:class:`tubedeck.games.nextstation.rules.Card`, the
rule book's values and texts); nothing about the game is restated here.
"""

from __future__ import annotations

from functools import partial

from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.rules import JOKER, SWITCH
from tubedeck.games.nextstation.rules import Card as StationCard
from tubedeck.generator.document import Card, Deck, Pages
from tubedeck.generator.identity import (
    GROUNDS,
    Cover,
    bands_art,
    cover_faces,
    grid_art,
    network_art,
    pencils_art,
    routes_of,
    strips_art,
)
from tubedeck.generator.identity import back as designed_back
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import DRIFT, Pen
from tubedeck.generator.sizes import CardGeometry, Rect
from tubedeck.generator.text import bullet_cards, measure, sized
from tubedeck.generator.theme import BLUE, BOLD, INK, PAPER, PLAY_PT, TEXT, WHITE
from tubedeck.network import Network

from .challenge import challenge_pages
from .map import map_page
from .modules import ICONS, module_front
from .parts import mark, mark_size, score_card, symbol

NAMES = {JOKER: "Joker", SWITCH: "Railroad Switch"}
DECK_NAMES = {"street": "Street", "underground": "Underground"}
RULES_PT = (8.0, PLAY_PT)  # play needs the rules: never below 7 pt (more cards instead)
SIDE_BAND = 0.1  # of the art's width: each of an Underground card's two yellow side bands
CLEAR = 1.5  # mm between the bands and the tile or the words


# -- Station cards ------------------------------------------------------------------------------
def station_front(pen: Pen, card: StationCard, edition: Edition) -> None:
    """The deck's colour (Street blue, Underground pink with a yellow band down either side), the
    symbol large on a white rounded tile, the deck and the symbol named in words. No disc and no
    band across the middle: a white disc under a bar, under the word "Underground", recalled the
    TfL roundel (a trade mark), and blue and pink print as one grey, so the side bands are what
    tell the decks apart in black and white."""
    s, art = pen.safe, pen.art_box
    colours = edition.book.colours
    fill = colours[card.deck]
    pen.background(PAPER)
    pen.rect(art.x, art.y, art.w, art.h, fill=fill, radius=2.0)
    band = art.w * SIDE_BAND
    if card.underground:
        for x in (art.x, art.right - band):
            pen.rect(x, art.y, band, art.h, fill=colours["underground_band"])
    lane = s.inset(max(0.0, art.x + band + CLEAR - s.x), 0.0)  # clear of the bands on both decks
    head = min(9.0, s.h * 0.11)
    ink = pen.text_on(fill, WHITE)
    pen.text_box(Rect(lane.x, s.top - head, lane.w, head), DECK_NAMES[card.deck], font=BOLD, size=11,
                 min_size=PLAY_PT, colour=ink, max_lines=1, field="deck")
    name = NAMES.get(card.face, card.face.capitalize())
    pen.text_box(Rect(lane.x, s.y, lane.w, head), name, font=BOLD, size=11, min_size=PLAY_PT, colour=ink,
                 max_lines=1, field="name")
    a = min(lane.w / 2, (s.h - 2 * head - 4) / 2 - 1)
    cx, cy = s.centre
    pen.rect(cx - a, cy - a, 2 * a, 2 * a, fill=WHITE, stroke=INK, width=0.6, radius=a * 0.18)
    symbol(pen, card.face, cx, cy, a * 0.85)


def network_routes(edition: Edition) -> tuple:
    """The real network of the edition's zones (what its map sheets are generated from), as routes."""
    net = edition.network
    if not isinstance(net, Network):
        return ()
    lo, _, hi = edition.zones.partition("-")
    return routes_of(net.subnetwork(zones=range(int(lo), int(hi or lo) + 1)))


def designed_backs(edition: Edition) -> dict:
    """Each deck's designed back (:mod:`tubedeck.generator.identity`), by deck name. The Station cards
    are shuffled and flipped face down: the network of the map's zones as a diagram on Next Station's
    own flat colour, past the trim. Every deck of the ``cards`` sheets has the paper ground (so the
    backs running over each other's edges there are all the same) and its own art and word: Shared
    Objectives and Pencil Powers are drawn at random, each from its own deck (2 objectives, a power a
    pencil), so their backs must tell the decks apart, in grey too; pencil and rules cards are never
    drawn face down but are stored with them."""
    book, sheet = edition.book, edition.sheet.board
    symbols = {name: k for k, name in enumerate(book.rules.symbols)}
    stations = [(st.col, st.row, symbols.get(st.symbol, 1)) for st in sheet.stations]
    at = {st.id: (st.col, st.row) for st in sheet.stations}
    sections = [(*at[x.a], *at[x.b]) for x in sheet.sections]
    routes = network_routes(edition)
    lines = {c: len(pts) for c, pts in routes}
    pencils = [book.colours[p] for p in book.rules.pencils]
    return {"stations": designed_back("nextstation", "Station Cards", network_art(routes),
                                      GROUNDS["nextstation stations"]),
            "objectives": designed_back("nextstation", "Objectives", grid_art(stations, sections), PAPER),
            "powers": designed_back("nextstation", "Powers", bands_art(sorted(lines)), PAPER),
            "pencils": designed_back("nextstation", "Pencils", pencils_art(pencils), PAPER),
            "reference": designed_back("nextstation", "Rules", strips_art(sorted(lines.items())), PAPER)}


def cover_deck(edition: Edition, size: str, contents: tuple[str, ...]) -> Deck:
    """The cover card, printed on the ``cards`` sheets (the paper ground of their backs)."""
    from tubedeck.games.nextstation import GAME

    tagline = "Flip a Station card, draw a section: four rounds, four Underground lines, one map of London."
    cover = Cover(tagline, GAME.players, "about 25 min", contents)
    front, back = cover_faces("nextstation", cover, network_art(network_routes(edition)))
    return Deck("cover", (Card("cover", sized(front, size), back=sized(back, size), label="cover"),),
                title=f"{edition.book.texts['title']}: cover card", share="cards", back_bleed=DRIFT)


# -- pencil cards -------------------------------------------------------------------------------
WOOD = "#F1D3A1"


def pencil_front(pen: Pen, pencil: str, edition: Edition) -> None:
    """One pencil's card, passed on with the pencil each round: its colour as a band with the
    colour's name and a pencil drawn in it, and what the card means (the rule book's text)."""
    s, art = pen.safe, pen.art_box
    colour = edition.book.colours[pencil]
    text = edition.book.texts["pencil_card"]
    pen.background(PAPER)
    # the band takes half the card, less on small cards where the text needs the room (7 pt)
    band = next((art.h * f for f in (0.5, 0.44, 0.38, 0.32)
                 if measure(text, TEXT, RULES_PT[0], RULES_PT[1], s.w, s.h - art.h * f - 2) is not None), art.h * 0.32)
    pen.rect(art.x, art.top - band, art.w, band, fill=colour, radius=2.0)
    ink = pen.text_on(colour, WHITE)
    pen.text_box(Rect(s.x, s.top - 10, s.w, 9), f"{pencil.capitalize()} pencil", font=BOLD, size=13,
                 min_size=PLAY_PT, colour=ink, max_lines=1, field="title")
    # a pencil across the band: white body with a stripe of its colour, a wooden cone, a lead tip
    h = min(6.0, band * 0.18)
    y = art.top - band / 2 - h / 2 - 2
    left, right = s.x + 2, s.x + s.w - 2
    cone = min(3 * h, (right - left) * 0.3)
    body = right - cone
    pen.rect(left, y, body - left, h, fill=WHITE, stroke=INK, width=0.4)
    pen.rect(left, y + h * 0.35, body - left, h * 0.3, fill=colour)
    pen.polygon([(body, y), (right, y + h / 2), (body, y + h)], fill=WOOD, stroke=INK, width=0.4)
    pen.polygon([(right - cone / 3, y + h / 3), (right, y + h / 2), (right - cone / 3, y + 2 * h / 3)],
                fill=colour, stroke=INK, width=0.3)
    # its mark, as its departure station and score card row carry it (black-and-white prints)
    size = 12.0
    w, h = mark_size(edition.book, pencil, size)
    low = art.top - band + 2.0 + h / 2
    if low + h / 2 + 0.8 < y - 1:  # on a white halo: the band is the pill's own colour
        pen.rect(s.x + s.w / 2 - w / 2 - 0.8, low - h / 2 - 0.8, w + 1.6, h + 1.6, fill=WHITE, radius=h / 2 + 0.8)
        mark(pen, edition.book, pencil, s.x + s.w / 2, low, size)
    pen.text_box(Rect(s.x, s.y, s.w, s.h - band - 2), text, size=RULES_PT[0],
                 min_size=RULES_PT[1], colour=INK, align="left", valign="top", field="rules")


# -- text cards: rules, objectives, powers ------------------------------------------------------
def text_front(pen: Pen, title: str, body: str, accent: str) -> None:
    s = pen.safe
    pen.background(PAPER)
    pen.rect(s.x, s.top - 1.2, s.w, 1.2, fill=accent)
    pen.text_box(Rect(s.x, s.top - 10, s.w, 8), title, font=BOLD, size=10, min_size=PLAY_PT, colour=INK,
                 max_lines=2, field="title")
    pen.text_box(Rect(s.x, s.y, s.w, s.h - 11), body, size=RULES_PT[0], min_size=RULES_PT[1], colour=INK,
                 align="left", valign="top", field="rules")


def rules_parts(lines: tuple[str, ...], safe: Rect) -> list[tuple[str, ...]]:
    """The rules, split over as few cards as hold them at 7 pt, evenly (:func:`~generator.text.bullet_cards`)."""
    return bullet_cards(lines, TEXT, RULES_PT[0], RULES_PT[1], safe.w, safe.h - 11)


# -- the score pad ------------------------------------------------------------------------------
def score_pad_page(pen: Pen, edition: Edition) -> None:
    s = pen.safe
    texts = edition.book.texts
    pen.text_box(Rect(s.x, s.top - 8, s.w, 8), texts["score_pad_title"], font=BOLD, size=12, min_size=PLAY_PT,
                 colour=INK, max_lines=1, align="left", field="title")
    pen.text_box(Rect(s.x, s.top - 17, s.w, 8), texts["score_pad_note"], size=8, min_size=PLAY_PT, colour=INK,
                 align="left", valign="top", field="note")
    rows = 2
    h = (s.h - 20 - (rows - 1) * 4) / rows
    w = (s.w - 4) / 2
    for k in range(4):
        col, row = k % 2, k // 2
        score_card(pen, Rect(s.x + col * (w + 4), s.top - 20 - (row + 1) * h - row * 4, w, h), edition)


# -- documents ----------------------------------------------------------------------------------
def documents(edition: Edition, options: PrintOptions) -> list:
    """Station cards, Shared Objective and Pencil Power cards, pencil cards (each deck its own
    back), the rules reference, the score pad."""
    book = edition.book
    title = book.texts["title"]
    size = options.card.label()
    stations = [Card(c.id, sized(partial(station_front, card=c, edition=edition), size),
                     label=f"{DECK_NAMES[c.deck]} {NAMES.get(c.face, c.face)}") for c in book.cards]
    safe = CardGeometry(options.card.width, options.card.height).safe
    backs = {name: sized(face, size) for name, face in designed_backs(edition).items()}
    parts = rules_parts(book.texts["rules_card"], safe)
    rules = [Card("rules" if len(parts) == 1 else f"rules-{i + 1}",
                  sized(partial(text_front, title=title + (f" ({i + 1}/{len(parts)})" if len(parts) > 1 else ""),
                                body="\n".join(f"\u2022 {r}" for r in part), accent=BLUE), size), label="rules")
             for i, part in enumerate(parts)]
    objective_texts = tuple((book.texts["objective_title"], o.title, o.text, o.example) for o in book.objectives)
    power_texts = tuple((book.texts["power_title"], p.title, p.text, p.example) for p in book.powers)
    # each objective and power a card of its own: name, icon, rule and example (generator/nextstation/modules.py)
    objectives = [Card(f"objective-{o.id}", sized(partial(module_front, title=book.texts["objective_title"],
                                                            name=o.title, rule=o.text, example=o.example,
                                                            icon=ICONS[o.measure], accent=book.colours["underground"],
                                                            colours=book.colours, deck=objective_texts), size),
                       label=f"objective {o.id}") for o in book.objectives]
    powers = [Card(f"power-{p.id}", sized(partial(module_front, title=book.texts["power_title"], name=p.title,
                                                    rule=p.text, example=p.example, icon=ICONS[p.id],
                                                    accent=book.colours["street"], colours=book.colours,
                                                    deck=power_texts), size),
                   label=f"power {p.id}") for p in book.powers]
    pencils = [Card(f"pencil-{p}", sized(partial(pencil_front, pencil=p, edition=edition), size), label=f"{p} pencil")
               for p in book.rules.pencils]
    return [
        Pages("map", tuple(partial(map_page, edition=edition, page=k) for k in range(len(edition.sheet_maps)))
              + challenge_pages(edition, NAMES, DECK_NAMES),  # --challenge S: the solo challenge page
              title=f"{title}: map {edition.sheet.seed}" + (f"-{edition.sheet_maps[-1].seed}"
                                                             if len(edition.sheet_maps) > 1 else ""),
              note="every player draws on the same map: print the page you will play once per player (page 1 "
                   "is map 1); a challenge page is a solo game"),
        Deck("stations", tuple(stations), back=backs["stations"],
             title=f"{title}: {len(stations)} Station cards", back_bleed=DRIFT),
        # each deck drawn from at random, so each marked as its own (see designed_backs)
        Deck("objectives", tuple(objectives), back=backs["objectives"],
             title=f"{title}: Shared Objectives", share="cards", back_bleed=DRIFT),
        Deck("powers", tuple(powers), back=backs["powers"],
             title=f"{title}: Pencil Powers", share="cards", back_bleed=DRIFT),
        Deck("pencils", tuple(pencils), back=backs["pencils"],
             title=f"{title}: pencil cards", share="cards", back_bleed=DRIFT),
        Deck("reference", tuple(rules), back=backs["reference"],
             title=f"{title}: rules reference", share="cards", back_bleed=DRIFT),
        Pages("score-pad", (partial(score_pad_page, edition=edition),), title=f"{title}: score pad",
              note="one sheet per game; print more as you play"),
        cover_deck(edition, size, (f"{len(edition.sheet_maps)} map sheet" + "s" * (len(edition.sheet_maps) > 1),
                                   f"{len(stations)} Station cards", f"{len(objectives)} Shared Objectives",
                                   f"{len(powers)} Pencil Powers", f"{len(pencils)} pencil cards",
                                   f"{len(rules)} rules card" + "s" * (len(rules) > 1), "the score pad",
                                   "this cover card")),
    ]
