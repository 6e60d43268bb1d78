"""The pair bound per seed (issue 25): every line of each round listed, the plain relaxation over
them (exact pricing by a scan of the tables), then the pair rows for the time left.

    python benchmarks/bench_nextstation_pairs.py [--seeds 0-9] [--time-limit 600] [--plain-only]
        [--scan 20] [--json FILE]

Per seed, from the game stored in data/nextstation/challenges.csv (its score is the gap's
reference; seeds without a stored game are skipped): the lines listed and the seconds it took,
the plain bound and the seconds to settle it, then the pair bound, its last master's value (the
relaxation's own value once settled; before, not a bound) and iterations, and the gaps
(bound - game) / game. Every bound is checked never below the stored game (a bound below a real
game is a bug: the run fails). Wall-clock figures move with the machine's load: compare runs
side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bench_nextstation_branch import pct, stored_game  # (this folder: benchmarks run as scripts)
from bench_nextstation_gap import seeds_of

from solver.nextstation.game import rounds_of
from solver.nextstation.pairs import pair_bound, tables
from tubedeck.atomic import atomic_open
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.responses import lines_of
from tubedeck.games.nextstation.scoring import final_score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--time-limit", type=float, default=600.0, help="wall-clock seconds a seed, listing included")
    ap.add_argument("--plain-only", action="store_true", help="the plain relaxation alone")
    ap.add_argument("--scan", type=float, default=20.0, help="seconds a pair's scan may take an iteration")
    ap.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = ap.parse_args(argv)
    ed = load(None)
    board, book = ed.board, ed.book
    rows = []
    print("seed  game  lines(k)  list s  plain  s      pairs  lp      it  s      gap plain  gap pairs", flush=True)
    for seed in seeds_of(args.seeds):
        draws = stored_game(ed, seed)
        if draws is None:
            continue
        rounds, _, _ = rounds_of(ed, seed)
        game = final_score(board, book, *lines_of(board, rounds, draws)).total
        t0 = time.perf_counter()
        tabs = tables(board, book, rounds)
        listed = time.perf_counter() - t0
        plain = pair_bound(board, book, rounds, (draws,), pairs=False, tabs=tabs)
        left = args.time_limit - (time.perf_counter() - t0)
        paired = None if args.plain_only or left <= 0 else \
            pair_bound(board, book, rounds, (draws,), time_limit=left, tabs=tabs, scan=args.scan)
        for got in (plain, paired):
            if got is not None and got.bound < game:
                print(f"seed {seed}: bound {got.bound} below the game {game}: a bug", file=sys.stderr)
                return 1
        row = {"seed": seed, "game": game, "lines": sum(t.n for t in tabs), "list_seconds": round(listed, 1),
               "plain": plain.bound, "plain_seconds": round(plain.wall, 1), "plain_gap": (plain.bound - game) / game,
               "pairs": None if paired is None else paired.bound,
               "pairs_lp": None if paired is None else round(paired.lp, 2),
               "pairs_iterations": None if paired is None else paired.iterations,
               "pairs_seconds": None if paired is None else round(paired.wall, 1),
               "pairs_gap": None if paired is None else (paired.bound - game) / game,
               "proven": paired is not None and paired.proven}
        rows.append(row)
        print(f"{seed:<5} {game:<5} {row['lines'] // 1000:<9} {listed:<7.1f} {plain.bound:<6} {plain.wall:<6.1f} "
              + ("-" if paired is None else f"{paired.bound:<6} {paired.lp:<7.2f} {paired.iterations:<3} {paired.wall:<6.0f}")
              + f" {pct(row['plain_gap'])}" + ("" if paired is None else f"  {pct(row['pairs_gap'])}"), flush=True)
    if rows:
        print(f"median gap, plain: {pct(statistics.median(r['plain_gap'] for r in rows))}", end="")
        paired_rows = [r for r in rows if r["pairs_gap"] is not None]
        if paired_rows:
            print(f"; with pairs: {pct(statistics.median(r['pairs_gap'] for r in paired_rows))} (target 10%); "
                  f"proven {sum(r['proven'] for r in rows)} of {len(rows)}", end="")
        print()
    if args.json:
        with atomic_open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
