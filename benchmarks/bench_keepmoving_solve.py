"""Keep Moving survival solver figures (not a test): ``solve keepmoving`` on real mid-game positions.

The positions: seeds 0, 1, ... played by random bots to the first play step at or after turn 20
(:func:`tubedeck.solver.keepmoving.survive.midgame`; a game over before is skipped), the first 20 of them.
For each, every play is solved for 2 and for 3 own turns; printed: the seed, the turn, the cubes
of the player to move, the plays, the seconds, the positions weighed, the values (or the cap hit).

``--cubes K`` keeps only positions where the player to move has at most K cubes: with more, a
plain strategy (one lava a turn at most) proves survival at once, so these are the positions that
need a search.

Targets (issue 26 item 4): 2 own turns exact on every position (no cap hit); 3 own turns within
60 s a position.

    .venv/bin/python benchmarks/bench_keepmoving_solve.py [--positions 20] [--turns 2 3] [--cubes 2]
"""

from __future__ import annotations

import argparse
import time

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.keepmoving.play import State
from tubedeck.solver.keepmoving.survive import MAX_POSITIONS, midgame, solve_position

TARGET_SECONDS = {2: None, 3: 60.0}  # None: exact on all, no time target


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--turns", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--limit", type=int, default=MAX_POSITIONS)
    ap.add_argument("--cubes", type=int, default=None,
                    help="only positions where the player to move has at most this many cubes (the hard ones)")
    args = ap.parse_args()
    ed = edition(get("keepmoving"))
    states: list[tuple[int, State]] = []
    seed = 0
    while len(states) < args.positions:
        s = midgame(ed, seed)
        if s is not None and (args.cubes is None or s.lives[s.to_move] <= args.cubes):
            states.append((seed, s))
        seed += 1
    for turns in args.turns:
        times, capped = [], 0
        print(f"-- {turns} own turn(s), {len(states)} positions")
        for seed, s in states:
            p = s.to_move
            t = time.perf_counter()
            try:
                moves, positions = solve_position(s, turns, limit=args.limit)
                out = f"{positions:>9,} positions  p = " + " ".join(f"{v:.4f}" for _, v in moves)
            except UsageError as exc:
                capped += 1
                out = f"CAP: {str(exc)[:120]}"
            dt = time.perf_counter() - t
            times.append(dt)
            print(f"seed {seed:>3}  turn {s.turn + 1:>3}  cubes {s.lives[p]:>2}  plays {len(s.legal_actions())}  "
                  f"{dt:7.2f} s  {out}", flush=True)
        times.sort()
        target = TARGET_SECONDS.get(turns)
        over = sum(x > target for x in times) if target else 0
        verdict = ("meets" if not capped and not over else "MISSES") + (
            f" the target (exact on all{f', each within {target:.0f} s' if target else ''})")
        print(f"{turns} turns: {len(times) - capped}/{len(times)} exact, cap hit on {capped}; seconds a position: "
              f"median {times[len(times) // 2]:.2f}, max {times[-1]:.2f}, total {sum(times):.1f}; {verdict}")


if __name__ == "__main__":
    main()
