"""Tube Dice's rulebook: the values its text (``data/dice/rulebook.md``) prints and the figures it draws.

Every rules number comes from the edition (``data/dice/recipe.toml``: dice, passes, the end, the
challenge; the board: stations, lines, zones, sections), and the worked examples' numbers from
:mod:`tubedeck.games.dice.examples` (one seeded game played and replayed by the rules engine).

Figures (every text in them 8 pt or more; colours from the sheet's own lines and the theme, so
they print in colour, greyscale and ink-saver):

* ``sheet``: the map sheet in miniature (the real map's strokes and stations, the column's parts named);
* ``setup``: the example game's table: a sheet and a pencil per player, in rolling order
  clockwise, each seat's passes, and the dice showing the first roll;
* ``turn``: the worked turn: the roll (the roller's kept pair, the three dice left, the two the
  player uses and the pass), and the part of the player's sheet round the station, enlarged from
  the sheet's own layout, after the turn: numbers written, boxes crossed, the new ones outlined.
"""

from __future__ import annotations

import math
from functools import partial

from tubedeck.games.dice.edition import Edition
from tubedeck.games.dice.examples import (
    ScoreExample,
    SetupExample,
    TurnExample,
    score_example,
    setup_example,
    turn_example,
)
from tubedeck.games.dice.recipe import Rules, ordinal, pass_groups, seat_passes
from tubedeck.generator.fonts import text_width
from tubedeck.generator.linestyle import cased, draw_line
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import Pen
from tubedeck.generator.rulebook import Figure, Rulebook, read_source
from tubedeck.generator.ruler import sheet_safe
from tubedeck.generator.sizes import Rect
from tubedeck.generator.theme import BOLD, GREY, INK, MUTED, RED_TEXT, TEXT, WHITE
from tubedeck.words import plural

from .faces import areas, map_layout, star_shape
from .layout import LABEL_PT, RADIUS, STAR_W, ZONE_RING, MapLayout, ringed

PT8 = 8.0  # the rulebook's floor: every text of a figure is at least this
CAP = 0.72 * 25.4 / 72  # mm of cap height per pt (Vera)
TABLE = "#EFE9DA"  # the table top of the setup figure (INK reads on it at 14:1)
NEW = RED_TEXT  # what the worked turn did: 6:1 on white, and dark in greyscale
MIN_ZOOM = PT8 / LABEL_PT  # the turn figure enlarges the sheet at least this much: its names print at 8 pt
MAX_ZOOM = 2.4  # ... and at most this much


