"""Set Tube Dice's points by measurement, and measure candidate maps.

``python -m tubedeck.solver.dice.balance [--games N]`` plays N games at each table size 2-4 with greedy
players on the bundled map, measures for every line and zone the median roll of its first
completion and the share of games in which someone completes it, and writes them with the
difficulty of the recipe's rule (``[points]`` in ``data/dice/recipe.toml``) to
``data/dice/points.csv``. Points steer the greedy players (a line worth more draws more play and
so gets easier), so it measures again with the new points, ``--rounds`` times, and sets points
from the mean of all rounds' difficulties (plain re-measuring oscillates). A developer's tool:
the game reads the file, nothing at run time writes it. The games are played as the recipe sets
them, each seat with its own passes (``extra_passes``).

``python -m tubedeck.solver.dice.balance --map STAR=SCOPE [--map ...]`` measures candidate default maps
by the recipe's own measure (``[measure]``): each map's points are set first as above (in
memory), then ``[measure] games`` games per table are played by ``[measure] bots`` and it reports
the share of games in which someone completes a zone, the share in which someone completes a
long line (:func:`long_lines`), the length in rolls and the wins by seat, with 95% intervals,
and whether the map meets the recipe's bounds (:func:`verdict`). docs/dice.md records the figures
of the chosen map and its alternatives.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tubedeck.atomic import atomic_open
from tubedeck.content import content
from tubedeck.games.dice.board import Board, derive_board, nested_lines
from tubedeck.games.dice.edition import Edition, awards, load
from tubedeck.games.dice.recipe import Recipe, load_recipe
from tubedeck.network import Network
from tubedeck.solver.simulation import play
from tubedeck.stats import wilson

from .simulate import PLAYING

TABLES = (2, 3, 4)


def measure(edition: Edition, games: int) -> dict[tuple[str, str], tuple[float | None, float]]:
    """``(kind, id) -> (median first-completion roll or None, completion rate)`` over all tables."""
    firsts: dict[tuple[str, str], list[int]] = {}
    keys = [("line", l.id) for l in edition.board.lines] + [("zone", str(z.zone)) for z in edition.board.zones]
    total = 0
    for players in TABLES:
        for seed in range(games):
            r = PLAYING.measure(play(PLAYING, edition, players, seed, ("greedy",) * players), edition)
            total += 1
            for key, t in zip(keys, r["line_first"] + r["zone_first"]):
                if t is not None:
                    firsts.setdefault(key, []).append(t)
    return {k: (statistics.median(firsts[k]) if k in firsts else None, len(firsts.get(k, [])) / total) for k in keys}


def difficulty(first: float | None, rate: float, max_turns: int) -> float:
    """The recipe's rule: median first-completion roll x (2 - completion rate); never: 2 x max_turns."""
    return 2.0 * max_turns if first is None or rate == 0 else first * (2 - rate)


def set_points(edition: Edition, games: int, rounds: int, report: list[str] | None = None
               ) -> tuple[Edition, list[dict[tuple[str, str], tuple[float | None, float]]], dict[tuple[str, str], float]]:
    """The measure-and-set rounds: the edition with its points set, each round's figures and the
    mean difficulties."""
    seen: list[dict[tuple[str, str], tuple[float | None, float]]] = []  # measure() per round
    mean: dict[tuple[str, str], float] = {}
    for r in range(rounds):
        figures = measure(edition, games)
        seen.append(figures)
        mean = {k: statistics.fmean(difficulty(*f[k], edition.rules.max_turns) for f in seen) for k in figures}
        lines, zones = awards(edition.recipe, edition.board, mean)
        edition = dataclasses.replace(edition, lines=lines, zones=zones)
        if report is not None:
            report.append(f"round {r + 1}: " + ", ".join(f"{a.id} {a.high}/{a.low}" for a in lines + zones))
    return edition, seen, mean


def balance(games: int, rounds: int, out: Path) -> list[str]:
    edition = load(Network.load())
    scope = edition.board.scope.label
    report: list[str] = []
    edition, seen, mean = set_points(edition, games, rounds, report)
    buf = io.StringIO()
    out_csv = csv.writer(buf, lineterminator="\n")  # a scope may hold commas ("all except circle,...")
    out_csv.writerow(("scope", "kind", "id", "first_median", "completion_rate", "difficulty"))
    for key in mean:
        firsts = [m for f in seen if (m := f[key][0]) is not None]
        rate = statistics.fmean(f[key][1] for f in seen)
        first = f"{statistics.median(firsts):.1f}" if firsts else ""
        out_csv.writerow((scope, key[0], key[1], first, f"{rate:.4f}", f"{mean[key]:.2f}"))
    with atomic_open(out, "w") as fh:
        fh.write(buf.getvalue())
    return report


