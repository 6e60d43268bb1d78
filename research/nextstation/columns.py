"""An upper bound on the best whole solo game by column generation (Dantzig-Wolfe).

Why: the CP-SAT model's own bound (:mod:`.game_model`) stays far above every game found, since
its LP lets each round draw every section a little. Here a round's fractional choice is a mix of
**whole lines** (columns), each one legal for its round with its exact round score.

The restricted master LP (GLOP), over the lines found so far:

* each round takes weights ``w[r, l]`` summing to 1 over its lines;
* **one sheet**: each section is drawn at most once in all, and of two crossing sections at most
  one is drawn (weights summed over the lines using them);
* **interchanges**: each station takes a mix of the patterns z (which rounds pass it) a game
  could show there (:mod:`.cuts`: the departing round on it, the others each entering along a
  section of their own that the flips let them draw; all 2**R with ``cuts=False``), worth
  ``interchange[|z|]``, with round r's share of the patterns visiting it at most the weight of
  r's lines through it (prices ``lam[r, s]``);
* **tourist track**: a mix of totals tau worth ``tourist_track[tau]``, with tau at most the
  tourist sites of the lines chosen (price ``mu``).

**The bound.** For any prices lam, mu >= 0 and section prices sigma >= 0 (the LP's duals, clipped
at 0), every game scores at most the Lagrangian bound (:func:`lagrangian_bound`)::

    sum over rounds r of  max over r's lines l [ score(l) + sum_s lam[r,s] [s on l] + mu sites(l)
                                                 - sum over sections i of l of pen[i] ]
  + sum over stations s of  max over kept z [ interchange[|z|] - sum_r lam[r,s] z_r ]
  + max over tau <= tourist_marks_max [ tourist_track[tau] - mu tau ]  + sum of sigma

where ``pen[i]`` sums sigma over the one-sheet constraints holding section i (each dropped
constraint is priced, so the game's own lines, its visits and its tau make the right side at
least its score). Each round's max is the exact pricing search
:func:`tubedeck.games.nextstation.best.best_response`; its best line is also the column the LP
gets next. The bound reported is the least over the iterations, rounded down (scores are whole);
an iteration whose pricing was cut short (only a 600 s guard; a pricing search takes a second or
so) gives no bound. After a fixed number of iterations, not a time limit, the least bound so far
is reported: the same bound on any machine.

Measured (README): on the classic map the bound falls from about 290 to 208-260 in 25
iterations, far below CP-SAT's, but still 35-55 points above the best games found. The mixes
are the relaxation's weakness: the LP spreads each round over some 15 lines, and half of each of
two lines through a station counts as half of a four-line interchange (seed 2: 64 interchange
points in the LP, 20-30 in the games found). A bound that meets the game found proves it
(:func:`research.nextstation.whole.best_of`): it does on small games, not on real ones. Shared
Objectives are not priced: with objectives the bound adds every objective's points.

**Branch and price** (:mod:`.branch`) uses the same machinery at each node of its tree:
:class:`Fixed` (a node's decisions as master rows, pricing terms, a pool filter and fewer
interchange choices), :func:`solve_master` (the master with those rows, and its solution),
``lagrangian_bound(..., fixed=)``, and the tourist track scored per round
(``relaxation(..., tourist=True)``, prices :attr:`Prices.rho`). The column bound itself keeps
the tourist track as one total.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from ortools.linear_solver import pywraplp

from tubedeck.games.nextstation.best import best_round, line_of
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.solver.nextstation.engines import Budget
from tubedeck.solver.nextstation.game_model import Round, lines_of

from . import goals as goals_
from .clash import Clash, bits_of, block_of, separate
from .cuts import Relaxation, relaxation
from .goals import GoalPrices
from .pricing import entering_response

GUARD = 600.0  # seconds: a pricing search is exact and takes about a second; this only guards
EPS = 1e-6
STALL_FLOOR = 20.0  # s: a master solve is never called stalled sooner
STALL_TIMES = 10  # a solve past this many times the slowest of the last STALL_WINDOW has stalled
STALL_WINDOW = 5
FALLBACK = "use_dual_simplex: true use_preprocessing: false"  # GLOP's parameters for a stalled solve
SMOOTH = 0.5  # weight of the best prices so far in the prices searched next
SWITCH = 0.5  # with the entering cuts, the share of the iterations the coarse master runs at most


@dataclass(frozen=True)
class Column:
    """One legal line of one round, as the master LP sees it."""

    score: int  # its round score
    stations: frozenset[str]
    sites: int  # tourist sites on it (the tourist track's marks)
    sections: frozenset[int]
    entering: frozenset[tuple[str, int]] = frozenset()  # (station, the section it is entered by)
    # how it was drawn, (turn, from, to) per section (to replay it; not part of what the LP sees)
    draws: tuple[tuple[int, str, str], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Prices:
    lam: tuple[dict[str, float], ...]  # per round: a price per station visited
    mu: float  # per tourist site
    sigma: dict[tuple[int, ...], float]  # per one-sheet constraint: (i,) or (i, j) crossing
    eta: tuple[dict[tuple[str, int], float], ...] = ()  # per round: a price per (station, section entering it)
    # branching rows (:class:`Fixed`, branch and price): per round, a price per station its line
    # must visit and per section it must draw
    visit: tuple[dict[str, float], ...] = ()
    draw: tuple[dict[int, float], ...] = ()
    # the tourist track per round (:attr:`.cuts.Relaxation.tours`): per round, a price for its
    # line taking j or more tourist sites (j = 1, 2, ...); a line with k sites earns the first k
    rho: tuple[tuple[float, ...], ...] = ()
    goal: GoalPrices | None = None  # the Shared Objectives' rows (:mod:`.goals`)
    clash: tuple[tuple[Clash, float], ...] = ()  # cuts between two rounds' lines (:mod:`.clash`), priced > 0

    def clashes(self, r: int) -> tuple[tuple[Clash, float, bool], ...]:
        """The priced cuts round r's lines take part in: (cut, price, whether r is its first round)."""
        return tuple((c, p, r == c.r) for c, p in self.clash if r in (c.r, c.q))

    def gain(self, r: int, k: int) -> float:
        """What the tourist prices give round r's line for k tourist sites."""
        return self.mu * k + (sum(self.rho[r][:k]) if self.rho else 0.0)

    def entering(self, r: int) -> dict[tuple[str, int], float]:
        return self.eta[r] if self.eta else {}

    def penalty(self) -> dict[int, float]:
        pen: dict[int, float] = {}
        for secs, p in self.sigma.items():
            for i in secs:
                pen[i] = pen.get(i, 0.0) + p
        return pen