def _and(words: list[str] | tuple[str, ...]) -> str:
    words = list(words)
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- values ---------------------------------------------------------------------------------------
def rule_values(edition: Edition) -> dict[str, object]:
    """The rules' numbers and names the text prints, from the recipe and the board (never typed twice)."""
    rules, board = edition.rules, edition.board
    groups = pass_groups(rules)
    extra = groups[1:]
    extra_circles = sum(n for n, _ in extra)
    if extra:
        first = extra[0][1]
        extra_seat = ordinal(first) if first == rules.players_max else f"{ordinal(first)}-{ordinal(rules.players_max)}"
    else:
        extra_seat = ""
    shared = next((c for c in board.connections if len(c.lines) > 1), None)
    names = {line.id: line.name for line in board.lines}
    if shared is not None:
        shared_sentence = (f"Where lines share a track, one row of boxes serves them all: "
                           f"{board.stations[shared.a].name} - {board.stations[shared.b].name} is a connection of "
                           f"the {_and([names[i] for i in shared.lines])}, marked once for both.")
        shared_ruling = ("where lines run side by side between the same two stations, the track between them is one "
                         "connection with one row of boxes, and marking it counts for every line on it.")
    else:
        shared_sentence = "Each connection belongs to one line."
        shared_ruling = "each connection belongs to one line."
    ringed_zones = [f"zone {z.zone}" for z in board.zones if ringed(board, z.zone)]
    return {
        "title": edition.recipe.text.title,
        "players_min": rules.players_min, "players_max": rules.players_max,
        "table_min": max(2, rules.players_min),
        "dice": rules.dice, "keep": rules.keep, "use": rules.use, "others": rules.dice - rules.keep,
        "lines_to_end": edition.lines_to_end, "lines_to_end_nth": ordinal(edition.lines_to_end),
        "passes": rules.passes, "solo_passes": rules.passes_of(0), "seat_passes": seat_passes(rules),
        "extra_circles": extra_circles, "extra_seat": extra_seat or "no seat",
        "extra_label": f"marked *{edition.recipe.text.pass_seats.format(seats=extra_seat)}*" if extra else "",
        **_small_tables(rules, groups, max(2, rules.players_min)),
        "pass_points": rules.pass_points,
        "challenge_turns": rules.challenge_turns, "max_turns": rules.max_turns,
        "sheets": edition.sheets, "challenge_pages": int(edition.challenge is not None),
        "map_name": edition.recipe.text.map_name.format(star=board.stations[board.star].name),
        "star": board.stations[board.star].name,
        "map_stations": len(board.stations), "map_connections": len(board.connections), "map_lines": len(board.lines),
        "sections_min": min(c.sections for c in board.connections),
        "sections_max": max(c.sections for c in board.connections),
        "shared_sentence": shared_sentence, "shared_ruling": shared_ruling,
        "sections_share": _share(len(edition.recipe.sections.values)),
        "ringed_zone": _and(ringed_zones) if ringed_zones else "every other zone",
        "low_words": _low_words(edition.recipe.points.low_share, edition.recipe.points.points(1)[1]),
    }


def _small_tables(rules: Rules, groups: tuple[tuple[int, int], ...], table_min: int) -> dict[str, str]:
    """What the extra passes mean at a table too small to have the first seat that gets them: nobody
    is that seat, so nobody gets them (the engine gives seat k ``passes_of(k)``; seats only to the table's size)."""
    first = groups[1][1] if len(groups) > 1 else rules.players_max + 1
    sizes = [str(n) for n in range(table_min, min(first, rules.players_max + 1))]
    if not sizes:
        return {"pass_small_table": "", "pass_small_quick": ""}
    tables = (", ".join(sizes[:-1]) + " or " + sizes[-1]) if len(sizes) > 1 else sizes[0]
    return {"pass_small_table": (f"With {tables} players nobody is the {ordinal(first)} to roll, so nobody gets "
                                 f"the extra {plural(groups[1][0], 'pass', 'passes').split(' ', 1)[1]}: everyone "
                                 f"starts with {rules.passes}."),
            "pass_small_quick": f" (with {tables} players: {rules.passes} each)"}


def _share(groups: int) -> str:
    """One of ``groups`` equal parts, in words: "sixth"."""
    return {2: "half", 3: "third", 4: "quarter", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth"}.get(
        groups, f"1/{groups}")


def _low_words(share: float, floor: int) -> str:
    """How the later points follow from the first (the recipe's ``[points] low_share``; halves round up)."""
    part = {0.5: "half", 0.25: "a quarter", 0.75: "three quarters"}.get(share, f"{share:g} times")
    return f"{part} the first, rounded up (at least {floor})" if share != 1 else "the same as the first"


def turn_values(ex: TurnExample) -> dict[str, object]:
    """The worked turn's numbers and names, as the engine played them."""
    return {
        "ex_seed": ex.seed, "ex_players": ex.players, "ex_roll": ex.roll, "ex_roller": ex.roller,
        "ex_dice": _and([str(d) for d in ex.dice]), "ex_kept": _and([str(d) for d in ex.kept]),
        "ex_left": _and([str(d) for d in ex.left]), "ex_seat": ex.seat, "ex_station": ex.station_name,
        "ex_opened_from": ex.opened_from or ex.station_name, "ex_number": ex.number, "ex_sections": ex.sections,
        "ex_sections_word": "section" if ex.sections == 1 else "sections",
        "ex_station_die": ex.station_die, "ex_connection_die": ex.connection_die,
        "ex_passes_spent": ex.passes_spent, "ex_passes_word": "pass" if ex.passes_spent == 1 else "passes",
        "ex_passes_before": ex.passes_before, "ex_passes_after": ex.passes_before - ex.passes_spent,
        "ex_where": _where(ex), "ex_marks": _marks(ex),
    }


