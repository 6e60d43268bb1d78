"""The best possible whole solo game of Next Station: London for known flips (``solve nextstation
--game``): 4 rounds, one line each, in the seeded solo order's pencils.

Two searches (the better game kept), then a second bound:

1. **Best responses** (fast, no proof; :mod:`tubedeck.games.nextstation.responses`, which the
   solo challenge sheet also uses): each round in turn redrawn as the line worth most to the game
   given the other three, until none improves, from 8 starts, then ``KICKS`` seeded kicks of
   iterated local search. The same game on any machine.
2. **CP-SAT** (:mod:`.game_model`, the engine of record) from that game as a hint, with each
   round's line score capped by its proven best on an empty sheet, for ``--time-limit`` seconds
   of CP-SAT's deterministic time (1 worker by default: the same answer anywhere). OPTIMAL is a
   proof; at the time limit the status is FEASIBLE and the bound is CP-SAT's.
3. **The column bound** (``columns`` iterations, :mod:`.columns`): a Dantzig-Wolfe relaxation over
   whole lines, much tighter than CP-SAT's; the lesser bound is reported, and a bound that meets
   the game found is a proof (OPTIMAL).

What is measured (README, ``benchmarks/bench_nextstation.py --games``): the proof is out of reach
in a minute for real flips. CP-SAT's bound stays far above the games found, since its LP
relaxation lets every round's line visit every station a little (interchanges for free); the
column bound closes about half of that gap, not all of it. Shared
Objectives count when given (CP-SAT only; the best responses ignore them).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from solver.cpsat import check_time_limit
from tubedeck.errors import UsageError
from tubedeck.games.nextstation.best import best_round
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.challenge import deal_rounds
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.responses import GUARD, KICKS, Round, best_responses, lines_of
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.games.nextstation.scoring import FinalScore, final_score

from .columns import column_bound
from .game_model import solve_game

MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class RoundPlan:
    """One round of a solved game: the pencil, its departure, the cards flipped, the line drawn."""

    pencil: str
    departure: str
    flips: tuple[str, ...]
    draws: tuple[tuple[int, str, str], ...]  # (turn index 0-based, from, to), in turn order
    stations: tuple[str, ...]  # departure first, then in the order reached
    score: int  # the round's line score


@dataclass(frozen=True)
class GameResult:
    status: str  # OPTIMAL, FEASIBLE, UNKNOWN (as CP-SAT reports it)
    score: int | None  # the final score of the best game found
    bound: int | None  # the proven upper bound
    rounds: tuple[RoundPlan, ...]
    final: FinalScore | None
    wall: float
    pars: tuple[int, ...] = ()  # each round's proven best on an empty sheet
    start: int | None = None  # the best-response game's score (before CP-SAT)
    bound_by: str = "CP-SAT"  # whose bound (or proof): CP-SAT's, or the column bound's ("columns")
    places: tuple[tuple[str, str], ...] = ()  # station id -> "D8" (and a generated map's name), for people

    def as_dict(self) -> dict:
        f = self.final
        return {"game": "nextstation", "mode": "game", "status": self.status, "score": self.score,
                "bound": self.bound, "bound_by": self.bound_by, "round_pars": list(self.pars), "best_response": self.start,
                "seconds": round(self.wall, 3),
                "final": None if f is None else {"lines": list(f.lines), "tourist_marks": f.tourist_marks,
                                                 "tourist": f.tourist, "interchanges": list(f.interchanges),
                                                 "interchange_points": f.interchange_points,
                                                 "objectives": list(f.objectives), "total": f.total},
                "rounds": [{"pencil": r.pencil, "departure": spot(self.places, r.departure), "flips": list(r.flips),
                            "score": r.score, "draws": [{"turn": t + 1, "from": spot(self.places, u),
                                                         "to": spot(self.places, v)} for t, u, v in r.draws]}
                           for r in self.rounds]}


    def describe(self) -> list[str]:
        f = self.final
        if f is None:
            return [f"whole game: {self.status}, no game found within the time limit (bound {self.bound})"]
        by = "the column bound" if self.bound_by == "columns" else "CP-SAT"
        verdict = f"proven best by {by}" if self.status == "OPTIMAL" else \
            f"best found, not proven: no game scores more than {self.bound} ({by})"
        out = [f"best whole game: {self.score} ({verdict}; {self.wall:.1f} s)",
               f"  lines {' + '.join(map(str, f.lines))}, tourist {f.tourist} ({f.tourist_marks} circles), "
               f"interchanges {f.interchange_points}" + (f", objectives {f.objective_points}" if f.objectives else ""),
               f"  each round's own best on an empty sheet (proven): {', '.join(map(str, self.pars))}"]
        place = dict(self.places)
        for k, r in enumerate(self.rounds, start=1):
            out.append(f"round {k}: {r.pencil} pencil from {place.get(r.departure, r.departure)}, line score {r.score}")
            out.append("  " + ", ".join(f"t{t + 1} {place.get(u, u)} -> {place.get(v, v)}" for t, u, v in r.draws)
                       if r.draws else "  (passes)")
        return out


def spot(places: tuple[tuple[str, str], ...], station: str) -> dict:
    """A station for ``--json``: its id with the sheet coordinate beside it (and a generated map's
    name), from ``places`` (id -> ``Board.place``: "D8" or "D8 Oval")."""
    at, _, name = dict(places).get(station, station).partition(" ")
    return {"id": station, "at": at} | ({"name": name} if name else {})


def rounds_of(edition: Edition, seed: int) -> tuple[tuple[Round, ...], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The seeded solo deal's rounds (:func:`~tubedeck.games.nextstation.challenge.deal_rounds`):
    (turns, departure) each, the pencils, the cards flipped up to each round's end."""
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be 0-{MAX_SEED}, got {seed}")
    played = deal_rounds(edition, seed)
    return (tuple((p.turns, p.departure) for p in played), tuple(p.pencil for p in played),
            tuple(tuple(f.card for f in p.flips) for p in played))


