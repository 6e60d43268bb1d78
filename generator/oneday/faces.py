"""One Day in London print faces: station cards, card back, rules card, rack sheet (the map sheet:
:mod:`generator.oneday.map`).

Every face draws the game's own objects (:class:`tubedeck.games.oneday.cards.StationCard`, the
:class:`~tubedeck.games.oneday.board.GameMap`); nothing about the game is restated here.
"""

from __future__ import annotations

from functools import partial

from generator.document import Card, Deck, Sheet
from generator.emblem import emblem_in
from generator.icons import badge, badge_size
from generator.options import PrintOptions
from generator.pen import Pen
from generator.sizes import PT, CardGeometry, Rect
from generator.text import FaceFitError, measure, size_label, sized
from generator.theme import BLUE, BOLD, INK, MIN_PT, PAPER, PLAY_PT, RED, TEXT, short_line_name
from tubedeck.games.oneday.board import GameMap
from tubedeck.games.oneday.cards import StationCard
from tubedeck.games.oneday.edition import Edition

from .map import figures, map_page

LEGEND = "< before | after >"
RULES_PT = (8.5, MIN_PT)


def _bands(card: StationCard, s: Rect, name_h: float, label: str, size: str) -> tuple[float, float, float, float]:
    """(band height, gap, numbers' type size, top of the first band): the bands share what the name
    and the footer leave, up to 40% of it each (a lone band 55%), so one line gets a big band and
    five still fit."""
    n = len(card.bands)
    top, bottom = s.top - 3.2 - name_h - 1.5, s.y + 4.0
    avail = top - bottom
    gap = 1.5 if avail > 12 * n else 0.8
    band_h = min((avail - (n - 1) * gap) / n, max(9.0, avail * (0.55 if n == 1 else 0.4)))
    pt = min(18.0, max(PLAY_PT, int(band_h * 0.42 / PT * 2) / 2))  # half points
    while pt > PLAY_PT and badge_size("00", pt)[1] > band_h - 1.0:
        pt -= 0.5
    if badge_size("00", pt)[1] > band_h - 0.4:
        raise FaceFitError(label, size, f"{n} line bands need more than {avail:.1f} mm below the name")
    block = n * band_h + (n - 1) * gap
    return band_h, gap, pt, top - (avail - block) / 2


def _line_names(card: StationCard, gmap: GameMap, s: Rect, band_h: float, pt: float):
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


def card_front(pen: Pen, card: StationCard, gmap: GameMap, size: str = "") -> None:
    """Name at the top, one band per line (before, line, after) sized to the number of lines,
    copy mark and legend at the foot."""
    t, s = pen.trim, pen.safe
    size = size or size_label(t.w, t.h)
    n = len(card.bands)  # fewer bands: a bigger name
    big = min(max(s.w * (0.36 - 0.03 * n), 10.0), 22.0)
    name = measure(card.name, BOLD, big, PLAY_PT, s.w, min(max(s.h * (0.34 - 0.03 * n), 8.0), 28.0), 3)
    if name is None:
        raise FaceFitError(pen.label, size, f"the name {card.name!r} needs more than {s.w:.1f} mm x 3 lines")
    band_h, gap, pt, y = _bands(card, s, name.height, pen.label, size)
    pen.background(PAPER)
    pen.rect(s.x, s.top - 2.2, s.w, 1.2, fill=RED)
    pen.text_box(Rect(s.x, s.top - 3.2 - name.height, s.w, name.height), card.name, font=BOLD, size=name.size,
                 min_size=name.size, colour=INK, max_lines=3, field="name")
    names = _line_names(card, gmap, s, band_h, pt)
    if names is None:
        raise FaceFitError(pen.label, size, f"a line name does not fit beside its numbers in {s.w:.1f} mm")
    pt, chip_w, fitted = names
    for band, (text, fit_) in zip(card.bands, fitted):
        line = gmap.lines[band.line]
        y -= band_h
        art = pen.art_box
        pen.rect(art.x, y, art.w, band_h, fill=line.colour)
        cy = y + band_h / 2
        badge(pen, s.x + chip_w / 2, cy, str(band.before), pt, width=chip_w, field="before")
        badge(pen, s.right - chip_w / 2, cy, str(band.after), pt, width=chip_w, field="after")
        box = Rect(s.x + chip_w + 1.2, y + 0.3, s.w - 2 * chip_w - 2.4, band_h - 0.6)
        pen.text_box(box, text, font=BOLD, size=fit_.size, min_size=fit_.size,
                     colour=pen.text_on(line.colour, line.text_colour), max_lines=2, field="line")
        y -= gap
    pen.text(s.right, s.y + 0.6, card.copy_mark, size=8, colour=INK, align="right", field="copy")
    pen.text(s.x, s.y + 0.6, LEGEND, size=MIN_PT, colour=INK, field="legend")


def card_back(pen: Pen, title: str = "One Day in London") -> None:
    t = pen.trim
    pen.background(BLUE)
    ring = RED if not pen.ink_saver else BLUE
    emblem_in(pen, pen.safe, ring, ring, title.upper(), largest=min(t.w, t.h) * 0.3)


