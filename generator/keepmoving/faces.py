"""Keep Moving print faces: the 28 double-sided ground cards (side B is each card's own back;
also as fold-over sheets, :mod:`.fold`),
the two movement sets (each front marked for its player), the function cards, the rules
reference card and the setup card (the ``reference`` document: aid cards, each kind with its own
back), and the dice, meeple and life-token sheets (:mod:`.sheets`).

Movement and function cards share one back (:func:`designed_backs`): setup shuffles function cards
into each player's own pile, played cards cycle through the player's discard, and Steal moves a
card from one player's hand to the other's, so every card that can sit in a pile must look the
same from behind, even printed off by a duplex drift: so the back is one flat colour past the
trim, its design (:mod:`tubedeck.generator.identity`) inside the safe area, the same on both decks.
The player a movement card belongs to is on its front only.

Every face draws the edition's own objects (:mod:`tubedeck.games.keepmoving.cards`): nothing
about the game is restated here. Text always sits on a plain plate (white or paper) so it reads
over the textures; art stays in ``pen.art_box`` (duplex drift), but for the pile back.
"""

from __future__ import annotations

from functools import partial

from tubedeck.games.keepmoving.cards import FunctionCard, GroundCard, MovementCard, Side
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.generator.document import Card, Deck
from tubedeck.generator.identity import Cover, cover_faces, dice_art, lava_art
from tubedeck.generator.identity import back as designed_back
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import DRIFT, Pen
from tubedeck.generator.sizes import CardGeometry, Rect
from tubedeck.generator.text import measure, sized
from tubedeck.generator.theme import BOLD, INK, MIN_PT, PAPER, PILE_BACKS, PLAY_PT, TEXT, WHITE

from .art import KIND_COLOURS, PLAY_COLOURS, SET_COLOURS, card_icon, die_faces, symbol, texture
from .fold import fold_sheet
from .sheets import dice_sheet, pieces_sheet

PILE_COLOUR = PILE_BACKS["keepmoving"]  # the one back of every movement and function card
EFFECT = {"lava": "Enter: lose 1 life cube", "grassland": "Enter: take 1 life cube", "dry soil": "Enter: nothing"}
SYMBOL_TEXT = {"function": "Draw a function card", "replace": "Leaving: replace this card"}
OUTLINE = 0.3  # mm: a plate's outline
FRAME = 0.8  # mm: the line round a function card's figure
PAD = 1.7  # mm from a plate's edge to its text: 1.5 mm clear of the outline's inner edge, 0.05 to spare


def plate(pen: Pen, box: Rect, text: str, size: float, field: str, font: str = BOLD, fill: str = WHITE,
          max_lines: int | None = None, min_size: float = MIN_PT) -> None:
    """Text on a plain rounded plate filling ``box``, :data:`PAD` mm inside its edge."""
    pen.rect(box.x, box.y, box.w, box.h, fill=fill, stroke=INK, width=OUTLINE, radius=min(1.5, box.h / 3))
    pen.text_box(box.inset(PAD), text, font=font, size=size, min_size=min_size, colour=INK, max_lines=max_lines,
                 field=field)


def plate_height(text: str, font: str, size: float, min_size: float, w: float, h: float,
                 max_lines: int | None = None) -> float:
    """``h``, or more if a plate ``w`` x ``h`` mm cannot hold ``text`` at ``min_size`` pt (small cards)."""
    if measure(text, font, size, min_size, w - 2 * PAD, h - 2 * PAD, max_lines) is not None:
        return h
    fit = measure(text, font, min_size, min_size, w - 2 * PAD, max_lines=max_lines)
    return h if fit is None else fit.height + 2 * PAD + 0.01  # None: too wide at any height, text_box says so


def ground_label(number: int, side: int) -> str:
    """The small human label a ground card's side carries ("ground 1 · A"): it tells the two sides
    of one card apart (fold-over pairs, duplex) without printing the data's internal id."""
    return f"ground {number} \u00b7 {'AB'[side]}"


