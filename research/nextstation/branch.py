"""Branch and price for the whole solo game (issue 25, stage 2): a proof, where one fits.

The column bound (:mod:`.columns`) relaxes the game to mixes of whole lines per round; its LP
mixes lines into interchanges no game has. Here that relaxation is the bound of each node of a
search tree whose nodes fix what the LP mixes. `solve nextstation --game` runs it for the time
CP-SAT leaves; ``python -m research.nextstation.challenges --bounds-only --branch`` from stored games.

* **Pricing** is the exact round search, or, for a round whose every line is listed
  (``tables=``, :func:`.pairs.some_tables`), a scan of them (:class:`.pairs.LineScan`: the same
  values; seed 0: 7 times as many nodes in the same time with the entering relaxation, 40 times with stations alone). A node keeps its master
  between its iterations (:class:`.columns.MasterLP`: each new line adds its column).

* **Nodes** are sets of robust branching decisions (:class:`.columns.Fixed`): round r's line
  visits station s or not (y[r, s] = 1 / 0), and, as a fallback, draws section i or not
  (x[r, i] = 1 / 0). A "1" is a row of the node's master LP whose dual prices the station (the
  section's two entries) in pricing; a "0" is a price no line makes up for in pricing and a filter
  on the pool; another round's x = 1 draws the section for the others (pricing's ``drawn``). The
  interchange choices a node's games cannot show are dropped from its relaxation. Pricing is the
  same exact round search (:func:`.pricing.entering_response`), so the Lagrangian bound at **any**
  non-negative prices is a bound for the node: a node is pruned as soon as one iteration's bound
  falls to the best game found, with no need to converge.
* **What to branch on**: what the LP mixes. The station whose scored interchange most exceeds
  what its rounds' whole visits support; of the rounds in its heaviest pattern (two lines or
  more), the one visiting it nearest half the time (ties by the station's interchange value).
  Fallback: the section with the largest sum over rounds of min(x, 1 - x). A master whose lines
  are whole (one line a round) is a game: it is scored in full and kept if better.
* A node is branched once its LP settles (no line prices out) or after ``node_iterations``
  pricing iterations (``root_iterations`` at the root); **best bound first** (a heap; ties: the
  deeper node), each child from its parent's bound and its parent's best prices as the
  smoothing centre. The bound reported is the largest bound of an open node (the tree's upper
  bound on the best game: the optimum lies in some open node), rounded down, never below the
  best game; OPTIMAL when it meets that game.
* **One column pool** for the whole tree, filtered by each node's decisions
  (:meth:`.columns.Fixed.admits`); the start games' lines, each round's pass and best line on an
  empty sheet, and every line priced are in it, so the best game's lines always are.
* **Primal heuristics** (:mod:`.listed`): the best game made of the pool's lines (one line
  a round, pairwise compatible: no shared section, none crossing; scored in full: line scores,
  tourist track, interchanges) by CP-SAT (:func:`.listed.integer_master`), after the root and
  every ``heuristic_every`` nodes; with listed lines, after the root, restricted whole-game
  models over each round's lines dearest at the root's prices (:func:`.listed.improve`). The
  game kept is always scored by the rules' :func:`~tubedeck.games.nextstation.scoring.final_score`.

Without ``start`` games, the best responses (:func:`~tubedeck.games.nextstation.responses.search_responses`,
no kicks) give the first game, within a quarter of the time limit.

**Cuts between two rounds' lines** (``clash=``; :mod:`.clash`): each time the root settles
(or reaches its iterations) it adds the rows its master breaks most, at shared sections and
interchange stations, between rounds priced by scans, ``clash`` times (none by default here;
the callers with listed lines ask for :data:`.clash.CLASH_ROUNDS`); every node keeps those the
root's last master prices. The better-games search runs before the first of them.

**Shared Objectives** (``objectives=``; :mod:`.goals`): every game is scored with them, and the
relaxation has a variable a[g] per objective worth its points, held up by rows every game
meeting it satisfies (stations reached per group, interchange stations, Thames crossings). A
master meeting an objective in part is branched on it first: a[g] = 1 (the node's games meet
it) or a[g] = 0 (scored without its points).
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tubedeck.games.nextstation.best import best_round, line_of
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.responses import Draws, Round, lines_of, search_responses
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.games.nextstation.scoring import FinalScore, final_score
from tubedeck.progress import Progress, ticking

from .clash import CLASH_MOST, Clash
from .columns import (
    EPS,
    GUARD,
    SMOOTH,
    Column,
    Fixed,
    Master,
    MasterLP,
    OutOfTime,
    Prices,
    column_of,
    lagrangian_bound,
    mix,
    rest_of,
)
from .cuts import Relaxation, relaxation
from .goals import goals_of
from .listed import improve, integer_master
from .pairs import LineScan, RoundLines

WHOLE = 1e-6  # a weight this near 0 or 1 counts as whole
START_SHARE = 0.25  # of the time limit, for the best responses when no start game is given
LISTED_SHARE = 1 / 3  # of the time left after the root, for better games from the listed lines
ROOT_WAIT = 1 / 3  # of the time limit: a root still open then gives way to the listed lines' search
Decision = tuple[str, int, object, int]  # ("y", round, station, 0 | 1) or ("x", round, section, 0 | 1)


@dataclass(frozen=True)
class Snapshot:
    """Where the search stands, for a progress callback."""

    best: int
    bound: int
    gap: float  # (bound - best) / best
    nodes: int
    open: int
    elapsed: float
    phase: str = "branch and price"  # or "better games" (:func:`.listed.improve`, after the root)


@dataclass(frozen=True)
class BranchResult:
    status: str  # OPTIMAL (bound == score) or FEASIBLE
    score: int  # the best game found, scored by final_score
    bound: int  # no game scores more (never below score)
    draws: tuple[Draws, ...]  # the best game: per round, (turn, from, to) per section, replayable
    final: FinalScore
    nodes: int  # nodes processed (pruned ones included)
    open: int  # nodes left open
    root_bound: int | None  # the root node's bound when it was branched, pruned or cut
    iterations: int  # pricing iterations over the whole tree
    columns: int  # lines in the pool
    wall: float
    cut: bool  # the time limit stopped the search

    @property
    def gap(self) -> float:
        return (self.bound - self.score) / self.score if self.score else math.inf


@dataclass
class _Node:
    bound: float
    decisions: tuple[Decision, ...] = ()
    centre: Prices | None = field(default=None, repr=False)


class _Pool:
    """Every line found, per round, each once (the incumbent's among them)."""

    def __init__(self, n: int):
        self.cols: list[list[Column]] = [[] for _ in range(n)]
        self.seen: list[set[Column]] = [set() for _ in range(n)]

    def add(self, r: int, c: Column) -> bool:
        if c in self.seen[r]:
            return False
        self.seen[r].add(c)
        self.cols[r].append(c)
        return True

    def __len__(self) -> int:
        return sum(map(len, self.cols))


class _NodeMaster:
    """A node's restricted master, kept between its pricing iterations (:class:`.columns.MasterLP`):
    the pool's lines the node admits, each added once, as the pool grows."""

    def __init__(self, board: Board, book: RuleBook, pool: _Pool, fixed: Fixed, lpr: Relaxation,
                 cuts: Sequence[Clash] = ()):
        self.pool, self.fixed = pool, fixed
        n = len(pool.cols)
        self.lp = MasterLP(board, book, n, lpr, fixed)
        for cut in cuts:  # (valid for every game: every node keeps them)
            self.lp.add_clash(cut)
        self.seen = [0] * n
        self.cols: list[list[Column]] = [[] for _ in range(n)]

    def solve(self, deadline: float | None = None) -> tuple[Master, list[list[Column]]]:
        for r, cs in enumerate(self.pool.cols):
            for c in cs[self.seen[r]:]:
                if self.fixed.admits(r, c):
                    self.cols[r].append(c)
                    self.lp.add(r, c)
            self.seen[r] = len(cs)
        return self.lp.solve(deadline), [list(cs) for cs in self.cols]


def _whole(m: Master) -> list[int] | None:
    """The column each round takes whole, if every round takes one."""
    out = []
    for ws in m.weights:
        k = max(range(len(ws)), key=ws.__getitem__)
        if ws[k] < 1 - WHOLE:
            return None
        out.append(k)
    return out


def choose(board: Board, book: RuleBook, cols: Sequence[Sequence[Column]], m: Master,
           relax: Relaxation) -> tuple[str, int, object] | None:
    """What to branch on in this master solution (see the module): ("g", 0, goal) for a Shared
    Objective met in part (first: two children settle it), ("y", round, station) or ("x", round,
    section); None if every round's line and every objective is whole. ``relax``: the master's."""
    for g, a in enumerate(m.goals):
        if WHOLE < a < 1 - WHOLE:
            return ("g", 0, g)
    n = len(cols)
    table = book.scores.interchange
    y: list[dict[str, float]] = [{} for _ in range(n)]
    x: list[dict[int, float]] = [{} for _ in range(n)]
    for r in range(n):
        for k, c in enumerate(cols[r]):
            wk = m.weights[r][k]
            if wk > WHOLE:
                for s in c.stations:
                    y[r][s] = y[r].get(s, 0.0) + wk
                for i in c.sections:
                    x[r][i] = x[r].get(i, 0.0) + wk

    def frac(v: float) -> bool:
        return WHOLE < v < 1 - WHOLE

    best: tuple[tuple[float, float], tuple[str, int, object]] | None = None
    for st in board.stations:
        s = st.id
        fr = [r for r in range(n) if frac(y[r].get(s, 0.0))]
        if not fr:
            continue
        choices, us = relax.choices[s], m.choices[s]
        scored = sum(u * table[min(sum(z), len(table) - 1)] for u, (z, _) in zip(us, choices))
        whole = sum(1 for r in range(n) if y[r].get(s, 0.0) >= 1 - WHOLE)
        excess = scored - table[min(whole, len(table) - 1)]
        if excess <= WHOLE:
            continue
        heavy = max((q for q, (z, _) in enumerate(choices) if sum(z) >= 2), key=lambda q: us[q], default=None)
        rs = [r for r in fr if heavy is not None and choices[heavy][0][r]] or fr
        r = min(rs, key=lambda r: (abs(y[r][s] - 0.5), r))
        key = (excess, scored)
        if best is None or key > best[0]:
            best = (key, ("y", r, s))
    if best is not None:
        return best[1]
    spread: dict[int, float] = {}
    for r in range(n):
        for i, v in x[r].items():
            if frac(v):
                spread[i] = spread.get(i, 0.0) + min(v, 1 - v)
    if not spread:
        return None
    i = max(sorted(spread), key=lambda i: spread[i])
    r = min((r for r in range(n) if frac(x[r].get(i, 0.0))), key=lambda r: (abs(x[r][i] - 0.5), r))
    return ("x", r, i)


class RoundSearch:
    def __init__(self, board: Board, book: RuleBook, rounds: tuple[Round, ...], deadline: float, cuts: str,
                 node_iterations: int, root_iterations: int, heuristic_every: int, heuristic_limit: float,
                 report: Callable[[Snapshot], None] | None, more: bool = True,
                 tables: Sequence[RoundLines | None] = (), listed_share: float = 0.0,
                 objectives: tuple[Objective, ...] = (), clash: int = 0):
        self.board, self.book, self.rounds, self.deadline = board, book, rounds, deadline
        self.objectives = objectives
        self.scans = [None if tab is None else LineScan(board, book, rounds[r], tab) for r, tab in enumerate(tables)]
        self.n = len(rounds)
        self.relax = relaxation(board, rounds, cuts, tourist=True, goals=goals_of(board, book, objectives))
        self.node_iterations, self.root_iterations = node_iterations, root_iterations
        self.heuristic_every, self.heuristic_limit = heuristic_every, heuristic_limit
        self.listed_share = listed_share
        self.improved = False
        self.phase = "branch and price"
        self.report = report
        self.more = more  # add the other lines each pricing search met, beside its best
        self.clash = clash  # rounds of cuts between rounds' lines the root may still separate
        self.cuts: list[Clash] = []  # the cuts every node's master keeps
        self.t0 = time.perf_counter()
        self.pool = _Pool(self.n)
        self.best = -1
        self.best_cols: tuple[Column, ...] = ()
        self.best_final: FinalScore | None = None
        self.heap: list[tuple[float, int, int, _Node]] = []
        self.seq = 0
        self.nodes = self.iterations = 0
        self.root_bound: int | None = None
        self.current: _Node | None = None
        self.cut = False
        self.started = False

    # -- the incumbent --------------------------------------------------------------------------
    def consider(self, cols: Sequence[Column]) -> None:
        """A game (one pool line a round, pairwise compatible): kept if it beats the best."""
        draws = tuple(c.draws for c in cols)
        final = final_score(self.board, self.book, *lines_of(self.board, self.rounds, draws), self.objectives)
        if final.total > self.best:
            self.best, self.best_cols, self.best_final = final.total, tuple(cols), final
            self.show()

    def heuristic(self) -> None:
        left = self.deadline - time.perf_counter()
        if left <= 0:
            return
        got = integer_master(self.board, self.book, self.pool.cols, min(self.heuristic_limit, left),
                             self.best_cols or None)
        if got is not None:
            self.consider(got[1])

    def improve(self, prices: Prices | None) -> None:
        """Once, after the root (or before its first cuts, or once the root has taken ``ROOT_WAIT``
        of the time): better
        games from the listed lines (:func:`.listed.improve`) at the root's best prices, for
        ``listed_share`` of the time left; a round not listed chooses among the pool's lines."""
        left = self.deadline - time.perf_counter()
        if (self.improved or prices is None or not self.listed_share or left <= 0
                or not any(s is not None for s in self.scans)):
            return
        self.improved = True
        self.phase = "better games"
        self.show()
        improve(self.board, self.book, self.rounds, self.scans, prices, self.best_cols,
                time.perf_counter() + self.listed_share * left, found=lambda _, cols: self.consider(cols),
                pool=self.pool.cols)
        self.phase = "branch and price"

    # -- the tree -------------------------------------------------------------------------------
    def push(self, node: _Node) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (-node.bound, -len(node.decisions), self.seq, node))

    def bound(self) -> int:
        """The tree's bound: the largest open node bound, rounded down, never below the best game."""
        tops = [-self.heap[0][0]] if self.heap else []
        if self.current is not None:
            tops.append(self.current.bound)
        if not tops:
            return self.best
        return max(self.best, math.floor(max(tops) + EPS))

    def show(self) -> None:
        if self.report is None or not self.started:  # (no bound before the root is open)
            return
        b = self.bound() if self.best >= 0 else 0
        self.report(Snapshot(self.best, b, (b - self.best) / self.best if self.best > 0 else math.inf, self.nodes,
                             len(self.heap), time.perf_counter() - self.t0, self.phase))

    def out_of_time(self) -> bool:
        if time.perf_counter() >= self.deadline:
            self.cut = True
        return self.cut

    def pruned(self, bound: float) -> bool:
        return math.floor(bound + EPS) <= self.best

    def run(self, root: _Node, max_nodes: int | None = None) -> None:
        self.push(root)
        self.started = True
        self.show()
        while self.heap and not self.out_of_time() and (max_nodes is None or self.nodes < max_nodes):
            _, _, _, node = heapq.heappop(self.heap)
            if self.pruned(node.bound):  # best first: every node left is pruned too
                self.heap.clear()
                break
            self.current = node
            self.nodes += 1
            children = self.process(node)
            self.current = None
            if node.decisions == ():
                self.root_bound = max(self.best, math.floor(node.bound + EPS))
            if children is None:  # cut by the time limit: the node stays open
                self.push(node)
                break
            for child in children:  # (before the heuristic: a progress line's bound counts them)
                self.push(child)
            if node.decisions == () or (self.heuristic_every and self.nodes % self.heuristic_every == 0):
                self.heuristic()
            if node.decisions == ():
                self.improve(node.centre)
            self.show()

    def process(self, node: _Node) -> list[_Node] | None:
        """Price the node until pruned, settled or at its iteration count: its children (none if
        pruned), or None if the time limit cut it (``node`` then holds its bound so far)."""
        fixed = Fixed.of(self.board, self.n, node.decisions)
        lag = fixed.restrict(self.board, self.relax)
        if lag is None:  # some station has no interchange choice a game of the node shows
            return []
        lpr = fixed.restrict(self.board, self.relax, master=True)
        assert lpr is not None  # the master keeps each station's pattern of no line (or the departing round alone)
        cap = self.root_iterations if not node.decisions else self.node_iterations
        it = 0
        if self.out_of_time():  # (a node's first master is its dearest step: not begun past the deadline)
            return None
        lp = _NodeMaster(self.board, self.book, self.pool, fixed, lpr, self.cuts)
        while True:
            if self.out_of_time():
                return None
            try:
                m, cols = self.master(lp)
            except OutOfTime:
                self.cut = True
                return None
            if self.pruned(node.bound):
                return []
            choice = choose(self.board, self.book, cols, m, lpr)
            if it >= cap and choice is not None:
                if not node.decisions and self.separate(lp, m, cols, node.centre):
                    it = 0
                    continue
                return self.children(node, choice, m)
            it += 1
            added = self.price(node, m, cols, fixed, lag)
            if not node.decisions and time.perf_counter() - self.t0 >= ROOT_WAIT * (self.deadline - self.t0):
                self.improve(node.centre)  # (a slow root: better games now, not never)
            if added is None:
                return None
            if self.pruned(node.bound):
                return []
            self.show()
            if not added:  # no line prices out: the master's value is the node's Dantzig-Wolfe bound
                node.bound = min(node.bound, m.value)
                if self.pruned(node.bound):
                    return []
                if not node.decisions and self.separate(lp, m, cols, node.centre):
                    it = 0
                    continue
                if choice is None:  # a whole master is a game, scored in master(): it cannot beat the best
                    raise RuntimeError(f"a settled whole master ({m.value}) above the best game ({self.best})")
                return self.children(node, choice, m)

    def separate(self, lp: _NodeMaster, m: Master, cols: list[list[Column]], centre: Prices | None) -> bool:
        """At the root, while rounds are left: the cuts between listed rounds' lines its master
        breaks most (:func:`.clash.separate`), added to it and kept for every node. Whether any was.
        The better-games search runs first, at the root's prices without cuts (``centre``): its games
        are what the bound is measured against, and a root adding cuts may take most of the time."""
        scanned = [r for r, scan in enumerate(self.scans) if scan is not None]
        if self.clash <= 0 or len(scanned) < 2:
            return False
        self.improve(centre)
        self.clash -= 1
        cuts = lp.lp.separate(cols, m, scanned, CLASH_MOST)
        self.cuts.extend(cuts)
        return bool(cuts)

    def master(self, lp: _NodeMaster) -> tuple[Master, list[list[Column]]]:
        """The node's restricted master over the pool's lines it admits; a whole solution (one
        line a round, no branching row unmet) is a game: it is scored."""
        m, cols = lp.solve(self.deadline if math.isfinite(self.deadline) else None)
        whole = _whole(m)
        if whole is not None and m.unmet < WHOLE:
            self.consider([cols[r][k] for r, k in enumerate(whole)])
        return m, cols

    def price(self, node: _Node, m: Master, cols: list[list[Column]], fixed: Fixed, lag: Relaxation) -> int | None:
        """One pricing iteration at the node: at its best prices so far mixed with the master's
        (smoothing), then, if no new line comes, at the master's own. Lowers ``node.bound`` to
        each Lagrangian bound; returns the new lines the node admits (0: the master is settled),
        None if the time limit cut a pricing search."""
        self.iterations += 1
        tries = [m.prices] if node.centre is None else [mix(node.centre, m.prices, SMOOTH), m.prices]
        added = 0
        for prices in tries:
            more: list[list[Column]] | None = [[] for _ in self.rounds] if self.more else None
            value, lines = lagrangian_bound(self.board, self.book, self.rounds, prices, cols, self.deadline, lag,
                                            fixed, more, self.scans)
            for r, extra in enumerate(more or ()):
                for col in extra:
                    if self.pool.add(r, col) and fixed.admits(r, col):
                        added += 1
            if value is None:
                if self.out_of_time():
                    return None
                continue  # (a search past its guard: no bound from these prices)
            if value < node.bound:
                node.bound, node.centre = value, prices
            for r, col in enumerate(lines):
                if self.pool.add(r, col) and fixed.admits(r, col):
                    added += 1
            if added:
                break
        return added

    def seed(self, start: Sequence[Sequence[Draws]], responses_deadline: float) -> float:
        """The first lines: the ``start`` games' (else the best responses' game, by the
        deadline), each round's pass and best line on an empty sheet. Returns the Lagrangian
        bound at no prices: each round's best line alone, every station's best interchange
        choice, the tourist track's top."""
        board, book, rounds = self.board, self.book, self.rounds
        games = [tuple(g) for g in start]
        if not games:
            games.append(search_responses(board, book, rounds, 0, responses_deadline).draws)
        for draws in games:
            stations, sections = lines_of(board, rounds, draws)
            cols = [column_of(board, book, stations[r], sections[r], draws[r]) for r in range(self.n)]
            for r, c in enumerate(cols):
                self.pool.add(r, c)
            self.consider(cols)
        pars = []
        for r, (ts, dep) in enumerate(rounds):
            self.pool.add(r, column_of(board, book, (dep,), ()))  # passing throughout
            scan = self.scans[r] if self.scans else None
            if scan is not None:  # the best line on an empty sheet, read off the list
                k = int(np.argmax(scan.tab.score))
                self.pool.add(r, scan.column(k))
                pars.append(int(scan.tab.score[k]))
                continue
            got = best_round(board, book, ts, dep, time_limit=max(min(self.deadline - time.perf_counter(), GUARD),
                                                                  0.001))
            self.pool.add(r, column_of(board, book, *line_of(board, dep, got.draws), got.draws))
            assert got.bound is not None
            pars.append(got.bound)
        zero = Prices(tuple({} for _ in rounds), 0.0, {})
        return sum(pars) + rest_of(book, self.relax, zero, self.n)

    def children(self, node: _Node, choice: tuple[str, int, object], m: Master) -> list[_Node]:
        if not node.decisions and self.cuts:  # nodes keep the root's cuts its last master prices
            self.cuts = [c for c, _ in m.prices.clash]  # (fewer rows, each new line priced against them)
        kind, r, key = choice
        return [_Node(node.bound, node.decisions + ((kind, r, key, v),), node.centre) for v in (1, 0)]


