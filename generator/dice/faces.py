"""Tube Dice's print documents: the player map sheet (A4 or Letter, landscape), as a pad.

The sheet: the map (:mod:`.layout`: lines in colour with a dash pattern each, so they stay
apart in greyscale; a 6.6 mm circle per station; one box per section along each connection; the
star station marked by a star before its name), and beside it the lines table (pattern, name,
high and low points), the zones table, the pass track (the base circles, then each later seat's
extra circles under a bracket naming who uses them), the score box and the rules paragraph
(the recipe's text). ``--sheets N`` prints N identical pages: a pad. ``--challenge S`` adds the
solo challenge page: the same map with seed S's rolls in place of the rules, and a cut-out
answer strip with the proven best score (``data/dice/challenges.csv``).
"""

from __future__ import annotations

import math
from functools import partial

from tubedeck.games.dice.edition import Edition
from tubedeck.games.dice.recipe import ordinal, pass_groups
from tubedeck.generator import Card, Deck, Pages, PrintOptions, fonts
from tubedeck.generator.identity import Cover, cover_faces, network_art
from tubedeck.generator.linestyle import cased, draw_line
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.text import sized, wrap
from tubedeck.generator.theme import BOLD, INK, MUTED, PLAY_PT, WHITE

from .layout import LABEL_PT, RADIUS, STAR_W, ZONE_RING, MapLayout, layout, ringed

COLUMN = 90.0  # mm: the right-hand column of tables
ROW = 4.6  # mm per table row
# the points a row scores sit in a pill, wider than tall: a bold two-digit 7 pt number had 0.25 mm
# to a 4 mm ring; the pill leaves at least 0.7 mm, and 0.4 mm to the row's rules
POINTS_W, POINTS_H = 5.6, 3.8
_LAYOUTS: dict = {}


def map_layout(edition: Edition, area: Rect) -> MapLayout:
    """The map's layout, worked out once per edition and area in this process."""
    from tubedeck.generator import fonts

    key = (id(edition), area)
    hit = _LAYOUTS.get(key)
    if hit is None or hit[0] is not edition:
        if len(_LAYOUTS) > 8:
            _LAYOUTS.clear()
        _LAYOUTS[key] = hit = (edition, layout(edition.board, area, fonts.text_width))
    return hit[1]


def areas(safe: Rect) -> tuple[Rect, Rect]:
    """(map area, table column) of a page's safe area."""
    return Rect(safe.x, safe.y, safe.w - COLUMN - 3, safe.h), Rect(safe.right - COLUMN, safe.y, COLUMN, safe.h)


