"""The Pen: everything a card face or a sheet may draw, in millimetres.

A face is ``face(pen)``. It draws in *card coordinates*: millimetres, origin at the trim's
bottom-left, y upwards; negative coordinates (and those past the width/height) reach into the
bleed. ``pen.trim``, ``pen.bleed_box`` and ``pen.safe`` are the card's rectangles and
``pen.mode`` the colour mode. The face never knows where the card sits on a sheet, whether it
is mirrored for duplex, or whether it goes to PDF, SVG or PNG: the engine moves the origin and
picks the backend.

Units: every length (coordinates, radii, line widths) is in mm; font sizes are in points, as
typographers expect. Colours are ``"#RRGGBB"`` or ``(r, g, b)`` 0-1 and are mapped by the
Pen through the colour mode (see :mod:`tubedeck.generator.colour`).

Two backends implement the four primitives (``_rect``, ``_path``, ``_circle``, ``_text``) and
clipping: :class:`PdfPen` (ReportLab) here and ``SvgPen`` (svgwrite) in :mod:`tubedeck.generator.svgpen`.
Fitting text is shared, so a card wraps and shrinks identically in every format.

In greyscale and ink-saver modes the Pen remembers the fills it drew and, when text lands on
one, makes sure it reads there (:meth:`Pen.text_on`: black or white if the asked colour falls
below 4.5:1 contrast after the mode's mapping).

:func:`recording` lists every line of text the Pens draw meanwhile (card label, ``field``, text,
size, where on the page): tests use it to tell a PDF's spans apart by field (a Connection Number
from a neighbour's name) without guessing from their content.
"""

from __future__ import annotations

import contextlib
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Iterator, Sequence

from tubedeck.errors import UsageError

from . import fonts
from .colour import ColourSpec, Mode, resolve, text_on
from .sizes import MM, PT, Rect
from .text import FittedText, fit

Point = tuple[float, float]
ALIGNS = ("left", "centre", "right")


@dataclass(frozen=True)
class Written:
    """One line of text as a Pen drew it (see :func:`recording`). ``x``, ``y``: the left end of
    its baseline in page mm (origin bottom-left; a card's pen adds the card's place on the
    sheet); ``width`` in mm along ``angle``; ``page``: 1-based page of the PDF being written
    (0 for pens that draw no PDF page)."""

    label: str
    field: str
    text: str
    font: str
    size: float
    x: float
    y: float
    width: float
    angle: float
    page: int


_RECORDINGS: list[list[Written]] = []


@contextlib.contextmanager
def recording() -> Iterator[list[Written]]:
    """Collect every line of text drawn by any Pen inside the ``with`` block (nested blocks
    each get everything). Drawing is unchanged: a build's bytes are the same with or without."""
    log: list[Written] = []
    _RECORDINGS.append(log)
    try:
        yield log
    finally:
        del _RECORDINGS[next(i for i, other in enumerate(_RECORDINGS) if other is log)]


DRIFT = 3.0  # mm: a 1.5 mm duplex misregistration plus a 1 mm miscut, and 0.5 mm to spare


