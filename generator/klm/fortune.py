"""Keep London Moving's Fortune Card front, laid out from the card's size.

A band in the action's colour carries the card's name; a white disc shows the kind's own icon
(:mod:`.fortune_icons`: no two kinds share one) or, for an effect that lasts, the duration in the
playing player's own turns (a number, its text box 1.5 mm inside the disc's ring) with the icon in a
smaller disc beside it; then the effect and the footer (the Fortune rules every card repeats).
Portrait cards stack these; landscape cards put the discs beside the effect. The discs shrink
before the effect's type does; the effect and the footer never go below 7 pt (play reads them).
"""

from __future__ import annotations

from dataclasses import dataclass

from tubedeck.games.klm.cards import FortuneCard
from tubedeck.generator.fonts import metrics
from tubedeck.generator.icons import ICONS
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT, Rect
from tubedeck.generator.text import FaceFitError, FittedText, measure, size_label
from tubedeck.generator.theme import BOLD, INK, ITALIC, MUTED, PAPER, PLAY_PT, TEXT, WHITE

from .fortune_icons import KIND_ICONS, Icon

ACTION_COLOUR = {"disable": "#B3261E", "block_connection": "#B3261E", "enable": "#00782A", "protect": "#00782A",
                 "draw_fortune": "#0019A8", "draw_station": "#0019A8", "take_discard": "#6A3D9A",
                 "discard_fortune": "#6A3D9A"}
ACTION_ICON = {"disable": "disable", "block_connection": "block", "enable": "enable", "protect": "protect",
               "draw_fortune": "draw", "draw_station": "draw", "take_discard": "take", "discard_fortune": "discard"}
EFFECT_PT = (11.0, PLAY_PT)  # play reads the effect
DIGIT_PT = 30.0  # the duration's digit in the disc, at most
PAD = 1.5  # mm between the disc's ring (its inner edge) and the digit's text box
ROUNDING = 0.05  # mm kept spare: PDF coordinates are written rounded
ICON_DISC = 0.6  # a lasting kind's icon disc, as a share of the duration disc's radius
ICON_GAP = 1.0  # mm between the two discs
ICON_SCALE = 1.25  # an icon's square, as a share of its disc's radius


def kind_icon(kind_id: str, action: str) -> Icon:
    """The icon of a Fortune Card kind: its own (:data:`KIND_ICONS`), or for a kind the data adds
    later, its action's."""
    return KIND_ICONS.get(kind_id) or ICONS[ACTION_ICON[action]]


def disc_width(r: float) -> float:
    """The stroke of a disc of radius ``r`` (mm)."""
    return max(0.8, r * 0.16)


DIGIT_RISE = 0.365  # em: the digit's baseline lies this far below the disc's centre (its ink centred)


def digit_pt(text: str, room: float) -> float:
    """The largest size (at most :data:`DIGIT_PT`) at which ``text``'s whole text box (its advance
    across, the font's ascent and descent up and down, as PDF readers measure a text box), drawn
    with its baseline :data:`DIGIT_RISE` em below the centre, lies within a circle of radius
    ``room`` mm about that centre."""
    w = Pen.text_width(text, BOLD, 1.0) / 2  # mm at 1 pt
    ascent, descent = metrics(BOLD)
    reach = max(ascent - DIGIT_RISE, DIGIT_RISE - descent) * PT
    return min(DIGIT_PT, room / (w ** 2 + reach ** 2) ** 0.5)


@dataclass(frozen=True)
class FortunePlan:
    band: float  # height of the name band below the safe top (it runs on into the bleed)
    name: FittedText
    r: float  # disc radius
    disc: tuple[float, float]  # disc centre
    turns: tuple[float, float] | None  # where "N turns (yours)" is centred (baseline)
    icon: tuple[float, float, float]  # the icon's disc: centre and radius (the duration's disc if it lasts none)
    effect: FittedText
    effect_box: Rect
    footer: FittedText
    footer_top: float


def turns_text(turns: int) -> str:
    return f"{turns} turn{'s' if turns > 1 else ''} (yours)"


