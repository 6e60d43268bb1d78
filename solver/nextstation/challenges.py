"""The solo challenges' best games:
``python -m solver.nextstation.challenges --seeds 0-9 [--map classic|SEED] [--time-limit 600]``.

For each seed, the whole solo game on the seed's deal is solved by
:func:`solver.nextstation.game.best_game`; OPTIMAL answers and FEASIBLE ones (the best game
found, with the proven bound) are written to ``data/nextstation/challenges.csv``
(``map,seed,score,status,bound,drawing``), which the challenge sheet prints on its answer strip
("best possible" only when proven). A row is replaced only by a better game or a proof. Each answer is first replayed through the rules engine
(:func:`tubedeck.games.nextstation.challenge.replay`): one the rules refuse, or that scores
other than the solver says, is reported and not written. Rows of other maps and seeds are kept;
the file is replaced atomically. A developer's tool: nothing at run time writes the file.
"""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

from tubedeck.atomic import atomic_open
from tubedeck.content import content, read_csv
from tubedeck.errors import DataError, Problem, UsageError
from tubedeck.games.nextstation.challenge import CLASSIC, COLUMNS, STATUSES, drawing_text, parse_drawing, replay
from tubedeck.games.nextstation.edition import Edition, load

MAX_SEEDS = 10_000


def seed_range(text: str) -> range:
    lo, dash, hi = text.strip().partition("-")
    if not (lo.isascii() and lo.isdigit()) or (dash and not (hi.isascii() and hi.isdigit())):
        raise UsageError(f"--seeds must be A-B (whole numbers), got {text!r}")
    out = range(int(lo), int(hi or lo) + 1)
    if not 1 <= len(out) <= MAX_SEEDS:
        raise UsageError(f"--seeds must name 1-{MAX_SEEDS} seeds, A <= B, got {text!r}")
    return out


def answer_row(edition: Edition, map_label: str, seed: int, result) -> list[str] | None:
    """The CSV row of a solved game, or None unless a game was found and the rules engine agrees."""
    if result.status not in STATUSES or result.score is None:
        return None
    drawing = drawing_text(r.draws for r in result.rounds)
    problems: list[str] = []
    moves = parse_drawing(drawing, edition.rules.rounds, edition.board, problems.append)
    try:
        total = None if moves is None else replay(edition, seed, moves)
    except UsageError as exc:
        problems.append(str(exc))
        total = None
    if total != result.score:
        problems.append(f"the rules engine scores the drawing {total}, the solver says {result.score}")
    if problems:
        print(f"seed {seed}: NOT WRITTEN: {'; '.join(problems)}", flush=True)
        return None
    return [map_label, str(seed), str(result.score), result.status, str(result.bound), drawing]


def read_rows(path: Path) -> dict[tuple[str, str], list[str]]:
    """The file's rows by (map, seed) (an absent file: none)."""
    if not path.exists():
        return {}
    problems: list[Problem] = []
    rows = read_csv(path, COLUMNS, problems, allow_empty=True)
    if problems:
        raise DataError(problems)
    return {(r["map"], r["seed"]): [r[c] for c in COLUMNS] for r in rows}


def write_rows(path: Path, rows: list[list[str]]) -> None:
    def order(row: list[str]) -> tuple:
        return row[0] != CLASSIC, int(row[0]) if row[0].isdigit() else 0, int(row[1]) if row[1].isdigit() else 0

    rows = sorted(rows, key=order)
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(COLUMNS)
    out.writerows(rows)
    with atomic_open(path, "w") as fh:
        fh.write(buf.getvalue())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-9", help="a range A-B")
    parser.add_argument("--map", default=CLASSIC, help="classic, or a generated map's seed (default zones)")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--out", type=Path, default=content("nextstation", "challenges.csv"))
    args = parser.parse_args(argv)
    seeds = seed_range(args.seeds)
    if args.map != CLASSIC and not (args.map.isascii() and args.map.isdigit()):
        raise UsageError(f"--map must be classic or a generated map's seed, got {args.map!r}")
    args.map = args.map if args.map == CLASSIC else str(int(args.map))  # as the challenge page names it
    try:  # imported here: this module loads without the whole-game solver
        from .game import best_game
    except ImportError as exc:
        raise UsageError(f"the whole-game solver is not available: {exc}") from None
    network = None
    if args.map != CLASSIC:
        from tubedeck.network import Network

        network = Network.load()
    ed = load(network, map=args.map)
    rows = read_rows(args.out)  # a seed keeps its earlier row unless this run found better or proved it
    for seed in seeds:
        result = best_game(ed, seed, time_limit=args.time_limit)
        print(f"seed {seed}: {result.status} {result.score} (bound {result.bound}, {result.wall:.1f} s)", flush=True)
        row = answer_row(ed, args.map, seed, result)
        old = rows.get((args.map, str(seed)))
        if row is not None and (old is None or int(row[2]) > int(old[2]) or (row[3] == "OPTIMAL" != old[3])):
            rows[(args.map, str(seed))] = row
            write_rows(args.out, list(rows.values()))  # after each proof: a long run keeps its progress
    print(f"{args.out}: {sum(k[0] == args.map for k in rows)} rows for map {args.map}")


if __name__ == "__main__":
    import sys

    from tubedeck.errors import TubedeckError

    try:
        main()
    except TubedeckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