def star_shape(x: float, y: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(90 + 36 * i)
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return pts


def draw_map(pen: Pen, edition: Edition, area: Rect) -> None:
    board = edition.board
    lay = map_layout(edition, area)
    colour = {l.id: l.colour for l in board.lines}
    index = {l.id: i for i, l in enumerate(board.lines)}
    case = cased(tuple(colour.values()))
    for _, line, a, b in lay.strokes:
        draw_line(pen, a, b, colour[line], index[line], case[index[line]])
    for _, corners in lay.boxes:
        pen.polygon(corners, fill=WHITE, stroke=INK, width=0.3)
    for i, (x, y) in enumerate(lay.at):
        station(pen, x, y, RADIUS, ringed(board, board.zone_of[i]), 0.45 if i == board.star else 0.3)
    em = LABEL_PT * 25.4 / 72
    for lab in lay.labels:
        x = lab.box.x
        if lab.star:
            pen.polygon(star_shape(x + STAR_W / 2 - 0.2, lab.box.top - em * 0.45, 1.35), fill=INK)
            x += STAR_W
        for k, text in enumerate(lab.lines):
            pen.text(x, lab.box.top - 0.78 * em - k * 1.1 * em, text, size=LABEL_PT, colour=INK, field="name")


def station(pen: Pen, x: float, y: float, r: float, ring: bool, width: float = 0.3) -> None:
    """A station's circle (``r`` mm), and its zone's second ring outside it, in ink."""
    if ring:
        pen.circle(x, y, r + ZONE_RING * r / RADIUS, fill=WHITE, stroke=INK, width=width)
    pen.circle(x, y, r, fill=WHITE, stroke=INK, width=width)


SUBTITLE_LEAD = 2.4  # mm between the lines of the map's area under the title (6 pt)


def subtitle(edition: Edition) -> str:
    """The map's area as players read it: the recipe's name for its own scope, else the scope spelt out."""
    board = edition.board
    star, n = board.stations[board.star].name, len(board.stations)
    if board.scope.label == " ".join(edition.recipe.map.scope.split()):
        area = edition.recipe.text.map_name.format(star=star)
    elif board.scope.label == "all":
        area = "The whole network"
    else:
        spoken = _spoken(board)
        area = spoken[:1].upper() + spoken[1:] + (f" of {star}" if board.scope.km else "")
    return f"{area}: {n} stations" + ("" if star in area else f", star: {star}")


def _spoken(board) -> str:
    """The scope with its lines named as players know them (a scope is typed with the dataset's
    line ids: "all except 3,5,6,c in ..." printed those ids). A scope that leaves lines out says how
    many it keeps; the lines table names them."""
    head, sep, rest = board.scope.label.partition(" in ")
    if not sep or head == "all":
        return board.scope.label
    if head.startswith("all except "):
        return f"{len(board.lines)} lines in {rest}"
    names = {line.id: line.name for line in board.lines}
    return ", ".join(names.get(part.strip(), part.strip()) for part in head.split(",")) + f" in {rest}"


def table(pen: Pen, x: float, top: float, w: float, title: str, rows: list[tuple], swatch) -> float:
    """A small table: title row, then (label, high, low) rows; returns the y below it."""
    pen.text(x, top - 3.2, title, font=BOLD, size=8, colour=INK, field="heading")
    pen.text(x + w - 17, top - 3.2, "first", size=PLAY_PT, colour=MUTED, align="centre", field="heading")
    pen.text(x + w - 6, top - 3.2, "later", size=PLAY_PT, colour=MUTED, align="centre", field="heading")
    y = top - 4.4
    for i, (label, high, low) in enumerate(rows):
        y -= ROW
        pen.line(x, y, x + w, y, stroke="#BBBBBB", width=0.2)
        if swatch:
            swatch(i, x, y + ROW / 2)
        pen.text(x + 13, y + 1.3, label, size=7, colour=INK, field="row")
        for cx, points, font in ((x + w - 17, high, BOLD), (x + w - 6, low, fonts.DEFAULT_FONT)):
            pen.rect(cx - POINTS_W / 2, y + (ROW - POINTS_H) / 2, POINTS_W, POINTS_H, stroke=INK, width=0.2,
                     radius=POINTS_H / 2)
            pen.text(cx, y + 1.3, str(points), font=font, size=7, colour=INK, align="centre", field="points")
    return y - 2.5


PASS_R, PASS_PITCH, GROUP_GAP = 2.6, 7.0, 4.0  # mm: a pass circle, circle to circle, group to group
GROUP_PT = 7.0  # who uses a group of boxes is play text


def pass_track(pen: Pen, edition: Edition, x: float, top: float, w: float, solo: bool = False) -> float:
    """The pass track: the base circles every seat uses, then each later seat's extra circles
    (``extra_passes``), a bracket under each group and who uses it ("2nd-4th to roll"); groups
    flow left to right and wrap. Solo (the challenge) is seat 1: the base circles only. Returns
    the y below it."""
    from tubedeck.generator import fonts

    rules, text = edition.rules, edition.recipe.text
    groups = pass_groups(rules)
    if solo or len(groups) == 1:
        for i in range(rules.passes):
            pen.circle(x + PASS_R + 0.4 + i * PASS_PITCH, top - PASS_R, PASS_R, stroke=INK, width=0.3)
        return top - 2 * PASS_R - 1.9
    last = rules.players_max
    row_h = 2 * PASS_R + 5.6
    gx, gy = x, top
    for count, first in groups:
        if first == 1:
            label = text.pass_everyone
        else:
            label = text.pass_seats.format(seats=ordinal(first) if first == last else f"{ordinal(first)}-{ordinal(last)}")
        circles = count * PASS_PITCH - (PASS_PITCH - 2 * PASS_R)
        gw = max(circles, fonts.text_width(label, fonts.DEFAULT_FONT, GROUP_PT))
        if gx > x and gx + gw > x + w:  # wrap
            gx, gy = x, gy - row_h
        cx = gx + (gw - circles) / 2 + PASS_R
        cy = gy - PASS_R
        for i in range(count):
            pen.circle(cx + i * PASS_PITCH, cy, PASS_R, stroke=INK, width=0.3)
        left, right, by = cx - PASS_R, cx + (count - 1) * PASS_PITCH + PASS_R, cy - PASS_R - 0.8
        pen.polyline([(left, by + 0.6), (left, by), (right, by), (right, by + 0.6)], stroke=MUTED, width=0.25)
        pen.text(gx + gw / 2, by - 2.9, label, size=GROUP_PT, colour=INK, align="centre", field="passes")
        gx += gw + GROUP_GAP
    return gy - row_h - 0.5


def page(pen: Pen, edition: Edition, challenge: bool = False) -> None:
    board, rules = edition.board, edition.rules
    map_area, col = areas(pen.safe)
    draw_map(pen, edition, map_area)
    x, w = col.x, col.w
    top = col.top
    pen.text(x, top - 5, edition.recipe.text.title, font=BOLD, size=14, colour=INK, field="title")
    pen.text(x + 38, top - 5, "Player:", size=7, colour=INK, field="heading")
    pen.line(x + 48, top - 5.5, x + w, top - 5.5, stroke=INK, width=0.25)
    # the map's area, wrapped to the column (another city's star may have a long name: Canal St (4/6/J/N/Q/R/W/Z))
    area = wrap(subtitle(edition), fonts.DEFAULT_FONT, 6, w, 3) or (subtitle(edition),)
    for i, text in enumerate(area):
        pen.text(x, top - 9.5 - i * SUBTITLE_LEAD, text, size=6, colour=MUTED, field="note")
    top -= (len(area) - 1) * SUBTITLE_LEAD

    case = cased(tuple(l.colour for l in board.lines))

    def swatch(i: int, sx: float, sy: float) -> None:
        draw_line(pen, (sx, sy), (sx + 11, sy), board.lines[i].colour, i, case[i])

    names = {a.id: a for a in edition.lines}
    rows = [(l.name, names[l.id].high, names[l.id].low) for l in board.lines]
    y = table(pen, x, top - 11, w, "Lines (all stations and connections)", rows, swatch)
    zrows = [(f"Zone {z.zone} ({len(z.stations)} stations)", a.high, a.low) for z, a in zip(board.zones, edition.zones)]

    def zone_mark(i: int, sx: float, sy: float) -> None:  # the zone's stations as the map draws them
        station(pen, sx + 5.5, sy, 1.7, ringed(board, board.zones[i].zone))

    y = table(pen, x, y, w, "Zones (all stations)", zrows, zone_mark)
    pen.text(x, y - 3.2, f"Passes: cross one off to change a die by 1; {rules.pass_points} point each unused",
             size=PLAY_PT, colour=INK, field="heading")
    y = pass_track(pen, edition, x, y - 4.9, w, solo=challenge)
    pen.text(x, y - 3.2, "Score", font=BOLD, size=8, colour=INK, field="heading")
    labels = ("lines", "zones", "passes", "total")
    cell = w / 4
    for i, label in enumerate(labels):
        pen.rect(x + i * cell + 0.5, y - 13, cell - 1, 8, stroke=INK, width=0.35 if label == "total" else 0.25)
        pen.text(x + i * cell + cell / 2, y - 16, label, size=PLAY_PT, colour=MUTED, align="centre", field="heading")
    y -= 18
    if not challenge:
        pen.text_box(Rect(x, col.y, w, y - col.y - 1), edition.recipe.rules_text(), size=7, min_size=6, colour=INK,
                     align="left", valign="top", field="rules")
        return
    y = rolls_table(pen, edition, x, y, w)
    strip = Rect(x, col.y, w, 13)
    # the solo rules its best score depends on (the end rule, the passes): between rolls and strip
    pen.text_box(Rect(x, strip.top + 4.5, w, y - strip.top - 5.5), edition.solo_rules(), size=7, min_size=6,
                 colour=INK, align="left", valign="top", field="solo")
    answer_strip(pen, edition, strip)


def rolls_table(pen: Pen, edition: Edition, x: float, top: float, w: float) -> float:
    """The challenge's rolls, turn 1 first: keep any 2 of each row's 5 dice; returns the y below."""
    ch = edition.challenge
    assert ch is not None  # drawn on the challenge page only (page(challenge=True): the edition has one)
    pen.text(x, top - 3.2, f"Solo challenge {ch.rolls.seed}: keep any 2 of each roll, in order",
             font=BOLD, size=7, colour=INK, field="heading")
    turns = ch.rolls.turns
    # up to 10 rolls in one column; more (a 20-roll challenge) in two columns of half the width
    cols = 1 if len(turns) <= 10 else 2
    per = -(-len(turns) // cols)
    cw = w / cols
    dice_x, pitch = (18, 6.5) if cols == 1 else (10.5, 5.9)
    for t, roll in enumerate(turns):
        cx = x + (t // per) * cw
        y = top - 4.4 - (t % per + 1) * ROW
        pen.line(cx, y, cx + cw - (1.5 if cols > 1 else 0), y, stroke="#BBBBBB", width=0.2)
        pen.text(cx, y + 1.3, f"turn {t + 1}", size=7, colour=MUTED, field="row")
        for i, d in enumerate(roll):
            pen.rect(cx + dice_x + i * pitch, y + 0.5, 4.6, 3.6, stroke=INK, width=0.2)
            pen.text(cx + dice_x + 2.3 + i * pitch, y + 1.3, str(d), font=BOLD, size=7.5, colour=INK, align="centre",
                     field="die")
    return top - 4.4 - per * ROW - 2.0


def answer_strip(pen: Pen, edition: Edition, box: Rect) -> None:
    """The proven best score, upside down in a box to cut out and keep face down before playing
    (a fold across the page would fold the map's bottom row away with it)."""
    ch = edition.challenge
    assert ch is not None  # drawn on the challenge page only (page(challenge=True): the edition has one)
    pen.rect(box.x, box.y, box.w, box.h, stroke=INK, width=0.25)
    pen.line(box.x, box.top, box.right, box.top, stroke=INK, width=0.25, dash=(2.0, 1.5))
    pen.text(box.x, box.top + 1.2, "cut out and keep face down until you finish", size=6, colour=MUTED, field="note")
    text = edition.recipe.text
    if ch.best is not None:
        answer, credit = text.answer.format(best=ch.best), text.answer_credit
    else:
        answer, credit = "Best score: ask the computer", f"tubedeck solve dice --seed {ch.rolls.seed} --rolls {len(ch.rolls.turns)}"
    pen.text(box.right, box.y + box.h / 2 + 1.5, answer, size=7, colour=INK, angle=180, field="answer")
    pen.text(box.right, box.y + box.h / 2 + 4.5, credit, size=6, colour=MUTED, angle=180, field="note")


def cover_deck(edition: Edition, options: PrintOptions) -> Deck:
    """The cover card (:mod:`tubedeck.generator.identity`): Tube Dice prints no other card, so it has
    a sheet of its own (``cover.pdf``); its art is the map's lines, connection by connection."""
    from tubedeck.games.dice import GAME

    board, size = edition.board, options.card.label()
    colours = {line.id: line.colour for line in board.lines}
    routes = tuple((colours[line], ((board.stations[c.a].lon, board.stations[c.a].lat),
                                    (board.stations[c.b].lon, board.stations[c.b].lat)))
                   for c in board.connections for line in c.lines if line in colours)
    pads = f"{edition.sheets} map sheet" + "s" * (edition.sheets > 1) + " (one a player a game)"
    contents = (pads,) + (("solo challenge page",) if edition.challenge is not None else ()) + (
        "5 six-sided dice (your own)", "a pencil per player", "this cover card")
    tagline = "Roll five dice, fill in your own tube map, complete lines and zones before the others."
    cover = Cover(tagline, GAME.players, "about 20 min", contents)
    front, back = cover_faces("dice", cover, network_art(routes))
    return Deck("cover", (Card("cover", sized(front, size), back=sized(back, size), label="cover"),),
                title=f"{edition.recipe.text.title}: cover card")


def documents(edition: Edition, options: PrintOptions) -> list:
    """The map sheet, ``edition.sheets`` pages (a pad), landscape on the build's paper, and the cover card."""
    pages = tuple(partial(page, edition=edition) for _ in range(edition.sheets))
    if edition.challenge is not None:  # --challenge S: the solo challenge page follows the pad
        pages += (partial(page, edition=edition, challenge=True),)
    return [Pages("sheet", pages, title=f"{edition.recipe.text.title}: player map sheet", landscape=True,
                  note="a pad of map sheets: each player takes one each game" +
                       ("; the last page is a solo challenge" if edition.challenge is not None else "")),
            cover_deck(edition, options)]
