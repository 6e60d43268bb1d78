"""Keep Moving's rulebook: the words (``data/keepmoving/rulebook.md``), the values they print and
the figures, for the typesetter (:mod:`tubedeck.generator.rulebook`).

Every rules value comes from the edition (``rules.toml`` and the component files: counts,
dice faces, the cards' own texts), every example's number from a game the engine replays
(:mod:`tubedeck.games.keepmoving.examples`). The figures draw the ground with the cards' own
textures and symbols (:mod:`.art`), small cards as labelled rectangles: the ground kinds and
symbols, the setup of a seeded deal, and the push example before and after. All their text is 8 pt
or more.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import partial
from typing import Callable, Sequence

from tubedeck.games.keepmoving.cards import FunctionCard, MovementCard, derived
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.games.keepmoving.examples import (
    EndExample,
    Ground,
    PushExample,
    SetupExample,
    end_example,
    push_example,
    setup_example,
)
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import Pen
from tubedeck.generator.rulebook import Figure, Rulebook, read_source
from tubedeck.generator.sizes import PT, CardGeometry, Rect
from tubedeck.generator.theme import BOLD, INK, MIN_PT, PAPER, PLAY_PT, TEXT, WHITE

from .art import PLAY_COLOURS, SET_COLOURS, die_faces, meeple, solid_triangle, symbol, texture
from .faces import aid_parts, function_figure, movement_pips, setup_lines

SIZE = 8.0  # every figure's text, in points (the rulebook's floor)
COLUMN = 86.0  # mm: a little under the narrowest column the figures get (two columns on A4: 87.5; Letter 90.5)
NUMBERS = ("one", "two", "three", "four", "five", "six")
TWICE = {1: "", 2: ", each twice", 3: ", each three times"}


def _key(ident: str) -> str:
    return ident.replace("-", "_")


def die_text(faces: Sequence[int]) -> str:
    """``2 4 6, each twice`` (a die's distinct numbers, and how often each shows)."""
    counts = Counter(faces)
    numbers = " ".join(str(n) for n in sorted(counts))
    times = set(counts.values())
    return numbers + (TWICE.get(times.pop(), "") if len(times) == 1 else "")


def side_words(g: Ground) -> str:
    """``lava with the Function symbol``."""
    return g.kind + (f" with the {g.symbol.title()} symbol" if g.symbol else "")


def values(edition: Edition, setup: SetupExample, push: PushExample, end: EndExample) -> dict[str, object]:
    """Every ``{placeholder}`` of ``rulebook.md``."""
    r = edition.rules
    out: dict[str, object] = dict(derived(r))
    out.update(movement_cards=2 * r.movement_set, dice=len(edition.dice), meeples=r.players_max,
               cubes=r.players_max * r.lives + r.supply)
    sides = [s for c in edition.ground for s in c.sides]
    out.update(lava_sides=sum(s.kind == "lava" for s in sides),
               grassland_sides=sum(s.kind == "grassland" for s in sides),
               soil_sides=sum(s.kind == "dry soil" for s in sides),
               function_symbols=sum(s.symbol == "function" for s in sides),
               replace_symbols=sum(s.symbol == "replace" for s in sides))
    for die in edition.dice.values():
        out[f"die_{_key(die.id)}"] = die_text(die.faces)
    numbers = [m for m in edition.movement if m.action == "move"]
    if len({m.copies for m in numbers}) != 1 or [m.id for m in numbers] != list(NUMBERS):
        raise ValueError("the rulebook lists ONE to SIX as one row: they must be the six number cards, "
                         "each with the same number of copies")
    out["copies_number"] = numbers[0].copies
    cards: list[MovementCard | FunctionCard] = [*edition.movement, *edition.function]
    for card in cards:
        out[f"copies_{_key(card.id)}"] = card.copies
        out[f"text_{_key(card.id)}"] = card.text
    out.update(setup_seed=setup.seed, setup_roll_1=setup.rolls[0], setup_roll_2=setup.rolls[1],
               setup_pos_1=setup.positions[0], setup_pos_2=setup.positions[1], setup_first=setup.first,
               setup_pile=setup.piles[0])
    landing = push.row_after[push.landing - 1]
    mover_effect = {"lava": "lava, so they lose 1 life cube ({} to {})",
                    "grassland": "grassland, so they take 1 life cube ({} to {})",
                    "dry soil": "dry soil, so nothing happens to them ({} life cubes)"}[landing.kind]
    if landing.symbol == "function":
        mover_effect += ", and they draw a function card"
    drew = push.pushed_hand[1] > push.pushed_hand[0]
    out.update(push_seed=push.seed, push_turn=push.turn, push_mover=push.mover, push_pushed=push.pushed,
               push_card=push.card.upper(), push_roll=push.roll, push_distance=push.distance,
               push_direction=push.direction, push_start=push.start, push_landing=push.landing,
               push_landing_kind=side_words(landing), push_to=push.pushed_to,
               push_to_kind=side_words(push.row_after[push.pushed_to - 1]),
               push_mover_effect=mover_effect.format(*push.mover_cubes),
               push_pushed_before=push.pushed_cubes[0], push_pushed_after=push.pushed_cubes[1],
               push_pushed_draw=", and draws a function card" if drew else "",
               push_left_before=side_words(push.left_before), push_left_after=side_words(push.left_after))
    out.update(end_seed=end.seed, end_turns=end.turns, end_winner=end.winner, end_loser=end.loser,
               end_card=end.card.upper(), end_words=end_sentence(end), end_winner_cubes=end.winner_cubes)
    return out


def end_sentence(end: EndExample) -> str:
    """The last turn in words: ``they rolled 4 and moved 4 cards left, onto card 2: lava``."""
    rolled = f"they rolled {end.roll} and moved" if end.roll else "they moved"
    return (f"{rolled} {end.distance} card{'s' if end.distance != 1 else ''} {end.direction}, onto card "
            f"{end.landing}: {end.landing_kind}, and their last life cube went back to the supply")


# -- drawing helpers -----------------------------------------------------------------------------------
def _text(pen: Pen, x: float, y: float, text: str, bold: bool = False, align: str = "left") -> None:
    pen.text(x, y, text, font=BOLD if bold else TEXT, size=SIZE, colour=INK, align=align, field="figure")


def _width(text: str, bold: bool = False) -> float:
    return Pen.text_width(text, BOLD if bold else TEXT, SIZE)


CAP = SIZE * PT * 0.73  # the height of a capital at SIZE, mm


def ground_card(pen: Pen, g: Ground, box: Rect, seed: str, mark: bool = False) -> None:
    """A small ground card: its kind's texture, its symbol on a white disc, a thick outline if
    ``mark``."""
    texture(pen, g.kind, box, seed, radius=min(0.8, box.w * 0.12))
    if g.symbol:
        r = min(box.w * 0.42, box.h * 0.3)
        symbol(pen, g.symbol, box.centre[0], box.centre[1], r)
    pen.rect(box.x, box.y, box.w, box.h, stroke=INK, width=0.6 if mark else 0.2, radius=min(0.8, box.w * 0.12))


def row_geometry(box: Rect, n: int) -> tuple[float, float, float]:
    """A row of ``n`` cards across ``box``: (card width, card height, gap)."""
    gap = box.w * 0.01
    w = (box.w - (n - 1) * gap) / n
    return w, w * 1.45, gap


def draw_row(pen: Pen, row: Sequence[Ground], x: float, top: float, w: float, h: float, gap: float,
             meeples: dict[int, int], seed: str, marks: Sequence[int] = ()) -> list[float]:
    """The row's cards from ``top`` down with their positions (1..n) under them and each meeple
    (position -> player, from 1) standing on its card with its number above. Returns the card
    centres' x."""
    centres = []
    mh = min(7.0, w * 1.2)  # a meeple's height
    label = SIZE * PT + 0.6
    card_top = top - label - mh - 0.4
    for i, g in enumerate(row):
        cx = x + i * (w + gap)
        ground_card(pen, g, Rect(cx, card_top - h, w, h), f"{seed}-{i}", mark=i + 1 in marks)
        _text(pen, cx + w / 2, card_top - h - label + 0.2, str(i + 1), align="centre")
        centres.append(cx + w / 2)
    for pos, player in meeples.items():
        mx = centres[pos - 1]
        meeple(pen, mx, card_top + 0.2, mh, SET_COLOURS[player - 1])
        _text(pen, mx, top - SIZE * PT * 0.78, str(player), bold=True, align="centre")
    return centres


def row_height(w: float, h: float) -> float:
    """The height :func:`draw_row` uses: labels, meeples, cards, numbers."""
    mh = min(7.0, w * 1.2)
    label = SIZE * PT + 0.6
    return label + mh + 0.4 + h + label


def legend(pen: Pen, box: Rect, top: float) -> float:
    """The three kinds and two symbols, each a small swatch and its name, flowing in lines across
    ``box`` from ``top``. Returns the bottom."""
    items: list[tuple[Callable[[Rect], None], str]] = []
    for kind in ("lava", "grassland", "dry soil"):
        items.append((partial(lambda k, r: ground_card(pen, Ground(k, ""), r, f"legend-{k}"), kind), kind))
    for sym in ("function", "replace"):
        items.append((partial(lambda s, r: symbol(pen, s, r.centre[0], r.centre[1], r.h / 2), sym),
                      f"{sym.title()} symbol"))
    sw = 4.2
    line = max(sw, SIZE * PT * 1.25)
    x, y = box.x, top - line
    for draw, name in items:
        need = sw + 1.0 + _width(name) + 3.0
        if x > box.x and x + need - 3.0 > box.right:
            x, y = box.x, y - line - 1.0
        draw(Rect(x, y, sw, sw))
        _text(pen, x + sw + 1.0, y + (sw - CAP) / 2, name)
        x += need
    return y


def _stack(pen: Pen, x: float, y: float, w: float, h: float, count: int, fill: str = WHITE) -> None:
    """A face-down pile: two offset card outlines and its count in the middle."""
    for k in (2, 1, 0):
        pen.rect(x + k * 0.5, y + k * 0.5, w, h, fill=fill, stroke=INK, width=0.25, radius=0.6)
    _text(pen, x + w / 2, y + h / 2 - CAP / 2, str(count), bold=True, align="centre")


def _cubes(pen: Pen, x: float, y: float, n: int, size: float = 1.7) -> float:
    """``n`` life cubes in rows of 5 from (x, y) up; returns the width."""
    for i in range(n):
        r, c = divmod(i, 5)
        pen.rect(x + c * (size + 0.5), y + r * (size + 0.5), size, size, fill="#E0E0E0", stroke=INK, width=0.2)
    return 5 * (size + 0.5)


# -- the figures --------------------------------------------------------------------------------------
def draw_ground(pen: Pen, box: Rect) -> None:
    """The three kinds of ground (textures) and the two symbols, each named under it."""
    slots = 5
    slot = box.w / slots
    tw = slot * 0.8
    th = min(tw * 1.4, box.h - 2 * (SIZE * PT * 1.3) - 2)
    top = box.top - 0.5
    names = [("lava", "Lava"), ("grassland", "Grassland"), ("dry soil", "Dry soil")]
    for i, (kind, name) in enumerate(names):
        cx = box.x + (i + 0.5) * slot
        ground_card(pen, Ground(kind, ""), Rect(cx - tw / 2, top - th, tw, th), f"kinds-{kind}")
        _text(pen, cx, top - th - SIZE * PT * 1.2, name, bold=True, align="centre")
    for j, sym in enumerate(("function", "replace")):
        cx = box.x + (3 + j + 0.5) * slot
        r = min(tw / 2, th / 2)
        symbol(pen, sym, cx, top - th / 2, r)
        _text(pen, cx, top - th - SIZE * PT * 1.2, sym.title(), bold=True, align="centre")
        _text(pen, cx, top - th - SIZE * PT * 2.5, "symbol", align="centre")


def draw_cards(pen: Pen, box: Rect, edition: Edition) -> None:
    """The four kinds of card in hand, as small labelled cards in a 2 x 2 grid, each with a line on
    what it is: a number card and a die card (their pips, as printed: :func:`.faces.movement_pips`),
    a blue and a green function card (their band's words and figure frame, as printed)."""
    number = next(m for m in edition.movement if m.action == "move" and m.value == 3)
    die = next(m for m in edition.movement if m.action == "roll" and m.die == "even")
    blue = edition.cards["stun"]
    green = next(f for f in edition.function if f.colour == "green")
    cards = [(number, SET_COLOURS[0], "PLAYER 1", "**Number card**: move your meeple that many cards."),
             (die, SET_COLOURS[0], "PLAYER 1", "**Die card**: roll the die it names; its pips show the numbers."),
             (blue, PLAY_COLOURS["blue"], "BLUE - PLAY AGAIN", "**Blue card**: do what it says, then you may play another card."),
             (green, PLAY_COLOURS["green"], "GREEN - ANSWER ONLY", "**Green card**: only in answer, to your opponent's card or to lava.")]
    gap = 3.0
    h = (box.h - gap) / 2
    w = min(h / 1.36, box.w / 2 * 0.55)
    for i, (card, colour, word, words) in enumerate(cards):
        r, c = divmod(i, 2)
        x, top = box.x + c * box.w / 2, box.top - r * (h + gap)
        # the band's words as the card prints them (:func:`.faces.function_front`), on two lines if need be
        lines = [word] if _width(word) <= w - 1.0 else [word.split(" - ")[0] + " -", word.split(" - ")[1]]
        band = len(lines) * SIZE * PT * 1.1 + 1.2
        pen.rect(x, top - h, w, h, fill=PAPER, stroke=INK, width=0.3, radius=1.0)
        pen.rect(x, top - band, w, band, fill=colour)
        for k, line in enumerate(lines):
            pen.text(x + w / 2, top - band + 0.6 + (len(lines) - 1 - k) * SIZE * PT * 1.1, line, font=TEXT, size=SIZE,
                     colour=pen.text_on(colour, WHITE), align="centre", field="figure")
        _text(pen, x + w / 2, top - band - 1.2 - CAP, card.name, bold=True, align="centre")
        body = Rect(x + 1.5, top - h + 1.5, w - 3.0, h - band - CAP - 4.0)
        if isinstance(card, MovementCard):
            die_faces(pen, body, movement_pips(card, edition), colour, cap=min(body.h, body.w / 3.3))
        else:
            frame = Rect(body.x + body.w * 0.15, body.y + body.h * 0.15, body.w * 0.7, body.h * 0.6)
            pen.rect(frame.x, frame.y, frame.w, frame.h, stroke=colour, width=0.5, radius=1.0)
            figure = function_figure(card, edition)
            if figure:
                _text(pen, frame.centre[0], frame.centre[1] - CAP / 2, figure, bold=True, align="centre")
        label = Rect(x + w + 2.0, top - h, box.w / 2 - w - 3.0, h)
        head, rest = words[2:].split("**", 1)
        pen.text_box(label, head + rest, font=TEXT, size=SIZE, min_size=SIZE, colour=INK, align="left",
                     field="figure")


def _centred(box: Rect, height: float) -> Rect:
    """``box`` cut to ``height`` about its middle (a figure's aspect is set for the narrowest column;
    in a wider one the fixed-size parts leave room, shared above and below)."""
    if height >= box.h:
        return box
    return Rect(box.x, box.y + (box.h - height) / 2, box.w, height)


def draw_setup(pen: Pen, box: Rect, setup: SetupExample) -> None:
    """The seeded deal after setup: the row with both meeples, then each player's own pile, hand
    and life cubes, and the ground pile, function pile and supply."""
    box = _centred(box, setup_height(box.w, setup))
    w, h, gap = row_geometry(box, len(setup.row))
    draw_row(pen, setup.row, box.x, box.top, w, h, gap, {setup.positions[0]: 1, setup.positions[1]: 2},
             f"setup-{setup.seed}")
    y = box.top - row_height(w, h) - 1.0
    y = legend(pen, box, y) - 3.0
    pw, ph = 7.0, 9.5  # a pile's card
    line = SIZE * PT * 1.3
    for p in (0, 1):
        y -= ph + 3.0
        x = box.x
        who = f"Player {p + 1}" + (" (starts)" if setup.first == p + 1 else "")
        _text(pen, x, y + ph - CAP, who, bold=True)
        _text(pen, x, y + ph - CAP - line, f"hand: {', '.join(setup.hands[p])}")
        x = box.x + box.w * 0.47
        _stack(pen, x, y, pw, ph, setup.piles[p])
        _text(pen, x + pw + 1.6, y + ph - CAP, "own pile")
        cw = _cubes(pen, x + pw + 1.6, y, setup.cubes[p])
        _text(pen, x + pw + 1.6 + cw + 0.5, y, f"{setup.cubes[p]} life cubes")
    y -= ph + 4.0
    x = box.x
    for count, name in ((setup.ground_pile, "ground pile"), (setup.function_pile, "function pile")):
        _stack(pen, x, y, pw, ph, count)
        _text(pen, x + pw + 1.6, y + ph / 2 - CAP / 2, name)
        x += pw + 1.6 + _width(name) + 4.0
    cw = _cubes(pen, x, y + ph / 2 - 2.0, setup.supply)
    _text(pen, x + cw + 1.0, y + ph / 2 - CAP / 2, f"supply: {setup.supply}")


def setup_height(width: float, setup: SetupExample) -> float:
    w, h, _ = row_geometry(Rect(0, 0, width, 1), len(setup.row))
    legend_lines = 1 if width >= 110 else 2
    return row_height(w, h) + 1.0 + legend_lines * 5.2 + 3.0 + 2 * (9.5 + 3.0) + 9.5 + 4.0 + 1.5


def draw_push(pen: Pen, box: Rect, push: PushExample) -> None:
    """The push example: the row before the move (an arrow for the mover, one for the pushed
    meeple) and after it, the three cards involved outlined."""
    box = _centred(box, push_height(box.w, push))
    w, h, gap = row_geometry(box, len(push.row_before))
    title = SIZE * PT * 1.3
    marks = (push.start, push.landing, push.pushed_to)
    y = box.top
    _text(pen, box.x, y - CAP, f"Before: player {push.mover} rolls {push.roll} and moves {push.direction}", bold=True)
    y -= title + 4.0
    centres = draw_row(pen, push.row_before, box.x, y, w, h, gap, {push.start: push.mover, push.landing: push.pushed},
                       f"push-{push.seed}", marks)
    arc_y = y + 1.6  # the arrows run just over the meeples' numbers
    _arrow(pen, centres[push.start - 1], centres[push.landing - 1], arc_y, 2.2)
    _arrow(pen, centres[push.landing - 1], centres[push.pushed_to - 1], arc_y, 1.2)
    y -= row_height(w, h) + 2.0
    _text(pen, box.x, y - CAP, "After", bold=True)
    y -= title
    draw_row(pen, push.row_after, box.x, y, w, h, gap, {push.landing: push.mover, push.pushed_to: push.pushed},
             f"push-{push.seed}", marks)


def push_height(width: float, push: PushExample) -> float:
    w, h, _ = row_geometry(Rect(0, 0, width, 1), len(push.row_before))
    title = SIZE * PT * 1.3
    return title + 4.0 + row_height(w, h) + 2.0 + title + row_height(w, h) + 0.5


def _arrow(pen: Pen, x1: float, x2: float, y: float, rise: float) -> None:
    """A curved arrow from ``x1`` to ``x2`` standing on ``y``, ``rise`` mm high, its head solid
    in every mode (:func:`.art.solid_triangle`)."""
    n, head = 24, 1.6
    pts = [(x1 + (x2 - x1) * t / n, y + rise * 4 * (t / n) * (1 - t / n)) for t in range(n + 1)]
    # stop the line where the head begins: the head's length back along the curve
    (ax, ay), (bx, by) = pts[-3], pts[-1]
    ang = math.atan2(by - ay, bx - ax)
    base = (bx - head * math.cos(ang), by - head * math.sin(ang))
    pen.polyline([p for p in pts if (p[0] - x1) * (x2 - x1) < (base[0] - x1) * (x2 - x1)] + [base], stroke=INK,
                 width=0.4)
    side = (math.sin(ang) * head * 0.45, -math.cos(ang) * head * 0.45)
    solid_triangle(pen, [(bx, by), (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])])