@dataclass(frozen=True)
class ColumnBound:
    bound: int | None  # the least Lagrangian bound found, rounded down
    lp: float  # the last restricted master's value
    iterations: int
    columns: int
    converged: bool  # no line priced out: the LP value is the Dantzig-Wolfe bound
    wall: float


def column_of(board: Board, book: RuleBook, stations, sections, draws=()) -> Column:
    """The column of a line: its stations (the departure first, then in the order reached) and
    its sections (in the order drawn: the k-th enters the (k+1)-th station); ``draws``, (turn,
    from, to) per section, are kept to replay it."""
    score = line_score(board, book, stations, sections)
    return Column(score.points, frozenset(stations), score.tourist_sites, frozenset(sections),
                  frozenset(zip(stations[1:], sections)), tuple(draws))


BIG = 1e6  # a price no line makes up for: a station or section a branch forbids its round
ARTIFICIAL = 1e3  # the master's cost per unit of a branching row left unmet (so the LP always solves)


@dataclass(frozen=True)
class Fixed:
    """Branching decisions of a node of branch and price (:mod:`.branch`), all robust: per round,
    the stations its line must visit (y[r, s] = 1) and must not (y[r, s] = 0), the sections it must
    draw (x[r, i] = 1) and must not (x[r, i] = 0). ``blocked[r]``: the sections round r cannot
    draw since another round must draw them or one crossing them.

    How each is kept (every Lagrangian bound stays a bound for the node's games):

    * y = 1, x = 1: master rows ``sum of w over r's lines through s (drawing i) >= 1``, each with
      an artificial slack at :data:`ARTIFICIAL` a unit so the LP always solves; their duals are
      prices in pricing (a station bonus; for a section, an entering price on both its ends: a
      line drawing i enters exactly one of them along i) and the bound subtracts them once;
    * y = 0, x = 0: a price of -:data:`BIG` on the station, a penalty of :data:`BIG` on the
      section, in round r's pricing (no line with them can be the best: the departure alone
      never has them), and the pool's columns with them are left out;
    * another round's x = 1: ``drawn`` in pricing (the section and those crossing it: a hard
      filter), and the pool's columns drawing them are left out;
    * the interchange choices (:class:`.cuts.Relaxation`) a node's games cannot show are dropped
      (:meth:`restrict`);
    * a Shared Objective met or not (a[g] = 1 / 0, :mod:`.goals`): the master's variable fixed,
      and the bound's term for it taken at that value."""

    visit: tuple[frozenset[str], ...]
    avoid: tuple[frozenset[str], ...]
    draw: tuple[frozenset[int], ...]
    skip: tuple[frozenset[int], ...]
    blocked: tuple[frozenset[int], ...]
    goals: tuple[tuple[int, int], ...] = ()  # (goal index, 0 or 1)

    @classmethod
    def of(cls, board: Board, n: int, decisions) -> Fixed:
        """From ``decisions``: (kind "y" or "x", round, station id or section index, 0 or 1), or
        ("g", 0, goal index, 0 or 1)."""
        sets: dict[tuple[str, int], set] = {(k, r): set() for k in ("visit", "avoid", "draw", "skip") for r in range(n)}
        goals = tuple(sorted((key, value) for kind, _, key, value in decisions if kind == "g"))
        for kind, r, key, value in decisions:
            if kind == "g":
                continue
            name = {("y", 1): "visit", ("y", 0): "avoid", ("x", 1): "draw", ("x", 0): "skip"}[kind, value]
            sets[name, r].add(key)
        blocked = []
        for r in range(n):
            out: set[int] = set()
            for q in range(n):
                if q != r:
                    for i in sets["draw", q]:
                        out.add(i)
                        out |= board.crossing[i]
            blocked.append(frozenset(out))
        def each(kind: str) -> tuple[frozenset, ...]:
            return tuple(frozenset(sets[kind, r]) for r in range(n))
        return cls(each("visit"), each("avoid"), each("draw"), each("skip"), tuple(blocked), goals)

    def admits(self, r: int, c: Column) -> bool:
        """Whether round r's column may be in the node's master (y = 1, x = 1 are rows there)."""
        return not (c.stations & self.avoid[r] or c.sections & self.skip[r] or c.sections & self.blocked[r])

    def drawn(self, r: int) -> frozenset[int]:
        """The sections the other rounds must draw: drawn already, for round r's pricing."""
        return frozenset(i for q, secs in enumerate(self.draw) if q != r for i in secs)

    def visited(self, board: Board, r: int) -> frozenset[str]:
        """Stations round r's line must visit: y = 1, and both ends of each section it must draw."""
        ends = {v for i in self.draw[r] for v in (board.sections[i].a, board.sections[i].b)}
        return self.visit[r] | ends

    def restrict(self, board: Board, relax: Relaxation, master: bool = False) -> Relaxation | None:
        """The interchange choices a game of the node can show: a round that must not visit a
        station is off its pattern, one that must is on it (not for the ``master``, whose links
        could otherwise leave it infeasible before its columns visit it), and no round enters a
        station along a section it cannot draw. None: a station has no choice left (no game)."""
        n = len(self.visit)
        on = [self.visited(board, r) for r in range(n)]
        out = {}
        for s, choices in relax.choices.items():
            off = [r for r in range(n) if s in self.avoid[r]]
            need = [] if master else [r for r in range(n) if s in on[r]]
            kept = [(z, a) for z, a in choices if not any(z[r] for r in off) and all(z[r] for r in need)
                    and not any(i in self.skip[r] or i in self.blocked[r] for r, i in a)]
            if not kept:
                return None
            out[s] = kept
        least = [0 if master else sum(board.by_id[v].tourist for v in on[r]) for r in range(n)]
        tours = tuple(t for t in relax.tours if all(t[r] >= least[r] for r in range(n)))
        if relax.tours and not tours:
            return None
        return Relaxation(relax.cuts, out, tours, relax.goals)

    def terms(self, board: Board, r: int, prices: Prices, pen: dict[int, float]
              ) -> tuple[dict[str, float], dict[tuple[str, int], float], dict[int, float]]:
        """Round r's pricing terms at the node: station prices, entering prices, section penalties."""
        lam = dict(prices.lam[r])
        for s, p in (prices.visit[r] if prices.visit else {}).items():
            lam[s] = lam.get(s, 0.0) + p
        for s in self.avoid[r]:
            lam[s] = lam.get(s, 0.0) - BIG
        eta = dict(prices.entering(r))
        for i, p in (prices.draw[r] if prices.draw else {}).items():
            for v in (board.sections[i].a, board.sections[i].b):
                eta[v, i] = eta.get((v, i), 0.0) + p
        pen = dict(pen)
        for i in self.skip[r]:
            pen[i] = pen.get(i, 0.0) + BIG
        return lam, eta, pen

    def constant(self, prices: Prices) -> float:
        """What the branching rows' prices take off the bound (their right-hand sides, 1 each)."""
        return sum(sum(d.values()) for d in prices.visit) + sum(sum(d.values()) for d in prices.draw)


