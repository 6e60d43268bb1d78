"""Tube Dice solo by target search: exact, and fast enough for 20-turn sequences.

The score of a solo game is fixed by the set ``F`` of lines and zones complete at the end and
the passes spent (solo, every completion scores high). So the best score is the best value
``points(A) + pass_points x (passes - spent)`` over the award sets ``A`` some play completes
(with at most ``spent`` passes). The sets are tried from the most points down; for each, a
depth-first **feasibility search** asks "can the rolls complete every station and connection of
``A`` with at most ``budget`` passes?", ``budget`` being the most passes that still beat the
best score found so far. A success raises the best score (the play found is scored as the rules
score it, extra completions included) and the same set is asked again with the smaller budget;
a failure means no play completing ``A`` beats the best. When the next set's points plus every
pass cannot beat the best, nothing can: the best is proven. (Doing nothing scores the passes:
the search starts from that.) The sets are asked in rounds: a set's search that
runs past its node cap (:data:`FIRST_CAP`, growing :data:`ROUND_GROWTH`-fold a round) waits for
the next round while the sets below it are asked, so a good score comes early even when one set
is hard to refute; the bound is the best set still open, and each set's search keeps its memo
between rounds.

**Why the feasibility search is exact.** It follows the rules of :mod:`tubedeck.games.dice.play`
(its own code, checked against the exhaustive search in the tests): a turn writes ``n`` in an
empty station at the end of a marked connection (turn 1: the star) or uses a filled station's
own number, and marks every connection there with ``k`` sections; ``(n, k)`` is read from two
distinct dice of the roll for ``pair_cost`` passes; the game ends after the turn in which
``lines_to_end`` lines are complete, so a play that reaches that before ``A`` is complete fails.
Whatever it cuts cannot hold the only success:

* **skipped uses**: a use of a filled station that marks only connections outside ``A`` whose
  both ends are filled does nothing a pass-free skip does not (it opens no station, adds nothing
  of ``A`` and can only end the game sooner);
* **numbers written later**: a station's number is kept open as the passes each of 1-6 would
  have cost over its uses so far; a use charges the cheapest and keeps the differences (the total
  a number costs is what the rules charge, the sum never exceeds the passes); once the station
  has no unmarked connection of ``A`` or to an empty station its number never matters again
  (any later use there is a skipped use) and is forgotten. The moves take the cheapest numbers;
* **memo**: a position (stations, connections) that failed at turn ``t`` with ``p`` passes left
  and its numbers at given extra costs fails at ``t`` or any later turn with fewer passes and
  numbers as dear or dearer (its plays are a subset: a play from a later turn is one from ``t``
  that passes the turns between);
* **skipped uses, outside the target**: opening a station outside the target is worth a use only
  while some neighbour of it is neither filled nor open (else writing in it opens nothing);
* **end rule**: a use completes only lines through its station, and at most ``lines_to_end - 1``
  lines are complete before the last turn, so ``A``'s open lines outside one station's lines
  plus those complete must stay below ``lines_to_end``;
* **the final use** (:class:`_Target`): when ``A`` has two or more lines beyond
  ``lines_to_end - 1``, its last use must complete that many of them at once. The search is then
  split by that use: its station and sections, and whether the station stays empty until then
  (its first use) or was filled before (the use completes lines by marking). Each part forbids
  what the final use rules out before it (any use of a station that stays empty; the final use
  itself and, when it has one connection of ``A``, the use at that connection's other end), puts
  the final use in the turns-needed cover (on a roll that allows it, every other turn of the
  cover before it) and keeps enough of ``A``'s lines through its station open. The parts cover
  every play, so the split is exact; as it costs more per target, a plain search runs first for
  :data:`PLAIN_NODES` nodes (it settles most targets) and the split takes over past that;
* **turns needed** (:mod:`.turns`, admissible): every missing station of ``A`` needs a turn
  there, every missing connection of ``A`` a turn at one of its ends with its sections, every
  missing station not yet opened a turn at a neighbour with the sections between them; each turn
  is one (station, sections) pair, so a play needs at least the cheapest such cover (exact, by
  iterative deepening) and, near the cut (a turn or none to spare), a cover whose pairs fit
  distinct remaining turns whose rolls allow them (a bipartite matching); for a target whose
  stations are not connected to the star, at least the stations outside ``A`` on the way.
  A position needing more turns than are left fails.

Budgets: a wall-clock ``time_limit`` and a deterministic one in units of work (``work``: the
nodes of every feasibility search plus the steps of every cover search they ask, which is where
most of the time goes; :data:`WORK_PER_SECOND` converts). A search cut short by either
reports FEASIBLE with the points of the best set not yet refuted as its bound, never a verdict
(:mod:`.solve` then hands the rest to CP-SAT).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from itertools import combinations

from tubedeck.games.dice.edition import Edition
from tubedeck.progress import Progress

from . import turns as _turns
from .model import ModelResult, pair_cost
from .turns import LEAVES, Turns, matched

MAX_AWARDS = 16
# work (search nodes + cover steps) a deterministic second: 70-120 thousand measured on one core
# (2026-11-30); counting nodes alone (20,000 a second, as before) made a deterministic second
# 10-700 wall seconds, as a node's cover search can take thousands of steps
WORK_PER_SECOND = 100_000
TICK = 127  # nodes between looks at the budget and the clock (a mask)
FIRST_CAP = 5_000  # nodes a set's search may take in the first round (most need a few hundred)
ROUND_GROWTH = 4  # the cap's growth from round to round
PLAIN_NODES = 300  # a target's plain search, before the search split by its final use takes over
SCHEDULE_SLACK = 1  # the dice-aware check of the turns needed runs with this many turns or fewer to spare
# per station: 6 numbers x 5 bits, each the extra passes (NO: too many) below a spare top bit,
# so one subtraction compares all fields (see _Feasible.dominated)
FIELD, NO = 5, 15
WIDTH = 6 * FIELD
MASK = (1 << WIDTH) - 1
ZERO = 0  # 2^16 award sets; a bigger map (another scope) goes to CP-SAT


class _Timeout(Exception):
    pass


class _SetCut(Exception):
    """A set's search ran past its node cap for this round: it waits for the next."""