class Pen(ABC):
    """The drawing surface handed to faces. Subclasses are backends; faces use only this API."""

    def __init__(self, trim: Rect, bleed_box: Rect, safe: Rect, mode: Mode, label: str = "card"):
        self.trim = trim  #: the finished card (or the whole page for a Pages)
        self.bleed_box = bleed_box  #: trim grown by the bleed: where backgrounds must reach
        self.safe = safe  #: where text belongs
        self.mode = mode  #: the colour mode; colours are mapped for you
        self.label = label  #: "deck/card-id front": names the card in errors
        # Filled shapes so far, topmost last, for the text-contrast check of greyscale and ink-saver.
        self._fills: list[tuple[str, tuple, ColourSpec]] = []
        self._track = mode in (Mode.GREYSCALE, Mode.INK_SAVER)

    # -- queries ------------------------------------------------------------------------
    @property
    def art_box(self) -> Rect:
        """Where full-colour art (backgrounds, bands) may reach. With a bleed of at least
        :data:`DRIFT` mm it is the bleed box; without one it stops :data:`DRIFT` mm inside the trim,
        so a 1.5 mm duplex misregistration plus a 1 mm miscut shows paper, never a neighbour's
        colour or a white edge on a coloured card (the default build has no bleed: see the README)."""
        t, b = self.trim, self.bleed_box
        if min(t.x - b.x, b.right - t.right, t.y - b.y, b.top - t.top) >= DRIFT - 1e-9:
            return b
        return t.inset(DRIFT)

    @property
    def ink_saver(self) -> bool:
        """True in ink-saver mode: skip full-bleed backgrounds and big solid areas."""
        return self.mode is Mode.INK_SAVER

    def text_on(self, fill: ColourSpec, colour: ColourSpec | None = None) -> ColourSpec:
        """The colour for text on an area filled with ``fill``, as this page prints: ``colour``
        if it reads there (contrast >= 4.5:1 after the colour mode's mapping), else black or white,
        whichever reads better (``colour=None``: just that). Greyscale and ink-saver pages already
        apply this to text drawn over a fill; call it to decide in colour mode too."""
        return text_on(fill, self.mode, colour)

    @staticmethod
    def text_width(text: str, font: str = fonts.DEFAULT_FONT, size: float = 8.0) -> float:
        """Width of ``text`` in mm at ``size`` pt."""
        return fonts.text_width(text, font, size)

    # -- shapes -------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, *, fill: ColourSpec | None = None,
             stroke: ColourSpec | None = None, width: float = 0.25, radius: float = 0.0) -> None:
        """A rectangle (bottom-left x, y), optionally with rounded corners of ``radius`` mm."""
        if fill is None and stroke is None:
            return
        self._remember("rect", (x, y, w, h), fill)
        self._rect(x, y, w, h, self._col(fill, "fill"), self._col(stroke, "stroke"), width, radius)

    def background(self, fill: ColourSpec) -> None:
        """Fill the art box (full bleed with a bleed, else up to DRIFT mm inside the trim), except
        in ink-saver mode."""
        if not self.ink_saver:
            b = self.art_box
            radius = 0.0 if b is self.bleed_box else 2.0
            self._remember("rect", (b.x, b.y, b.w, b.h), fill)
            self._rect(b.x, b.y, b.w, b.h, self._col(fill, "fill"), None, 0.0, radius)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: ColourSpec = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        self._path(((x1, y1), (x2, y2)), None, self._col(stroke, "stroke"), width, False, dash)

    def polyline(self, points: Sequence[Point], *, stroke: ColourSpec = "#000000", width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        """Connected line segments through ``points`` (open)."""
        if len(points) >= 2:
            self._path(tuple(points), None, self._col(stroke, "stroke"), width, False, dash)

    def polygon(self, points: Sequence[Point], *, fill: ColourSpec | None = None,
                stroke: ColourSpec | None = None, width: float = 0.25) -> None:
        """A closed shape through ``points``."""
        if len(points) >= 3 and (fill is not None or stroke is not None):
            self._remember("polygon", tuple(points), fill)
            self._path(tuple(points), self._col(fill, "fill"), self._col(stroke, "stroke"), width, True, None)

    def circle(self, cx: float, cy: float, r: float, *, fill: ColourSpec | None = None,
               stroke: ColourSpec | None = None, width: float = 0.25) -> None:
        if fill is not None or stroke is not None:
            self._remember("circle", (cx, cy, r), fill)
            self._circle(cx, cy, r, self._col(fill, "fill"), self._col(stroke, "stroke"), width)

    # -- text ---------------------------------------------------------------------------
    def fitted_lines(self, fitted, x: float, top: float, *, font: str, colour: ColourSpec, field: str,
                     align: str = "left") -> None:
        """Draw text already laid out by :func:`tubedeck.generator.text.measure`, its first line's top at ``top``."""
        y = top - fitted.ascent
        for line in fitted.lines:
            self.text(x, y, line, font=font, size=fitted.size, colour=colour, align=align, field=field)
            y -= fitted.leading

    def text(self, x: float, y: float, text: str, *, font: str = fonts.DEFAULT_FONT, size: float = 8.0,
             colour: ColourSpec = "#000000", align: str = "left", angle: float = 0.0,
             field: str = "text") -> None:
        """One line of text with its baseline at ``y``; ``x`` is its left end, centre or right
        end per ``align``; ``angle`` in degrees counter-clockwise about (x, y)."""
        if align not in ALIGNS:
            raise UsageError(f"{self.label}: align must be one of {', '.join(ALIGNS)}, not {align!r}")
        self._check_glyphs(text, font, field)
        if self._track:  # judge contrast at the middle of the line
            w = fonts.text_width(text, font, size)
            du, dv = {"left": w / 2, "centre": 0.0, "right": -w / 2}[align], 0.35 * size * PT
            cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            colour = self._readable(colour, x + du * cos - dv * sin, y + du * sin + dv * cos)
        if _RECORDINGS:
            self._record(field, text, font, size, x, y, align, angle)
        self._text(x, y, text, fonts.face(font).name, size, self._col(colour, "text"), align, angle)

    def text_box(self, box: Rect, text: str, *, font: str = fonts.DEFAULT_FONT, size: float = 10.0,
                 min_size: float = 6.0, colour: ColourSpec = "#000000", align: str = "centre",
                 valign: str = "middle", max_lines: int | None = None, field: str = "text") -> FittedText:
        """Wrap and shrink ``text`` (from ``size`` down to ``min_size`` pt) to fit ``box`` wholly.

        Raises :class:`~generator.text.TextFitError` (a UsageError) naming this card and ``field``
        if it cannot fit. Returns the fit (size used, lines) for faces that lay out around it."""
        self._check_glyphs(text, font, field)
        fitted = fit(text, font, size, min_size, box.w, box.h, max_lines=max_lines, card=self.label, field=field)
        if valign == "top":
            top = box.top
        elif valign == "bottom":
            top = box.y + fitted.height
        else:
            top = box.y + (box.h + fitted.height) / 2
        x = {"left": box.x, "centre": box.x + box.w / 2, "right": box.right}.get(align)
        if x is None:
            raise UsageError(f"{self.label}: align must be one of {', '.join(ALIGNS)}, not {align!r}")
        baseline = top - fitted.ascent
        if self._track:
            colour = self._readable(colour, box.x + box.w / 2, top - fitted.height / 2)
        col = self._col(colour, "text")
        for line in fitted.lines:
            if _RECORDINGS:
                self._record(field, line, font, fitted.size, x, baseline, align, 0.0)
            self._text(x, baseline, line, font, fitted.size, col, align, 0.0)
            baseline -= fitted.leading
        return fitted

    # -- clipping -----------------------------------------------------------------------
    @contextlib.contextmanager
    def clip(self, box: Rect | None = None) -> Iterator["Pen"]:
        """Draw inside ``box`` only (default: the bleed box), e.g. for art that spills over."""
        self._push_clip(box or self.bleed_box)
        try:
            yield self
        finally:
            self._pop_clip()

    # -- recording (tests) ----------------------------------------------------------------
    def _record(self, field: str, text: str, font: str, size: float, x: float, y: float, align: str,
                angle: float) -> None:
        w = fonts.text_width(text, font, size)
        back = {"left": 0.0, "centre": w / 2, "right": w}[align]
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        px, py = self._on_page(x - back * cos, y - back * sin)
        item = Written(self.label, field, text, font, size, px, py, w, angle, self._page())
        for log in _RECORDINGS:
            log.append(item)

    def _on_page(self, x: float, y: float) -> Point:
        """Face coordinates to page mm (a backend that places cards on a sheet overrides it)."""
        return (x, y)

    def _page(self) -> int:
        return 0

    # -- text contrast (greyscale, ink-saver) -----------------------------------------------
    def _remember(self, kind: str, shape: tuple, fill: ColourSpec | None) -> None:
        if self._track and fill is not None:
            self._fills.append((kind, shape, fill))

    def _readable(self, colour: ColourSpec, x: float, y: float) -> ColourSpec:
        """``colour``, or black/white if it would not read on the topmost fill under (x, y)."""
        for kind, shape, fill in reversed(self._fills):
            if _covers(kind, shape, x, y):
                return text_on(fill, self.mode, colour)
        return colour  # no known fill beneath: leave the face's choice alone

    # -- backend hooks ------------------------------------------------------------------
    def _col(self, spec: ColourSpec | None, role: str) -> tuple | None:
        return None if spec is None else resolve(spec if isinstance(spec, (str, tuple)) else str(spec), self.mode, role)

    def _check_glyphs(self, text: str, font: str, field: str) -> None:
        missing = fonts.missing_glyphs(text, font)
        if missing:
            raise UsageError(f"{self.label}: field {field!r}: font {font!r} has no glyph for {missing!r} in {text!r}")

    @abstractmethod
    def _rect(self, x, y, w, h, fill, stroke, width, radius) -> None: ...

    @abstractmethod
    def _path(self, points, fill, stroke, width, closed, dash) -> None: ...

    @abstractmethod
    def _circle(self, cx, cy, r, fill, stroke, width) -> None: ...

    @abstractmethod
    def _text(self, x, y, text, font, size, colour, align, angle) -> None: ...

    def image(self, x: float, y: float, w: float, h: float, png: bytes) -> None:
        """A PNG (a chart rendered elsewhere) scaled into the box x, y, w, h (mm)."""
        self._image(x, y, w, h, png)

    def _image(self, x, y, w, h, png: bytes) -> None:
        raise NotImplementedError(f"{type(self).__name__} draws no images")

    @abstractmethod
    def _push_clip(self, box: Rect) -> None: ...

    @abstractmethod
    def _pop_clip(self) -> None: ...


def pile_back(pen: Pen, colour: str) -> None:
    """A pile's back: one flat ``colour`` running :data:`DRIFT` mm past the trim (the deck's
    ``back_bleed`` lets it past on the sheets) and nothing else, so a back printed up to 1.5 mm off
    and cut 1 mm off looks just the same. A pile prints over sheets a duplex printer may shift
    differently: a panel, frame, title or emblem moved with the drift would tell a card's sheet.
    Ink-saver prints no back at all: the paper is the back."""
    if not pen.ink_saver:
        b = pen.trim.inset(-DRIFT)
        pen.rect(b.x, b.y, b.w, b.h, fill=colour)


def _covers(kind: str, shape: tuple, x: float, y: float) -> bool:
    """Whether a remembered filled shape contains the point (x, y)."""
    if kind == "rect":
        rx, ry, rw, rh = shape
        return min(rx, rx + rw) <= x <= max(rx, rx + rw) and min(ry, ry + rh) <= y <= max(ry, ry + rh)
    if kind == "circle":
        cx, cy, r = shape
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    inside = False  # polygon: even-odd ray casting
    for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _set_colour(canvas, mapped: tuple, fill: bool) -> None:
    kind = mapped[0]
    if kind == "rgb":
        (canvas.setFillColorRGB if fill else canvas.setStrokeColorRGB)(*mapped[1:])
    elif kind == "gray":
        (canvas.setFillGray if fill else canvas.setStrokeGray)(mapped[1])
    else:
        (canvas.setFillColorCMYK if fill else canvas.setStrokeColorCMYK)(*mapped[1:])


class PdfPen(Pen):
    """Draws on a ReportLab canvas. The canvas is moved to the card's origin and scaled to mm,
    so the face's numbers go straight into the PDF (one transform per card, not per point)."""

    def __init__(self, canvas, origin: Point, trim: Rect, bleed_box: Rect, safe: Rect, mode: Mode,
                 label: str = "card"):
        super().__init__(trim, bleed_box, safe, mode, label)
        self.canvas = canvas
        self.origin = origin

    @contextlib.contextmanager
    def placed(self) -> Iterator["PdfPen"]:
        """Enter card coordinates on the canvas (used by the engine around each face)."""
        c = self.canvas
        c.saveState()
        c.translate(self.origin[0] * MM, self.origin[1] * MM)
        c.scale(MM, MM)
        try:
            yield self
        finally:
            c.restoreState()

    def _on_page(self, x: float, y: float) -> Point:
        return (x + self.origin[0], y + self.origin[1])

    def _page(self) -> int:
        return self.canvas.getPageNumber()

    def _paint(self, fill, stroke, width) -> tuple[int, int]:
        c = self.canvas
        if fill is not None:
            _set_colour(c, fill, True)
        if stroke is not None:
            _set_colour(c, stroke, False)
            c.setLineWidth(width)
        return (1 if stroke is not None else 0, 1 if fill is not None else 0)

    def _rect(self, x, y, w, h, fill, stroke, width, radius) -> None:
        s, f = self._paint(fill, stroke, width)
        if radius > 0:  # a closed path: an open one shows a notch where a thick stroke starts and ends
            p = self.canvas.beginPath()
            p.roundRect(x, y, w, h, radius)
            p.close()
            self.canvas.drawPath(p, stroke=s, fill=f)
        else:
            self.canvas.rect(x, y, w, h, stroke=s, fill=f)

    def _path(self, points, fill, stroke, width, closed, dash) -> None:
        c = self.canvas
        s, f = self._paint(fill, stroke, width)
        if dash:
            c.saveState()
            c.setDash(list(dash))
        p = c.beginPath()
        p.moveTo(*points[0])
        for pt in points[1:]:
            p.lineTo(*pt)
        if closed:
            p.close()
        c.drawPath(p, stroke=s, fill=f)
        if dash:
            c.restoreState()

    def _circle(self, cx, cy, r, fill, stroke, width) -> None:
        # ReportLab's canvas.circle leaves the path open, so a thick ring shows a seam where its
        # two butt ends meet (at 3 o'clock); closing the path joins them.
        s, f = self._paint(fill, stroke, width)
        p = self.canvas.beginPath()
        p.circle(cx, cy, r)
        p.close()
        self.canvas.drawPath(p, stroke=s, fill=f)

    def _text(self, x, y, text, font, size, colour, align, angle) -> None:
        c = self.canvas
        _set_colour(c, colour, True)
        c.setFont(fonts.pdf_name(font), size * PT)  # size in mm: the canvas is scaled to mm
        draw = {"left": c.drawString, "centre": c.drawCentredString, "right": c.drawRightString}[align]
        if angle:
            c.saveState()
            c.translate(x, y)
            c.rotate(angle)
            draw(0, 0, text)
            c.restoreState()
        else:
            draw(x, y, text)

    def _image(self, x, y, w, h, png: bytes) -> None:
        from io import BytesIO

        from reportlab.lib.utils import ImageReader

        self.canvas.drawImage(ImageReader(BytesIO(png)), x, y, w, h)

    def _push_clip(self, box: Rect) -> None:
        c = self.canvas
        c.saveState()
        p = c.beginPath()
        p.rect(box.x, box.y, box.w, box.h)
        c.clipPath(p, stroke=0, fill=0)

    def _pop_clip(self) -> None:
        self.canvas.restoreState()
