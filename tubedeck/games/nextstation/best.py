"""The best single round by depth-first branch and bound: exact, and fast enough to answer at once.

It lives with the rules, not in ``solver/``, because a generated map is accepted on its par
(:mod:`.generate`); ``solve nextstation --engine auto`` and the whole-game model use it too.

The same rules as the engine (:func:`tubedeck.games.nextstation.lines.legal_sections`): a section
starts at an end of the line (a station with at most one of its sections), at any station of the
line on a Railroad Switch's turn; it reaches a station of the turn's symbol along a potential
section not drawn and not crossing a drawn one; no station twice; drawing is optional. Stations
and sections are bits of Python ints, so a move is a few ``&`` and ``|``.

**Why it is exact.** The score a line can still reach depends only on the sections drawn and the
turn (they fix the stations, the ends and the crossings). A position (line, turn t) searches the
line's next section on turn t and, having passed, on every later turn; so a line met again at an
equal or later turn was already searched at least as widely: it is skipped. A position is also
cut when its **upper bound** cannot beat the best line found so far (the bound never grows as
turns pass, so neither can a later turn's). The bound
(:meth:`RoundSearch.bound`) is admissible: each remaining turn adds at most one station and one Thames
section; a district gains at most as many stations as it has unvisited stations *and* remaining
turns whose symbol one of them shows; the biggest district is tried as each district in turn with
every number of stations it could gain, the other turns opening unvisited districts that could
still gain a station (each one turn); at most as many Thames sections as remain undrawn and
uncrossed. Every line found is scored with :func:`.scoring.line_score` itself.

**Why it is fast.** Most positions are cut at once, so each is visited in its parent's loop (no
call): counted, skipped if seen, scored, its bound checked; only those that pass are searched
further. The product part of the bound is tried first in its plain form: with n districts, the
biggest of m stations and r turns left, each turn opens a district or adds to the biggest as if
every district had room (the most of ``(n + r - a) x (m + a)``, in closed form). It is never
lower than the capped product, so it cuts nothing the capped one would not, and it makes nearly
all of its cuts. The capped one, where needed, maximises each option in closed form over the
visited districts alone (the unvisited ones depend only on which are visited: memoised). When
lines are scored in whole numbers (a round's score), a line the plain bound cuts is neither
scored nor marked seen: its score is no more than its bound, and met again it is cut again. The
cuts are the same as trying every option turn by turn, so the positions searched, their count
(the deterministic budget's unit) and the line found are too.

A time limit only guards: a search cut short reports FEASIBLE (:func:`best_round` with the root
bound, :func:`best_response` with none), never a verdict.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from operator import itemgetter

from .board import Board
from .flips import Turn
from .rules import RuleBook
from .scoring import line_score


@dataclass(frozen=True)
class RoundResult:
    status: str  # OPTIMAL, FEASIBLE, UNKNOWN
    score: int | None  # the best line found
    bound: int | None  # the proven upper bound
    draws: tuple[tuple[int, str, str], ...]  # (turn index, from, to) of the best line found
    stations: tuple[str, ...]
    wall: float

    def as_dict(self) -> dict:
        return {"status": self.status, "score": self.score, "bound": self.bound,
                "draws": [{"turn": t + 1, "from": u, "to": v} for t, u, v in self.draws],
                "stations": list(self.stations), "seconds": round(self.wall, 4)}


class RoundSearch:
    def __init__(self, board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
                 drawn: frozenset[int], deadline: float):
        self.board, self.book, self.turns, self.deadline = board, book, turns, deadline
        self.points = book.rules.thames_points
        ids = [s.id for s in board.stations]
        self.ids = ids
        idx = {s: k for k, s in enumerate(ids)}
        districts = sorted({s.district for s in board.stations})
        self.dist_of = [districts.index(s.district) for s in board.stations]
        self.dist_mask = [sum(1 << idx[s.id] for s in board.stations if s.district == d) for d in districts]
        self.match = [sum(1 << idx[v] for v in ids if board.matches(v, turn.symbol)) for turn in turns]
        self.cross = [sum(1 << j for j in board.crossing[i]) for i in range(len(board.sections))]
        self.thames_mask = sum(1 << sec.index for sec in board.sections if sec.thames)
        # incident[u]: (section index, other station, its bit, Thames) for each potential section
        self.incident = [[(sec.index, idx[sec.other(u)], 1 << idx[sec.other(u)], sec.thames)
                          for sec in board.incident[u]] for u in ids]
        # arcs[u]: the same as a move needs it: (section index, its bit, other station, its bit,
        # Thames, the sections it crosses, the other station's district, Thames sections it
        # takes or crosses)
        self.arcs = [[(i, 1 << i, v, vb, th, self.cross[i], self.dist_of[v],
                       ((1 << i | self.cross[i]) & self.thames_mask).bit_count())
                      for i, v, vb, th in inc] for inc in self.incident]
        # by a turn's stations (bits): arcs[u] cut to those reaching one of them (built when first
        # needed; the key is the stations, so a copy over other turns may share it)
        self.arcs_to: dict[int, list[list[tuple]]] = {}
        self.drawn = sum(1 << i for i in drawn)
        self.blocked0 = 0
        for i in drawn:
            self.blocked0 |= self.cross[i]
        self.dep = idx[departure]
        # The game's value of a line beyond its round score (best_response): a bonus per station
        # (interchange points it adds) and the tourist track's gain for k tourist sites on it.
        # Whole numbers for a round's score (best_round), fractional prices for a game's (best_response).
        self.bonus: list[float] = [0] * len(ids)
        self.tour = sum(1 << idx[s.id] for s in board.stations if s.tourist)
        self.tour_gain: list[float] = [0]
        self.top: list[float] = [0] * (len(turns) + 1)  # top[k]: the k largest bonuses together
        self.tail: list[float] = [0] * (len(turns) + 1)  # tail[t]: the largest bonus each turn from t on can reach
        self.pen: list[float] = [0] * len(board.sections)  # a price per section drawn (the whole game's bound)
        # a price for entering station v along section i, keyed (i, v): the column bound's cuts set it
        # (solver/nextstation/pricing.py); empty for the rules' own search
        self.enter: dict[tuple[int, int], float] = {}
        self.valued = False  # lines valued for a game (value_for_game): the bound adds their bonuses
        self.extra: float = 0  # bonuses of the line's stations
        self.products: list[dict[int, int]] = [{} for _ in range(len(turns) + 1)]  # per turn: stations -> product bound
        self.caps: list[dict[int, int]] = [{} for _ in range(len(turns) + 1)]  # per turn: left -> cap
        # per turn: districts visited (bits) -> (unvisited districts that can gain, their most)
        self.opens: list[dict[int, tuple[int, int]]] = [{} for _ in range(len(turns) + 1)]
        self.seen: dict[int, int] = {}  # sections of the line -> earliest turn it was searched from
        self.best: float = -1
        self.best_draws: tuple[tuple[int, str, str], ...] | None = ()  # None: no line beats best_response's floor
        self.nodes = 0
        self.node_limit: float = float("inf")  # positions: past it the search stops, cut
        self.cut = False
        self.trail: list[tuple[tuple[int, str, str], ...]] | None = None  # every better line met, if kept
        # every line worth more than ``best`` (left at a floor, never raised), if kept (every_line),
        # by its sections as bits, the first time met: its stations' indices in the order reached
        # and its draws (turn, from, to), each a byte (:func:`draws_of`): a few hundred bytes a line,
        # not a kilobyte of tuples, for rounds of millions
        self.collect: dict[int, tuple[bytes, bytes]] | None = None
        self.code = bytearray()  # the line's draws so far, a byte each of turn, from, to
        self.limit = 0  # the most lines collected: past it the search stops, cut
        self.prune = True  # False: no floor (every line listed), so no bound is worth computing

    def value_for_game(self, bonus: dict[str, float], gain: list[float], penalty: dict[int, float]) -> None:
        """Score lines by their value to the game: ``bonus[v]`` (not negative) per station v on the
        line, ``gain[k]`` (not decreasing) for k tourist sites on it, less ``penalty[i]`` (not
        negative) per section i drawn. The bound leaves penalties out: it stays an upper bound."""
        self.bonus = [bonus.get(v, 0) for v in self.ids]
        self.tour_gain = list(gain)
        self.pen = [penalty.get(i, 0) for i in range(len(self.pen))]
        self.valued = True
        best = sorted((b for k, b in enumerate(self.bonus) if k != self.dep), reverse=True)
        for k in range(1, len(self.top)):
            self.top[k] = self.top[k - 1] + max(best[k - 1], 0) if k <= len(best) else self.top[k - 1]
        for t in range(len(self.turns) - 1, -1, -1):  # a turn adds a station of its own symbol
            reach = [b for k, b in enumerate(self.bonus) if self.match[t] >> k & 1]
            self.tail[t] = self.tail[t + 1] + max(reach + [0])

    def _gain(self, on: int) -> float:
        return self.tour_gain[min((on & self.tour).bit_count(), len(self.tour_gain) - 1)]

    def score(self, counts: list[int], thames: int, on: int = 0) -> float:
        return sum(1 for c in counts if c) * max(counts) + self.points * thames + self.extra + self._gain(on)

    def bound(self, t: int, on: int, counts: list[int], thames: int, unusable: int) -> float:
        r = len(self.turns) - t
        product = self.products[t].get(on)
        if product is None:
            visited = tuple(d for d, c in enumerate(counts) if c)
            product = self.products[t][on] = self.product_bound(t, r, on, counts, visited, _mask(visited))
        th = min(r, (self.thames_mask & ~unusable).bit_count())
        value: float = product + self.points * (thames + th)
        if self.valued:  # each turn adds at most one station: the best bonuses, a site
            sites = (on & self.tour).bit_count() + min(r, (self.tour & ~on).bit_count())
            value += self.extra + min(self.top[r], self.tail[t]) + self.tour_gain[min(sites, len(self.tour_gain) - 1)]
        return value

    def cap(self, t: int, left: int) -> int:
        """Stations a district whose unvisited stations are ``left`` can still gain from turn t
        (at most the turns left)."""
        n = self.caps[t].get(left)
        if n is None:
            n = self.caps[t][left] = min(sum(1 for m in self.match[t:] if left & m), left.bit_count())
        return n

    def openable(self, t: int, vis: int) -> tuple[int, int]:
        """(how many, the most stations any can gain) of the districts not in ``vis`` (bits of
        district indices) that can still gain a station from turn t. An unvisited district's
        unvisited stations are all its stations, so this depends on the visited set alone."""
        got = self.opens[t].get(vis)
        if got is None:
            caps = [self.cap(t, dm) for d, dm in enumerate(self.dist_mask) if not vis >> d & 1]
            got = self.opens[t][vis] = (sum(1 for c in caps if c), max(caps, default=0))
        return got

    def product_bound(self, t: int, r: int, on: int, counts: list[int], visited: tuple[int, ...], vis: int) -> int:
        """The most districts x biggest district the line can reach from here (see the module):
        ``visited`` lists the districts with a station on the line (``vis`` as bits). The
        search's hot spot, so each way the product can grow is maximised in closed form
        (:func:`_peak`, checked against the plain maximum over every number of turns by the
        tests), over the visited districts alone (the unvisited ones are :meth:`openable`'s,
        memoised by the visited set)."""
        free = ~on
        caps = self.caps[t]
        got = self.opens[t].get(vis)
        openable, new_cap = self.openable(t, vis) if got is None else got
        n = len(visited)
        big = 0
        best = 0
        dist_mask = self.dist_mask
        for d in visited:
            c = counts[d]
            if c > big:
                big = c
            left = dist_mask[d] & free
            cap = caps.get(left)
            if cap is None:
                cap = self.cap(t, left)
            if cap:  # it gains a (1..cap) stations, the other turns open districts
                value = _peak(n, r, openable, c, cap)
                if value > best:
                    best = value
        value = (n + (r if r < openable else openable)) * big  # the biggest stays the biggest
        if value > best:
            best = value
        if new_cap:  # an unvisited district becomes the biggest with a (1..its cap) stations
            value = _peak(n, r + 1, openable, 0, new_cap if new_cap < r else r)
            if value > best:
                best = value
        return best

    def run(self) -> None:
        counts = [0] * len(self.dist_mask)
        counts[self.dist_of[self.dep]] = 1
        degree = [0] * len(self.ids)
        self.root_bound = self.bound(0, 1 << self.dep, counts, 0, self.drawn | self.blocked0)
        self.go(0, 1 << self.dep, [self.dep], 0, self.drawn, self.blocked0, counts, degree, 0, [])

    def go(self, t, on, order, line_secs, secs, blocked, counts, degree, thames, draws) -> None:
        """Search every continuation of this line from turn t on: its next section drawn on turn
        t, or on a later turn after passing (so the line with turn t is searched once, here).
        This is the position's own visit (counted, skipped if seen, scored); :meth:`_expand`
        searches its continuations and visits each one in the same way, inline."""
        if self.cut:
            return
        if self.nodes >= self.node_limit:
            self.cut = True
            return
        self.nodes += 1
        if not self.nodes & 1023:
            self._tick()
            if self.cut:
                return
        seen = self.seen
        prev = seen.get(line_secs)
        if prev is not None and prev <= t:
            return  # searched from an earlier or equal turn: every continuation from here too
        seen[line_secs] = t
        score = (len(counts) - counts.count(0)) * max(counts) + self.points * thames + self.extra
        if self.valued:
            score += self.tour_gain[min((on & self.tour).bit_count(), len(self.tour_gain) - 1)]
        if self.collect is not None:
            if score > self.best and line_secs not in self.collect:
                self.collect[line_secs] = (bytes(order), bytes(self.code))
                if len(self.collect) > self.limit:
                    self.cut = True
                    return
        elif score > self.best:
            ids = self.ids
            self.best, self.best_draws = score, tuple((d, ids[u], ids[v]) for d, u, v in draws)
            if self.trail is not None:
                self.trail.append(self.best_draws)
        if t < len(self.turns):
            visited = tuple(d for d, c in enumerate(counts) if c)
            self._expand(t, on, order, line_secs, secs, blocked, counts, degree, thames, draws, visited,
                         _mask(visited), False)

    def _tick(self) -> None:
        """Every 1024 positions: the deadline (a subclass may report progress here too)."""
        if time.perf_counter() > self.deadline:
            self.cut = True

    def _expand(self, t, on, order, line_secs, secs, blocked, counts, degree, thames, draws, visited, vis,
                checked) -> None:
        """The continuations of a position visited (:meth:`go`), t < the turns: for each turn tt
        from t, the bound (skipped for tt = t when ``checked``: the parent has just checked it),
        then each section drawn on turn tt. Each continuation is visited here as :meth:`go` visits
        a position (counted, skipped if seen, scored, and its own first bound checked), so the
        many cut at once cost no call: the hot loop of every round search, with :meth:`score`
        and :meth:`bound` inlined (the same figures); ``draws`` holds (turn, from, to) as station
        indices, named only when a line is kept."""
        turns = self.turns
        n = len(turns)
        unusable = secs | blocked
        arcs_to = self.arcs_to
        prune = self.prune
        valued = self.valued
        points = self.points
        thames_mask = self.thames_mask
        products, product_bound = self.products, self.product_bound
        if valued:
            tour, tour_gain, top_of, tail_of = self.tour, self.tour_gain, self.top, self.tail
            last_gain = len(tour_gain) - 1
            sites_on = (on & tour).bit_count()
            sites_free = (tour & ~on).bit_count()
        th_free = (thames_mask & ~unusable).bit_count()
        early = prune and not valued and not self.extra  # a whole-number score, at most the bound
        collect = self.collect is not None
        match_of = self.match
        bonus, enter, pen = self.bonus, self.enter, self.pen
        seen = self.seen
        limit = self.node_limit
        districts = len(visited)
        biggest = max(counts)
        for tt in range(t, n):  # draw on turn tt, having passed t .. tt - 1
            if prune and (tt > t or not checked):  # fewer turns left can only lower the bound
                r = n - tt
                rest = points * (thames + (r if r < th_free else th_free))
                if valued:
                    sites = sites_on + (r if r < sites_free else sites_free)
                    top, tail = top_of[r], tail_of[tt]
                    more = self.extra + (top if top < tail else tail) + \
                        tour_gain[sites if sites < last_gain else last_gain]
                a = (districts + r - biggest) // 2  # the plain product bound first (_plain, inlined)
                a = 0 if a < 0 else (r if a > r else a)
                plain = (districts + r - a) * (biggest + a)
                if (plain + rest + more if valued else plain + rest) <= self.best:
                    return
                product = products[tt].get(on)
                if product is None:
                    product = products[tt][on] = product_bound(tt, r, on, counts, visited, vis)
                if (product + rest + more if valued else product + rest) <= self.best:
                    return
            switch = turns[tt].switch
            match = match_of[tt]
            arcs = arcs_to.get(match)
            if arcs is None:
                arcs = arcs_to[match] = [[arc for arc in inc if arc[3] & match] for inc in self.arcs]
            moves = []
            for u in order:
                if not switch and degree[u] > 1:
                    continue
                for arc in arcs[u]:
                    if arc[3] & on or arc[1] & unusable:
                        continue
                    moves.append((-(counts[arc[6]] + 2 * arc[4]), u, arc))
            # the most promising first: a station in an already big district, a Thames section
            # (a stable sort: ties keep the listing order)
            moves.sort(key=_first)
            t1 = tt + 1
            r1 = n - t1
            if prune:
                products1 = products[t1]
            for _, u, (i, bit, v, vb, th, crossed, d, thames_lost) in moves:
                # the continuation's visit (go's, inline): counted, skipped if seen, scored
                nodes = self.nodes
                if nodes >= limit:
                    self.cut = True
                    return
                nodes += 1
                self.nodes = nodes
                if not nodes & 1023:
                    self._tick()
                    if self.cut:
                        return
                c = counts[d] + 1
                now = thames + th
                if valued:  # self.extra moves as it always has, + step and then - step around each
                    # continuation: the same rounding, so the same line and trail with prices in fractions
                    step = bonus[v] + enter.get((i, v), 0) - pen[i] if enter else bonus[v] - pen[i]
                    extra = self.extra + step
                    self.extra = extra - step
                else:
                    extra = self.extra
                if prune and t1 < n:  # the continuation's first bound (turn t1), as _expand would check it
                    if th_free - thames_lost > r1:  # Thames sections enough for every turn left
                        rest = points * (now + r1)
                    else:
                        left = (thames_mask & ~(unusable | bit | crossed)).bit_count()
                        rest = points * (now + (r1 if r1 < left else left))
                    # first the plain product bound (_plain, inlined: as if every district had
                    # room): no less than product_bound, so it cuts only what product_bound cuts,
                    # and nearly all of it (98% of the cuts), at a fraction of the cost
                    big1 = c if c > biggest else biggest
                    n1 = districts + (c == 1)
                    a = (n1 + r1 - big1) // 2
                    a = 0 if a < 0 else (r1 if a > r1 else a)
                    plain = (n1 + r1 - a) * (big1 + a)
                    if early and plain + rest <= self.best:
                        # cut before it is scored or marked seen: its score is a whole number no
                        # more than its bound, so nothing to keep; met again, at a later turn
                        # (or its own), it is cut again, so the same positions are counted
                        continue
                child = line_secs | bit
                prev = seen.get(child)
                if prev is not None and prev <= t1:
                    continue  # searched from an earlier or equal turn
                seen[child] = t1
                child_on = on | vb
                score = (districts + (c == 1)) * (c if c > biggest else biggest) + points * now + extra
                if valued:
                    here = (child_on & tour).bit_count()
                    score += tour_gain[here if here < last_gain else last_gain]
                if collect:
                    if score > self.best and child not in self.collect:  # type: ignore[operator]
                        self.collect[child] = (bytes(order) + bytes((v,)),  # type: ignore[index]
                                               bytes(self.code) + bytes((tt, u, v)))
                        if len(self.collect) > self.limit:  # type: ignore[arg-type]
                            self.cut = True
                            return
                elif score > self.best:
                    ids = self.ids
                    self.best = score
                    self.best_draws = tuple((k, ids[x], ids[y]) for k, x, y in draws) + ((tt, ids[u], ids[v]),)
                    if self.trail is not None:
                        self.trail.append(self.best_draws)
                if t1 >= n:
                    continue  # the round's end
                counts[d] = c
                if c == 1:  # a district opened
                    child_visited, child_vis = visited + (d,), vis | 1 << d
                else:
                    child_visited, child_vis = visited, vis
                if prune:
                    if valued:  # (scored first: a fraction; summed in the same order as bound, the same floats)
                        free = sites_free - 1 if vb & tour else sites_free
                        sites = here + (r1 if r1 < free else free)
                        top, tail = top_of[r1], tail_of[t1]
                        more = extra + (top if top < tail else tail) + \
                            tour_gain[sites if sites < last_gain else last_gain]
                        if plain + rest + more <= self.best:
                            counts[d] = c - 1
                            continue
                    product = products1.get(child_on)
                    if product is None:
                        product = products1[child_on] = product_bound(t1, r1, child_on, counts, child_visited,
                                                                      child_vis)
                    if (product + rest + more if valued else product + rest) <= self.best:
                        counts[d] = c - 1
                        continue
                degree[u] += 1
                degree[v] += 1
                order.append(v)
                draws.append((tt, u, v))
                if collect:
                    self.code.extend((tt, u, v))
                if valued:
                    self.extra = extra
                self._expand(t1, child_on, order, child, secs | bit, blocked | crossed, counts,
                             degree, now, draws, child_visited, child_vis, True)
                if valued:
                    self.extra -= step
                if collect:
                    del self.code[-3:]
                draws.pop()
                order.pop()
                degree[v] -= 1
                degree[u] -= 1
                counts[d] = c - 1
                if self.cut:
                    return


_first = itemgetter(0)  # a move's sort key


def _plain(n: int, r: int, big: int) -> int:
    """The plain product bound: the most of ``(n + r - a) * (big + a)`` over a = 0 .. r (each
    turn left opens a district or adds to the biggest, as if every district had room; its
    parabola peaks at ``(n + r - big) / 2``). No less than :meth:`RoundSearch.product_bound`
    (each of its options is at most this at a or a - 1), and nearly as sharp where the search
    cuts, so the search tries it first (inlined there)."""
    a = (n + r - big) // 2
    a = 0 if a < 0 else (r if a > r else a)
    return (n + r - a) * (big + a)


def _peak(n: int, r: int, openable: int, c: int, cap: int) -> int:
    """The most of ``(n + min(r - a, openable)) * (c + a)`` over a = 1 .. ``cap``: a district of
    c stations gaining a of the r turns left, the others each opening one more district (n
    districts already). As a function of a it rises while the openable districts outnumber the
    turns left (a <= r - openable), then is the parabola ``(n + r - a) * (c + a)`` (peak at
    ``(n + r - c) / 2``, an integer peak at its floor): so its most on 1 .. cap is at that
    integer peak brought into 1 .. cap. ``product_bound``'s options with the biggest district
    kept at least as big as now are each no more than the product kept as it is."""
    rise = r - openable  # the parabola from here on
    twice = n + r - c
    a = rise if twice <= 2 * rise else twice // 2
    if a < 1:
        a = 1
    elif a > cap:
        a = cap
    return (n + (r - a if r - a < openable else openable)) * (c + a)


def _mask(indices: tuple[int, ...]) -> int:
    return sum(1 << k for k in indices)


def line_of(board: Board, departure: str, draws) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A line's stations (the departure first, then in the order reached) and section indices,
    from its draws ``(turn, from, to)``."""
    stations = (departure,) + tuple(v for _, _, v in draws)
    return stations, tuple(board.section_between[frozenset((u, v))].index for _, u, v in draws)


