"""What the print fonts can draw: one rule for every name, in ``data check`` and in the builds.

A name (a station's, a line's) passes if, once in Unicode's composed form (NFC: a decomposed
``e`` + combining acute becomes ``é``), every character is one the print engine's fonts draw.
Those fonts are Bitstream Vera's four faces (:mod:`tubedeck.generator.fonts`); the characters all
four draw are listed here as ranges of code points, so the core can check a dataset without
loading a font, and ``tests/engine/test_printable.py`` holds this list to the fonts themselves.
Emoji, Arabic or CJK script, zero-width joiners and other format characters are refused with
the characters named, at ``data check`` as at a build.
"""

from __future__ import annotations

import unicodedata

# Code point ranges (inclusive) every face of the print font draws: Latin-1, a few Latin
# Extended-A letters, typographic quotes and dashes, the euro, some maths signs, fi/fl ligatures.
RANGES = ((32, 126), (160, 255), (262, 263), (268, 273), (286, 287), (304, 305), (321, 322), (338, 339),
          (350, 353), (376, 376), (381, 382), (402, 402), (710, 711), (728, 733), (937, 937), (960, 960),
          (8211, 8230), (8240, 8240), (8249, 8250), (8364, 8364), (8482, 8482), (8706, 8710), (8719, 8734),
          (8747, 8747), (8776, 8776), (8800, 8805), (9674, 9674), (64257, 64258))


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): how names are stored and printed."""
    return unicodedata.normalize("NFC", text)


def printable(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in RANGES)


def unprintable(text: str) -> str:
    """The characters of ``text`` (composed) the print fonts cannot draw, each once, in order."""
    return "".join(dict.fromkeys(ch for ch in composed(text) if not printable(ch)))


def why_unprintable(text: str) -> str | None:
    """Why ``text`` cannot be printed, in words (each character with its code point), or None."""
    bad = unprintable(text)
    if not bad:
        return None
    named = ", ".join(f"{ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})" for ch in bad[:5])
    return f"the print fonts cannot draw {named}" + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