# -- choosing the default map --------------------------------------------------------------------
def long_lines(board: Board) -> tuple[str, ...]:
    """The map's long lines: those whose size (stations + connections) is above the median size of
    the map's lines (the longer half; on the old default map Bakerloo, Central, Northern and
    Piccadilly, the 9- and 13-box lines, against the 5- and 7-box others)."""
    sizes = {l.id: len(l.stations) + len(l.connections) for l in board.lines}
    middle = statistics.median(sizes.values())
    return tuple(i for i, n in sizes.items() if n > middle)


def candidate(net: Network, recipe: Recipe, star: str, scope: str) -> Edition:
    """The edition the recipe would make with this star and scope as its own (points by size, to
    be set by :func:`set_points`)."""
    rec = dataclasses.replace(recipe, map=dataclasses.replace(recipe.map, star=star, scope=scope))
    board = derive_board(net, rec, scope)  # as a --scope: a nested map is measured (the verdict names it)
    lines, zones = awards(rec, board, {})
    return Edition(rec, board, lines, zones)


_EDITIONS: dict = {}


def _games(job: tuple) -> list[dict]:
    """A worker's share: the records of ``seeds`` at ``players`` (the edition rebuilt once per process)."""
    star, scope, points, players, seeds, bots = job
    key = (star, scope, points)
    if key not in _EDITIONS:
        ed = candidate(Network.load(), load_recipe(), star, scope)
        lines, zones = awards(ed.recipe, ed.board, dict(points))
        _EDITIONS[key] = dataclasses.replace(ed, lines=lines, zones=zones)
    ed = _EDITIONS[key]
    return [PLAYING.measure(play(PLAYING, ed, players, seed, (bots,) * players), ed) for seed in seeds]


@dataclass(frozen=True)
class Share:
    k: float
    n: int

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else 0.0

    def __str__(self) -> str:
        lo, hi = wilson(self.k, self.n)
        return f"{100 * self.value:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


@dataclass(frozen=True)
class MapFigures:
    """What the recipe's measure reads of one map, per table size and over all of them."""

    star: str
    scope: str
    stations: int
    connections: int
    lines: tuple[str, ...]
    long: tuple[str, ...]
    zones: tuple[tuple[int, int], ...]  # (zone, stations)
    nested: tuple[tuple[str, str], ...]
    zone_share: dict[int, Share]  # players -> games in which someone completed a zone
    long_share: dict[int, Share]  # ... a long line
    rolls: dict[int, tuple[float, float, float]]  # players -> median, 10%, 90% of the length in rolls
    wins: dict[int, tuple[Share, ...]]  # players -> each seat's wins (a shared win shared)
    points: tuple[tuple[str, int, int], ...]  # id, high, low

    def total(self, which: str) -> Share:
        parts = getattr(self, which).values()
        return Share(sum(s.k for s in parts), sum(s.n for s in parts))


def map_figures(star: str, scope: str, games: int, bots: str, balance_games: int, rounds: int,
                workers: int = 2) -> MapFigures:
    """A candidate map's figures: its points set by the balance (``balance_games``, ``rounds``),
    then ``games`` games per table played by ``bots`` on ``workers`` processes."""
    net = Network.load()
    ed = candidate(net, load_recipe(), star, scope)
    ed, _, mean = set_points(ed, balance_games, rounds)
    points = tuple(sorted(mean.items()))
    jobs = [(star, scope, points, p, range(w, games, workers), bots) for p in TABLES for w in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_games, jobs))
    return tally(ed, star, scope, {p: [r for job, rs in zip(jobs, results) if job[3] == p for r in rs] for p in TABLES})


def edition_figures(ed: Edition, games: int, bots: str) -> MapFigures:
    """The figures of ``ed`` as it is (its own points), ``games`` games per table in this process."""
    records = {p: [PLAYING.measure(play(PLAYING, ed, p, seed, (bots,) * p), ed) for seed in range(games)]
               for p in TABLES}
    return tally(ed, ed.board.stations[ed.board.star].id, ed.board.scope.label, records)