def _reporter(progress: Progress | Callable[[Snapshot], None] | None) -> Callable[[Snapshot], None] | None:
    if progress is None or not isinstance(progress, Progress):
        return progress

    def report(s: Snapshot) -> None:
        progress.update(phase=s.phase, best=s.best, bound=s.bound, gap=f"{100 * s.gap:.1f}%", nodes=s.nodes,
                        open=s.open)
    return report


def branch_and_price(board: Board, book: RuleBook, rounds: tuple[Round, ...], start: Sequence[Sequence[Draws]] = (),
                     time_limit: float = 60.0, node_iterations: int = 10,
                     progress: Progress | Callable[[Snapshot], None] | None = None, *,
                     root_iterations: int = 50, cuts: str = "entries", heuristic_every: int = 5,
                     heuristic_limit: float = 2.0, max_nodes: int | None = None, more: bool = True,
                     tables: Sequence[RoundLines | None] = (), listed_share: float = LISTED_SHARE,
                     objectives: tuple[Objective, ...] = (), clash: int = 0) -> BranchResult:
    """The best whole game for these rounds by branch and price (see the module), within
    ``time_limit`` wall-clock seconds: OPTIMAL with the game when the tree is closed, else
    FEASIBLE with the best game found and the tree's bound. ``start``: games (per round draws,
    each legal) to start from; ``node_iterations`` / ``root_iterations``: pricing iterations before a
    node is branched (sooner if its LP settles); ``cuts``: the interchange relaxation
    (:func:`.cuts.relaxation`); ``progress``: a :class:`~tubedeck.progress.Progress` or a callable
    taking a :class:`Snapshot` (best, bound, gap, nodes, open nodes, elapsed); ``max_nodes``: stop
    after that many nodes (FEASIBLE unless the tree is closed: for tests); ``more``: each pricing
    search adds the other lines it met beside its best (:data:`.columns.MORE`); ``tables``: per round,
    every line listed (:func:`.pairs.some_tables`; None: that round is searched), so that pricing
    is a scan of them (:class:`.pairs.LineScan`: the same values, no search); ``listed_share``:
    with a round listed, that share of the time left after the root goes to better
    games from the listed lines (:func:`.listed.improve`, at the root's best prices);
    ``objectives``: the Shared Objectives in play, scored in every game and in the relaxation
    (:mod:`.goals`); ``clash``: rounds of cuts between two listed rounds' lines (:mod:`.clash`)
    the root separates each time it settles (or reaches its iterations), before it branches;
    every node keeps them."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    s = RoundSearch(board, book, rounds, deadline, cuts, node_iterations, root_iterations, heuristic_every,
                heuristic_limit, _reporter(progress), more, tables, listed_share, objectives, clash)
    with ticking(progress if isinstance(progress, Progress) else None):
        s.run(_Node(s.seed(start, t0 + START_SHARE * time_limit)), max_nodes)
    assert s.best_final is not None
    bound = s.bound()
    return BranchResult("OPTIMAL" if bound <= s.best else "FEASIBLE", s.best, bound,
                        tuple(c.draws for c in s.best_cols), s.best_final, s.nodes, len(s.heap), s.root_bound,
                        s.iterations, len(s.pool), time.perf_counter() - t0, s.cut)


@dataclass(frozen=True)
class NodeBound:
    """One node's relaxation after column generation (:func:`node_bound`)."""

    bound: float  # the least Lagrangian bound (-inf: no game keeps the decisions)
    master: Master | None  # the last restricted master
    cols: tuple[tuple[Column, ...], ...]  # its columns per round (the pool's lines the node admits)
    settled: bool  # no line priced out: ``master.value`` is the node's Dantzig-Wolfe bound


