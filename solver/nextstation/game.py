"""The best whole solo game of Next Station: London for known flips (``solve nextstation
--game``): 4 rounds, one line each, in the seeded solo order's pencils.

1. **Round pars**: each round's proven best on an empty sheet (the exact branch and bound of
   :mod:`tubedeck.games.nextstation.best`); they cap each round's line score in CP-SAT.
2. **Best responses** (fast, no proof; :mod:`tubedeck.games.nextstation.responses`, which the
   solo challenge sheet also uses): each round in turn redrawn as the line worth most to the game
   given the other three, until none improves, from 8 starts, then ``KICKS`` seeded kicks of
   iterated local search. With a deterministic budget (``--det-limit D``) the kicks are part of
   it: ``floor(D / KICK_SECONDS)`` of them, at most ``KICKS`` (:func:`kicks_for`), so a loaded
   machine runs the same kicks, only slower.
3. **CP-SAT** (:mod:`.game_model`, the engine of record) from that game as a hint, for
   ``--time-limit`` seconds (and ``--det-limit`` deterministic seconds; 1 worker by default: the
   same answer anywhere). OPTIMAL is a proof; at the limit the status is FEASIBLE and the bound
   is CP-SAT's.
4. **The stored answer** (``data/nextstation/challenges.csv``, the solo challenge's best games,
   :func:`~tubedeck.games.nextstation.challenge.stored_answer`): for a seed it holds (the classic
   map or a generated map of the bundled dataset, without Shared Objectives), its game replaces a
   worse one found, and its bound (proven by a longer search, ``research/nextstation``) is
   reported where it is tighter than CP-SAT's.

The whole-game proof is out of reach in minutes for real flips: CP-SAT's LP relaxation lets every
round's line visit every station a little (interchanges for free), so its bound stays far above
the games found; the stored bounds come from a branch and price that runs for hours
(``research/nextstation/``, not part of the product). :mod:`.exhaustive_game` is the independent
check on small games.
"""

from __future__ import annotations

import math
import time
from contextlib import nullcontext
from dataclasses import dataclass

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.best import best_round
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.challenge import deal_rounds, stored_answer
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.responses import GUARD, KICKS, Round, lines_of, search_responses
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.games.nextstation.scoring import FinalScore, final_score
from tubedeck.progress import Progress
from tubedeck.solver.cpsat import check_time_limit