def _where(ex: TurnExample) -> str:
    """Which station the worked turn's station die goes to, and why it may."""
    if ex.filled_before:
        return (f"{ex.station_name} already holds {ex.number}. They take {ex.station_die} as the station die: "
                f"**{ex.number}**, a station already holding that number.")
    return (f"Player {ex.seat} has marked the connection from {ex.opened_from} to {ex.station_name}, and "
            f"{ex.station_name} is still empty. They take {ex.station_die} as the station die and write "
            f"**{ex.number}** in {ex.station_name}.")


def _marks(ex: TurnExample) -> str:
    """What the worked turn's connection die marks."""
    n, secs = ex.sections, plural(ex.sections, "section")
    if len(ex.marked) > 1:
        return (f"{ex.station_name} has {len(ex.marked)} connections of {secs}, to {_and(ex.marked)}: player "
                f"{ex.seat} marks {'both' if len(ex.marked) == 2 else 'all of them'}, and can fill those stations "
                f"on later turns.")
    if ex.marked:
        return (f"{ex.station_name} has one connection of {secs} not marked yet, to {ex.marked[0]}: player {ex.seat} "
                f"marks it, and can fill {ex.marked[0]} on a later turn.")
    return (f"{ex.station_name}'s connections of {n} {'section' if n == 1 else 'sections'} (to "
            f"{_and(ex.kept_marked)}) are marked already: that is allowed, and nothing more is marked.")


def score_values(ex: ScoreExample, players_max: int) -> dict[str, object]:
    """The worked final score: each player's row (a seat the example game lacks prints dashes)."""
    values: dict[str, object] = {"sc_rolls": ex.rolls, "sc_ender": ex.ender, "sc_target": ex.target,
                                 "sc_target_nth": ordinal(ex.target)}
    by_seat = {p.seat: p for p in ex.scores}
    for seat in range(1, max(players_max, 4) + 1):
        p = by_seat.get(seat)
        if p is None:
            values.update({f"sc_{seat}_{k}": "-" for k in ("count", "lines", "zones", "passes", "total")})
            continue
        values.update({f"sc_{seat}_count": len(p.lines), f"sc_{seat}_lines": sum(c.points for c in p.lines),
                       f"sc_{seat}_zones": sum(c.points for c in p.zones), f"sc_{seat}_passes": p.pass_points,
                       f"sc_{seat}_total": p.total})
    ender = by_seat[ex.ender]
    values["sc_ender_lines"] = _and([c.name for c in ender.lines])
    top = by_seat[ex.winners[0]]
    values["sc_top"] = top.seat
    parts = [f"{c.name} {c.points} ({'first' if c.first else 'later'})" for c in top.lines + top.zones]
    parts.append(f"{top.pass_points} for {plural(top.passes_left, 'unused pass', 'unused passes')}")
    values["sc_top_breakdown"] = _and(parts) + f": {top.total}"
    if len(ex.winners) == 1:
        values["sc_winner_sentence"] = f"Player {top.seat} wins with {top.total} points."
    else:
        values["sc_winner_sentence"] = (f"Players {_and([str(s) for s in ex.winners])} share the win with "
                                        f"{top.total} points each.")
    values["sc_shared"] = _shared(ex)
    return values