def ground_face(pen: Pen, card: GroundCard, side: int, number: int) -> None:
    """One side of a ground card: the kind's texture, its name on top, its symbol in the middle
    and what entering it does at the foot, with the card's label (``number``: its place in the
    ground composition, from 1)."""
    face: Side = card.sides[side]
    s = pen.safe
    texture(pen, face.kind, pen.art_box, f"{card.id}-{side}")
    kind = face.kind.upper()
    top_h = plate_height(kind, BOLD, 11, PLAY_PT, s.w, min(9.0, s.h * 0.16), max_lines=1)
    plate(pen, Rect(s.x, s.top - top_h, s.w, top_h), kind, 11, "kind", max_lines=1, min_size=PLAY_PT)
    lines = EFFECT[face.kind] + (f". {SYMBOL_TEXT[face.symbol]}" if face.symbol else "")
    effect = f"{lines}.\n{ground_label(number, side)}"  # the label on a line of its own: never split
    foot_h = plate_height(effect, TEXT, 8, PLAY_PT, s.w, min(14.0, s.h * 0.26))
    plate(pen, Rect(s.x, s.y, s.w, foot_h), effect, 8, "effect", font=TEXT, min_size=PLAY_PT)
    if face.symbol:
        room = s.h - top_h - foot_h - 2.0
        r = max(2.0, min(s.w * 0.3, room * 0.42))
        symbol(pen, face.symbol, s.x + s.w / 2, s.y + foot_h + 1.0 + room / 2, r)


def movement_front(pen: Pen, card: MovementCard, player: int, edition: Edition) -> None:
    s, art = pen.safe, pen.art_box
    colour = SET_COLOURS[player]
    pen.background(PAPER)
    band = min(9.0, s.h * 0.15)
    pen.rect(art.x, s.top - band, art.w, band + (s.top - art.top if art.top < s.top else 0), fill=colour)
    pen.text_box(Rect(s.x, s.top - band + 0.6, s.w, band - 1.2), f"PLAYER {player + 1} - MOVEMENT", font=BOLD,
                 size=8, min_size=MIN_PT, colour=pen.text_on(colour, WHITE), max_lines=1, field="set")
    name_h = min(12.0, s.h * 0.2)
    pen.text_box(Rect(s.x, s.top - band - name_h - 1, s.w, name_h), card.name, font=BOLD, size=18,
                 min_size=MIN_PT, colour=INK, max_lines=1, field="name")
    foot_h = min(14.0, s.h * 0.24)
    pen.text_box(Rect(s.x, s.y, s.w, foot_h), card.text, size=8, min_size=MIN_PT, colour=INK, field="text")
    mid = Rect(s.x, s.y + foot_h + 1, s.w, s.h - band - name_h - foot_h - 3)
    faces = movement_pips(card, edition)
    if faces:  # the die faces the card allows, as drawn pips
        die_faces(pen, mid, faces, colour)
        return
    side = min(mid.w, mid.h)
    box = Rect(mid.centre[0] - side / 2, mid.centre[1] - side / 2, side, side)
    pen.rect(box.x, box.y, box.w, box.h, stroke=colour, width=0.8, radius=side * 0.15)
    pen.text_box(box.inset(side * 0.1), f"+{card.value}", font=BOLD, size=40, min_size=MIN_PT, colour=INK,
                 max_lines=2, field="figure")


def movement_pips(card: MovementCard, edition: Edition) -> tuple[int, ...]:
    """The die faces a movement card shows: its own number (ONE..SIX), every number its die can
    roll, in order (EVEN: 2 4 6), or none (DRAW)."""
    if card.action == "move":
        return (card.value,)
    if card.action == "roll":
        return tuple(sorted(set(edition.dice[card.die].faces)))
    return ()


def designed_backs(edition: Edition) -> dict:
    """The backs (:mod:`tubedeck.generator.identity`), by use: ``pile``, the one back every movement
    and function card shares (see the module's note: function cards, printed by another job that
    drifts its own way, cannot be told from behind), the ground cards' side A as a lava field on the
    pile colour; ``reference`` the five dice; ``setup`` a row of seven ground cards, on the paper."""
    field = lava_art([c.sides[0].kind for c in edition.ground], KIND_COLOURS, seed="pile")
    row = lava_art([c.sides[1].kind for c in edition.ground[:7]], KIND_COLOURS, seed="setup", cols=7)
    # one word for both decks: face down a card must not say whether it is a movement or a function card
    return {"pile": designed_back("keepmoving", "Play Cards", field, PILE_COLOUR),
            "reference": designed_back("keepmoving", "Reference", dice_art([d.faces for d in edition.dice.values()]),
                                       PAPER),
            "setup": designed_back("keepmoving", "Setup", row, PAPER)}


