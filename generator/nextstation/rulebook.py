"""Next Station: London's rulebook: the values its text (``data/nextstation/rulebook.md``) prints and
the figures it draws.

Every rules number comes from the edition (``rules.toml``, the cards, the objectives and powers),
every map figure from the map a player holds (the first page of ``map.pdf``), and the worked
examples' numbers from :mod:`tubedeck.games.nextstation.examples` (seeded games replayed by the
rules engine). Figures: ``setup`` (a seeded 3-player table) and ``round`` (the example round's
cards and its line drawn on the part of the map it uses). Every text in them is 8 pt or more.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import partial

from tubedeck.games.nextstation.board import Board, row_label
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.examples import (
    RoundExample,
    SetupExample,
    game_example,
    held_map,
    round_example,
    setup_example,
)
from tubedeck.games.nextstation.generate import STATION_AT, river_path
from tubedeck.games.nextstation.play import FACE_NAMES
from tubedeck.games.nextstation.rules import JOKER, QUESTION_MARK
from tubedeck.generator.fonts import text_width
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import Pen
from tubedeck.generator.rulebook import Figure, Rulebook, read_source
from tubedeck.generator.sizes import CardGeometry, Rect
from tubedeck.generator.theme import BOLD, GREY, INK, PAPER, PILE_BACKS, TEXT, WHITE

from .faces import rules_parts
from .map import CORNER, DISTRICT, DISTRICT_LINE, RIVER_W, thames
from .parts import mark, mark_size, pencil_marks, symbol

PT8 = 8.0  # the rulebook's floor: every text of a figure is at least this
CAP = 0.7 * 0.3528  # mm of cap height per pt
TABLE = "#EFE9DA"  # the table top of the setup figure (INK reads on it at 14:1)
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def nth(n: int) -> str:
    return ORDINALS.get(n if n < 20 else n % 10, f"{n}th") if n % 100 not in (11, 12, 13) else f"{n}th"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def district_name(ident: str) -> str:
    """A district as the text names it: ``the central district``, ``the north-west district``, ``the
    north-west corner box``."""
    where = {"nw": "north-west", "ne": "north-east", "sw": "south-west", "se": "south-east"}
    if ident.startswith("corner-"):
        return f"the {where.get(ident[7:], ident[7:])} corner box"
    words = {"northwest": "north-west", "northeast": "north-east", "southwest": "south-west",
             "southeast": "south-east"}
    return f"the {words.get(ident, ident)} district"


def face_word(face: str) -> str:
    return FACE_NAMES.get(face, face.capitalize())


# -- values ---------------------------------------------------------------------------------------
def rule_values(edition: Edition, options: PrintOptions) -> dict[str, object]:
    """The rules' numbers and names the text prints, from the edition (never typed twice)."""
    book, rules = edition.book, edition.rules
    board = held_map(edition).board
    street = [c for c in book.cards if not c.underground]
    under = [c for c in book.cards if c.underground]
    marks = pencil_marks(book)
    track = book.scores.tourist_track
    bands = book.scores.solo_bands
    symbols = [s for s in board.stations if s.symbol != QUESTION_MARK]
    per_symbol = {sym: sum(s.symbol == sym for s in symbols) for sym in rules.symbols}
    safe = CardGeometry(options.card.width, options.card.height).safe
    values: dict[str, object] = {
        **{k: getattr(rules, k) for k in ("players_min", "players_max", "rounds", "round_end",
                                          "switch_ignored_turns", "thames_points", "tourist_marks_max",
                                          "objective_points", "objectives_drawn", "solo_module_penalty",
                                          "main_districts", "corner_districts")},
        "round_end_nth": nth(rules.round_end),
        "max_turns": sum(not c.switch for c in book.cards),
        "station_cards": len(book.cards), "street_cards": len(street), "underground_cards": len(under),
        "street_faces": _and([face_word(c.face) for c in street]),
        "underground_faces": _and([face_word(c.face) for c in under]),
        "objective_cards": len(book.objectives), "power_cards": len(book.powers),
        "pencil_cards": len(rules.pencils), "reference_cards": len(rules_parts(book.texts["rules_card"], safe)),
        "pencil_count": len(rules.pencils), "pencil_list": _and(list(rules.pencils)),
        "mark_list": _and([f"{marks[p]} {p}" for p in rules.pencils]),
        "map_pages": (f"map.pdf holds {edition.sheets} different maps, one per page, so you have maps for several "
                      "games." if edition.sheets > 1 else "map.pdf holds one map."),
        "grid_rows": board.rows, "grid_cols": board.cols, "last_row": row_label(board.rows - 1),
        "map_stations": len(board.stations),
        "per_symbol": min(per_symbol.values()) if len(set(per_symbol.values())) == 1 else
        f"{min(per_symbol.values())} to {max(per_symbol.values())}",
        "districts": len(board.districts),
        "central_stations": sum(s.district == "central" for s in board.stations),
        "tourist_sites": sum(s.tourist for s in board.stations),
        "tourist_track": ", ".join(str(v) for v in track), "tourist_top": track[-1],
        **{f"interchange_{k}": v for k, v in enumerate(book.scores.interchange) if k >= 2},
        **{f"band_{k + 2}": b for k, b in enumerate(bands)},
        **{f"band_{k + 2}_less": b - 1 for k, b in enumerate(bands)},
        "band_2_next": bands[0] + 1,
    }
    for k, o in enumerate(book.objectives, 1):
        values[f"objective_name_{k}"], values[f"objective_text_{k}"] = o.title, o.text
    for k, p in enumerate(book.powers, 1):
        values[f"power_name_{k}"], values[f"power_text_{k}"] = p.title, p.text
    return values