def best_round(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
               drawn: frozenset[int] = frozenset(), time_limit: float = 30.0) -> RoundResult:
    """The best line for one round on a sheet where ``drawn`` sections already exist (as
    :func:`.model.best_round` returns it)."""
    t0 = time.perf_counter()
    s = RoundSearch(board, book, turns, departure, drawn, t0 + time_limit)
    s.run()
    draws = s.best_draws
    assert draws is not None  # only best_response's floor leaves no line: here the departure alone is one
    stations, secs = line_of(board, departure, draws)
    score = line_score(board, book, stations, secs).points
    assert score == s.best, (score, s.best)  # the incremental score is the rules' own
    wall = time.perf_counter() - t0
    if s.cut:  # (no game values here: the root bound is a whole number, int() only says so)
        return RoundResult("FEASIBLE", score, max(score, int(s.root_bound)), draws, stations, wall)
    return RoundResult("OPTIMAL", score, score, draws, stations, wall)


def best_response(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str, drawn: frozenset[int],
                  bonus: dict[str, float], gain: list[float], time_limit: float = 30.0,
                  penalty: dict[int, float] | None = None, floor: float | None = None,
                  entering: dict[tuple[str, int], float] | None = None,
                  trail: list[tuple[tuple[int, str, str], ...]] | None = None) -> tuple[float | None, RoundResult]:
    """The line with the most value to a game whose other lines are fixed: its round score, plus
    ``bonus[v]`` for each station v on it after the departure (the interchange points it adds),
    plus ``gain[k]`` for k tourist sites on it (the tourist track's rise), less ``penalty[i]`` per
    section i it draws, on a sheet where ``drawn`` (the other lines) exists. Exact by the same
    argument as :func:`best_round` (the bound adds, for the turns left, the largest bonuses, at most
    the best one each turn's symbol reaches, and the sites that could still be reached). Returns
    (value, the line). Fractional prices are fine (the research column bound, research/nextstation/columns.py). With a
    ``floor`` (a value some known line reaches), only lines worth more are searched for: if there is
    none, the value is None and the line the departure alone. ``entering[(v, i)]`` (not negative):
    a price for entering station v along section i (the column bound's cuts): the bound takes each
    station's dearest entry, a move its own. ``trail``: a list that gets the draws of every line
    the search met that beat the best before it (the last is the answer; column generation adds
    the others as well)."""
    t0 = time.perf_counter()
    s = RoundSearch(board, book, turns, departure, drawn, t0 + time_limit)
    s.trail = trail
    enter = entering or {}
    top: dict[str, float] = {}
    for (v, _), p in enter.items():
        top[v] = max(top.get(v, 0.0), p)
    s.value_for_game({v: bonus.get(v, 0) + top.get(v, 0) for v in {*bonus, *top}}, gain, penalty or {})
    if enter:
        s.bonus = [bonus.get(v, 0) for v in s.ids]  # a move's own value: its station and its entry
        idx = {v: k for k, v in enumerate(s.ids)}
        s.enter = {(i, idx[v]): p for (v, i), p in enter.items()}
    if floor is not None:
        s.best, s.best_draws = floor, None
    s.run()
    if s.best_draws is None:
        return None, RoundResult("FEASIBLE" if s.cut else "OPTIMAL", None, None, (), (departure,),
                                 time.perf_counter() - t0)
    draws = s.best_draws
    stations, secs = line_of(board, departure, draws)
    score = line_score(board, book, stations, secs).points
    sites = sum(board.by_id[v].tourist for v in stations)
    value = score + sum(bonus.get(v, 0) + enter.get((v, i), 0) for v, i in zip(stations[1:], secs)) \
        + gain[min(sites, len(gain) - 1)] - sum((penalty or {}).get(i, 0) for i in secs)
    assert abs(value - s.best) < 1e-6, (value, s.best)
    status = "FEASIBLE" if s.cut else "OPTIMAL"
    return value, RoundResult(status, score, None, draws, stations, time.perf_counter() - t0)