def _shared(ex: ScoreExample) -> str:
    """A line or zone that two players completed first in the same roll, from the example game."""
    firsts: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for p in ex.scores:
        for c in p.lines + p.zones:
            if c.first:
                firsts.setdefault((c.name, c.roll), []).append((p.seat, c.points))
    both = sorted(((roll, name, seats) for (name, roll), seats in firsts.items() if len(seats) > 1))
    if not both:
        return ("In the sample game every line was completed first by one player alone; had two "
                "completed one in the same roll, both would have circled its first number.")
    roll, name, seats = both[0]
    line = name if name.startswith("Zone") else f"the {name} line"
    return (f"In the sample game players {_and([str(s) for s, _ in seats])} both completed {line} in roll "
            f"{roll}, the first to do so: each circled its first number, {seats[0][1]}.")


# -- figure helpers -------------------------------------------------------------------------------
def _text(pen: Pen, x: float, y: float, text: str, size: float = PT8, font: str = TEXT, colour: str = INK,
          align: str = "left") -> None:
    pen.text(x, y, text, font=font, size=max(PT8, size), colour=colour, align=align, field="figure")


def _die(pen: Pen, x: float, y: float, side: float, value: int, stroke: str = INK, width: float = 0.35,
         fill: str = WHITE) -> None:
    """A die face (bottom-left corner at x, y) showing ``value`` as a number."""
    pen.rect(x, y, side, side, fill=fill, stroke=stroke, width=width, radius=side * 0.18)
    size = max(PT8, side * 0.55 / CAP * 0.75)
    pen.text(x + side / 2, y + (side - size * CAP) / 2, str(value), font=BOLD, size=size, colour=INK,
             align="centre", field="figure")


def _pencil(pen: Pen, x: float, y: float, length: float, angle: float) -> None:
    """A pencil: a long body and a sharpened tip, ``angle`` in degrees."""
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    nx, ny = -uy, ux
    w = 1.1
    body = length * 0.82
    pts = [(x + nx * w, y + ny * w), (x + ux * body + nx * w, y + uy * body + ny * w),
           (x + ux * length, y + uy * length), (x + ux * body - nx * w, y + uy * body - ny * w),
           (x - nx * w, y - ny * w)]
    pen.polygon(pts, fill="#F2C14E", stroke=INK, width=0.25)


# -- the sheet in miniature -----------------------------------------------------------------------
def draw_sheet(pen: Pen, box: Rect, edition: Edition, options: PrintOptions) -> None:
    """The map sheet at a glance: the real map's lines and stations, and the column's parts named."""
    paper = options.paper.landscape
    safe = sheet_safe(paper)
    map_area, col = areas(safe)
    lay = map_layout(edition, map_area)
    k = min(box.w / paper.width, box.h / paper.height)
    ox, oy = box.x + (box.w - paper.width * k) / 2, box.y + (box.h - paper.height * k) / 2

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return ox + p[0] * k, oy + p[1] * k

    pen.rect(ox, oy, paper.width * k, paper.height * k, fill=WHITE, stroke=INK, width=0.35)
    colour = {line.id: line.colour for line in edition.board.lines}
    for _, line, a, b in lay.strokes:
        pen.line(*at(a), *at(b), stroke=colour[line], width=0.5)
    for _, corners in lay.boxes:
        pts = [at(p) for p in corners]
        pen.polygon(pts, fill=WHITE, stroke=INK, width=0.12)
    for i, p in enumerate(lay.at):
        x, y = at(p)
        pen.circle(x, y, RADIUS * k, fill=WHITE, stroke=INK, width=0.2)
        if i == edition.board.star:
            pen.polygon(star_shape(x, y + RADIUS * k + 1.6, 1.3), fill=INK)
    # the column: its parts as labelled bands (heights as the sheet's, at least one 8 pt line)
    cx, cw = at((col.x, 0))[0], col.w * k
    parts = ("Your name", "Lines table", "Zones table", "Pass track", "Score box", "Rules")
    weights = (1.0, 3.2, 1.3, 1.4, 1.4, 2.6)
    top = oy + safe.top * k
    bottom = oy + safe.y * k
    line_h = PT8 * 25.4 / 72 * 1.25
    total = sum(weights)
    avail = top - bottom
    y = top
    for name, wgt in zip(parts, weights):
        h = max(line_h + 0.8, avail * wgt / total)
        pen.rect(cx, y - h + 0.4, cw, h - 0.8, fill="#F3F3F3" if not pen.ink_saver else None, stroke=GREY, width=0.2)
        if text_width(name, TEXT, PT8) <= cw - 2.0:
            _text(pen, cx + 1.0, y - h / 2 - PT8 * CAP / 2, name, size=PT8)
        y -= h
    # the map's name, under the miniature
    _text(pen, ox + map_area.x * k + 1.0, oy + 1.6, "Map: stations, connections and their boxes", size=PT8,
          colour=MUTED)