def aid_back(pen: Pen, title: str = "One Day in London") -> None:
    """The rules card's own back (paper, framed): face down it never passes for a station card."""
    t, s = pen.trim, pen.safe
    pen.background(PAPER)
    pen.rect(s.x, s.y, s.w, s.h, stroke=BLUE, width=0.8, radius=2.5)
    emblem_in(pen, s.inset(2.0), BLUE, BLUE, "RULES", largest=min(t.w, t.h) * 0.3)


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
    """The rules, split into as few cards as hold them at 6 pt (one on most card sizes)."""
    rules = list(edition.board.recipe.texts("rules", **figures(edition)))
    box = Rect(safe.x, safe.y, safe.w, safe.h - 9)
    parts: list[tuple[str, ...]] = []
    while rules:
        n = len(rules)
        while n > 1 and measure("\n".join(f"\u2022 {r}" for r in rules[:n]), TEXT, RULES_PT[0], RULES_PT[1], box.w,
                                box.h) is None:
            n -= 1
        parts.append(tuple(rules[:n]))
        rules = rules[n:]
    return parts


SLEEVE = 3.0  # mm of room round a card in a slot: sleeved cards fit


def rack_columns(card_w: float, card_h: float, safe: Rect, slots: int) -> tuple[int, float]:
    """How many player columns fit across the page, and the strip each card leaves showing."""
    w, h = card_w + SLEEVE, card_h + SLEEVE
    step = min(22.0, (safe.h - 16 - h) / max(1, slots - 1))  # the name strip a covered card shows
    return max(1, min(4, int((safe.w + 6) // (w + 6)))), step


def rack_page(pen: Pen, gmap: GameMap, card_w: float, card_h: float, first: int, count: int) -> None:
    """A rack mat per player, true card size plus room for a sleeve: the player lays their cards
    top to bottom, slot 1 first, each over the one before so its name strip stays in view."""
    s = pen.safe
    slots = gmap.recipe.slots
    w, h = card_w + SLEEVE, card_h + SLEEVE
    _, step = rack_columns(card_w, card_h, s, slots)
    pen.text_box(Rect(s.x, s.top - 12, s.w, 12),
                 f"{gmap.recipe.name}: racks. Place each card you draw in a slot, slot 1 (the start of your "
                 f"journey) at the top; each card lies over the one above, its name in view.",
                 font=BOLD, size=10, min_size=PLAY_PT, colour=INK, align="left", valign="top", field="title")
    gap = (s.w - count * w) / (count + 1)
    top = s.top - 16
    for i in range(count):
        x = s.x + gap + i * (w + gap)
        pen.text(x, top + 0.8, f"Player {first + i}", font=BOLD, size=9, colour=INK, field="player")
        for k in range(slots):
            y = top - k * step - h
            shown = h if k == slots - 1 else step  # a covered slot shows its strip only
            pen.rect(x, y + h - shown, w, shown, stroke=INK, width=0.3, radius=2 if k == slots - 1 else 0)
            pen.text(x + 2, y + h - min(step, h) / 2 - 1.2, str(k + 1), font=BOLD, size=PLAY_PT + 1, colour=RED,
                     field="slot")


def rack_sheet(gmap: GameMap, card_w: float, card_h: float, landscape: bool = False) -> Sheet:
    """As many rack mats per page as fit, pages for every player the game allows."""
    players = gmap.recipe.players_max
    # Two mats side by side fit the narrower printable width of A4 and Letter (197 mm) for cards
    # up to 90 mm wide; wider cards get a page per player.
    per_page = 2 if 2 * (card_w + SLEEVE) + 18 <= 197 else 1
    pages = tuple(partial(rack_page, gmap=gmap, card_w=card_w, card_h=card_h, first=p + 1,
                          count=min(per_page, players - p)) for p in range(0, players, per_page))
    return Sheet("racks", pages, title=f"{gmap.recipe.name}: racks", landscape=landscape)


def documents(edition: Edition, options: PrintOptions) -> list:
    """Every One Day in London print document of one edition: the deck, the rules card, the map
    and rack sheets."""
    gmap, deck = edition.board, edition.deck
    name = gmap.recipe.name
    size = options.card.label()
    back = sized(partial(card_back, title=name), size)
    cards = [Card(c.id, partial(card_front, card=c, gmap=gmap, size=size), label=f"{c.name} {c.copy_mark}")
             for c in deck.cards]
    parts = rules_parts(edition, CardGeometry(options.card.width, options.card.height).safe)
    rules = [Card("rules" if len(parts) == 1 else f"rules-{i + 1}",
                  sized(partial(rules_front, edition=edition, part=(i + 1, len(parts)), rules=part), size),
                  label="rules summary")
             for i, part in enumerate(parts)]
    return [
        Deck("stations", tuple(cards), back=back, title=f"{name}: {len(cards)} station cards"),
        Deck("rules", tuple(rules), back=sized(partial(aid_back, title=name), size), title=f"{name}: rules summary"),
        Sheet("map", (partial(map_page, edition=edition),), title=f"{name}: map", landscape=True),
        rack_sheet(gmap, options.card.width, options.card.height, landscape=False),
    ]
