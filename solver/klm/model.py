"""The Keep London Moving deal checker: a CP-SAT model of each player's earliest win.

The question, per player: playing alone on the Station Cards this player holds before the Station
stock first runs out (:mod:`tubedeck.games.klm.setup`), on which own turn can five continuous
Active stations be complete at the earliest, and with which cards?

**Why it is a scheduling problem.** There is one card per station, so each station the player
gets has a fixed *arrival* turn. A win is a path of five stations ``s0-s1-s2-s3-s4`` in the
deck's connection graph (terminus pairs carry no number, so they are never in it) whose four
Connections are created on four *different* turns (at most one new Connection per turn), each no
earlier than both of its cards have arrived. The rules that could add more do not bind:

* *every Play Field card connected*: a card is played on the turn its first Connection is made,
  together with its partner (two cards from hand, or one onto the Play Field), so it is never
  unconnected; Connections may be made in any order along the path (two pieces joined later);
* *hand limit 5*: only the path's five cards must be kept, never more than five, and any other
  card can be the one discarded, so the limit never forces a path card out (the brute force in
  the tests simulates hands and discards and agrees);
* *a 6*: the player draws a Fortune Card and no Station Card; already in the arrival turns.

Decisions where the rulebook is silent: a Connection is an explicit act (placing a card that
matches several others creates one Connection, not all of them); a Station Card is never played
without creating a Connection (Help Point: an unconnected card goes back to hand); "five
continuous stations" is a simple path of five; the win happens on the turn its fourth Connection
is made. Fortune Card *effects* (the player's own and opponents'), Unlucky Hand and Fast
Gameplay are outside this check; every result says so in ``"outside"``.

**The model** (one per deal, all players side by side, one solve): for player ``p`` with the
candidate stations numbered ``0..n-1``: ``pos[k]`` is the station at place ``k`` of the path
(``n+k`` means "no path"), ``win`` says whether a path exists; a table constraint over
``(win, pos[k], pos[k+1], ready[k])`` lists the allowed directed edges with the turn both cards
have arrived. With one Connection per turn, the earliest finish for given ``ready`` turns is
Hall's bound ``max_k ready[k] + #{j != k: ready[j] >= ready[k]}`` (made true by creating the
Connections earliest-ready first, which :func:`earliest_schedule` does on extraction);
``finish`` is that bound if ``win``, else ``turns + 1``. The objective
minimises the sum of ``finish`` over players; the players share no variable, so the optimum is
every player's own minimum. Candidate stations are pruned first: only cards the player gets in
the window, only components with at least five of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from tubedeck.games.klm.setup import Deal, PlayerWindow
from tubedeck.solver.cpsat import small_model_solver, solve

OUTSIDE = ("fortune card effects", "opponents' play", "unlucky hand", "fast gameplay")


@dataclass(frozen=True)
class PlayerProblem:
    """One player's pruned input: candidate stations, their arrival turns, candidate edges."""

    seat: int
    order: int
    turns: int
    stations: tuple[str, ...]
    arrival: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]  # local indices, i < j
    path: int  # stations in a winning path (rules.path)
    termini: tuple[int, ...] = ()  # local indices of Terminus cards: one Connection only, so path ends only


def player_problem(adjacency: dict[str, tuple[str, ...]], window: PlayerWindow, path: int,
                   termini: frozenset[str] = frozenset()) -> PlayerProblem:
    """Keep only the player's cards, and of those only components with at least ``path`` stations."""
    arrived = dict(window.arrival)
    seen: set[str] = set()
    keep: list[str] = []
    for start in arrived:
        if start in seen:
            continue
        component, stack = [start], [start]
        seen.add(start)
        while stack:
            for n in adjacency.get(stack.pop(), ()):
                if n not in seen and n in arrived:
                    seen.add(n)
                    stack.append(n)
                    component.append(n)
        if len(component) >= path:
            keep += component
    keep.sort(key=lambda s: (arrived[s], s))
    index = {s: i for i, s in enumerate(keep)}
    edges = sorted({(min(index[s], index[n]), max(index[s], index[n]))
                    for s in keep for n in adjacency.get(s, ()) if n in index})
    return PlayerProblem(window.seat, window.order, window.turns, tuple(keep),
                         tuple(arrived[s] for s in keep), tuple(edges), path,
                         tuple(i for i, s in enumerate(keep) if s in termini))


