"""``tubedeck solve dice --seed S [--rolls T] [--engine auto|cp-sat] [--time-limit S] [--det-limit D]``:
the best solo score for a seeded roll sequence.

``auto`` (the default): the exact target search of :mod:`.bnb` (on the 22-station map it proves
98 of 100 20-turn sequences, median 0.15-0.19 s on a loaded machine; on the 23-station map few
within seconds: benchmarks/bench_dice_tail.py, docs/dice.md); should it not finish its proof within
:data:`AUTO_SHARE` of the budget, CP-SAT takes the rest (from its best play as a hint) and the
better score and the tighter bound are reported. ``cp-sat``: the CP-SAT model (:mod:`.model`)
alone. The answer names the engine that found and the one that proved it: OPTIMAL is a proof,
FEASIBLE a score found with the bound still open when the budget ran out, UNKNOWN nothing found
(with the bound).

Two budgets, one meaning each (issue 26): ``time_limit`` is wall-clock seconds for the whole
command (measured from :func:`solve_one`'s start; a run ends within it plus replaying the
moves); ``det_limit`` adds a deterministic budget, in deterministic seconds: the target search's
work (nodes and cover steps) at :data:`bnb.WORK_PER_SECOND` and CP-SAT's deterministic time, so the same seed and
options give the same answer on any machine, however loaded, while the wall clock does not cut
first (stored answers, ``python -m tubedeck.solver.dice.challenges``, use it). The moves found are
replayed through the rules engine (one player keeps the two dice of each use), which must reach
the same score: a disagreement is a bug, raised.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from tubedeck.errors import UsageError
from tubedeck.games.dice.edition import Edition, check_seed
from tubedeck.games.dice.play import SKIP, new_game
from tubedeck.progress import Progress, ticking
from tubedeck.solver.cpsat import check_time_limit

from . import bnb
from .model import ModelResult, solve_sequence

MAX_SOLVE_TURNS = 60
ENGINES = ("auto", "cp-sat")
# --engine auto: the target search's share of the budget (wall clock, or deterministic). It
# proves all but a few 20-turn sequences in well under a second (benchmark); what is left goes
# to CP-SAT, started from its best play as a hint.
AUTO_SHARE = 0.5
NAMES = {"bnb": "target search", "cp-sat": "CP-SAT"}
# --engine auto: CP-SAT takes over only with this many wall-clock seconds left (building its
# 20-turn model alone takes 0.3-0.8 s, which no limit can cut short)
CP_SAT_MIN = 1.0


@dataclass(frozen=True)
class Step:
    """What one engine of a run did: its status, score and bound, and the time it took."""

    engine: str  # "bnb" or "cp-sat"
    result: ModelResult

    def describe(self) -> str:
        r, name = self.result, NAMES[self.engine]
        if r.status == "OPTIMAL":
            return f"{name}: proved {r.score} optimal in {r.wall:.2f} s"
        got = f"found {r.score}" if r.score is not None else "found nothing"
        return f"{name}: {got}, bound {r.bound:g}, stopped at its budget after {r.wall:.2f} s (not proven)"


@dataclass(frozen=True)
class SoloSolution:
    edition: Edition
    seed: int
    rolls: tuple[tuple[int, ...], ...]
    result: ModelResult
    steps: tuple[Step, ...] = ()  # the engines in the order they ran

    @property
    def status(self) -> str:
        return self.result.status

    @property
    def engine(self) -> str:
        """The engine whose answer is reported: the one that proved it, else the one that found it."""
        for step in self.steps:
            if step.result.status == "OPTIMAL":
                return step.engine
        best = [st for st in self.steps if st.result.score is not None and st.result.score == self.result.score]
        return best[0].engine if best else (self.steps[-1].engine if self.steps else "")

    def as_dict(self) -> dict:
        b = self.edition.board
        r = self.result
        return {"seed": self.seed, "status": r.status, "score": r.score,
                "bound": r.bound, "engine": self.engine,
                "engines": [{"engine": st.engine, "status": st.result.status, "score": st.result.score,
                             "bound": st.result.bound, "wall": round(st.result.wall, 3)} for st in self.steps],
                "rolls": [list(x) for x in self.rolls],
                "moves": [{"turn": t + 1, "station": b.stations[s].name, "number": n, "sections": k}
                          for t, s, n, k in r.moves]}

    def describe(self) -> list[str]:
        b, r = self.edition.board, self.result
        head = {"OPTIMAL": f"best score {r.score} (proven optimal)",
                "FEASIBLE": f"score {r.score} found; best possible at most {r.bound:g} (budget reached: not proven)",
                }.get(r.status, f"{r.status}: no answer within the budget (bound {r.bound:g})")
        out = [f"Tube Dice solo, seed {self.seed}, {len(self.rolls)} rolls: {head}"]
        out += [f"  {st.describe()}" for st in self.steps]
        if r.score is None:  # no play found: listing every roll as "no use" read as a plan
            out.append("  no play to show: give a longer --time-limit, or --engine auto (the default)")
            return out
        moves = {t: (s, n, k) for t, s, n, k in r.moves}
        for t, roll in enumerate(self.rolls):
            if t in moves:
                s, n, k = moves[t]
                what = f"{n} in {b.stations[s].name}, connections of {k}"
            else:
                what = "no use"
            out.append(f"  turn {t + 1}: roll {' '.join(map(str, roll))}: {what}")
        return out


def replay(edition: Edition, seed: int, rolls, moves) -> int:
    """Play the moves through the rules engine, solo; the final score."""
    state = new_game(edition, 1, seed)
    at = {t: (s, n, k) for t, s, n, k in moves}
    while not state.is_terminal() and state.turn < len(rolls):
        state = state.apply(("roll", rolls[state.turn]))
        legal = state.legal_actions()
        want = at.get(state.turn)
        if want is None:
            action = legal[0]
            assert action[1] == SKIP
        else:
            options = [a for a in legal if a[1:] == want]
            if not options:
                raise AssertionError(f"the solver's move {want} at turn {state.turn + 1} is illegal")
            # the keep that leaves most passes
            action = max(options, key=lambda a: state.apply(a, check=False).sheets[0].passes)
        state = state.apply(action)
    return state.scores()[0]


def _then_cp_sat(first: ModelResult, cp: ModelResult) -> ModelResult:
    """CP-SAT's answer after a cut-short target search: the better score, the tighter bound."""
    wall, det = first.wall + cp.wall, first.det + cp.det
    if cp.status == "OPTIMAL":
        return ModelResult("OPTIMAL", cp.score, cp.bound, cp.moves, wall, det)
    line = cp if cp.score is not None and cp.score > (first.score or 0) else first
    bound = min(first.bound, cp.bound)
    status = "OPTIMAL" if line.score is not None and line.score >= bound else "FEASIBLE"
    return ModelResult(status, line.score, float(max(bound, line.score or 0)), line.moves, wall, det)


