"""Over *all* deals of a scope: how long can the first possible win be delayed?

Sampling says how often deals are winnable; this module answers for every deal at once, with
CP-SAT playing the adversary. The adversary chooses the whole Station stock order (which card
reaches which player on which own turn); it looks for a deal in which **no** player can win by
global turn ``G`` (0-based, counted over all players' turns). If CP-SAT proves no such deal
exists, then *every* deal has a possible win by turn ``G``: a proven bound. The largest ``G`` with
a deal is found by bisection, and that deal is the witness; it is then re-checked by the
per-deal checker of :mod:`tubedeck.solver.klm.model`.

Scope of the claim (also printed): the die rolls are fixed to "no 6" (a 6 moves the rest of the
stock to other players, so rolls are part of the adversary's freedom in real play; here the
shuffle alone is), the first player is seat 1 (seats are symmetric), and the rules are those of
the per-deal check (solo play, no Fortune Card effects).

Encoding. Slots: each player's opening hand plus own turn 1 (arrival 1, six cards when turn 1
is in the window) and one card per later own turn. ``x[s, slot]`` puts station ``s`` in a slot.
For a player with deadline ``D`` (own turns up to global turn ``G``) and a five-station path,
"winnable by ``D``" means: the player holds all five, and with ``late_t`` = the Connections
whose later card arrives on turn ``t`` or after, ``|late_{D+1}| = 0``, ``|late_D| <= 1``,
``|late_{D-1}| <= 2``, ``|late_{D-2}| <= 3`` (Hall's condition for one Connection per turn). The
adversary must break that for every path and player: a station held by someone else, or one of
those counts exceeded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import networkx as nx
from ortools.sat.python import cp_model

from tubedeck.errors import UsageError
from tubedeck.games.klm.cards import StationDeck
from tubedeck.games.klm.edition import Edition
from tubedeck.games.klm.rules import Rules
from tubedeck.games.klm.setup import Deal, check_players
from tubedeck.solver.cpsat import MAX_TIME_LIMIT, check_time_limit, configure, solve

from .model import deal_record, solve_deal


def five_paths(g: nx.Graph, length: int, termini: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """Every simple path of ``length`` (the rules' five) stations, once (a path and its reverse
    are one path)."""
    out = []

    def walk(path: list[str]) -> None:
        if len(path) == length:
            if path[0] < path[-1]:
                out.append(tuple(path))
            return
        if len(path) > 1 and path[-1] in termini:
            return  # a Terminus card forms one Connection: it ends a path, never continues it
        for n in sorted(g[path[-1]]):
            if n not in path:
                walk(path + [n])

    for s in sorted(g):
        walk([s])
    return out


def own_turns(stock: int, players: int, order: int) -> int:
    """Own turns of the player at ``order`` in a window of ``stock`` turns (no sixes)."""
    return len(range(order, stock, players))


@dataclass(frozen=True)
class Adversary:
    model: cp_model.CpModel
    x: dict  # (station, player, own turn) -> BoolVar


class OutOfTime(Exception):
    """The wall clock ran out while a model was being built (:func:`build_adversary`)."""


def build_adversary(deck: StationDeck, players: int, last_turn: int, paths: list[tuple[str, ...]],
                    rules: Rules, stop_at: float | None = None) -> Adversary:
    """The model "some deal has no possible win on global turns 0..last_turn"; past ``stop_at``
    (``time.monotonic``) :class:`OutOfTime` (a whole network's model takes seconds to build)."""
    HAND, PATH = rules.hand, rules.path
    stations = [c.station for c in deck.cards]
    stock = len(stations) - HAND * players
    m = cp_model.CpModel()
    turns = [own_turns(stock, players, p) for p in range(players)]
    slots = [(p, k) for p in range(players) for k in range(1, max(turns[p], 1) + 1)]
    cap = {(p, k): (HAND if k == 1 else 0) + (1 if k <= turns[p] else 0) for p, k in slots}
    x = {(s, p, k): m.new_bool_var(f"x_{s}_p{p}_t{k}") for s in stations for p, k in slots}
    for s in stations:
        m.add_exactly_one(x[s, p, k] for p, k in slots)
    for p, k in slots:
        m.add(sum(x[s, p, k] for s in stations) == cap[p, k])
    for p in range(players):
        deadline = min(turns[p], (last_turn - p) // players + 1) if last_turn >= p else 0
        if deadline < PATH - 1:
            continue  # four Connections need four own turns
        own = {s: m.new_bool_var(f"own_{s}_p{p}") for s in stations}
        for s in stations:
            m.add(sum(x[s, p, k] for k in range(1, turns[p] + 1)) == own[s])
        late: dict[tuple[str, str, int], cp_model.IntVar] = {}

        def edge_late(a: str, b: str, t: int, late=late, p=p) -> cp_model.IntVar:
            key = (a, b, t)
            if key not in late:
                v = late[key] = m.new_bool_var(f"late_{a}_{b}_p{p}_t{t}")
                # may be true only if a card of the edge really arrives on turn t or later
                m.add(v <= sum(x[s, p, k] for s in (a, b) for k in range(t, turns[p] + 1)))
            return late[key]

        for i, path in enumerate(paths):
            if stop_at is not None and i % 256 == 0 and time.monotonic() > stop_at:
                raise OutOfTime()
            edges = [tuple(sorted(e)) for e in zip(path, path[1:], strict=False)]
            reasons = [~own[s] for s in path]
            for t, allowed in ((deadline + 1 - i, i) for i in range(PATH - 1)):
                if t > turns[p]:
                    continue  # nothing arrives after the window: this count cannot break the win
                too_many = m.new_bool_var(f"break_{'_'.join(path)}_p{p}_t{t}")
                m.add(sum(edge_late(a, b, t) for a, b in edges) >= allowed + 1).only_enforce_if(too_many)
                reasons.append(too_many)
            m.add_bool_or(reasons)
    return Adversary(m, x)


def witness_deal(deck: StationDeck, players: int, adv: Adversary, solver: cp_model.CpSolver, rules: Rules) -> Deal:
    """Turn the adversary's slots into a real deal: hands, stock order, rolls (no sixes)."""
    HAND = rules.hand
    stations = [c.station for c in deck.cards]
    stock = len(stations) - HAND * players
    where = {s: (p, k) for (s, p, k), v in adv.x.items() if solver.value(v)}
    hands: list[list[str]] = [[] for _ in range(players)]
    draws: dict[tuple[int, int], str] = {}
    for s in stations:
        p, k = where[s]
        if k == 1 and len(hands[p]) < HAND:
            hands[p].append(s)
        else:
            draws[p, k] = s  # the sixth card of slot (p, 1) is the draw of own turn 1
    dealt = [hands[i % players][i // players] for i in range(HAND * players)]
    order = [draws[g % players, g // players + 1] for g in range(stock)]
    opening = ((rules.die,) + (1,) * (players - 1),)
    plain = 1 if rules.fortune_roll != 1 else 2  # a roll that draws a Station Card
    return Deal(-1, players, tuple(dealt + order), (), opening, 0, (plain,) * (stock + 1), HAND, rules.fortune_roll)


@dataclass(frozen=True)
class BoundResult:
    players: int
    stations: int
    window: int  # global turns before the stock runs out (no sixes)
    first_win: int | None  # proven: every deal has a possible win by this global turn (None: no bound)
    witness: Deal | None  # a deal delaying the first possible win the most (of those found)
    witness_record: dict | None
    status: str  # "proven", "no bound" (a deal with no possible win), or "undecided" (the time ran out)
    hand: int  # rules.hand, to tell the witness's hands from its stock
    delayed: int | None = None  # a deal is found with no possible win up to this global turn (the witness's)
    solver: str = ""  # CP-SAT's status of the question the time limit cut ("UNKNOWN"), if any

    def as_dict(self) -> dict:
        return {"players": self.players, "stations": self.stations, "window": self.window,
                "bound_global_turn": self.first_win, "delayed_global_turn": self.delayed, "status": self.status,
                "witness_stock": list(self.witness.station_stock) if self.witness else None,
                "witness_check": self.witness_record,
                "assumptions": "die rolls fixed to no 6; seat 1 starts; solo play, no Fortune Card effects"}

    def describe(self, deck: StationDeck) -> list[str]:
        name = lambda s: deck.by_station[s].name  # noqa: E731
        out = [f"all deals of {deck.scope.label!r} ({self.stations} Station Cards), {self.players} players, "
               f"no 6 rolled: {self.window} turns before the Station stock runs out"]
        if self.status == "no bound":
            out.append("no bound: some deal lets nobody win before the stock runs out (witness below)")
        elif self.status == "proven":
            out.append(f"proven bound: every deal has a possible win by global turn {self.first_win + 1} "
                       f"(round {self.first_win // self.players + 1}); the witness below needs exactly that"
                       if self.first_win is not None else "proven bound")
        else:
            known = []
            if self.first_win is not None:
                known.append(f"every deal has a possible win by global turn {self.first_win + 1} (proven)")
            if self.delayed is not None:
                known.append(f"a deal (below) has none before global turn {self.delayed + 2}")
            out.append("undecided within the time limit" + (f" (CP-SAT: {self.solver})" if self.solver else "")
                       + (": " + "; ".join(known) if known else ": neither a bound nor a deal without a "
                          "possible win was found") + "; a longer --time-limit may decide it")
        if self.witness is not None:
            for p, hand in enumerate(self.witness.hands):
                out.append(f"  player {p + 1} hand: " + ", ".join(name(s) for s in hand))
            out.append("  stock (top first): " + ", ".join(name(s) for s in self.witness.station_stock[self.hand * self.players:]))
            first = (self.witness_record or {}).get("first")
            out.append("  checker on the witness: " + (f"first possible win: player {first['player']}, own turn "
                                                       f"{first['turn']} (global {first['global_turn'] + 1})"
                                                       if first else "nobody can win"))
        return out


def worst_deal(deck: StationDeck, players: int, rules: Rules, time_limit: float = 120.0) -> BoundResult:
    """Bisect on the global turn of the first possible win over all deals (see the docstring),
    within ``time_limit`` wall-clock seconds in all: each question gets what is left. A question
    the clock cuts ends the bisection with what is proven so far (status "undecided")."""
    HAND = rules.hand
    deadline = time.monotonic() + time_limit
    stock = len(deck) - HAND * players
    termini = frozenset(c.station for c in deck.cards if c.terminus)
    paths = five_paths(deck.graph, rules.path, termini)
    adjacency = {s: tuple(sorted(deck.graph[s])) for s in deck.graph}

    def attempt(last: int):
        left = deadline - time.monotonic()
        if left <= 0.05:
            return "UNKNOWN", None, None
        try:
            adv = build_adversary(deck, players, last, paths, rules, stop_at=deadline)
        except OutOfTime:
            return "UNKNOWN", None, None
        solver = configure(cp_model.CpSolver(), MAX_TIME_LIMIT, workers=2)
        # the whole command's wall clock, not CP-SAT's deterministic seconds (on this model they
        # ran out at a third of the wall clock asked for)
        solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.05)
        status = solve(solver, adv.model)
        return status, adv, solver

    def checked(adv, solver):
        d = witness_deal(deck, players, adv, solver, rules)
        status, answers = solve_deal(adjacency, d, rules.path, termini=termini)
        return d, deal_record(d, status, answers)

    if stock < 4:  # four Connections need at least four own turns of draws to be worth asking
        raise UsageError(f"the scope has {len(deck)} Station Cards: too few for {players} players "
                         f"({HAND} each in hand and a Station stock to draw from)")
    status, adv, solver = attempt(stock - 1)
    if status in ("OPTIMAL", "FEASIBLE"):
        d, rec = checked(adv, solver)
        return BoundResult(players, len(deck), stock, None, d, rec, "no bound", hand=HAND, delayed=stock - 1)
    if status != "INFEASIBLE":
        return BoundResult(players, len(deck), stock, None, None, None, "undecided", hand=HAND, solver=status)
    lo, hi, best = -1, stock - 1, None  # a deal exists avoiding wins up to lo; none up to hi
    cut = ""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        status, adv, solver = attempt(mid)
        if status in ("OPTIMAL", "FEASIBLE"):
            lo, best = mid, (adv, solver)
        elif status == "INFEASIBLE":
            hi = mid
        else:
            cut = status
            break
    d, rec = checked(*best) if best else (None, None)
    return BoundResult(players, len(deck), stock, hi, d, rec, "undecided" if cut else "proven", hand=HAND,
                       delayed=lo if lo >= 0 else None, solver=cut)


@dataclass(frozen=True)
class BoundReport:
    """``tubedeck check klm-bound``: the result and the deck its names come from."""

    result: BoundResult
    deck: StationDeck

    def as_dict(self) -> dict:
        return self.result.as_dict()

    def describe(self) -> list[str]:
        return self.result.describe(self.deck)


def report(edition: Edition, players: int = 4, time_limit: float = 120.0) -> BoundReport:
    """The registry's ``check klm-bound``."""
    check_players(players, edition.rules)
    check_time_limit(time_limit)
    return BoundReport(worst_deal(edition.deck, players, edition.rules, time_limit), edition.deck)
