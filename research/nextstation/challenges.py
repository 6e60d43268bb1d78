"""The solo challenges' best games:
``python -m research.nextstation.challenges --seeds 0-9 [--map classic|SEED] [--time-limit 600]``.

For each seed, the whole solo game on the seed's deal is solved by
:func:`research.nextstation.whole.best_game`; OPTIMAL answers and FEASIBLE ones (the best game
found, with the proven bound) are written to ``data/nextstation/challenges.csv``
(``map,seed,score,status,bound,drawing``), which the challenge sheet prints on its answer strip
("best possible" only when proven). A row is replaced only by a better game, a proof, or a
tighter bound for the same score. ``--columns N`` runs the column bound (:mod:`.columns`) after
CP-SAT; ``--bounds-only`` keeps each stored game and only tightens its bound that way, or with
``--branch`` by branch and price (:mod:`.branch`) from the stored game for ``--time-limit``
wall-clock seconds a seed (a better game it finds replaces the stored one), or with ``--tables``
by branch and price's root relaxation priced by a scan of every line of each round
(:func:`.pairs.table_bound`: the same relaxation, settled in 1-3 minutes a seed). Each answer is first replayed through the rules engine
(:func:`tubedeck.games.nextstation.challenge.replay`): one the rules refuse, or that scores
other than the solver says, is reported and not written. Rows of other maps and seeds are kept;
the file is replaced atomically. A developer's tool: nothing at run time writes the file.
"""

from __future__ import annotations

import argparse
import csv
import io
from contextlib import nullcontext
from pathlib import Path

from tubedeck.atomic import atomic_open
from tubedeck.content import content, is_whole_text
from tubedeck.errors import UsageError
from tubedeck.games.nextstation.challenge import (  # noqa: F401 - seed_range, read_rows: the benchmarks' too
    CLASSIC,
    COLUMNS,
    STATUSES,
    drawing_text,
    parse_drawing,
    read_rows,
    replay,
    seed_range,
)
from tubedeck.games.nextstation.edition import Edition, load
from tubedeck.solver.cpsat import WALL_GUARD

from .clash import CLASH_ROUNDS


def answer_row(edition: Edition, map_label: str, seed: int, result) -> list[str] | None:
    """The CSV row of a solved game, or None unless a game was found and the rules engine agrees."""
    if result.status not in STATUSES or result.score is None:
        return None
    drawing = drawing_text(r.draws for r in result.rounds)
    problems = _replay_problems(edition, seed, drawing, result.score)
    if problems:
        print(f"seed {seed}: NOT WRITTEN: {'; '.join(problems)}", flush=True)
        return None
    return [map_label, str(seed), str(result.score), result.status, str(result.bound), drawing]


def _replay_problems(edition: Edition, seed: int, drawing: str, score: int) -> list[str]:
    """What is wrong with a drawing said to score ``score`` on seed's deal: the rules engine
    refuses it or scores it otherwise (none: it is right)."""
    problems: list[str] = []
    moves = parse_drawing(drawing, edition.rules.rounds, edition.board, problems.append)
    try:
        total = None if moves is None else replay(edition, seed, moves)
    except UsageError as exc:
        problems.append(str(exc))
        total = None
    if total != score:
        problems.append(f"the rules engine scores the drawing {total}, the solver says {score}")
    return problems


def better(row: list[str], old: list[str]) -> bool:
    """A better game, a proof, or the same game's score with a tighter bound."""
    score, bound, old_score, old_bound = int(row[2]), int(row[4]), int(old[2]), int(old[4])
    return score > old_score or (row[3] == "OPTIMAL" != old[3]) or (score == old_score and bound < old_bound)


def merged(row: list[str], old: list[str]) -> list[str]:
    """The better game with the lesser bound: both bounds hold for the seed, whatever game found."""
    bound = min(int(row[4]), int(old[4]))
    return row[:3] + ["OPTIMAL" if bound <= int(row[2]) else row[3], str(max(bound, int(row[2]))), row[5]]


def stored_draws(edition: Edition, row: list[str]):
    """A stored row's game as the solver's draws (per round, (turn index, from, to)), or None if
    its drawing does not parse on this board."""
    moves = parse_drawing(row[5], edition.rules.rounds, edition.board, lambda message: None)
    return None if moves is None else tuple(tuple((m.turn - 1, m.start, m.end) for m in rnd) for rnd in moves)