def example_values(edition: Edition) -> dict[str, object]:
    """The worked examples' numbers and words, as the engine replayed them."""
    ex = round_example(edition)
    values: dict[str, object] = {
        "ex_seed": ex.seed, "ex_map": ex.map_name, "ex_pencil": ex.pencil, "ex_departure": ex.departure,
        "ex_departure_name": ex.departure_name, "ex_districts": ex.districts, "ex_biggest": ex.biggest,
        "ex_biggest_district": district_name(ex.biggest_district), "ex_thames": ex.thames, "ex_thames_points": ex.thames_points,
        "ex_points": ex.points, "ex_tourist": ex.tourist_sites, "ex_tourist_names": _and(list(ex.tourist_names)),
    }
    moves = {m.turn: m for m in ex.moves}
    board = held_map(edition).board
    symbol_at = {board.coordinate(s.id): s.symbol for s in board.stations}
    faces = {f.turn: f.face for f in ex.flips if f.turn is not None}
    # sections drawn to the ? station on a symbol card: the text says why the symbol did not have to match
    wild = [m for m in ex.moves if symbol_at[m.end] == QUESTION_MARK and faces[m.turn] != JOKER]
    for k, f in enumerate(ex.flips, 1):
        values[f"flip_{k}"] = f.words + (", the last" if f.last else "")
        values[f"turn_{k}"] = "-" if f.turn is None else f.turn
        if f.turn is None:
            values[f"drawn_{k}"] = "the next card is flipped at once" if f.switch_counts else "ignored"
        elif f.turn in moves:
            m = moves[f.turn]
            values[f"drawn_{k}"] = f"{m.start} to {m.end} {m.end_name}" + (
                " (the ? station)" if m in wild else "")
        else:
            values[f"drawn_{k}"] = "nothing"
    last = ex.flips[-1]
    values["ex_last_card"] = f"{last.words} card"
    if not ex.passes:
        raise ValueError(f"the example round (seed {ex.seed}) has no pass: the text explains one")
    turn = ex.passes[0]
    face = next(f.face for f in ex.flips if f.turn == turn)
    wanted = "a station of any symbol" if face == JOKER else f"a {face}"
    values["ex_pass_sentence"] = (
        f"On turn {turn} the player could have drawn to {wanted} but chose to draw nothing: drawing is never "
        "compulsory." if ex.pass_choices[0] else
        f"On turn {turn} no {face} could be reached from an end of the line, so the player drew nothing.")
    values["ex_question_sentence"] = "".join(
        f" On turn {m.turn} the {face_word(faces[m.turn])} card took the line to {m.end} {m.end_name}, which is no "
        f"{faces[m.turn]}: it is the ? station, which matches every card." for m in wild)
    branch = next((m for m in ex.moves if m.branch), None)
    if branch is None:
        raise ValueError(f"the example round (seed {ex.seed}) has no branch: the text explains one")
    values.update(ex_branch_turn=branch.turn, ex_branch_from=branch.start, ex_branch_from_name=branch.start_name)
    game = game_example(edition)
    values.update(
        game_pencils=_and(list(game.pencils)), game_lines=_and([str(v) for v in game.lines]),
        game_lines_total=sum(game.lines), game_tourist_marks=game.tourist_marks,
        game_tourist_points=game.tourist_points, game_inter_points=game.interchange_points,
        game_total=game.total, game_band=game.band,
        **{f"game_inter_{k}": n for k, n in enumerate(game.interchanges, 2)})
    return values