def plan(card: FortuneCard, footer: str, s: Rect, size: str, label: str = "") -> FortunePlan:
    k = card.kind
    landscape = s.w > s.h * 1.05
    band = min(max(s.h * (0.24 if landscape else 0.2), 9.0), 18.0)
    name = measure(k.name, BOLD, 14.0, PLAY_PT, s.w, band - 1.5, 2)
    foot = measure(footer, ITALIC, PLAY_PT, PLAY_PT, s.w, 1e4, 3)  # play rules: 7 pt at least
    if name is None or foot is None:
        raise FaceFitError(label or k.name, size, f"the name or the footer needs more than {s.w:.1f} mm")
    turns_h = 1.164 * PLAY_PT * PT + 1.0 if k.turns else 0.0
    turns_w = Pen.text_width(turns_text(k.turns), TEXT, PLAY_PT) + 1.0 if k.turns else 0.0
    bottom = s.y + foot.height + 1.5  # above the footer
    top = s.top - band - 1.5
    r_max = min(s.w, s.h) * 0.19
    r = r_max
    while r >= 4.5:
        ri = r * ICON_DISC if k.turns else 0.0  # a lasting kind's icon disc, left of the duration's
        side = 2 * ri + ICON_GAP if k.turns else 0.0
        if landscape:
            col = max(side + 2 * r + 2.0, turns_w)
            disc = (s.x + (col + side) / 2, (top + bottom + turns_h) / 2)
            box = Rect(s.x + col + 1.5, bottom, s.w - col - 1.5, top - bottom)
            fits = 2 * r + turns_h <= top - bottom
        else:
            disc = (s.x + (s.w + side) / 2, top - 1.0 - r)
            box = Rect(s.x, bottom, s.w, disc[1] - r - turns_h - 1.5 - bottom)
            fits = box.h > 0 and side + 2 * r <= s.w
        effect = measure(k.effect, TEXT, EFFECT_PT[0], EFFECT_PT[1], box.w, box.h, 9) if fits else None
        if effect:
            turns = (disc[0], disc[1] - r - 1.0 - 0.928 * PLAY_PT * PT) if k.turns else None
            icon = (disc[0] - r - ICON_GAP - ri, disc[1], ri) if k.turns else (disc[0], disc[1], r)
            return FortunePlan(band, name, r, disc, turns, icon, effect, box, foot, s.y + foot.height)
        r -= 0.5
    raise FaceFitError(label or k.name, size,
                       f"its effect needs more than {s.w:.1f} x {s.h:.1f} mm at {EFFECT_PT[1]:g} pt")


def fortune_front(pen: Pen, card: FortuneCard, footer: str, size: str = "") -> None:
    k, s, b = card.kind, pen.safe, pen.art_box
    p = plan(card, footer, s, size or size_label(pen.trim.w, pen.trim.h), pen.label)
    colour = ACTION_COLOUR[k.action]
    pen.background(PAPER)
    pen.rect(b.x, s.top - p.band, b.w, p.band + (b.top - s.top), fill=colour)
    name_colour = pen.text_on(colour, WHITE)
    pen.fitted_lines(p.name, s.x + s.w / 2, s.top - p.band / 2 + p.name.height / 2, font=BOLD, colour=name_colour,
                     field="name", align="centre")
    cx, cy = p.disc
    ring = disc_width(p.r)
    pen.circle(cx, cy, p.r, fill=WHITE, stroke=colour, width=ring)
    if k.turns:
        size_pt = digit_pt(str(k.turns), p.r - ring / 2 - PAD - ROUNDING)
        pen.text(cx, cy - DIGIT_RISE * size_pt * PT, str(k.turns), font=BOLD, size=size_pt, colour=colour, align="centre",
                 field="glyph")
        assert p.turns is not None  # planned whenever the kind lasts turns
        tx, ty = p.turns
        pen.text(tx, ty, turns_text(k.turns), size=PLAY_PT, colour=INK,
                 align="centre", field="turns")
    ix, iy, ir = p.icon
    if k.turns:  # the icon in its own disc beside the duration's
        pen.circle(ix, iy, ir, fill=WHITE, stroke=colour, width=disc_width(ir))
    kind_icon(k.id, k.action)(pen, ix, iy, ir * ICON_SCALE, colour)
    box = p.effect_box
    pen.fitted_lines(p.effect, box.x + box.w / 2, box.y + (box.h + p.effect.height) / 2, font=TEXT, colour=INK,
                     field="effect", align="centre")
    pen.fitted_lines(p.footer, s.x + s.w / 2, p.footer_top, font=ITALIC, colour=MUTED, field="footer",
                     align="centre")
