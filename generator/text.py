"""Text fitting: wrap at word boundaries, shrink step by step, or fail loudly.

A fitted box never overflows and never clips: the engine tries the asked size, then smaller
sizes in 0.25 pt steps down to ``min_size``; at each size the text is wrapped greedily at
spaces (and after hyphens). If nothing fits, :class:`TextFitError` names the card and field so
the game's content can be fixed (shorter text, a bigger box or a smaller minimum).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
