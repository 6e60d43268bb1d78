"""One Day in London solver figures (not a test).

* per-rack solve time on one core (CP-SAT ``num_workers=1``) for the default engine (``cp-sat``:
  CP-SAT decides every rack) and, for comparison, ``auto`` (exact bound first), on the racks of
  seeded four-player deals (each player's rack, the other racks unobtainable);
* the share of racks decided by CP-SAT and their statuses;
* 1,000 four-player deals through the ``check oneday`` machinery with 2 worker processes.

    .venv/bin/python benchmarks/bench_oneday.py [--racks 1000] [--deals 1000] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.solver.oneday.check import DealChecker
from tubedeck.solver.oneday.exchanges import caps_for, solve_rack, space_of
from tubedeck.solver.runner import run_deals
from tubedeck.stats import percentile


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--racks", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engines", default="cp-sat,auto", help="comma-separated; the first is the default engine")
    args = ap.parse_args()
    ed = edition(get("oneday"))
    gmap, deck = ed.board, ed.deck
    space = space_of(ed)
    space.template()  # built once per map; not part of a rack's time
    copies = deck.copies()
    cases = []
    for seed in range(args.racks // 4 + 1):
        d = ed.deal(4, seed)
        for p, rack in enumerate(d.racks):
            others = [c.station for q, r in enumerate(d.racks) if q != p for c in r]
            cases.append(([c.station for c in rack], caps_for(space, copies, others)))
    cases = cases[: args.racks]
    answers = {}
    for engine in args.engines.split(","):
        times, engines, statuses = [], Counter(), Counter()
        for i, (rack, caps) in enumerate(cases):
            t = time.perf_counter()
            sol = solve_rack(gmap, space, rack, caps, engine)
            times.append((time.perf_counter() - t) * 1000)
            engines[sol.engine] += 1
            statuses[sol.status] += 1
            answers.setdefault(i, set()).add(sol.exchanges)
        times.sort()
        n = len(times)
        cp = sum(v for k, v in engines.items() if k.startswith("cp-sat"))
        print(f"solve engine={engine:<6} racks={n:>5}  median {statistics.median(times):6.2f} ms  "
              f"p95 {percentile(times, 0.95):6.2f} ms  max {times[-1]:6.1f} ms  "
              f"mean {statistics.fmean(times):6.2f} ms  "
              f"decided by CP-SAT {100 * cp / n:5.1f}%  {dict(engines)}  {dict(statuses)}")
    disagree = [i for i, a in answers.items() if len(a) > 1]
    print(f"engines disagree on {len(disagree)} of {len(cases)} racks")
    with tempfile.TemporaryDirectory() as tmp:
        checker = DealChecker(4)
        t = time.perf_counter()
        for _ in run_deals(checker, list(range(args.deals)), checker.header(), Path(tmp) / "r.jsonl",
                           args.workers, progress=False):
            pass
        print(f"check: {args.deals} four-player deals, engine={checker.engine}, {args.workers} workers: "
              f"{time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
