"""Keep Moving simulation figures (not a test).

* games per second with greedy bots on one core (the engine and the bots only), by the clock and
  per CPU second (the latter does not depend on what else the machine runs);
* games per second through the ``simulate keepmoving`` machinery (solver/runner.py, results
  file, worker processes) with ``--workers`` processes: the target is >= 500 greedy games/s on
  2 cores;
* the look-ahead bot's speed, for comparison.

    .venv/bin/python benchmarks/bench_keepmoving.py [--games 4000] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.solver.keepmoving.simulate import PLAYING, simulation
from tubedeck.solver.runner import run_check
from tubedeck.solver.simulation import play

TARGET = 500


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    ed = edition(get("keepmoving"))
    n = max(1, args.games // 4)
    t, cpu = time.perf_counter(), time.process_time()
    for seed in range(n):
        play(PLAYING, ed, 2, seed, ("greedy", "greedy"))
    one, per_cpu = n / (time.perf_counter() - t), n / (time.process_time() - cpu)
    # CPU time: what a free core would do, whatever else the machine is running
    print(f"greedy, one core, engine and bots only: {one:.0f} games/s wall, {per_cpu:.0f} per CPU second ({n} games)")
    with tempfile.TemporaryDirectory() as tmp:
        sim = simulation(ed, 2, bots="greedy")
        t = time.perf_counter()
        summary = run_check(sim, range(args.games), Path(tmp) / "sim.jsonl", args.workers, False)
        rate = args.games / (time.perf_counter() - t)
    status = "meets" if rate >= TARGET else "BELOW"
    print(f"greedy, simulate machinery, {args.workers} workers: {rate:.0f} games/s ({args.games} games; "
          f"{status} the {TARGET}/s target); median {summary.as_dict()['measures']['turns']['median']} turns played")
    m = 40
    t = time.perf_counter()
    for seed in range(m):
        play(PLAYING, ed, 2, seed, ("lookahead", "lookahead"))
    print(f"lookahead, one core: {m / (time.perf_counter() - t):.1f} games/s ({m} games)")


if __name__ == "__main__":
    main()
