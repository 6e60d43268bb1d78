"""The duplex calibration sheet: print it double-sided to measure how far your printer puts the
back side off the front, then pass the reading as ``--back-offset DX,DY``.

The front carries five crosshairs (A to E); the back, exactly behind each of them after the
flip (``--duplex long`` or ``short``), a scale from -8 to +8 mm in both directions. Hold the
sheet against a window or lamp, back side towards you and upright (its heading reads normally),
and read where each front crosshair's centre shows through on the back scale (or push a pin
through the front crosshair's centre and read the hole). That reading, right and up positive,
is what to *add* to the ``--back-offset`` the sheet was printed with (0,0 the first time):

* ``--back-offset DX,DY`` moves every back page DX mm to the right and DY mm up, as you look at
  the back side upright (the back page's own x and y). A cross showing through at +0.5 on the
  back's x scale and -1.0 on its y scale means: use ``--back-offset 0.5,-1``.

Print the sheet again with that offset: every crosshair should now show through at 0,0. Five
readings that disagree (more than ~0.5 mm) mean the printer also turns or stretches the back;
use the centre one (A), where the cards are.
"""

from __future__ import annotations

from functools import partial

from tubedeck.errors import UsageError

from .document import Pages
from .options import PrintOptions
from .pen import Pen
from .sizes import Paper, Rect

SCALE = 8  # mm each way on the back's scales
ARM = 12.0  # mm: half the length of a front crosshair's lines
INK, BLUE = "#000000", "#0019A8"
FRONT_HELP = (
    "1. Print this PDF double-sided (the setting your cards will use: flip on the {flip} edge), at 100% / "
    "actual size. 2. Hold the sheet against a window or a lamp with the BACK towards you, upright (its heading "
    "reads normally), or push a pin through the centre of each crosshair below. 3. On the back, read where the "
    "centre of crosshair A shows through: X across (right is +), Y up and down (up is +), in mm. 4. Build with "
    "--back-offset X,Y (add your reading to the offset this sheet was printed with: {offset}). Reprinted with "
    "that offset, every crosshair shows through at 0,0. Readings at B-E that differ from A by more than 0.5 mm "
    "mean the printer also turns or stretches the back: use A, at the centre, where the cards are.")
BACK_HELP = ("Read where the front's crosshairs show through, right (+X) and up (+Y) in mm. "
             "Printed with --duplex {duplex} --back-offset {offset}: use --back-offset X,Y = ({offset}) + your reading.")


def targets(paper: Paper) -> list[tuple[str, float, float]]:
    """The five crosshairs on the front page: (name, x, y) in page mm; A at the centre."""
    cx, cy = paper.width / 2, paper.height / 2
    dx, dy = paper.width / 2 - 40.0, paper.height / 4
    return [("A", cx, cy), ("B", cx - dx, cy + dy), ("C", cx + dx, cy + dy), ("D", cx - dx, cy - dy),
            ("E", cx + dx, cy - dy)]


def behind(paper: Paper, duplex: str, x: float, y: float, offset: tuple[float, float]) -> tuple[float, float]:
    """Where on the back page (its own mm) the front point (x, y) lies after the flip, as the
    engine places card backs: mirrored, then moved by the back offset."""
    x, y = (paper.width - x, y) if duplex == "long" else (x, paper.height - y)
    return x + offset[0], y + offset[1]


def _fmt(offset: tuple[float, float]) -> str:
    return f"{offset[0]:g},{offset[1]:g}"


def front_page(pen: Pen, paper: Paper, duplex: str, offset: tuple[float, float]) -> None:
    s = pen.safe
    pen.text(s.x, s.top - 5, "Duplex calibration: front", font="sans-bold", size=14, field="heading")
    flip = "long" if duplex == "long" else "short"
    pen.text_box(Rect(s.x, s.top - 40, s.w, 32), FRONT_HELP.format(flip=flip, offset=_fmt(offset)), size=9,
                 min_size=6, align="left", valign="top", field="instructions")
    for name, x, y in targets(paper):
        pen.circle(x, y, 3.0, stroke=INK, width=0.3)
        pen.line(x - ARM, y, x + ARM, y, stroke=INK, width=0.3)
        pen.line(x, y - ARM, x, y + ARM, stroke=INK, width=0.3)
        pen.text(x + 4, y + 4, name, font="sans-bold", size=12, field="target")


SCALE_PT = 6.0  # the scales' numbers: the smallest type anything prints in
LABEL_EVERY = 4  # mm between the scales' numbers (6 pt numbers need more than 2 mm)


def _scale(pen: Pen, x: float, y: float, name: str) -> None:
    """Two ruled axes crossing at (x, y): ticks every 0.5 mm (below the X axis, right of the Y
    axis; longer every mm, longest every 2 mm), numbers every 4 mm (:data:`SCALE_PT`), + to the
    right and up. The ticks fill the lower-right quadrant, so the numbers go in the others: the X
    axis' above it, the Y axis' left of it, clear of each other; the target's letter goes
    lower right, below the ticks."""
    pen.line(x - SCALE, y, x + SCALE, y, stroke=BLUE, width=0.15)
    pen.line(x, y - SCALE, x, y + SCALE, stroke=BLUE, width=0.15)
    for k in range(-2 * SCALE, 2 * SCALE + 1):
        v = k / 2
        tick = 1.6 if k % 4 == 0 else 1.0 if k % 2 == 0 else 0.6
        pen.line(x + v, y, x + v, y - tick, stroke=BLUE, width=0.1)
        pen.line(x, y + v, x + tick, y + v, stroke=BLUE, width=0.1)
        if k % (2 * LABEL_EVERY) == 0 and k:
            pen.text(x + v, y + 1.0, f"{v:g}", size=SCALE_PT, colour=BLUE, align="centre", field="scale")
            pen.text(x - 0.8, y + v - 0.75, f"{v:g}", size=SCALE_PT, colour=BLUE, align="right", field="scale")
    pen.text(x + SCALE + 1, y - 0.6, "+X", font="sans-bold", size=SCALE_PT, colour=BLUE, field="scale")
    pen.text(x, y + SCALE + 1.8, "+Y", font="sans-bold", size=SCALE_PT, colour=BLUE, align="centre", field="scale")
    pen.text(x + 3, y - 6.5, name, font="sans-bold", size=10, colour=BLUE, field="target")


def back_page(pen: Pen, paper: Paper, duplex: str, offset: tuple[float, float]) -> None:
    s = pen.safe
    pen.text(s.x, s.top - 5, "Duplex calibration: back (read here)", font="sans-bold", size=14, field="heading")
    pen.text_box(Rect(s.x, s.top - 20, s.w, 12), BACK_HELP.format(duplex=duplex, offset=_fmt(offset)), size=9,
                 min_size=6, align="left", valign="top", field="instructions")
    for name, x, y in targets(paper):
        _scale(pen, *behind(paper, duplex, x, y, offset), name)


def calibration_sheet(options: PrintOptions) -> Pages:
    """The two-page calibration document for the build's paper (portrait), ``--duplex`` flip and
    current ``--back-offset``; its PDF asks the viewer for that duplex flip."""
    if options.duplex == "none":
        raise UsageError("--duplex none: the calibration sheet is printed double-sided; use --duplex long or short")
    paper = options.paper.portrait
    duplex, offset = options.duplex, options.back_offset
    return Pages("calibration", (partial(front_page, paper=paper, duplex=duplex, offset=offset),
                                 partial(back_page, paper=paper, duplex=duplex, offset=offset)),
                 title="tubedeck duplex calibration", paper=paper, landscape=False, duplex=True)
