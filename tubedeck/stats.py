"""Small statistics every summary uses: a quantile of a value -> count table, a percentile of
sorted values, and the 95% Wilson score interval of a share (sound at small counts and at 0% or
100%, unlike p +/- 2 se)."""

from __future__ import annotations

import math
from typing import Mapping, Sequence


def quantile(counts: Mapping[int, int], q: float) -> int | None:
    """The ``q`` quantile (0-1) of a value -> count histogram (None when empty)."""
    total = sum(counts.values())
    if not total:
        return None
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= q * total:
            return value
    return max(counts)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted ``values``, interpolated between neighbours as the
    median is (so p10 <= median <= p90 however few the values; a lower index alone gave
    p95 below the median of two)."""
    if not values:
        raise ValueError("percentile of no values")
    at = q * (len(values) - 1)
    lo = math.floor(at)
    hi = min(lo + 1, len(values) - 1)
    if at == lo:
        return values[lo]
    return values[lo] + (values[hi] - values[lo]) * (at - lo)  # (round for show where shown)


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n``: always ``lo <= k/n <= hi`` within
    [0, 1] (rounding put the upper end of 6 wins in 6 at 0.9999999999999999, below the share)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    share = min(max(p, 0.0), 1.0)
    return min(max(0.0, centre - half), share), max(min(1.0, centre + half), share)
