"""Next Station: London solver figures (not a test).

* single-round optimum (CP-SAT, ``num_workers=1``): wall time per round, median / p95 / max, and
  statuses, over the first round of seeded solo deals (real flip orders, 5-10 turns), on the
  classic map or, with ``--map SEED``, a generated one;
* the branch and bound of :mod:`tubedeck.games.nextstation.best` (``solve nextstation --engine auto``) on
  the same rounds: median / p95 / max, statuses, and any score difference from CP-SAT (target:
  median <= 50 ms, p95 <= 500 ms on one core);
* side by side on the same flips: the exhaustive search of :mod:`tubedeck.solver.nextstation.exhaustive`
  (a depth-first search over every draw and pass, each position once) on the rounds it finishes
  within ``--exhaustive-limit`` positions: time ratio and any score difference.

* ``--games N``: the whole solo game (``solve nextstation --game``) of seeds 0..N-1 within
  ``--game-limit`` seconds on ``--workers`` CP-SAT workers: how many are proven, the best game
  found (best responses, and after CP-SAT), the bound (CP-SAT's, or the stored one where
  challenges.csv holds the seed), and the wall time. The research bounds (the column bound,
  branch and price) have their own benchmarks in ``research/nextstation/benchmarks/``.

    .venv/bin/python benchmarks/bench_nextstation.py [--rounds 40] [--seed 0] [--time-limit 60] [--bnb-only] [--map 1]
    .venv/bin/python benchmarks/bench_nextstation.py --games 10 [--game-limit 60] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from tubedeck.game import network
from tubedeck.games.nextstation.best import best_round as bnb
from tubedeck.games.nextstation.edition import deal, load
from tubedeck.games.nextstation.flips import turns
from tubedeck.solver.nextstation.exhaustive import best_round as exhaustive
from tubedeck.solver.nextstation.game import best_game
from tubedeck.solver.nextstation.model import best_round


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--exhaustive-limit", type=int, default=400_000)
    ap.add_argument("--bnb-only", action="store_true", help="time the branch and bound alone (seconds, not minutes)")
    ap.add_argument("--games", type=int, default=0, help="time the whole game on this many seeds instead")
    ap.add_argument("--game-limit", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--map", default="classic", help="the rounds' map: classic, or a generated map's seed")
    args = ap.parse_args()
    ed = load() if args.map == "classic" else load(network(None), map=args.map)
    where = "the classic map" if args.map == "classic" else f"generated map --map {args.map}"
    if args.games:
        return whole_games(ed, args)
    bnb_times, bnb_cpu, bnb_statuses, bnb_scores = [], [], Counter(), {}
    for seed in range(args.seed, args.seed + args.rounds):
        d = deal(ed, 1, seed)
        ts = turns(ed.book, d.flips[0])
        dep = ed.board.departure(d.pencils[0][0]).id
        t0, c0 = time.perf_counter(), time.process_time()
        r = bnb(ed.board, ed.book, ts, dep, time_limit=args.time_limit)
        bnb_times.append(time.perf_counter() - t0)
        bnb_cpu.append(time.process_time() - c0)
        bnb_statuses[r.status] += 1
        bnb_scores[seed] = r.score
    print(f"single round, {args.rounds} seeded solo first rounds on {where} "
          f"(seeds {args.seed}-{args.seed + args.rounds - 1})")
    print(f"  branch and bound (--engine auto) wall per round: median {statistics.median(bnb_times) * 1000:.1f} ms, "
          f"p95 {quantile(bnb_times, 0.95) * 1000:.1f} ms, max {max(bnb_times) * 1000:.1f} ms; "
          f"statuses {dict(bnb_statuses)} (target: median <= 50 ms, p95 <= 500 ms)")
    print(f"  the same, CPU per round (one core; a loaded machine inflates wall time, not this): median "
          f"{statistics.median(bnb_cpu) * 1000:.1f} ms, p95 {quantile(bnb_cpu, 0.95) * 1000:.1f} ms, "
          f"max {max(bnb_cpu) * 1000:.1f} ms")
    if args.bnb_only:
        return
    bnb_differ = 0
    times, statuses, lengths, scores = [], Counter(), Counter(), []
    compared, ratios, differ = 0, [], 0
    for seed in range(args.seed, args.seed + args.rounds):
        d = deal(ed, 1, seed)
        ts = turns(ed.book, d.flips[0])
        dep = ed.board.departure(d.pencils[0][0]).id
        t0 = time.perf_counter()
        r = best_round(ed.board, ed.book, ts, dep, time_limit=args.time_limit)
        cp = time.perf_counter() - t0
        times.append(cp)
        statuses[r.status] += 1
        lengths[len(ts)] += 1
        if r.score is not None:
            scores.append(r.score)
        bnb_differ += r.status == "OPTIMAL" and r.score != bnb_scores[seed]
        t0 = time.perf_counter()
        try:
            want, _ = exhaustive(ed.board, ed.book, ts, dep, limit=args.exhaustive_limit)
        except RuntimeError:
            continue
        ex = time.perf_counter() - t0
        compared += 1
        ratios.append(cp / ex)
        differ += want != r.score
    print(f"single round, {args.rounds} seeded solo rounds (seeds {args.seed}-{args.seed + args.rounds - 1}), "
          f"turns {dict(sorted(lengths.items()))}")
    print(f"  CP-SAT wall per round: median {statistics.median(times) * 1000:.0f} ms, "
          f"p95 {quantile(times, 0.95) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; statuses {dict(statuses)}")
    print(f"  branch and bound score differences from CP-SAT (its OPTIMAL rounds): {bnb_differ}")
    if scores:
        print(f"  best round score: mean {statistics.mean(scores):.1f}, median {statistics.median(scores)}, "
              f"range {min(scores)}-{max(scores)}")
    if compared:
        print(f"  exhaustive search finished {compared} of {args.rounds} rounds within {args.exhaustive_limit} "
              f"positions; CP-SAT/exhaustive time ratio median {statistics.median(ratios):.2f}; "
              f"score differences: {differ}")


def whole_games(ed, args) -> None:
    statuses, walls, starts, finals, bounds = Counter(), [], [], [], []
    for seed in range(args.seed, args.seed + args.games):
        r = best_game(ed, seed, time_limit=args.game_limit, workers=args.workers)
        statuses[r.status] += 1
        walls.append(r.wall)
        starts.append(r.start)
        finals.append(r.score)
        bounds.append(r.bound)
        print(f"  seed {seed}: {r.status} {r.score} (best responses {r.start}, bound {r.bound} by {r.bound_by}, "
              f"round pars {r.pars}) {r.wall:.1f} s", flush=True)
    n = args.games
    print(f"whole solo game, seeds {args.seed}-{args.seed + n - 1}, limit {args.game_limit:g} s, "
          f"{args.workers} workers: statuses {dict(statuses)}; proven {statuses['OPTIMAL']} of {n} "
          f"")
    print(f"  best game found: median {statistics.median(finals)} (best responses alone "
          f"{statistics.median(starts)}; CP-SAT or the stored game improved {sum(f > s for f, s in zip(finals, starts))} of {n}); "
          f"bound median {statistics.median(bounds)}; wall median {statistics.median(walls):.1f} s, "
          f"max {max(walls):.1f} s")

if __name__ == "__main__":
    main()
