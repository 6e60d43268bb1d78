"""One Day in London solver figures (not a test): per-rack solve time on one core, and 1,000
four-player deals through `check oneday` machinery with 2 workers.

    .venv/bin/python benchmarks/bench_oneday.py [--racks 1000] [--deals 1000] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from solver.oneday import caps_for, solve_rack, state_space
from solver.oneday_check import DealChecker
from solver.runner import run_deals
from tubedeck.games.oneday import build_deck, deal, load_map


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--racks", type=int, default=1000)
    ap.add_argument("--cpsat-racks", type=int, default=30)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    gmap = load_map()
    deck = build_deck(gmap)
    space = state_space(gmap)
    copies = deck.copies()
    cases = []
    for seed in range(args.racks // 4 + 1):
        d = deal(deck, 4, seed)
        for p, rack in enumerate(d.racks):
            others = [c.station for q, r in enumerate(d.racks) if q != p for c in r]
            cases.append(([c.station for c in rack], caps_for(space, copies, others)))
    cases = cases[: args.racks]
    for engine, n in (("auto", len(cases)), ("cp-sat", args.cpsat_racks)):
        times, engines = [], Counter()
        for rack, caps in cases[:n]:
            t = time.perf_counter()
            sol = solve_rack(gmap, space, rack, caps, engine)
            times.append((time.perf_counter() - t) * 1000)
            engines[sol.engine] += 1
        times.sort()
        print(f"solve engine={engine:<6} racks={n:>5}  median {statistics.median(times):7.2f} ms  "
              f"p95 {times[int(0.95 * (n - 1))]:7.2f} ms  max {times[-1]:7.1f} ms  proved by {dict(engines)}")
    with tempfile.TemporaryDirectory() as tmp:
        checker = DealChecker(4)
        t = time.perf_counter()
        for _ in run_deals(checker, list(range(args.deals)), checker.header(0), Path(tmp) / "r.jsonl",
                           args.workers, progress=False):
            pass
        print(f"check: {args.deals} four-player deals, {args.workers} workers: {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
