"""Shared Objectives in the column relaxation (:mod:`.columns`, :mod:`.branch`): ``--objectives``.

A Shared Objective is worth its points when the sheet's lines together reach a threshold
(:func:`tubedeck.games.nextstation.scoring.objective_reached`). The master LP takes, per
objective g, a variable ``a[g]`` in [0, 1] worth the points, held up by rows every game that
meets it satisfies with ``a[g] = 1`` (so every bound stays a bound):

* **groups** (districts, tourist sites, central stations): a group is reached when some line
  visits one of its stations. Per group j a variable ``t[g, j]`` in [0, 1] with
  ``t[g, j] <= sum over rounds and lines of w * (stations of the line in the group)`` (price
  ``alpha[g][j]``, paid to every round's line per station of the group it visits: a station
  price, so the round search and the scans price it as they do the others), and
  ``sum_j weight_j t[g, j] >= threshold * a[g]`` (price ``beta[g]``). A line's station count
  stands in for "reached" (it is at least that), so pricing stays additive over stations.
* **interchanges**: ``sum over stations of the choices scoring two lines or more >= threshold
  * a[g]``: a price on those choices in each station's term of the bound.
* **thames**: ``sum over lines of w * (Thames crossings) >= threshold * a[g]``: a price per
  Thames section, given to pricing as an entering price on both of the section's ends (a line
  drawing a section enters exactly one of them along it).

Each goal row has an artificial slack at :data:`.columns.ARTIFICIAL` a unit, so a node of the
tree that fixes ``a[g] = 1`` (the game must meet g) always has a solvable master. In the
Lagrangian bound (:func:`rest`) each ``a[g]`` and ``t[g, j]`` takes its best value in {0, 1}
(or the node's fixed one). A node fixing ``a[g] = 0`` scores its games without g's points:
a game meeting g is then also in the sibling node, with them, so the tree's bound stays one.
"""

from __future__ import annotations

from dataclasses import dataclass

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.rules import Objective, RuleBook

KINDS = ("groups", "interchanges", "thames")


@dataclass(frozen=True)
class Goal:
    """One Shared Objective as the relaxation sees it."""

    id: str
    kind: str  # one of KINDS
    threshold: int
    points: int
    groups: tuple[tuple[frozenset[str], int], ...] = ()  # "groups": (stations, weight) per group


def goals_of(board: Board, book: RuleBook, objectives: tuple[Objective, ...]) -> tuple[Goal, ...]:
    """The goals of the objectives in play (measures as :func:`~tubedeck.games.nextstation.scoring.objective_reached`)."""
    out = []
    pts = book.rules.objective_points
    for o in objectives:
        if o.measure == "interchanges":
            out.append(Goal(o.id, "interchanges", o.threshold, pts))
        elif o.measure == "thames":
            out.append(Goal(o.id, "thames", o.threshold, pts))
        elif o.measure == "districts":
            by: dict[str, set[str]] = {}
            for s in board.stations:
                by.setdefault(s.district, set()).add(s.id)
            out.append(Goal(o.id, "groups", o.threshold, pts,
                            tuple((frozenset(v), 1) for _, v in sorted(by.items()))))
        elif o.measure == "tourist-sites":
            out.append(Goal(o.id, "groups", o.threshold, pts,
                            tuple((frozenset({s.id}), int(s.tourist)) for s in board.stations if s.tourist)))
        elif o.measure == "central-stations":
            out.append(Goal(o.id, "groups", o.threshold, pts,
                            tuple((frozenset({s.id}), 1) for s in board.stations if s.district == "central")))
        else:
            raise ValueError(f"no relaxation for the objective measure {o.measure!r}")
    return tuple(out)


@dataclass(frozen=True)
class GoalPrices:
    """The goal rows' prices (all >= 0): ``alpha[g][j]`` per group row, ``beta[g]`` per threshold row."""

    alpha: tuple[tuple[float, ...], ...]
    beta: tuple[float, ...]

    def scaled(self, k: float) -> GoalPrices:
        return GoalPrices(tuple(tuple(k * x for x in p) for p in self.alpha), tuple(k * x for x in self.beta))

    def mixed(self, other: GoalPrices, a: float) -> GoalPrices:
        return GoalPrices(tuple(tuple(a * x + (1 - a) * y for x, y in zip(p, q)) for p, q in zip(self.alpha, other.alpha)),
                          tuple(a * x + (1 - a) * y for x, y in zip(self.beta, other.beta)))


def fold(board: Board, goals: tuple[Goal, ...], prices: GoalPrices | None, lam: dict[str, float],
         eta: dict[tuple[str, int], float]) -> tuple[dict[str, float], dict[tuple[str, int], float]]:
    """A round's station and entering prices with the goals' added (the group rows' alpha per
    station of the group, the Thames rows' beta per crossing on both ends of the section)."""
    if not goals or prices is None:
        return lam, eta
    lam, eta = dict(lam), dict(eta)
    for g, goal in enumerate(goals):
        if goal.kind == "groups":
            for (stations, _), p in zip(goal.groups, prices.alpha[g]):
                if p:
                    for s in stations:
                        lam[s] = lam.get(s, 0.0) + p
        elif goal.kind == "thames" and prices.beta[g]:
            for i, sec in enumerate(board.sections):
                if sec.thames:
                    for v in (sec.a, sec.b):
                        eta[v, i] = eta.get((v, i), 0.0) + prices.beta[g] * int(sec.thames)
    return lam, eta


def choice_bonus(goals: tuple[Goal, ...], prices: GoalPrices | None, lines: int) -> float:
    """What the interchange goals' prices add to a station choice with ``lines`` lines on it."""
    if not goals or prices is None or lines < 2:
        return 0.0
    return sum(prices.beta[g] for g, goal in enumerate(goals) if goal.kind == "interchanges")


def rest(goals: tuple[Goal, ...], prices: GoalPrices | None, fixed: dict[int, int]) -> float:
    """The goals' own terms of the Lagrangian bound: per goal, ``a[g] (points - threshold beta[g])``
    at its best in {0, 1} (or its ``fixed`` value), and per group ``t (weight beta[g] - alpha)``
    at its best in {0, 1}."""
    total = 0.0
    for g, goal in enumerate(goals):
        beta = prices.beta[g] if prices is not None else 0.0
        worth = goal.points - goal.threshold * beta
        total += worth * fixed[g] if g in fixed else max(0.0, worth)
        for j, (_, weight) in enumerate(goal.groups):
            alpha = prices.alpha[g][j] if prices is not None else 0.0
            total += max(0.0, weight * beta - alpha)
    return total