def cover_deck(edition: Edition, size: str, contents: tuple[str, ...]) -> Deck:
    """The cover card, printed on the reference cards' sheet (``share="reference"``)."""
    from tubedeck.games.keepmoving import GAME

    cover = Cover(GAME.summary, GAME.players, "about 15 min", contents)
    art = lava_art([c.sides[k % 2].kind for k, c in enumerate(edition.ground[:8])], KIND_COLOURS, seed="cover", cols=8)
    front, back = cover_faces("keepmoving", cover, art)
    return Deck("cover", (Card("cover", sized(front, size), back=sized(back, size), label="cover"),),
                title=f"{edition.texts.title}: cover card", share="reference")


def function_figure(card: FunctionCard, edition: Edition) -> str:
    """The big figure a function card shows, from the edition's numbers ("" for none)."""
    r = edition.rules
    if card.numbers:
        return "no " + " ".join(str(n) for n in card.numbers)
    return {"double": "x2", "life-potion": f"+{r.potion_lives}", "push": f"{r.push_cards} <>",
            "stun": "skip", "new-hand": "+1", "protection": "stop", "swap": "<>", "steal": "+1"}.get(card.id, "")


ICONS = ("exchange", "relocation")  # the function cards drawn with a picture (:func:`.art.card_icon`)


def function_front(pen: Pen, card: FunctionCard, figure: str = "") -> None:
    s, art = pen.safe, pen.art_box
    colour = PLAY_COLOURS[card.colour]
    pen.background(PAPER)
    band = min(9.0, s.h * 0.15)
    pen.rect(art.x, s.top - band, art.w, band, fill=colour)
    note = "BLUE - PLAY AGAIN" if card.colour == "blue" else "GREEN - ANSWER ONLY"
    pen.text_box(Rect(s.x, s.top - band + 0.6, s.w, band - 1.2), note, font=BOLD, size=8, min_size=MIN_PT,
                 colour=pen.text_on(colour, WHITE), max_lines=1, field="colour")
    name_h = min(11.0, s.h * 0.17)
    pen.text_box(Rect(s.x, s.top - band - name_h - 1, s.w, name_h), card.name, font=BOLD, size=14,
                 min_size=MIN_PT, colour=INK, max_lines=2, field="name")
    body = Rect(s.x, s.y, s.w, s.h - band - name_h - 3)
    if figure or card.id in ICONS:  # the text above, the figure in what it leaves
        fit = measure(card.text, TEXT, 9, MIN_PT, body.w, body.h * 0.62)
        text_h = fit.height if fit else body.h
        lift = FRAME / 2 + 0.05  # the frame's line stays inside the safe area: 1.5 mm clear of the panel's edge
        room = body.h - text_h - 2 - lift
        if room + lift >= 8:
            box = Rect(s.x + s.w * 0.15, s.y + lift, s.w * 0.7, min(room, s.w * 0.45))
            pen.rect(box.x, box.y, box.w, box.h, stroke=colour, width=FRAME, radius=min(box.h, box.w) * 0.15)
            if figure:  # padded all round: "no 2 4 6" fills the width otherwise
                pen.text_box(box.inset(3.5, 1.5), figure, font=BOLD, size=22, min_size=MIN_PT, colour=INK,
                             max_lines=1, field="figure")
            else:
                card_icon(pen, card.id, box.inset(3.0, 2.0))
            body = Rect(s.x, s.y + lift + room + 2, s.w, text_h)
    pen.text_box(body, card.text, size=9, min_size=MIN_PT, colour=INK, valign="top", field="text")


def aid_front(pen: Pen, title: str, lines: tuple[str, ...], min_size: float = MIN_PT) -> None:
    """An aid card (reference, setup): ``title`` and ``lines`` (each already bulleted or numbered),
    from 8 pt down to ``min_size``."""
    s = pen.safe
    pen.background(PAPER)
    pen.text_box(Rect(s.x, s.top - 7, s.w, 7), title, font=BOLD, size=10, min_size=MIN_PT, colour=INK, max_lines=1,
                 field="title")
    pen.text_box(Rect(s.x, s.y, s.w, s.h - 8), "\n".join(lines), size=8, min_size=min_size, colour=INK,
                 align="left", valign="top", field="rules")