from .engines import Budget, ticking

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
    bound_by: str = "CP-SAT"  # whose bound (or proof): CP-SAT's, the stored answer's ("stored"), the pars' ("pars")
    places: tuple[tuple[str, str], ...] = ()  # station id -> "D8" (and a generated map's name), for people
    found_by: str = "CP-SAT"  # whose game: CP-SAT's, the best responses' or the stored answer's ("stored game")
    cut: bool = False  # the --time-limit cut a search short: the answer may depend on the machine's load
    pars_proven: bool = True  # each par is its round's proven best (cut short: some are bounds)

    def as_dict(self) -> dict:
        f = self.final
        return {"game": "nextstation", "mode": "game", "status": self.status, "score": self.score,
                "bound": self.bound, "bound_by": self.bound_by, "found_by": self.found_by,
                "cut_by_time_limit": self.cut, "round_pars": list(self.pars), "best_response": self.start,
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
        by = {"pars": "the round pars", "stored": "the stored answer's bound",  # (and the research bounds':)
              "columns": "the column bound", "branch": "branch and price"}.get(self.bound_by, self.bound_by)
        found = f"found by {self.found_by}"
        verdict = (f"proven best by {by}" + ("" if by == self.found_by else f", {found}")) if self.status == "OPTIMAL" \
            else f"{found}, not proven: no game scores more than {self.bound} ({by})" if self.bound is not None else \
            f"{found}, not proven: no bound within the time limit"
        if self.cut:
            verdict += "; cut short by the time limit"
        out = [f"best whole game: {self.score} ({verdict}; {self.wall:.1f} s)",
               f"  lines {' + '.join(map(str, f.lines))}, tourist {f.tourist} ({f.tourist_marks} circles), "
               f"interchanges {f.interchange_points}" + (f", objectives {f.objective_points}" if f.objectives else ""),
               f"  each round's own best on an empty sheet ({'proven' if self.pars_proven else 'at most: cut short'}): "
               f"{', '.join(map(str, self.pars))}"]
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


GAME_GUARD = 300.0  # seconds: a wall-clock guard under a deterministic budget never cuts a game's fixed
# work (round pars and the first best responses: 5-10 s a seed on one core, more on a loaded machine)
KICK_SECONDS = 1.0  # deterministic seconds a kick counts for (about its time on one core, classic map)


def kicks_for(kicks: int, det: float | None) -> int:
    """The kicks a deterministic budget of ``det`` seconds pays for (None: ``kicks``, the wall
    clock alone limits them): ``floor(det / KICK_SECONDS)``, at most ``kicks``."""
    return kicks if det is None else min(kicks, math.floor(det / KICK_SECONDS + 1e-9))


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
    bound_by: str = "CP-SAT"  # whose bound: CP-SAT's, the stored answer's ("stored") or the pars' ("pars")
    found_by: str = "CP-SAT"  # whose game: CP-SAT's, the best responses' or the stored answer's
    cut: bool = False  # the wall clock cut a search short: the answer may depend on the machine's load
    pars_proven: bool = True  # every par is the round's proven best (else some are root bounds)


def round_par(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
              budget: Budget | None = None) -> tuple[int, bool]:
    """The round's proven best on an empty sheet (the branch and bound's bound); with a
    ``budget``, searched for at most a quarter of the wall clock left (all of it with a
    deterministic budget): cut short, the root bound (still a bound, the caps it gives CP-SAT
    hold). Returns (the par, whether it is proven)."""
    limit = GUARD if budget is None else budget.wall_deadline(0.25) - time.perf_counter()
    got = best_round(board, book, turns, departure, time_limit=limit)
    if got.status != "OPTIMAL" and budget is not None:
        budget.wall_cut = True
    assert got.bound is not None  # the branch and bound always reports one
    return got.bound, got.status == "OPTIMAL"


def loose_bound(board: Board, book: RuleBook, rounds: tuple[Round, ...], pars: tuple[int, ...],
                objectives: tuple[Objective, ...]) -> int:
    """A bound that needs no search, for a game cut short before CP-SAT gave one: each round's
    par, the tourist track's top, every station a line visits (at most one a turn and the
    departure) at the interchange table's best rate per line, every objective."""
    scores = book.scores
    visits = sum(len(ts) + 1 for ts, _ in rounds)
    table = scores.interchange
    rate = max(table[min(j, len(table) - 1)] / j for j in range(1, len(rounds) + 1))
    return (sum(pars) + max(scores.tourist_track) + math.floor(visits * rate + 1e-9) + len(board.stations) * max(table[0], 0)
            + len(objectives) * book.rules.objective_points)


def search_game(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
                time_limit: float = 60.0, workers: int = 1, kicks: int = KICKS, budget: Budget | None = None,
                share: float = 1.0) -> Best:
    """Round pars, best responses, then CP-SAT from them (see the module). ``time_limit``:
    CP-SAT's deterministic seconds; with a ``budget`` instead (:mod:`.engines`), the pars a
    quarter and the best responses half of the wall clock left, CP-SAT ``share`` of the rest
    (a later phase may take the remainder). The bound is CP-SAT's (None if it gave none)."""
    from .game_model import Solved, solve_game  # OR-Tools only when a whole game is solved

    if budget is not None:
        budget.update(phase="round pars")
    searched = [round_par(board, book, ts, dep, budget) for ts, dep in rounds]
    pars = tuple(p for p, _ in searched)
    if budget is not None:
        budget.update(phase="best responses")
    got = search_responses(board, book, rounds, kicks_for(kicks, None if budget is None else budget.det),
                           None if budget is None else budget.wall_deadline(0.5))
    start = got.draws
    if got.cut and budget is not None:
        budget.wall_cut = True
    first = final_score(board, book, *lines_of(board, rounds, start), objectives)
    if budget is not None:
        budget.update(phase="CP-SAT", best=first.total)
    if budget is not None and budget.wall_left() <= 0:  # no time to build the model
        budget.wall_cut = True
        cp = Solved("UNKNOWN", None, None, (), 0.0)
    else:
        cp = solve_game(board, book, rounds, pars, start, objectives, time_limit, workers, budget, share=share)
    if cp.final is not None and cp.final.total >= first.total:
        draws, final, status, found = cp.draws, cp.final, cp.status, "CP-SAT"
    else:
        draws, final, status, found = start, first, "FEASIBLE", "best responses"
    bound = final.total if status == "OPTIMAL" else (max(cp.bound, final.total) if cp.bound is not None else None)
    if budget is not None:
        budget.update(best=final.total, bound=bound)
    return Best(status, final, bound, tuple(draws), pars, first.total, "CP-SAT", found,
                budget is not None and budget.wall_cut, all(proven for _, proven in searched))


def settled(best: Best, board: Board, book: RuleBook, rounds: tuple[Round, ...],
            objectives: tuple[Objective, ...], budget: Budget | None) -> Best:
    """``best`` with a bound in any case: cut short before any search gave one, the loose bound."""
    if best.bound is not None or budget is None:
        return best
    bound = max(loose_bound(board, book, rounds, best.pars, objectives), best.final.total)
    return Best(best.status, best.final, bound, best.draws, best.pars, best.start, "pars", best.found_by,
                best.cut, best.pars_proven)


def best_of(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
            time_limit: float = 60.0, workers: int = 1, kicks: int = KICKS, budget: Budget | None = None) -> Best:
    """The best game for these rounds: :func:`search_game`, and a bound in any case (see
    :func:`settled`)."""
    return settled(search_game(board, book, rounds, objectives, time_limit, workers, kicks, budget),
                   board, book, rounds, objectives, budget)


def with_stored(best: Best, edition: Edition, seed: int, rounds: tuple[Round, ...],
                objectives: tuple[Objective, ...]) -> Best:
    """``best`` with what ``data/nextstation/challenges.csv`` knows of the seed: its game where it
    scores more, its bound where it is tighter (a stored OPTIMAL row is a proof). Stored answers
    know no Shared Objectives, so with objectives ``best`` is returned as it is."""
    answer = None if objectives else stored_answer(edition, seed)
    if answer is None:
        return best
    board, book = edition.board, edition.book
    final, draws, found = best.final, best.draws, best.found_by
    if answer.score > final.total:
        draws = tuple(tuple((m.turn - 1, m.start, m.end) for m in ms) for ms in answer.moves)
        final = final_score(board, book, *lines_of(board, rounds, draws))
        assert final.total == answer.score, (final.total, answer.score)  # the reader replays every stored row
        found = "stored game"
    bound, by = best.bound, best.bound_by
    if answer.bound is not None and (bound is None or answer.bound < bound):
        bound, by = max(answer.bound, final.total), "stored"
    status = "OPTIMAL" if bound is not None and bound <= final.total else best.status
    if status == "OPTIMAL":
        bound = final.total
    return Best(status, final, bound, draws, best.pars, best.start, by, found, best.cut, best.pars_proven)


def best_game(edition: Edition, seed: int, objectives: tuple[Objective, ...] = (), time_limit: float = 60.0,
              workers: int = 1, kicks: int = KICKS, det_limit: float | None = None,
              progress: bool = False, started: float | None = None) -> GameResult:
    """The best whole solo game for seed S's flips and pencils (see the module). ``time_limit``:
    wall-clock seconds for the whole call; ``det_limit``: CP-SAT's deterministic seconds as well
    (the same answer on any machine while the wall clock does not cut it). ``progress``: a line
    on stderr for work over 2 s. ``started``: when the command started (``time.perf_counter``;
    default now), counted in the time limit."""
    check_time_limit(time_limit)
    t0 = time.perf_counter()
    rounds, pencils, flips = rounds_of(edition, seed)
    with (Progress(f"solve nextstation --game seed {seed}") if progress else nullcontext(None)) as shown, \
            ticking(shown):
        budget = Budget.of(time_limit, det_limit, shown, started)
        b = best_of(edition.board, edition.book, rounds, objectives, time_limit, workers, kicks, budget)
    return game_result(edition, rounds, pencils, flips, with_stored(b, edition, seed, rounds, objectives), t0)


def game_result(edition: Edition, rounds: tuple[Round, ...], pencils: tuple[str, ...],
                flips: tuple[tuple[str, ...], ...], b: Best, t0: float) -> GameResult:
    """The answer of a searched game, round by round, for people and ``--json``."""
    board = edition.board
    stations, _ = lines_of(board, rounds, b.draws)
    plans = tuple(RoundPlan(pencils[r], rounds[r][1], flips[r], b.draws[r], stations[r], b.final.lines[r])
                  for r in range(len(rounds)))
    places = tuple((v, board.place(v)) for v in sorted({x for p in plans for x in p.stations}))
    return GameResult(b.status, b.final.total, b.bound, plans, b.final, time.perf_counter() - t0, b.pars, b.start,
                      b.bound_by, places, b.found_by, b.cut, b.pars_proven)
