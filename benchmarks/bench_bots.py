"""A ladder of bots per game: each pair plays the same seeds with the seats swapped; win rates
with 95% Wilson intervals (a tie counts half), and the time each bot takes per move.

    .venv/bin/python benchmarks/bench_bots.py [--games 300] [--game klm] [--mcts mcts:200] [--json]

A seed whose two games the same seat won was decided, between these two bots, by the deal and the
seat: each such seed counts one win each. With D of N seeds so decided the share is at most
(N - D/2) / N; many of them mark a game of luck, where a share far above 50% needs a bot that
wins from the seat and deal its opponent wins with.

Times are CPU seconds of this process (one core), so a loaded machine does not inflate them.

``best`` is each game's strongest bot by the ladder (docs/play.md), shown with the bot it names; a
pair it makes that the ladder plays anyway is played once.

``--games N`` plays N seeds per pair, each seed twice (seats swapped): 2N games. Next Station is
solo: the mean score of each bot over N seeds, with its 95% interval, and the seconds per game.

Targets (issue 24; games are 2N): Keep London Moving (2 players, core) mcts vs greedy >= 60% over
600 games; Keep Moving mcts vs greedy >= 60% over 600; Tube Dice (2 players) mcts vs lookahead
>= 55% over 600; One Day (2 players) mcts vs lookahead >= 50% over 200; Next Station solo classic
mean score >= 157 at <= 30 s a game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.game import resolve  # noqa: E402
from tubedeck.games import get  # noqa: E402
from tubedeck.play import play_game  # noqa: E402
from tubedeck.solver.simulation import bot_for  # noqa: E402
from tubedeck.stats import wilson  # noqa: E402

SEARCH = "mcts"  # replaced by --mcts
LADDER: list[tuple[str, int, dict[str, str], list[tuple[str, ...]]]] = [  # (game, players, edition options, [(bot, against)]): every pair; "mcts" is the --mcts spec
    ("klm", 2, {"scope": "core"}, [("best", "greedy"), ("rollout", "greedy"), ("rollout", "lookahead"),
                                   ("rollout", "mcts"), ("mcts", "greedy"), ("mcts", "lookahead"), ("mcts", "random"),
                                   ("lookahead", "greedy"), ("lookahead", "random"), ("greedy", "random")]),
    ("keepmoving", 2, {}, [("best", "greedy"), ("mcts", "greedy"), ("mcts", "lookahead"), ("mcts", "random"),
                           ("lookahead", "greedy"), ("lookahead", "random"), ("greedy", "random")]),
    ("dice", 2, {}, [("best", "lookahead"), ("mcts", "lookahead"), ("mcts", "greedy"), ("mcts", "random"),
                     ("lookahead", "greedy"), ("lookahead", "random"), ("greedy", "random")]),
    ("oneday", 2, {}, [("best", "lookahead"), ("mcts", "lookahead"), ("mcts", "greedy"), ("mcts", "random"),
                       ("lookahead", "greedy"), ("lookahead", "random"), ("greedy", "random")]),
    ("nextstation", 1, {}, [("best",), ("mcts",), ("planner",), ("lookahead",), ("greedy",), ("random",)]),
]
BEST = "best"  # each game's strongest bot by the ladder (Game.best, docs/play.md): shown as "best (NAME)"


class Timed:
    """A bot that keeps the CPU seconds it spent (one core: the machine's load does not count) and
    the moves it made."""

    def __init__(self, bot) -> None:
        self.bot, self.seconds, self.moves = bot, 0.0, 0

    def __call__(self, state, rng):
        t = time.process_time()
        try:
            return self.bot(state, rng)
        finally:
            self.seconds += time.process_time() - t
            self.moves += 1

    @property
    def per_move(self) -> float:
        return self.seconds / max(1, self.moves)


def match(game: str, players: int, options: dict, a: str, b: str, seeds: int, first: int = 0) -> dict:
    rules = resolve(f"tubedeck.solver.{game}.simulate:PLAYING")
    ed = rules.edition(None, options)
    ta, tb = Timed(bot_for(rules, a)), Timed(bot_for(rules, b))
    wins, games, start, by_seat = 0.0, 0, time.process_time(), 0
    results = []  # per seed, the search bot's result with it in seat 1 and in seat 2
    for seed in range(first, first + seeds):
        pair = []
        for seat in (0, 1):
            bots = [tb] * players
            bots[seat] = ta
            r = play_game(rules.start(ed, players, seed), bots, seed).state.returns()
            best = max(r[q] for q in range(players) if q != seat)
            pair.append(1.0 if r[seat] > best else 0.5 if r[seat] == best else 0.0)
        wins, games = wins + sum(pair), games + 2
        by_seat += pair[0] + pair[1] == 1.0 and 0.5 not in pair  # the same seat won both: the deal decided
        results.append(pair)
    lo, hi = wilson(wins, games)
    return {"game": game, "bot": a, "against": b, "seeds": [first, first + seeds - 1], "games": games, "wins": wins,
            "decided_by_seat": by_seat, "results": results, "share": round(wins / games, 3),
            "interval95": [round(lo, 3), round(hi, 3)], "s_per_move": {a: round(ta.per_move, 4), b: round(tb.per_move, 4)},
            "s_per_game": round((time.process_time() - start) / games, 2)}


def solo(game: str, options: dict, a: str, seeds: int, first: int = 0) -> dict:
    rules = resolve(f"tubedeck.solver.{game}.simulate:PLAYING")
    ed = rules.edition(None, options)
    ta, scores, start = Timed(bot_for(rules, a)), [], time.process_time()
    for seed in range(first, first + seeds):
        scores.append(play_game(rules.start(ed, 1, seed), [ta], seed).state.returns()[0])
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else float("inf")
    return {"game": game, "bot": a, "seeds": [first, first + seeds - 1], "games": seeds, "scores": scores,
            "mean_score": round(mean, 1),
            "interval95": [round(mean - half, 1), round(mean + half, 1)], "s_per_move": round(ta.per_move, 4),
            "s_per_game": round((time.process_time() - start) / seeds, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="seeds per pair (each played with the seats swapped)")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--mcts", default="mcts", help="the search bot's spec (mcts:ITERATIONS)")
    ap.add_argument("--only-mcts", action="store_true", help="only the pairs with the search bot")
    ap.add_argument("--first", type=int, default=0, help="the first seed (to split a long match into parts)")
    ap.add_argument("--pair", help="only this pair, as BOT,AGAINST (or one bot for a solo game)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be >= 1")
    out = []
    for game, players, options, ladder in LADDER:
        if args.game and game not in args.game:
            continue
        played: dict[tuple[str, ...], dict] = {}  # by the bots' resolved names: "best" plays no pair twice
        for pair in [tuple(args.pair.split(","))[:players]] if args.pair else ladder:
            if args.only_mcts and SEARCH not in pair and BEST not in pair:
                continue
            names = [args.mcts if n == SEARCH else n for n in pair]
            shown = [f"{n} ({get(game).bot_name(n)})" if n == BEST else n for n in names]
            resolved = tuple(get(game).bot_name(n) for n in names)
            if players == 1:
                r = played.get(resolved) or solo(game, options, names[0], args.games, args.first)
                line = (f"{game:12} {shown[0]:>10}: mean score {r['mean_score']} (95% {r['interval95'][0]}-"
                        f"{r['interval95'][1]}), {r['games']} games, {r['s_per_move']:.3f} s/move, "
                        f"{r['s_per_game']:.1f} s/game")
            else:
                r = played.get(resolved) or match(game, players, options, names[0], names[1], args.games, args.first)
                lo, hi = r["interval95"]
                moves = list(r["s_per_move"].values())
                line = (f"{game:12} {shown[0]:>10} vs {shown[1]:<10}: {100 * r['share']:.1f}% "
                        f"(95% {100 * lo:.1f}-{100 * hi:.1f}%) of {r['games']} games, "
                        f"{moves[0]:.3f} s/move ({names[1]} {moves[-1]:.3f}); "
                        f"the same seat won both games of {r['decided_by_seat']} of {r['games'] // 2} seeds")
            played[resolved] = r
            r = {**r, "bot": shown[0], **({"against": shown[1]} if players > 1 else {})}
            out.append(r)
            if not args.json:
                print(line, flush=True)
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
