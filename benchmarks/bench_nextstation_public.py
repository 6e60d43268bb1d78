"""Next Station: London: the public solvers' search beside ours, on the same flips (not a test).

Public round solvers grow a line only from its **newest end** (the station reached last; the
departure until the first section), also on a Railroad Switch's turn, and search depth first
with a branch and bound. :class:`NewestEnd` below is such a search, written here for the
comparison (nothing shared with :mod:`tubedeck.solver.nextstation`): each turn it passes or draws one
section from the newest end (the rules engine's other conditions: the turn's symbol, no station
twice, no section crossing one of the line); it cuts a position when an admissible bound cannot
beat the best line found: each of the ``r`` turns left adds one station, which either opens a
district or adds one to the biggest, so ``D x M`` grows to at most ``max_a (D + a)(M + r - a)``,
plus ``thames_points`` per turn left. Its best line is re-scored with
:func:`~tubedeck.games.nextstation.scoring.line_score`.

Beside it, on each round: our exact branch and bound (:func:`tubedeck.games.nextstation.best.best_round`,
``solve --engine auto``) on every round, and the CP-SAT model of record
(:func:`tubedeck.solver.nextstation.model.best_round`, one worker) on the first ``--cp-sat`` rounds (it
takes seconds a round). Rounds: the first round of seeded solo deals (seeds ``--seed`` ..), on
the classic map and a generated map (``--map 1``). Printed: CPU median / p95 / max per round for
each (process time: the machine is shared; wall medians beside), the time ratios, and how many
rounds the newest-end search scores lower than the optimum, by how much; it never scores higher
(asserted: ours are exact), and the gap split: the exact best line with the Switch ignored
(a line growing from both ends, never branching) shows how much each freedom is worth.

    .venv/bin/python benchmarks/bench_nextstation_public.py [--rounds 40] [--seed 0] [--map classic,1] [--cp-sat 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import replace

from tubedeck.game import network
from tubedeck.games.nextstation.best import best_round as exact_bnb
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.edition import deal, load
from tubedeck.games.nextstation.flips import Turn, turns
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.solver.nextstation.model import best_round as cp_sat


class NewestEnd:
    """Depth-first branch and bound growing the line from its newest end only."""

    def __init__(self, board: Board, book: RuleBook, turns_: tuple[Turn, ...], departure: str):
        self.board, self.book, self.turns = board, book, turns_
        self.points = book.rules.thames_points
        districts = sorted({s.district for s in board.stations})
        self.district = {s.id: districts.index(s.district) for s in board.stations}
        self.ndistricts = len(districts)
        self.match = [{s.id for s in board.stations if board.matches(s.id, t.symbol)} for t in turns_]
        self.departure = departure
        self.best, self.best_path, self.nodes = -1, (), 0

    def bound(self, r: int, d: int, m: int, thames: int) -> int:
        product = max((d + a) * (m + r - a) for a in range(min(r, self.ndistricts - d) + 1))
        return product + self.points * (thames + r)

    def run(self) -> tuple[int, tuple[tuple[int, str, str], ...]]:
        counts = [0] * self.ndistricts
        counts[self.district[self.departure]] = 1
        self.go(0, [self.departure], {self.departure}, [], set(), counts, 0, [])
        return self.best, self.best_path

    def go(self, t, path, on, secs, blocked, counts, thames, draws) -> None:
        self.nodes += 1
        d, m = sum(1 for c in counts if c), max(counts)
        score = d * m + self.points * thames
        if score > self.best:
            self.best, self.best_path = score, tuple(draws)
        if t == len(self.turns) or self.bound(len(self.turns) - t, d, m, thames) <= self.best:
            return
        end, match = path[-1], self.match[t]
        for sec in self.board.incident[end]:
            v = sec.other(end)
            if v in on or v not in match or sec.index in blocked:
                continue
            k = self.district[v]
            counts[k] += 1
            path.append(v)
            on.add(v)
            secs.append(sec.index)
            draws.append((t, end, v))
            self.go(t + 1, path, on, secs, blocked | self.board.crossing[sec.index] | {sec.index}, counts,
                    thames + sec.thames, draws)
            draws.pop()
            secs.pop()
            on.discard(v)
            path.pop()
            counts[k] -= 1
        self.go(t + 1, path, on, secs, blocked, counts, thames, draws)  # pass


def newest_end_round(board: Board, book: RuleBook, turns_: tuple[Turn, ...], departure: str) -> tuple[int, int]:
    """(best score growing from the newest end only, nodes searched); the line is re-scored by
    the rules' own line_score."""
    search = NewestEnd(board, book, turns_, departure)
    score, draws = search.run()
    stations = (departure,) + tuple(v for _, _, v in draws)
    sections = tuple(board.section_between[frozenset((u, v))].index for _, u, v in draws)
    assert line_score(board, book, stations, sections).points == score
    return score, search.nodes


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:.1f} ms, p95 {quantile(values, 0.95) * 1000:.1f} ms, "
            f"max {max(values) * 1000:.1f} ms")


class Clock:
    """CPU seconds (``process_time``: what the search costs, steady on a shared machine) and wall
    seconds of one call."""

    def __enter__(self):
        self.cpu0, self.wall0 = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.cpu, self.wall = time.process_time() - self.cpu0, time.perf_counter() - self.wall0