MORE = 4  # other lines a pricing search met, added as columns beside its best (0: the best alone)


class Scan(Protocol):
    """A round whose every line is listed (:class:`.pairs.LineScan`): priced by a scan of them all
    instead of the round search, to the same value."""

    def price(self, lam: dict[str, float], eta: dict[tuple[str, int], float], pen: dict[int, float],
              gain: Sequence[float], drawn: frozenset[int],
              clashes: Sequence[tuple[Clash, float, bool]] = ()) -> tuple[float, list[Column]]:
        """The best value of a line at these terms (a line drawing or crossing a ``drawn`` section
        left out; each priced cut's price times its coefficient taken off) and its column first,
        then a few of the next best."""
        ...


def gains_of(board: Board, mu: float, rho: Sequence[float]) -> list[float]:
    """What the tourist prices give a line for k tourist sites, k = 0, 1, ..."""
    sites = sum(s.tourist for s in board.stations)
    return [mu * k + sum(rho[:k]) for k in range(max(sites, 1) + 1)]


def _price_round(board: Board, book: RuleBook, rnd: Round, lam: dict[str, float], mu: float,
                 pen: dict[int, float], known: Sequence[Column] = (),
                 deadline: float | None = None, eta: dict[tuple[str, int], float] | None = None,
                 drawn: frozenset[int] = frozenset(), rho: Sequence[float] = (),
                 more: list[Column] | None = None) -> tuple[float | None, Column]:
    """Round r's most valuable line under the prices, and its value (None if cut short: by
    :data:`GUARD` or the ``deadline``, ``time.perf_counter``), on a sheet where ``drawn`` sections
    exist. The best of the ``known`` lines (each legal there) is the floor the search must beat
    (it prunes far more). ``rho``: the per-round tourist prices (:attr:`Prices.rho`), beyond ``mu``.
    ``more``: gets up to :data:`MORE` other lines the search met that beat the floor (the last
    ones, the most valuable): more columns an iteration, for no extra search."""
    ts, dep = rnd
    gain = gains_of(board, mu, rho)
    eta = eta or {}
    worth = [(worth_of(c, lam, mu, pen, eta) + sum(rho[:c.sites]), k) for k, c in enumerate(known)]
    floor, at = max(worth, default=(None, None))
    trail: list[tuple[tuple[int, str, str], ...]] | None = [] if more is not None else None
    value, line = entering_response(board, book, ts, dep, drawn, lam, eta, gain, _left(deadline), pen,
                                    None if floor is None else floor - lam.get(dep, 0.0) - EPS, trail)
    if more is not None and trail:
        more.extend(column_of(board, book, *line_of(board, dep, d), d) for d in trail[-1 - MORE:-1])
    if value is None:  # no line beats the best known one (only a floor leaves the search none)
        assert floor is not None and at is not None
        return (floor if line.status == "OPTIMAL" else None), known[at]
    if line.status != "OPTIMAL":
        return None, _column(board, book, rnd, line)
    return value + lam.get(dep, 0.0), _column(board, book, rnd, line)


def _left(deadline: float | None) -> float:
    """Seconds a search may take: to the ``deadline`` (``time.perf_counter``), at most :data:`GUARD`."""
    return GUARD if deadline is None else min(GUARD, deadline - time.perf_counter())


