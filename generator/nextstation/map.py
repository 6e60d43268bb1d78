"""The map sheet of a generated Next Station map (never the classic board): the grid of stations
with their symbols and real names, the dotted potential sections, the Thames, the district boxes,
tourist sites, departure stations in their pencil colour, and the score card below, as the
published sheet carries it."""

from __future__ import annotations

import math
import re
from collections import Counter

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.board import Station, row_label
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.generate import RIVER_UP, STATION_AT, river_path
from tubedeck.games.nextstation.rules import QUESTION_MARK
from tubedeck.generator.fonts import text_width
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT, Rect
from tubedeck.generator.text import fit, measure
from tubedeck.generator.theme import BOLD, GREY, INK, MIN_PT, PLAY_PT, TEXT, WHITE, short_line_name

from .parts import mark, mark_size, pencil_marks, score_card, symbol

# Scoring features read at >= 3:1 against what they sit on, in colour and in grey (district fill,
# corner fill, paper): the Thames as a pale river between two dark banks (a double line no other
# feature has; the dotted sections still show across its pale water), the boxes' outlines dark gold.
RIVER = "#CFE6F5"  # the water between the banks
RIVER_BANK = "#1F5FA8"  # 5.8:1 on the district fill (6.7:1 in grey); was a light blue at 1.58:1
BANK = 0.45  # mm of each bank
DISTRICT = "#FFF3C4"
CORNER = "#FCE3A0"  # a corner district: its own, darker box
DISTRICT_LINE = "#7A5C00"  # the districts' outlines: 5.6:1 on the district fill, 5.0:1 on a corner's


RIVER_W = 0.12  # the Thames's width, in cells (it runs along tubedeck's river_path)
SYMBOL_R = 0.17  # a station's circle, in cells, at most (its symbol is drawn 1.2 times that)
TOURIST_R = 1.7 * SYMBOL_R  # to the tips of a tourist site's compass points, at most
DEPARTURE_R = 1.5 * SYMBOL_R  # a departure's symbol (it holds its pencil's mark), at most
CLEAR = 1.5  # mm between any symbol or name and a box's border (and a name and the Thames: KNOCK + 0.7)
REACH = 0.83  # of a symbol's radius above its centre: the triangle's apex (the tallest)
MITRE = 0.5  # mm more for the apex's mitred stroke
APEX_GROW = 1.25  # a departure triangle's size over the others', its apex where theirs is
KNOCK = 0.3  # mm of white round a name: the dotted sections stop short of its letters
CAP = 0.7 * 0.3528  # mm of cap height per pt


ABBREVIATIONS = {"Station": "Stn", "Street": "St", "Road": "Rd", "Junction": "Jn", "Broadway": "Bdwy"}


VOWELS = frozenset("aeiouy")
# consonants a syllable may start with (English spelling: a break before "br" or "ch", never
# inside "ch" or before "sb"); another city's names break where these allow, else in the middle
ONSETS = frozenset("bl br ch cl cr dr fl fr gl gr kn pl pr sc sh sk sl sm sn sp st sw th tr tw wh wr ph qu "
                   "str spr scr spl thr shr sch squ".split())
DIGRAPHS = frozenset("ch sh th ph wh gh ck".split())


