"""Keep London Moving's rulebook: the words (``data/klm/rulebook.md``), the values they print and
the figures, for the typesetter (:mod:`tubedeck.generator.rulebook`).

Every rules value comes from the edition (``rules.toml``, the decks of its scope, the Fortune
Cards' own names, counts and texts), every example's number from a game the engine replays
(:mod:`tubedeck.games.klm.examples`). Two figures, small cards drawn as labelled rectangles in the
faces' colours: the setup of a seeded deal (the four piles and each player's open hand) and the
winner's five continuous stations with their Connection Numbers. All their text is 8 pt or more.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Sequence

from tubedeck.errors import UsageError
from tubedeck.games.klm import GAME
from tubedeck.games.klm.cards import StationCard
from tubedeck.games.klm.edition import Edition, load
from tubedeck.games.klm.examples import (
    FortuneExample,
    SetupExample,
    WinExample,
    fortune_example,
    setup_example,
    win_example,
)
from tubedeck.games.klm.records import MAX_TURNS
from tubedeck.generator.colour import ColourSpec
from tubedeck.generator.icons import badge, badge_size
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import Pen
from tubedeck.generator.rulebook import Figure, Rulebook, read_source
from tubedeck.generator.sizes import PT, CardGeometry, Rect
from tubedeck.generator.text import LEADING, block, wrap
from tubedeck.generator.theme import BLUE, BOLD, GREY, INK, MUTED, PAPER, PILE_BACKS, TEXT, WHITE, YELLOW
from tubedeck.network import Network

from .faces import reference_cards
from .schematic import RAIL, cased

SIZE = 8.0  # the figures' smallest text, in points (the rulebook's floor)
LABEL = 8.5  # the figures' labels
GAP = 2.0  # mm between cards in a figure
BAR = 1.6  # mm: a card's line-colour bars


def _key(ident: str) -> str:
    return ident.replace("-", "_")


def listing(items: Sequence[object], last: str = "and") -> str:
    """``a, b and c``."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``15th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def scope_words(edition: Edition) -> str:
    """The deck's stations in words: ``zone 1, with the stations on its boundary (Zone 1/2 on their
    cards)``, ``the whole Underground``, ``the Central line in zones 1-2`` (line names, never the
    dataset's ids)."""
    sc, net = edition.scope, edition.network
    if sc.zones is None and sc.lines is None:
        return "the whole Underground"
    parts = []
    if sc.lines:
        names = [net.lines[i].name for i in sc.lines]
        parts.append(f"the {listing(names)} line{'s' if len(names) > 1 else ''}")
    if sc.zones:
        zones = sc.zones
        parts.append(f"zone {zones[0]}" if len(zones) == 1 else f"zones {listing(zones)}"
                     if zones != tuple(range(zones[0], zones[-1] + 1)) else f"zones {zones[0]}-{zones[-1]}")
    words = " in ".join(parts)
    if sc.zones:  # a boundary station (Zone 1/2 on its card) belongs to each of its zones: in the deck
        edge = sorted({c.zone for c in edition.deck.cards if "/" in c.zone
                       and not all(z.isdigit() and int(z) in sc.zones for z in c.zone.split("/"))})
        if edge:
            words += f", with the stations on its boundary (Zone {listing(edge, 'or')} on their cards)"
    return words


def rolls_text(rounds: tuple[tuple[int, ...], ...]) -> str:
    """``6, 2 and 2``; a re-roll: ``4, 4 and 2, then 5 and 3``."""
    return ", then ".join(listing(r) for r in rounds)


def _examples(edition: Edition) -> tuple[Edition, SetupExample, FortuneExample, WinExample]:
    """The examples of ``edition``; a deck too small for them (a one-line scope, a toy city) takes
    its data's default deck's, then the bundled Underground's."""
    for ed in (edition, lambda: load(edition.network), lambda: load(Network.load())):
        try:
            ex = ed() if callable(ed) else ed
            return ex, setup_example(ex), fortune_example(ex), win_example(ex)
        except (LookupError, UsageError):
            continue
    raise UsageError("no deck to play the rulebook's examples on")


def values(edition: Edition, options: PrintOptions, setup: SetupExample, fortune: FortuneExample,
           win: WinExample) -> dict[str, object]:
    """Every ``{placeholder}`` of ``rulebook.md``."""
    out: dict[str, object] = dict(asdict(edition.rules))
    safe = CardGeometry(options.card.width, options.card.height).safe
    kinds = {f.kind.id: f.kind for f in edition.fortune}
    out.update(station_cards=len(edition.deck.cards), scope=scope_words(edition), fortune_cards=len(edition.fortune),
               fortune_kinds=len(kinds), reference_cards=len(reference_cards(edition.book.texts, safe)),
               max_turns=f"{MAX_TURNS:,}",
               termini=listing(sorted(c.name for c in edition.deck.cards if c.terminus) or ["none"]))
    for kind in kinds.values():
        k = _key(kind.id)
        out[f"fortune_{k}_name"] = kind.name
        out[f"fortune_{k}_count"] = kind.count
        out[f"fortune_{k}_effect"] = " ".join(kind.effect.split())
    out.update(setup_rolls=rolls_text(setup.opening_rolls), setup_starter=setup.starter,
               setup_first_roll=setup.first_roll, setup_first_draw=setup.first_draw,
               setup_stock=setup.station_stock, setup_fortune=setup.fortune_stock)
    out.update({f"fortune_{name}": value for name, value in asdict(fortune).items() if name not in ("seed",)})
    out.update(win_players=win.players, win_turn=win.turn, win_own_turn_ordinal=ordinal(win.own_turn),
               win_winner=win.winner, win_last_a=win.last[0], win_last_b=win.last[1], win_last_number=win.last[2],
               win_field=win.field, win_connections=win.connections, win_path=listing(win.path),
               win_numbers=listing(win.numbers), win_rounds=win.rounds, win_stock=win.station_left)
    return out


