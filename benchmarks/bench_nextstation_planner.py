"""Next Station solo: the ``planner`` bot (and others, side by side) over seeds, mean score with
its 95% interval and CPU seconds a game (one core: the machine's load does not count).

    .venv/bin/python benchmarks/bench_nextstation_planner.py --bots planner:16 [--bots mcts:1000] \\
        [--first 0] [--seeds 200] [--future F] [--jsonl out.jsonl]

Each game is played as ``simulate nextstation --players 1`` plays it (:func:`tubedeck.play.play_game`,
the seat's own seeded stream), on the classic map with the base rules. ``--jsonl`` appends one line
per game (bot, seed, score, CPU seconds), so a long run can be split over processes and joined
(``--summary FILE...`` reads such files back and prints the summary per bot, the seeds in common).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.play import play_game  # noqa: E402
from tubedeck.solver.nextstation import planner  # noqa: E402
from tubedeck.solver.nextstation.simulate import PLAYING  # noqa: E402


def summary(rows: list[dict]) -> list[str]:
    by: dict[str, dict[int, dict]] = {}
    for r in rows:
        by.setdefault(r["bot"], {})[r["seed"]] = r
    common = set.intersection(*(set(d) for d in by.values())) if by else set()
    out = [f"{len(common)} seeds in common"]
    for bot, d in by.items():
        for label, seeds in (("all", sorted(d)), ("common", sorted(common))):
            scores = [d[s]["score"] for s in seeds]
            if not scores:
                continue
            mean = statistics.fmean(scores)
            half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else float("nan")
            cpu = statistics.fmean(d[s]["cpu"] for s in seeds)
            out.append(f"{bot:>24} {label:>6} {len(scores):4} games (seeds {seeds[0]}-{seeds[-1]}): mean "
                       f"{mean:.1f} ({mean - half:.1f}-{mean + half:.1f}), {cpu:.1f} CPU s a game")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", action="append", default=[], help="a bot spec (repeatable): planner:16, mcts:1000")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--future", type=float, default=None, help="the planner's points per new station per round to come")
    ap.add_argument("--sites", type=float, default=None, help="the planner's tourist sites expected per round to come")
    ap.add_argument("--block", type=float, default=None, help="the planner's price of a later line's section")
    ap.add_argument("--visit", type=float, default=None, help="the planner's weight of a later line's interchange")
    ap.add_argument("--jsonl", help="append one line a game to this file")
    ap.add_argument("--summary", nargs="*", help="only summarise these --jsonl files")
    args = ap.parse_args()
    if args.summary:
        rows = [json.loads(line) for f in args.summary for line in Path(f).read_text().splitlines() if line.strip()]
        print("\n".join(summary(rows)))
        return
    if args.future is not None:
        planner.FUTURE = args.future
    if args.sites is not None:
        planner.SITES_AHEAD = args.sites
    if args.block is not None:
        planner.BLOCK = args.block
    if args.visit is not None:
        planner.VISIT = args.visit
    ed = PLAYING.edition(None, {})
    rows = []
    for spec in args.bots or ["planner"]:
        bot = PLAYING.game.bot(spec)
        label = spec
        if spec.startswith("planner") and (args.future, args.sites, args.block, args.visit) != (None,) * 4:
            label += (f" future {planner.FUTURE:g} sites {planner.SITES_AHEAD:g} block {planner.BLOCK:g}"
                      f" visit {planner.VISIT:g}")
        for seed in range(args.first, args.first + args.seeds):
            t = time.process_time()
            state = play_game(PLAYING.start(ed, 1, seed), [bot], seed).state
            final = state.final(0)
            row = {"bot": label, "seed": seed, "score": state.returns()[0], "cpu": round(time.process_time() - t, 3),
                   "lines": list(final.lines), "tourist": final.tourist, "interchanges": final.interchange_points}
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.jsonl:
                with open(args.jsonl, "a") as f:
                    f.write(json.dumps(row) + "\n")
    print("\n".join(summary(rows)))


if __name__ == "__main__":
    main()
