"""How much a printed map reads as a diagram, measured from the PDF alone (PyMuPDF's drawings).

The line strokes are the drawings of a single straight segment in ink (not white, at least
``MIN_WIDTH`` mm wide: not hairlines, box sides or halos). For them: the share of stroke length
whose angle is a multiple of 45 degrees (to half a degree), and the points where two strokes cross
(more than ``NEAR_END`` from their ends). A test holds the printed maps to these and the benchmark reports them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MM = 72 / 25.4
MIN_WIDTH = 0.6  # mm
TOLERANCE = 0.5  # degrees


@dataclass(frozen=True)
class Reading:
    strokes: int
    length_mm: float
    octilinear_share: float  # of the stroke length, 0-1
    crossings: int  # pairs of strokes crossing away from their ends


def strokes(page, clip=None) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The ink line strokes on ``page`` (inside ``clip``, a PyMuPDF rect), as segments in mm."""
    out = []
    for d in page.get_drawings():
        items = d["items"]
        colour = d.get("color")
        if (len(items) != 1 or items[0][0] != "l" or colour is None or min(colour) > 0.98
                or (d.get("width") or 0) < MIN_WIDTH * MM):
            continue
        _, p, q = items[0]
        if clip is not None and not (clip.contains(p) and clip.contains(q)):
            continue
        out.append(((p.x / MM, p.y / MM), (q.x / MM, q.y / MM)))
    return out


NEAR_END = 4.0  # mm: strokes side by side fan out under a station's circle; a crossing there is none


def crossing_point(a, b, c, d, strict: bool = False):
    """Where segments ab and cd cross (None if they do not, or are parallel); ``strict``: only a
    point inside both, not at an end."""
    rx, ry, qx, qy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    den = rx * qy - ry * qx
    if abs(den) < 1e-12:
        return None
    t = ((c[0] - a[0]) * qy - (c[1] - a[1]) * qx) / den
    u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / den
    if (0.0 < t < 1.0 and 0.0 < u < 1.0) if strict else (0.0 <= t <= 1.0 and 0.0 <= u <= 1.0):
        return a[0] + t * rx, a[1] + t * ry
    return None


def _cross(a, b, c, d) -> bool:
    """Whether segments ab and cd cross at a point more than ``NEAR_END`` from all four ends."""
    x = crossing_point(a, b, c, d, strict=True)
    return x is not None and min(math.dist(x, e) for e in (a, b, c, d)) > NEAR_END


def read(page, clip=None) -> Reading:
    segs = strokes(page, clip)
    total = straight = 0.0
    for (x0, y0), (x1, y1) in segs:
        length = math.hypot(x1 - x0, y1 - y0)
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 45.0
        total += length
        if min(angle, 45.0 - angle) <= TOLERANCE:
            straight += length
    crossings = 0
    for i, (a, b) in enumerate(segs):
        for c, d in segs[:i]:
            if _cross(a, b, c, d):
                crossings += 1
    return Reading(len(segs), round(total, 1), straight / total if total else 0.0, crossings)


__all__ = ["Reading", "crossing_point", "read", "strokes"]