# -- the rulebook ------------------------------------------------------------------------------------
def aid_cards(edition: Edition, options: PrintOptions | None) -> int:
    """How many reference and setup cards the build prints (more on small card sizes)."""
    card = (options or PrintOptions.parse()).card
    safe = CardGeometry(card.width, card.height).safe
    reference = aid_parts(tuple(f"\u2022 {x}" for x in edition.texts.reference), safe, MIN_PT)
    return len(reference) + len(aid_parts(setup_lines(edition), safe, PLAY_PT))


def rulebook(edition: Edition, options: PrintOptions | None = None) -> Rulebook:
    """Keep Moving's rulebook for the typesetter."""
    setup = setup_example(edition)
    push = push_example(edition)
    end = end_example(edition)
    width = COLUMN  # the figures' aspects are set for this column; a wider one scales them up
    return Rulebook(
        game="keepmoving",
        title=edition.texts.title,
        source=read_source("keepmoving"),
        values={**values(edition, setup, push, end), "aid_cards": aid_cards(edition, options)},
        figures={
            "ground": Figure(draw_ground, aspect=0.36,
                             caption="The three kinds of ground and the two symbols, as on the cards."),
            "cards": Figure(partial(draw_cards, edition=edition), aspect=0.72,
                            caption="A number card and a die card (the die's numbers as pips), a blue and a green "
                                    "function card."),
            "setup": Figure(partial(draw_setup, setup=setup), setup_height(width, setup) / width,
                            caption=f"An actual setup: the deal of sample game {setup.seed}."),
            "push": Figure(partial(draw_push, push=push), push_height(width, push) / width,
                           caption=f"The push of sample game {push.seed}, turn {push.turn}: the outlined cards are the "
                                   "one left, the one landed on and the one pushed onto."),
        },
    )
