"""``tubedeck solve nextstation``: the best possible round for a flip order and a pencil.

The flip order is a seeded deal's (``--seed S --round R``: the R-th round of that game) or the
order a table just flipped (``--flips "s-circle,switch,u-joker,..."``). The pencil is the
seeded solo order's pencil for that round unless ``--pencil`` names one. The round is solved on
an empty sheet (what this round alone could score).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.cpsat import check_time_limit
from tubedeck.errors import UsageError
from tubedeck.games.nextstation import best as bnb
from tubedeck.games.nextstation.best import RoundResult
from tubedeck.games.nextstation.edition import Edition, deal
from tubedeck.games.nextstation.flips import Turn, parse_flips, turns
from tubedeck.games.nextstation.play import drawn_objectives

from .game import MAX_SEED, GameResult, best_game, spot
from .model import best_round

ENGINES = ("cp-sat", "auto")
DEFAULT_COLUMNS = 20
MAX_COLUMNS = 1000  # column-generation iterations: each adds up to 4 lines to an LP

@dataclass(frozen=True)
class RoundReport:
    seed: int | None
    round: int
    pencil: str
    departure: str
    flips: tuple[str, ...]
    turns: tuple[Turn, ...]
    result: RoundResult
    places: tuple[tuple[str, str], ...] = ()  # station id -> "D8" (and a generated map's name), for people

    def as_dict(self) -> dict:
        out = {"game": "nextstation", "seed": self.seed, "round": self.round, "pencil": self.pencil,
               "departure": spot(self.places, self.departure), "flips": list(self.flips), "turns": len(self.turns),
               **self.result.as_dict()}
        # every station as its id with the sheet coordinate beside it (D8), as the text names it
        out["draws"] = [{**d, "from": spot(self.places, d["from"]), "to": spot(self.places, d["to"])}
                        for d in out["draws"]]
        out["stations"] = [spot(self.places, v) for v in out["stations"]]
        return out

    def describe(self) -> list[str]:
        r = self.result
        head = f"round {self.round}" + (f" of seed {self.seed}" if self.seed is not None else "")
        place = dict(self.places)
        lines = [f"{head}: {self.pencil} pencil from {place.get(self.departure, self.departure)}, "
                 f"{len(self.turns)} turns",
                 "flips: " + ", ".join(self.flips)]
        if r.score is None:
            return lines + [f"{r.status}: no line found within the time limit (bound {r.bound})"]
        verdict = "proven best" if r.status == "OPTIMAL" else f"{r.status}, bound {r.bound}"
        lines.append(f"best round score: {r.score} ({verdict}, {r.wall:.2f} s)")
        drawn = {t: (u, v) for t, u, v in r.draws}
        for t, turn in enumerate(self.turns):
            card = turn.card + (" + Railroad Switch" if turn.switch else "")
            move = " -> ".join(place.get(v, v) for v in drawn[t]) if t in drawn else "pass"
            lines.append(f"  turn {t + 1:2d} {card:32s} {move}")
        return lines

def _then_cp_sat(first: RoundResult, cp: RoundResult) -> RoundResult:
    """CP-SAT's answer after a cut-short branch and bound: the better line, the tighter bound."""
    assert first.score is not None and first.bound is not None  # the branch and bound always has both
    line = cp if cp.score is not None and cp.score >= (first.score or 0) else first
    bound = cp.score if cp.status == "OPTIMAL" else min(first.bound, cp.bound if cp.bound else first.bound)
    assert bound is not None and line.score is not None  # (CP-SAT's OPTIMAL has a line; else first's)
    return replace(line, status=cp.status if line is cp else "FEASIBLE", bound=max(bound, line.score),
                   wall=first.wall + cp.wall)

def solve_round(edition: Edition, seed: int = 0, flips: str | None = None, pencil: str = "", round: int = 1,  # noqa: A002
                time_limit: float = 30.0, engine: str = "cp-sat", game: bool = False,
                objectives: bool = False, columns: int = DEFAULT_COLUMNS) -> RoundReport | GameResult:
    """``engine``: ``cp-sat`` (the model of record) or ``auto`` (the branch and bound of
    :mod:`tubedeck.games.nextstation.best`; should it not finish its proof within the time
    limit, CP-SAT takes the rest). ``game``: the whole solo game instead (:mod:`.game`)."""
    rules = edition.rules
    check_time_limit(time_limit)
    if game:
        if flips is not None or pencil or round != 1:
            raise UsageError("--game solves the seeded solo game (its flips and pencils): drop --flips, --pencil "
                             "and --round")
        if not 0 <= columns <= MAX_COLUMNS:
            raise UsageError(f"--columns must be 0-{MAX_COLUMNS}, got {columns}")
        return best_game(edition, seed, drawn_objectives(edition, seed) if objectives else (), time_limit=time_limit,
                         columns=columns)
    if columns != DEFAULT_COLUMNS:
        raise UsageError("--columns tightens the whole game's bound: add --game")
    if objectives:
        raise UsageError("--objectives counts the seeded game's Shared Objectives in the whole game: add --game")
    if engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if not 1 <= round <= rules.rounds:
        raise UsageError(f"--round must be 1-{rules.rounds}, got {round}")
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be 0-{MAX_SEED}, got {seed}")
    if pencil and pencil not in rules.pencils:
        raise UsageError(f"--pencil must be one of {', '.join(rules.pencils)}, got {pencil!r}")
    d = deal(edition, 1, seed)
    order = parse_flips(edition.book, flips) if flips is not None else d.flips[round - 1]
    ts = turns(edition.book, order)
    order = order[:order.index(ts[-1].card) + 1]  # the cards flipped before the round ended
    colour = pencil or d.pencils[0][round - 1]
    dep = edition.board.departure(colour).id
    if engine == "auto":
        result = bnb.best_round(edition.board, edition.book, ts, dep, time_limit=time_limit / 2)
        if result.status != "OPTIMAL":
            result = _then_cp_sat(result, best_round(edition.board, edition.book, ts, dep,
                                                     time_limit=max(time_limit - result.wall, 0.01)))
    else:
        result = best_round(edition.board, edition.book, ts, dep, time_limit=time_limit)
    board = edition.board
    return RoundReport(None if flips is not None else seed, round, colour, dep, order, ts, result,
                       tuple((v, board.place(v)) for v in sorted({dep} | {x for _, u, w in result.draws for x in (u, w)})))

