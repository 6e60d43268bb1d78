"""Next Station solo: the ``planner`` bot (and others, side by side) over seeds, mean score with
its 95% interval and CPU seconds a game (one core: the machine's load does not count).

    .venv/bin/python benchmarks/bench_nextstation_planner.py --bots planner:16 [--bots mcts:1000] \\
        [--bots mcts:1000/4/planner:8] [--first 0] [--seeds 200] [--jsonl out.jsonl]

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


def _bot(spec: str):
    """A bot spec, or ``EARLY/R/LATE``: EARLY plays the rounds before round R (counted from 1),
    LATE from round R on (``mcts:1000/4/planner:8``). Every bot draws one number from the seat's
    stream a decision, so such a pair plays the rounds before R as EARLY alone does, and its
    difference from EARLY alone, seed by seed, is the later rounds' own."""
    if spec.count("/") != 2:
        return PLAYING.game.bot(spec)
    early_spec, r, late_spec = spec.split("/")
    early, late, first = PLAYING.game.bot(early_spec), PLAYING.game.bot(late_spec), int(r) - 1

    def bot(state, rng):
        return (early if state.round < first else late)(state, rng)

    return bot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", action="append", default=[], help="a bot spec (repeatable): planner:16, mcts:1000")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--jsonl", help="append one line a game to this file")
    ap.add_argument("--summary", nargs="*", help="only summarise these --jsonl files")
    args = ap.parse_args()
    if args.summary:
        rows = [json.loads(line) for f in args.summary for line in Path(f).read_text().splitlines() if line.strip()]
        print("\n".join(summary(rows)))
        return
    ed = PLAYING.edition(None, {})
    rows = []
    for spec in args.bots or ["planner"]:
        bot = _bot(spec)
        label = spec
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
