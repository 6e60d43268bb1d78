"""Text fitting: wrap at word boundaries, shrink step by step, or fail loudly.

A fitted box never overflows and never clips: the engine tries the asked size, then smaller
sizes in 0.25 pt steps down to ``min_size``; at each size the text is wrapped greedily at
spaces (and after hyphens). If nothing fits, :class:`TextFitError` names the card and field so
the game's content can be fixed (shorter text, a bigger box or a smaller minimum).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tubedeck.errors import UsageError

from .fonts import metrics, text_width

LEADING = 1.18  # baseline-to-baseline distance as a multiple of the size (> Vera's 1.164 extent)
STEP = 0.25  # points
_HYPHEN = re.compile(r"(?<=\w-)(?=\w)")  # split point just after an inner hyphen


class TextFitError(UsageError):
    """Text that cannot fit its box even at the minimum size (exit code 2 from the CLI)."""

    def __init__(self, card: str, field: str, text: str, width: float, height: float, min_size: float):
        self.card, self.field, self.text = card, field, text
        if width <= 0 or height <= 0:  # the face's layout left the field no room at all
            super().__init__(
                f"{card}: field {field!r} has no room for {text!r}: its box is "
                f"{max(width, 0.0):.1f} mm wide and {max(height, 0.0):.1f} mm high on this card "
                f"(use a bigger card size, or give the field room in the face's layout)"
            )
            return
        super().__init__(
            f"{card}: field {field!r} does not fit: {text!r} needs more than {width:.1f} x {height:.1f} mm "
            f"even at {min_size:g} pt (shorten it, enlarge the box or lower min_size)"
        )


@dataclass(frozen=True)
class FittedText:
    """The outcome of fitting: the size used, the lines, and the block's height in mm."""

    size: float
    lines: tuple[str, ...]
    leading: float  # mm between baselines
    ascent: float  # mm from the first line's top to its baseline
    height: float  # mm from the first line's top to the last line's bottom


def _words(text: str) -> list[str]:
    # Break after hyphens inside words too ("Harrow-on-the-Hill"), never at a lone dash.
    out: list[str] = []
    for word in text.split():
        out += [w for w in _HYPHEN.split(word) if w]
    return out


def wrap(text: str, font: str, size: float, width: float, max_lines: int | None = None) -> tuple[str, ...] | None:
    """Greedy word wrap; ``None`` if a word is wider than ``width`` or lines exceed ``max_lines``."""
    lines: list[str] = []
    for para in text.split("\n"):
        line, prev = "", ""
        for word in _words(para):
            glued = len(prev) > 1 and prev.endswith("-") and prev[-2].isalnum()  # "Harrow-" + "on-"
            prev = word
            joiner = "" if (not line or glued) else " "
            candidate = line + joiner + word
            if text_width(candidate, font, size) <= width:
                line = candidate
                continue
            if not line or text_width(word, font, size) > width:
                return None
            lines.append(line)
            line = word
        lines.append(line)
        if max_lines is not None and len(lines) > max_lines:
            return None
    return tuple(lines)


def block(lines: tuple[str, ...], font: str, size: float) -> FittedText:
    asc, desc = metrics(font)
    mm = size * 25.4 / 72.0
    leading = LEADING * mm
    return FittedText(size, lines, leading, asc * mm, (len(lines) - 1) * leading + (asc - desc) * mm)


def fit(text: str, font: str, size: float, min_size: float, width: float, height: float, *,
        max_lines: int | None = None, card: str = "card", field: str = "text") -> FittedText:
    """The largest size <= ``size`` (and >= ``min_size``) at which ``text`` fits ``width`` x ``height`` mm."""
    s = size if width > 0 and height > 0 else min_size - 1.0  # an empty box: fail at once
    while s >= min_size - 1e-9:
        lines = wrap(text, font, s, width, max_lines)
        if lines is not None:
            fitted = block(lines, font, s)
            if fitted.height <= height + 1e-9:
                return fitted
        s = round(s - STEP, 4)
    raise TextFitError(card, field, text, width, height, min_size)


