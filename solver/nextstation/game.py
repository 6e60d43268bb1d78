"""The best possible whole solo game of Next Station: London for known flips (``solve nextstation
--game``): 4 rounds, one line each, in the seeded solo order's pencils.

Two searches (the better game kept), then a second bound:

1. **Best responses** (fast, no proof; :mod:`tubedeck.games.nextstation.responses`, which the
   solo challenge sheet also uses): each round in turn redrawn as the line worth most to the game
   given the other three, until none improves, from 8 starts, then ``KICKS`` seeded kicks of
   iterated local search. The same game on any machine. With a deterministic budget
   (``--det-limit D``) the kicks are part of it: ``floor(D / KICK_SECONDS)`` of them, at most
   ``KICKS`` (:func:`kicks_for`), so a loaded machine runs the same kicks, only slower (the wall
   clock cut them before: the same seed stored 184 or 187).
2. **CP-SAT** (:mod:`.game_model`, the engine of record) from that game as a hint, with each
   round's line score capped by its proven best on an empty sheet, for ``--time-limit`` seconds
   of CP-SAT's deterministic time (1 worker by default: the same answer anywhere). OPTIMAL is a
   proof; at the time limit the status is FEASIBLE and the bound is CP-SAT's.
3. **Branch and price** (:mod:`.branch`) for the wall clock left, from the best game so far:
   its root is the column bound (``columns`` pricing iterations before it branches), then it
   branches on what the LP mixes; its bound and any better game it finds are kept, and a bound
   that meets the game is a proof (OPTIMAL). CP-SAT then gets only ``CP_SAT_SHARE`` of the clock
   (its bound never helps). With Shared Objectives they are in its relaxation too (:mod:`.goals`:
   a variable per objective, held up by rows every game meeting it satisfies), so its bound no
   longer adds every objective's points. Under a deterministic budget (the par check, the
   challenge file), **the column bound** (``columns`` iterations, :mod:`.columns`) instead:
   a Dantzig-Wolfe relaxation over whole lines, a fixed amount of work (the cuts of :mod:`.cuts`
   are an option of :func:`.columns.column_bound`, off by default: slower to converge). The
   lesser bound is reported.

What is measured (README, ``benchmarks/bench_nextstation.py --games``): the proof is out of reach
in a minute for real flips. CP-SAT's bound stays far above the games found, since its LP
relaxation lets every round's line visit every station a little (interchanges for free); the
column bound closes about half of that gap, not all of it. Shared
Objectives count when given (CP-SAT and branch and price; the best responses ignore them).
"""

from __future__ import annotations

import math
import time
from contextlib import nullcontext
from dataclasses import dataclass

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.best import best_round
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.challenge import deal_rounds
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.responses import GUARD, KICKS, Round, lines_of, search_responses
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.games.nextstation.scoring import FinalScore, final_score
from tubedeck.progress import Progress
from tubedeck.solver.cpsat import check_time_limit