class _PricedTurns(Turns):
    """:class:`.Turns` whose schedule check also counts the passes (``when(s, k)`` gives a tuple:
    the turns allowing the pair within the passes left, then per ``q`` = 0, 1, ... below them the
    turns where it costs at most ``q``). A play spends at least ``sum_q (pairs - M_q)``, ``M_q`` the
    most pairs distinct turns serve at a cost of at most ``q`` each (at least that many pairs
    cost more than ``q``); a cover dearer than the passes left is not one a play can afford."""

    passes = 0  # the passes left, set with ``when``
    roots: int | None = None  # the stations filled or open (None: no opening check), set by the caller

    def needed(self, missing: int, edges: int, unopened: int, cap: int, start: int = 0) -> int:
        """:meth:`.Turns.needed`, the deepening from ``start`` turns (a bound known already)."""
        demands = self.demands(edges, unopened)
        base = missing.bit_count()
        self.when = None
        for extra in range(max(0, start - base), cap - base + 1):
            if self._cover(demands, missing, {}, extra):
                return base + extra
        return cap + 1

    def _covered(self, demands, missing: int, chosen: dict, budget: int) -> bool:
        """:meth:`.Turns._covered`, and a cover must open its stations from the ``roots``: a station
        to be filled (missing, or holding a chosen pair) is reached when a chosen pair at a
        reached station marks the connection to it. When some are not, the first of them a play
        fills is opened by a pair at a station outside them: that is a new demand (a play's pairs
        meet it; cyclic openings, which no play makes, do not)."""
        if self.roots is not None:
            cut = self._unreached(missing, chosen)
            if cut is not None:
                return bool(cut) and self._cover([*demands, cut], missing, chosen, budget)
        return super()._covered(demands, missing, chosen, budget)

    def _unreached(self, missing: int, chosen: dict) -> tuple | None:
        """None when the chosen pairs open every station to fill from the roots, else the demand
        for a pair opening one of those left out (empty: none can)."""
        assert self.roots is not None
        want = missing
        for s in chosen:
            want |= 1 << s
        reach = self.roots
        grow = reach & want
        while grow:
            low = grow & -grow
            grow ^= low
            s = low.bit_length() - 1
            ks = chosen.get(s, 0)
            if ks:
                for _, k, o in self.at[s]:
                    if ks >> k & 1 and not reach >> o & 1:
                        reach |= 1 << o
                        if want >> o & 1:
                            grow |= 1 << o
        out = want & ~reach
        if not out:
            return None
        cut = []
        bits = out
        while bits:
            low = bits & -bits
            bits ^= low
            for _, k, o in self.at[low.bit_length() - 1]:
                if not out >> o & 1 and (o, k) not in cut:
                    cut.append((o, k))
        return tuple(cut)

    def _schedule(self, chosen: dict) -> bool:
        self.leaves += 1
        if self.leaves > _turns.LEAVES:
            return True
        when = self.when
        assert when is not None
        pairs: list = [when(s, k) for s, ks in chosen.items() for k in range(1, 7) if ks >> k & 1]
        bits = self.missing_all
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            if s not in chosen:
                pairs.append(when(s, 0))
        n = len(pairs)
        full = [p[0] for p in pairs]
        full.sort(key=int.bit_count)
        if matched(full) < n:
            return False
        spare = self.passes
        for q in range(self.passes):
            level = sorted((p[1 + q] for p in pairs), key=int.bit_count)
            short = n - matched(level)
            if not short:
                return True
            spare -= short
            if spare < 0:
                return False
        return True


