"""Colour modes: one face, four ways to spend ink.

A face always asks for the colour it means (``"#DC241F"``, or an ``(r, g, b)`` tuple of 0-1
floats); the Pen maps it through the document's :class:`Mode`:

* ``colour``: RGB as asked, for screens and home colour printers;
* ``ink-saver``: fills become light tints, light text turns dark so it stays readable on them,
  and faces skip full-bleed backgrounds (``pen.ink_saver``); strokes keep their colour;
* ``greyscale``: luminance only (DeviceGray), for black-and-white printers;
* ``cmyk``: DeviceCMYK for print shops (a simple naive separation: pure black stays K-only).

In ``greyscale`` and ``ink-saver`` the Pen also checks text against the fill drawn under it
(see :func:`text_on`): text below 4.5:1 contrast there turns black or white, whichever reads
(white on the Jubilee grey becomes black). Colour and CMYK print what the face asked.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

from tubedeck.errors import UsageError

ColourSpec = str | tuple[float, float, float]

INK_SAVER_TINT = 0.22  # share of the asked colour kept in an ink-saver fill (rest is paper white)


class Mode(str, Enum):
    COLOUR = "colour"
    INK_SAVER = "ink-saver"
    GREYSCALE = "greyscale"
    CMYK = "cmyk"


def parse_mode(name: str) -> Mode:
    key = name.strip().lower().replace("_", "-")
    key = {"color": "colour", "inksaver": "ink-saver", "grayscale": "greyscale", "grey": "greyscale",
           "gray": "greyscale"}.get(key, key)
    try:
        return Mode(key)
    except ValueError:
        raise UsageError(f"unknown mode {name!r}: use {', '.join(m.value for m in Mode)}") from None


@lru_cache(maxsize=4096)
def rgb(spec: ColourSpec) -> tuple[float, float, float]:
    """``"#RRGGBB"`` / ``"RRGGBB"`` / ``(r, g, b)`` -> floats 0-1; a UsageError otherwise."""
    if isinstance(spec, tuple) and len(spec) == 3:
        return tuple(min(1.0, max(0.0, float(v))) for v in spec)  # type: ignore[return-value]
    text = str(spec).strip().lstrip("#")
    if len(text) == 6:
        try:
            return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)
        except ValueError:
            pass
    raise UsageError(f"bad colour {spec!r}: use '#RRGGBB' or an (r, g, b) tuple of 0-1 floats")


def luminance(c: tuple[float, float, float]) -> float:
    """Perceived brightness 0-1 (Rec. 601 weights, as printers' greyscale conversion does)."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG contrast ratio of two RGB colours (1 to 21; body text wants >= 4.5)."""
    def rel(c: tuple[float, float, float]) -> float:
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((rel(a), rel(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


MIN_CONTRAST = 4.5  # below this (after the mode's mapping), text on a fill switches to black or white


@lru_cache(maxsize=4096)
def text_on(fill: ColourSpec, mode: "Mode", colour: ColourSpec | None = None) -> ColourSpec:
    """The text colour for an area filled with ``fill``, as the page will print in ``mode``:
    ``colour`` if it reads (contrast >= 4.5:1 against the mapped fill), else black or white,
    whichever contrasts more. ``colour=None``: just the better of black and white."""
    back = as_rgb(resolve(fill, mode, "fill"))
    best = max(("#000000", "#FFFFFF"), key=lambda c: contrast(as_rgb(resolve(c, mode, "text")), back))
    if colour is None:
        return best
    asked = contrast(as_rgb(resolve(colour, mode, "text")), back)
    if asked >= MIN_CONTRAST or contrast(as_rgb(resolve(best, mode, "text")), back) <= asked:
        return colour
    return best


def reads_in_grey(fill: ColourSpec, text: ColourSpec) -> bool:
    """Whether ``text`` on ``fill`` still reads (>= 4.5:1) once a black-and-white printer turns
    both into greys (Rec. 601 luminance): black on the Bakerloo's brown is 4.70:1 in colour and
    4.25:1 in grey, white 4.46:1 and 4.94:1, so neither does everywhere."""
    grey = Mode.GREYSCALE
    return contrast(as_rgb(resolve(text, grey, "text")), as_rgb(resolve(fill, grey, "fill"))) >= MIN_CONTRAST


def to_cmyk(c: tuple[float, float, float]) -> tuple[float, float, float, float]:
    k = 1.0 - max(c)
    if k >= 1.0:
        return (0.0, 0.0, 0.0, 1.0)
    return tuple(round((1.0 - v - k) / (1.0 - k), 4) for v in c) + (round(k, 4),)  # type: ignore[return-value]


def _tint(c: tuple[float, float, float], share: float) -> tuple[float, float, float]:
    return tuple(1.0 - share * (1.0 - v) for v in c)  # type: ignore[return-value]


@lru_cache(maxsize=8192)
def resolve(spec: ColourSpec, mode: Mode, role: str) -> tuple:
    """Map an asked colour for ``role`` (``fill``, ``stroke`` or ``text``) under ``mode``.

    Returns ``("rgb", r, g, b)``, ``("gray", g)`` or ``("cmyk", c, m, y, k)``.
    """
    c = rgb(spec)
    if mode is Mode.INK_SAVER:
        if role == "fill":
            c = _tint(c, INK_SAVER_TINT)
        elif role == "text" and luminance(c) > 0.6:
            c = (0.1, 0.1, 0.1)  # white-on-colour text would vanish on a pale tint
        return ("rgb", *(round(v, 4) for v in c))
    if mode is Mode.GREYSCALE:
        return ("gray", round(luminance(c), 4))
    if mode is Mode.CMYK:
        return ("cmyk", *to_cmyk(c))
    return ("rgb", *(round(v, 4) for v in c))


def as_rgb(mapped: tuple) -> tuple[float, float, float]:
    """An already-mapped colour as RGB, for backends without CMYK/grey (SVG)."""
    kind = mapped[0]
    if kind == "gray":
        return (mapped[1],) * 3
    if kind == "cmyk":
        c, m, y, k = mapped[1:]
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return tuple(mapped[1:4])  # type: ignore[return-value]


def hex_of(c: tuple[float, float, float]) -> str:
    return "#%02x%02x%02x" % tuple(round(v * 255) for v in c)
