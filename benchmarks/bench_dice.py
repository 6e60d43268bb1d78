"""Tube Dice figures: simulated games per second (target >= 100 four-player greedy games/s on 2
cores) and the solo solver's time on 10- and 20-turn sequences, per engine (target: 20 turns
proven in a median of 5 s on one core). Prints figures; no asserts.

    .venv/bin/python benchmarks/bench_dice.py [--games 600] [--workers 2] [--solver-seeds 20]
        [--engines auto,cp-sat] [--no-simulate]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.game import edition  # noqa: E402
from tubedeck.games import get  # noqa: E402
from tubedeck.solver.runner import run_check  # noqa: E402


def simulation_rate(games: int, workers: int, players: int = 4) -> float:
    from tubedeck.solver.dice.simulate import simulation

    ed = edition(get("dice"))
    check = simulation(ed, players, bots="greedy")
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        run_check(check, range(games), Path(tmp) / "r.jsonl", workers, progress=False)
        return games / (time.perf_counter() - start)


def solver_times(turns: int, seeds: int, limit: float = 60.0, engine: str = "cp-sat") -> list[tuple[float, str]]:
    try:
        from tubedeck.solver.dice.solve import solve_rolls
    except ImportError:
        return []
    ed = edition(get("dice"))
    out = []
    for seed in range(seeds):
        start = time.perf_counter()
        result = solve_rolls(ed, seed, turns, time_limit=limit, engine=engine)
        out.append((time.perf_counter() - start, result.status))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--solver-seeds", type=int, default=20, help="seeds 0..N-1")
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=60.0, help="per solve (auto: both engines together)")
    parser.add_argument("--engines", default="auto,cp-sat")
    parser.add_argument("--no-simulate", action="store_true")
    args = parser.parse_args()
    if not args.no_simulate:
        rates = [simulation_rate(args.games, args.workers) for _ in range(3)]
        print(f"simulate dice, 4 greedy players, {args.games} games, {args.workers} workers: "
              f"{min(rates):.0f}-{max(rates):.0f} games/s (target >= 100)")
    for engine in args.engines.split(","):
        for turns in (10, args.turns):
            report(turns, solver_times(turns, args.solver_seeds, args.time_limit, engine), engine)


def report(turns: int, times: list, engine: str = "cp-sat") -> None:
    if times:
        secs = [t for t, _ in times]
        statuses = {s: sum(1 for _, x in times if x == s) for _, s in times}
        p95 = sorted(secs)[min(len(secs) - 1, round(0.95 * (len(secs) - 1)))]  # nearest rank
        print(f"solve dice --engine {engine}, {turns} turns, {len(times)} seeds, one core: median {statistics.median(secs):.2f} s, "
              f"p95 {p95:.2f} s, max {max(secs):.2f} s, statuses {statuses} (target median <= 5 s)")


if __name__ == "__main__":
    main()