def draws_of(board: Board, code: bytes) -> tuple[tuple[int, str, str], ...]:
    """A listed line's draws (turn, from, to) from its bytes (:func:`line_table`)."""
    ids = board.stations
    return tuple((code[j], ids[code[j + 1]].id, ids[code[j + 2]].id) for j in range(0, len(code), 3))


def _collected(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str, drawn: frozenset[int],
               floor: float | None, limit: int, time_limit: float, valued: tuple | None = None
               ) -> list[tuple[int, bytes, bytes]] | None:
    """The search with its floor never raised: (sections as bits, stations' indices in the order
    reached, draws) of every line worth more than ``floor``, each line once, as bytes
    (:func:`line_table`); None past ``limit`` lines or ``time_limit``. ``valued``: (bonus, gain,
    penalty) as :meth:`RoundSearch.value_for_game`."""
    if len(board.stations) > 255 or len(turns) > 255:
        raise ValueError("listing lines needs at most 255 stations and turns (a byte each)")
    s = RoundSearch(board, book, turns, departure, drawn, time.perf_counter() + time_limit)
    if valued is not None:
        s.value_for_game(*valued)
    s.collect, s.limit, s.prune = {}, limit, floor is not None  # no floor: no bound worth computing
    s.best = -float("inf") if floor is None else floor
    s.run()
    if s.cut:
        return None
    return [(secs, order, code) for secs, (order, code) in s.collect.items()]