def tightened(edition: Edition, seed: int, row: list[str], columns: int) -> list[str]:
    """A stored row with its bound tightened by the column bound from its own drawing (a bound
    that meets the score proves it)."""
    from .columns import column_bound
    from .whole import rounds_of

    draws = stored_draws(edition, row)
    if draws is None or row[3] == "OPTIMAL":
        return row
    rounds, _, _ = rounds_of(edition, seed)
    cb = column_bound(edition.board, edition.book, rounds, (draws,), columns)
    score, bound = int(row[2]), int(row[4]) if cb.bound is None else min(int(row[4]), cb.bound)
    status = "OPTIMAL" if bound <= score else row[3]
    print(f"seed {seed}: {status} {score}, bound {row[4]} -> {max(bound, score)} ({cb.wall:.1f} s)", flush=True)
    return row[:3] + [status, str(max(bound, score)), row[5]]


def tabled(edition: Edition, seed: int, row: list[str], time_limit: float, progress: bool = True,
           clash: int = CLASH_ROUNDS) -> list[str]:
    """A stored row with its bound tightened by the root relaxation priced by a scan of every
    line (:func:`.pairs.table_bound`, branch and price's "entries" root with ``clash`` rounds of
    cuts between rounds' lines, settled or cut at ``time_limit`` wall-clock seconds, listing
    included)."""
    import math

    from tubedeck.progress import Progress, ticking

    from .pairs import table_bound
    from .whole import rounds_of

    draws = stored_draws(edition, row)
    if draws is None or row[3] == "OPTIMAL":
        return row
    rounds, _, _ = rounds_of(edition, seed)
    with Progress(f"challenges seed {seed}") if progress else nullcontext(None) as shown, ticking(shown):
        if shown is not None:
            shown.update(phase="listing every line")

        def report(it: int, lp: float, bound: float, _: float) -> None:
            if shown is not None:  # (no bound yet while every iteration's search was cut short)
                shown.update(phase=f"tables {it}", lp=f"{lp:.1f}",
                             bound=math.floor(bound + 1e-6) if math.isfinite(bound) else "none yet")
        tb = table_bound(edition.board, edition.book, rounds, (draws,), time_limit=time_limit, progress=report,
                         clash=clash)
    score, bound = int(row[2]), int(row[4]) if tb.bound is None else min(int(row[4]), tb.bound)
    status = "OPTIMAL" if bound <= score else row[3]
    print(f"seed {seed}: {status} {score}, bound {row[4]} -> {max(bound, score)} (tables: {tb.bound}, "
          f"{'settled' if tb.settled else 'cut'} after {tb.iterations} iterations, {tb.wall:.1f} s)", flush=True)
    return row[:3] + [status, str(max(bound, score)), row[5]]


def branched(edition: Edition, seed: int, row: list[str], time_limit: float, progress: bool = True,
             tables: bool = False, cuts: str = "entries", clash: int = CLASH_ROUNDS) -> list[str]:
    """A stored row after branch and price (:mod:`.branch`) from its own game for ``time_limit``
    wall-clock seconds (with ``tables``, every line of each round listed first and priced by a
    scan: :class:`.pairs.LineScan`, and ``clash`` rounds of cuts between rounds' lines at the
    root, :mod:`.clash`): a better game if it finds one (replayed by the rules engine first), the
    lesser bound, OPTIMAL when the bound meets the game."""
    import time

    from tubedeck.progress import Progress, ticking

    from .branch import branch_and_price
    from .pairs import some_tables
    from .whole import rounds_of

    draws = stored_draws(edition, row)
    if draws is None or row[3] == "OPTIMAL":
        return row
    rounds, _, _ = rounds_of(edition, seed)
    end = time.perf_counter() + time_limit
    with Progress(f"challenges seed {seed}") if progress else nullcontext(None) as shown:
        tabs = []
        if tables:
            if shown is not None:
                shown.update(phase="listing every line")
            with ticking(shown):
                tabs = some_tables(edition.board, edition.book, rounds, time_limit=time_limit / 2)
        if shown is not None:
            shown.update(phase="branch and price")
        bp = branch_and_price(edition.board, edition.book, rounds, (draws,),
                              time_limit=max(end - time.perf_counter(), 0.0), progress=shown, cuts=cuts, tables=tabs,
                              clash=clash)
    score, drawing = int(row[2]), row[5]
    if bp.score > score:
        text = drawing_text(bp.draws)
        problems = _replay_problems(edition, seed, text, bp.score)
        if problems:
            print(f"seed {seed}: its better game NOT WRITTEN: {'; '.join(problems)}", flush=True)
        else:
            score, drawing = bp.score, text
    bound = max(min(int(row[4]), bp.bound), score)
    status = "OPTIMAL" if bound <= score else row[3]
    print(f"seed {seed}: {status} {row[2]} -> {score}, bound {row[4]} -> {bound} (root {bp.root_bound}, "
          f"{bp.nodes} nodes, {bp.wall:.1f} s)", flush=True)
    return row[:2] + [str(score), status, str(bound), drawing]