# -- the setup figure -----------------------------------------------------------------------------
def _pencil(pen: Pen, edition: Edition, pencil: str, x: float, y: float, w: float) -> None:
    """A pencil lying left to right from (x, y) (its middle line), ``w`` long, with its mark after it."""
    colour = edition.book.colours[pencil]
    mw = mark_size(edition.book, pencil, PT8)[0]
    body = w - mw - 1.5
    h = 2.4
    pen.rect(x, y - h / 2, body - 2.5, h, fill=colour, stroke=INK, width=0.25)
    pen.polygon([(x + body - 2.5, y - h / 2), (x + body, y), (x + body - 2.5, y + h / 2)], fill="#F1D3A1",
                stroke=INK, width=0.25)
    mark(pen, edition.book, pencil, x + w - mw / 2, y, PT8)


def _seat(pen: Pen, edition: Edition, box: Rect, title: str, pencil: str, power: str) -> None:
    """A place at the table: a map sheet (or the spare's empty place), its pencil and its power."""
    sheet = title != "Spare pencil"
    pen.rect(box.x, box.y, box.w, box.h, fill=WHITE if sheet else None, stroke=INK if sheet else GREY,
             width=0.35, radius=1.0)
    line = PT8 * 0.3528 * 1.25
    top = box.top - 1.2 - PT8 * CAP
    pen.text(box.x + 1.5, top, title, font=BOLD, size=PT8, colour=INK, field="figure")
    if sheet:
        pen.text(box.x + 1.5, top - line, "map sheet", font=TEXT, size=PT8, colour=INK, field="figure")
    _pencil(pen, edition, pencil, box.x + 1.5, box.y + 2.5 + line + 1.5, box.w - 3)
    pen.text(box.x + 1.5, box.y + 1.6, power, font=TEXT, size=PT8, colour=INK, field="figure")


def _card_box(pen: Pen, box: Rect, fill: str, words: str, ink: str = INK) -> None:
    pen.rect(box.x, box.y, box.w, box.h, fill=fill, stroke=INK, width=0.3, radius=1.0)
    pen.text_box(box.inset(1.0, 1.0), words, font=BOLD, size=PT8, min_size=PT8, colour=pen.text_on(fill, ink),
                 field="figure")


SEAT_W, SEAT_H = 30.0, 17.0


def setup_aspect() -> float:
    return 0.78