# -- the setup ------------------------------------------------------------------------------------
def draw_setup(pen: Pen, box: Rect, ex: SetupExample) -> None:
    """The example table: one sheet and pencil per player clockwise from the 1st to roll, the dice."""
    if not pen.ink_saver:
        pen.rect(box.x, box.y, box.w, box.h, fill=TABLE, radius=3.0)
    pen.rect(box.x, box.y, box.w, box.h, stroke=GREY, width=0.3, radius=3.0)
    n = ex.players
    sw = min(box.w * 0.36, 46.0)
    sh = sw * 0.62
    pad = 3.0
    # clockwise seen from above: top left, top right, bottom right, bottom left
    spots = [(box.x + pad, box.top - pad - sh), (box.right - pad - sw, box.top - pad - sh),
             (box.right - pad - sw, box.y + pad), (box.x + pad, box.y + pad)][:n]
    for seat, (x, y) in enumerate(spots):
        pen.rect(x, y, sw, sh, fill=WHITE, stroke=INK, width=0.35)
        pen.rect(x + sw * 0.66, y + 1.0, sw * 0.3, sh - 2.0, stroke=GREY, width=0.2)  # the column
        lines = (f"Player {seat + 1}", f"rolls {ordinal(seat + 1)}", plural(ex.passes[seat], "pass", "passes"))
        for i, text in enumerate(lines):
            _text(pen, x + 1.5, y + sh - 4.2 - i * 4.0, text, font=BOLD if i == 0 else TEXT,
                  colour=INK if i != 2 or ex.passes[seat] == ex.passes[0] else NEW)
        _pencil(pen, x + 2.0, y + 2.2, min(20.0, sw * 0.5), 8.0)
    # the dice, the first roll
    side = 6.0
    gap = 1.6
    row = len(ex.first_roll) * side + (len(ex.first_roll) - 1) * gap
    dx = box.x + (box.w - row) / 2
    dy = box.y + box.h / 2 - side / 2 + 1.5
    for i, d in enumerate(ex.first_roll):
        _die(pen, dx + i * (side + gap), dy, side, d)
    _text(pen, box.x + box.w / 2, dy - 4.0, "roll 1: player 1 rolls", align="centre")
    # the order of rolling: an arrow from each sheet to the next, clockwise
    centres = [(x + sw / 2, y + sh / 2) for x, y in spots]
    for i in range(n if n > 2 else n - 1):
        (ax, ay), (bx, by) = centres[i], centres[(i + 1) % n]
        if abs(ay - by) < 1e-6:  # along the top or the bottom: between the sheets' sides
            sx0, sx1 = (ax + sw / 2 + 1.5, bx - sw / 2 - 1.5) if bx > ax else (ax - sw / 2 - 1.5, bx + sw / 2 + 1.5)
            _arrow(pen, (sx0, ay), (sx1, by))
        else:  # down the right or up the left: between the sheets' tops and bottoms
            sy0, sy1 = (ay - sh / 2 - 1.5, by + sh / 2 + 1.5) if by < ay else (ay + sh / 2 + 1.5, by - sh / 2 - 1.5)
            _arrow(pen, (ax, sy0), (bx, sy1))


