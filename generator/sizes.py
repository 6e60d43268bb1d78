"""Physical sizes: card formats, papers and the rectangles of a card (trim, bleed, safe).

Print vocabulary used throughout the engine:

* **trim**: the finished card, where the cutter goes. Card coordinates put its bottom-left at
  (0, 0), in millimetres, y upwards (as in PDF).
* **bleed**: art extended past the trim (0 or 3 mm usually) so a cut that lands a little off
  still shows no white sliver. It is at negative coordinates and beyond the card's width/height.
* **safe area**: the inner region (trim inset by a margin, 4 mm by default) where text and
  anything that must not be cut off belongs.

All lengths are millimetres; ``MM`` converts to PDF points (1/72 inch).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tubedeck.errors import UsageError

MM = 72.0 / 25.4  # PDF points per millimetre
PT = 25.4 / 72.0  # millimetres per point
PRINTER_MARGIN = 6.35  # 1/4 inch: most home printers cannot print closer to the edge
SAFE_MARGIN = 4.5  # mm: text 1.5 mm inside the art box's tinted edge (pen.DRIFT, 3 mm inside the trim)
MIN_SAFE = 10.0  # mm each way: a smaller safe area holds no face (a word at 7 pt, a symbol): --card refuses it
MAX_SIDE = 300.0  # mm: a card side, at most


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: bottom-left (x, y), width w, height h, in millimetres."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inset(self, dx: float, dy: float | None = None) -> "Rect":
        """Shrink by ``dx`` on left and right and ``dy`` (default ``dx``) top and bottom;
        a negative inset grows the rectangle."""
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: "Rect", tol: float = 1e-6) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.right <= self.right + tol and other.top <= self.top + tol)


@dataclass(frozen=True)
class CardSize:
    """A card format: trim width x height in millimetres (landscape when width > height)."""

    name: str
    width: float
    height: float

    @property
    def landscape(self) -> "CardSize":
        """The same card turned sideways (long side horizontal)."""
        w, h = max(self.width, self.height), min(self.width, self.height)
        return CardSize(self.name if self.name.endswith("-landscape") else f"{self.name}-landscape", w, h)

    def label(self) -> str:
        """``poker 63.5 x 88.9 mm``; a custom size is just ``60 x 90 mm``."""
        dims = f"{self.width:g} x {self.height:g} mm"
        return dims if self.name.replace(" ", "") == f"{self.width:g}x{self.height:g}" else f"{self.name} {dims}"


CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", 63.5, 88.9),  # 2.5 x 3.5 in, the usual game card
    "bridge": CardSize("bridge", 57.2, 88.9),  # 2.25 x 3.5 in
    "mini": CardSize("mini", 44.5, 63.5),  # 1.75 x 2.5 in ("mini American")
    "tarot": CardSize("tarot", 70.0, 120.0),
    "square": CardSize("square", 70.0, 70.0),
}

_WXH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)


def parse_card(spec: str) -> CardSize:
    """``poker``, ``tarot-landscape`` or ``60x90`` (mm, width x height) -> CardSize."""
    key = spec.strip().lower()
    base, _, suffix = key.partition("-")
    if base in CARD_SIZES and suffix in ("", "landscape"):
        size = CARD_SIZES[base]
        return size.landscape if suffix else size
    m = _WXH.match(key)
    if m:
        w, h = float(m.group(1)), float(m.group(2))
        if not (math.isfinite(w) and math.isfinite(h)):
            raise UsageError(f"card size {spec!r}: width and height must be finite numbers of mm")
        if max(w, h) > MAX_SIDE:
            raise UsageError(f"card size {spec!r}: each side must be at most {MAX_SIDE:g} mm")
        least = MIN_SAFE + 2 * SAFE_MARGIN
        if min(w, h) < least:
            room = f"{max(w - 2 * SAFE_MARGIN, 0):g} x {max(h - 2 * SAFE_MARGIN, 0):g} mm"
            mini = CARD_SIZES["mini"]
            raise UsageError(f"card size {spec!r}: its safe area ({SAFE_MARGIN:g} mm margins each side) leaves {room}, "
                             f"no room for a face: each side must be at least {least:g} mm (the smallest named size, "
                             f"mini {mini.width:g} x {mini.height:g} mm, prints every game)")
        return CardSize(f"{w:g}x{h:g}", w, h)
    names = ", ".join(CARD_SIZES)
    raise UsageError(f"unknown card size {spec!r}: use {names}, NAME-landscape, or WxH in mm (e.g. 60x90)")


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, width x height in millimetres as it will be printed."""

    name: str
    width: float
    height: float

    @property
    def landscape(self) -> "Paper":
        return Paper(self.name, max(self.width, self.height), min(self.width, self.height))

    @property
    def portrait(self) -> "Paper":
        return Paper(self.name, min(self.width, self.height), max(self.width, self.height))

    @property
    def orientation(self) -> str:
        return "landscape" if self.width > self.height else "portrait"

    @property
    def rect(self) -> Rect:
        return Rect(0.0, 0.0, self.width, self.height)


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),  # 8.5 x 11 in
}


def parse_paper(name: str) -> Paper:
    try:
        return PAPERS[name.strip().lower()]
    except KeyError:
        raise UsageError(f"unknown paper {name!r}: use {' or '.join(PAPERS)}") from None


@dataclass(frozen=True)
class CardGeometry:
    """The rectangles of one card in card coordinates (mm, origin at the trim's bottom-left)."""

    width: float
    height: float
    bleed: float = 0.0
    safe_margin: float = SAFE_MARGIN

    @property
    def trim(self) -> Rect:
        return Rect(0.0, 0.0, self.width, self.height)

    @property
    def bleed_box(self) -> Rect:
        """Trim grown by the bleed: the area a background must cover."""
        return self.trim.inset(-self.bleed)

    @property
    def safe(self) -> Rect:
        """Where text and vital marks belong: never cut off by a slightly-off cut."""
        return self.trim.inset(self.safe_margin)