@dataclass(frozen=True)
class Best:
    status: str
    final: FinalScore
    bound: int | None
    draws: tuple[tuple[tuple[int, str, str], ...], ...]
    pars: tuple[int, ...]
    start: int
    bound_by: str = "CP-SAT"  # whose bound: CP-SAT's or the column bound's


def _par(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str) -> int:
    """The round's proven best on an empty sheet (the branch and bound's bound)."""
    bound = best_round(board, book, turns, departure, time_limit=GUARD).bound
    assert bound is not None  # the branch and bound always reports one
    return bound


def best_of(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
            time_limit: float = 60.0, workers: int = 1, columns: int = 0, kicks: int = KICKS) -> Best:
    """The best game for these rounds: best responses, then CP-SAT from them (see the module);
    then, unless CP-SAT proved it, ``columns`` iterations of the column bound (:mod:`.columns`)."""
    pars = tuple(_par(board, book, ts, dep) for ts, dep in rounds)
    start = best_responses(board, book, rounds, kicks)
    first = final_score(board, book, *lines_of(board, rounds, start), objectives)
    cp = solve_game(board, book, rounds, pars, start, objectives, time_limit, workers)
    if cp.final is not None and cp.final.total >= first.total:
        draws, final, status = cp.draws, cp.final, cp.status
    else:
        draws, final, status = start, first, "FEASIBLE"
    bound = final.total if status == "OPTIMAL" else (max(cp.bound, final.total) if cp.bound is not None else None)
    by = "CP-SAT"
    if status != "OPTIMAL" and columns > 0:
        cb = column_bound(board, book, rounds, (draws,), columns)
        if cb.bound is not None:  # objectives are not priced: every one may be reached
            tight = cb.bound + len(objectives) * book.rules.objective_points
            if bound is None or tight < bound:
                bound, by = max(tight, final.total), "columns"
            if bound <= final.total:  # the bound meets the game: a proof
                status, bound = "OPTIMAL", final.total
    return Best(status, final, bound, tuple(draws), pars, first.total, by)


def best_game(edition: Edition, seed: int, objectives: tuple[Objective, ...] = (), time_limit: float = 60.0,
              workers: int = 1, columns: int = 0, kicks: int = KICKS) -> GameResult:
    """The best whole solo game for seed S's flips and pencils (see the module)."""
    check_time_limit(time_limit)
    t0 = time.perf_counter()
    board = edition.board
    rounds, pencils, flips = rounds_of(edition, seed)
    b = best_of(board, edition.book, rounds, objectives, time_limit, workers, columns, kicks)
    stations, _ = lines_of(board, rounds, b.draws)
    plans = tuple(RoundPlan(pencils[r], rounds[r][1], flips[r], b.draws[r], stations[r], b.final.lines[r])
                  for r in range(len(rounds)))
    places = tuple((v, board.place(v)) for v in sorted({x for p in plans for x in p.stations}))
    return GameResult(b.status, b.final.total, b.bound, plans, b.final, time.perf_counter() - t0, b.pars, b.start,
                      b.bound_by, places)
