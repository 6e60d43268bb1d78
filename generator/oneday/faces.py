"""One Day in London print faces: station cards, card back, rules card, rack sheet (the map sheet:
:mod:`tubedeck.generator.oneday.map`).

Every face draws the game's own objects (:class:`tubedeck.games.oneday.cards.StationCard`, the
:class:`~tubedeck.games.oneday.board.Board`); nothing about the game is restated here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial

from tubedeck.games.oneday.board import Board
from tubedeck.games.oneday.cards import StationCard, StationDeck
from tubedeck.games.oneday.edition import Edition
from tubedeck.generator import fonts
from tubedeck.generator.colour import reads_in_grey
from tubedeck.generator.document import Card, Deck, Pages
from tubedeck.generator.icons import DIGIT_HEIGHT, badge, badge_size
from tubedeck.generator.identity import GROUNDS, Cover, cover_faces, network_art, strips_art
from tubedeck.generator.identity import back as designed_back
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import DRIFT, Pen
from tubedeck.generator.ruler import sheet_safe
from tubedeck.generator.sizes import PAPERS, PT, CardGeometry, Rect
from tubedeck.generator.text import FaceFitError, FittedText, bullet_cards, measure, size_label, sized
from tubedeck.generator.theme import (
    BOLD,
    INK,
    MIN_PT,
    PAPER,
    PLAY_PT,
    RED,
    RED_TEXT,
    TEXT,
    WHITE,
    short_line_name,
)

from .chips import CHIP_GAP, CHIP_OUTLINE, chip, chip_size, line_letters
from .map import figures, map_page, wide
from .tent import tent_sheet

LEGEND = "< before | after >"
RULES_PT = (8.5, PLAY_PT)  # play needs the rules summary: never below 7 pt (more cards instead)


def _bands(card: StationCard, top: float, bottom: float, label: str, size: str) -> tuple[float, float, float, float]:
    """(band height, gap, numbers' type size, top of the first band): the bands share the room
    between ``top`` (under the name strip) and ``bottom`` (over the footer), up to 40% of it each
    (a lone band 55%), so one line gets a big band and five still fit."""
    n = len(card.bands)
    avail = top - bottom
    gap = 1.5 if avail > 12 * n else 0.8
    band_h = min((avail - (n - 1) * gap) / n, max(9.0, avail * (0.55 if n == 1 else 0.4)))
    pt = min(18.0, max(PLAY_PT, int(band_h * 0.42 / PT * 2) / 2))  # half points
    while pt > PLAY_PT and badge_size("00", pt)[1] > band_h - 1.0:
        pt -= 0.5
    if badge_size("00", pt)[1] > band_h - 0.4:
        raise FaceFitError(label, size, f"{n} line bands need more than {avail:.1f} mm below the name strip")
    block = n * band_h + (n - 1) * gap
    return band_h, gap, pt, top - (avail - block) / 2


def _line_names(card: StationCard, gmap: Board, s: Rect, band_h: float, pt: float):
    """(numbers' size, chip width, [(line name as printed, its fit)]): the biggest numbers (down to
    7 pt) that leave every line's name room between them (full, else abbreviated), at 7 pt or
    more if any numbers' size allows it, else at 6."""
    for floor in (PLAY_PT, MIN_PT):
        size = pt
        while size >= PLAY_PT - 1e-9:
            chip_w = max(badge_size(str(max(b.before, b.after)), size)[0] for b in card.bands)
            if chip_w > 0.24 * s.w and size > PLAY_PT:  # the line's name keeps half the width
                size -= 0.5
                continue
            w, h = s.w - 2 * chip_w - 2.4, band_h - 0.6
            fitted = []
            for band in card.bands:
                name = gmap.lines[band.line].name
                fit_ = next(((t, f) for t in dict.fromkeys((name, short_line_name(name)))
                             if (f := measure(t, BOLD, max(floor, min(11.0, size)), floor, w, h, 2))),
                            None) if w > 0 else None
                if fit_ is None:
                    break
                fitted.append(fit_)
            else:
                return size, chip_w, fitted
            size -= 0.5
    return None


def card_front(pen: Pen, card: StationCard, gmap: Board, size: str = "", deck: StationDeck | None = None) -> None:
    """The name strip on top (:func:`strip`: the whole name and a chip per line, all a rack leaves
    in view), one band per line (before, line, after) sized to the number of lines, copy mark and
    legend at the foot. ``deck``: the cards the strip is worked out for (default: this card alone)."""
    t = pen.trim
    s = within(pen.safe, t, CHIP_OUTLINE)  # the name strip: its chips clear of the tint's edge
    size = size or size_label(t.w, t.h)
    band = strip(gmap, deck or StationDeck((card,)), t.w, t.h)
    room = band.pitch - (t.top - s.top) - STRIP_CLEAR  # below the safe top, for the name and chips
    fit_ = None
    pt = NAME_PT_MAX
    while pt >= PLAY_PT - 1e-9 and fit_ is None:  # the largest name this strip holds
        f = strip_fit(card.name, len(card.bands), s.w, pt, band.chip)
        fit_ = f if f is not None and f.height <= room + 1e-9 else None
        pt -= 0.5
    if fit_ is None:
        raise FaceFitError(pen.label, size, f"the name {card.name!r} and its line chips need more than the "
                                            f"{band.pitch:.1f} mm strip")
    pen.background(PAPER)
    top = s.top - (room - fit_.height) / 2  # centred in the strip's room
    pen.fitted_lines(fit_.name, s.x, top, font=BOLD, colour=INK, field="name")
    cw, ch = band.chip
    n = len(card.bands)
    x = s.right - n * cw - (n - 1) * CHIP_GAP
    cy = top - fit_.chip_y
    for b in card.bands:
        line = gmap.lines[b.line]
        chip(pen, x, cy, band.chip, line.colour, line.text_colour, band.letters[b.line])
        x += cw + CHIP_GAP
    pen.rect(s.x, t.top - band.pitch + 0.3, s.w, 0.6, fill=RED)  # where the next card's top edge lies in a rack
    band_h, gap, pt, y = _bands(card, t.top - band.pitch - 1.0, s.y + 4.0, pen.label, size)
    s = within(pen.safe, t, badge_outline(pt))  # the numbers' discs clear of their band's edge
    names = _line_names(card, gmap, s, band_h, pt)
    if names is None:
        raise FaceFitError(pen.label, size, f"a line name does not fit beside its numbers in {s.w:.1f} mm")
    pt, chip_w, fitted = names
    for b, (text, f) in zip(card.bands, fitted):
        line = gmap.lines[b.line]
        y -= band_h
        art = pen.art_box
        pen.rect(art.x, y, art.w, band_h, fill=line.colour)
        cy = y + band_h / 2
        badge(pen, s.x + chip_w / 2, cy, str(b.before), pt, width=chip_w, field="before")
        badge(pen, s.right - chip_w / 2, cy, str(b.after), pt, width=chip_w, field="after")
        box = Rect(s.x + chip_w + 1.2, y + 0.3, s.w - 2 * chip_w - 2.4, band_h - 0.6)
        ink = pen.text_on(line.colour, line.text_colour)
        if not pen.ink_saver and not reads_in_grey(line.colour, ink):  # a plate: black on white anywhere
            w = min(box.w, max(Pen.text_width(t, BOLD, f.size) for t in f.lines) + 1.6)
            pen.rect(box.x + (box.w - w) / 2, y + (band_h - f.height) / 2 - 0.25, w, f.height + 0.5, fill=WHITE,
                     radius=0.8)
            ink = INK
        pen.text_box(box, text, font=BOLD, size=f.size, min_size=f.size, colour=ink, max_lines=2, field="line")
        y -= gap
    s = pen.safe
    pen.text(s.right, s.y + 0.6, card.copy_mark, size=8, colour=INK, align="right", field="copy")
    pen.text(s.x, s.y + 0.6, LEGEND, size=PLAY_PT, colour=INK, field="legend")  # how to read the numbers: play text


def board_routes(gmap: Board) -> tuple:
    """The game's lines, each run as (colour, [(lon, lat)]): what its backs and cover draw."""
    return tuple((gmap.lines[line].colour, tuple((gmap.stations[st].lon, gmap.stations[st].lat) for st in run.stations))
                 for line, run in sorted(gmap.runs.items()))


def designed_backs(gmap: Board) -> tuple:
    """(station cards' back, rules card's back) (:mod:`tubedeck.generator.identity`): the station cards
    the board's lines as a diagram on the One Day red, a pile's flat colour past the trim; the
    rules card the lines as a strip map on the paper, so face down it never passes for a station card."""
    routes = board_routes(gmap)
    return (designed_back("oneday", "Station Cards", network_art(routes), GROUNDS["oneday stations"]),
            designed_back("oneday", "Rules", strips_art([(c, len(pts)) for c, pts in routes]), PAPER))


def cover_deck(edition: Edition, size: str, contents: tuple[str, ...]) -> Deck:
    """The cover card, printed on the rules card's sheet (``share="rules"``)."""
    from tubedeck.games.oneday import GAME

    cover = Cover(GAME.summary, GAME.players, "about 20 min", contents)
    front, back = cover_faces("oneday", cover, network_art(board_routes(edition.board)))
    return Deck("cover", (Card("cover", sized(front, size), back=sized(back, size), label="cover"),),
                title=f"{edition.board.recipe.name}: cover card", share="rules")


def rules_front(pen: Pen, edition: Edition, part: tuple[int, int] = (0, 0), rules: tuple[str, ...] = ()) -> None:
    """The rules summary (``rules``: this card's share of them when they take several cards)."""
    gmap = edition.board
    s = pen.safe
    pen.background(PAPER)
    title = gmap.recipe.name + (f" ({part[0]}/{part[1]})" if part[1] > 1 else "")
    pen.text_box(Rect(s.x, s.top - 8, s.w, 8), title, font=BOLD, size=11, min_size=PLAY_PT,
                 colour=INK, max_lines=1, field="title")
    rules = rules or tuple(gmap.recipe.texts("rules", **figures(edition)))
    text = "\n".join(f"\u2022 {r}" for r in rules)
    pen.text_box(Rect(s.x, s.y, s.w, s.h - 9), text, size=RULES_PT[0], min_size=RULES_PT[1], colour=INK, align="left",
                 valign="top", field="rules")


def rules_parts(edition: Edition, safe: Rect) -> list[tuple[str, ...]]:
    """The rules, split over as few cards as hold them at 7 pt, evenly (:func:`~generator.text.bullet_cards`)."""
    rules = list(edition.board.recipe.texts("rules", **figures(edition)))
    return bullet_cards(rules, TEXT, RULES_PT[0], RULES_PT[1], safe.w, safe.h - 9)


# -- the name strip: what a rack leaves in view of a covered card ---------------------------------
SLEEVE = 3.0  # mm of room round a card in a slot: sleeved cards fit
PANEL_CLEAR = 1.5  # mm from a disc's or chip's outline to the edge of the tinted panel it sits on
STRIP_CLEAR = 1.5  # mm between the strip's content and its lower edge (where the next card's top lies)
STRIP_GAP = 0.8  # mm between the name and a row of chips below it
NAME_PT = 10.0  # the name size a strip is worked out for; it shrinks (to 7 pt) before the strip passes its cap
NAME_PT_MAX = 14.0  # a short name may grow up to this inside the strip
PITCH_SHARE = 0.3  # the strip takes at most this share of the card's height: the bands need the rest
RACK_HEAD = 16.0  # mm above a rack sheet's slots: its title and the players' names


@dataclass(frozen=True)
class StripFit:
    """One card's name strip: the name's fit, where the chips go and the height from the safe top."""

    name: FittedText
    beside: bool  # chips on the name's last line, right of it; else a row below the name
    chip_y: float  # the chips' centre, mm below the safe area's top
    height: float  # mm below the safe area's top that the name and chips need


def strip_fit(name: str, chips: int, width: float, pt: float, chip: tuple[float, float]) -> StripFit | None:
    """The lowest layout of a name at ``pt`` and ``chips`` chips in ``width`` mm: chips beside the
    name's last line (wrapped to the full width, or narrower to leave them room), else a row of
    chips under the name. None if the name does not fit at ``pt`` (3 lines at most)."""
    cw, ch = chip
    row = chips * cw + max(0, chips - 1) * CHIP_GAP
    cap = DIGIT_HEIGHT * pt * PT
    best: StripFit | None = None
    for wrap_w, beside in ((width, True), (width - row - 1.5, True), (width, False)):
        f = measure(name, BOLD, pt, pt, wrap_w, 1e4, 3)
        if f is None or (beside and fonts.text_width(f.lines[-1], BOLD, pt) + 1.5 + row > width + 1e-9):
            continue
        last = f.ascent + (len(f.lines) - 1) * f.leading  # the last baseline, below the top
        if beside:
            cy = max(last - cap / 2, ch / 2)
            height = max(f.height, cy + ch / 2)
            above = f.height - f.leading  # the foot of the line above the last
            if len(f.lines) > 1 and cy - ch / 2 < above and any(
                    fonts.text_width(t, BOLD, pt) + 1.5 + row > width + 1e-9 for t in f.lines[:-1]):
                continue  # the chips would reach into the line above
        else:
            cy = f.height + STRIP_GAP + ch / 2
            height = cy + ch / 2
        if best is None or height < best.height - 1e-9:
            best = StripFit(f, beside, cy, height)
    return best


@dataclass(frozen=True)
class Strip:
    """The top of every station card that a rack leaves in view: ``pitch`` mm from the card's top
    edge, which is also the rack's slot pitch (one number, :func:`strip` computes it for both)."""

    pitch: float
    name_pt: float  # the largest name size the strip was worked out for
    chip: tuple[float, float]
    letters: dict[str, str] = field(compare=False)


def within(safe: Rect, trim: Rect, outline: float) -> Rect:
    """``safe``, narrowed so a mark whose outline is ``outline`` mm thick (half of it outside the
    mark) ends ``PANEL_CLEAR`` mm inside the tinted panels: the bands and the card's tint stop
    ``DRIFT`` mm inside the trim (without a bleed; with one, the trim is the panel's printed edge)."""
    x0 = max(safe.x, trim.x + DRIFT + PANEL_CLEAR + outline / 2)
    x1 = min(safe.right, trim.right - DRIFT - PANEL_CLEAR - outline / 2)
    return Rect(x0, safe.y, x1 - x0, safe.h)


def badge_outline(pt: float) -> float:
    """The outline width of :func:`tubedeck.generator.icons.badge`'s pill at ``pt`` (as it draws it)."""
    return max(0.2, 0.07 * badge_size("0", pt)[1])


def rack_limit(card_h: float, slots: int) -> float:
    """The largest slot pitch at which a rack of ``slots`` cards fits a rack sheet on every paper."""
    h = card_h + SLEEVE
    return min((sheet_safe(p.portrait).h - RACK_HEAD - h) / max(1, slots - 1) for p in PAPERS.values())


_STRIPS: dict[tuple, Strip] = {}


def strip(gmap: Board, deck: StationDeck, card_w: float, card_h: float) -> Strip:
    """The name strip of this deck on cards of this size: the largest name size (``NAME_PT`` down to
    7 pt) at which every card's whole name and line chips fit a strip no taller than the rack
    sheet allows on every paper (and ``PITCH_SHARE`` of the card). The pitch is the tallest card's
    need at that size, rounded up to 0.1 mm."""
    letters = line_letters(gmap)
    geom = CardGeometry(card_w, card_h)
    margin = geom.trim.top - geom.safe.top
    width = within(geom.safe, geom.trim, CHIP_OUTLINE).w
    key = (card_w, card_h, gmap.recipe.slots, tuple(sorted(letters.items())),
           tuple(sorted({(c.name, tuple(b.line for b in c.bands)) for c in deck.cards})))
    if key in _STRIPS:
        return _STRIPS[key]
    chip = chip_size(letters.values())
    cap = min(rack_limit(card_h, gmap.recipe.slots), PITCH_SHARE * card_h)
    cards = sorted({(c.name, len(c.bands)) for c in deck.cards})
    found = None
    pt = NAME_PT
    while pt >= PLAY_PT - 1e-9:
        fits = [strip_fit(name, n, width, pt, chip) for name, n in cards]
        if None not in fits:
            need = max(f.height for f in fits if f is not None)
            pitch = math.ceil((margin + need + STRIP_CLEAR) * 10 - 1e-6) / 10
            found = Strip(pitch, pt, chip, letters)
            if pitch <= cap + 1e-9:
                break
        pt -= 0.5
    if found is None:
        raise FaceFitError("stations", size_label(card_w, card_h),
                           f"a station's name does not fit {width:.1f} mm at {PLAY_PT:g} pt in 3 lines")
    _STRIPS[key] = found
    return found


def rack_page(pen: Pen, gmap: Board, card_w: float, card_h: float, pitch: float, first: int, count: int) -> None:
    """A rack mat per player, true card size plus room for a sleeve: the player lays their cards
    top to bottom, slot 1 first, each over the one above at ``pitch`` mm (the cards' name strip,
    :func:`strip`), so every card's name and line chips stay in view. Slot numbers stand left
    of each mat, beside the strips, where no card covers them."""
    s = pen.safe
    slots = gmap.recipe.slots
    w, h = card_w + SLEEVE, card_h + SLEEVE
    need = RACK_HEAD + (slots - 1) * pitch + h
    if need > s.h + 1e-6:
        raise FaceFitError("racks", size_label(card_w, card_h),
                           f"a rack of {slots} cards {pitch:.1f} mm apart needs {need:.0f} mm of the page's {s.h:.0f}")
    title = " ".join(gmap.recipe.texts("rack_title")) or f"{gmap.recipe.name}: racks"
    pen.text_box(Rect(s.x, s.top - RACK_HEAD + 4, s.w, RACK_HEAD - 4), title, font=BOLD, size=10, min_size=PLAY_PT,
                 colour=INK, align="left", valign="top", field="title")
    gap = (s.w - count * w) / (count + 1)
    top = s.top - RACK_HEAD
    for i in range(count):
        x = s.x + gap + i * (w + gap)
        pen.text(x, top + 0.8, f"Player {first + i}", font=BOLD, size=9, colour=INK, field="player")
        for k in range(slots):
            y = top - k * pitch  # the slot's top edge
            shown = h if k == slots - 1 else pitch  # a covered slot shows its strip only
            pen.rect(x, y - shown, w, shown, stroke=INK, width=0.3, radius=2 if k == slots - 1 else 0)
            pen.text(x - 1.2, y - min(pitch - 1.2, 8.0), str(k + 1), font=BOLD, size=8,
                     colour=RED_TEXT, align="right", field="slot")


def rack_sheet(edition: Edition, card_w: float, card_h: float, landscape: bool = False) -> Pages:
    """As many rack mats per page as fit, pages for every player the game allows; the slots are
    the cards' name strip apart (:func:`strip`)."""
    gmap = edition.board
    pitch = strip(gmap, edition.deck, card_w, card_h).pitch
    players = gmap.recipe.players_max
    # Two mats side by side fit the narrower printable width of A4 and Letter (197 mm) for cards
    # up to 90 mm wide; wider cards get a page per player.
    per_page = 2 if 2 * (card_w + SLEEVE) + 18 <= 197 else 1
    pages = tuple(partial(rack_page, gmap=gmap, card_w=card_w, card_h=card_h, pitch=pitch, first=p + 1,
                          count=min(per_page, players - p)) for p in range(0, players, per_page))
    return Pages("racks", pages, title=f"{gmap.recipe.name}: racks", landscape=landscape,
                 note="cut out one rack mat per player")


def documents(edition: Edition, options: PrintOptions) -> list:
    """Every One Day in London print document of one edition: the deck, the rules card, the map
    and the rack sheet (``edition.racks``: tent racks to fold, :mod:`.tent`, or flat mats)."""
    gmap, deck = edition.board, edition.deck
    name = gmap.recipe.name
    size = options.card.label()
    back, rules_back = (sized(b, size) for b in designed_backs(gmap))
    cards = [Card(c.id, partial(card_front, card=c, gmap=gmap, size=size, deck=deck), label=f"{c.name} {c.copy_mark}")
             for c in deck.cards]
    parts = rules_parts(edition, CardGeometry(options.card.width, options.card.height).safe)
    rules = [Card("rules" if len(parts) == 1 else f"rules-{i + 1}",
                  sized(partial(rules_front, edition=edition, part=(i + 1, len(parts)), rules=part), size),
                  label="rules summary")
             for i, part in enumerate(parts)]
    return [
        Deck("stations", tuple(cards), back=back, title=f"{name}: {len(cards)} station cards", back_bleed=DRIFT),
        Deck("rules", tuple(rules), back=rules_back, title=f"{name}: rules summary", share="rules"),
        Pages("map", (partial(map_page, edition=edition),), title=f"{name}: map", landscape=wide(gmap),
              note="one reference map for the table"),
        rack_sheet(edition, options.card.width, options.card.height, landscape=False) if edition.racks == "flat"
        else tent_sheet(edition, options.card.width, options.card.height,
                        strip(gmap, deck, options.card.width, options.card.height).pitch, options.paper),
        cover_deck(edition, size, (f"{len(cards)} station cards", f"{len(rules)} rules card" + "s" * (len(rules) > 1),
                                   "the map sheet",
                                   f"{'rack mats' if edition.racks == 'flat' else 'tent racks'} for {gmap.recipe.players_max} players",
                                   "this cover card")),
    ]