class _Board:
    """The map as bit masks, and the rolls as pass costs (built once per sequence)."""

    def __init__(self, edition: Edition, rolls: tuple[tuple[int, ...], ...]):
        b = edition.board
        m = b.masks
        self.S, self.C, self.star = len(b.stations), len(b.connections), b.star
        self.at = m.at
        self.secs = [sorted({k for _, k, _ in m.at[s]}) for s in range(self.S)]
        # (s, k) -> [(connection bit, other station)] and its mask
        self.by_k = [{k: [(1 << c, o) for c, kk, o in m.at[s] if kk == k] for k in self.secs[s]} for s in range(self.S)]
        self.kmask_at = [{k: sum(bit for bit, _ in v) for k, v in self.by_k[s].items()} for s in range(self.S)]
        self.conns_at = [sum(1 << c for c, _, _ in m.at[s]) for s in range(self.S)]
        self.nbr = [sum(1 << o for _, _, o in m.at[s]) for s in range(self.S)]
        self.ends = m.ends
        self.line_st, self.line_cn = m.line_stations, m.line_connections
        self.lines_at = [[i for i, ls in enumerate(m.line_stations) if ls >> s & 1] for s in range(self.S)]
        self.line_bits = [sum(1 << i for i in ls) for ls in self.lines_at]
        self.line_bits_at = sorted(set(self.line_bits))
        # per station and section count: (line, its connections at the station with that count)
        self.line_conns_at = [{k: [(i, self.line_cn[i] & self.kmask_at[s][k]) for i in self.lines_at[s]
                                   if self.line_cn[i] & self.kmask_at[s][k]] for k in self.secs[s]}
                              for s in range(self.S)]
        self.zone_st = m.zone_stations
        self.high = [a.high for a in edition.lines]
        self.zone_high = [a.high for a in edition.zones]
        rules = edition.rules
        self.P, self.pp = rules.passes, rules.pass_points
        self.target = min(rules.lines_to_end, len(b.lines))
        self.T = len(rolls)
        self.cost = [[[pair_cost(d, n, k) if n else 99 for k in range(7)] for n in range(7)] for d in rolls]
        # turn masks: num_ok[q][n][k] the turns reading (n, k) within q passes; free_ok[q][k] with
        # any number; later[t] the turns from t on
        Q = self.P + 1
        self.num_ok = [[[sum(1 << t for t in range(self.T) if self.cost[t][n][k] <= q) for k in range(7)]
                        for n in range(7)] for q in range(Q)]
        self.free_ok = [[0] * 7 for _ in range(Q)]
        for q in range(Q):
            for k in range(1, 7):
                for n in range(1, 7):
                    self.free_ok[q][k] |= self.num_ok[q][n][k]
        # free_at[q][s]: the turns that can write in station s (any number, one of its sections)
        self.free_at = [[0] * self.S for _ in range(Q)]
        for q in range(Q):
            for s in range(self.S):
                for k in self.secs[s]:
                    self.free_at[q][s] |= self.free_ok[q][k]
        self.later = [((1 << self.T) - 1) & ~((1 << t) - 1) for t in range(self.T + 1)]
        self.turns = _PricedTurns(m.at, m.ends, tuple(c.sections for c in b.connections))
        # the search's budget: work (nodes of all its feasibility searches and their cover steps,
        # deterministic; looked at every node) and a wall-clock deadline (every TICK nodes, with progress)
        self.nodes = 0
        self.work_cap: float = math.inf  # nodes + the cover search's steps (deterministic)
        self.set_cap: float = math.inf  # the current set's nodes this round (see best_sequence)
        self.deadline = math.inf
        self.report: Callable[[int], None] | None = None

    def around(self, mask: int) -> int:
        """The stations next to any station of ``mask``."""
        out = 0
        while mask:
            low = mask & -mask
            out |= self.nbr[low.bit_length() - 1]
            mask ^= low
        return out

    def work(self) -> int:
        """The deterministic work so far: nodes and cover steps."""
        return self.nodes + self.turns.steps

    def tick(self) -> None:
        self.nodes += 1
        if self.work() > self.work_cap:
            raise _Timeout
        if not self.nodes & TICK:
            if time.perf_counter() > self.deadline:
                raise _Timeout
            if self.nodes > self.set_cap:
                raise _SetCut
            if self.report is not None:
                self.report(self.nodes)

    def play(self, moves: tuple) -> int:
        """The final score of ``moves`` (turn, station, number, sections)."""
        filled = marked = spent = 0
        for t, s, n, k in moves:
            filled |= 1 << s
            marked |= self.kmask_at[s][k]
            spent += self.cost[t][n][k]
        return self.score(filled, marked, self.P - spent)

    def score(self, filled: int, marked: int, passes: int) -> int:
        pts = sum(h for ls, lc, h in zip(self.line_st, self.line_cn, self.high) if ls & filled == ls and lc & marked == lc)
        pts += sum(h for zs, h in zip(self.zone_st, self.zone_high) if zs & filled == zs)
        return pts + self.pp * passes