def _arrow(pen: Pen, a: tuple[float, float], b: tuple[float, float]) -> None:
    """A straight arrow from a to b (MUTED), its head at b."""
    length = math.dist(a, b)
    if length < 3.0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    head = 2.0
    base = (b[0] - ux * head, b[1] - uy * head)
    pen.line(*a, *base, stroke=MUTED, width=0.45)
    pen.polygon([b, (base[0] - uy * 1.1, base[1] + ux * 1.1), (base[0] + uy * 1.1, base[1] - ux * 1.1)], fill=MUTED)


# -- the worked turn ------------------------------------------------------------------------------
def draw_turn(pen: Pen, box: Rect, edition: Edition, options: PrintOptions, ex: TurnExample) -> None:
    """The roll and the part of player ``ex.seat``'s sheet round ``ex.station`` after the turn."""
    board = edition.board
    strip_h = 17.0
    # the roll: the roller's kept pair, then the three left; the two used are outlined
    side, gap = 6.0, 1.6
    y = box.top - 1.0 - side
    x = box.x + 1.0
    kept_w = 2 * side + gap
    left_w = len(ex.left) * side + (len(ex.left) - 1) * gap
    kept_label, left_label = f"player {ex.roller} keeps", "the others use"
    g1 = max(kept_w, text_width(kept_label, TEXT, PT8))
    g2 = max(left_w, text_width(left_label, TEXT, PT8))
    x += (g1 - kept_w) / 2
    for i, d in enumerate(ex.kept):
        _die(pen, x + i * (side + gap), y, side, d, stroke=GREY, fill="#E6E6E6" if not pen.ink_saver else WHITE)
    _text(pen, x + kept_w / 2, y - 4.0, kept_label, align="centre", colour=MUTED)
    lx = box.x + 1.0 + g1 + 3.0 + (g2 - left_w) / 2
    used = [ex.station_die, ex.connection_die]
    for i, d in enumerate(ex.left):
        is_used = d in used
        if is_used:
            used.remove(d)
        _die(pen, lx + i * (side + gap), y, side, d, stroke=NEW if is_used else INK, width=0.7 if is_used else 0.3)
    _text(pen, lx + left_w / 2, y - 4.0, left_label, align="centre", colour=MUTED)
    tx = box.x + 1.0 + g1 + 3.0 + g2 + 3.0
    words = [(f"Player {ex.seat}:", BOLD), (f"{ex.number} in {ex.station_name}", TEXT),
             (f"{ex.connection_die} to {ex.sections}: {plural(ex.passes_spent, 'pass', 'passes')}", TEXT)]
    if max(text_width(w, f, PT8) for w, f in words) <= box.right - tx - 0.5:
        for i, (w, f) in enumerate(words):
            _text(pen, tx, box.top - 3.8 - i * 4.0, w, font=f)
    # the map part
    crop = Rect(box.x, box.y, box.w, box.h - strip_h)
    paper = options.paper.landscape
    map_area, _ = areas(sheet_safe(paper))
    lay = map_layout(edition, map_area)
    # what must show: the station and the stations at the other ends of the connections marked now
    around = {c.b if c.a == ex.station else c.a: c.index for c in board.around[ex.station]}
    names = {board.stations[t].name: t for t in around}
    shown = [t for t, c in around.items() if ex.after.marked >> c & 1 and not ex.before.marked >> c & 1]
    if not shown and ex.opened_from in names:  # nothing new marked: the connection that opened it
        shown = [names[ex.opened_from]]
    ends = [lay.at[ex.station]] + [lay.at[t] for t in shown]
    xs, ys = [p[0] for p in ends], [p[1] for p in ends]
    margin = 2 * RADIUS + 4.0
    k = max(MIN_ZOOM, min(MAX_ZOOM, crop.w / (max(xs) - min(xs) + 2 * margin),
                          crop.h / (max(ys) - min(ys) + 2 * margin)))
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return crop.x + crop.w / 2 + (p[0] - mx) * k, crop.y + crop.h / 2 + (p[1] - my) * k

    pen.rect(crop.x, crop.y, crop.w, crop.h, fill=WHITE, stroke=GREY, width=0.3)
    with pen.clip(crop):
        _draw_part(pen, crop, edition, lay, ex, k, at)