def worth_of(c: Column, lam: dict[str, float], mu: float, pen: dict[int, float],
           eta: dict[tuple[str, int], float] | None = None) -> float:
    return (c.score + sum(lam.get(s, 0.0) for s in c.stations) + mu * c.sites - sum(pen.get(i, 0.0) for i in c.sections)
            + sum((eta or {}).get(e, 0.0) for e in c.entering))


def _column(board: Board, book: RuleBook, rnd: Round, line) -> Column:
    return column_of(board, book, *line_of(board, rnd[1], line.draws), line.draws)


def rest_of(book: RuleBook, relax: Relaxation, prices: Prices, n: int, goals: dict[int, int] | None = None) -> float:
    """The bound's terms beyond the rounds: each station's best interchange choice
    (:class:`.cuts.Relaxation`), tourist totals, sigma, the Shared Objectives' own terms
    (:func:`.goals.rest`; ``goals``: the values a node fixes)."""
    table = book.scores.interchange
    worth = np.array([table[min(k, len(table) - 1)] for k in range(n + 1)], dtype=float)
    rest = sum(p * c.rhs for c, p in prices.clash)
    both: dict[str, dict[tuple[int, int], float]] = {}  # station cuts' prices by station, pair of rounds
    for c, p in prices.clash:
        if c.kind == "station":
            pq = both.setdefault(c.station, {})
            pq[c.r, c.q] = pq.get((c.r, c.q), 0.0) + p
    bonus = goals_.choice_bonus(relax.goals, prices.goal, 2)  # (the same for any choice of 2 lines or more)
    for s, t in relax.tables.items():
        if not len(t.z):
            continue
        v = worth[t.size] - t.z @ np.array([prices.lam[r].get(s, 0.0) for r in range(n)])
        for r, keys in enumerate(t.keys):
            eta = prices.entering(r)
            if keys and eta:
                v -= np.array([eta.get((s, i), 0.0) for i in keys] + [0.0])[t.enter[r]]
        if bonus:
            v += bonus * (t.size >= 2)
        for (r, q), p in both.get(s, {}).items():
            v -= p * (t.z[:, r] * t.z[:, q])
        rest += float(v.max())
    if relax.goals:
        rest += goals_.rest(relax.goals, prices.goal, goals or {})
    cap = book.rules.tourist_marks_max
    if relax.tours:
        rest += max(book.scores.tourist(min(sum(t), cap)) - sum(prices.gain(r, k) for r, k in enumerate(t))
                    for t in relax.tours)
    else:
        rest += max(book.scores.tourist(k) - prices.mu * k for k in range(cap + 1))
    return rest + sum(prices.sigma.values())


def lagrangian_bound(board: Board, book: RuleBook, rounds: tuple[Round, ...], prices: Prices,
                     known: list[list[Column]] | None = None,
                     deadline: float | None = None,
                     relax: Relaxation | None = None, fixed: Fixed | None = None,
                     more: list[list[Column]] | None = None,
                     scans: Sequence[Scan | None] = ()) -> tuple[float | None, list[Column]]:
    """The bound for these prices (see the module), and each round's best priced line. None if a
    pricing search was cut short (by its guard or the ``deadline``). Prices must not be negative;
    ``known`` lines (per round, each legal) only speed the search up; ``relax``: how
    interchanges are scored (default: :func:`.cuts.relaxation` with every cut). With ``fixed``
    (a node of branch and price), a bound on the games that keep its decisions: ``relax`` should
    then be :meth:`Fixed.restrict`'s and the ``known`` lines ones :meth:`Fixed.admits`. ``more``
    (per round): gets other lines each pricing search met (:func:`_price_round`). ``scans``: per
    round, its listed lines (:class:`Scan`, or None: the search), priced by a scan."""
    if relax is None:
        relax = relaxation(board, rounds)
    pen = prices.penalty()
    total: float | None = 0.0
    best: list[Column] = []
    for r, rnd in enumerate(rounds):
        lam, eta, pen_r, drawn = prices.lam[r], prices.entering(r), pen, frozenset[int]()
        if fixed is not None:
            lam, eta, pen_r = fixed.terms(board, r, prices, pen)
            drawn = fixed.drawn(r)
        lam, eta = goals_.fold(board, relax.goals, prices.goal, lam, eta)
        rho = prices.rho[r] if prices.rho else ()
        scan = scans[r] if scans else None
        value: float | None
        if scan is not None:
            value, found = scan.price(lam, eta, pen_r, gains_of(board, prices.mu, rho), drawn, prices.clashes(r))
            col = found[0]
            if more is not None:
                more[r].extend(found[1:])
        else:
            if prices.clashes(r):
                raise ValueError(f"round {r} is priced by the search: no cut between rounds' lines may hold it")
            value, col = _price_round(board, book, rnd, lam, prices.mu, pen_r, known[r] if known else (),
                                      deadline, eta, drawn, rho, None if more is None else more[r])
        best.append(col)
        total = None if value is None or total is None else total + value
    if total is None:
        return None, best
    return (total + rest_of(book, relax, prices, len(rounds), dict(fixed.goals) if fixed else None)
            - (fixed.constant(prices) if fixed else 0.0)), best


class OutOfTime(RuntimeError):
    """A master LP solve stopped by its deadline."""


@dataclass(frozen=True)
class Master:
    """A solved restricted master LP: its value, its prices (duals clipped at 0) and solution:
    ``weights[r][k]`` of round r's k-th column, ``choices[s][q]`` of station s's q-th interchange
    choice (:class:`.cuts.Relaxation`), ``unmet``: the artificial slack the branching rows use."""

    value: float
    prices: Prices
    weights: tuple[tuple[float, ...], ...]
    choices: dict[str, tuple[float, ...]]
    unmet: float = 0.0
    goals: tuple[float, ...] = ()  # a[g] per Shared Objective (:mod:`.goals`)