from .branch import branch_and_price
from .clash import CLASH_ROUNDS
from .columns import column_bound
from .engines import Budget, ticking
from .game_model import Solved, solve_game
from .pairs import some_tables

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
    bound_by: str = "CP-SAT"  # whose bound (or proof): CP-SAT's, the column bound's ("columns"), branch and
    # price's ("branch"), the pars' ("pars")
    places: tuple[tuple[str, str], ...] = ()  # station id -> "D8" (and a generated map's name), for people
    found_by: str = "CP-SAT"  # whose game: CP-SAT's, the best responses' or "branch and price"
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
        by = {"columns": "the column bound", "pars": "the round pars", "branch": "branch and price"}.get(
            self.bound_by, self.bound_by)
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
CP_SAT_SHARE = 0.2  # of the wall clock left, for CP-SAT when branch and price follows (its bound never
# helps then; classic seeds 0 and 3 at --time-limit 120: the same games, bounds 232/260 against 232/269 at 0.5)
ENTRIES_AFTER = 90.0  # seconds: branch and price given this long ties rounds by entering sections (the
# tightest relaxation), else by stations alone, which settles sooner. Root bound after 20/40/60/90/120/180 s,
# seed 0: stations 242/234/230/227/225/225, entries 248/231/228/223/221/220; seed 2: 207/202/201/201/201/201
# against 211/206/201/199/199/199
TABLES_AFTER = 180.0  # seconds: branch and price given this long first lists every line of each round
# (:func:`.pairs.some_tables`, at most TABLES_SHARE of its time) and prices by a scan of them. Seed 0 from
# the stored game of 189, one core: by the round search 224 after 300 s (5 nodes); listed (23-45 s), then
# 215 after 150 s (17 nodes, entries) or 214 (111 nodes, patterns). Below it the listing would eat the time.
TABLES_SHARE = 1 / 3
# A round's list holds at most pairs.LIMIT lines here too, the rounds together within half the memory
# available (:func:`.pairs.line_budget`). Seed 3 (a round of 5.1 million) at --time-limit 600, two runs each
# side by side: 199, bound 241, 0.7 GB with a cap of a million a round (its big round searched); 205, bound
# 238, 3.5 GB with every round listed (cuts on it, the better-games search frees it)
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
    bound_by: str = "CP-SAT"  # whose bound: CP-SAT's, the column bound's ("columns") or the pars' ("pars")
    found_by: str = "CP-SAT"  # whose game: CP-SAT's or the best responses'
    cut: bool = False  # the wall clock cut a search short: the answer may depend on the machine's load
    pars_proven: bool = True  # every par is the round's proven best (else some are root bounds)