def _draw_part(pen: Pen, crop: Rect, edition: Edition, lay: MapLayout, ex: TurnExample, k: float, at) -> None:
    board = edition.board
    colour = {line.id: line.colour for line in board.lines}
    index = {line.id: i for i, line in enumerate(board.lines)}
    case = cased(tuple(colour.values()))
    for _, line, a, b in lay.strokes:
        draw_line(pen, at(a), at(b), colour[line], index[line], case[index[line]])
    new = ex.after.marked & ~ex.before.marked
    for c, corners in lay.boxes:
        pts = [at(p) for p in corners]
        fresh = new >> c & 1
        pen.polygon(pts, fill=WHITE, stroke=NEW if fresh else INK, width=0.8 if fresh else 0.3)
        if ex.after.marked >> c & 1:  # a pencil cross in the box
            pen.line(*pts[0], *pts[2], stroke=INK, width=0.45)
            pen.line(*pts[1], *pts[3], stroke=INK, width=0.45)
    r = RADIUS * k
    for i, p in enumerate(lay.at):
        x, y = at(p)
        this = i == ex.station
        if ringed(board, board.zone_of[i]):
            pen.circle(x, y, r + ZONE_RING * k, fill=WHITE, stroke=INK, width=0.3)
        pen.circle(x, y, r, fill=WHITE, stroke=NEW if this else INK, width=0.9 if this else 0.3)
        number = ex.after.nums[i]
        if number:
            size = max(PT8, r * 1.1 / CAP)
            pen.text(x, y - size * CAP / 2, str(number), font=BOLD, size=size, colour=NEW if this else INK,
                     align="centre", field="figure")
    em = LABEL_PT * 25.4 / 72
    size = max(PT8, LABEL_PT * k)
    for lab in lay.labels:
        x0, y0 = at((lab.box.x, lab.box.y))
        x1, y1 = at((lab.box.right, lab.box.top))
        if not (crop.x + 0.5 <= x0 and x1 <= crop.right - 0.5 and crop.y + 0.5 <= y0 and y1 <= crop.top - 0.5):
            continue
        x = x0
        if lab.star:
            pen.polygon(star_shape(x + STAR_W * k / 2 - 0.2 * k, y1 - em * 0.45 * k, 1.35 * k), fill=INK)
            x += STAR_W * k
        for j, text in enumerate(lab.lines):
            pen.text(x, y1 - 0.78 * em * k - j * 1.1 * em * k, text, size=size, colour=INK, field="figure")


# -- the book -------------------------------------------------------------------------------------
def rulebook(edition: Edition, options: PrintOptions) -> Rulebook:
    setup, turn, score = setup_example(edition), turn_example(edition), score_example(edition)
    values = {**rule_values(edition), **turn_values(turn), **score_values(score, edition.rules.players_max)}
    title = edition.recipe.text.title
    return Rulebook(
        game="dice",
        title=title,
        source=read_source("dice"),
        values=values,
        figures={
            "sheet": Figure(partial(draw_sheet, edition=edition, options=options), aspect=0.72,
                            caption=f"The map sheet: the map ({len(edition.board.stations)} stations) and, beside "
                                    f"it, the tables you score in."),
            "setup": Figure(partial(draw_setup, ex=setup), aspect=0.78,
                            caption=f"The table of a sample game ({setup.players} players): a sheet and a pencil "
                                    f"each, the dice in the middle. Player 1 arrived last and rolls first; the "
                                    f"{ordinal(setup.players)} to roll has {setup.passes[-1]} passes."),
            "turn": Figure(partial(draw_turn, edition=edition, options=options, ex=turn), aspect=0.9,
                           caption=f"Roll {turn.roll}: player {turn.seat}'s sheet after the turn. Outlined: "
                                   f"{turn.station_name}, where {turn.number} was written, and the boxes marked "
                                   f"now; crossed boxes without an outline were marked before."),
        },
    ).localised(edition.dataset)