@dataclass(frozen=True)
class PlayerVars:
    problem: PlayerProblem
    win: cp_model.IntVar
    pos: tuple[cp_model.IntVar, ...]
    ready: tuple[cp_model.IntVar, ...]
    finish: cp_model.IntVar


def add_player(model: cp_model.CpModel, pr: PlayerProblem) -> PlayerVars:
    """Add one player's path-and-schedule sub-model (see the module docstring)."""
    n, p, PATH = len(pr.stations), f"p{pr.seat}", pr.path
    win = model.new_bool_var(f"{p}_win")
    if not pr.edges:  # pruned to nothing: the table of allowed edges is empty, so no path
        model.add_allowed_assignments([win], [(0,)])
        finish = model.new_constant(pr.turns + 1)
        return PlayerVars(pr, win, (), (), finish)
    directed = [(1, i, j, max(pr.arrival[i], pr.arrival[j])) for a, b in pr.edges for i, j in ((a, b), (b, a))]
    releases = sorted({row[3] for row in directed})
    ends_only = set(pr.termini)  # a Terminus card forms one Connection: it can only end the path
    pos = tuple(model.new_int_var_from_domain(cp_model.Domain.from_values(
        [*(i for i in range(n) if k in (0, PATH - 1) or i not in ends_only), n + k]), f"{p}_pos{k}")
                for k in range(PATH))
    ready = tuple(model.new_int_var_from_domain(cp_model.Domain.from_values([0, *releases]), f"{p}_ready{k}")
                  for k in range(PATH - 1))
    finish = model.new_int_var(1, max(pr.turns, PATH - 1) + 1, f"{p}_finish")
    for k in range(PATH - 1):
        model.add_allowed_assignments([win, pos[k], pos[k + 1], ready[k]], directed + [(0, n + k, n + k + 1, 0)])
    model.add_all_different(pos)
    model.add(pos[0] < pos[-1])  # a path and its reverse are one path
    # Hall's condition for unit jobs with release times, one per turn: the earliest finish is
    # max over k of ready[k] + #{j != k : ready[j] >= ready[k]}.
    for k in range(PATH - 1):
        later = []
        for j in range(PATH - 1):
            if j != k:
                ge = model.new_bool_var(f"{p}_ready{j}_ge_ready{k}")
                model.add(ready[j] < ready[k]).only_enforce_if(~ge)
                later.append(ge)
        model.add(finish >= ready[k] + sum(later)).only_enforce_if(win)
    model.add(finish <= pr.turns).only_enforce_if(win)
    model.add(finish == pr.turns + 1).only_enforce_if(~win)
    return PlayerVars(pr, win, pos, ready, finish)


@dataclass(frozen=True)
class DealModel:
    model: cp_model.CpModel
    players: tuple[PlayerVars, ...]


def build_model(problems: tuple[PlayerProblem, ...]) -> DealModel:
    """One CP-SAT model for all players of a deal; objective: every player's earliest finish."""
    model = cp_model.CpModel()
    players = tuple(add_player(model, pr) for pr in problems)
    model.minimize(sum(pv.finish for pv in players))
    return DealModel(model, players)


def solve_model(dm: DealModel, time_limit: float = 10.0) -> tuple[str, cp_model.CpSolver]:
    """Solve single-threaded (deals run in parallel instead); return the status name."""
    solver = small_model_solver(time_limit)
    return solve(solver, dm.model), solver


