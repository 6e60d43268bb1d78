"""Tube Dice solo: the tail of ``solve dice`` (issue 26 item 3). Solves seeds 0..N-1 (default 100)
of 20 rolls on the default map with the default engine (``auto``: the exact target search, CP-SAT
taking over where it cannot prove) and prints the median, p95 and max wall time and how many were
proven, against the targets: median <= 0.1 s, p95 <= 5 s, all proven. Prints figures; no asserts.

    .venv/bin/python benchmarks/bench_dice_tail.py [--seeds 100] [--turns 20] [--time-limit 10]
        [--engine auto|cp-sat] [--scope SCOPE]

One core per solve (the target search is plain Python, CP-SAT runs one worker); the load of the
machine shows in the figures, so the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.games.dice.edition import load  # noqa: E402
from tubedeck.network import Network  # noqa: E402
from tubedeck.solver.dice.solve import solve_rolls  # noqa: E402

TARGET_MEDIAN, TARGET_P95 = 0.1, 5.0


def nearest_rank(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, round(q * (len(sorted_values) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="seeds 0..N-1")
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=10.0, help="wall-clock seconds per solve")
    parser.add_argument("--engine", default="auto", choices=("auto", "cp-sat"))
    parser.add_argument("--scope", default=None, help="another part of the network (default: the recipe's map)")
    parser.add_argument("--verbose", action="store_true", help="a line per seed")
    args = parser.parse_args()
    ed = load(Network.load(), scope=args.scope)
    times: list[float] = []
    statuses: dict[str, int] = {}
    by_engine: dict[str, int] = {}
    slow: list[tuple[float, int, str]] = []
    load_before = os.getloadavg()[0]
    for seed in range(args.seeds):
        start = time.perf_counter()
        sol = solve_rolls(ed, seed, args.turns, args.time_limit, args.engine)
        took = time.perf_counter() - start
        times.append(took)
        statuses[sol.status] = statuses.get(sol.status, 0) + 1
        if sol.status == "OPTIMAL":
            by_engine[sol.engine] = by_engine.get(sol.engine, 0) + 1
        slow.append((took, seed, f"{sol.status} {sol.result.score} (bound {sol.result.bound:g})"))
        if args.verbose:
            print(f"seed {seed}: {took:.3f} s, {sol.status} {sol.result.score} by {sol.engine}", flush=True)
    times.sort()
    median, p95 = statistics.median(times), nearest_rank(times, 0.95)
    proven = statuses.get("OPTIMAL", 0)
    print(f"solve dice --engine {args.engine}, {args.turns} rolls, seeds 0-{args.seeds - 1}, map "
          f"{ed.board.scope.label!r} ({len(ed.board.stations)} stations), --time-limit {args.time_limit:g}, "
          f"load average {load_before:.1f}-{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  median {median:.3f} s (target <= {TARGET_MEDIAN:g}), p95 {p95:.3f} s (target <= {TARGET_P95:g}), "
          f"max {times[-1]:.3f} s; proven {proven}/{args.seeds} (target all); statuses {statuses}; "
          f"proved by {by_engine}")
    print("  slowest: " + ", ".join(f"seed {s} {t:.2f} s {what}" for t, s, what in sorted(slow, reverse=True)[:5]))
    met = median <= TARGET_MEDIAN and p95 <= TARGET_P95 and proven == args.seeds
    print("  targets met" if met else "  targets NOT met")


if __name__ == "__main__":
    main()