def solve_rolls(edition: Edition, seed: int, rolls: int, time_limit: float = 10.0, engine: str = "auto",
                det_limit: float | None = None, progress: Progress | None = None,
                start: float | None = None) -> SoloSolution:
    """``time_limit``: wall-clock seconds from ``start`` (``time.perf_counter()``; default: now);
    ``det_limit``: a deterministic budget too (see the module)."""
    start = time.perf_counter() if start is None else start
    if engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    check_seed(seed)
    if not 1 <= rolls <= min(MAX_SOLVE_TURNS, edition.rules.max_turns):
        raise UsageError(f"--rolls must be 1-{min(MAX_SOLVE_TURNS, edition.rules.max_turns)}, got {rolls}")
    check_time_limit(time_limit)
    if det_limit is not None:
        check_time_limit(det_limit, "--det-limit")  # the same checks, in deterministic seconds
    deadline = start + time_limit
    sequence = edition.rolls(seed, rolls).turns
    steps: list[Step] = []

    def left() -> float:
        return max(deadline - time.perf_counter(), 0.001)

    if engine == "auto":
        work = math.inf if det_limit is None else det_limit * AUTO_SHARE * bnb.WORK_PER_SECOND
        # with a deterministic budget the wall clock only guards: the search may take all of it
        wall = left() * AUTO_SHARE if det_limit is None else left()
        result = bnb.best_sequence(edition, sequence, wall, work=work, progress=progress)
        steps.append(Step("bnb", result))
        if result.status != "OPTIMAL" and deadline - time.perf_counter() >= CP_SAT_MIN:
            if progress is not None:
                progress.update(best=result.score, bound=result.bound, engine="CP-SAT")
            det = None if det_limit is None else max(det_limit - result.det, 0.001)
            with ticking(progress):
                cp = solve_sequence(edition, sequence, left(), hint=result.moves, det_limit=det)
            steps.append(Step("cp-sat", cp))
            result = _then_cp_sat(result, cp)
    else:
        with ticking(progress):
            result = solve_sequence(edition, sequence, left(), det_limit=det_limit)
        steps.append(Step("cp-sat", result))
    if result.score is not None:
        got = replay(edition, seed, sequence, result.moves)
        if got != result.score:
            raise AssertionError(f"{engine} scored {result.score} but the rules engine replays {got}")
    return SoloSolution(edition, seed, sequence, result, tuple(steps))


def solve_one(edition: Edition, seed: int = 0, rolls: int = 20, time_limit: float = 10.0,
              engine: str = "auto", det_limit: float | None = None) -> SoloSolution:
    """The registry's ``solve dice``: progress on stderr when it runs over 2 s."""
    start = time.perf_counter()
    with Progress(f"solve dice seed {seed}") as progress:
        return solve_rolls(edition, seed, rolls, time_limit, engine, det_limit, progress, start)
