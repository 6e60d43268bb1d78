"""Card backs read back under a duplex drift (moved here from ``tests/keepmoving/test_keepmoving_review.py``
so every game's test can use it): every colour seen on chosen cards' backs, each card as cut at
its nominal trim and 1 mm outside it (a miscut), from sheet pages built with a ``back_offset``.

A back that looks the same printed 1.5 mm off and cut 1 mm off shows one colour at its edges,
whatever the drift: see :data:`DRIFTS`. The backs are designed (``tubedeck.generator.identity``,
issue 44): one flat colour past the trim and the design inside the safe area, so by default only
the edge band is read, from 1 mm outside the trim to :data:`EDGE` mm inside it, where no design
reaches even drifted 1.5 mm (``edge=None`` reads the whole card)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pymupdf

from tubedeck.generator.layout import Layout
from tubedeck.generator.sizes import MM

# (dx, dy) mm: no drift, then 1.5 mm either way in x and y at once (--back-offset)
DRIFTS = ((0.0, 0.0), (1.5, 1.5), (-1.5, -1.5), (1.5, -1.5), (-1.5, 1.5))
# mm inside the trim the edge band reaches: the safe area's 4 mm, less the 1.5 mm drift and 0.5 to spare
EDGE = 2.0


def back_colours(data: bytes, nominal: Layout, cards: Iterable[int],
                 edge: float | None = EDGE) -> tuple[int, set[tuple[int, ...]]]:
    """How many card backs were looked at and every colour seen on them: ``data`` a sheets PDF
    (fronts and backs interleaved) built with the drift as its back_offset, ``cards`` the indices
    (in the PDF's card order) of the cards to read, each as cut at its nominal trim (``nominal``:
    the layout without drift) and 1 mm outside it, the pixels whose centres fall inside (50 dpi:
    0.25 mm from a pixel's centre to its edge) and, with ``edge``, outside the trim shrunk by
    ``edge`` mm (the band a drifted design never reaches)."""
    dpi, seen, count = 50, set(), 0
    by_sheet: dict[int, list[int]] = {}
    for i in cards:
        by_sheet.setdefault(i // nominal.per_page, []).append(i % nominal.per_page)
    with pymupdf.open(stream=data) as pdf:
        for sheet, slots in sorted(by_sheet.items()):
            page = pdf[2 * sheet + 1]
            pix = page.get_pixmap(dpi=dpi, alpha=False)
            rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).astype(np.int32)
            px = (rgb[:, :, 0] << 16) | (rgb[:, :, 1] << 8) | rgb[:, :, 2]
            xs = (np.arange(pix.width) + 0.5) * 25.4 / dpi
            ys = page.rect.height / MM - (np.arange(pix.height) + 0.5) * 25.4 / dpi  # mm up from the foot
            for slot in (nominal.backs[k] for k in slots):
                count += 1
                for cut in (slot.trim, slot.trim.inset(-1.0)):
                    inside = ((xs > cut.x) & (xs < cut.right))[None, :] & ((ys > cut.y) & (ys < cut.top))[:, None]
                    if edge is not None:
                        core = slot.trim.inset(edge)
                        inside &= ~(((xs > core.x) & (xs < core.right))[None, :]
                                    & ((ys > core.y) & (ys < core.top))[:, None])
                    seen |= {(v >> 16, (v >> 8) & 255, v & 255) for v in np.unique(px[inside]).tolist()}
    return count, seen


def near_colour(seen: set[tuple[int, ...]], colour: str) -> bool:
    """Whether every colour ``seen`` (0-255 channels) is within 2 levels of ``colour`` (#RRGGBB)."""
    want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return all(max(abs(a - b) for a, b in zip(c, want)) <= 2 for c in seen)