class _Feasible:
    """Can the rolls complete stations ``RS`` and connections ``RC``? Depth-first, see the module."""

    def __init__(self, g: _Board, RS: int, RC: int, lines: int, deadline: float,
                 final: tuple[int, int, bool] | None = None):
        self.g, self.RS, self.RC, self.lines, self.deadline = g, RS | 1 << g.star, RC, lines, deadline
        self.final = final
        self.forbid: set[tuple[int, int]] = set()
        self.fs, self.fk, self.f_empty = final if final is not None else (-1, 0, False)
        if final is not None:
            fs, fk = self.fs, self.fk
            self.f_conns = g.kmask_at[fs][fk]
            self.f_lines = [(i, g.line_cn[i] & self.f_conns) for i in g.lines_at[fs] if lines >> i & 1]
            self.f_line_bits = lines & g.line_bits[fs]
            # the uses the final one forbids before it: any other of its station while that stays
            # empty; else the final use itself, and the use at the other end of its one
            # connection of the target (marking it would leave the final use nothing to complete)
            if self.f_empty:
                self.forbid = {(fs, k) for k in g.secs[fs]}
            else:
                self.forbid = {(fs, fk)}
                ends = [o for bit, o in g.by_k[fs][fk] if bit & RC]
                if len(ends) == 1:
                    self.forbid.add((ends[0], fk))
        self.failed: dict[tuple, list] = {}  # (stations, connections) -> [(turn, numbers, passes)]
        self.top = 0  # the spare top bit of every field of every station
        for i in range(g.S * 6):
            self.top |= 1 << (FIELD * i + FIELD - 1)
        self.needs: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0
        self.cap: float = math.inf  # nodes, then _PlainCut (the plain search of a split target)
        self.disconnected = self.extra_stations(self.RS, 0) > 0

    def extra_stations(self, U: int, filled: int) -> int:
        """Stations outside ``U`` the star's connected part must still take to reach all of ``U``."""
        g = self.g
        U |= filled | 1 << g.star
        reach, d = 1 << g.star, 0
        while True:
            grow = reach
            while True:  # close within U (free)
                grow = g.around(grow) & U & ~reach
                if not grow:
                    break
                reach |= grow
            if U & ~reach == 0:
                return d
            new = g.around(reach) & ~reach
            if not new:
                return 10**6  # unreachable
            reach |= new
            d += 1

    def need(self, filled: int, marked: int, opened: int, left: int, hint: int = 0) -> int:
        """Turns still needed (admissible, see :mod:`.turns`); ``left + 1`` stands for "more".
        ``hint``: a lower bound known already (the parent's need less one: the parent's cover is
        the child's plus the use between them), where the deepening starts."""
        key = (filled, marked)
        got = self.needs.get(key)
        if got is not None and (got[0] <= got[1] or got[0] > left):
            return got[0]
        missing = self.RS & ~filled
        unopened = missing & ~opened & ~(1 << self.g.star) if filled else missing & ~(1 << self.g.star)
        self.g.turns.roots = filled | opened if filled else 1 << self.g.star
        if self.final is None:
            n = self.g.turns.needed(missing, self.RC & ~marked, unopened, left, hint)
        else:
            n = self.needed_final(missing, self.RC & ~marked, unopened, left, None, hint)
        if self.disconnected and missing and n <= left:
            n = max(n, missing.bit_count() + self.extra_stations(self.RS, filled))
        self.needs[key] = (n, left)
        return n

    def final_demands(self, edges: int, unopened: int, early: bool) -> list:
        """The demands of :meth:`Turns.demands` without the uses the final one forbids (it meets
        its own connections) and without the final use as an opener (every other station of the
        target is filled before it); ``early``: the final station's first use comes before it."""
        fs, fk = self.fs, self.fk
        forbid = self.forbid
        demands = [tuple(p for p in d if p == (fs, fk) or p not in forbid) for d in self.g.turns.demands(edges, 0)]
        bits = unopened
        at = self.g.at
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            demands.append(tuple((o, k) for _, k, o in at[s] if (o, k) != (fs, fk) and (o, k) not in forbid))
        if early:
            demands.append(tuple((fs, k) for k in self.g.secs[fs] if (fs, k) not in forbid))
        return demands

    def needed_final(self, missing: int, edges: int, unopened: int, cap: int, when, hint: int = 0) -> int | bool:
        """The turns needed with the final use ``(fs, fk)`` one of them (its station's free turn
        when it stays empty until then); with ``when``: is such a cover schedulable within ``cap``?"""
        fs, fk, empty = self.fs, self.fk, self.f_empty
        turns = self.g.turns
        early = not empty and bool(missing >> fs & 1)  # the station's first use is another
        if not empty:
            missing &= ~(1 << fs)
        demands = self.final_demands(edges, unopened, early)
        base = missing.bit_count() + (0 if empty else 1)
        if when is not None:
            turns.when, turns.missing_all, turns.leaves = when, missing, 0
            ok = turns._cover(demands, missing, {fs: 1 << fk}, cap - base)
            turns.when = None
            return ok or turns.leaves > LEAVES
        turns.when = None
        for extra in range(max(0, hint - base), cap - base + 1):
            if turns._cover(demands, missing, {fs: 1 << fk}, extra):
                return base + extra
        return cap + 1

    def run(self, passes: int) -> tuple | None:
        return self.go(0, 0, 0, 0, 0, 0, passes)

    def allows(self, filled: int, vecs: int, passes: int, s: int, k: int) -> int:
        """The turns whose roll allows a use of ``s`` with ``k`` sections (``k`` 0: any) within
        ``passes`` (a filled station: with one of its numbers still open)."""
        g = self.g
        if not filled >> s & 1:
            return g.free_ok[passes][k] if k else g.free_at[passes][s]
        vec = vecs >> WIDTH * s & MASK
        ok = g.num_ok
        out = 0
        for n in range(1, 7):
            v = vec >> FIELD * (n - 1) & 15
            if v <= passes:
                out |= ok[passes - v][n][k]
        return out

    def release(self, t: int, taken: int) -> list[int]:
        """Per station, the turns from the first that can use it on: a station ``d`` connections
        beyond the stations filled or open (``taken``) is opened by ``d`` uses in a row at
        least, so it is written in no sooner than ``d`` turns from now."""
        g = self.g
        out = [g.later[t]] * g.S
        reach, d = taken, 0
        while True:
            new = g.around(reach) & ~reach
            if not new:
                return out
            d += 1
            mask = g.later[min(t + d, g.T)]
            bits = new
            while bits:
                low = bits & -bits
                out[low.bit_length() - 1] = mask
                bits ^= low
            reach |= new

    def priced(self, filled: int, vecs: int, passes: int, s: int, k: int, turns: int) -> tuple[int, ...]:
        """For :class:`_PricedTurns`: among ``turns``, those allowing a use of ``s`` with ``k``
        sections within ``passes`` (:meth:`allows`), then per ``q`` below ``passes`` those where it
        costs at most ``q`` passes. A filled station's cost there is its cheapest number still
        open, without the extra its earlier uses already owe (``vecs``): that extra is owed once
        per station, not per use, so each use is charged no more than the rules charge it."""
        g = self.g
        full = self.allows(filled, vecs, passes, s, k) & turns
        if not passes or not full:
            return (full,) * (passes + 1)
        if not filled >> s & 1:
            ok = g.free_ok if k else None
            return (full, *((ok[q][k] if ok is not None else g.free_at[q][s]) & full for q in range(passes)))
        vec = vecs >> WIDTH * s & MASK
        nums = [n for n in range(1, 7) if vec >> FIELD * (n - 1) & 15 <= passes]
        out = [full]
        for q in range(passes):
            m = 0
            for n in nums:
                m |= g.num_ok[q][n][k]
            out.append(m & full)
        return tuple(out)

    def schedulable(self, t, filled, marked, opened, vecs, passes, left) -> bool:
        """The turns needed, with the dice: each pair of the cover needs its own turn whose roll
        allows it within the passes left (a filled station: with one of its numbers still open)."""
        g = self.g
        later = g.later[t]

        release = self.release(t, filled | opened if filled else 1 << g.star)

        def when(s: int, k: int) -> tuple[int, ...]:
            return self.priced(filled, vecs, passes, s, k, later & release[s])

        missing = self.RS & ~filled
        unopened = missing & ~opened & ~(1 << g.star) if filled else missing & ~(1 << g.star)
        g.turns.passes = passes
        g.turns.roots = filled | opened if filled else 1 << g.star
        return g.turns.schedulable(missing, self.RC & ~marked, unopened, left, when)  # type: ignore[arg-type]

    def schedulable_final(self, t, filled, marked, opened, vecs, passes, final_ok) -> bool:
        """:meth:`schedulable` with the final use on one of the turns ``final_ok`` and every
        other turn of the cover before the last of them."""
        g = self.g
        fs, fk = self.fs, self.fk
        last = final_ok.bit_length() - 1
        before = g.later[t] & ((1 << last) - 1)

        release = self.release(t, filled | opened if filled else 1 << g.star)

        def when(s: int, k: int) -> tuple[int, ...]:
            return self.priced(filled, vecs, passes, s, k, (final_ok if s == fs and k == fk else before) & release[s])

        missing = self.RS & ~filled
        unopened = missing & ~opened & ~(1 << g.star) if filled else missing & ~(1 << g.star)
        g.turns.passes = passes
        g.turns.roots = filled | opened if filled else 1 << g.star
        return bool(self.needed_final(missing, self.RC & ~marked, unopened, last - t + 1, when))

    def last_use(self, todo: int, filled: int, marked: int, vecs: int, passes: int, turns: int, last: int) -> bool:
        """The end rule: completing the target ends the game, and at most ``lines_to_end - 1``
        lines are complete before its last use, so that use (one station ``s``, one section count
        ``k``) completes at least ``last`` of the target's open lines ``todo``. Each still misses
        ``s`` or one of its connections at ``s`` with ``k`` sections (it is open until then, and
        that use adds nothing else). The other turns needed come first, so that use falls in
        ``turns`` (from now + turns needed - 1 on), on a roll reading ``s``'s number (if written)
        and ``k`` within the passes left. Is there such a use?"""
        g = self.g
        for s in range(g.S):
            if not filled >> s & 1:
                if (todo & g.line_bits[s]).bit_count() >= last and g.free_at[passes][s] & turns:
                    return True
                continue
            vec = vecs >> WIDTH * s & MASK
            for k, per in g.line_conns_at[s].items():
                if sum(1 for i, cm in per if todo >> i & 1 and cm & ~marked) >= last:
                    for n in range(1, 7):
                        v = vec >> FIELD * (n - 1) & 15
                        if v <= passes and g.num_ok[passes - v][n][k] & turns:
                            return True
        return False

    def final_possible(self, t, filled, marked, opened, vecs, complete, passes, need) -> bool:
        """With the final use fixed: enough of the target's lines still open for it to complete,
        a turn left that allows it, and the other turns needed before that turn."""
        g = self.g
        fs, fk, empty = self.fs, self.fk, self.f_empty
        open_lines = self.lines & ~complete
        if empty:
            if filled >> fs & 1:
                return False
            can = (open_lines & self.f_line_bits).bit_count()
        else:
            can = sum(1 for i, cm in self.f_lines if open_lines >> i & 1 and cm & ~marked)
        if self.lines.bit_count() - can + (complete & ~self.lines).bit_count() > g.target - 1:
            return False
        final_ok = self.allows(filled, vecs, passes, fs, fk) & g.later[t]
        if not final_ok:
            return False
        room = final_ok.bit_length() - t  # turns t .. the last allowing the final use
        if need > room:
            return False
        if need >= room - SCHEDULE_SLACK:
            return self.schedulable_final(t, filled, marked, opened, vecs, passes, final_ok)
        return True

    def worthy(self, x: int, taken: int) -> bool:
        """Is opening empty station ``x`` worth a use? It is not when it is open already, or
        outside the target with every neighbour filled or open (writing it could open nothing:
        such uses are skipped uses, see the module). ``taken``: the stations filled or open."""
        return not taken >> x & 1 and bool(self.RS >> x & 1 or self.g.nbr[x] & ~taken)

    def opens(self, new: int, s: int, k: int, taken: int) -> bool:
        """Does marking ``new`` (the use of ``s`` with ``k`` sections) open a station worth it?"""
        for bit, o in self.g.by_k[s][k]:
            if new & bit and self.worthy(o, taken):
                return True
        return False

    def relevant(self, s: int, marked: int, taken: int) -> bool:
        """Can station ``s`` still have a use that is not skipped: an unmarked connection of the
        target, or one to a station worth opening?"""
        RC = self.RC
        for c, _, o in self.g.at[s]:
            if not marked >> c & 1 and (RC >> c & 1 or self.worthy(o, taken)):
                return True
        return False

    def forget(self, vecs: int, filled: int, marked: int, taken: int) -> int:
        """``vecs`` with the numbers of stations that can have no more uses forgotten (all 0)."""
        bits = filled
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            if vecs >> WIDTH * s & MASK and not self.relevant(s, marked, taken):
                vecs &= ~(MASK << WIDTH * s)
        return vecs

    def go(self, t, filled, marked, opened, vecs, complete, passes, hint=0):
        """The uses ``((turn, station, sections), ...)`` completing the target, or None. ``vecs``
        holds per filled station the passes each number 1-6 would have cost it beyond the
        cheapest (``NO``: over the passes left; all 0: the number no longer matters)."""
        g = self.g
        self.nodes += 1
        if self.nodes > self.cap:
            raise _PlainCut
        g.tick()
        RS, RC = self.RS, self.RC
        left = g.T - t
        need = self.need(filled, marked, opened, left, hint)
        if need > left:
            return None
        key = (filled, marked)
        if self.dominated(key, t, vecs, passes):
            return None
        if self.final is not None:
            if not self.final_possible(t, filled, marked, opened, vecs, complete, passes, need):
                self.fail(key, t, vecs, passes)
                return None
        else:
            if need >= left - SCHEDULE_SLACK and not self.schedulable(t, filled, marked, opened, vecs, passes, left):
                self.fail(key, t, vecs, passes)
                return None
            todo = self.lines & ~complete
            last = todo.bit_count() + complete.bit_count() - (g.target - 1)
            if last > 0 and not self.last_use(todo, filled, marked, vecs, passes, g.later[t + need - 1], last):
                self.fail(key, t, vecs, passes)
                return None
        cost = g.cost[t]
        moves = []
        taken = filled | opened
        # empty stations at the end of a marked connection (turn 1: the star); outside the
        # target, only a use that opens a station worth it
        bits = opened if filled else 1 << g.star
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            for k in g.secs[s]:
                new = g.kmask_at[s][k] & ~marked
                if RS & low or self.opens(new, s, k, taken):
                    moves.append(((40 if RS & low else 0) + 8 * (new & RC).bit_count() + (new & ~RC).bit_count(),
                                  s, k, low, new, ZERO))
        # filled stations: only uses that mark a connection of the target or open a station worth it
        bits = filled
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            vec = vecs >> WIDTH * s & MASK
            for k in g.secs[s]:
                new = g.kmask_at[s][k] & ~marked
                if new and (new & RC or self.opens(new, s, k, taken)):
                    moves.append((8 * (new & RC).bit_count() + (new & ~RC).bit_count(), s, k, 0, new, vec))
        moves.sort(key=lambda mv: -mv[0])
        for _, s, k, low, new, vec in moves:
            # the passes each number would cost with this use: charge the cheapest now, keep the rest
            tot = [(vec >> FIELD * (n - 1) & 15) + cost[n][k] for n in range(1, 7)]
            c = min(tot)
            if c > passes:
                continue
            room = passes - c
            f2 = filled | low
            m2 = marked | new
            op2 = opened & ~low
            for bit, o in g.by_k[s][k]:
                if new & bit and not f2 >> o & 1:
                    op2 |= 1 << o
            code = 0
            for n in range(6):
                code |= (tot[n] - c if tot[n] - c <= room else NO) << FIELD * n
            v2 = self.forget(vecs & ~(MASK << WIDTH * s) | code << WIDTH * s, f2, m2, f2 | op2)
            comp = complete
            for i in g.lines_at[s]:
                if not comp >> i & 1 and g.line_st[i] & f2 == g.line_st[i] and g.line_cn[i] & m2 == g.line_cn[i]:
                    comp |= 1 << i
            if RS & f2 == RS and RC & m2 == RC:
                return ((t, s, k),)
            if (s, k) in self.forbid:
                continue  # before the final use (this is not it: the target is still open)
            if comp.bit_count() >= g.target:
                continue  # the game ends after this turn, the target still open
            got = self.go(t + 1, f2, m2, op2, v2, comp, room, need - 1)
            if got is not None:
                return ((t, s, k), *got)
        if need < left:  # a turn without a use (before the first use too: turn 1 may pass)
            got = self.go(t + 1, filled, marked, opened, vecs, complete, passes, need)
            if got is not None:
                return got
        self.fail(key, t, vecs, passes)
        return None

    def dominated(self, key: tuple, t: int, vecs: int, passes: int) -> bool:
        """Did a position with these stations and connections fail at this turn or an earlier
        one, with at least these passes and every number at most as dear (its plays include
        these: a play from turn ``t`` is one from an earlier turn that passes the turns between)?"""
        top = self.top
        for te, v, p in self.failed.get(key, ()):
            if te <= t and p >= passes and ((vecs | top) - v) & top == top:
                return True
        return False

    def fail(self, key: tuple, t: int, vecs: int, passes: int) -> None:
        self.failed.setdefault(key, []).append((t, vecs, passes))


