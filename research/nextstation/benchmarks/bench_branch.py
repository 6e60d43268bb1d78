"""The whole-game proof per seed (issue 25): branch and price from the best game known, its root
gap and its gap at the time limit.

    PYTHONPATH=. python research/nextstation/benchmarks/bench_branch.py [--seeds 0-19] [--time-limit 600] [--kicks 5]
        [--root-iterations 50] [--cuts patterns|entries|none] [--search] [--clash N] [--json FILE]

Per seed: the start game is the better of the best-response game (``--kicks`` kicks) and the game
stored for the seed in data/nextstation/challenges.csv (its drawing); then every line of each round
is listed (:func:`research.nextstation.pairs.some_tables`, at most half the limit; a round past
8 million lines (`pairs.LIMIT`), or past what half the memory available holds (`pairs.line_budget`), is
left to the round search) and
:func:`research.nextstation.branch.branch_and_price` prices by a scan of them (``--search``: by the
round search alone, nothing listed) for the rest of ``--time-limit`` wall-clock seconds. Printed
per seed as it goes: the start, the best game found, the root bound (when the root was branched,
or its bound so far when the limit cut it) and root gap, the final bound and gap, nodes, seconds,
OPTIMAL when proven. Then the medians against the targets (root gap <= 10%, gap at 10 minutes <=
3%). Gap = (bound - best) / best. Every bound is checked never below the start game (a bound below
a real game is a bug: the run fails). The machine is noisy: the bound at a wall-clock limit moves
with its load; compare runs side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bench_gap import seeds_of  # (this folder: benchmarks run as scripts)

from research.nextstation.branch import Snapshot, branch_and_price
from research.nextstation.challenges import read_rows, stored_draws
from research.nextstation.clash import CLASH_ROUNDS
from research.nextstation.pairs import some_tables
from research.nextstation.whole import rounds_of
from tubedeck.atomic import atomic_open
from tubedeck.content import content
from tubedeck.games.nextstation.challenge import CLASSIC
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.responses import lines_of, search_responses
from tubedeck.games.nextstation.scoring import final_score

STORED = content("nextstation", "challenges.csv")


def stored_game(ed, seed: int):
    """The draws of the game stored for a classic seed (None: none stored)."""
    row = read_rows(STORED).get((CLASSIC, str(seed)))
    return None if row is None else stored_draws(ed, row)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-19")
    ap.add_argument("--time-limit", type=float, default=600.0, help="wall-clock seconds a seed")
    ap.add_argument("--kicks", type=int, default=5)
    ap.add_argument("--root-iterations", type=int, default=50)
    ap.add_argument("--cuts", choices=("none", "patterns", "entries"), default="entries",
                    help="the interchange relaxation (patterns: the fastest nodes, entries: the tighter root)")
    ap.add_argument("--search", action="store_true", help="price by the round search, no lines listed")
    ap.add_argument("--clash", type=int, default=CLASH_ROUNDS,
                    help="rounds of cuts between two rounds' lines the root separates (solver/nextstation/clash.py)")
    ap.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = ap.parse_args(argv)
    ed = load(None)
    board, book = ed.board, ed.book
    rows = []
    print("seed  start  best  root  root-gap  bound   gap  nodes  seconds  status", flush=True)
    for seed in seeds_of(args.seeds):
        rounds, _, _ = rounds_of(ed, seed)
        games = [search_responses(board, book, rounds, args.kicks).draws]
        stored = stored_game(ed, seed)
        if stored is not None:
            games.append(stored)
        start = max(final_score(board, book, *lines_of(board, rounds, g)).total for g in games)
        first: list[Snapshot] = []
        t0 = time.perf_counter()
        tabs = [] if args.search else some_tables(board, book, rounds, time_limit=args.time_limit / 2)
        listed = time.perf_counter() - t0

        def at_root(s: Snapshot, seen: list[Snapshot] = first) -> None:
            if s.nodes <= 1:
                seen.append(s)

        got = branch_and_price(board, book, rounds, games, time_limit=args.time_limit - listed,
                               root_iterations=args.root_iterations, cuts=args.cuts, tables=tabs, clash=args.clash,
                               progress=at_root)
        root = got.root_bound if got.root_bound is not None else min((s.bound for s in first), default=got.bound)
        if got.bound < start or root < start:
            print(f"seed {seed}: a bound below a real game ({got.bound}, root {root} < {start})", file=sys.stderr)
            return 1
        row = {"seed": seed, "start": start, "best": got.score, "root_bound": root,
               "root_gap": (root - got.score) / got.score, "bound": got.bound, "gap": got.gap,
               "nodes": got.nodes, "seconds": round(listed + got.wall, 1), "list_seconds": round(listed, 1),
               "status": got.status}
        rows.append(row)
        print(f"{seed:>4}  {start:>5}  {got.score:>4}  {root:>4}  {pct(row['root_gap']):>8}  {got.bound:>5}  "
              f"{pct(got.gap):>5}  {got.nodes:>5}  {listed + got.wall:>7.1f}  {got.status}", flush=True)
    if rows:
        print(f"median root gap {pct(statistics.median(r['root_gap'] for r in rows))} (target <= 10%), "
              f"median gap at {args.time_limit:g} s {pct(statistics.median(r['gap'] for r in rows))} "
              f"(target <= 3% at 600 s), proven {sum(r['status'] == 'OPTIMAL' for r in rows)} of {len(rows)}")
    if args.json is not None:
        with atomic_open(args.json, "w") as fh:
            json.dump({"time_limit": args.time_limit, "kicks": args.kicks, "cuts": args.cuts, "clash": args.clash,
                       "tables": not args.search, "rows": rows}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
