"""``tubedeck solve dice --seed S [--turns T] [--engine cp-sat|auto]``: the best solo score for a
seeded roll sequence.

``cp-sat`` (the default, the model of record): the CP-SAT model (:mod:`.model`) decides; its
status is reported as CP-SAT gives it: OPTIMAL is a proof, FEASIBLE a score found with the bound
still open at the time limit, UNKNOWN nothing found (with the bound). ``auto``: the target search
of :mod:`.bnb` (exact, mostly well under a second for 20 turns); should it not finish its proof
within a quarter of the time limit, CP-SAT takes the rest (from its best play as a hint) and the
better score and the tighter bound are reported. The moves found are replayed through the rules
engine (one player keeps the two dice of each use), which must reach the same score: a
disagreement is a bug, raised.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.cpsat import check_time_limit
from tubedeck.errors import UsageError
from tubedeck.games.dice.edition import Edition, check_seed
from tubedeck.games.dice.play import SKIP, new_game

from . import bnb
from .model import ModelResult, solve_sequence

MAX_SOLVE_TURNS = 60
ENGINES = ("cp-sat", "auto")
# --engine auto: the target search's share of the time limit. It proves most 20-turn sequences
# in well under a second, and the few it does not, not within minutes either (benchmark), so
# CP-SAT (started from its best play as a hint) gets most of the time.
AUTO_SHARE = 0.25


@dataclass(frozen=True)
class SoloSolution:
    edition: Edition
    seed: int
    rolls: tuple[tuple[int, ...], ...]
    result: ModelResult

    @property
    def status(self) -> str:
        return self.result.status

    def as_dict(self) -> dict:
        b = self.edition.board
        r = self.result
        return {"seed": self.seed, "turns": len(self.rolls), "status": r.status, "score": r.score,
                "bound": r.bound, "rolls": [list(x) for x in self.rolls],
                "moves": [{"turn": t + 1, "station": b.stations[s].name, "number": n, "sections": k}
                          for t, s, n, k in r.moves]}

    def describe(self) -> list[str]:
        b, r = self.edition.board, self.result
        head = {"OPTIMAL": f"best score {r.score} (proven optimal)",
                "FEASIBLE": f"score {r.score} found; best possible at most {r.bound:g} (time limit reached: not proven)",
                }.get(r.status, f"{r.status}: no answer within the time limit (bound {r.bound:g})")
        out = [f"Tube Dice solo, seed {self.seed}, {len(self.rolls)} turns: {head}"]
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
    if cp.status == "OPTIMAL":
        return ModelResult("OPTIMAL", cp.score, cp.bound, cp.moves, first.wall + cp.wall)
    line = cp if cp.score is not None and cp.score > (first.score or 0) else first
    bound = min(first.bound, cp.bound)
    status = "OPTIMAL" if line.score is not None and line.score >= bound else "FEASIBLE"
    return ModelResult(status, line.score, float(max(bound, line.score or 0)), line.moves, first.wall + cp.wall)


def solve_rolls(edition: Edition, seed: int, turns: int, time_limit: float = 10.0,
                engine: str = "cp-sat") -> SoloSolution:
    if engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    check_seed(seed)
    if not 1 <= turns <= min(MAX_SOLVE_TURNS, edition.rules.max_turns):
        raise UsageError(f"--turns must be 1-{min(MAX_SOLVE_TURNS, edition.rules.max_turns)}, got {turns}")
    check_time_limit(time_limit)
    rolls = edition.rolls(seed, turns).turns
    if engine == "auto":
        result = bnb.best_sequence(edition, rolls, time_limit * AUTO_SHARE)
        if result.status != "OPTIMAL":
            cp = solve_sequence(edition, rolls, max(time_limit - result.wall, 0.01), hint=result.moves)
            result = _then_cp_sat(result, cp)
    else:
        result = solve_sequence(edition, rolls, time_limit)
    if result.score is not None:
        got = replay(edition, seed, rolls, result.moves)
        if got != result.score:
            raise AssertionError(f"{engine} scored {result.score} but the rules engine replays {got}")
    return SoloSolution(edition, seed, rolls, result)


def solve_one(edition: Edition, seed: int = 0, turns: int = 20, time_limit: float = 10.0,
              engine: str = "cp-sat") -> SoloSolution:
    """The registry's ``solve dice``."""
    return solve_rolls(edition, seed, turns, time_limit, engine)
