"""The whole game's root gap per seed: the best game found against the column bound (the root of
a branch and price), with the cuts of :mod:`research.nextstation.cuts` and, with ``--compare``,
without them in the same run (same game, same iterations: the cuts' own effect).

    PYTHONPATH=. python research/nextstation/benchmarks/bench_gap.py [--seeds 0-19] [--iterations 25] [--kicks 5]
        [--time-limit 300] [--compare] [--map classic|SEED]

Per seed: the best-response game (``--kicks`` kicks of iterated local search; the same game on any
machine unless the time limit cuts it), then ``--iterations`` column-generation iterations from
it (a fixed count: the same bound anywhere, unless ``--time-limit``, wall-clock seconds for each
bound, stops it first: marked ``cut``). Gap = (bound - best) / best, best the better of the game
found and the game stored for the seed in data/nextstation/challenges.csv. Prints one row per seed
as it goes, then medians; every bound is checked never below either game (a bound below a real
game is a bug: the run fails). ``--cuts``: the relaxations to run (:data:`~research.nextstation.cuts.CUTS`). Progress on stderr (a line every 10 s when redirected).
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time

from research.nextstation.columns import column_bound
from research.nextstation.cuts import CUTS
from research.nextstation.whole import rounds_of
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.responses import search_responses
from tubedeck.progress import Progress
from tubedeck.solver.nextstation.engines import Budget

STORED = "data/nextstation/challenges.csv"  # the best games stored for the challenge seeds


def stored_games(name: str) -> dict[int, int]:
    """Seed -> the best game stored for it on map ``name`` (none if the file is missing)."""
    try:
        with open(STORED, newline="") as f:
            return {int(row["seed"]): int(row["score"]) for row in csv.DictReader(f)
                    if row["map"] == name and row["score"]}
    except FileNotFoundError:
        return {}


def seeds_of(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-19")
    ap.add_argument("--iterations", type=int, default=25)
    ap.add_argument("--kicks", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=300.0, help="wall-clock seconds for each bound")
    ap.add_argument("--compare", action="store_true", help="also the bound without the cuts ('none')")
    ap.add_argument("--cuts", default="entries", help=f"the relaxations to run, comma-separated, of {', '.join(CUTS)}")
    ap.add_argument("--map", default=None, help="classic (default) or a generated map's seed")
    args = ap.parse_args(argv)
    ed = load(None) if args.map in (None, "classic") else load(None, map=args.map)
    board, book = ed.board, ed.book
    print(f"# cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}; iterations {args.iterations}, "
          f"kicks {args.kicks}, time limit {args.time_limit:g} s a bound", flush=True)
    modes = args.cuts.split(",") + (["none"] if args.compare and "none" not in args.cuts.split(",") else [])
    for m in modes:
        if m not in CUTS:
            ap.error(f"--cuts: {m!r} is none of {', '.join(CUTS)}")
    stored = stored_games("classic" if args.map in (None, "classic") else str(args.map))
    print("seed | found | stored | " + " | ".join(f"bound ({m}) | gap | s" for m in modes), flush=True)
    gaps: dict[str, list[float]] = {m: [] for m in modes}
    bad = 0
    for seed in seeds_of(args.seeds):
        rounds, _, _ = rounds_of(ed, seed)
        with Progress(f"gap seed {seed}") as shown:
            shown.update(phase="best responses")
            game = search_responses(board, book, rounds, args.kicks)
            known = stored.get(seed)
            best = max(game.total, known or 0)
            row = [str(seed), str(game.total), "-" if known is None else str(known)]
            for cuts in modes:
                shown.update(phase=f"column bound ({cuts})", best=game.total)
                budget = Budget.of(args.time_limit, None, shown)
                cb = column_bound(board, book, rounds, (game.draws,), args.iterations, budget, cuts=cuts)
                if cb.bound is None:
                    row += ["-", "-", f"{cb.wall:.0f}"]
                    continue
                if cb.bound < best:
                    bad += 1
                    print(f"BOUND BELOW A GAME: seed {seed}, cuts {cuts}: {cb.bound} < {best}", flush=True)
                gap = (cb.bound - best) / best
                gaps[cuts].append(gap)
                row += [f"{cb.bound}{' cut' if budget.wall_cut else ''}", f"{100 * gap:.1f}%", f"{cb.wall:.0f}"]
        print(" | ".join(row), flush=True)
    for cuts in modes:
        if gaps[cuts]:
            print(f"# median gap ({cuts}): {100 * statistics.median(gaps[cuts]):.1f}% over {len(gaps[cuts])} seeds",
                  flush=True)
    print(f"# load at the end {os.getloadavg()[0]:.1f}; {time.process_time():.0f} s CPU", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
