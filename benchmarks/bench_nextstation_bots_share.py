"""The bots' share of the proven optimum (issue 25 item 6): how far the Next Station bots' solo play
is from perfect, on the deals whose best whole games data/nextstation/challenges.csv stores.

    nice -n 19 .venv/bin/python benchmarks/bench_nextstation_bots_share.py [--seeds 0-9] [--games 3]
        [--bots random,greedy,lookahead,mcts]

For each classic seed S in ``--seeds``, each bot plays the base solo game (no Shared Objectives,
no Pencil Powers) dealt by seed S: ``new_game(edition, 1, S)``, the game ``tubedeck play
nextstation -p 1 -s S --bots BOT`` plays. That deal is the one the challenge row of seed S
solves: both come from :func:`tubedeck.games.nextstation.edition.deal` (``deal(edition, 1, S)``;
the solver's :func:`tubedeck.solver.nextstation.game.rounds_of` reads it through
:func:`tubedeck.games.nextstation.challenge.deal_rounds`, and the rows are replayed through
``new_game(edition, 1, S)`` by :func:`~tubedeck.games.nextstation.challenge.replay`). The run
checks it anyway, per seed, before any bot plays: the engine's pencils, departures, flips and
turns (symbol, Switch, last) equal ``rounds_of``'s, and the stored drawing replays to its score.

The bots (``--bots``): ``random``, ``greedy``, ``lookahead`` (:mod:`tubedeck.solver.nextstation.players`)
and the search bot ``mcts`` (:mod:`tubedeck.solver.mcts` with :data:`tubedeck.solver.nextstation.search_bot.SEARCH`:
1000 iterations a decision, about 20 s a game on one core) or ``mcts:ITERATIONS`` for another
budget. None of them sees the order of the cards still face down. greedy and lookahead are
deterministic (one game a seed); random and mcts play ``--games N`` games a seed, game k with the
driver's seat streams of rng seed ``S + k * 1000003`` (game 0: ``S``, as ``tubedeck play``): the
mean and the best are shown, the mean counts in the shares.

The proven optimum of a deal lies between the stored best game (``best``) and the stored bound
(``bound``), so a bot's share of it lies in [score / bound, score / best]. Per seed: each bot's
score and that interval; then per bot the mean, over the seeds, of score / best and of score /
bound, each with a 95% interval over the seeds (Student's t with n - 1 degrees of freedom: a
seed's share is one observation), the mean score and the seconds a game (wall clock, and CPU of
this process). A bot game above the stored best is a finding: its drawing is replayed through the
rules engine and printed; a bot game above the bound is a bug (the run fails).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from tubedeck.content import content
from tubedeck.errors import UsageError
from tubedeck.games.nextstation.challenge import (
    CLASSIC,
    Move,
    drawing_text,
    parse_drawing,
    read_rows,
    replay,
    seed_range,
)
from tubedeck.games.nextstation.edition import Edition, load
from tubedeck.games.nextstation.flips import turns_so_far
from tubedeck.games.nextstation.play import PASS, new_game
from tubedeck.play import Played, play_game
from tubedeck.solver.nextstation.game import rounds_of
from tubedeck.solver.nextstation.simulate import PLAYING
from tubedeck.solver.simulation import bot_for

BOTS = "random,greedy,lookahead,mcts"
DETERMINISTIC = ("greedy", "lookahead")  # they never draw from their rng: one game a seed
RNG_STRIDE = 1_000_003  # game k of seed S plays with rng seed S + k * RNG_STRIDE
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """Student's t 97.5% quantile: the table to 30 degrees of freedom, then the Cornish-Fisher
    expansion around 1.96 (within 0.001 from 30 on)."""
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_interval(xs: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the 95% t interval of the mean (one value: no interval)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.nan, math.nan
    half = t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


@dataclass
class Tally:
    """One bot over the run: per seed its mean score and the shares; the seconds of every game."""

    name: str
    of_best: list[float] = field(default_factory=list)
    of_bound: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def check_deal(ed: Edition, seed: int) -> list[str]:
    """What differs between the engine's 1-player game of ``seed`` and the solver's
    ``rounds_of(ed, seed)`` (none: the same deal): each round's pencil, departure, cards flipped
    and turns, as the engine meets them playing passes to the end."""
    rounds, pencils, flips = rounds_of(ed, seed)
    state = new_game(ed, 1, seed)
    seen: list[tuple[str, str, list[str], list]] = []  # per round: pencil, departure, flips, turns
    while not state.is_terminal():
        if len(seen) == state.round:
            line = state.sheets[0].lines[-1]
            seen.append((line.pencil, line.stations[0], [], []))
        flip = state.dealt_outcome()
        if flip is not None:
            seen[-1][2].append(flip[1])
            state = state.apply(flip)
            continue
        seen[-1][3].append(state.drawing)
        state = state.apply(PASS)
    out = []
    if len(seen) != len(rounds):
        out.append(f"{len(seen)} rounds in the engine, {len(rounds)} in rounds_of")
    for r, ((pencil, departure, cards, turns), (want_turns, want_dep)) in enumerate(zip(seen, rounds), start=1):
        if pencil != pencils[r - 1]:
            out.append(f"round {r}: pencil {pencil}, rounds_of {pencils[r - 1]}")
        if departure != want_dep:
            out.append(f"round {r}: departure {departure}, rounds_of {want_dep}")
        if tuple(cards) != flips[r - 1]:
            out.append(f"round {r}: flips {cards}, rounds_of {list(flips[r - 1])}")
        if tuple(turns) != want_turns:
            out.append(f"round {r}: turns differ ({len(turns)} in the engine, {len(want_turns)} in rounds_of)")
    return out


def drawing_of(ed: Edition, seed: int, played: Played) -> str:
    """A played game as a challenges.csv drawing (``T:U>V``, 1-based turns of each round), checked
    by replaying it through the rules engine to the game's score (AssertionError otherwise)."""
    state = new_game(ed, 1, seed)
    moves: list[list[Move]] = [[] for _ in range(ed.rules.rounds)]
    for m in played.moves:
        action = m.action
        assert isinstance(action, tuple)  # the engine's actions: ("flip", card), ("draw", u, v), ("pass",)
        if action[0] == "draw":
            turn = len(turns_so_far(ed.book, state.flipped)[0])
            moves[state.round].append(Move(turn, action[1], action[2]))
        state = state.apply(action)
    text = drawing_text(((m.turn - 1, m.start, m.end) for m in rnd) for rnd in moves)
    total = replay(ed, seed, tuple(tuple(r) for r in moves))
    assert total == played.state.final(0).total, f"the drawing replays to {total}"
    return text


