"""Games played by bots per second, through the same runner ``tubedeck simulate`` uses.

    .venv/bin/python benchmarks/bench_play.py [--games 400] [--oneday-games 60]

Keep London Moving with greedy players (default scope) and One Day in London with the lookahead
player, four players each, workers 1 and 2. Targets (issue 11): KLM >= 200 games/s and One Day
>= 20 games/s on 2 cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.solver.runner import run_deals  # noqa: E402
from tubedeck.solver.simulation import Simulation  # noqa: E402


def rate(job, games: int, workers: int) -> tuple[float, object]:
    summary = job.summary()
    start = time.perf_counter()
    for record in run_deals(job, list(range(games)), {}, None, workers, progress=False):
        summary.add(record)
    return games / (time.perf_counter() - start), summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--oneday-games", type=int, default=60)
    args = ap.parse_args()
    jobs = ((Simulation("tubedeck.solver.klm.simulate:PLAYING", 4, ("greedy",) * 4), args.games, "Keep London Moving, greedy"),
            (Simulation("tubedeck.solver.oneday.simulate:PLAYING", 4, ("lookahead",) * 4), args.oneday_games,
             "One Day in London, lookahead"))
    for job, games, name in jobs:
        job.edition()  # built before timing, as a command does before its first game
        for workers in (1, 2):
            r, summary = rate(job, games, workers)
            d = summary.as_dict()
            print(f"{name}, 4 players, workers={workers}: {r:7.1f} games/s over {games} games "
                  f"(median {d['measures']['turns']['median'] if 'measures' in d else d['median_turns']} turns)")


if __name__ == "__main__":
    main()