def _breaks(word: str) -> list[int]:
    """Where ``word`` may take a hyphen, nearest its middle first: at least 3 letters each side,
    the right part starting with a consonant onset (:data:`ONSETS`, or one consonant) and a vowel,
    as long an onset as the letters allow, no digraph split (White-chapel, not Whitec-hapel;
    Knights-bridge, not Knight-sbridge). A word with no such place breaks in the middle."""
    low, n = word.lower(), len(word)
    good = []
    for k in range(3, n - 2):
        left, right = low[:k], low[k:]
        onset = next((j for j, c in enumerate(right) if c in VOWELS), len(right))
        if not any(c in VOWELS for c in left) or onset in (0, len(right)) or not right[0].isalpha():
            continue
        if (onset > 1 and right[:onset] not in ONSETS) or left[-1] + right[0] in DIGRAPHS:
            continue
        if left[-1] not in VOWELS and left[-1] + right[:onset] in ONSETS:  # the consonant goes right:
            continue                                                        # Black-friars, not Blackf-riars
        good.append(k)
    # a break after a consonant reads better (Cock-fosters): one letter nearer the middle is worth it
    return sorted(good, key=lambda k: (abs(k - n / 2) + (low[k - 1] in VOWELS), -k)) or [n // 2 + 1]


def _fitting(name: str, box: Rect, keep: bool = False) -> str:
    """The name, else with its bracketed line shortened (H&C), else without the brackets (``keep``:
    never, for a name that without them reads as another station's on the map: 86 St (1/2)), else
    with the Tube map's abbreviations (Stn, St, Rd), else with its longest word split by a hyphen
    where a syllable may break (:func:`_breaks`: Knights-bridge, White-chapel) so that it wraps, else with its long words cut to 4 letters and a full stop
    from the longest on (Heathrow Term. 2 & 3), else cut short with an ellipsis: any name in any
    city's data fits its box."""
    base, _, rest = name.partition(" (")
    inner = rest.rstrip(")")
    short = " ".join(ABBREVIATIONS.get(w, w) for w in base.split())

    def fits(text: str) -> bool:
        return measure(text, TEXT, MIN_PT, MIN_PT, box.w, box.h, 2) is not None

    def splits(text: str) -> list[str]:
        long = max(re.split(r"[\s-]+", text), key=len)  # (a hyphen already there is a break: text.wrap)
        return [text.replace(long, f"{long[:k]}-{long[k:]}", 1) for k in _breaks(long)]

    tries = (name, f"{base} ({short_line_name(inner)})" if inner else name, base, short, *splits(base),
             *splits(short))
    tail = ""
    if keep and inner:  # the last brackets stay (Cathedral Pkwy (110 St) (A/B/C)); the name before them gives way
        base, _, rest = name.rpartition(" (")
        tail = f" ({short_line_name(rest.rstrip(')'))})"
        short = " ".join(ABBREVIATIONS.get(w, w) for w in base.split())
        tries = (name, f"{base}{tail}", f"{short}{tail}", *splits(f"{base}{tail}"), *splits(f"{short}{tail}"))
    for text in tries:
        if fits(text):
            return text
    words = short.split()
    for k in sorted(range(len(words)), key=lambda k: -len(words[k])):
        if len(words[k]) > 5:
            words[k] = words[k][:4] + "."
            if fits(" ".join(words) + tail):
                return " ".join(words) + tail
    text = " ".join(words)
    while len(text) > 1 and not fits(text + "\u2026" + tail):
        text = text[:-1].rstrip()
    return text + "\u2026" + tail


# Where a station sits in its cell (fractions of the cell from its top): the symbol high, its
# name in the free lower part, so a name stays inside its own cell (and district box).
SYMBOL_AT = STATION_AT  # the symbol's centre below the cell's top (where sections are scored from)
INSET = 0.4  # mm between a district box (the middle of its border) and its cells' edges
CORNER_W = 0.6  # mm of a corner box's border (a main box's: 0.4); on the main box's at the map's edges
CARD_H = 72.0  # mm of the score card below the map
LABEL = 4.0  # mm beside and above the grid for its coordinates (row letters, column numbers)


HEAD = 9.5  # mm above the grid's coordinates: the title, the map's name and the legend
GAP = 4.0  # mm between two items of the legend


def _tourist_icon(pen: Pen, cx: float, cy: float, r: float, width: float = 0.5, up: float | None = None) -> None:
    """A tourist site's points: 6 strokes from 1.15 ``r`` out to 1.7 ``r`` (no north or south
    point, and the diagonals cut to reach ``up`` mm above and below the centre: room above the
    symbol is the box's border's, below it the name's)."""
    for k in (0, 1, 3, 4, 5, 7):
        ang = math.radians(k * 45)
        out = r * TOURIST_R / SYMBOL_R
        if up is not None and k % 4:
            out = min(out, (up - width / 2) / math.sin(math.radians(45)))
        pen.line(cx + math.cos(ang) * r * 1.15, cy + math.sin(ang) * r * 1.15,
                 cx + math.cos(ang) * out, cy + math.sin(ang) * out, stroke=INK, width=width)


def thames(pen: Pen, points: list[tuple[float, float]], width: float) -> None:
    """The Thames ``width`` mm wide: its dark banks, then its pale water between them."""
    pen.polyline(points, stroke=RIVER_BANK, width=width)
    pen.polyline(points, stroke=RIVER, width=width - 2 * BANK)


def _question(pen: Pen, cx: float, cy: float, r: float, size: float = 10) -> None:
    pen.circle(cx, cy, r, fill=WHITE, stroke=INK, width=0.5)
    pen.text(cx, cy - size * CAP / 2, "?", font=BOLD, size=size, colour=INK, align="centre", field="symbol")


def legend(pen: Pen, edition: Edition, box: Rect) -> None:
    """Two lines right-aligned in ``box``, each item its mark as the map draws it and its words
    (``legend_*`` in rules.toml): tourist site, the ? station, the Thames; then a corner district's
    box (the published map nests the 4 one-station districts in the main boxes: the key says they
    count on their own), each departure's mark and its pencil (the marks tell the departures apart
    in black and white)."""
    book = edition.book
    texts = book.texts
    row = box.h / 2
    # another city's map has no river (tubedeck.games.nextstation.generate): the key says so
    dry = edition.generated is not None and not edition.generated.river
    words = [texts["legend_tourist"], texts["legend_question"], texts["legend_no_river" if dry else "legend_thames"]]
    icon = 2 * TOURIST_R / SYMBOL_R * 1.2  # the tourist icon's width (the widest)
    first = sum(icon + 1.2 + text_width(w, TEXT, PLAY_PT) for w in words) + GAP * (len(words) - 1)
    pencils = book.rules.pencils
    heading = texts["legend_departures"]
    corner = texts["legend_corner"]
    corner_w = icon + 1.2 + text_width(corner, TEXT, PLAY_PT) + 2 * GAP
    second = corner_w + text_width(heading, BOLD, PLAY_PT) + sum(GAP + mark_size(book, p)[0] + 1.2 + text_width(
        p.capitalize(), TEXT, PLAY_PT) for p in pencils)
    if max(first, second) > box.w:
        raise UsageError(f"the map's legend needs {max(first, second):.0f} mm beside the title, has {box.w:.0f}")
    mid = box.top - row / 2
    x = box.right - first
    for k, text in enumerate(words):
        cx = x + icon / 2
        if k == 0:
            _tourist_icon(pen, cx, mid, 1.2, width=0.4)
        elif k == 1:
            _question(pen, cx, mid, 1.7, size=PLAY_PT)
        elif not dry:
            thames(pen, [(x, mid), (x + icon, mid)], 1.8)
        pen.text(x + icon + 1.2, mid - PLAY_PT * CAP / 2, text, size=PLAY_PT, colour=INK, field="legend")
        x += icon + 1.2 + text_width(text, TEXT, PLAY_PT) + GAP
    mid = box.top - row * 1.5
    x = box.right - second
    # a corner box as the map draws it: a district of its own, not part of the main box around it
    pen.rect(x, mid - 1.6, icon, 3.2, fill=CORNER, stroke=DISTRICT_LINE, width=0.8, radius=1)
    pen.text(x + icon + 1.2, mid - PLAY_PT * CAP / 2, corner, size=PLAY_PT, colour=INK, field="legend")
    x += corner_w
    pen.text(x, mid - PLAY_PT * CAP / 2, heading, font=BOLD, size=PLAY_PT, colour=INK, field="legend")
    x += text_width(heading, BOLD, PLAY_PT)
    for p in pencils:
        w = mark_size(book, p)[0]
        mark(pen, book, p, x + GAP + w / 2, mid)
        x += GAP + w + 1.2
        pen.text(x, mid - PLAY_PT * CAP / 2, p.capitalize(), size=PLAY_PT, colour=INK, field="legend")
        x += text_width(p.capitalize(), TEXT, PLAY_PT)


def departure_mark(pen: Pen, edition: Edition, station: Station, cx: float, cy: float, r: float) -> None:
    """A departure station: its symbol large in its pencil's colour, the pencil's mark inside
    (in the triangle's wide lower part), so that a greyscale print still tells which it is."""
    colour = edition.book.colours[station.departure]
    if station.symbol == "triangle":  # grown about its apex (the border's room is above it) to hold the mark
        cy, r = cy - REACH * (APEX_GROW - 1) * r, r * APEX_GROW
    symbol(pen, station.symbol, cx, cy, r, INK, fill=colour)
    low = r * 0.595 - max(0.5, r * 0.16) / 2 - 0.5 if station.symbol == "triangle" else PLAY_PT * CAP / 2
    pen.text(cx, cy - low, pencil_marks(edition.book)[station.departure], font=BOLD, size=PLAY_PT,
             colour=pen.text_on(colour, WHITE), align="centre", field="mark")


def map_page(pen: Pen, edition: Edition, page: int = 0) -> None:
    made = edition.sheet_maps[page]
    board = made.board
    s = pen.safe
    book = edition.book
    title_w = max(text_width(book.texts["title"], BOLD, 12), text_width(made.name, BOLD, 9)) + 1
    pen.text(s.x, s.top - 4.2, book.texts["title"], font=BOLD, size=12, colour=INK, field="title")
    pen.text(s.x, s.top - HEAD + 1.2, made.name, font=BOLD, size=9, colour=INK, field="title")
    side = min(s.w - 2 * LABEL, s.h - HEAD - 0.5 - LABEL - CARD_H - 3)
    step = side / board.cols
    x0 = s.x + (s.w - side) / 2
    y0 = s.top - HEAD - 0.5 - LABEL  # top of the grid

    def at(row: float, col: float) -> tuple[float, float]:
        return x0 + (col + 0.5) * step, y0 - (row + SYMBOL_AT) * step

    # District boxes: the main ones, then the corner districts (one cell each) as their own boxes
    # inside them, darker, as the published map marks them.
    for d in sorted(board.districts, key=lambda d: d.kind != "main"):
        corner = d.kind != "main"
        inset = INSET
        left, top = x0 + d.cols[0] * step + inset, y0 - d.rows[0] * step - inset
        w, h = (d.cols[1] - d.cols[0] + 1) * step - 2 * inset, (d.rows[1] - d.rows[0] + 1) * step - 2 * inset
        pen.rect(left, top - h, w, h, fill=CORNER if corner else DISTRICT, stroke=DISTRICT_LINE,
                 width=CORNER_W if corner else 0.4, radius=2)
    river = river_path(made.river)
    if river:  # between the rows it splits, over the line between their cells, under the names
        thames(pen, [(x0 + x * step, y0 - y * step) for x, y in river], step * RIVER_W)
    for sec in board.sections:  # the dotted potential sections
        a, b = board.by_id[sec.a], board.by_id[sec.b]
        pen.line(*at(a.row, a.col), *at(b.row, b.col), stroke=GREY, width=0.3, dash=[0.6, 1.0])
    # Room above a symbol's centre: to its cell's top less the (corner) box's border and CLEAR;
    # every symbol is drawn to fit it (the triangle's apex the tallest), at most its full size.
    border = INSET + CORNER_W / 2  # a box border's inner edge, from its cells' edges
    room = SYMBOL_AT * step - border - CLEAR
    big = min(1.2 * SYMBOL_R * step, (room - MITRE) / REACH)
    r = big / 1.2
    for st in board.stations:
        cx, cy = at(st.row, st.col)
        if st.tourist:  # points round a tourist site
            _tourist_icon(pen, cx, cy, r, up=room)
        if st.symbol == QUESTION_MARK:
            _question(pen, cx, cy, r)
        elif st.departure:
            departure_mark(pen, edition, st, cx, cy, min(step * DEPARTURE_R, room / (REACH + 0.16)))
        else:
            pen.circle(cx, cy, r * 1.05, fill=WHITE)
            symbol(pen, st.symbol, cx, cy, big, INK, fill=WHITE)
    # Names last, under their symbol (and a tourist site's lower points), CLEAR inside the box's
    # border and clear of the Thames along the row's lower edge; each line on a tight white
    # knockout, so the dotted sections stop short of its letters but show all round it.
    edge = border + CLEAR  # a name from its cell's sides
    low = max(edge, (RIVER_UP + RIVER_W / 2) * step + KNOCK + 0.7)  # above the cell's bottom
    boxes = {}
    for st in board.stations:
        cx, cy = at(st.row, st.col)
        top = cy - max(room, r * 1.05) - KNOCK
        bottom = y0 - (st.row + 1) * step + low
        boxes[st.id] = Rect(cx - step / 2 + edge, bottom, step - 2 * edge, top - bottom)
    texts = {st.id: _fitting(st.name or st.id, boxes[st.id]) for st in board.stations}
    shown = Counter(texts.values())
    for st in board.stations:  # two stations shortened to one name (86 St (1/2), 86 St (A/B/C)): brackets stay
        if shown[texts[st.id]] > 1 and texts[st.id] != (st.name or st.id):
            texts[st.id] = _fitting(st.name or st.id, boxes[st.id], keep=True)
    for st in board.stations:
        cx, cy = at(st.row, st.col)
        top = cy - max(room, r * 1.05) - KNOCK
        label = boxes[st.id]
        text = texts[st.id]
        fitted = fit(text, TEXT, MIN_PT, MIN_PT, label.w, label.h, max_lines=2, card=pen.label, field="name")
        base = top - fitted.ascent
        for k, line in enumerate(fitted.lines):
            w, y = text_width(line, TEXT, fitted.size), base - k * fitted.leading
            pen.rect(cx - w / 2 - KNOCK, y - 0.22 * fitted.size * PT - KNOCK, w + 2 * KNOCK,
                     0.94 * fitted.size * PT + 2 * KNOCK, fill=WHITE)
        pen.fitted_lines(fitted, cx, top, font=TEXT, colour=INK, field="name", align="centre")
    for k in range(board.rows):  # the coordinates the challenge page and solve use: A-J, 1-10
        y = y0 - (k + 0.5) * step - 1.0
        pen.text(x0 - LABEL / 2, y, row_label(k), font=BOLD, size=PLAY_PT, colour=INK, align="centre",
                 field="coordinate")
        pen.text(x0 + side + LABEL / 2, y, row_label(k), font=BOLD, size=PLAY_PT, colour=INK, align="centre",
                 field="coordinate")
    for k in range(board.cols):
        pen.text(x0 + (k + 0.5) * step, y0 + 1.0, str(k + 1), font=BOLD, size=PLAY_PT, colour=INK,
                 align="centre", field="coordinate")
    score_card(pen, Rect(s.x, s.y, s.w, CARD_H), edition)
    legend(pen, edition, Rect(s.x + title_w + GAP, s.top - HEAD, s.w - title_w - GAP, HEAD))  # (after the map)
