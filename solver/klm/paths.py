"""The Keep London Moving checker's exact fast engine: every winning path, searched exhaustively.

The question is the CP-SAT model's (:mod:`tubedeck.solver.klm.model`): a player's earliest own turn with
five continuous stations, each Connection made on its own turn, no earlier than both its cards
have arrived. A player's pruned candidate graph is small (the cards they get in the window), so
a depth-first search over its simple paths, with the earliest schedule of each
(:func:`tubedeck.solver.klm.model.earliest_schedule`, which meets Hall's bound), proves the optimum by
exhaustion: OPTIMAL when a path is found, INFEASIBLE when none exists. The search stops a branch
once its partial schedule already ends no earlier than the best path found (a Connection more
never finishes sooner). When a player's graph holds more than ``MAX_NODES`` searched prefixes
the engine gives up on that deal and CP-SAT decides it (``--engine auto``).

Tests check it against CP-SAT and against the independent brute force on many deals.
"""

from __future__ import annotations

from tubedeck.games.klm.setup import Deal

from .model import PlayerAnswer, PlayerProblem, earliest_schedule, player_problem

MAX_NODES = 200_000  # searched prefixes per player before CP-SAT takes the deal


class TooLarge(Exception):
    """The candidate graph is too large for exhaustive search: use CP-SAT."""


def _finish(readies: list[int]) -> int:
    last = 0
    for r in sorted(readies):
        last = max(r, last + 1)
    return last


def best_path(pr: PlayerProblem) -> tuple[int, tuple[int, ...]] | None:
    """(finish, local path) of the earliest win, or None when no path of ``pr.path`` exists."""
    n = len(pr.stations)
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in pr.edges:
        adj[a].append(b)
        adj[b].append(a)
    ends_only = set(pr.termini)
    best: list = [pr.turns + 1, None]  # a win must come within the window
    nodes = 0

    def grow(path: list[int], readies: list[int]) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > MAX_NODES:
            raise TooLarge
        if _finish(readies) >= best[0]:
            return
        if len(path) == pr.path:
            if path[0] < path[-1]:  # a path and its reverse are one
                best[0], best[1] = _finish(readies), tuple(path)
            return
        last = path[-1]
        for nxt in adj[last]:
            if nxt in path or (nxt in ends_only and len(path) < pr.path - 1):
                continue  # a Terminus card forms one Connection: it only ends a path
            path.append(nxt)
            readies.append(max(pr.arrival[last], pr.arrival[nxt]))
            grow(path, readies)
            path.pop()
            readies.pop()

    for start in range(n):
        grow([start], [])
    return None if best[1] is None else (best[0], best[1])


def solve_deal_paths(adjacency: dict[str, tuple[str, ...]], d: Deal, path: int,
                     termini: frozenset[str] = frozenset()) -> tuple[str, tuple[PlayerAnswer, ...]]:
    """Every player's earliest win by exhaustive search (TooLarge when a graph is too big)."""
    answers = []
    for w in d.windows():
        pr = player_problem(adjacency, w, path, termini)
        found = best_path(pr)
        if found is None:
            answers.append(PlayerAnswer(pr.seat, pr.order, pr.turns, "INFEASIBLE", None, None, (), ()))
            continue
        _, local = found
        stations = tuple(pr.stations[i] for i in local)
        arrival = dict(zip(pr.stations, pr.arrival, strict=True))
        schedule = earliest_schedule([(max(arrival[a], arrival[b]), a, b) for a, b in zip(stations, stations[1:], strict=False)])
        turn = schedule[-1][0]
        answers.append(PlayerAnswer(pr.seat, pr.order, pr.turns, "OPTIMAL", turn, (turn - 1) * d.players + pr.order,
                                    stations, schedule))
    return "OPTIMAL", tuple(answers)