class _PlainCut(Exception):
    """The plain search of a target ran past :data:`PLAIN_NODES`: the split search takes over."""


class _Target:
    """The feasibility search of one target. When the end rule binds (the last use must complete
    two or more of its lines at once), the plain search runs first for :data:`PLAIN_NODES`
    nodes (most targets are settled in a few hundred); past that, the search split by the final
    use (station, sections, and whether the station stays empty until then) takes over, whose
    checks are stronger but cost more per target. Both are exact: which one answers changes only
    the time."""

    def __init__(self, g: _Board, RS: int, RC: int, lines: int, deadline: float):
        self.g, self.RS, self.RC, self.lines, self.deadline = g, RS, RC, lines, deadline
        self.plain: _Feasible | None = _Feasible(g, RS, RC, lines, deadline)
        self.split: list[_Feasible] | None = None
        self.binds = lines.bit_count() - (g.target - 1) >= 2

    def finals(self) -> list[_Feasible]:
        g, lines = self.g, self.lines
        last = lines.bit_count() - (g.target - 1)
        out = []
        for s in range(g.S):
            through = lines & g.line_bits[s]
            if through.bit_count() < last:
                continue
            for k in g.secs[s]:
                via = sum(1 for i in g.lines_at[s] if through >> i & 1 and g.line_cn[i] & g.kmask_at[s][k])
                for empty in (True, False):
                    if (s == g.star if empty else via < last):
                        continue  # the star is filled first; too few lines through the connections
                    out.append(_Feasible(g, self.RS, self.RC, lines, self.deadline, final=(s, k, empty)))
        return out

    @property
    def nodes(self) -> int:
        return (self.plain.nodes if self.plain else 0) + sum(f.nodes for f in self.split or ())

    def run(self, passes: int) -> tuple | None:
        if self.plain is not None:
            if not self.binds:
                return self.plain.run(passes)
            self.plain.cap = self.plain.nodes + PLAIN_NODES
            try:
                return self.plain.run(passes)
            except _PlainCut:
                self.plain = None
        if self.split is None:
            self.split = self.finals()
        for f in self.split:
            got = f.run(passes)
            if got is not None:
                return got
        return None