def play(ed: Edition, seed: int, bot, rng_seed: int) -> tuple[Played, float, float]:
    """One base solo game of the seed's deal: (the game, wall seconds, CPU seconds)."""
    t, c = time.perf_counter(), time.process_time()
    start: Any = new_game(ed, 1, seed)  # (a play.State by duck typing: its actions are tuples)
    played = play_game(start, [bot], rng_seed)
    return played, time.perf_counter() - t, time.process_time() - c


def pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-9", help="classic seeds A-B with a row in challenges.csv")
    ap.add_argument("--games", type=int, default=3, help="games a seed for the bots that use randomness "
                    "(random, mcts), each with its own rng seed")
    ap.add_argument("--bots", default=BOTS, help="comma-separated: random, greedy, lookahead, mcts[:ITERATIONS]")
    args = ap.parse_args(argv)
    if not 1 <= args.games <= 1000:
        ap.error(f"--games must be 1-1000, got {args.games}")
    try:
        seeds = seed_range(args.seeds)
        names = [n.strip() for n in args.bots.split(",") if n.strip()]
        bots = {n: bot_for(PLAYING, n) for n in names}
    except UsageError as exc:
        ap.error(str(exc))
    if not names:
        ap.error("--bots names no bot")
    ed = load(None)
    rows = read_rows(content("nextstation", "challenges.csv"))
    missing = [s for s in seeds if (CLASSIC, str(s)) not in rows]
    if missing:
        ap.error(f"no classic row in challenges.csv for seed(s) {', '.join(map(str, missing))}")
    print(f"# cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}, nice {os.nice(0)}; classic map, base solo game; "
          f"bots {', '.join(names)}; {args.games} game(s) a seed for random and mcts", flush=True)
    print("# cell: bot's score (randomised bots: mean of the games, best in brackets) and its share of the "
          "proven optimum, [score/bound, score/best]", flush=True)
    print("| seed | best | bound | " + " | ".join(names) + " |", flush=True)
    print("|---:|---:|---:|" + "---|" * len(names), flush=True)
    tallies = {n: Tally(n) for n in names}
    findings: list[str] = []
    bad = 0
    for seed in seeds:
        differs = check_deal(ed, seed)
        if differs:
            print(f"DEAL DIFFERS, seed {seed}: " + "; ".join(differs), flush=True)
            return 1
        row = rows[(CLASSIC, str(seed))]
        best, bound = int(row[2]), int(row[4])
        moves = parse_drawing(row[5], ed.rules.rounds, ed.board, lambda message: None)
        stored = None if moves is None else replay(ed, seed, moves)
        if stored != best:
            print(f"STORED GAME seed {seed}: the rules engine scores its drawing {stored}, the row says {best}",
                  flush=True)
            return 1
        cells = []
        for n, bot in bots.items():
            games = 1 if n in DETERMINISTIC else args.games
            results = []
            for k in range(games):
                played, wall, cpu = play(ed, seed, bot, seed + k * RNG_STRIDE)
                score = played.state.final(0).total
                tallies[n].wall.append(wall)
                tallies[n].cpu.append(cpu)
                results.append(score)
                if score > bound:
                    bad += 1
                    findings.append(f"BUG: seed {seed}, {n} game {k} scores {score} > bound {bound}: "
                                    f"{drawing_of(ed, seed, played)}")
                elif score > best:
                    findings.append(f"ABOVE THE STORED BEST: seed {seed}, {n} game {k} scores {score} > {best}: "
                                    f"{drawing_of(ed, seed, played)}")
            mean = statistics.fmean(results)
            t = tallies[n]
            t.scores.append(mean)
            t.of_best.append(mean / best)
            t.of_bound.append(mean / bound)
            shown = f"{mean:g}" if games == 1 else f"{mean:.1f} ({max(results)})"
            cells.append(f"{shown} [{pct(mean / bound)}, {pct(mean / best)}]")
        print(f"| {seed} | {best} | {bound} | " + " | ".join(cells) + " |", flush=True)
    print()
    print(f"Over {len(seeds)} seeds: mean share (95% interval over seeds, Student's t, {len(seeds) - 1} df); "
          "the optimum's share lies between the two columns")
    print()
    print("| bot | games | mean score | share of best game | share of bound | wall s/game (max) | CPU s/game |")
    print("|---|---:|---:|---|---|---|---:|")
    for n, t in tallies.items():
        sb, lb, hb = mean_interval(t.of_best)
        sn, ln, hn = mean_interval(t.of_bound)
        print(f"| {n} | {len(t.wall)} | {statistics.fmean(t.scores):.1f} | {pct(sb)} ({pct(lb)}-{pct(hb)}) | "
              f"{pct(sn)} ({pct(ln)}-{pct(hn)}) | {statistics.fmean(t.wall):.3f} ({max(t.wall):.3f}) | "
              f"{statistics.fmean(t.cpu):.3f} |")
    best_mean = statistics.fmean(int(rows[(CLASSIC, str(s))][2]) for s in seeds)
    bound_mean = statistics.fmean(int(rows[(CLASSIC, str(s))][4]) for s in seeds)
    print(f"\n# stored best games: mean {best_mean:.1f}; bounds: mean {bound_mean:.1f}; "
          f"load at the end {os.getloadavg()[0]:.1f}")
    for f in findings:
        print(f, flush=True)
    if not findings:
        print("# no bot game above the stored best game")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