def node_bound(board: Board, book: RuleBook, rounds: tuple[Round, ...], decisions: Sequence[Decision],
               iterations: int = 30, start: Sequence[Sequence[Draws]] = (), cuts: str = "patterns",
               tables: Sequence[RoundLines | None] = ()) -> NodeBound:
    """Column generation at one node of the tree (its ``decisions``), from the lines
    :func:`branch_and_price` starts with, for at most ``iterations`` pricing iterations, never
    pruned: what the tree computes at a node, for checking."""
    s = RoundSearch(board, book, rounds, math.inf, cuts, iterations, iterations, 0, 0.0, None, tables=tables)
    node = _Node(s.seed(start, math.inf), tuple(decisions))
    fixed = Fixed.of(board, len(rounds), node.decisions)
    lag = fixed.restrict(board, s.relax)
    if lag is None:
        return NodeBound(-math.inf, None, (), True)
    lpr = fixed.restrict(board, s.relax, master=True)
    assert lpr is not None
    lp = _NodeMaster(board, book, s.pool, fixed, lpr)
    for _ in range(iterations):
        m, cols = s.master(lp)
        if not s.price(node, m, cols, fixed, lag):
            return NodeBound(min(node.bound, m.value), m, tuple(map(tuple, cols)), True)
    m, cols = s.master(lp)
    return NodeBound(node.bound, m, tuple(map(tuple, cols)), False)