# -- figures -------------------------------------------------------------------------------------
def _card(pen: Pen, box: Rect, card: StationCard | None, name: str) -> None:
    """A Station Card as a labelled rectangle: its lines' colour bars along the top, its name."""
    pen.rect(box.x, box.y, box.w, box.h, fill=PAPER, stroke=INK, width=0.3, radius=1.2)
    marks = card.line_marks if card is not None else ()
    inner = box.inset(1.0)
    if marks:
        w = inner.w / len(marks)
        for i, m in enumerate(marks):
            pen.rect(inner.x + i * w, inner.top - BAR, w, BAR, fill=m.colour, stroke=INK, width=0.1)
    text = Rect(inner.x, inner.y, inner.w, inner.h - BAR - 0.4)
    pen.text_box(text, name, font=TEXT, size=LABEL, min_size=SIZE, colour=INK, field="figure")


def _pile(pen: Pen, box: Rect, title: str, note: str, fill: str | None) -> None:
    """A pile of the Play Field sheet: face down in its deck's back colour, or an empty place."""
    colour: ColourSpec = MUTED
    if fill is None:
        pen.rect(box.x, box.y, box.w, box.h, fill=WHITE, stroke=GREY, width=0.3, radius=1.2)
    else:
        pen.rect(box.x, box.y, box.w, box.h, fill=fill, stroke=INK, width=0.3, radius=1.2)
        colour = pen.text_on(fill, WHITE if fill == BLUE else INK)
    pen.text_box(box.inset(1.0), f"{title}\n{note}", font=BOLD, size=LABEL, min_size=SIZE, colour=colour,
                 field="figure")


NARROWEST = 87.5  # mm: the narrowest column a figure is drawn in (two columns on A4)
PILE_H = 20.0  # mm: the Play Field sheet's piles in the setup figure


def _setup_head() -> float:
    return 2 * LABEL * LEADING * PT + 1.0  # two lines: the player, the rolls


def setup_aspect(example: SetupExample) -> float:
    """The setup figure's height / width: every dealt card's name fits its rectangle at 8 pt in
    the narrowest column (and a wider column, taller in proportion, fits it too)."""
    n, w = example.players, NARROWEST
    col_w = (w - (n - 1) * GAP) / n
    hand = max(len(h) for h in example.hands)
    need = 0.0
    for name in (name for h in example.hands for name in h):
        lines = wrap(name, TEXT, SIZE, col_w - 2.0) or (name,)
        need = max(need, block(lines, TEXT, SIZE).height)
    card_h = 2.0 + BAR + 0.4 + need + 0.4
    total = PILE_H + 2 * GAP + _setup_head() + 1.0 + hand * card_h + (hand - 1) * GAP
    return max(1.0, total / w)


def draw_setup(pen: Pen, box: Rect, example: SetupExample, edition: Edition) -> None:
    """The seeded deal after setup: the Play Field sheet's four piles across the top, then a
    column for each player: who they are, what they rolled (the starter marked), their open hand of
    Station Cards."""
    cards = edition.deck.by_station
    n = example.players
    pile_h = PILE_H * box.w / NARROWEST
    pile_w = (box.w - 3 * GAP) / 4
    piles = (("Station Cards Stock", f"{example.station_stock} cards, face down", PILE_BACKS["klm station"]),
             ("Discarded Station Cards", "empty", None),
             ("Fortune Cards Stock", f"{example.fortune_stock} cards, face down", PILE_BACKS["klm fortune"]),
             ("Discarded Fortune Cards", "empty", None))
    for i, (title, note, fill) in enumerate(piles):
        _pile(pen, Rect(box.x + i * (pile_w + GAP), box.top - pile_h, pile_w, pile_h), title, note, fill)
    col_w = (box.w - (n - 1) * GAP) / n
    head = _setup_head()
    top = box.top - pile_h - 2 * GAP
    for p in range(n):
        x = box.x + p * (col_w + GAP)
        rolls = ", then ".join(str(r) for r in _rolls_of(example, p))
        words = f"Player {p + 1}\nrolled {rolls}" + (": starts" if p + 1 == example.starter else "")
        pen.text_box(Rect(x, top - head, col_w, head), words, font=BOLD, size=LABEL, min_size=SIZE, colour=INK,
                     align="left", valign="top", field="figure")
        hand = example.cards[p]
        y = top - head - 1.0
        card_h = (y - box.y - (len(hand) - 1) * GAP) / max(1, len(hand))
        for station, name in zip(hand, example.hands[p]):
            _card(pen, Rect(x, y - card_h, col_w, card_h), cards.get(station), name)
            y -= card_h + GAP


