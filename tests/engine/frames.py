"""Frame padding read back from a built PDF: how far each line of text sits inside the frame
round it (the quality bar: at least 1.5 mm inside any frame, on every card size).

A **frame** is a closed stroked outline drawn on a page (a card's tunnel/open-section outline, a
back's border, a Play Field slot, a Fortune Card's turns disc): any shape with a stroke whose
box is at least :data:`BADGE_MM` both ways. Smaller stroked shapes are badges and chips (a
Connection Number's pill, a zone chip): they are the label's own shape, not a frame round other
content, and are left out (``tests/engine/test_faces_quality.py`` holds them apart instead).

Text is measured by its ink, not its font box: the span's advance box across, and from
:data:`ASCENT` of its size above the baseline to the baseline, or :data:`DESCENT` below it when
the text has a letter that descends (Vera's ascender and descender ink), so a digit in a disc is
measured where it is drawn. The distance is to the
inner edge of the frame's stroke (half the stroke width off its centre line), negative where
the text crosses the frame. Used by ``tests/engine/test_frame_padding.py`` for every game's
faces; any game's test can call :func:`paddings` on its own pages.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MM = 72 / 25.4  # PDF points per millimetre
BADGE_MM = 12.0  # a stroked shape smaller than this either way is a badge or a chip, not a frame
ASCENT, DESCENT = 0.76, 0.24  # ink above / below the baseline, in ems (Vera: 'l' 0.76, 'g' 0.24)
DESCENDERS = frozenset("gjpqyQ,;()[]{}|/_@$")
STEP_MM = 0.1  # the frame's outline is sampled this finely


@dataclass(frozen=True)
class Padding:
    """One text span inside one frame: the gap (mm) from its ink to the frame's inner edge."""

    page: int  # 1-based
    text: str
    frame: tuple[float, float, float, float]  # the frame's box in mm (x0, y0, x1, y1; y down)
    mm: float  # negative: the text crosses the frame


def _points(item: tuple) -> list[tuple[float, float]]:
    """An outline item as points: lines, cubic curves (sampled), rectangles and quads."""
    kind = item[0]
    if kind == "l":
        return [(item[1].x, item[1].y), (item[2].x, item[2].y)]
    if kind == "c":
        p0, p1, p2, p3 = (np.array([p.x, p.y]) for p in item[1:5])
        ts = np.linspace(0.0, 1.0, 17)
        return [tuple((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3)
                for t in ts]
    if kind == "re":
        r = item[1]
        return [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1), (r.x0, r.y0)]
    if kind == "qu":
        q = item[1]
        return [(q.ul.x, q.ul.y), (q.ur.x, q.ur.y), (q.lr.x, q.lr.y), (q.ll.x, q.ll.y), (q.ul.x, q.ul.y)]
    return []


def _dense(points: list[tuple[float, float]]) -> np.ndarray:
    """The polyline through ``points`` sampled every :data:`STEP_MM` (in pt)."""
    out = []
    step = STEP_MM * MM
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(1, int(np.hypot(x1 - x0, y1 - y0) / step))
        t = np.arange(n) / n
        out.append(np.column_stack((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)))
    out.append(np.array([points[-1]]))
    return np.concatenate(out)


def _inside(poly: np.ndarray, x: float, y: float) -> bool:
    """Even-odd point in polygon."""
    xs, ys = poly[:, 0], poly[:, 1]
    xj, yj = np.roll(xs, 1), np.roll(ys, 1)
    crosses = ((ys > y) != (yj > y)) & (x < (xj - xs) * (y - ys) / np.where(yj == ys, 1e-12, yj - ys) + xs)
    return bool(np.count_nonzero(crosses) % 2)


@dataclass(frozen=True)
class Frame:
    outline: np.ndarray  # dense points round the stroke's centre line (pt)
    half: float  # half the stroke width (pt)
    box: tuple[float, float, float, float]  # pt


def frames(page) -> list[Frame]:
    """The closed stroked outlines of ``page`` at least :data:`BADGE_MM` both ways."""
    out = []
    for d in page.get_drawings():
        if d["type"] not in ("s", "fs") or not d.get("color"):
            continue
        r = d["rect"]
        if r.width < BADGE_MM * MM or r.height < BADGE_MM * MM:
            continue
        points = [p for item in d["items"] for p in _points(item)]
        if len(points) < 3 or np.hypot(points[0][0] - points[-1][0], points[0][1] - points[-1][1]) > 0.5 * MM:
            continue  # open: a line, not a frame
        out.append(Frame(_dense(points), (d.get("width") or 0.0) / 2, (r.x0, r.y0, r.x1, r.y1)))
    return out


def ink_box(span: dict) -> tuple[float, float, float, float]:
    """A span's ink box (pt, y down): its advance box across, ascent to baseline (or descent)."""
    x0, _, x1, _ = span["bbox"]
    y, size = span["origin"][1], span["size"]
    return x0, y - ASCENT * size, x1, y + (DESCENT * size if DESCENDERS & set(span["text"]) else 0.0)


def _gap(frame: Frame, box: tuple[float, float, float, float]) -> float | None:
    """The gap (pt) from ``box`` to the frame's inner edge; None when the box is not inside it."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    fx0, fy0, fx1, fy1 = frame.box
    if not (fx0 < cx < fx1 and fy0 < cy < fy1) or not _inside(frame.outline, cx, cy):
        return None
    px, py = frame.outline[:, 0], frame.outline[:, 1]
    dx = np.maximum(np.maximum(x0 - px, px - x1), 0.0)
    dy = np.maximum(np.maximum(y0 - py, py - y1), 0.0)
    gap = float(np.min(np.hypot(dx, dy))) - frame.half
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    if gap > 0 and all(_inside(frame.outline, x, y) for x, y in corners):
        return gap
    return -abs(gap) if gap > 0 else gap  # the outline runs through the text, or the text sticks out


def paddings(page, number: int = 1) -> list[Padding]:
    """Every text span inside a frame on ``page``, with its gap to that frame (mm)."""
    spans = [s for b in page.get_text("dict")["blocks"] for ln in b.get("lines", []) for s in ln["spans"]
             if s["text"].strip()]
    out = []
    for f in frames(page):
        for s in spans:
            gap = _gap(f, ink_box(s))
            if gap is not None:
                out.append(Padding(number, s["text"], tuple(round(v / MM, 2) for v in f.box), gap / MM))
    return out
