"""Fonts: TrueType only, embedded and subset in every PDF.

The family is Bitstream Vera (Sans, Bold, Oblique, Bold Oblique), shipped inside the ReportLab
wheel (``reportlab/fonts``), so it is always present with no extra download and under a free
licence. It covers Latin-1 plus typographic quotes and dashes, which is all station names need
(``King's Cross St Pancras``, ``Heathrow Terminals 2 & 3``). ReportLab's base-14 fonts
(Helvetica...) are never used: they are not embedded, so printers substitute them.

Faces refer to fonts by the short names in :data:`FONTS`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from tubedeck.errors import UsageError

FONT_DIR = os.path.join(os.path.dirname(reportlab.__file__), "fonts")


@dataclass(frozen=True)
class FontFace:
    """One font: its tubedeck name, ReportLab name, file, and SVG family/weight/style."""

    name: str
    pdf_name: str
    file: str
    weight: str = "normal"
    style: str = "normal"
    family: str = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"


FONTS: dict[str, FontFace] = {
    "sans": FontFace("sans", "TD-Sans", "Vera.ttf"),
    "sans-bold": FontFace("sans-bold", "TD-SansBold", "VeraBd.ttf", weight="bold"),
    "sans-italic": FontFace("sans-italic", "TD-SansItalic", "VeraIt.ttf", style="italic"),
    "sans-bold-italic": FontFace("sans-bold-italic", "TD-SansBoldItalic", "VeraBI.ttf", "bold", "italic"),
}
DEFAULT_FONT = "sans"


@lru_cache(maxsize=None)
def register_fonts() -> None:
    """Register every face with ReportLab once per process (idempotent)."""
    for face in FONTS.values():
        pdfmetrics.registerFont(TTFont(face.pdf_name, os.path.join(FONT_DIR, face.file)))


def face(name: str) -> FontFace:
    try:
        return FONTS[name]
    except KeyError:
        raise UsageError(f"unknown font {name!r}: use {', '.join(FONTS)}") from None


@lru_cache(maxsize=None)
def _ttf(name: str) -> TTFont:
    register_fonts()
    return pdfmetrics.getFont(face(name).pdf_name)


def pdf_name(name: str) -> str:
    """The ReportLab name of a tubedeck font (registering the fonts if needed)."""
    register_fonts()
    return face(name).pdf_name


@lru_cache(maxsize=65536)
def text_width(text: str, font: str, size: float) -> float:
    """Advance width of ``text`` in millimetres at ``size`` points."""
    return _ttf(font).stringWidth(text, size) * 25.4 / 72.0


@lru_cache(maxsize=None)
def metrics(font: str) -> tuple[float, float]:
    """(ascent, descent) as fractions of the font size; descent is negative.

    The font's bounding box is used where it reaches further than the typographic ascent
    (Vera: 0.93 vs 0.76), so fitted text stays inside its box even measured the way PDF
    viewers and PyMuPDF measure text (hhea extents)."""
    f = _ttf(font).face
    return max(f.ascent, f.bbox[3]) / 1000.0, min(f.descent, f.bbox[1]) / 1000.0


def missing_glyphs(text: str, font: str) -> str:
    """Characters of ``text`` the font cannot draw (they would print as empty boxes)."""
    cmap = _ttf(font).face.charToGlyph
    return "".join(sorted({ch for ch in text if ord(ch) not in cmap and ch not in "\n\t"}))