def _par(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
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


def _loose_bound(board: Board, book: RuleBook, rounds: tuple[Round, ...], pars: tuple[int, ...],
                 objectives: tuple[Objective, ...]) -> int:
    """A bound that needs no search, for a game cut short before CP-SAT or the columns gave one:
    each round's par, the tourist track's top, every station a line visits (at most one a turn
    and the departure) at the interchange table's best rate per line, every objective."""
    scores = book.scores
    visits = sum(len(ts) + 1 for ts, _ in rounds)
    table = scores.interchange
    rate = max(table[min(j, len(table) - 1)] / j for j in range(1, len(rounds) + 1))
    return (sum(pars) + max(scores.tourist_track) + math.floor(visits * rate + 1e-9) + len(board.stations) * max(table[0], 0)
            + len(objectives) * book.rules.objective_points)


def _branches(budget: Budget | None) -> bool:
    """Whether branch and price takes the bound phase: on the wall clock alone (it stops by the
    clock, so not under a deterministic budget). Shared Objectives are in its relaxation
    (:mod:`.goals`)."""
    return budget is not None and budget.det is None


def best_of(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
            time_limit: float = 60.0, workers: int = 1, columns: int = 0, kicks: int = KICKS,
            budget: Budget | None = None) -> Best:
    """The best game for these rounds: best responses, then CP-SAT from them (see the module);
    then, unless CP-SAT proved it and ``columns`` > 0, branch and price for the wall clock left
    (a ``budget`` without a deterministic part, no objectives; ``columns`` root iterations) or
    else ``columns`` iterations of the column bound (:mod:`.columns`).
    ``time_limit``: CP-SAT's deterministic seconds; with a ``budget`` instead (:mod:`.engines`),
    every phase stops at its share of the wall clock left: the best responses half, CP-SAT (its
    deterministic budget and) ``CP_SAT_SHARE`` of the rest when branch and price follows, half
    when the column bound does, all of it otherwise; branch and price or the column iterations
    the rest. With a deterministic budget every phase may run to the deadline itself,
    so only the time limit cuts (``budget.wall_cut``). A game cut short still has a bound
    (:func:`_loose_bound` at worst)."""
    if budget is not None:
        budget.update(phase="round pars")
    searched = [_par(board, book, ts, dep, budget) for ts, dep in rounds]
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
        cp = solve_game(board, book, rounds, pars, start, objectives, time_limit, workers, budget,
                        share=1.0 if columns == 0 else CP_SAT_SHARE if _branches(budget) else 0.5)
    if cp.final is not None and cp.final.total >= first.total:
        draws, final, status, found = cp.draws, cp.final, cp.status, "CP-SAT"
    else:
        draws, final, status, found = start, first, "FEASIBLE", "best responses"
    bound = final.total if status == "OPTIMAL" else (max(cp.bound, final.total) if cp.bound is not None else None)
    by = "CP-SAT"
    if budget is not None:
        budget.update(best=final.total, bound=bound)
    if status != "OPTIMAL" and columns > 0 and _branches(budget) and budget is not None \
            and budget.wall_left() > 0:
        # Wall clock alone: branch and price for the time left (its root is the column bound,
        # per-round tourist track; then it branches), from the best game so far.
        left = budget.wall_left()
        tabs: list = []
        if left >= TABLES_AFTER:  # every line listed, then pricing is a scan of them (no search)
            budget.update(phase="listing every line")
            tabs = some_tables(board, book, rounds, time_limit=left * TABLES_SHARE)
            left = budget.wall_left()
        budget.update(phase="branch and price")
        bp = branch_and_price(board, book, rounds, (draws,), time_limit=left, root_iterations=columns,
                              progress=budget.progress, cuts="entries" if left >= ENTRIES_AFTER else "patterns",
                              tables=tabs, objectives=objectives, clash=CLASH_ROUNDS if tabs else 0)
        if bp.cut:
            budget.wall_cut = True
        if bp.score > final.total:
            draws, final, found = bp.draws, bp.final, "branch and price"
        if bound is None or bp.bound < bound:
            bound, by = max(bp.bound, final.total), "branch"
        if bound <= final.total:
            status, bound = "OPTIMAL", final.total
    elif status != "OPTIMAL" and columns > 0:
        cb = column_bound(board, book, rounds, (draws,), columns, budget)
        if cb.bound is not None:  # objectives are not priced: every one may be reached
            tight = cb.bound + len(objectives) * book.rules.objective_points
            if bound is None or tight < bound:
                bound, by = max(tight, final.total), "columns"
            if bound <= final.total:  # the bound meets the game: a proof
                status, bound = "OPTIMAL", final.total
    if bound is None and budget is not None:  # cut short before any search gave a bound
        bound, by = max(_loose_bound(board, book, rounds, pars, objectives), final.total), "pars"
    return Best(status, final, bound, tuple(draws), pars, first.total, by, found,
                budget is not None and budget.wall_cut, all(proven for _, proven in searched))


def best_game(edition: Edition, seed: int, objectives: tuple[Objective, ...] = (), time_limit: float = 60.0,
              workers: int = 1, columns: int = 0, kicks: int = KICKS, det_limit: float | None = None,
              progress: bool = False, started: float | None = None) -> GameResult:
    """The best whole solo game for seed S's flips and pencils (see the module). ``time_limit``:
    wall-clock seconds for the whole call; ``det_limit``: CP-SAT's deterministic seconds as well
    (the same answer on any machine while the wall clock does not cut it). ``progress``: a line
    on stderr for work over 2 s. ``started``: when the command started (``time.perf_counter``;
    default now), counted in the time limit."""
    check_time_limit(time_limit)
    t0 = time.perf_counter()
    board = edition.board
    rounds, pencils, flips = rounds_of(edition, seed)
    with (Progress(f"solve nextstation --game seed {seed}") if progress else nullcontext(None)) as shown, \
            ticking(shown):
        budget = Budget.of(time_limit, det_limit, shown, started)
        b = best_of(board, edition.book, rounds, objectives, time_limit, workers, columns, kicks, budget)
    stations, _ = lines_of(board, rounds, b.draws)
    plans = tuple(RoundPlan(pencils[r], rounds[r][1], flips[r], b.draws[r], stations[r], b.final.lines[r])
                  for r in range(len(rounds)))
    places = tuple((v, board.place(v)) for v in sorted({x for p in plans for x in p.stations}))
    return GameResult(b.status, b.final.total, b.bound, plans, b.final, time.perf_counter() - t0, b.pars, b.start,
                      b.bound_by, places, b.found_by, b.cut, b.pars_proven)