def _rolls_of(example: SetupExample, seat: int) -> list[int]:
    """``seat``'s starting rolls: one a round, for as long as it was tied for the highest."""
    contenders = list(range(example.players))
    out = []
    for rolls in example.opening_rolls:
        if seat not in contenders:
            break
        out.append(rolls[contenders.index(seat)])
        contenders = [c for c, r in zip(contenders, rolls) if r == max(rolls)]
    return out


WIN_ASPECT = 0.62


def _link(pen: Pen, a: tuple[float, float], b: tuple[float, float], colours: list[str], width: float) -> None:
    """A Connection's link in its lines' colours, side by side, a light colour between ink rails."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    for i, colour in enumerate(colours):
        off = (i - (len(colours) - 1) / 2) * width * 1.1
        ends = (x0 + nx * off, y0 + ny * off, x1 + nx * off, y1 + ny * off)
        if cased(colour):
            pen.line(*ends, stroke=INK, width=width + 2 * RAIL)
        pen.line(*ends, stroke=colour, width=width)


def draw_win(pen: Pen, box: Rect, example: WinExample, edition: Edition) -> None:
    """The winner's five continuous stations as a snake of cards, each link in its lines' colours
    with its Connection Number; the link made on the winning turn in a yellow badge."""
    cards = edition.deck.by_station
    n = len(example.stations)
    per = math.ceil(n / math.ceil(n / 3))  # 3 a row: 5 cards as 3 and 2
    rows = math.ceil(n / per)
    link_w = max(badge_size("000", LABEL)[0] + 4.0, 9.0)
    card_w = (box.w - (per - 1) * link_w) / per
    link_h = badge_size("0", LABEL)[1] + 6.0
    card_h = (box.h - (rows - 1) * link_h) / rows
    spots = []
    for i in range(n):
        row, k = divmod(i, per)
        col = k if row % 2 == 0 else per - 1 - k
        spots.append(Rect(box.x + col * (card_w + link_w), box.top - card_h - row * (card_h + link_h), card_w, card_h))
    last = {example.last[0], example.last[1]}
    centres = []
    for (a, b), number in zip(zip(example.stations, example.stations[1:]), example.numbers):
        ra, rb = spots[example.stations.index(a)], spots[example.stations.index(b)]
        if abs(ra.y - rb.y) < 1e-6:  # side by side
            left, right = (ra, rb) if ra.x < rb.x else (rb, ra)
            p0, p1 = (left.right, left.y + left.h / 2), (right.x, right.y + right.h / 2)
        else:  # one above the other
            upper, lower = (ra, rb) if ra.y > rb.y else (rb, ra)
            p0, p1 = (upper.x + upper.w / 2, upper.y), (lower.x + lower.w / 2, lower.top)
        conn = next((c for c in cards[a].connections if c.neighbour == b), None)
        colours = [m.colour for m in conn.lines] if conn is not None and conn.lines else [GREY]
        _link(pen, p0, p1, colours, 1.0)
        names = {cards[a].name, cards[b].name}
        centres.append(((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2, str(number), names == last))
    for spot, station, name in zip(spots, example.stations, example.path):
        _card(pen, spot, cards.get(station), name)
    for cx, cy, text, newest in centres:
        badge(pen, cx, cy, text, LABEL, fill=YELLOW if newest else WHITE, field="figure")


# -- the book ------------------------------------------------------------------------------------
def rulebook(edition: Edition, options: PrintOptions) -> Rulebook:
    """Keep London Moving's rulebook for ``edition`` and the build's ``options``."""
    ex_edition, setup, fortune, win = _examples(edition)
    players = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    figures = {
        "setup": Figure(lambda pen, box: draw_setup(pen, box, setup, ex_edition), setup_aspect(setup),
                        caption=f"A real deal for {players.get(setup.players, setup.players)} players after setup: "
                                "the four piles on the Play Field sheet, and each player's open hand."),
        "win": Figure(lambda pen, box: draw_win(pen, box, win, ex_edition), WIN_ASPECT,
                      caption=f"Player {win.winner}'s {len(win.path)} continuous Active stations, with the "
                              "Connection Number of each Connection (on yellow: the one made on the winning turn)."),
    }
    return Rulebook(game=GAME.id, title=GAME.title, source=read_source("klm"),
                    values=values(edition, options, setup, fortune, win), figures=figures).localised(edition.network.source)


__all__ = ["draw_setup", "draw_win", "listing", "ordinal", "rulebook", "rolls_text", "scope_words", "values"]