def every_line(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
               drawn: frozenset[int] = frozenset(), floor: float | None = None,
               bonus: dict[str, float] | None = None, gain: list[float] | None = None,
               penalty: dict[int, float] | None = None, limit: int = 2_000_000,
               time_limit: float = 600.0) -> list[tuple[tuple[int, str, str], ...]] | None:
    """The draws of **every** distinct line of the round (its set of sections, each once) worth
    more than ``floor`` (None: every line, the departure alone included), valued as
    :func:`best_response` values them (``bonus``, ``gain``, ``penalty``; none: the round score).
    The same search with its floor never raised, so its bound prunes only what cannot pass the
    floor. None if there are more than ``limit`` such lines or the ``time_limit`` cut it."""
    valued = None if bonus is None and gain is None and penalty is None else (bonus or {}, gain or [0], penalty or {})
    rows = _collected(board, book, turns, departure, drawn, floor, limit, time_limit, valued)
    return None if rows is None else [draws_of(board, code) for _, _, code in rows]


def line_table(board: Board, book: RuleBook, turns: tuple[Turn, ...], departure: str,
               limit: int = 5_000_000, time_limit: float = 600.0) -> list[tuple[int, bytes, bytes]] | None:
    """Every distinct line of the round on an empty sheet, compactly: (its sections as bits,
    the indices in ``board.stations`` of its stations in the order reached, a byte each, its
    draws as bytes: turn, from, to each a byte, :func:`draws_of`), each line once. None past
    ``limit`` lines or the ``time_limit``."""
    return _collected(board, book, turns, departure, frozenset(), None, limit, time_limit)
