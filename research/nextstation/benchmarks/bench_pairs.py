"""The root bound by tables per seed (issue 25): every line of each round listed, branch and
price's root relaxation priced by a scan of them (:func:`research.nextstation.pairs.table_bound`),
then, with ``--pairs``, the pair rows for the time left (:func:`~research.nextstation.pairs.pair_bound`).

    PYTHONPATH=. python research/nextstation/benchmarks/bench_pairs.py [--seeds 0-9] [--time-limit 600] [--cuts entries]
        [--clash N] [--pairs] [--scan 20] [--json FILE]

Per seed, from the game stored in data/nextstation/challenges.csv (its score is the gap's
reference, its bound the one to beat; seeds without a stored game are skipped): the lines listed
(a round past 8 million lines, `pairs.LIMIT`, or past what half the memory available holds, `pairs.line_budget`, is priced by the round search) and the seconds it took, the root
bound and the seconds to it (settled or cut by the time limit; with ``--clash N``, N rounds of cuts
between two rounds' lines, :mod:`research.nextstation.clash`), then the pair bound, its last
master's value (the relaxation's own value once settled; before, not a bound) and iterations, and
the gaps (bound - game) / game. Every bound is checked never below the stored game (a bound below a
real game is a bug: the run fails). Wall-clock figures move with the machine's load: compare runs
side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench_branch import STORED, pct, stored_game  # (this folder: benchmarks run as scripts)
from bench_gap import seeds_of

from research.nextstation.challenges import read_rows
from research.nextstation.clash import CLASH_ROUNDS
from research.nextstation.pairs import pair_bound, some_tables, table_bound
from research.nextstation.whole import rounds_of
from tubedeck.atomic import atomic_open
from tubedeck.games.nextstation.challenge import CLASSIC
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.responses import lines_of
from tubedeck.games.nextstation.scoring import final_score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--time-limit", type=float, default=600.0, help="wall-clock seconds a seed, listing included")
    ap.add_argument("--cuts", default="entries", choices=["none", "patterns", "entries"])
    ap.add_argument("--clash", type=int, default=CLASH_ROUNDS,
                    help="rounds of cuts between two rounds' lines at the root (0: none)")
    ap.add_argument("--pairs", action="store_true", help="then the pair bound for the time left")
    ap.add_argument("--scan", type=float, default=20.0, help="seconds a pair's scan may take an iteration")
    ap.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = ap.parse_args(argv)
    ed = load(None)
    board, book = ed.board, ed.book
    rows = []
    stored = read_rows(STORED)
    print("seed  game  stored bound  lines(k)  list s  root  s      pairs  lp      it  s      gap root  gap pairs",
          flush=True)
    for seed in seeds_of(args.seeds):
        draws = stored_game(ed, seed)
        if draws is None:
            continue
        rounds, _, _ = rounds_of(ed, seed)
        game = final_score(board, book, *lines_of(board, rounds, draws)).total
        t0 = time.perf_counter()
        tabs = some_tables(board, book, rounds, time_limit=args.time_limit / 2)
        listed = time.perf_counter() - t0
        plain = table_bound(board, book, rounds, (draws,), args.cuts, tabs,
                            time_limit=args.time_limit - (time.perf_counter() - t0), clash=args.clash)
        left = args.time_limit - (time.perf_counter() - t0)
        whole = [t for t in tabs if t is not None]
        paired = None if not args.pairs or left <= 0 or len(whole) < len(tabs) else \
            pair_bound(board, book, rounds, (draws,), time_limit=left, tabs=whole, scan=args.scan)
        for got in (plain, paired):
            if got is not None and got.bound is not None and got.bound < game:
                print(f"seed {seed}: bound {got.bound} below the game {game}: a bug", file=sys.stderr)
                return 1
        old = int(stored[CLASSIC, str(seed)][4])

        def gap(bound: int | None, game: int = game) -> float | None:
            return None if bound is None else (bound - game) / game
        row: dict[str, Any] = {
               "seed": seed, "clash": args.clash, "game": game, "stored_bound": old, "lines": [0 if t is None else t.n for t in tabs],
               "list_seconds": round(listed, 1), "plain": plain.bound, "plain_seconds": round(plain.wall, 1),
               "plain_settled": plain.settled, "plain_gap": gap(plain.bound),
               "pairs": None if paired is None else paired.bound,
               "pairs_lp": None if paired is None else round(paired.lp, 2),
               "pairs_iterations": None if paired is None else paired.iterations,
               "pairs_seconds": None if paired is None else round(paired.wall, 1),
               "pairs_gap": None if paired is None else gap(paired.bound),
               "proven": paired is not None and paired.proven}
        rows.append(row)
        kilo = "/".join("-" if t is None else str(t.n // 1000) for t in tabs)
        print(f"{seed:<5} {game:<5} {old:<13} {kilo:<9} {listed:<7.1f} {str(plain.bound):<5} {plain.wall:<6.1f} "
              + ("-" if paired is None else f"{str(paired.bound):<6} {paired.lp:<7.2f} {paired.iterations:<3} {paired.wall:<6.0f}")
              + f" {pct(row['plain_gap'])}" + ("" if row["pairs_gap"] is None else f"  {pct(row['pairs_gap'])}"),
              flush=True)
    if rows:
        plain_rows = [r for r in rows if r["plain_gap"] is not None]
        print(f"median gap, plain: {pct(statistics.median(r['plain_gap'] for r in plain_rows)) if plain_rows else '-'}",
              end="")
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