def numbered(g: _Board, uses: tuple) -> tuple[tuple[int, int, int, int], ...]:
    """The uses as moves ``(turn, station, number, sections)``: each station takes the number
    costing it fewest passes over all its uses (the total the search charged)."""
    at: dict[int, list] = {}
    for t, s, k in uses:
        at.setdefault(s, []).append((t, k))
    number = {s: min(range(1, 7), key=lambda n: (sum(g.cost[t][n][k] for t, k in us), n)) for s, us in at.items()}
    return tuple((t, s, number[s], k) for t, s, k in sorted(uses))


def _award_sets(g: _Board, edition: Edition):
    """(points, stations, connections, lines) of every set of lines and zones, most points first."""
    b = edition.board
    items = [(h, ls, lc, 1) for h, ls, lc in zip(g.high, g.line_st, g.line_cn)]
    items += [(h, zs, 0, 0) for h, zs in zip(g.zone_high, g.zone_st)]
    out = []
    for r in range(len(items) + 1):
        for combo in combinations(range(len(items)), r):
            pts = sum(items[i][0] for i in combo)
            RS = RC = lines = 0
            for i in combo:
                RS |= items[i][1]
                RC |= items[i][2]
                if items[i][3]:
                    lines |= 1 << i
            out.append((pts, RS | 1 << b.star, RC, lines))
    out.sort(key=lambda x: -x[0])
    return out


