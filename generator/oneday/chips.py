"""One Day in London's line chips: a line's colour with its letter, drawn where a card's top strip
names the station's lines and in the map's key, so the letter reads in greyscale where colours
do not."""

from __future__ import annotations

from typing import Iterable

from tubedeck.games.oneday.board import Board
from tubedeck.generator import fonts
from tubedeck.generator.colour import MIN_CONTRAST, contrast, hex_of, reads_in_grey, rgb
from tubedeck.generator.icons import DIGIT_HEIGHT, badge_size
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT
from tubedeck.generator.theme import BOLD, INK, PLAY_PT

CHIP_PT = PLAY_PT  # the chips' letters: play needs them
CHIP_GAP = 0.5  # mm between two chips in a row
CHIP_OUTLINE = 0.2  # mm, the chip's ink outline (centred on its edge: half of it lies outside)


def line_letters(gmap: Board) -> dict[str, str]:
    """Each line's chip letter(s): the first letter of its name; lines that share one get their
    words' initials ("Hammersmith & City": HC), and where those still clash, their first two
    letters. Distinct letters keep the chips apart in greyscale, where the colours are not."""
    def initial(name: str) -> str:
        return next((ch for ch in name if ch.isalnum()), "?").upper()

    def initials(name: str) -> str:
        return "".join(initial(w) for w in name.split() if any(ch.isalnum() for ch in w))[:2]

    def first_two(name: str) -> str:
        return "".join(ch for ch in name if ch.isalnum())[:2].title()

    names = {line: gmap.lines[line].name for line in sorted(gmap.lines)}
    out: dict[str, str] = {}
    for rule in (initial, initials, first_two):
        pending = [line for line in names if line not in out]
        codes = {line: rule(names[line]) for line in pending}
        for line in pending:
            if list(codes.values()).count(codes[line]) == 1 and codes[line] not in out.values():
                out[line] = codes[line]
    for line in names:  # still clashing: the line's id, which is unique
        out.setdefault(line, line)
    return out


def chip_size(letters: Iterable[str]) -> tuple[float, float]:
    """(width, height) mm of a line chip: one width for every chip of a map, so rows line up."""
    h = badge_size("M", CHIP_PT)[1]
    return max([h] + [fonts.text_width(t, BOLD, CHIP_PT) + 1.4 for t in letters]), h


def chip(pen: Pen, x: float, cy: float, size: tuple[float, float], colour: str, text_colour: str | None,
         letter: str) -> None:
    """A chip with its left edge at ``x`` and its centre at height ``cy``: the line's colour, an ink
    outline (it reads on the paper whatever the colour) and the letter in whichever colour reads on it."""
    w, h = size
    ink = pen.text_on(colour, text_colour)
    if not pen.ink_saver and not reads_in_grey(colour, ink):
        # neither black nor white reads on this colour both in colour and on a black-and-white
        # printer (Bakerloo, Victoria): the chip takes a darker shade of it, the letter white
        colour, ink = deeper(colour), "#FFFFFF"
    pen.rect(x, cy - h / 2, w, h, fill=colour, stroke=INK, width=CHIP_OUTLINE, radius=h * 0.3)
    pen.text(x + w / 2, cy - DIGIT_HEIGHT * CHIP_PT * PT / 2, letter, font=BOLD, size=CHIP_PT,
             colour=ink, align="centre", field="chip")


def deeper(colour: str) -> str:
    """The colour darkened (towards black, 5% a step) until white reads on it, >= 4.5:1, both in
    colour and on a black-and-white printer."""
    c = rgb(colour)
    for k in range(20):
        f = 1 - 0.05 * k
        shade = (c[0] * f, c[1] * f, c[2] * f)
        if contrast(shade, (1.0, 1.0, 1.0)) >= MIN_CONTRAST and reads_in_grey(hex_of(shade), "#FFFFFF"):
            return hex_of(shade)
    return "#000000"
