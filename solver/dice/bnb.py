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
the search starts from that.)

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
* **memo**: a position (turn, stations, connections) that failed with ``p`` passes left and its
  numbers at given extra costs fails with fewer passes and numbers as dear or dearer (its plays
  are a subset);
* **end rule**: a use completes only lines through its station, and at most ``lines_to_end - 1``
  lines are complete before the last turn, so ``A``'s open lines outside one station's lines
  plus those complete must stay below ``lines_to_end``;
* **turns needed** (:mod:`.turns`, admissible): every missing station of ``A`` needs a turn
  there, every missing connection of ``A`` a turn at one of its ends with its sections, every
  missing station not yet opened a turn at a neighbour with the sections between them; each turn
  is one (station, sections) pair, so a play needs at least the cheapest such cover (exact, by
  iterative deepening) and, near the cut (a turn or none to spare), a cover whose pairs fit
  distinct remaining turns whose rolls allow them (a bipartite matching); for a target whose
  stations are not connected to the star, at least the stations outside ``A`` on the way.
  A position needing more turns than are left fails.

A time limit only guards: a search cut short reports FEASIBLE with the points of the best set
not yet refuted as its bound, never a verdict (:mod:`.solve` then hands the rest to CP-SAT).
"""

from __future__ import annotations

import time
from itertools import combinations

from tubedeck.games.dice.edition import Edition

from .model import ModelResult, pair_cost
from .turns import Turns

MAX_AWARDS = 16
SCHEDULE_SLACK = 1  # the dice-aware check of the turns needed runs with this many turns or fewer to spare
# per station: 6 numbers x 5 bits, each the extra passes (NO: too many) below a spare top bit,
# so one subtraction compares all fields (see _Feasible.dominated)
FIELD, NO = 5, 15
WIDTH = 6 * FIELD
MASK = (1 << WIDTH) - 1
ZERO = 0  # 2^16 award sets; a bigger map (another scope) goes to CP-SAT


class _Timeout(Exception):
    pass


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
        self.turns = Turns(m.at, m.ends, tuple(c.sections for c in b.connections))

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

    def __init__(self, g: _Board, RS: int, RC: int, lines: int, deadline: float):
        self.g, self.RS, self.RC, self.lines, self.deadline = g, RS | 1 << g.star, RC, lines, deadline
        self.failed: dict[tuple, list] = {}  # (turn, stations, connections) -> [(numbers, passes)]
        self.top = 0  # the spare top bit of every field of every station
        for i in range(g.S * 6):
            self.top |= 1 << (FIELD * i + FIELD - 1)
        self.needs: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0
        self.disconnected = self.extra_stations(self.RS, 0) > 0

    def extra_stations(self, U: int, filled: int) -> int:
        """Stations outside ``U`` the star's connected part must still take to reach all of ``U``."""
        g = self.g
        U |= filled | 1 << g.star
        reach, d = 1 << g.star, 0
        while True:
            grow = reach
            while True:  # close within U (free)
                new, bits = 0, grow
                while bits:
                    low = bits & -bits
                    new |= g.nbr[low.bit_length() - 1]
                    bits ^= low
                grow = new & U & ~reach
                if not grow:
                    break
                reach |= grow
            if U & ~reach == 0:
                return d
            new, bits = 0, reach
            while bits:
                low = bits & -bits
                new |= g.nbr[low.bit_length() - 1]
                bits ^= low
            new &= ~reach
            if not new:
                return 10**6  # unreachable
            reach |= new
            d += 1

    def need(self, filled: int, marked: int, opened: int, left: int) -> int:
        """Turns still needed (admissible, see :mod:`.turns`); ``left + 1`` stands for "more"."""
        key = (filled, marked)
        got = self.needs.get(key)
        if got is not None and (got[0] <= got[1] or got[0] > left):
            return got[0]
        missing = self.RS & ~filled
        unopened = missing & ~opened & ~(1 << self.g.star) if filled else missing & ~(1 << self.g.star)
        n = self.g.turns.needed(missing, self.RC & ~marked, unopened, left)
        if self.disconnected and missing and n <= left:
            n = max(n, missing.bit_count() + self.extra_stations(self.RS, filled))
        self.needs[key] = (n, left)
        return n

    def run(self, passes: int) -> tuple | None:
        return self.go(0, 0, 0, 0, 0, 0, passes)

    def schedulable(self, t, filled, marked, opened, vecs, passes, left) -> bool:
        """The turns needed, with the dice: each pair of the cover needs its own turn whose roll
        allows it within the passes left (a filled station: with one of its numbers still open)."""
        g = self.g
        later = g.later[t]
        free = g.free_ok[passes]
        ok = g.num_ok

        def when(s: int, k: int) -> int:
            if not filled >> s & 1:
                return (free[k] if k else g.free_at[passes][s]) & later
            vec = vecs >> WIDTH * s & MASK
            out = 0
            for n in range(1, 7):
                v = vec >> FIELD * (n - 1) & 15
                if v <= passes:
                    out |= ok[passes - v][n][k]
            return out & later

        missing = self.RS & ~filled
        unopened = missing & ~opened & ~(1 << g.star) if filled else missing & ~(1 << g.star)
        return g.turns.schedulable(missing, self.RC & ~marked, unopened, left, when)

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

    def relevant(self, s: int, filled: int, marked: int) -> bool:
        """Does station ``s`` have an unmarked connection of the target or to an empty station?"""
        for c, _, o in self.g.at[s]:
            if not marked >> c & 1 and (self.RC >> c & 1 or not filled >> o & 1):
                return True
        return False

    def go(self, t, filled, marked, opened, vecs, complete, passes):
        """The uses ``((turn, station, sections), ...)`` completing the target, or None. ``vecs``
        holds per filled station the passes each number 1-6 would have cost it beyond the
        cheapest (``NO``: over the passes left; all 0: the number no longer matters)."""
        g = self.g
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise _Timeout
        RS, RC = self.RS, self.RC
        left = g.T - t
        need = self.need(filled, marked, opened, left)
        if need > left:
            return None
        key = (t, filled, marked)
        if self.dominated(key, vecs, passes):
            return None
        if need >= left - SCHEDULE_SLACK and not self.schedulable(t, filled, marked, opened, vecs, passes, left):
            self.fail(key, vecs, passes)
            return None
        todo = self.lines & ~complete
        last = todo.bit_count() + complete.bit_count() - (g.target - 1)
        if last > 0 and not self.last_use(todo, filled, marked, vecs, passes, g.later[t + need - 1], last):
            self.fail(key, vecs, passes)
            return None
        cost = g.cost[t]
        moves = []
        # empty stations at the end of a marked connection (turn 1: the star)
        bits = opened if filled else 1 << g.star
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            for k in g.secs[s]:
                new = g.kmask_at[s][k] & ~marked
                moves.append(((40 if RS & low else 0) + 8 * (new & RC).bit_count() + (new & ~RC).bit_count(),
                              s, k, low, new, ZERO))
        # filled stations: only uses that mark a connection of the target or open a station
        bits = filled
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            vec = vecs >> WIDTH * s & MASK
            for k in g.secs[s]:
                new = g.kmask_at[s][k] & ~marked
                if not new:
                    continue
                useful = new & RC
                if not useful:
                    for bit, o in g.by_k[s][k]:
                        if new & bit and not filled >> o & 1:
                            useful = 1
                            break
                if useful:
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
            code = 0
            if self.relevant(s, f2, m2):  # else the number never matters again: all 0
                for n in range(6):
                    code |= (tot[n] - c if tot[n] - c <= room else NO) << FIELD * n
            v2 = vecs & ~(MASK << WIDTH * s) | code << WIDTH * s
            op2 = opened & ~low
            for bit, o in g.by_k[s][k]:
                if new & bit and not f2 >> o & 1:
                    op2 |= 1 << o
            comp = complete
            for i in g.lines_at[s]:
                if not comp >> i & 1 and g.line_st[i] & f2 == g.line_st[i] and g.line_cn[i] & m2 == g.line_cn[i]:
                    comp |= 1 << i
            if RS & f2 == RS and RC & m2 == RC:
                return ((t, s, k),)
            if comp.bit_count() >= g.target:
                continue  # the game ends after this turn, the target still open
            got = self.go(t + 1, f2, m2, op2, v2, comp, room)
            if got is not None:
                return ((t, s, k), *got)
        if need < left:  # a turn without a use (before the first use too: turn 1 may pass)
            got = self.go(t + 1, filled, marked, opened, vecs, complete, passes)
            if got is not None:
                return got
        self.fail(key, vecs, passes)
        return None

    def dominated(self, key: tuple, vecs: int, passes: int) -> bool:
        """Did a position with these stations and connections fail with at least these passes
        and every number at most as dear (its plays include these)?"""
        top = self.top
        for v, p in self.failed.get(key, ()):
            if p >= passes and ((vecs | top) - v) & top == top:
                return True
        return False

    def fail(self, key: tuple, vecs: int, passes: int) -> None:
        self.failed.setdefault(key, []).append((vecs, passes))


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


