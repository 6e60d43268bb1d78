"""Keep London Moving: how much of the game against greedy play can decide, and how much a fair bot takes.

    .venv/bin/python benchmarks/bench_klm_ceiling.py [--bot clairvoyant] [--games 300] [--players 2]

One bot (``--bot``: ``clairvoyant``, or any ``--bots`` name of the game: ``rollout``, ``mcts:100``)
plays against ``--against`` (default greedy) in the ``core`` scope. Every seed is played once with
the bot in each seat (``--games N`` seeds: N x players games), the others greedy, so every bot
meets the same deals. A win counts 1, a tie (a game without a winner) half; the share has a 95%
Wilson interval; the fair share is 1 / players.

``clairvoyant`` is not a fair player (:func:`tubedeck.solver.klm.rollout_bot.clairvoyant`): it
knows the other hands, the stocks' order and the rolls to come, and plays each candidate move out
by greedy in the real game. It wins every game greedy would win in its seat and more: the share it
takes is a measured ceiling of what play can decide against greedy on these deals. "Seat-decided"
(two players) counts the seeds whose two games the same seat won.

Seconds are CPU seconds of this process (one core), so a loaded machine does not inflate them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.game import resolve  # noqa: E402
from tubedeck.play import play_game  # noqa: E402
from tubedeck.solver.klm.rollout_bot import clairvoyant  # noqa: E402
from tubedeck.solver.simulation import bot_for  # noqa: E402
from tubedeck.stats import wilson  # noqa: E402


def match(bot: str, against: str, players: int, seeds: int, first: int = 0, scope: str = "core") -> dict:
    rules = resolve("tubedeck.solver.klm.simulate:PLAYING")
    ed = rules.edition(None, {"scope": scope})
    mine = clairvoyant if bot == "clairvoyant" else bot_for(rules, bot)
    other = bot_for(rules, against)
    wins, games, by_seat, results = 0.0, 0, 0, []
    start = time.process_time()
    for seed in range(first, first + seeds):
        row = []
        for seat in range(players):
            bots = [other] * players
            bots[seat] = mine
            r = play_game(rules.start(ed, players, seed), bots, seed).state.returns()
            best = max(r[q] for q in range(players) if q != seat)
            row.append(1.0 if r[seat] > best else 0.5 if r[seat] == best else 0.0)
        wins, games = wins + sum(row), games + players
        by_seat += players == 2 and sorted(row) == [0.0, 1.0]
        results.append(row)
    lo, hi = wilson(wins, games)
    return {"game": "klm", "scope": scope, "bot": bot, "against": against, "players": players,
            "seeds": [first, first + seeds - 1], "games": games, "wins": wins, "share": round(wins / games, 3),
            "interval95": [round(lo, 3), round(hi, 3)], "fair_share": round(1 / players, 3),
            "decided_by_seat": by_seat if players == 2 else None, "results": results,
            "s_per_game": round((time.process_time() - start) / games, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="clairvoyant", help="clairvoyant, or a --bots name of the game")
    ap.add_argument("--against", default="greedy", help="the bot in the other seats")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=300, help="seeds (each played once with the bot in every seat)")
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--scope", default="core")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.games < 1 or not 2 <= args.players <= 6:
        ap.error("--games must be >= 1 and --players 2-6")
    r = match(args.bot, args.against, args.players, args.games, args.first, args.scope)
    if args.json:
        print(json.dumps(r, indent=1))
        return
    lo, hi = r["interval95"]
    seat = f"; the same seat won both games of {r['decided_by_seat']} of {args.games} seeds" if args.players == 2 else ""
    print(f"klm {args.players}p {r['bot']} vs {r['against']}: {100 * r['share']:.1f}% (95% {100 * lo:.1f}-"
          f"{100 * hi:.1f}%, fair share {100 * r['fair_share']:.0f}%) of {r['games']} games, seeds "
          f"{r['seeds'][0]}-{r['seeds'][1]}, {r['s_per_game']:.2f} CPU s a game{seat}")


if __name__ == "__main__":
    main()