def _master(board: Board, book: RuleBook, cols: list[list[Column]], relax: Relaxation):
    """Solve the restricted master LP: (value, its prices)."""
    m = solve_master(board, book, cols, relax)
    return m.value, m.prices


def solve_master(board: Board, book: RuleBook, cols: list[list[Column]], relax: Relaxation,
                 fixed: Fixed | None = None) -> Master:
    """Solve the restricted master LP over ``cols`` (per round), with a node's branching rows
    (:class:`Fixed`: the columns must be ones it admits, ``relax`` its :meth:`Fixed.restrict`
    with ``master=True``)."""
    lp = MasterLP(board, book, len(cols), relax, fixed)
    for r, cs in enumerate(cols):
        for c in cs:
            lp.add(r, c)
    return lp.solve()


class MasterLP:
    """The restricted master LP kept between solves: its rows are made once, each new column only
    adds its coefficients (GLOP's own calls: rebuilding the model through its expression API took
    four times the solve at a few thousand columns). Column k of round r is the k-th added."""

    def __init__(self, board: Board, book: RuleBook, n: int, relax: Relaxation, fixed: Fixed | None = None):
        self.board, self.book, self.n, self.relax, self.fixed = board, book, n, relax, fixed
        lp = self.lp = pywraplp.Solver.CreateSolver("GLOP")
        inf = self.inf = lp.infinity()
        self.objective = lp.Objective()
        self.objective.SetMaximization()
        self.w: list[list] = [[] for _ in range(n)]
        self.columns: list[list[tuple[int, int, frozenset[str]]]] = [[] for _ in range(n)]  # (drawn, block, stations)
        self.clashes: list[Clash] = []
        self.clash_rows: list[pywraplp.Constraint] = []
        self.both: dict[tuple[str, int, int], pywraplp.Variable] = {}  # (station, r < q): see _both
        # cuts whose row was let go (priced 0 when the next were separated: GLOP's time grows with
        # the rows; the master's optimum stays optimal without them)
        self.retired: set[Clash] = set()
        self.times: list[float] = []  # seconds of the last solves (see solve: a stall)
        self.stalls = 0  # solves stopped as stalled and solved again by the fallback
        self.convex = [lp.Constraint(1, 1) for _ in range(n)]
        table = book.scores.interchange
        self.link: dict[tuple[int, str], pywraplp.Constraint] = {}  # (round, station): its share of the choices
        self.enter: dict[tuple[int, str, int], pywraplp.Constraint] = {}  # the same, entering along a section
        self.choice_vars: dict[str, list] = {}
        for s in board.stations:
            choices = relax.choices[s.id]
            u = [lp.NumVar(0, 1, "") for _ in choices]
            self.choice_vars[s.id] = u
            one = lp.Constraint(1, 1)
            for q, (z, _) in enumerate(choices):
                one.SetCoefficient(u[q], 1)
                self.objective.SetCoefficient(u[q], table[min(sum(z), len(table) - 1)])
            if not relax.entering:
                for r in range(n):
                    row = self.link[r, s.id] = lp.Constraint(-inf, 0)
                    for q, (z, _) in enumerate(choices):
                        if z[r]:
                            row.SetCoefficient(u[q], 1)
                continue
            by: dict[tuple[int, int], list] = {}  # the departing round is always on: no link
            for q, (_, a) in enumerate(choices):
                for r, i in a:
                    by.setdefault((r, i), []).append(u[q])
            for (r, i), us in sorted(by.items(), key=lambda x: x[0]):
                row = self.enter[r, s.id, i] = lp.Constraint(-inf, 0)
                for x in us:
                    row.SetCoefficient(x, 1)
        cap = book.rules.tourist_marks_max
        self.tours: dict[tuple[int, int], pywraplp.Constraint] = {}  # (round, j): its tuples with j sites or more
        self.sites: pywraplp.Constraint | None = None
        if relax.tours:
            t = [lp.NumVar(0, 1, "") for _ in relax.tours]
            one = lp.Constraint(1, 1)
            for q, z in enumerate(relax.tours):
                one.SetCoefficient(t[q], 1)
                self.objective.SetCoefficient(t[q], book.scores.tourist(min(sum(z), cap)))
            for r in range(n):
                for j in range(1, max(z[r] for z in relax.tours) + 1):
                    row = self.tours[r, j] = lp.Constraint(-inf, 0)
                    for q, z in enumerate(relax.tours):
                        if z[r] >= j:
                            row.SetCoefficient(t[q], 1)
        else:
            v = [lp.NumVar(0, 1, "") for _ in range(cap + 1)]
            one = lp.Constraint(1, 1)
            self.sites = lp.Constraint(-inf, 0)
            for k in range(cap + 1):
                one.SetCoefficient(v[k], 1)
                self.objective.SetCoefficient(v[k], book.scores.tourist(k))
                self.sites.SetCoefficient(v[k], k)
        # the branching rows, each >= 1 with an artificial slack: y = 1 (round, station), x = 1 (round, section)
        self.visit_rows: dict[tuple[int, str], pywraplp.Constraint] = {}
        self.draw_rows: dict[tuple[int, int], pywraplp.Constraint] = {}
        self.slack: list[pywraplp.Variable] = []
        for r in range(n):
            for s_id in sorted(fixed.visit[r] if fixed else ()):
                self.visit_rows[r, s_id] = self._branching_row()
            for i in sorted(fixed.draw[r] if fixed else ()):
                self.draw_rows[r, i] = self._branching_row()
        self._goals(relax, dict(fixed.goals) if fixed else {})
        # one sheet: a row per section some column draws, and per crossing pair with one of them drawn
        self.sheet: dict[tuple[int, ...], pywraplp.Constraint] = {}

    def _goals(self, relax: Relaxation, values: dict[int, int]) -> None:
        """The Shared Objectives' variables and rows (:mod:`.goals`); ``values``: a[g] a node fixes."""
        lp, inf = self.lp, self.inf
        self.a: list[pywraplp.Variable] = []
        self.need: list[pywraplp.Constraint] = []  # per goal: its threshold row (>= 0)
        self.group_rows: list[list[tuple[frozenset[str], pywraplp.Constraint]]] = []  # per goal, per group (<= 0)
        self.thames: list[pywraplp.Constraint] = []  # the threshold rows of Thames goals
        for g, goal in enumerate(relax.goals):
            lo = hi = values[g] if g in values else None
            a = lp.NumVar(0 if lo is None else lo, 1 if hi is None else hi, "")
            self.a.append(a)
            self.objective.SetCoefficient(a, goal.points)
            need = self._branching_row()  # (an artificial slack keeps a fixed a[g] = 1 solvable)
            need.SetLb(0)
            need.SetCoefficient(a, -goal.threshold)
            self.need.append(need)
            rows = []
            for stations, weight in goal.groups:
                t = lp.NumVar(0, 1, "")
                need.SetCoefficient(t, weight)
                row = lp.Constraint(-inf, 0)
                row.SetCoefficient(t, 1)
                rows.append((stations, row))
            self.group_rows.append(rows)
            if goal.kind == "interchanges":
                for s_id, us in self.choice_vars.items():
                    for (z, _), u in zip(relax.choices[s_id], us):
                        if sum(z) >= 2:
                            need.SetCoefficient(u, 1)
            if goal.kind == "thames":
                self.thames.append(need)

    def add_clash(self, cut: Clash) -> None:
        """A cut between two rounds' lines (:mod:`.clash`) as a row, over the columns so far."""
        row = self.lp.Constraint(-self.inf, cut.rhs)
        for r in (cut.r, cut.q):
            for x, (drawn, block, stations) in zip(self.w[r], self.columns[r]):
                k = cut.coef(r, drawn, block, stations)
                if k:
                    row.SetCoefficient(x, k)
        if cut.kind == "station":
            row.SetCoefficient(self._both(cut), 1)
        self.clashes.append(cut)
        self.clash_rows.append(row)

    def _both(self, cut: Clash) -> pywraplp.Variable:
        """The weight of the station's choices with both of the cut's rounds on it, as a variable
        of its own (one row defines it): station cuts then hold it, not the choices themselves,
        which at a busy station are thousands (seed 0, 2,400 cuts: 2.4 million non-zeros, and
        GLOP solves of 10 s and more, against 0.5-2 s)."""
        key = (cut.station, min(cut.r, cut.q), max(cut.r, cut.q))
        if key not in self.both:
            y = self.both[key] = self.lp.NumVar(0, 1, "")
            row = self.lp.Constraint(0, 0)
            row.SetCoefficient(y, 1)
            for u, (z, _) in zip(self.choice_vars[cut.station], self.relax.choices[cut.station]):
                if cut.on(z):
                    row.SetCoefficient(u, -1)
        return self.both[key]

    def separate(self, cols: Sequence[Sequence[Column]], m: Master, rounds: Sequence[int], most: int) -> list[Clash]:
        """Add the cuts between the ``rounds``' lines that the solution ``m`` over ``cols`` breaks
        most (:func:`.clash.separate`, at most ``most``, none already holding); the cuts added.
        First lets go of the cuts ``m`` prices at 0 (their rows no longer bind, until broken again)."""
        priced = {c for c, _ in m.prices.clash}
        for cut, row in zip(self.clashes, self.clash_rows):  # (retired: a row priced 0 is let go)
            if cut not in priced and cut not in self.retired:
                row.SetBounds(-self.inf, self.inf)
                self.retired.add(cut)
        active = set(self.clashes) - self.retired
        cuts = separate(self.board, self.relax.choices, cols, m.weights, m.choices, rounds, active, most)
        for cut in cuts:
            if cut in self.retired:  # (broken again: its row holds once more)
                self.clash_rows[self.clashes.index(cut)].SetBounds(-self.inf, cut.rhs)
                self.retired.discard(cut)
            else:
                self.add_clash(cut)
        return cuts

    def _branching_row(self) -> pywraplp.Constraint:
        a = self.lp.NumVar(0, self.inf, "")
        self.slack.append(a)
        self.objective.SetCoefficient(a, -ARTIFICIAL)
        row = self.lp.Constraint(1, self.inf)
        row.SetCoefficient(a, 1)
        return row

    def _sheet_row(self, key: tuple[int, ...]) -> pywraplp.Constraint:
        if key not in self.sheet:
            self.sheet[key] = self.lp.Constraint(-self.inf, 1)
        return self.sheet[key]

    def add(self, r: int, c: Column) -> None:
        x = self.lp.NumVar(0, 1, "")
        self.w[r].append(x)
        drawn, block = bits_of(c.sections), block_of(self.board, c.sections)
        self.columns[r].append((drawn, block, c.stations))
        for cut, row in zip(self.clashes, self.clash_rows):
            k = cut.coef(r, drawn, block, c.stations)
            if k:
                row.SetCoefficient(x, k)
        self.objective.SetCoefficient(x, c.score)
        self.convex[r].SetCoefficient(x, 1)
        if self.relax.entering:
            for s_id, i in c.entering:
                row = self.enter.get((r, s_id, i))
                if row is not None:
                    row.SetCoefficient(x, -1)
        else:
            for s in c.stations:
                self.link[r, s].SetCoefficient(x, -1)
        if self.sites is not None:
            self.sites.SetCoefficient(x, -c.sites)
        for j in range(1, c.sites + 1):
            row = self.tours.get((r, j))
            if row is not None:
                row.SetCoefficient(x, -1)
        for s in c.stations:
            if (r, s) in self.visit_rows:
                self.visit_rows[r, s].SetCoefficient(x, 1)
        for rows in self.group_rows:
            for stations, row in rows:
                k = len(c.stations & stations)
                if k:
                    row.SetCoefficient(x, -k)
        if self.thames:
            k = sum(int(self.board.sections[i].thames) for i in c.sections)
            for row in self.thames:
                row.SetCoefficient(x, k)
        cross: dict[tuple[int, ...], int] = {}
        for i in c.sections:
            if (r, i) in self.draw_rows:
                self.draw_rows[r, i].SetCoefficient(x, 1)
            self._sheet_row((i,)).SetCoefficient(x, 1)
            for j in self.board.crossing[i]:
                pair: tuple[int, ...] = (min(i, j), max(i, j))
                cross[pair] = cross.get(pair, 0) + 1
        for pair, k in cross.items():
            self._sheet_row(pair).SetCoefficient(x, k)

    def solve(self, deadline: float | None = None) -> Master:
        """The master's solution; by a ``deadline`` (``time.perf_counter``), else :class:`OutOfTime`
        (with many cuts between rounds' lines one solve has taken minutes).

        A solve that stalls (GLOP's primal simplex once ran 12 minutes on seed 5's root with cuts,
        where the solves before took seconds) is stopped after :data:`STALL_TIMES` times the
        slowest of the last solves (at least :data:`STALL_FLOOR` s) and solved again by the dual
        simplex without presolve (:data:`FALLBACK`), the default parameters back for the next."""
        lp, n, relax = self.lp, self.n, self.relax
        start = time.perf_counter()
        left = math.inf if deadline is None else deadline - start
        if left <= 0:
            raise OutOfTime("no time left for the column master LP")
        cap = max(STALL_FLOOR, STALL_TIMES * max(self.times, default=0.0)) if self.times else math.inf
        status = self._solve(min(left, cap))
        if status != pywraplp.Solver.OPTIMAL and cap <= left:  # the cap, not the deadline, stopped it
            self.stalls += 1
            lp.SetSolverSpecificParametersAsString(FALLBACK)
            try:
                status = self._solve(left - (time.perf_counter() - start))
            finally:
                lp.SetSolverSpecificParametersAsString("")
        if status != pywraplp.Solver.OPTIMAL:  # always feasible and bounded: a solver failure or the clock
            if deadline is not None and time.perf_counter() >= deadline - 0.01:
                raise OutOfTime("the column master LP was cut by the time limit")
            raise RuntimeError("the column master LP did not solve")
        self.times = (self.times + [time.perf_counter() - start])[-STALL_WINDOW:]
        lam = tuple({s: max(0.0, c.dual_value()) for (q, s), c in self.link.items() if q == r} for r in range(n))
        eta = tuple({(s, i): max(0.0, c.dual_value()) for (q, s, i), c in self.enter.items() if q == r}
                    for r in range(n))
        # a >= row of a maximisation has a dual of at most 0: its price in the bound is minus that
        fixed = self.fixed
        visit = tuple({v: max(0.0, -c.dual_value()) for (q, v), c in self.visit_rows.items() if q == r}
                      for r in range(n)) if fixed else ()
        draw = tuple({i: max(0.0, -c.dual_value()) for (q, i), c in self.draw_rows.items() if q == r}
                     for r in range(n)) if fixed else ()
        rho = tuple(tuple(max(0.0, self.tours[r, j].dual_value())
                          for j in range(1, 1 + sum(1 for q, _ in self.tours if q == r)))
                    for r in range(n)) if relax.tours else ()
        goal = GoalPrices(tuple(tuple(max(0.0, row.dual_value()) for _, row in rows) for rows in self.group_rows),
                          tuple(max(0.0, -row.dual_value()) for row in self.need)) if relax.goals else None
        prices = Prices(lam, 0.0 if self.sites is None else max(0.0, self.sites.dual_value()),
                        {k: max(0.0, c.dual_value()) for k, c in sorted(self.sheet.items())},
                        eta if relax.entering else (), visit, draw, rho, goal,
                        tuple((c, p) for c, row in zip(self.clashes, self.clash_rows) if (p := row.dual_value()) > EPS))
        weights = tuple(tuple(x.solution_value() for x in ws) for ws in self.w)
        return Master(self.objective.Value(), prices, weights,
                      {s: tuple(x.solution_value() for x in us) for s, us in self.choice_vars.items()},
                      sum(a.solution_value() for a in self.slack), tuple(a.solution_value() for a in self.a))

    def _solve(self, seconds: float) -> int:
        """One GLOP solve in at most ``seconds`` (none left: not solved)."""
        if seconds <= 0:
            return pywraplp.Solver.NOT_SOLVED
        self.lp.SetTimeLimit(max(1, int(1000 * min(seconds, 1e6))))  # (at most 11 days: no limit)
        return self.lp.Solve()


