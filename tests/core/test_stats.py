"""The summaries' small statistics: percentiles agree with the median however few the values."""

from __future__ import annotations

import random
import statistics

import pytest

from tubedeck.stats import percentile, quantile, wilson


def test_percentile_interpolates_like_the_median():
    assert percentile([36, 40], 0.1) == pytest.approx(36.4)
    assert percentile([36, 40], 0.9) == pytest.approx(39.6)
    assert 0.001 <= percentile([0.001, 0.002], 0.5) <= 0.002  # unrounded: tiny values keep their order
    assert percentile([7], 0.95) == 7
    assert percentile([1, 2, 3, 4, 5], 0.5) == 3 and isinstance(percentile([1, 2, 3, 4, 5], 0.5), int)
    rng = random.Random(0)
    for n in range(1, 40):
        values = sorted(rng.randint(0, 100) for _ in range(n))
        assert percentile(values, 0.5) == pytest.approx(statistics.median(values))
        assert values[0] <= percentile(values, 0.1) <= percentile(values, 0.5) <= percentile(values, 0.9) <= values[-1]
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_quantile_and_wilson():
    assert quantile({3: 1, 5: 1}, 0.5) == 3 and quantile({}, 0.5) is None
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.2 < hi < 0.35