def best_sequence(edition: Edition, rolls: tuple[tuple[int, ...], ...], time_limit: float = 10.0) -> ModelResult:
    """The best solo score for ``rolls``; OPTIMAL with a proof, else FEASIBLE with the bound."""
    start = time.perf_counter()
    deadline = start + time_limit
    g = _Board(edition, rolls)
    g.turns.deadline = deadline
    P, pp = g.P, g.pp
    best = pp * P
    moves: tuple[tuple[int, int, int, int], ...] = ()  # no use at all
    bound = best
    if len(edition.lines) + len(edition.zones) > MAX_AWARDS or P >= NO:
        trivial = sum(g.high) + sum(g.zone_high) + pp * P
        return ModelResult("FEASIBLE", best, float(trivial), (), time.perf_counter() - start)
    try:
        for pts, RS, RC, lines in _award_sets(g, edition):
            bound = pts + pp * P
            if bound <= best:
                break
            if (RS | 1 << g.star).bit_count() > g.T or not _end_rule_allows(g, lines):
                continue
            search = _Feasible(g, RS, RC, lines, deadline)
            while pts + pp * P > best:
                budget = P if pp == 0 else min(P, (pts + pp * P - best - 1) // pp)
                found = search.run(budget)
                if found is None:
                    break
                moves = numbered(g, found)
                score = g.play(moves)
                assert score > best, (score, best)
                best = score
    except (_Timeout, TimeoutError):
        return ModelResult("FEASIBLE", best, float(max(bound, best)), moves, time.perf_counter() - start)
    return ModelResult("OPTIMAL", best, float(best), moves, time.perf_counter() - start)