def mix(a: Prices, b: Prices, alpha: float) -> Prices:
    """alpha a + (1 - alpha) b: prices not negative stay so."""
    def mix(x: dict, y: dict) -> dict:
        return {k: alpha * x.get(k, 0.0) + (1 - alpha) * y.get(k, 0.0) for k in sorted(x.keys() | y.keys())}

    def each_rho(x: tuple[tuple[float, ...], ...], y: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, ...], ...]:
        if not x and not y:
            return ()
        out = []
        for r in range(len(a.lam)):
            p, q = x[r] if x else (), y[r] if y else ()
            out.append(tuple(alpha * (p[j] if j < len(p) else 0.0) + (1 - alpha) * (q[j] if j < len(q) else 0.0)
                             for j in range(max(len(p), len(q)))))
        return tuple(out)

    def each(x: tuple[dict, ...], y: tuple[dict, ...]) -> tuple[dict, ...]:
        if not x and not y:
            return ()
        return tuple(mix(x[r] if x else {}, y[r] if y else {}) for r in range(len(a.lam)))
    return Prices(tuple(mix(x, y) for x, y in zip(a.lam, b.lam)), alpha * a.mu + (1 - alpha) * b.mu,
                  mix(a.sigma, b.sigma), tuple(mix(a.entering(r), b.entering(r)) for r in range(len(a.lam)))
                  if a.eta or b.eta else (), each(a.visit, b.visit), each(a.draw, b.draw),
                  each_rho(a.rho, b.rho),
                  _mix_goals(a.goal, b.goal, alpha), _mix_clash(a.clash, b.clash, alpha))


