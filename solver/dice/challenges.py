"""Prove the solo challenges' best scores: ``python -m tubedeck.solver.dice.challenges [--seeds 0-19]``.

For each seed, the first ``challenge_turns`` rolls (the recipe's) on the bundled map are solved
by ``--engine`` (default ``auto``: the target search of :mod:`.bnb`, CP-SAT taking over if it
runs out of its budget; ``cp-sat``: the model alone) under a deterministic budget
(``--det-limit``: the file is the same on any machine, however loaded; ``--time-limit`` is only a
wall-clock guard per seed), replayed through the rules engine; only OPTIMAL answers are written to
``data/dice/challenges.csv``, which the challenge sheet prints on its answer strip. A developer's
tool: nothing at run time writes the file.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from tubedeck.atomic import atomic_open
from tubedeck.content import content
from tubedeck.games.dice.edition import load
from tubedeck.network import Network

from .solve import solve_rolls


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-19", help="a range A-B")
    parser.add_argument("--det-limit", type=float, default=120.0, help="deterministic seconds per seed")
    parser.add_argument("--time-limit", type=float, default=3600.0, help="wall-clock guard per seed")
    parser.add_argument("--engine", default="auto", choices=("auto", "cp-sat"))
    parser.add_argument("--out", type=Path, default=content("dice", "challenges.csv"))
    args = parser.parse_args(argv)
    lo, _, hi = args.seeds.partition("-")
    ed = load(Network.load())
    turns = ed.rules.challenge_turns
    rows: list[tuple[object, ...]] = [("scope", "seed", "turns", "best", "status")]
    for seed in range(int(lo), int(hi or lo) + 1):
        sol = solve_rolls(ed, seed, turns, args.time_limit, args.engine, det_limit=args.det_limit)
        print(f"seed {seed}: {sol.status} {sol.result.score} ({sol.result.wall:.1f} s)", flush=True)
        if sol.status == "OPTIMAL":
            rows.append((ed.board.scope.label, seed, turns, sol.result.score, "OPTIMAL"))
    with atomic_open(args.out, "w") as fh:  # csv quoting: a scope may hold commas
        csv.writer(fh, lineterminator="\n").writerows(rows)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