class FaceFitError(TextFitError):
    """A face that cannot lay out on this card size even after leaving off its optional content:
    names the card, the size and what did not fit (exit code 2 from the CLI)."""

    def __init__(self, card: str, size: str, what: str):
        self.card, self.field, self.text = card, "layout", what
        UsageError.__init__(self, f"{card}: a {size} card cannot carry this face: {what} "
                                  f"(use a bigger card size)")


def size_label(width: float, height: float) -> str:
    """``63.5 x 88.9 mm``, or ``poker 63.5 x 88.9 mm`` for a named size (as ``--card`` names them)."""
    from .sizes import CARD_SIZES

    for size in CARD_SIZES.values():
        for named in (size, size.landscape):
            if abs(named.width - width) < 1e-6 and abs(named.height - height) < 1e-6:
                return named.label()
    return f"{width:g} x {height:g} mm"


@lru_cache(maxsize=65536)
def measure(text: str, font: str, size: float, min_size: float, width: float, height: float = 1e4,
            max_lines: int | None = None) -> FittedText | None:
    """:func:`fit` for faces that lay out before they draw: the fit, or ``None`` if it does not fit."""
    try:
        return fit(text, font, size, min_size, round(width, 4), round(height, 4), max_lines=max_lines)
    except TextFitError:
        return None


class sized:  # noqa: N801 - used like a function: sized(face)
    """A face whose text-fit failures name the card size too: ``Card(id, sized(front, "mini ..."))``.
    A :class:`TextFitError` inside it becomes a :class:`FaceFitError` naming the card, the size
    (``size``, else the pen's trim) and the field that did not fit."""

    def __init__(self, face, size: str = ""):
        self.face, self.size = face, size

    def __call__(self, pen) -> None:
        try:
            self.face(pen)
        except FaceFitError:
            raise
        except TextFitError as err:
            size = self.size or size_label(pen.trim.w, pen.trim.h)
            raise FaceFitError(pen.label, size, f"its {err.field!r} ({err.text!r}) does not fit") from err


def bullet_cards(items: Sequence[str], font: str, size: float, min_size: float, width: float,
                 height: float) -> list[tuple[str, ...]]:
    """Bulleted items (a rules summary) split over as few cards of ``width`` x ``height`` mm as
    hold them at ``min_size`` pt or more, in order; among the splits into that many cards, the one
    whose smallest text is largest (then the most even): filling the first card to the brim left
    one card at 7 pt and the next half empty at 8.5 pt (a fresh-eyes review). An item too long for
    a card on its own gets a card to itself (the face reports it)."""
    from itertools import combinations

    def fitted(group: Sequence[str]) -> FittedText | None:
        return measure("\n".join(f"\u2022 {r}" for r in group), font, size, min_size, width, height)

    rest, greedy = list(items), []
    while rest:  # the fewest cards: fill each in turn
        n = len(rest)
        while n > 1 and fitted(rest[:n]) is None:
            n -= 1
        greedy.append(tuple(rest[:n]))
        rest = rest[n:]
    if len(greedy) == 1:
        return greedy
    best: tuple[tuple[float, float], list[tuple[str, ...]]] | None = None
    for cuts in combinations(range(1, len(items)), len(greedy) - 1):
        bounds = (0, *cuts, len(items))
        groups = [tuple(items[a:b]) for a, b in zip(bounds, bounds[1:])]
        fits = [fitted(g) for g in groups]
        if any(f is None for f in fits):
            continue
        sizes = [f.size for f in fits if f is not None]
        key = (min(sizes), -(max(sizes) - min(sizes)))
        if best is None or key > best[0]:
            best = (key, groups)
    return greedy if best is None else best[1]  # (none: an item fits no card alone; the face says so)