def aid_parts(lines: tuple[str, ...], safe: Rect, min_size: float = MIN_PT) -> list[tuple[str, ...]]:
    """``lines`` split into as few cards as hold them at ``min_size`` pt or more."""
    rest, parts = list(lines), []
    while rest:
        n = len(rest)
        while n > 1 and measure("\n".join(rest[:n]), TEXT, 8, min_size, safe.w, safe.h - 8) is None:
            n -= 1
        parts.append(tuple(rest[:n]))
        rest = rest[n:]
    return parts


def aid_cards(kind: str, title: str, lines: tuple[str, ...], safe: Rect, size: str, min_size: float,
              back=None) -> list[Card]:
    """The aid cards of one kind (``reference``, ``setup``), as many as ``lines`` need."""
    parts = aid_parts(lines, safe, min_size)
    cards = []
    for i, part in enumerate(parts):
        numbered = title + (f" ({i + 1}/{len(parts)})" if len(parts) > 1 else "")
        front = sized(partial(aid_front, title=numbered, lines=part, min_size=min_size), size)
        cards.append(Card(f"{kind}-{i + 1}", front, back=back, label=kind))
    return cards


def setup_lines(edition: Edition) -> tuple[str, ...]:
    """The setup card's steps, numbered (``data/keepmoving/rules.toml``, ``[text] setup``)."""
    return tuple(f"{i}. {line}" for i, line in enumerate(edition.texts.setup, 1))


def documents(edition: Edition, options: PrintOptions) -> list:
    """Every Keep Moving print document of one edition."""
    title = edition.texts.title
    size = options.card.label()
    ground = [Card(c.id, sized(partial(ground_face, card=c, side=0, number=n), size),
                   back=sized(partial(ground_face, card=c, side=1, number=n), size),
                   label=f"{c.id}: {c.sides[0].label} / {c.sides[1].label}") for n, c in enumerate(edition.ground, 1)]
    backs = {use: sized(face, size) for use, face in designed_backs(edition).items()}
    pile = backs["pile"]  # one back for every card that can sit in a pile
    movement = [Card(f"p{p + 1}-{m.id}-{k + 1}", sized(partial(movement_front, card=m, player=p, edition=edition), size),
                     label=f"player {p + 1} {m.name}")
                for p in range(2) for m in edition.movement for k in range(m.copies)]
    function = [Card(f"{f.id}-{k + 1}", sized(partial(function_front, card=f, figure=function_figure(f, edition)),
                                              size), label=f.name)
                for f in edition.function for k in range(f.copies)]
    safe = CardGeometry(options.card.width, options.card.height).safe
    reference = aid_cards("reference", title, tuple(f"\u2022 {x}" for x in edition.texts.reference), safe, size,
                          MIN_PT)
    setup = aid_cards("setup", f"{title}: setup", setup_lines(edition), safe, size, PLAY_PT,
                      back=backs["setup"])
    return [
        Deck("ground", tuple(ground), title=f"{title}: {len(ground)} ground cards (side B on the back)"),
        fold_sheet(edition, options, ground_face),
        Deck("movement", tuple(movement), back=pile, title=f"{title}: 2 sets of {len(movement) // 2} movement cards",
             back_bleed=DRIFT),
        Deck("function", tuple(function), back=pile, title=f"{title}: {len(function)} function cards",
             back_bleed=DRIFT),
        Deck("reference", tuple(reference + setup), back=backs["reference"],
             title=f"{title}: reference and setup", share="reference"),
        dice_sheet(edition),
        pieces_sheet(edition),
        cover_deck(edition, size, (f"{len(ground)} ground cards", f"{len(movement)} movement cards (2 sets)",
                                   f"{len(function)} function cards",
                                   f"{len(reference + setup)} reference and setup cards",
                                   "5 dice to fold or stickers", "2 meeples and 30 life cubes", "this cover card")),
    ]