def draw_setup(pen: Pen, box: Rect, edition: Edition, ex: SetupExample) -> None:
    """The seeded 3-player table from above: Player 1 at the bottom, Player 2 on their left,
    Player 3 opposite, the spare pencil's place on Player 1's right; each place's pencil (with its
    mark) and Pencil Power; the Station pile face down in the middle and the two Shared Objectives
    face up beside it."""
    book = edition.book
    powers = dict(ex.powers)
    titles = {p.id: p.title for p in book.powers}
    objectives = {o.id: o.title for o in book.objectives}
    pen.rect(box.x, box.y, box.w, box.h, fill=TABLE, stroke=GREY, width=0.3, radius=4.0)
    w, h = min(SEAT_W, box.w / 3 - 2), SEAT_H
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    places = [Rect(cx - w / 2, box.y + 2, w, h),  # place 0: bottom
              Rect(box.x + 2, cy - h / 2, w, h),  # place 1: on the bottom player's left
              Rect(cx - w / 2, box.top - 2 - h, w, h),  # place 2: opposite
              Rect(box.right - 2 - w, cy - h / 2, w, h)]  # place 3: on the bottom player's right
    ring = len(book.rules.pencils)
    step = ring // ex.players if ring % ex.players == 0 else 1
    held = {p * step: (f"Player {p + 1}", ex.pencils[p][0]) for p in range(ex.players)}
    spares = iter(ex.spare)
    for place, rect in enumerate(places):
        title, pencil = held.get(place, ("Spare pencil", ""))
        if not pencil:
            pencil = next(spares)
        _seat(pen, edition, rect, title, pencil, titles[powers[pencil]])
    # the middle: the Station cards face down, the Shared Objectives face up either side of the top seat
    pile = Rect(cx - 8, cy - 9, 16, 18)
    pen.rect(pile.x + 1.2, pile.y - 1.2, pile.w, pile.h, fill=PILE_BACKS["nextstation station"], stroke=INK,
             width=0.3, radius=1.0)
    _card_box(pen, pile, PILE_BACKS["nextstation station"], "Station cards")
    ow = min(24.0, (box.w - w) / 2 - 5)
    for k, ident in enumerate(ex.objectives):  # face up: a Shared Objective card's pink head band and its name
        x = box.x + 2 if k == 0 else box.right - 2 - ow
        card = Rect(x, box.top - 2 - h, ow, h)
        _card_box(pen, card, PAPER, objectives[ident])
        pen.rect(card.x, card.top - 2.2, card.w, 2.2, fill=book.colours["underground"], radius=1.0)


def setup_caption(edition: Edition, ex: SetupExample) -> str:
    book = edition.book
    powers = {p.id: p.title for p in book.powers}
    objectives = {o.id: o.title for o in book.objectives}
    held = "; ".join(f"Player {p + 1} the {ex.pencils[p][0]} pencil" for p in range(ex.players))
    spare = _and(list(ex.spare))
    return (f"A {ex.players}-player table with both modules, as sample game {ex.seed} deals it (seen from above). "
            f"Round 1: {held}; the {spare} pencil lies spare on Player 1's right, so Player 1 takes it in "
            f"round 2. Shared Objectives: {_and([objectives[o] for o in ex.objectives])}. Each pencil keeps "
            f"its Pencil Power ({', '.join(f'{p} {powers[w]}' for p, w in ex.powers)}).")


# -- the round figure -----------------------------------------------------------------------------
STRIP = 18.0  # mm of the flipped cards' strip above the map (its turn numbers under the cards)