def earliest_schedule(connections: list[tuple[int, str, str]]) -> tuple[tuple[int, str, str], ...]:
    """Turns for ``(ready, a, b)`` Connections, one per turn: earliest-ready first, as early as
    allowed. This greedy order meets the Hall bound the model minimises."""
    out, last = [], 0
    for ready, a, b in sorted(connections):
        last = max(ready, last + 1)
        out.append((last, a, b))
    return tuple(out)


@dataclass(frozen=True)
class PlayerAnswer:
    """One player's answer. ``status``: OPTIMAL (earliest win proven), INFEASIBLE (proven: no win
    in the window), FEASIBLE (a win by ``turn``, maybe earlier), UNKNOWN (undecided)."""

    seat: int
    order: int
    turns: int
    status: str
    turn: int | None
    global_turn: int | None
    path: tuple[str, ...]
    schedule: tuple[tuple[int, str, str], ...]  # (own turn, station, station) per Connection


def extract(dm: DealModel, status: str, solver: cp_model.CpSolver, players: int) -> tuple[PlayerAnswer, ...]:
    """Read every player's answer from a solved model (statuses reported as they are)."""
    out = []
    for pv in dm.players:
        pr = pv.problem
        has = status in ("OPTIMAL", "FEASIBLE")
        won = has and bool(solver.value(pv.win))
        if not won:
            verdict = "INFEASIBLE" if status == "OPTIMAL" else ("INFEASIBLE" if status == "INFEASIBLE" else "UNKNOWN")
            out.append(PlayerAnswer(pr.seat, pr.order, pr.turns, verdict, None, None, (), ()))
            continue
        path = tuple(pr.stations[solver.value(v)] for v in pv.pos)
        schedule = earliest_schedule([(solver.value(pv.ready[k]), path[k], path[k + 1]) for k in range(pr.path - 1)])
        # The greedy schedule meets Hall's bound, so its last turn is the finish the path allows;
        # under OPTIMAL it equals the model's ``finish``, under FEASIBLE (a time limit) the model's
        # value may still be above it, and the schedule's is the true earliest for this path.
        turn = schedule[-1][0]
        out.append(PlayerAnswer(pr.seat, pr.order, pr.turns, status, turn, (turn - 1) * players + pr.order,
                                path, schedule))
    return tuple(out)


def solve_deal(adjacency: dict[str, tuple[str, ...]], d: Deal, path: int,
               time_limit: float = 10.0, termini: frozenset[str] = frozenset()) -> tuple[str, tuple[PlayerAnswer, ...]]:
    """Build, solve and extract one deal: the solver status and every player's answer."""
    problems = tuple(player_problem(adjacency, w, path, termini) for w in d.windows())
    dm = build_model(problems)
    status, solver = solve_model(dm, time_limit)
    return status, extract(dm, status, solver, d.players)


def _global_turn(a: PlayerAnswer) -> int:
    assert a.global_turn is not None  # a winner's: extract() sets it together with ``turn``
    return a.global_turn


def deal_record(d: Deal, status: str, answers: tuple[PlayerAnswer, ...]) -> dict:
    """The JSON record of one deal: every player's answer and who can win first."""
    return make_record(d.seed, d.starter, d.window, status, answers)


def make_record(seed: int, starter: int, window: int, status: str, answers: tuple[PlayerAnswer, ...]) -> dict:
    """:func:`deal_record` from the three facts of the deal it reads (what the fast engine has)."""
    winners = [a for a in answers if a.turn is not None]
    first = min(winners, key=_global_turn) if winners else None
    decided = status == "OPTIMAL"
    return {
        "seed": seed,
        "status": status,
        "starter": starter + 1,
        "window": window,
        "winnable": bool(first) if decided or first else None,
        "first": None if first is None else {"player": first.seat + 1, "order": first.order + 1,
                                             "turn": first.turn, "global_turn": first.global_turn},
        "players": [{"player": a.seat + 1, "order": a.order + 1, "turns": a.turns, "status": a.status,
                     "turn": a.turn, "path": list(a.path),
                     "schedule": [list(x) for x in a.schedule]} for a in answers],
        "outside": list(OUTSIDE),
    }