def _end_rule_allows(g: _Board, lines: int) -> bool:
    """At most ``target - 1`` lines are complete before the last turn, whose use (at one station)
    completes only lines through it."""
    if lines.bit_count() < g.target:
        return True
    return any((lines & ~at).bit_count() <= g.target - 1 for at in g.line_bits_at)


def best_sequence(edition: Edition, rolls: tuple[tuple[int, ...], ...], time_limit: float = 10.0,
                  work: float = math.inf, progress: Progress | None = None) -> ModelResult:
    """The best solo score for ``rolls``; OPTIMAL with a proof, else FEASIBLE with the bound.
    ``time_limit``: wall-clock seconds; ``work``: a deterministic budget (nodes + cover steps;
    the same rolls give the same answer on any machine when it, not the clock, ends the search)."""
    start = time.perf_counter()
    deadline = start + time_limit
    g = _Board(edition, rolls)
    g.turns.deadline = g.deadline = deadline
    g.work_cap = g.turns.step_cap = work  # the steps alone past it: the cover search stops too
    P, pp = g.P, g.pp
    best = pp * P
    moves: tuple[tuple[int, int, int, int], ...] = ()  # no use at all
    bound = best
    if progress is not None:
        g.report = lambda n: progress.update(best=best, bound=bound, nodes=n)
    if len(edition.lines) + len(edition.zones) > MAX_AWARDS or P >= NO:
        trivial = sum(g.high) + sum(g.zone_high) + pp * P
        return ModelResult("FEASIBLE", best, float(trivial), (), time.perf_counter() - start)
    # the sets worth trying, most points first; each set's search is asked within a node cap,
    # and a set it does not settle waits for the next round (cap x ROUND_GROWTH) while the sets
    # below it are tried: a good score comes early even when one set is hard to refute, and the
    # bound is the best set still open. Each set's search keeps its memo between rounds.
    todo = [[pts, RS, RC, lines, None] for pts, RS, RC, lines in _award_sets(g, edition)
            if pts + pp * P > best and (RS | 1 << g.star).bit_count() <= g.T and _end_rule_allows(g, lines)]
    cap = FIRST_CAP
    try:
        while todo:
            bound = max(best, todo[0][0] + pp * P)
            if bound <= best:
                break
            waiting = []
            for item in todo:
                pts, RS, RC, lines, search = item
                if pts + pp * P <= best:
                    continue  # settled by the score found meanwhile (the list is sorted: so are the rest)
                if search is None:
                    search = item[4] = _Target(g, RS, RC, lines, deadline)
                g.set_cap = g.nodes + cap
                try:
                    while pts + pp * P > best:
                        budget = P if pp == 0 else min(P, (pts + pp * P - best - 1) // pp)
                        found = search.run(budget)
                        if found is None:
                            break
                        moves = numbered(g, found)
                        score = g.play(moves)
                        assert score > best, (score, best)
                        best = score
                except _SetCut:
                    waiting.append(item)
                bound = max([best] + [w[0] + pp * P for w in waiting] + [pts + pp * P])
            todo = waiting
            cap *= ROUND_GROWTH
            g.set_cap = math.inf
        bound = best
    except (_Timeout, TimeoutError):
        return ModelResult("FEASIBLE", best, float(max(bound, best)), moves, time.perf_counter() - start,
                           g.work() / WORK_PER_SECOND)
    return ModelResult("OPTIMAL", best, float(best), moves, time.perf_counter() - start, g.work() / WORK_PER_SECOND)
