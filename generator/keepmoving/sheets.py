"""Keep Moving's sheets: the five dice as fold-up cube nets with glue tabs and as stickers for
blank dice, and the pieces (two fold-over meeple standees with bases, 30 life-cube tokens).

Cut lines are solid, folds dashed; every number is bold on white. The dice faces come from the
edition (``data/keepmoving/dice.csv``)."""

from __future__ import annotations

from functools import partial

from tubedeck.games.keepmoving.edition import Edition
from tubedeck.generator.document import Pages
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.theme import BOLD, INK, MUTED, RED, WHITE

from .art import SET_COLOURS, heart, meeple

NET = ((1, 2), (0, 1), (1, 1), (3, 1), (2, 1), (1, 0))  # top, left, front, back, right, bottom: 1-6, 2-5, 3-4 opposite
TAB = 4.0
FOLD = [1.2, 1.0]


def _title(pen: Pen, text: str) -> float:
    s = pen.safe
    pen.text_box(Rect(s.x, s.top - 9, s.w, 9), text, font=BOLD, size=11, min_size=7, colour=INK, align="left",
                 max_lines=2, field="title")
    return s.top - 11


def _tab(pen: Pen, x1: float, y1: float, x2: float, y2: float, nx: float, ny: float) -> None:
    """A glue tab on the edge (x1,y1)-(x2,y2), sticking out along the normal (nx, ny)."""
    ix, iy = (x2 - x1) * 0.18, (y2 - y1) * 0.18
    pts = [(x1, y1), (x1 + ix + nx * TAB, y1 + iy + ny * TAB), (x2 - ix + nx * TAB, y2 - iy + ny * TAB), (x2, y2)]
    pen.polyline(pts, stroke=INK, width=0.3)
    pen.line(x1, y1, x2, y2, stroke=MUTED, width=0.25, dash=FOLD)


def cube_net(pen: Pen, x: float, y: float, a: float, faces: tuple[int, ...], name: str) -> None:
    """A cube net with its bottom-left at (x, y) (tabs included), faces in :data:`NET` order."""
    x0, y0 = x + TAB, y + TAB
    cells = {(c, r) for c, r in NET}
    for (c, r), value in zip(NET, faces):
        fx, fy = x0 + c * a, y0 + r * a
        pen.rect(fx, fy, a, a, fill=WHITE)
        pen.text(fx + a / 2, fy + a / 2 - a * 0.17, str(value), font=BOLD, size=a * 1.2, colour=INK, align="centre",
                 field="face")
        for (dc, dr), edge in (((0, 1), ((fx, fy + a), (fx + a, fy + a))), ((0, -1), ((fx, fy), (fx + a, fy))),
                               ((-1, 0), ((fx, fy), (fx, fy + a))), ((1, 0), ((fx + a, fy), (fx + a, fy + a)))):
            (x1, y1), (x2, y2) = edge
            if (c + dc, r + dr) in cells:
                pen.line(x1, y1, x2, y2, stroke=MUTED, width=0.25, dash=FOLD)
            elif r == 1 and ((dc == 0 and c in (0, 2, 3)) or (c == 3 and dc == 1)):
                _tab(pen, x1, y1, x2, y2, dc, dr)
            else:
                pen.line(x1, y1, x2, y2, stroke=INK, width=0.3)
    # beside the top face and above the glue tabs: on waste paper, clear of every line
    pen.text(x0 + 2 * a + 1.5, y0 + 2 * a + TAB + 1.5, f"{name} die", font=BOLD, size=9, colour=INK, field="die")


def dice_page(pen: Pen, edition: Edition) -> None:
    s = pen.safe
    top = _title(pen, f"{edition.texts.title}: dice. Cut the solid lines, fold the dashed ones, glue the tabs inside.")
    a = min(16.0, (s.w / 2 - 2 * TAB - 6) / 4, (top - s.y) / 3 / 3 - 2 * TAB / 3 - 1)
    col_w, row_h = 4 * a + 2 * TAB + 6, 3 * a + 2 * TAB + 4
    for i, die in enumerate(edition.dice.values()):
        col, row = i % 2, i // 2
        cube_net(pen, s.x + col * col_w, top - (row + 1) * row_h, a, die.faces, die.name)


def sticker_page(pen: Pen, edition: Edition) -> None:
    s = pen.safe
    top = _title(pen, f"{edition.texts.title}: dice stickers. One row per die, for 16 mm blank dice.")
    side = 13.0
    for i, die in enumerate(edition.dice.values()):
        y = top - (i + 1) * (side + 8)
        pen.text(s.x, y + side + 1.5, f"{die.name} die", font=BOLD, size=9, colour=INK, field="die")
        for k, value in enumerate(die.faces):
            x = s.x + k * (side + 3)
            pen.rect(x, y, side, side, fill=WHITE, stroke=INK, width=0.3, radius=1.5)
            pen.text(x + side / 2, y + side / 2 - 2.2, str(value), font=BOLD, size=18, colour=INK, align="centre",
                     field="face")


def dice_sheet(edition: Edition) -> Pages:
    return Pages("dice", (partial(dice_page, edition=edition), partial(sticker_page, edition=edition)),
                 title=f"{edition.texts.title}: dice nets and stickers", landscape=False,
                 note="cut out the five nets, fold and glue them into dice (or put the stickers on five blank dice)")


def standee(pen: Pen, x: float, y: float, w: float, h: float, player: int) -> None:
    """A fold-over standee: back panel (upright) and front panel (upside down) joined at the middle
    fold, which becomes the top; the base tabs at both ends fold out and meet underneath."""
    colour = SET_COLOURS[player]
    base = 10.0
    pen.rect(x, y, w, 2 * h + 2 * base, stroke=INK, width=0.3)
    for yy in (y + base, y + base + h, y + base + 2 * h):
        pen.line(x, yy, x + w, yy, stroke=MUTED, width=0.25, dash=FOLD)
    meeple(pen, x + w / 2, y + base + 2, h * 0.72, colour, mark=str(player + 1))
    meeple(pen, x + w / 2, y + base + 2 * h - 2, h * 0.72, colour, down=True, mark=str(player + 1))
    pen.text(x + w / 2, y + base + 2 * h + 3.5, f"PLAYER {player + 1}", font=BOLD, size=8, colour=INK,
             align="centre", field="player")


def pieces_page(pen: Pen, edition: Edition) -> None:
    s = pen.safe
    r = edition.rules
    top = _title(pen, f"{edition.texts.title}: 2 meeple standees (fold at the dashes, bend the bases out) and "
                      f"{2 * r.lives + r.supply} life cubes ({r.lives} each, {r.supply} in the supply).")
    w, h = 30.0, 40.0
    for p in range(2):
        standee(pen, s.x + p * (w + 8), top - 2 * h - 20 - 2, w, h, p)
    tok = 14.0
    x0 = s.x + 2 * (w + 8) + 4
    cols = max(1, int((s.right - x0 + 3) // (tok + 3)))
    for i in range(2 * r.lives + r.supply):
        c, row = i % cols, i // cols
        x, y = x0 + c * (tok + 3), top - (row + 1) * (tok + 3)
        pen.rect(x, y, tok, tok, fill=WHITE, stroke=INK, width=0.3, radius=1.5)
        heart(pen, x + tok / 2, y + tok / 2 + 0.5, tok * 0.6, RED)


def pieces_sheet(edition: Edition) -> Pages:
    return Pages("pieces", (partial(pieces_page, edition=edition),), title=f"{edition.texts.title}: meeples and life cubes",
                 landscape=False, note="cut out the two standees (fold, bend the bases out) and the 30 life tokens")