def tally(ed: Edition, star: str, scope: str, by_table: dict[int, list[dict]]) -> MapFigures:
    """The measure's figures from each table's game records (:data:`PLAYING`'s measure)."""
    board = ed.board
    long = long_lines(board)
    long_at = [i for i, l in enumerate(board.lines) if l.id in long]
    zone_share, long_share, rolls, wins = {}, {}, {}, {}
    for p, records in by_table.items():
        n = len(records)
        zone_share[p] = Share(sum(any(t is not None for t in r["zone_first"]) for r in records), n)
        long_share[p] = Share(sum(any(r["lines"][i] for i in long_at) for r in records), n)
        length = sorted(r["rolls"] for r in records)
        rolls[p] = (statistics.median(length), length[n // 10], length[min(n - 1, (9 * n) // 10)])
        won = [0.0] * p
        for r in records:
            for seat in r["winners"]:
                won[seat - 1] += 1 / len(r["winners"])
        wins[p] = tuple(Share(w, n) for w in won)
    return MapFigures(star, scope, len(board.stations), len(board.connections), tuple(l.id for l in board.lines),
                      long, tuple((z.zone, len(z.stations)) for z in board.zones), nested_lines(board),
                      zone_share, long_share, rolls, wins,
                      tuple((a.id, a.high, a.low) for a in ed.lines + ed.zones))


def verdict(fig: MapFigures, recipe: Recipe) -> list[str]:
    """The recipe's bounds this map misses (empty: it meets them all)."""
    m = recipe.measure
    assert m is not None, "the recipe has no [measure]"
    out = []
    if len(fig.zones) < m.zones_min:
        out.append(f"{len(fig.zones)} zone(s), fewer than {m.zones_min}")
    if fig.nested:
        out.append("nested lines: " + ", ".join(f"{a} in {b}" for a, b in fig.nested))
    z = fig.total("zone_share").value
    if not m.zone_share_min <= z <= m.zone_share_max:
        out.append(f"zone completions in {100 * z:.1f}% of games, outside {100 * m.zone_share_min:g}-"
                   f"{100 * m.zone_share_max:g}%")
    long = fig.total("long_share").value
    if long < m.long_share_min:
        out.append(f"a long line completed in {100 * long:.1f}% of games, under {100 * m.long_share_min:g}%")
    return out


def describe(fig: MapFigures, recipe: Recipe) -> list[str]:
    out = [f"{fig.star} = {fig.scope}: {fig.stations} stations, {fig.connections} connections, "
           f"{len(fig.lines)} lines, zones {', '.join(f'{z} ({n} stations)' for z, n in fig.zones)}",
           f"  long lines: {', '.join(fig.long)}",
           "  points: " + ", ".join(f"{i} {h}/{lo}" for i, h, lo in fig.points)]
    for p in TABLES:
        med, lo, hi = fig.rolls[p]
        out.append(f"  {p} players: zone {fig.zone_share[p]}, long line {fig.long_share[p]}, rolls {med:g} "
                   f"({lo}-{hi}), wins by seat " + ", ".join(str(s) for s in fig.wins[p]))
    out.append(f"  all tables: zone {fig.total('zone_share')}, long line {fig.total('long_share')}")
    missed = verdict(fig, recipe)
    out.append("  meets the recipe's measure" if not missed else "  misses: " + "; ".join(missed))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per table size (2, 3 and 4 players)")
    parser.add_argument("--rounds", type=int, default=4, help="at most this many measure-and-set rounds")
    parser.add_argument("--out", type=Path, default=content("dice", "points.csv"))
    parser.add_argument("--map", action="append", default=[], metavar="STAR=SCOPE",
                        help="measure this candidate default map instead (repeatable): its points are set with "
                             "--games and --rounds, then the recipe's [measure] is played")
    parser.add_argument("--measure-games", type=int, default=None, help="override [measure] games")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.map:
        recipe = load_recipe()
        m = recipe.measure
        if m is None:
            parser.error("the recipe has no [measure] table")
        for spec in args.map:
            star, _, scope = spec.partition("=")
            fig = map_figures(star.strip(), scope.strip(), args.measure_games or m.games, m.bots, args.games,
                              args.rounds, args.workers)
            print("\n".join(describe(fig, recipe)), flush=True)
        return
    for line in balance(args.games, args.rounds, args.out):
        print(line)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
