"""How a map draws its lines so they survive a black-and-white printer: each line its own dash
pattern over a white halo, and a line too light on white, or printing the grey of an earlier
line, inside dark rails (a casing). Tube Dice's sheet and One Day's map both draw with it."""

from __future__ import annotations

from tubedeck.generator.colour import contrast, luminance, rgb
from tubedeck.generator.pen import Pen
from tubedeck.generator.theme import INK, WHITE

PATTERNS = (None, (3.0, 1.2), (1.2, 1.0), (4.0, 1.0, 1.0, 1.0), (6.0, 2.0), (0.7, 0.9),
            (2.0, 0.8, 0.7, 0.8), (8.0, 1.5), (1.5, 2.5), (3.0, 1.0, 1.0, 1.0, 1.0, 1.0))


MIN_LINE_CONTRAST = 3.0  # a drawn line's edge against white paper (graphics, WCAG 1.4.11)
GREY_APART = 0.05  # printed greys closer than this read as one grey
WIDTH, CORE = 1.2, 0.7  # mm: a line's width; the coloured core inside a cased line's dark rails


def pattern(i: int):
    return PATTERNS[i % len(PATTERNS)]


def cased(colours: tuple[str, ...]) -> tuple[bool, ...]:
    """Which lines print inside dark rails (a casing): those too light on white (< 3:1) in colour or
    in grey, and those printing the same grey as an earlier plain line, so greyscale tells them
    apart by more than dashes."""
    out: list[bool] = []
    plain: list[float] = []
    for spec in colours:
        c = rgb(spec)
        g = luminance(c)
        light = min(contrast(c, (1.0, 1.0, 1.0)), contrast((g, g, g), (1.0, 1.0, 1.0))) < MIN_LINE_CONTRAST
        case = light or any(abs(g - p) < GREY_APART for p in plain)
        if not case:
            plain.append(g)
        out.append(case)
    return tuple(out)


def draw_line(pen: Pen, a: tuple[float, float], b: tuple[float, float], colour: str, i: int, case: bool) -> None:
    """One line's stroke: white halo, then the dashed colour; a cased line's colour runs between INK rails."""
    if case:
        pen.line(*a, *b, stroke=INK, width=WIDTH + 0.05)
        pen.line(*a, *b, stroke=WHITE, width=CORE)
        pen.line(*a, *b, stroke=colour, width=CORE, dash=pattern(i))
    else:
        pen.line(*a, *b, stroke=WHITE, width=WIDTH + 0.05)
        pen.line(*a, *b, stroke=colour, width=WIDTH, dash=pattern(i))