def _window(board: Board, ex: RoundExample) -> tuple[int, int, int, int]:
    """(first row, rows, first col, cols): the line's stations' rows and columns, grown to a square
    (at least 6 cells) within the grid."""
    rows = [board.by_id[s].row for s in ex.stations]
    cols = [board.by_id[s].col for s in ex.stations]

    def span(lo: int, hi: int, n: int, limit: int) -> tuple[int, int]:
        lo = max(0, min(lo - (n - (hi - lo + 1)) // 2, limit - n))
        return lo, n

    n = min(max(max(rows) - min(rows) + 1, max(cols) - min(cols) + 1, 6), board.rows, board.cols)
    r0, nr = span(min(rows), max(rows), n, board.rows)
    c0, nc = span(min(cols), max(cols), n, board.cols)
    return r0, nr, c0, nc


def round_aspect(edition: Edition) -> float:
    ex = round_example(edition)
    _, nr, _, nc = _window(held_map(edition).board, ex)
    label = 5.0
    width = 85.0  # the aspect is set for a column of about this width; the drawing fits any box
    step = (width - label) / nc
    return (STRIP + label + nr * step) / width


def _flip_strip(pen: Pen, edition: Edition, ex: RoundExample, box: Rect) -> None:
    colours = edition.book.colours
    n = len(ex.flips)
    gap = 1.0
    w = min(9.0, (box.w - (n - 1) * gap) / n)
    h = box.h - PT8 * 0.3528 - 2.5
    x = box.x + (box.w - n * w - (n - 1) * gap) / 2
    for f in ex.flips:
        y = box.top - h
        fill = colours[f.deck]
        pen.rect(x, y, w, h, fill=fill, stroke=INK, width=0.3, radius=0.8)
        if f.deck == "underground":
            band = w * 0.14
            for bx in (x, x + w - band):
                pen.rect(bx, y, band, h, fill=colours["underground_band"])
        a = min(w * 0.33, h * 0.3)
        pen.rect(x + w / 2 - a, y + h / 2 - a, 2 * a, 2 * a, fill=WHITE, stroke=INK, width=0.2, radius=0.5)
        symbol(pen, f.face, x + w / 2, y + h / 2, a * 0.85)
        label = "-" if f.turn is None else str(f.turn)
        pen.text(x + w / 2, box.y + 0.4, label, font=BOLD if f.last else TEXT, size=PT8, colour=INK,
                 align="centre", field="figure")
        x += w + gap


def draw_round(pen: Pen, box: Rect, edition: Edition, ex: RoundExample) -> None:
    """The cards flipped (each with the turn it made; a Switch makes none) above the part of the
    held map the line uses: districts, the Thames, the dotted sections, the symbols, the line in
    its pencil's colour with each section's turn number, and the grid's coordinates."""
    ed = held_map(edition)
    board, book = ed.board, ed.book
    _flip_strip(pen, edition, ex, Rect(box.x, box.top - STRIP + 4.0, box.w, STRIP - 4.0))
    r0, nr, c0, nc = _window(board, ex)
    label = 5.0
    step = min((box.w - label) / nc, (box.h - STRIP - label) / nr)
    x0 = box.x + label + (box.w - label - nc * step) / 2
    y0 = box.top - STRIP - label
    area = Rect(x0, y0 - nr * step, nc * step, nr * step)

    def at(row: float, col: float) -> tuple[float, float]:
        return x0 + (col - c0 + 0.5) * step, y0 - (row - r0 + STATION_AT) * step

    for k in range(nr):
        pen.text(x0 - label / 2, y0 - (k + 0.5) * step - PT8 * CAP / 2, row_label(r0 + k), font=BOLD, size=PT8,
                 colour=INK, align="centre", field="figure")
    for k in range(nc):
        pen.text(x0 + (k + 0.5) * step, y0 + 1.2, str(c0 + k + 1), font=BOLD, size=PT8, colour=INK,
                 align="centre", field="figure")
    on_line = set(ex.sections)
    colour = book.colours[ex.pencil]
    with pen.clip(area):
        for d in sorted(board.districts, key=lambda d: d.kind != "main"):
            corner = d.kind != "main"
            left, top = x0 + (d.cols[0] - c0) * step + 0.4, y0 - (d.rows[0] - r0) * step - 0.4
            w, h = (d.cols[1] - d.cols[0] + 1) * step - 0.8, (d.rows[1] - d.rows[0] + 1) * step - 0.8
            pen.rect(left, top - h, w, h, fill=CORNER if corner else DISTRICT, stroke=DISTRICT_LINE,
                     width=0.6 if corner else 0.4, radius=1.5)
        made = ed.generated
        river = river_path(made.river) if made is not None else []
        if river:
            thames(pen, [(x0 + (x - c0) * step, y0 - (y - r0) * step) for x, y in river], step * RIVER_W * 1.2)
        for sec in board.sections:
            if sec.index in on_line:
                continue
            a, b = board.by_id[sec.a], board.by_id[sec.b]
            pen.line(*at(a.row, a.col), *at(b.row, b.col), stroke=GREY, width=0.3, dash=[0.6, 1.0])
        for sec_index in ex.sections:
            sec = board.sections[sec_index]
            a, b = board.by_id[sec.a], board.by_id[sec.b]
            pen.line(*at(a.row, a.col), *at(b.row, b.col), stroke=colour, width=1.3)
        r = step * 0.2
        for st in board.stations:
            cx, cy = at(st.row, st.col)
            if st.tourist:
                for k in range(8):
                    ang = math.radians(k * 45 + 22.5)
                    pen.line(cx + math.cos(ang) * r * 1.25, cy + math.sin(ang) * r * 1.25,
                             cx + math.cos(ang) * r * 1.75, cy + math.sin(ang) * r * 1.75, stroke=INK, width=0.35)
            if st.symbol == QUESTION_MARK:
                pen.circle(cx, cy, r, fill=WHITE, stroke=INK, width=0.4)
                pen.text(cx, cy - PT8 * CAP / 2, "?", font=BOLD, size=PT8, colour=INK, align="centre",
                         field="figure")
            else:
                fill = book.colours[st.departure] if st.departure else WHITE
                symbol(pen, st.symbol, cx, cy, r, INK, fill=fill)
            if st.departure:
                mh = mark_size(book, st.departure, PT8)[1]
                mark(pen, book, st.departure, cx, cy - r - 0.6 - mh / 2, PT8)
        # each drawn section's turn, on a white disc at its middle
        moves = {(m.start, m.end): m.turn for m in ex.moves}
        for sec_index in ex.sections:
            sec = board.sections[sec_index]
            a, b = board.by_id[sec.a], board.by_id[sec.b]
            turn = moves.get((board.coordinate(sec.a), board.coordinate(sec.b)),
                             moves.get((board.coordinate(sec.b), board.coordinate(sec.a))))
            (ax, ay), (bx, by) = at(a.row, a.col), at(b.row, b.col)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            disc = max(2.1, text_width(str(turn), BOLD, PT8) / 2 + 0.8)
            pen.circle(mx, my, disc, fill=WHITE, stroke=colour, width=0.5)
            pen.text(mx, my - PT8 * CAP / 2, str(turn), font=BOLD, size=PT8, colour=INK, align="centre",
                     field="figure")
    pen.rect(area.x, area.y, area.w, area.h, stroke=GREY, width=0.3)


def round_caption(ex: RoundExample) -> str:
    return (f"Top: the cards in the order flipped, each with the turn it made (the Railroad Switch makes none). "
            f"Below: the {ex.pencil} line on {ex.map_name}, each section numbered with its turn.")


# -- the book -------------------------------------------------------------------------------------
def rulebook(edition: Edition, options: PrintOptions) -> Rulebook:
    setup = setup_example(edition)
    ex = round_example(edition)
    book = Rulebook(
        game="nextstation",
        title=edition.book.texts["title"],
        source=read_source("nextstation"),
        values={**rule_values(edition, options), **example_values(edition)},
        figures={
            "setup": Figure(partial(draw_setup, edition=edition, ex=setup), aspect=setup_aspect(),
                            caption=setup_caption(edition, setup)),
            "round": Figure(partial(draw_round, edition=edition, ex=ex), aspect=round_aspect(edition),
                            caption=round_caption(ex)),
        },
    ).localised(getattr(edition.network, "source", None))
    sheet = edition.sheet if edition.network is not None else None
    if sheet is not None and not sheet.river:  # another city with no --river: its maps have none
        book = replace(book, source=book.source.replace(
            "- **The river**: the pale-blue river with dark-blue banks. A section whose dotted line crosses the "
            "river is a **river section**.",
            "- **The river**: this city's maps have none (a designer gives one with --river), so no section is "
            "a **river section** and none scores river points; the map's key says so."))
    return book


__all__ = ["rulebook", "rule_values", "example_values", "draw_setup", "draw_round", "nth"]
