"""Set Tube Dice's points by measurement: ``python -m solver.dice.balance [--games N]``.

Plays N games at each table size 2-4 with greedy players on the bundled map, measures for every
line and zone the median roll of its first completion and the share of games in which someone
completes it, and writes them with the difficulty of the recipe's rule (``[points]`` in
``data/dice/recipe.toml``) to ``data/dice/points.csv``. Points steer the greedy players (a line worth more draws more play and
so gets easier), so it measures again with the new points, ``--rounds`` times, and sets points
from the mean of all rounds' difficulties (plain re-measuring oscillates). A developer's tool:
the game reads the file, nothing at run time writes it. The games are played as the recipe sets
them, each seat with its own passes (``extra_passes``).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import statistics
from pathlib import Path

from solver.simulation import play
from tubedeck.atomic import atomic_open
from tubedeck.content import content
from tubedeck.games.dice.edition import Edition, awards, load
from tubedeck.network import Network

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


def balance(games: int, rounds: int, out: Path) -> list[str]:
    edition = load(Network.load())
    scope = edition.board.scope.label
    report = []
    seen: list[dict[tuple[str, str], tuple[float | None, float]]] = []  # measure() per round
    for r in range(rounds):
        figures = measure(edition, games)
        seen.append(figures)
        mean = {k: statistics.fmean(difficulty(*f[k], edition.rules.max_turns) for f in seen) for k in figures}
        lines, zones = awards(edition.recipe, edition.board, mean)
        edition = dataclasses.replace(edition, lines=lines, zones=zones)
        report.append(f"round {r + 1}: " + ", ".join(f"{a.id} {a.high}/{a.low}" for a in lines + zones))
    buf = io.StringIO()
    buf.write("scope,kind,id,first_median,completion_rate,difficulty\n")
    for key in mean:
        firsts = [m for f in seen if (m := f[key][0]) is not None]
        rate = statistics.fmean(f[key][1] for f in seen)
        first = f"{statistics.median(firsts):.1f}" if firsts else ""
        buf.write(f"{scope},{key[0]},{key[1]},{first},{rate:.4f},{mean[key]:.2f}\n")
    with atomic_open(out, "w") as fh:
        fh.write(buf.getvalue())
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per table size (2, 3 and 4 players)")
    parser.add_argument("--rounds", type=int, default=4, help="at most this many measure-and-set rounds")
    parser.add_argument("--out", type=Path, default=content("dice", "points.csv"))
    args = parser.parse_args(argv)
    for line in balance(args.games, args.rounds, args.out):
        print(line)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
