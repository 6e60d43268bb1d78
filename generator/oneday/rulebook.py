"""One Day in London's rulebook: the words (``data/oneday/rulebook.md``), the values they print and
the figures (the typesetter: :mod:`tubedeck.generator.rulebook`).

The rules values come from the edition (the recipe's ``[game]`` table, the derived deck and map),
the worked examples' cards, slots and turns from the seeded game the engine replays
(:mod:`tubedeck.games.oneday.examples`), the rack's figures from the rack sheet's own geometry
(:mod:`.tent`, :func:`.faces.strip`). Figures draw cards as labelled rectangles, every text at 8 pt
or more, in the game's colours (the line colours, :mod:`generator.theme`), so they print in colour,
greyscale and ink-saver alike.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Sequence

from tubedeck.games.oneday.board import Board
from tubedeck.games.oneday.edition import Edition
from tubedeck.games.oneday.examples import (
    Card,
    SetupExample,
    WinningExample,
    exchange_example,
    setup_example,
    winning_example,
)
from tubedeck.games.oneday.records import MAX_TURNS
from tubedeck.generator import fonts
from tubedeck.generator.colour import reads_in_grey
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import Pen
from tubedeck.generator.rulebook import Figure, Rulebook, read_source
from tubedeck.generator.sizes import CardGeometry, Rect
from tubedeck.generator.text import measure
from tubedeck.generator.theme import BOLD, GREY, INK, MUTED, PAPER, PILE_BACKS, RED, RED_TEXT, TEXT, WHITE

from .chips import deeper, line_letters
from .faces import SLEEVE, rules_parts, strip
from .tent import Tent, plan

PT = 25.4 / 72.0
FIG_PT = 8.0  # every figure's text: the rulebook's floor
BACK = PILE_BACKS["oneday station"]


# -- small pieces -----------------------------------------------------------------------------------
def chip_w(letter: str) -> float:
    return max(chip_h(), fonts.text_width(letter, BOLD, FIG_PT) + 1.6)


def chip_h() -> float:
    return 0.72 * FIG_PT * PT + 1.6


def draw_chip(pen: Pen, x: float, cy: float, gmap: Board, line: str, letter: str) -> float:
    """A line chip at 8 pt (the cards' chip, :func:`.chips.chip`, drawn for the book); its width."""
    w, h = chip_w(letter), chip_h()
    colour, text_colour = gmap.lines[line].colour, gmap.lines[line].text_colour
    ink = pen.text_on(colour, text_colour)
    if not pen.ink_saver and not reads_in_grey(colour, ink):
        colour, ink = deeper(colour), WHITE
    pen.rect(x, cy - h / 2, w, h, fill=colour, stroke=INK, width=0.2, radius=h * 0.3)
    pen.text(x + w / 2, cy - 0.36 * FIG_PT * PT, letter, font=BOLD, size=FIG_PT, colour=ink, align="centre",
             field="chip")
    return w


def chips_width(lines: Sequence[str], letters: dict[str, str]) -> float:
    return sum(chip_w(letters[ln]) for ln in lines) + 0.5 * max(0, len(lines) - 1)


def draw_chips(pen: Pen, right: float, cy: float, gmap: Board, lines: Sequence[str], letters: dict[str, str]) -> None:
    x = right - chips_width(lines, letters)
    for ln in lines:
        x += draw_chip(pen, x, cy, gmap, ln, letters[ln]) + 0.5


def name_fits(name: str, width: float, font: str = BOLD) -> bool:
    return fonts.text_width(name, font, FIG_PT) <= width


def strip_card(pen: Pen, r: Rect, card: Card, gmap: Board, letters: dict[str, str], chips: bool = True) -> None:
    """A card's strip as a labelled rectangle: the name (8 pt, two lines if need be) and its chips."""
    pen.rect(r.x, r.y, r.w, r.h, fill=WHITE, stroke=INK, width=0.25, radius=0.8)
    cw = chips_width(card.lines, letters) if chips else 0.0
    room = r.w - 2.4 - (cw + 1.2 if chips else 0.0)
    if chips and (room < fonts.text_width(card.name.split(" ")[0], BOLD, FIG_PT)
                  or measure(card.name, BOLD, FIG_PT, FIG_PT, room, r.h - 0.6, max_lines=2) is None):
        chips, room = False, r.w - 2.4  # a station of many lines: its name first (another city's hubs)
    pen.text_box(Rect(r.x + 1.2, r.y + 0.3, room, r.h - 0.6), card.name, font=BOLD, size=FIG_PT, min_size=FIG_PT,
                 colour=INK, align="left", valign="middle", max_lines=2, field="figure")
    if chips:
        draw_chips(pen, r.right - 1.2, r.y + r.h / 2, gmap, card.lines, letters)


# -- the figures ------------------------------------------------------------------------------------
def draw_card(pen: Pen, box: Rect, edition: Edition, card_ratio: float) -> None:
    """A station card's parts, labelled: the name strip and chips, a band per line with its numbers
    before and after, the copy mark."""
    gmap, letters = edition.board, line_letters(edition.board)
    card = _sample_card(edition)
    h = box.h
    w = min(h * card_ratio, box.w * 0.55)
    c = Rect(box.x, box.y, w, h)
    pen.rect(c.x, c.y, c.w, c.h, fill=PAPER, stroke=INK, width=0.3, radius=2.0)
    strip_h = 2.0 + max(chip_h(), 9.0 * PT) + 2.5
    base = c.top - 2.0 - 0.5 * (max(chip_h(), 9.0 * PT) + 0.72 * 9.0 * PT)
    pen.text(c.x + 2.0, base, card.name, font=BOLD, size=9.0, colour=INK, field="figure")
    cy = base + 0.36 * 9.0 * PT
    draw_chips(pen, c.right - 2.0, cy, gmap, [b.line for b in card.bands], letters)
    pen.rect(c.x + 1.5, c.top - strip_h, c.w - 3.0, 0.6, fill=RED)
    foot = c.y + 2.0 + FIG_PT * PT + 2.0
    n = len(card.bands)
    avail = c.top - strip_h - 2.0 - foot
    band_h = min(12.0, (avail - (n - 1) * 1.5) / n)
    y = c.top - strip_h - 2.0 - (avail - n * band_h - (n - 1) * 1.5) / 2
    band_ys = []
    for b in card.bands:
        y -= band_h
        line = gmap.lines[b.line]
        pen.rect(c.x + 0.8, y, c.w - 1.6, band_h, fill=line.colour)
        ink = pen.text_on(line.colour, line.text_colour)
        base = y + band_h / 2 - 0.36 * FIG_PT * PT
        name = line.name if name_fits(line.name, c.w - 16) else letters[b.line]
        if not pen.ink_saver and not reads_in_grey(line.colour, ink):
            tw = fonts.text_width(name, BOLD, FIG_PT) + 1.6
            pen.rect(c.x + c.w / 2 - tw / 2, base - 1.0, tw, FIG_PT * PT + 1.2, fill=WHITE, radius=0.6)
            ink = INK
        pen.text(c.x + c.w / 2, base, name, font=BOLD, size=FIG_PT, colour=ink, align="centre", field="figure")
        for x, num in ((c.x + 4.0, b.before), (c.right - 4.0, b.after)):
            pen.circle(x, y + band_h / 2, 2.6, fill=WHITE, stroke=INK, width=0.25)
            pen.text(x, base, str(num), font=BOLD, size=FIG_PT, colour=INK, align="centre", field="figure")
        band_ys.append(y + band_h / 2)
        y -= 1.5
    pen.text(c.x + 2.0, c.y + 2.0, "< before | after >", size=FIG_PT, colour=INK, field="figure")
    pen.text(c.right - 2.0, c.y + 2.0, card.copy_mark, size=FIG_PT, colour=INK, align="right", field="figure")
    # the labels, right of the card, each with a leader to its part
    lx = c.right + 4.0
    lw = box.right - lx

    def label(y: float, text: str, to: tuple[float, float]) -> None:
        pen.line(to[0], to[1], lx - 0.8, y + 0.9, stroke=MUTED, width=0.2)
        pen.text_box(Rect(lx, y - 2.8, lw, 7.6), text, size=FIG_PT, min_size=FIG_PT, colour=INK, align="left",
                     valign="middle", max_lines=2, field="figure")

    label(cy, "name strip and line chips", (c.right - 1.0, cy))
    label(band_ys[0] + 4.0, "a band for each line", (c.right - 0.8, band_ys[0] + 2.0))
    label(band_ys[-1] - 1.0, "stations before / after", (c.right - 4.0, band_ys[-1]))
    label(c.y + 3.0, f"copy mark: {card.copy} of {card.copies}", (c.right - 1.0, c.y + 3.0))


def _sample_card(edition: Edition):
    """The card the figure shows: the first with the most bands up to three (Embankment in London)."""
    cards = edition.deck.cards
    best = max(min(len(c.bands), 3) for c in cards)
    pick = next(c for c in cards if len(c.bands) == best and c.copies > 1) if any(
        len(c.bands) == best and c.copies > 1 for c in cards) else next(c for c in cards if len(c.bands) == best)
    return pick


def draw_setup(pen: Pen, box: Rect, edition: Edition, ex: SetupExample) -> None:
    """The table after the deal: each rack as a column of strips (slot 1 at the top), the discard
    piles face up and the draw pile face down."""
    gmap, letters = edition.board, line_letters(edition.board)
    n = len(ex.racks)
    head = FIG_PT * PT + 2.5
    table_h = max(26.0, box.h * 0.22)
    num_w = fonts.text_width("10", BOLD, FIG_PT) + 1.5
    gap = 3.0
    col_w = (box.w - (n - 1) * gap) / n
    rows = len(ex.racks[0])
    row_h = (box.h - head - table_h - 4.0) / rows
    for p, rack in enumerate(ex.racks):
        x = box.x + p * (col_w + gap)
        pen.text(x, box.top - FIG_PT * PT, f"Player {p + 1}" + (" (plays first)" if p + 1 == ex.first else ""),
                 font=BOLD, size=FIG_PT, colour=INK, field="figure")
        for k, card in enumerate(rack):
            y = box.top - head - (k + 1) * row_h
            pen.text(x + num_w - 1.0, y + row_h / 2 - 0.36 * FIG_PT * PT, str(k + 1), font=BOLD, size=FIG_PT,
                     colour=RED_TEXT, align="right", field="figure")
            strip_card(pen, Rect(x + num_w, y + 0.3, col_w - num_w, row_h - 0.6), card, gmap, letters, chips=False)
    # the middle of the table: the discard piles face up, the draw pile face down, in a grid
    cells: list[tuple[str, Card | None]] = [(f"Discard pile {i + 1}", c) for i, c in enumerate(ex.piles)]
    cells.append(("Draw pile", None))
    cols = len(cells) if (box.w - (len(cells) - 1) * gap) / len(cells) >= 34.0 else 2
    grid_rows = -(-len(cells) // cols)
    cw = (box.w - (cols - 1) * gap) / cols
    cell_h = table_h / grid_rows
    ch = cell_h - FIG_PT * PT - 2.0
    for i, (title, top) in enumerate(cells):
        x = box.x + (i % cols) * (cw + gap)
        y = box.y + (grid_rows - 1 - i // cols) * cell_h
        pen.text(x, y + ch + 1.0, title, size=FIG_PT, colour=INK, field="figure")
        if top is not None:
            strip_card(pen, Rect(x, y, cw, ch), top, gmap, letters, chips=False)
            continue
        pen.rect(x, y, cw, ch, fill=BACK, stroke=INK, width=0.25, radius=0.8)
        label = f"{ex.draw_pile} cards, face down"
        lw = fonts.text_width(label, BOLD, FIG_PT) + 2.0
        pen.rect(x + cw / 2 - lw / 2, y + ch / 2 - 2.2, lw, 4.4, fill=WHITE, radius=0.6)
        pen.text(x + cw / 2, y + ch / 2 - 0.36 * FIG_PT * PT, label, font=BOLD, size=FIG_PT, colour=INK,
                 align="centre", field="figure")


def draw_winning(pen: Pen, box: Rect, edition: Edition, ex: WinningExample) -> None:
    """The winning rack as strips (slot numbers, names, chips) with a bracket per ride, named by its line."""
    gmap, letters = edition.board, line_letters(edition.board)
    names = {ln.name: lid for lid, ln in gmap.lines.items()}
    num_w = fonts.text_width("10", BOLD, FIG_PT) + 1.5
    ride_w = max(fonts.text_width(r.line, BOLD, FIG_PT) for r in ex.rides) + 6.0
    card_w = box.w - num_w - ride_w
    rows = len(ex.rack)
    row_h = min(box.h / rows, 10.0)  # a short rack (another city) keeps card-like strips, from the top
    for k, card in enumerate(ex.rack):
        y = box.top - (k + 1) * row_h
        pen.text(box.x + num_w - 1.0, y + row_h / 2 - 0.36 * FIG_PT * PT, str(k + 1), font=BOLD, size=FIG_PT,
                 colour=RED_TEXT, align="right", field="figure")
        strip_card(pen, Rect(box.x + num_w, y + 0.3, card_w, row_h - 0.6), card, gmap, letters)
    slot = 0
    bx = box.x + num_w + card_w + 1.5
    for i, ride in enumerate(ex.rides):
        first, last = slot, slot + len(ride.stops) - 1
        top = box.top - first * row_h - row_h / 2
        bottom = box.top - last * row_h - row_h / 2
        line = names.get(ride.line)
        colour = gmap.lines[line].colour if line else INK
        x = bx + (1.2 if i % 2 else 0.0)
        pen.polyline([(x, top), (x + 1.2, top), (x + 1.2, bottom), (x, bottom)], stroke=INK, width=0.9)
        pen.polyline([(x, top), (x + 1.2, top), (x + 1.2, bottom), (x, bottom)], stroke=colour, width=0.5)
        pen.text(x + 2.4, (top + bottom) / 2 - 0.36 * FIG_PT * PT, ride.line, font=BOLD, size=FIG_PT, colour=INK,
                 field="figure")
        slot = last


def draw_rack(pen: Pen, box: Rect, tent: Tent | None, slots: int) -> None:
    """The tent rack, to scale: from the side (you on the left, the others on the right; each card's
    foot through its slit, tucked behind the front) and from the front as you see it (the slot
    numbers beside the name strips, each card over the one above, its strip in view). Flat racks: the mat."""
    if tent is None:
        _draw_flat(pen, box, slots)
        return
    half = (box.w - 4.0) / 2
    _side_view(pen, Rect(box.x, box.y, half, box.h), tent, slots)
    _front_view(pen, Rect(box.right - half, box.y, half, box.h), tent, slots)


def _side_view(pen: Pen, box: Rect, tent: Tent, slots: int) -> None:
    a = math.radians(tent.lean)
    ux, uy = math.cos(a), math.sin(a)  # up the front's slope, from its foot
    top1 = tent.card_top(1)
    right_w = fonts.text_width("back", TEXT, FIG_PT) + 3.0
    label_h = FIG_PT * PT + 1.5
    span_x = max(tent.base, top1 * ux) + 1.0
    span_y = max(tent.height, top1 * uy) + 1.0
    scale = min((box.w - right_w - 2.0) / span_x, (box.h - label_h - 1.0) / span_y)
    ox = box.x + 2.0 + (box.w - right_w - 2.0 - span_x * scale) / 2
    oy = box.y + label_h

    def at(u: float, off: float = 0.0) -> tuple[float, float]:
        """The point ``u`` mm up the front's slope, ``off`` page mm out in front of it (towards you)."""
        return ox + u * ux * scale - off * uy, oy + u * uy * scale + off * ux

    pen.line(box.x, oy, box.right, oy, stroke=GREY, width=0.3)  # the table
    ridge = at(tent.front)
    back_foot = (ox + tent.base * scale, oy)
    pen.polygon([(ox, oy), ridge, back_foot], fill=WHITE, stroke=INK, width=0.45)
    for k in range(1, slots + 1):
        s = tent.slit_y(k)
        off = 0.22 * k  # a lower slot's card lies in front of the one above it
        pen.line(*at(s - tent.tuck, -0.3), *at(s, -0.3), stroke=GREY, width=0.3)  # its foot, behind the front
        pen.polyline([at(s, -0.3), at(s, off), at(tent.card_top(k), off)], stroke=INK, width=0.25)
    base_y = box.y + 0.5
    pen.text(box.x, base_y, "you", font=BOLD, size=FIG_PT, colour=INK, field="figure")
    pen.text(box.right, base_y, "the others", font=BOLD, size=FIG_PT, colour=INK, align="right", field="figure")
    pen.text(back_foot[0] + 1.5, (oy + ridge[1]) / 2, "back", size=FIG_PT, colour=INK, field="figure")


def _front_view(pen: Pen, box: Rect, tent: Tent, slots: int) -> None:
    num_w = 1.0
    tall = max(tent.post, tent.card_top(1))
    scale = min((box.w - num_w) / tent.width, (box.h - FIG_PT * PT - 2.0) / tall)
    x0 = box.x + num_w + (box.w - num_w - tent.width * scale) / 2
    y0 = box.y + FIG_PT * PT + 2.0
    col = tent.slit_x * scale
    outline = [(x0, y0), (x0 + tent.width * scale, y0), (x0 + tent.width * scale, y0 + tent.front * scale),
               (x0 + col, y0 + tent.front * scale), (x0 + col, y0 + tent.post * scale), (x0, y0 + tent.post * scale)]
    pen.polygon(outline, fill=WHITE, stroke=INK, width=0.4)
    cx = x0 + col
    for k in range(1, slots + 1):
        y = y0 + tent.slit_y(k) * scale
        pen.line(cx, y, cx + tent.slit * scale, y, stroke=INK, width=0.3)
    for k in range(1, slots + 1):  # slot 1 first: each lower card lies over the one above it
        y = y0 + tent.slit_y(k) * scale
        w, h = tent.card_w * scale, (tent.card_top(k) - tent.slit_y(k)) * scale
        x = cx + (tent.slit - tent.card_w) / 2 * scale
        pen.rect(x, y, w, h, fill=PAPER, stroke=INK, width=0.2, radius=0.5)
        bar = min(tent.pitch * scale * 0.35, 1.2)
        pen.rect(x + 1.0, y + h - tent.pitch * scale / 2 - bar / 2, w * 0.55, bar, fill=GREY)  # the name
    for k in range(1, slots + 1):
        y = y0 + tent.number_y(k) * scale
        pen.text(cx - 0.5, y - 0.36 * FIG_PT * PT, str(k), font=BOLD, size=FIG_PT, colour=RED_TEXT, align="right",
                 field="figure")
    pen.text(x0 + tent.width * scale / 2, box.y + 0.5, "the front, as you see it", size=FIG_PT, colour=INK,
             align="centre", field="figure")


def _draw_flat(pen: Pen, box: Rect, slots: int) -> None:
    num_w = fonts.text_width("10", BOLD, FIG_PT) + 1.5
    w = min(box.w * 0.5, 50.0)
    pitch = (box.h - 12.0) / (slots - 1 + 3.0)
    x = box.x + (box.w - w) / 2
    for k in range(slots):
        y = box.top - (k + 1) * pitch
        h = pitch if k < slots - 1 else 3 * pitch
        y = y if k < slots - 1 else y - 2 * pitch
        pen.rect(x, y, w, h, stroke=INK, width=0.3)
        pen.text(x - 1.0, box.top - k * pitch - pitch / 2 - 1.0, str(k + 1), font=BOLD, size=FIG_PT, colour=RED_TEXT,
                 align="right", field="figure")
    _ = num_w


# -- values ---------------------------------------------------------------------------------------------
def _id_name(ident: str) -> str:
    return " ".join(w.capitalize() for w in ident.split("-"))


def map_changes(gmap: Board) -> str:
    """The recipe's exceptions to the dataset, in words (the London recipe: no Circle line, ...)."""
    rec, names = gmap.recipe, gmap.data_names
    out = [f"there is no {_id_name(line)} line" for line, _ in rec.exclude_lines]
    out += [f"{' and '.join(names.get(m, _id_name(m)) for m in members)} are one station, {name}"
            for _, name, members, _ in rec.merges]
    out += [f"{' and '.join(gmap.name(m) if m in gmap.stations else names.get(m, m) for m in members)} stay two stations"
            for members, _ in rec.keep_apart]
    left = [names.get(s, _id_name(s)) for s, _ in rec.exclude_stations]
    if left:
        out.append(f"{' and '.join(left)} {'is' if len(left) == 1 else 'are'} left out")
    out.append(f"stations opened on or after {rec.opened_before} are left out")
    return "; ".join(out) + "."


def and_list(items: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def rides_text(ex: WinningExample) -> str:
    parts = []
    for r in ex.rides:
        via = f" through {and_list(r.stops[1:-1])}" if len(r.stops) > 2 else ""
        parts.append(f"the {r.line} from {r.stops[0]}{via} to {r.stops[-1]}")
    return "; ".join(parts)


def win_note(ex: WinningExample) -> str:
    """What the winning rack shows beyond the plain rules: a station or line used twice."""
    names = [c.name for c in ex.rack]
    twice = sorted({n for n in names if names.count(n) > 1})
    lines = [r.line for r in ex.rides]
    again = sorted({ln for ln in lines if lines.count(ln) > 1})
    notes = []
    if twice:
        notes.append(f"{' and '.join(twice)} {'is' if len(twice) == 1 else 'are'} a stop twice: allowed, as other "
                     "stops and another line come in between")
    if again:
        notes.append(f"the {' and '.join(again)} {'is' if len(again) == 1 else 'are'} ridden twice, with another "
                     "line in between")
    if not notes:
        return ""
    text = "; ".join(notes)
    return text[0].upper() + text[1:] + "."


def same_track(gmap: Board) -> str:
    """The lines that share track and the stations they share, first and last along the first line."""
    out = []
    for group in gmap.shared_track:
        lines = sorted(group, key=lambda ln: gmap.lines[ln].name)
        shared = [st for st in gmap.runs[lines[0]].stations if all(st in gmap.runs[ln].stations for ln in lines)]
        names = " and the ".join(gmap.lines[ln].name for ln in lines)
        out.append(f"the {names}" + (f" between {gmap.name(shared[0])} and {gmap.name(shared[-1])}"
                                     if len(shared) > 1 else ""))
    return "; ".join(out) if out else "no two lines share track in this game"


# the seed text's own examples of copies, shown where the edition has them
TEXT_EXAMPLES = ("kings-cross-st-pancras", "embankment", "sloane-square")
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def copies_examples(edition: Edition) -> str:
    """A station of each copy count, in words: the text's own (King's Cross St Pancras, Embankment,
    Sloane Square) where the edition has them."""
    gmap, copies = edition.board, edition.deck.copies()
    picks: dict[int, str] = {}
    for st in TEXT_EXAMPLES + tuple(sorted(copies, key=lambda s: gmap.name(s))):
        if st in copies:
            picks.setdefault(copies[st], st)
    parts = []
    for n in sorted(picks, reverse=True):
        st = picks[n]
        lines, groups = len(gmap.lines_at(st)), gmap.track_groups_at(st)
        on = f", {WORDS.get(lines - groups + 1)} of them on one track" if groups < lines else ""
        parts.append(f"{gmap.name(st)} ({WORDS.get(lines, str(lines))} line{'s' * (lines > 1)}{on}) has "
                     f"{WORDS.get(n, str(n))} card{'s' * (n > 1)}")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def line_notes(gmap: Board) -> str:
    """The Northern line's note where the edition has the text's Northern line without Kennington."""
    northern = next((ln for ln, line in gmap.lines.items() if line.name == "Northern"), None)
    run = gmap.runs.get(northern) if northern else None
    if run is None or "kennington" in gmap.stations or "elephant-castle" not in run.stations:
        return ""
    first, last = gmap.name(run.stations[0]), gmap.name(run.stations[-1])
    return (f"The Northern line is one line in the game, from {first} through its two central branches to {last}. "
            "There is no short way from Waterloo to Elephant & Castle: that needs Kennington, outside the game.")


def rack_how(edition: Edition, slots: int, tent: Tent | None = None) -> str:
    """How to make and fill the rack; with the planned ``tent``, how deep a card goes into its slit
    and how far above the slit its slot number stands (the sheet's own geometry, :mod:`.tent`)."""
    if edition.racks == "flat":
        return ("The **flat rack** is a mat to lay on the table in front of you: put each card in its numbered "
                "place, slot 1 at the top, each card over the one above. Shield it from the others (a box lid "
                "stood on its side will do).")
    return ("The **tent rack** stands your cards up, faces towards you, so the others see only their backs. Cut "
            f"it out along the solid lines, and cut the {slots} slits across its front with a craft knife; fold "
            "the dashed lines inwards and glue the grey tabs: the front's foot tab under the base, its top tab "
            "inside the back. Slide the foot of each card into its slit, face towards you: slot 1's card into the "
            "highest slit, slot 2's into the next, and so on. A card in a lower slot lies in front of the one above "
            "it. The slot numbers stand left of the cards, each beside its card's name strip; the top ones on a "
            "narrow post that rises past the tent's ridge." + ("" if tent is None else _depth(tent)))


def _depth(tent: Tent) -> str:
    """How deep a card sits in its slit, and where its slot number stands: the tent's numbers."""
    above = tent.number_y(1) - tent.slit_y(1)
    return (f" Push each card {tent.tuck:g} mm into its slit, no further: its foot stays above the next slit down. "
            f"So a slot's number stands well above its slit (about {above:.0f} mm), where that card's name shows; "
            "each slit is marked just above it with its slot (\"slot 3's card\").")


def rulebook(edition: Edition, options: PrintOptions) -> Rulebook:
    gmap, deck, rules = edition.board, edition.deck, edition.rules
    letters = line_letters(gmap)
    setup, ex, win = setup_example(edition), exchange_example(edition), winning_example(edition)
    copies = list(deck.copies().values())
    card = options.card
    pitch = strip(gmap, deck, card.width, card.height).pitch
    tent = plan(card.width, card.height, pitch, rules.slots, options.paper).tent if edition.racks == "tent" else None
    parts = rules_parts(edition, CardGeometry(card.width, card.height).safe)
    tops = [t for t in ex.piles_after]
    values: dict[str, object] = {
        "title": rules.name,
        "players_min": rules.players_min, "players_max": rules.players_max,
        "slots": rules.slots, "piles": rules.discard_piles, "zones": _zones(gmap),
        "stations": len(gmap.stations), "cards": len(deck), "lines": len(gmap.lines),
        "one_copy": copies.count(1), "two_copies": copies.count(2), "three_copies": copies.count(3),
        "rules_cards": len(parts),
        "rack_name": "Tent rack, a net to cut, fold and glue" if tent else "Flat rack mat",
        "rack_how": rack_how(edition, rules.slots, tent),
        "bring_tools": ("**Scissors**, a **craft knife, a metal ruler and a cutting mat** (the tent racks have slits "
                        "to cut) and a **glue stick**." if tent else "**Scissors** (or a craft knife and a ruler)."),
        "hide": ("the tent rack hides them; the others see only the backs" if tent
                 else "shield your flat rack from the others"),
        "orientation": "; ".join(f"the {gmap.lines[ln].name} from {gmap.name(gmap.runs[ln].stations[0])}"
                                 for ln, _, _ in rules.orientation if ln in gmap.runs) or "their west ends",
        "same_track": same_track(gmap), "line_notes": line_notes(gmap), "copies_examples": copies_examples(edition),
        "sleeve": f"{SLEEVE:g}",
        "letters": ", ".join(f"{letters[ln]} {gmap.lines[ln].name}" for ln in sorted(gmap.lines, key=lambda x: letters[x])),
        "deal_cards": rules.slots * rules.players_max,
        "setup_seed": setup.seed,
        "ex_turn": ex.turn, "ex_player": ex.player, "ex_drawn": ex.drawn, "ex_from": ex.from_pile,
        "ex_replaced": ex.replaced, "ex_slot": ex.slot, "ex_to": ex.to_pile,
        "ex_reason": (f"drawing its only card emptied pile {ex.to_pile}, so the discard had to go there"
                      if ex.forced else "any pile would have done"),
        "ex_piles": ", ".join(f"{t} (pile {i + 1})" for i, t in enumerate(tops) if t),
        "map_changes": map_changes(gmap),
        "win_seed": win.seed, "win_players": win.players, "win_player": win.winner, "win_turn": win.turn,
        "win_own": win.own_turns, "win_exchanges": win.exchanges,
        "win_rides": rides_text(win), "win_note": win_note(win),
        "max_turns": MAX_TURNS,
    }
    sample = _sample_card(edition)
    figures = {
        "card": Figure(partial(draw_card, edition=edition, card_ratio=card.width / card.height), aspect=0.78,
                       caption=f"A station card: {sample.name}, card {sample.copy_mark}."),
        "rack": Figure(partial(draw_rack, tent=tent, slots=rules.slots), aspect=0.95,
                       caption=("The tent rack, to scale: from the side, and from the front with a card in every "
                                "slot, each slot number beside its card's name strip." if tent else
                                f"The flat rack mat: {rules.slots} slots, slot 1 at the top.")),
        "setup": Figure(partial(draw_setup, edition=edition, ex=setup), aspect=1.4,
                        caption=(f"The sample game's setup: {setup.players} players. Each card was placed "
                                 f"by its player, one at a time; {setup.draw_pile} cards are left in the draw pile.")),
        "winning": Figure(partial(draw_winning, edition=edition, ex=win), aspect=0.85,
                          caption=f"Player {win.winner}'s winning rack (the sample game, turn {win.turn})."),
    }
    source = read_source("oneday").replace("One Day in London", "{game_name}")  # the recipe's name: its city's
    return Rulebook(game="oneday", title=rules.name, source=source, values={**values, "game_name": rules.name},
                    figures=figures).localised(edition.dataset)


def _zones(gmap: Board) -> str:
    from tubedeck.games.oneday.recipe import zone_phrase

    return zone_phrase(gmap.recipe.zones)