def bench_map(ed, name: str, seeds: range, cp_rounds: int, time_limit: float) -> None:
    board, book = ed.board, ed.book
    cpu: dict[str, list[float]] = {"pub": [], "bnb": [], "cp": []}
    wall: dict[str, list[float]] = {"pub": [], "bnb": [], "cp": []}
    diffs, turn_counts, switch_rounds, nodes, cp_diffs = Counter(), Counter(), 0, [], 0
    best, found = [], []  # the exact best and the newest-end search's score per round
    from_ends, from_switch = [], []  # each gap split: growing both ends, then the Switch's branch
    for n, seed in enumerate(seeds):
        d = deal(ed, 1, seed)
        ts = turns(book, d.flips[0])
        dep = board.departure(d.pencils[0][0]).id
        turn_counts[len(ts)] += 1
        switch_rounds += any(t.switch for t in ts)
        with Clock() as c:
            pub, nd = newest_end_round(board, book, ts, dep)
        cpu["pub"].append(c.cpu)
        wall["pub"].append(c.wall)
        nodes.append(nd)
        with Clock() as c:
            ours = exact_bnb(board, book, ts, dep, time_limit=time_limit)
        cpu["bnb"].append(c.cpu)
        wall["bnb"].append(c.wall)
        assert ours.status == "OPTIMAL", (seed, ours)
        assert pub <= ours.score, (seed, pub, ours.score)  # ours is exact: never beaten
        diffs[ours.score - pub] += 1
        best.append(ours.score)
        found.append(pub)
        no_branch = exact_bnb(board, book, tuple(replace(t, switch=False) for t in ts), dep, time_limit=time_limit)
        assert no_branch.status == "OPTIMAL" and pub <= no_branch.score <= ours.score
        from_ends.append(no_branch.score - pub)
        from_switch.append(ours.score - no_branch.score)
        if n < cp_rounds:
            with Clock() as c:
                cp = cp_sat(board, book, ts, dep, time_limit=time_limit)
            cpu["cp"].append(c.cpu)
            wall["cp"].append(c.wall)
            if cp.status == "OPTIMAL":
                assert pub <= cp.score, (seed, pub, cp.score)
                cp_diffs += cp.score != ours.score
    lower = sum(v for k, v in diffs.items() if k > 0)
    gaps = [k for k, v in diffs.items() for _ in range(v)]
    print(f"{name}: first rounds of seeded solo deals, seeds {seeds.start}-{seeds.stop - 1}; "
          f"turns {dict(sorted(turn_counts.items()))}; {switch_rounds} rounds with a Railroad Switch")
    for key, label in (("pub", "newest-end branch and bound (public style)"),
                       ("bnb", "our exact branch and bound (--engine auto)"),
                       ("cp", f"CP-SAT, 1 worker (first {len(cpu['cp'])} rounds)")):
        if cpu[key]:
            print(f"  {label}: CPU {ms(cpu[key])}; wall median {statistics.median(wall[key]) * 1000:.1f} ms")
    print(f"  newest-end nodes per round: median {statistics.median(nodes):.0f}, max {max(nodes)}")
    for key, label in (("bnb", "ours / newest-end"), ("cp", "CP-SAT / newest-end")):
        if cpu[key]:
            k = len(cpu[key])
            per = [a / b for a, b in zip(cpu[key], cpu["pub"])]
            print(f"  CPU time ratio {label}: per round median {statistics.median(per):.1f}, "
                  f"ratio of medians {statistics.median(cpu[key]) / statistics.median(cpu['pub'][:k]):.1f}, "
                  f"of p95s {quantile(cpu[key], 0.95) / quantile(cpu['pub'][:k], 0.95):.1f}")
    if cpu["cp"]:
        print(f"  CP-SAT score differences from our branch and bound (its OPTIMAL rounds): {cp_diffs}")
    print(f"  newest-end scores lower on {lower} of {len(seeds)} rounds ({100 * lower / len(seeds):.0f}%), "
          f"never higher; points short -> rounds: {dict(sorted(diffs.items()))}; mean {statistics.mean(gaps):.2f}, "
          f"median {statistics.median(gaps)}, max {max(gaps)}")
    print(f"  mean score a round: exact {statistics.mean(best):.2f}, newest-end {statistics.mean(found):.2f} "
          f"({100 * (1 - sum(found) / sum(best)):.1f}% lower)")
    print(f"  the gap split (exact without the Switch's branch, growing both ends): both ends "
          f"{statistics.mean(from_ends):.2f} points a round on average, the Switch's branch "
          f"{statistics.mean(from_switch):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--map", default="classic,1", help="comma-separated: classic and/or generated map seeds")
    ap.add_argument("--cp-sat", type=int, default=10, help="rounds per map also solved by CP-SAT (seconds each)")
    ap.add_argument("--time-limit", type=float, default=120.0)
    args = ap.parse_args()
    seeds = range(args.seed, args.seed + args.rounds)
    for name in args.map.split(","):
        ed = load(None) if name == "classic" else load(network(None), map=name)
        bench_map(ed, "classic map" if name == "classic" else f"generated map --map {name}", seeds, args.cp_sat,
                  args.time_limit)


if __name__ == "__main__":
    main()