def write_rows(path: Path, rows: list[list[str]]) -> None:
    def order(row: list[str]) -> tuple:
        return row[0] != CLASSIC, int(row[0]) if is_whole_text(row[0]) else 0, int(row[1]) if is_whole_text(row[1]) else 0

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
    parser.add_argument("--columns", type=int, default=25, help="column-bound iterations (research.nextstation.columns)")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT workers (more find better games, "
                        "not reproducibly)")
    parser.add_argument("--bounds-only", action="store_true",
                        help="keep each stored game and tighten its bound with the column bound")
    parser.add_argument("--branch", action="store_true",
                        help="with --bounds-only: branch and price from each stored game for --time-limit "
                             "wall-clock seconds (a better game it finds is kept; a bound meeting the game proves it)")
    parser.add_argument("--tables", action="store_true",
                        help="with --bounds-only: the root relaxation priced by a scan of every line of each round "
                             "(research.nextstation.pairs.table_bound) for at most --time-limit wall-clock seconds; "
                             "with --branch: branch and price priced by that scan")
    parser.add_argument("--cuts", choices=("none", "patterns", "entries"), default="entries",
                        help="with --branch: the interchange relaxation (research.nextstation.cuts)")
    parser.add_argument("--clash", type=int, default=CLASH_ROUNDS,
                        help="with --tables: rounds of cuts between two rounds' lines the root separates "
                             f"(research.nextstation.clash; default {CLASH_ROUNDS}, 0: none)")
    args = parser.parse_args(argv)
    seeds = seed_range(args.seeds)
    if (args.branch or args.tables) and not args.bounds_only:
        raise UsageError("--branch and --tables work on the stored games: add --bounds-only")
    if not 0 <= args.columns <= 1000:
        raise UsageError(f"--columns must be 0-1000, got {args.columns}")
    if not 0 <= args.clash <= 50:
        raise UsageError(f"--clash must be 0-50, got {args.clash}")
    if not 1 <= args.workers <= 64:
        raise UsageError(f"--workers must be 1-64, got {args.workers}")
    if args.map != CLASSIC and not (args.map.isascii() and args.map.isdigit()):
        raise UsageError(f"--map must be classic or a generated map's seed, got {args.map!r}")
    args.map = args.map if args.map == CLASSIC else str(int(args.map))  # as the challenge page names it
    try:  # imported here: this module loads without the whole-game solver
        from .whole import best_game
    except ImportError as exc:
        raise UsageError(f"the whole-game solver is not available: {exc}") from None
    network = None
    if args.map != CLASSIC:
        from tubedeck.network import Network

        network = Network.load()
    ed = load(network, map=args.map)
    rows = read_rows(args.out)  # a seed keeps its earlier row unless this run found better or proved it
    for seed in seeds:
        old = rows.get((args.map, str(seed)))
        if args.bounds_only:
            if old is not None:
                rows[(args.map, str(seed))] = branched(ed, seed, old, args.time_limit, tables=args.tables,
                                                       cuts=args.cuts, clash=args.clash) if args.branch else \
                    tabled(ed, seed, old, args.time_limit, clash=args.clash) if args.tables else tightened(ed, seed, old, args.columns)
                write_rows(args.out, list(rows.values()))
            continue
        result = best_game(ed, seed, time_limit=args.time_limit * WALL_GUARD, det_limit=args.time_limit,
                           workers=args.workers, columns=args.columns)
        print(f"seed {seed}: {result.status} {result.score} (bound {result.bound}, {result.wall:.1f} s)", flush=True)
        row = answer_row(ed, args.map, seed, result)
        if row is not None and (old is None or better(row, old)):
            rows[(args.map, str(seed))] = row if old is None else merged(row, old)
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