def _mix_clash(a: tuple[tuple[Clash, float], ...], b: tuple[tuple[Clash, float], ...], alpha: float
               ) -> tuple[tuple[Clash, float], ...]:
    x, y = dict(a), dict(b)
    order = list(x) + [c for c in y if c not in x]
    return tuple((c, alpha * x.get(c, 0.0) + (1 - alpha) * y.get(c, 0.0)) for c in order)


def _mix_goals(a: GoalPrices | None, b: GoalPrices | None, alpha: float) -> GoalPrices | None:
    if a is None:
        return None if b is None else b.scaled(1 - alpha)
    return a.scaled(alpha) if b is None else a.mixed(b, alpha)


def column_bound(board: Board, book: RuleBook, rounds: tuple[Round, ...], start=(), iterations: int = 25,
                 budget: Budget | None = None, cuts: str = "none") -> ColumnBound:
    """The least Lagrangian bound over ``iterations`` rounds of column generation, from the lines
    of the games in ``start`` (each a tuple of per-round draws) and each round's best line. With a
    ``budget``, iterations stop at its wall-clock deadline (every Lagrangian bound is a bound: the
    least so far stands; a pricing search stops there too, its iteration then gives no bound;
    :attr:`.engines.Budget.wall_cut` notes the cut) and report progress. ``cuts``: how interchanges
    are scored (:func:`.cuts.relaxation`: "entries", the tightest, by default; "none" is the bound
    before the cuts, for measuring them)."""
    t0 = time.perf_counter()
    relax = relaxation(board, rounds, cuts)
    deadline = None if budget is None else budget.wall_deadline()
    cols: list[list[Column]] = [[] for _ in rounds]
    for draws in start:
        stations, sections = lines_of(board, rounds, draws)
        for r in range(len(rounds)):
            cols[r].append(column_of(board, book, stations[r], sections[r], draws[r]))
    for r, (ts, dep) in enumerate(rounds):
        cols[r].append(column_of(board, book, (dep,), ()))  # passing throughout: the LP is never infeasible
        cols[r].append(_column(board, book, (ts, dep), best_round(board, book, ts, dep, time_limit=_left(deadline))))
    best, value, converged, it, centre = math.inf, 0.0, False, 0, None
    cut = False
    # With the entering cuts, the master first links rounds to stations alone ("patterns": far
    # fewer prices, so it settles sooner), then, once that settles or after SWITCH of the
    # iterations, by entering sections. The bound is always the cut relaxation's: at station
    # prices alone it equals the patterns bound, so the switch only ever lowers it.
    coarse = relaxation(board, rounds, "patterns") if relax.entering else relax
    master = coarse
    for it in range(1, iterations + 1):  # noqa: B007 - the iterations run, returned after the loop
        if budget is not None:
            if budget.wall_left() <= 0:
                it -= 1
                budget.wall_cut = True
                break
            budget.update(phase=f"column bound {it}/{iterations}", bound=math.floor(best + EPS) if best < math.inf
                          else None)
        if master is not relax and it > SWITCH * iterations:
            master = relax
        value, duals = _master(board, book, cols, master)
        # priced first towards the best prices so far (Wentges smoothing: steadier bounds); if that
        # finds no new line, at the LP's own prices, where no new line means the LP is done
        tries = [duals] if centre is None else [mix(centre, duals, SMOOTH), duals]
        added = 0
        for prices in tries:
            bound, lines = lagrangian_bound(board, book, rounds, prices, cols, deadline, relax)
            if bound is None and deadline is not None and time.perf_counter() >= deadline:
                cut = True  # the deadline stopped a pricing search: the least bound so far stands
                break
            if bound is not None and bound < best:
                best, centre = bound, prices
            for r, col in enumerate(lines):
                if col not in cols[r]:  # (a known line comes back when none beats it)
                    cols[r].append(col)
                    added += 1
            if added:
                break
        if cut:
            assert budget is not None
            budget.wall_cut = True
            break
        if not added or best <= value + EPS:  # the bound meets the LP: the Dantzig-Wolfe bound
            if master is not relax:  # the coarse master settled: on to the cut one
                master = relax
                continue
            converged = True
            break
    whole = math.floor(best + EPS) if best < math.inf else None
    return ColumnBound(whole, value, it, sum(map(len, cols)), converged, time.perf_counter() - t0)
