"""A bound on the best whole solo game with **pairs of rounds kept consistent** (issue 25).

Why: the column bound (:mod:`.columns`) mixes each round's lines independently, and at every
station couples the rounds' shares as favourably as it can: half of one round's lines and half
of another's through a station make half an interchange even when no line of the one can be
drawn beside a line of the other that passes there (they share a section or cross elsewhere).
That mixing, not the line scores, is most of its gap (seed 0: the LP takes 71 interchange points,
the games 29). Measured on the column bound's own settled root columns (classic seeds 0 and 2),
asking the LP to make every two rounds' shares come from a mix of **compatible pairs of lines**
took its value from 227.7 to 190.5 (best game 189) and from 204.7 to 168.9 (163).

**The relaxation.** Beside each round's mix of lines (weights ``w``), each pair of rounds (r, q)
takes a mix ``v`` of pairs of lines, one of r and one of q, drawable on one sheet (no section
shared, none crossing). The pair mix must agree with the two rounds' own mixes in each round's
line score and in how often each station is on its line (feature rows), and a station's
interchange pattern can put r and q on it together only as often as the pair mix has both lines
there. Every game is such a solution (each mix its own lines, the pair mixes their pairs), so
the LP is a relaxation; the column bound's is this one without the pair rows.

**The bound** (:func:`pair_bound`) is the Lagrangian one at the LP's prices, over **every legal
line of each round** (:func:`~tubedeck.games.nextstation.best.line_table`: 0.01-3.5 million a
round on classic seeds 0-2, 25-110 s for a seed's four; one round of seed 3 passes 5 million) and
every compatible pair of them, so it holds at any prices, converged or not::

    sum over rounds r of  max over r's lines l of R_r(l)
  + sum over pairs (r, q) of  max over compatible (l, l') of P_rq(l, l')
  + sum over stations of the best pattern's net points + the best tourist tuple's + sum of sigma

R_r is the line's score less its section penalties plus its station, tourist and feature
prices (a vector sum over the table); P_rq is the pair's shared-station prices less the feature
prices, maximised exactly by a best-first scan: lines of r in order of an upper bound on what
any partner can add, each scored against every line of q at once (numpy), until no bound beats
the best pair (cut short by the clock, the unscanned lines' largest bound stands in: still a
bound). Prices for rows the LP does not have yet are 0. Shared Objectives are not priced.

Measured (research/nextstation/NOTEBOOK.md): on reduced games it proves the exhaustive optimum, twice where
the plain relaxation over every line cannot; on a real seed it does not converge yet (its pair
scans take 50-110 s an iteration and its prices swing). :func:`table_bound` is the plain
relaxation (branch and price's root) priced by the same tables: settled in 1-3 minutes a seed.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from ortools.linear_solver import pywraplp

from tubedeck.games.nextstation.best import draws_of, line_of, line_table
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.responses import Draws, Round, lines_of
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.games.nextstation.scoring import final_score
from tubedeck.solver.memory import available_memory

from .clash import CLASH_MOST, Clash
from .columns import SMOOTH, Column, MasterLP, OutOfTime, Prices, column_of, lagrangian_bound, mix
from .cuts import relaxation, tourist_patterns

EPS = 1e-6
WORDS = 3  # 64-bit words of a section mask (a map has at most 192 potential sections)
CHUNK = 1 << 17  # lines a block of the tables' arithmetic takes
MASK_BYTES = 400 * 2**20  # what a scan's cut masks may hold (4,800 masks of 84 KB at 670,000 lines; 640 at 5 million)


class RoundLines:
    """Every line of one round on an empty sheet, as arrays: score, tourist sites, stations
    (an incidence matrix and a padded index list), sections (masks, and masks with what they
    cross, for compatibility) and draws (to replay a line)."""

    def __init__(self, board: Board, book: RuleBook, rows: Sequence[tuple[int, bytes, bytes]]):
        n_st, n_sec = len(board.stations), len(board.sections)
        if n_sec > 64 * WORDS:
            raise ValueError(f"a map of {n_sec} potential sections: at most {64 * WORDS} are supported")
        n = len(rows)
        self.n = n
        self.board = board
        self.codes = [code for _, _, code in rows]  # each line's draws as bytes (:meth:`draws`)
        longest = max(len(order) for _, order, _ in rows)
        self.st_idx = np.full((n, longest), n_st, dtype=np.int16)  # padded with n_st (a zero column)
        self.sec_idx = np.full((n, max(longest - 1, 1)), n_sec, dtype=np.int16)
        cross = [sum(1 << j for j in board.crossing[i]) for i in range(n_sec)]
        blocks = []
        for k, (secs, order, _) in enumerate(rows):
            self.st_idx[k, :len(order)] = np.frombuffer(order, dtype=np.uint8)
            m, blk, bits = secs, secs, []
            while m:
                low = m & -m
                i = low.bit_length() - 1
                bits.append(i)
                blk |= cross[i]
                m ^= low
            self.sec_idx[k, :len(bits)] = bits
            blocks.append(blk)
        districts = sorted({s.district for s in board.stations})
        dist = np.zeros((n_st, len(districts)), dtype=np.int32)
        for k, s in enumerate(board.stations):
            dist[k, districts.index(s.district)] = 1
        thames = np.array([sec.thames for sec in board.sections] + [0], dtype=np.int32)
        tourist = np.array([s.tourist for s in board.stations], dtype=np.int32)
        self.st = np.zeros((n, n_st), dtype=np.uint8)
        self.score = np.zeros(n)
        self.sites = np.zeros(n, dtype=np.int32)
        for a in range(0, n, CHUNK):  # (in blocks: whole-table temporaries took 0.7 GB at 3.5 million lines)
            on = np.zeros((min(CHUNK, n - a), n_st + 1), dtype=np.uint8)
            np.put_along_axis(on, self.st_idx[a:a + CHUNK].astype(np.intp), 1, axis=1)
            self.st[a:a + CHUNK] = on[:, :n_st]
            wide = self.st[a:a + CHUNK].astype(np.int32)
            counts = wide @ dist
            self.score[a:a + CHUNK] = ((counts > 0).sum(axis=1) * counts.max(axis=1)
                                       + book.rules.thames_points * thames[self.sec_idx[a:a + CHUNK]].sum(axis=1))
            self.sites[a:a + CHUNK] = wide @ tourist
        self.bits = _words([secs for secs, _, _ in rows])
        self.block = _words(blocks)
        del blocks
        self.n_st, self.n_sec = n_st, n_sec
        self.alone = self.find(0)  # the departure alone (passing throughout)

    def station_sum(self, values: np.ndarray) -> np.ndarray:
        """Per line, the sum of ``values`` (one per station, and a 0 past them) over its stations."""
        return _summed(values, self._rows("st_idx"))

    def section_sum(self, values: np.ndarray) -> np.ndarray:
        """Per line, the sum of ``values`` (one per section, and a 0 past them) over its sections."""
        return _summed(values, self._rows("sec_idx"))

    def _rows(self, name: str) -> np.ndarray:
        """An index table transposed, made once: a row per position on the line, so that a sum
        adds a whole row at a time, reading memory in order (three times faster than summing
        each line's short row)."""
        key = "_t_" + name
        if key not in self.__dict__:
            self.__dict__[key] = np.ascontiguousarray(getattr(self, name).T)
        return self.__dict__[key]

    def find(self, mask: int) -> int:
        """The line drawing exactly the sections of ``mask`` (bits); a KeyError if none."""
        want = _words([mask])[0]
        hit = np.flatnonzero((self.bits == want).all(axis=1))
        if not len(hit):
            raise KeyError(mask)
        return int(hit[0])

    def mask(self, k: int) -> int:
        """Line k's sections as bits."""
        return sum(int(w) << (64 * j) for j, w in enumerate(self.bits[k]))

    def draws(self, k: int) -> Draws:
        """How line k is drawn: (turn, from, to) per section."""
        return draws_of(self.board, self.codes[k])

    def stations(self, k: int) -> list[int]:
        return [int(i) for i in self.st_idx[k] if i < self.n_st]

    def sections(self, k: int) -> list[int]:
        return [int(i) for i in self.sec_idx[k] if i < self.n_sec]

    def clear_of(self, k: int, bits: np.ndarray) -> np.ndarray:
        """For each row of ``bits`` (section masks of another round's lines): whether that line
        may share a sheet with line k (no section of it is line k's or crosses one of line k's)."""
        clash = np.zeros(len(bits), dtype=bool)
        for w in range(WORDS):
            if self.block[k, w]:
                clash |= (bits[:, w] & self.block[k, w]) != 0
        return ~clash

    def compatible(self, k: int, other: RoundLines, k2: int) -> bool:
        return not any(int(self.block[k, w]) & int(other.bits[k2, w]) for w in range(WORDS))


def _partner_bound(st_r: np.ndarray, st_q: np.ndarray, B: np.ndarray, gamma: np.ndarray,
                   top: int = 10) -> np.ndarray:
    """For each line of r: an upper bound on max over q's lines l' of B(l') + the prices of the
    stations both visit, ignoring whether they may share a sheet. The ``top`` dearest priced
    stations are taken exactly (each side grouped by which of them a line holds); every other
    priced station of the line is counted as if a partner shared it."""
    order = np.argsort(-gamma, kind="stable")
    S = [int(s) for s in order[:top] if gamma[s] > 1e-12]
    if not S:
        return np.full(len(st_r), B.max())
    rest = gamma.copy()
    rest[S] = 0.0
    weights = (1 << np.arange(len(S), dtype=np.int64))
    code_r = st_r[:, S].astype(np.int64) @ weights
    code_q = st_q[:, S].astype(np.int64) @ weights
    ua, inv = np.unique(code_r, return_inverse=True)
    up, invq = np.unique(code_q, return_inverse=True)
    best_b = np.full(len(up), -np.inf)
    np.maximum.at(best_b, invq, B)
    bits = lambda codes: ((codes[:, None] >> np.arange(len(S), dtype=np.int64)) & 1).astype(np.float64)  # noqa: E731
    shared = (bits(ua) * gamma[S]) @ bits(up).T  # price of the top stations both patterns hold
    return (shared + best_b[None, :]).max(axis=1)[inv.reshape(-1)] + st_r @ rest


def _best(values: np.ndarray, m: int) -> np.ndarray:
    """Indices of the ``m`` largest values (all if fewer), best first."""
    top = np.argpartition(-values, m - 1)[:m] if m < len(values) else np.arange(len(values))
    return top[np.argsort(-values[top], kind="stable")]


def _settled(bound: float, lp: float) -> bool:
    """Whether more iterations cannot lower the whole bound: it meets the master's value, or both
    round down alike (the master only rises towards the relaxation, which the bound never passes)."""
    return bound <= lp + 1e-6 or math.floor(bound + EPS) == math.floor(lp + EPS)


def _words(masks: Sequence[int]) -> np.ndarray:
    """Python int masks as rows of WORDS 64-bit words."""
    out = np.zeros((len(masks), WORDS), dtype=np.uint64)
    for w in range(WORDS):
        out[:, w] = np.fromiter(((m >> (64 * w)) & 0xFFFFFFFFFFFFFFFF for m in masks), dtype=np.uint64, count=len(masks))
    return out


LIMIT = 8_000_000  # lines a round's table holds at most (classic seeds 3, 5 and 9 have a round of 4.2-5.1 million)
LINE_BYTES = 560  # a listed line's memory while its table is built (seed 3's 5.1 million lines: 2.66 GB at peak)
MEMORY_SHARE = 0.5  # of the memory available when listing starts, what the tables may take
UNKNOWN_MEMORY = 4 * 2**30  # bytes assumed available where the system does not say


def line_budget(available: int | None = None) -> int:
    """Lines a seed's tables may hold in all: MEMORY_SHARE of the memory available at LINE_BYTES a line."""
    if available is None:
        available = available_memory() or UNKNOWN_MEMORY
    return int(available * MEMORY_SHARE) // LINE_BYTES


def tables(board: Board, book: RuleBook, rounds: Sequence[Round], limit: int = LIMIT,
           time_limit: float = 600.0) -> list[RoundLines]:
    """Every line of each round (:func:`~tubedeck.games.nextstation.best.line_table`);
    a RuntimeError if one has more than ``limit`` (see :func:`some_tables`)."""
    out = some_tables(board, book, rounds, limit, time_limit)
    if any(t is None for t in out):
        raise RuntimeError(f"a round has more than {limit} lines, or listing them took over {time_limit} s")
    return [t for t in out if t is not None]


def some_tables(board: Board, book: RuleBook, rounds: Sequence[Round], limit: int = LIMIT,
                time_limit: float = 600.0, budget: int | None = None) -> list[RoundLines | None]:
    """Every line of each round, None for a round with more than ``limit`` lines, or more than
    the ``budget`` left (lines in all: :func:`line_budget` by default, what the memory available
    holds), or whose listing passed ``time_limit`` seconds (shared by the rounds)."""
    end = time.perf_counter() + time_limit
    left = line_budget() if budget is None else budget
    out: list[RoundLines | None] = []
    for ts, dep in rounds:
        rows = line_table(board, book, ts, dep, min(limit, left), max(end - time.perf_counter(), 0.0))
        out.append(None if rows is None else RoundLines(board, book, rows))
        left -= 0 if rows is None else len(rows)
        del rows  # (not held while the next round is listed)
    return out


@dataclass(frozen=True)
class PairResult:
    # the least Lagrangian bound over the iterations, rounded down (never below ``best``); None
    # when the time limit left no iteration whole (never the start game's score: that is no proof)
    bound: int | None
    lp: float  # the last restricted master's value
    best: int  # the best start game's score (-1: none)
    iterations: int
    lines: tuple[int, ...]  # every line of each round (the tables' sizes)
    columns: int  # lines and pairs in the last master
    settled: bool  # the bound met the master: its value is the relaxation's own
    cut: bool  # the time limit stopped it
    wall: float

    @property
    def proven(self) -> bool:
        return self.best >= 0 and self.bound is not None and self.bound <= self.best


@dataclass
class PairDuals:
    """The master's prices (<= rows' clipped at 0): any such prices give a bound."""

    sigma: float  # the sheet rows' duals, summed (their right-hand sides are 1)
    pen: np.ndarray  # per section (+ a 0 pad): the sheet rows holding it, summed
    lam: list[np.ndarray]  # per round, per station (+ pad): its link row
    rho: list[np.ndarray]  # per round: cumulative tourist prices, index = sites on the line
    gamma: dict[int, np.ndarray]  # per pair: per station, its pair link row
    feat: dict[tuple[int, int], tuple[float, np.ndarray]]  # (pair, side) -> (score price, station prices + pad)

    def mix(self, other: PairDuals, alpha: float) -> PairDuals:
        """alpha self + (1 - alpha) other (Wentges smoothing: steadier bounds)."""
        def m(a, b):
            return alpha * a + (1 - alpha) * b
        return PairDuals(m(self.sigma, other.sigma), m(self.pen, other.pen),
                      [m(a, b) for a, b in zip(self.lam, other.lam)], [m(a, b) for a, b in zip(self.rho, other.rho)],
                      {k: m(v, other.gamma[k]) for k, v in self.gamma.items()},
                      {k: (m(v[0], other.feat[k][0]), m(v[1], other.feat[k][1])) for k, v in self.feat.items()})


SMOOTH_PAIRS = 0.8  # columns.SMOOTH once the pair rows are in (the master's prices swing more)
MORE = 8  # lines a round added to the master an iteration
MORE_PAIRS = 30  # pairs a pair of rounds adds an iteration
CANDIDATES = 2000  # lines of each round whose pairs the cheap pricing scores (2000 x 2000 at most)


class PairBound:
    """The master over pools of lines and pairs, and the Lagrangian bound at its prices."""

    def __init__(self, board: Board, book: RuleBook, rounds: Sequence[Round], tabs: list[RoundLines],
                 pairs: bool):
        self.board, self.book, self.rounds, self.tabs = board, book, rounds, tabs
        self.n = len(rounds)
        self.pair_list = list(itertools.combinations(range(self.n), 2)) if pairs else []
        self.relax = relaxation(board, tuple(rounds), "patterns")
        self.tours = tourist_patterns(board, tuple(rounds))
        self.visits = True  # the pair rows on station visits (else on line scores alone)
        self.active = bool(self.pair_list)  # the pair rows are in the master and the bound
        self.support: list[list[int]] = [[] for _ in range(self.n)]  # the last master's lines in use
        self.scan = math.inf  # seconds a pair's scan may take (then its unscanned bound stands in)
        self.pool: list[dict[int, None]] = [{} for _ in range(self.n)]  # insertion-ordered sets
        self.pairs: list[dict[tuple[int, int], None]] = [{} for _ in self.pair_list]
        self.ids = [s.id for s in board.stations]
        self.site_cap = [max(int(tab.sites.max()), max(t[r] for t in self.tours)) for r, tab in enumerate(tabs)]

    def add_line(self, r: int, k: int) -> bool:
        if k in self.pool[r]:
            return False
        self.pool[r][k] = None
        return True

    def add_line_paired(self, r: int, k: int) -> int:
        """Round r's line k, paired with every line in use in the last master of each other round
        (and each one's pass): the pairs it can be mixed with at once."""
        added = int(self.add_line(r, k))
        for pi, (a, b) in enumerate(self.pair_list):
            if r in (a, b):
                other = b if r == a else a
                for k2 in self.support[other] + [self.tabs[other].alone]:
                    added += self.add_pair(pi, k, k2) if r == a else self.add_pair(pi, k2, k)
        return added

    def take(self, lines: list[list[int]], found: list[list[tuple[int, int]]]) -> int:
        """Add the priced lines and pairs (and the pairs' lines) to the master: how many were new."""
        added = 0
        for r, ks in enumerate(lines):
            added += sum(self.add_line_paired(r, k) if self.active else self.add_line(r, k) for k in ks)
        for pi, kk in enumerate(found):
            r, q = self.pair_list[pi]
            for k, k2 in kk:
                added += self.add_pair(pi, k, k2) + self.add_line(r, k) + self.add_line(q, k2)
        return added

    def add_pair(self, p: int, k: int, k2: int) -> bool:
        r, q = self.pair_list[p]
        if (k, k2) in self.pairs[p] or not self.tabs[r].compatible(k, self.tabs[q], k2):
            return False
        self.pairs[p][k, k2] = None
        return True

    # -- the restricted master ------------------------------------------------------------------
    def master(self) -> tuple[float, PairDuals]:
        board, book, tabs, n = self.board, self.book, self.tabs, self.n
        n_st, n_sec = len(board.stations), len(board.sections)
        lp = pywraplp.Solver.CreateSolver("GLOP")
        inf = lp.infinity()
        w = [{k: lp.NumVar(0, inf, "") for k in self.pool[r]} for r in range(n)]
        for r in range(n):
            lp.Add(lp.Sum(list(w[r].values())) == 1)
        obj = [float(tabs[r].score[k]) * x for r in range(n) for k, x in w[r].items()]
        use: dict[int, list] = {}
        on: dict[tuple[int, int], list] = {}  # (round, station index) -> its lines' weights
        for r in range(n):
            for k, x in w[r].items():
                for i in tabs[r].sections(k):
                    use.setdefault(i, []).append(x)
                for s in tabs[r].stations(k):
                    on.setdefault((r, s), []).append(x)
        sheet: list[tuple[pywraplp.Constraint, tuple[int, ...]]] = []  # (row, sections it holds)
        for i in sorted(use):
            sheet.append((lp.Add(lp.Sum(use[i]) <= 1), (i,)))
            for j in sorted(board.crossing[i]):
                if j in use and i < j:
                    sheet.append((lp.Add(lp.Sum(use[i] + use[j]) <= 1), (i, j)))
        table = book.scores.interchange
        z: dict[str, list] = {}
        link = {}
        pats = {sid: [p for p, _ in self.relax.choices[sid]] for sid in self.ids}
        for si, sid in enumerate(self.ids):
            z[sid] = [lp.NumVar(0, 1, "") for _ in pats[sid]]
            lp.Add(lp.Sum(z[sid]) == 1)
            obj += [table[min(sum(p), len(table) - 1)] * x for p, x in zip(pats[sid], z[sid])]
            for r in range(n):
                link[r, si] = lp.Add(lp.Sum([x for p, x in zip(pats[sid], z[sid]) if p[r]])
                                     - lp.Sum(on.get((r, si), [])) <= 0)
        plink = {}
        feat = {}
        for pi, (r, q) in enumerate(self.pair_list if self.active else []):
            v = {kk: lp.NumVar(0, inf, "") for kk in self.pairs[pi]}
            lp.Add(lp.Sum(list(v.values())) == 1)
            both: dict[int, list] = {}
            side: list[dict[int, list]] = [{}, {}]
            score: list[list] = [[], []]
            for (k, k2), x in v.items():
                a, b = set(tabs[r].stations(k)), set(tabs[q].stations(k2))
                for s in a & b:
                    both.setdefault(s, []).append(x)
                for t, (tab, kk, sts) in enumerate(((tabs[r], k, a), (tabs[q], k2, b))):
                    score[t].append(float(tab.score[kk]) * x)
                    for s in sts:
                        side[t].setdefault(s, []).append(x)
            for si, sid in enumerate(self.ids):
                zs = [x for p, x in zip(pats[sid], z[sid]) if p[r] and p[q]]
                if zs:
                    plink[pi, si] = lp.Add(lp.Sum(zs) - lp.Sum(both.get(si, [])) <= 0)
            for t, x_r in enumerate((r, q)):
                own = [float(tabs[x_r].score[k]) * x for k, x in w[x_r].items()]
                # the pair's lines score at least the round's, and visit no station more often
                rows = {-1: lp.Add(lp.Sum(score[t]) - lp.Sum(own) >= 0)}
                for si in range(n_st):
                    a_ = side[t].get(si, [])
                    b_ = on.get((x_r, si), [])
                    if a_ and self.visits:
                        rows[si] = lp.Add(lp.Sum(a_) - lp.Sum(b_) <= 0)
                feat[pi, t] = rows
        cap = book.rules.tourist_marks_max
        tau = [lp.NumVar(0, 1, "") for _ in self.tours]
        lp.Add(lp.Sum(tau) == 1)
        obj += [book.scores.tourist(min(sum(t), cap)) * x for t, x in zip(self.tours, tau)]
        trow = {}
        for r in range(n):
            for j in range(1, max(t[r] for t in self.tours) + 1):
                trow[r, j] = lp.Add(lp.Sum([x for t, x in zip(self.tours, tau) if t[r] >= j])
                                    - lp.Sum([x for k, x in w[r].items() if tabs[r].sites[k] >= j]) <= 0)
        lp.Maximize(lp.Sum(obj))
        if lp.Solve() != pywraplp.Solver.OPTIMAL:  # always feasible (the pass lines) and bounded
            raise RuntimeError("the pair master LP did not solve")
        pos = lambda c: max(0.0, c.dual_value())  # noqa: E731 - a <= row's price, never negative
        pen = np.zeros(n_sec + 1)
        sigma = 0.0
        for row, secs in sheet:
            d = pos(row)
            sigma += d
            for i in secs:
                pen[i] += d
        lam = []
        for r in range(n):
            lam_r = np.zeros(n_st + 1)
            for si in range(n_st):
                lam_r[si] = pos(link[r, si])
            lam.append(lam_r)
        rho = []
        for r in range(n):
            steps = [pos(trow[r, j]) for j in range(1, 1 + sum(1 for q, _ in trow if q == r))]
            cum = np.zeros(self.site_cap[r] + 1)
            cum[1:len(steps) + 1] = np.cumsum(steps)
            cum[len(steps) + 1:] = cum[len(steps)]
            rho.append(cum)
        self.support = [[k for k, x in w[r].items() if x.solution_value() > 1e-9] for r in range(n)]
        gamma = {}
        for pi in range(len(self.pair_list) if self.active else 0):
            g = np.zeros(n_st)
            for si in range(n_st):
                if (pi, si) in plink:
                    g[si] = pos(plink[pi, si])
            gamma[pi] = g
        fd = {}
        for (pi, t), rows in feat.items():
            st = np.zeros(n_st + 1)
            for si, row in rows.items():
                if si >= 0:
                    st[si] = pos(row)
            fd[pi, t] = (min(0.0, rows[-1].dual_value()), st)  # a >= row's price is never positive
        return lp.Objective().Value(), PairDuals(sigma, pen, lam, rho, gamma, fd)

    def rest(self, d: PairDuals) -> float:
        """The bound's terms beyond the lines and pairs: each station's best pattern net of its
        prices, the best tourist tuple net of its prices, the sheet rows' prices."""
        n, table = self.n, self.book.scores.interchange
        total = d.sigma
        for si, sid in enumerate(self.ids):
            total += max(table[min(sum(p), len(table) - 1)] - sum(d.lam[r][si] for r in range(n) if p[r])
                         - sum(g[si] for pi, g in d.gamma.items() if p[self.pair_list[pi][0]] and p[self.pair_list[pi][1]])
                         for p, _ in self.relax.choices[sid])
        cap = self.book.rules.tourist_marks_max
        return total + max(self.book.scores.tourist(min(sum(t), cap)) - sum(d.rho[r][t[r]] for r in range(n))
                           for t in self.tours)

    # -- the Lagrangian bound -------------------------------------------------------------------
    def line_values(self, r: int, d: PairDuals) -> np.ndarray:
        """R_r over every line of round r."""
        tab = self.tabs[r]
        val = tab.score - tab.section_sum(d.pen) + tab.station_sum(d.lam[r]) + d.rho[r][tab.sites]
        for (pi, t), (ps, pst) in d.feat.items():
            if self.pair_list[pi][t] == r:
                val = val + ps * tab.score + tab.station_sum(pst)
        return val

    def side_values(self, pi: int, t: int, d: PairDuals) -> np.ndarray:
        """A pair's own value of each line of its side t: minus its feature prices."""
        tab = self.tabs[self.pair_list[pi][t]]
        ps, pst = d.feat[pi, t]
        return -(ps * tab.score + tab.station_sum(pst))

    def best_pair(self, pi: int, d: PairDuals, deadline: float, keep: int = MORE_PAIRS
                  ) -> tuple[float, list[tuple[float, int, int]], bool]:
        """max P over compatible pairs of lines (see the module): (its value or, stopped by the
        ``deadline`` (``time.perf_counter``), a bound on it; the best pairs met, best last;
        whether it was stopped). Lines of r go in order of an upper bound on P (their own value,
        plus the best partner value as if every shared station were free); each is scored against
        the lines of q whose value with every shared station free could still beat the best pair
        (a prefix of them sorted so), no section shared or crossed."""
        r, q = self.pair_list[pi]
        tr, tq = self.tabs[r], self.tabs[q]
        gamma = d.gamma[pi]
        A, B = self.side_values(pi, 0, d), self.side_values(pi, 1, d)
        Gr, Gq = tr.st @ gamma, tq.st @ gamma
        BG = B + Gq
        by = np.argsort(-BG, kind="stable")  # q's lines, best partner bound first
        neg = -BG[by]
        by_b = np.argsort(-B, kind="stable")  # q's lines by their own value
        neg_b = -B[by_b]
        ub = A + np.minimum(B.max() + Gr, -neg[0])
        ub = np.minimum(ub, A + _partner_bound(tr.st, tq.st, B, gamma))
        order = np.argsort(-ub, kind="stable")
        inc = -math.inf
        found: list[tuple[float, int, int]] = []
        for step, k in enumerate(order):
            k = int(k)
            if ub[k] <= inc + EPS:
                return inc, sorted(found), False
            if step & 15 == 0 and time.perf_counter() > deadline:
                return max(inc, float(ub[k])), sorted(found), True
            # partners that could still beat the best pair: a prefix of ``by`` (sharing every
            # priced station of their own) and of ``by_b`` (sharing every one of line k's): the shorter
            if inc > -math.inf:
                m = int(np.searchsorted(neg, -(inc - A[k]), side="left"))
                m_b = int(np.searchsorted(neg_b, -(inc - A[k] - Gr[k]), side="left"))
            else:
                m = m_b = len(by)
            if min(m, m_b) == 0:
                continue
            cand = by[:m] if m <= m_b else by_b[:m_b]
            sts = tr.stations(k)
            vals = B[cand] + tq.st[cand][:, sts] @ gamma[sts]
            vals[~tr.clear_of(k, tq.bits[cand])] = -math.inf
            j = int(np.argmax(vals))
            if vals[j] == -math.inf:
                continue
            heapq.heappush(found, (float(A[k] + vals[j]), k, int(cand[j])))
            if len(found) > keep:
                heapq.heappop(found)
            inc = max(inc, float(A[k] + vals[j]))
        return inc, sorted(found), False

    def candidate_pairs(self, pi: int, d: PairDuals, size: int = CANDIDATES, keep: int = MORE_PAIRS
                        ) -> list[tuple[int, int]]:
        """The best compatible pairs (best first) among each round's ``size`` most promising lines (by their
        value with every priced station shared, and a quarter as many by their own value): all
        such pairs scored at once. Not a bound (lines outside the candidates are not looked at):
        cheap pricing that brings the master near the relaxation before an exact scan."""
        r, q = self.pair_list[pi]
        tr, tq = self.tabs[r], self.tabs[q]
        g = d.gamma[pi]
        A, B = self.side_values(pi, 0, d), self.side_values(pi, 1, d)
        cr = np.unique(np.concatenate([_best(A + tr.st @ g, size), _best(A, size // 4)]))
        cq = np.unique(np.concatenate([_best(B + tq.st @ g, size), _best(B, size // 4)]))
        val = A[cr][:, None] + B[cq][None, :] + (tr.st[cr] * g).astype(np.float64) @ tq.st[cq].T.astype(np.float64)
        clash = np.zeros(val.shape, dtype=bool)
        for w in range(WORDS):
            clash |= (tr.block[cr, w][:, None] & tq.bits[cq, w][None, :]) != 0
        val[clash] = -np.inf
        flat = val.ravel()
        best = _best(flat, keep)
        return [(int(cr[i // len(cq)]), int(cq[i % len(cq)])) for i in best if flat[i] > -np.inf]

    def best_lines(self, d: PairDuals, more: int = MORE) -> tuple[list[float], list[list[int]]]:
        """Per round: the best line's value R_r (exact, every line) and its ``more`` best lines."""
        values, lines = [], []
        for r in range(self.n):
            val = self.line_values(r, d)
            top = _best(val, max(more, 1))
            values.append(float(val[top[0]]))
            lines.append([int(k) for k in top[:more]])
        return values, lines

    def bound(self, d: PairDuals, deadline: float, more: int = MORE
              ) -> tuple[float, list[list[int]], list[list[tuple[int, int]]], bool]:
        """The Lagrangian bound at these prices; per round its best lines, per pair its best pairs;
        whether the clock cut a pair scan (its bound still holds)."""
        total = self.rest(d)
        best, lines = self.best_lines(d, more)
        total += sum(best)
        pairs = []
        cut = False
        for pi in range(len(self.pair_list) if self.active else 0):
            value, found, c = self.best_pair(pi, d, min(deadline, time.perf_counter() + self.scan))
            cut = cut or c
            total += value
            pairs.append([(k, k2) for _, k, k2 in found])
        return total, lines, pairs, cut


def pair_bound(board: Board, book: RuleBook, rounds: Sequence[Round], start: Sequence[Sequence[Draws]] = (),
               iterations: int = 500, time_limit: float = 1800.0, pairs: bool = True,
               tabs: list[RoundLines] | None = None, scan: float = 20.0, visits: bool = True,
               candidates: int = CANDIDATES,
               progress: Callable[[int, float, float, float], None] | None = None) -> PairResult:
    """The pair bound (see the module) after at most ``iterations`` rounds of column generation
    or ``time_limit`` wall-clock seconds (listing every line counts), from the lines of the
    ``start`` games (their best is the score a bound meeting it proves). ``pairs=False``: the
    same over every line without the pair rows (the column bound's relaxation, exact pricing).
    ``scan``: seconds a pair's exact scan may take an iteration (stopped, its unscanned lines'
    largest bound stands in: the bound holds, looser). ``candidates``: where a round has more
    lines than that, once the pair rows are in, pairs are priced first over each round's
    ``candidates`` most promising lines (:meth:`PairBound.candidate_pairs`, no bound: the master
    rises far faster than between scans) until that adds nothing or the time left is what six
    scans may take; the exact scans then give the bound (and any pair the candidates missed).
    0: exact scans throughout (as where every line is a candidate: the scans are as cheap).
    ``progress(iteration, lp, bound, seconds)`` after each iteration."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    tabs = tabs if tabs is not None else tables(board, book, rounds, time_limit=time_limit)
    b = PairBound(board, book, rounds, tabs, pairs)
    b.scan = scan
    b.visits = visits
    best = -1
    for draws in start:
        stations, sections = lines_of(board, tuple(rounds), tuple(draws))
        best = max(best, final_score(board, book, stations, sections).total)
        for r, secs in enumerate(sections):
            b.add_line(r, tabs[r].find(sum(1 << i for i in secs)))
    for r, tab in enumerate(tabs):
        b.add_line(r, tab.alone)  # passing throughout: every master is feasible
        b.add_line(r, int(np.argmax(tab.score)))
    b.active = False  # first the master without pair rows: it settles in a few cheap iterations
    least, lp_value, settled, cut, it = math.inf, 0.0, False, False, 0
    centre: PairDuals | None = None
    alpha = SMOOTH_PAIRS
    large = candidates > 0 and any(t.n > candidates for t in tabs)
    cheap = large  # with the pair rows in: candidate pricing first (again after each exact scan)
    switch = deadline - min(time_limit / 2, 6 * scan + 10)  # then the exact scans' time
    while it < iterations:
        if time.perf_counter() >= deadline:
            cut = True
            break
        it += 1
        lp_value, duals = b.master()
        if b.active and cheap:  # priced over candidate pairs: no bound, a master nearer the relaxation
            added = b.take(b.best_lines(duals)[1],
                           [b.candidate_pairs(pi, duals, candidates) for pi in range(len(b.pair_list))])
            if progress is not None:
                progress(it, lp_value, least, time.perf_counter() - t0)
            cheap = bool(added) and time.perf_counter() < switch
            continue
        prices = duals if centre is None else centre.mix(duals, alpha if b.active else SMOOTH)
        value, lines, found, _ = b.bound(prices, deadline)
        cut = time.perf_counter() >= deadline
        if value < least - EPS:
            least, centre = value, prices
            alpha = max(SMOOTH, alpha - 0.1)  # (pairs) a better bound: trust the master's prices more
        elif b.active:
            alpha = min(0.95, alpha + 0.05)  # none: stay nearer the best prices so far
        added = b.take(lines, found)
        if not added and not cut and prices is not duals:  # nothing new at the mixed prices: the master's own
            value, lines, found, _ = b.bound(duals, deadline)
            cut = time.perf_counter() >= deadline
            if value < least - EPS:
                least, centre = value, duals
            added = b.take(lines, found)
        if progress is not None:
            progress(it, lp_value, least, time.perf_counter() - t0)
        if cut or (best >= 0 and math.floor(least + EPS) <= best):
            break
        cheap = large and time.perf_counter() < switch
        if _settled(least, lp_value) or not added:  # this master has settled
            if b.active or not pairs:
                settled = True
                break
            # on to the pair rows, each line in use paired; smoothing starts from the best
            # prices so far, with none on the pair rows (there the bound is the one reached)
            b.active = True
            if centre is not None:
                n_st = len(board.stations)
                centre = PairDuals(centre.sigma, centre.pen, centre.lam, centre.rho,
                                {pi: np.zeros(n_st) for pi in range(len(b.pair_list))},
                                {(pi, t): (0.0, np.zeros(n_st + 1)) for pi in range(len(b.pair_list)) for t in (0, 1)})
            for pi, (r, q) in enumerate(b.pair_list):  # every compatible pair of the lines so far
                for k in b.pool[r]:
                    ok = b.tabs[r].clear_of(k, b.tabs[q].bits[list(b.pool[q])])
                    for k2, fine in zip(b.pool[q], ok):
                        if fine:
                            b.pairs[pi][k, k2] = None
    whole = max(best, math.floor(least + EPS)) if least < math.inf else None  # (no bound computed: none)
    columns = sum(map(len, b.pool)) + sum(map(len, b.pairs))
    return PairResult(whole, lp_value, best, it, tuple(t.n for t in tabs), columns, settled, cut,
                      time.perf_counter() - t0)


def _entries(board: Board, tab: RoundLines) -> np.ndarray:
    """Per line, the id (station x sections + section) of each station it enters and the section
    it enters it by, padded with the one id past them all (for the entering prices)."""
    n_sec = len(board.sections)
    idx = {s.id: k for k, s in enumerate(board.stations)}
    sec = {}
    for x in board.sections:
        sec[idx[x.a], idx[x.b]] = sec[idx[x.b], idx[x.a]] = x.index
    pad = len(board.stations) * n_sec
    out = np.full(tab.sec_idx.shape, pad, dtype=np.int32)
    for k, code in enumerate(tab.codes):
        for j in range(0, len(code), 3):
            u, v = code[j + 1], code[j + 2]
            out[k, j // 3] = v * n_sec + sec[u, v]
    return out


def _summed(table: np.ndarray, index_rows: np.ndarray) -> np.ndarray:
    """The sum over the rows of ``index_rows`` of ``table`` at them (padding indexes a 0)."""
    out = np.zeros(index_rows.shape[1])
    for row in index_rows:
        out += table[row]
    return out


class LineScan:
    """Round r's listed lines (a :class:`RoundLines`) as a pricing scan (:class:`.columns.Scan`):
    every line valued at once, as :func:`.columns._price_round` values one (its score less its
    sections' penalties plus its stations', entering and tourist prices), lines drawing or
    crossing a section already drawn left out. Columns are made once, when first returned."""

    def __init__(self, board: Board, book: RuleBook, rnd: Round, tab: RoundLines, more: int = MORE - 1):
        self.board, self.book, self.departure, self.tab, self.more = board, book, rnd[1], tab, more
        self.at = {s.id: k for k, s in enumerate(board.stations)}
        self._entries: np.ndarray | None = None  # (listed once an entering price comes)
        self._columns: dict[int, Column] = {}
        self._clear: dict[frozenset[int], np.ndarray] = {}
        self._masks: dict[tuple[Clash, bool], np.ndarray] = {}  # (oldest first: the first let go)
        self._mask_bytes = 0

    def column(self, k: int) -> Column:
        if k not in self._columns:
            draws = self.tab.draws(k)
            self._columns[k] = column_of(self.board, self.book, *line_of(self.board, self.departure, draws), draws)
        return self._columns[k]

    def values(self, lam: dict[str, float], eta: dict[tuple[str, int], float], pen: dict[int, float],
               gain: Sequence[float]) -> np.ndarray:
        tab, n_st, n_sec = self.tab, len(self.board.stations), len(self.board.sections)
        pen_a = np.zeros(n_sec + 1)
        for i, x in pen.items():
            pen_a[i] = x
        lam_a = np.zeros(n_st + 1)
        for sid, x in lam.items():
            lam_a[self.at[sid]] = x
        top = int(tab.sites.max())
        gain_a = np.array([gain[min(k, len(gain) - 1)] for k in range(top + 1)])
        val = tab.score + gain_a[tab.sites] + tab.station_sum(lam_a) - tab.section_sum(pen_a)
        if any(eta.values()):
            if self._entries is None:
                self._entries = np.ascontiguousarray(_entries(self.board, tab).T)
            eta_a = np.zeros(n_st * n_sec + 1)
            for (sid, i), x in eta.items():
                eta_a[self.at[sid] * n_sec + i] = x
            val += _summed(eta_a, self._entries)
        return val

    def clear(self, drawn: frozenset[int]) -> np.ndarray:
        """Per line, whether it neither draws nor crosses a ``drawn`` section."""
        if drawn not in self._clear:
            if len(self._clear) > 64:
                self._clear.clear()
            bits = _words([sum(1 << i for i in drawn)])[0]
            clash = np.zeros(self.tab.n, dtype=bool)
            for w in range(WORDS):
                if bits[w]:
                    clash |= (self.tab.block[:, w] & bits[w]) != 0
            self._clear[drawn] = ~clash
        return self._clear[drawn]

    def _hits(self, cut: Clash, first: bool) -> np.ndarray:
        """The lines the cut's row holds (this scan being the cut's round r if ``first``, else its
        round q), kept small: their indices where they are few (under 1 in 32: a sections cut's
        first round), else 1 bit a line (84 KB a cut at 670,000 lines)."""
        key = (cut, first)
        if key not in self._masks:
            through = self.tab.st[:, self.at[cut.station]].astype(bool) if cut.kind == "station" else None
            hit = cut.mask(first, list(_words(cut.every_bits)), self.tab.bits, self.tab.block, through)
            few = np.flatnonzero(hit)
            kept = few.astype(np.int32) if 32 * len(few) < len(hit) else np.packbits(hit)
            while self._masks and self._mask_bytes + kept.nbytes > MASK_BYTES:  # (bounded in bytes: a
                self._mask_bytes -= self._masks.pop(next(iter(self._masks))).nbytes  # round of millions)
            self._masks[key] = kept
            self._mask_bytes += kept.nbytes
        return self._masks[key]

    def clash_mask(self, cut: Clash, first: bool) -> np.ndarray:
        """Per line, whether the cut's row holds it (see :meth:`_hits`)."""
        hits = self._hits(cut, first)
        if hits.dtype == np.int32:
            out = np.zeros(self.tab.n, dtype=bool)
            out[hits] = True
            return out
        return np.unpackbits(hits, count=self.tab.n).view(bool)

    def price(self, lam: dict[str, float], eta: dict[tuple[str, int], float], pen: dict[int, float],
              gain: Sequence[float], drawn: frozenset[int],
              clashes: Sequence[tuple[Clash, float, bool]] = ()) -> tuple[float, list[Column]]:
        val = self.values(lam, eta, pen, gain)
        for cut, p, first in clashes:  # (a sections cut holds a line at +1, a station cut at -1)
            hits, q = self._hits(cut, first), p if cut.kind == "sections" else -p
            if hits.dtype == np.int32:
                val[hits] -= q
            else:
                np.subtract(val, q, out=val, where=np.unpackbits(hits, count=self.tab.n).view(bool))
        if drawn:
            val = np.where(self.clear(drawn), val, -np.inf)
        top = [int(k) for k in _best(val, self.more + 1) if val[k] > -np.inf]  # (the departure alone always is)
        return float(val[top[0]]), [self.column(k) for k in top]


def table_bound(board: Board, book: RuleBook, rounds: Sequence[Round], start: Sequence[Sequence[Draws]] = (),
                cuts: str = "entries", tabs: Sequence[RoundLines | None] | None = None, iterations: int = 500,
                time_limit: float = 1800.0,
                progress: Callable[[int, float, float, float], None] | None = None,
                clash: int = 0, clash_most: int = CLASH_MOST) -> PairResult:
    """The column bound's own relaxation (:mod:`.columns`: ``cuts``, the tourist track per round,
    as branch and price's root) with **exact pricing by a scan of every line**
    (:func:`some_tables`) instead of the round search, where a round's lines could be listed
    (the others are priced by the search, :func:`.columns._price_round`): its master is
    :class:`.columns.MasterLP`, its bound :func:`.columns.lagrangian_bound`'s at the same
    prices. Stops when the bound meets the master (settled: the relaxation's own value), at
    ``iterations`` or ``time_limit`` (listing included). ``clash``: rounds of cuts between two
    rounds' lines (:mod:`.clash`, at most ``clash_most`` a round, between the rounds listed)
    added each time the master settles, before it stops."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    rounds = tuple(rounds)
    tabs = list(tabs) if tabs is not None else some_tables(board, book, rounds, time_limit=time_limit / 2)
    relax = relaxation(board, rounds, cuts, tourist=True)
    n = len(rounds)
    scans = [None if tab is None else LineScan(board, book, rounds[r], tab) for r, tab in enumerate(tabs)]
    pool: list[dict[frozenset[int], Column]] = [{} for _ in rounds]  # per round, by the line's sections
    lp = MasterLP(board, book, n, relax)  # (kept: each new line only adds its column)

    def keep(r: int, col: Column) -> bool:
        if col.sections in pool[r]:
            return False
        pool[r][col.sections] = col
        lp.add(r, col)
        return True

    best = -1
    for draws in start:
        stations, sections = lines_of(board, rounds, tuple(draws))
        best = max(best, final_score(board, book, stations, sections).total)
        for r in range(n):
            keep(r, column_of(board, book, stations[r], sections[r], draws[r]))
    for r, (_, dep) in enumerate(rounds):
        keep(r, column_of(board, book, (dep,), ()))  # passing throughout: every master is feasible
        scan = scans[r]
        if scan is not None:
            keep(r, scan.column(int(np.argmax(scan.tab.score))))

    least, lp_value, settled, cut, it = math.inf, 0.0, False, False, 0
    centre: Prices | None = None
    while it < iterations:
        if time.perf_counter() >= deadline:
            cut = True
            break
        it += 1
        cols = [list(pool[r].values()) for r in range(n)]
        try:
            m = lp.solve(deadline)
        except OutOfTime:
            cut = True
            break
        lp_value = m.value
        added = 0
        for prices in ([m.prices] if centre is None else [mix(centre, m.prices, SMOOTH), m.prices]):
            more: list[list[Column]] = [[] for _ in rounds]
            total, lines = lagrangian_bound(board, book, rounds, prices, cols, deadline, relax, more=more, scans=scans)
            added += sum(keep(r, c) for r in range(n) for c in [lines[r], *more[r]])
            if total is not None and total < least:
                least, centre = total, prices
            if added:
                break
        if progress is not None:
            progress(it, lp_value, least, time.perf_counter() - t0)
        if time.perf_counter() >= deadline:
            cut = True
            break
        if best >= 0 and math.floor(least + EPS) <= best:
            break
        if _settled(least, lp_value) or not added:
            solved = [list(pool[r].values())[:len(m.weights[r])] for r in range(n)]  # (the lines m weighs)
            if clash > 0 and lp.separate(solved, m, [r for r, scan in enumerate(scans) if scan is not None],
                                         clash_most):
                clash -= 1
                continue
            settled = True
            break
    whole = max(best, math.floor(least + EPS)) if least < math.inf else None  # (no bound computed: none)
    return PairResult(whole, lp_value, best, it, tuple(0 if t is None else t.n for t in tabs),
                      sum(map(len, pool)), settled, cut, time.perf_counter() - t0)
