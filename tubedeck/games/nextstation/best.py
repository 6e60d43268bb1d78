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

A time limit only guards: a search cut short reports FEASIBLE (:func:`best_round` with the root
bound, :func:`best_response` with none), never a verdict.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

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
        self.products: dict[tuple[int, int], int] = {}  # (turn, stations) -> product bound
        self.caps: list[dict[int, int]] = [{} for _ in range(len(turns) + 1)]  # per turn: left -> cap
        self.seen: dict[int, int] = {}  # sections of the line -> earliest turn it was searched from
        self.best: float = -1
        self.best_draws: tuple[tuple[int, str, str], ...] | None = ()  # None: no line beats best_response's floor
        self.nodes = 0
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
        product = self.products.get((t, on))
        if product is None:
            product = self.products[t, on] = self.product_bound(t, r, on, counts)
        th = min(r, (self.thames_mask & ~unusable).bit_count())
        value: float = product + self.points * (thames + th)
        if self.valued:  # each turn adds at most one station: the best bonuses, a site
            sites = (on & self.tour).bit_count() + min(r, (self.tour & ~on).bit_count())
            value += self.extra + min(self.top[r], self.tail[t]) + self.tour_gain[min(sites, len(self.tour_gain) - 1)]
        return value

    def cap(self, t: int, left: int) -> int:
        """Stations a district whose unvisited stations are ``left`` can still gain from turn t."""
        n = self.caps[t].get(left)
        if n is None:
            n = self.caps[t][left] = min(sum(1 for m in self.match[t:] if left & m), left.bit_count())
        return n

    def product_bound(self, t: int, r: int, on: int, counts: list[int]) -> int:
        """The most districts x biggest district the line can reach from here (see the module).
        The search's hot spot (a third of a best response): plain comparisons, not min/max calls."""
        free = ~on
        caps = self.caps[t]
        most_at = [0] * (r + 2)  # most_at[k]: the most stations of a visited district that can gain k
        visited = openable = new_cap = big = 0
        for dm, c in zip(self.dist_mask, counts):
            left = dm & free
            if left:
                cap = caps.get(left)
                if cap is None:
                    cap = self.cap(t, left)
            else:
                cap = 0
            if c:
                visited += 1
                if c > big:
                    big = c
                k = cap if cap < r else r
                if c > most_at[k]:
                    most_at[k] = c
            elif cap:
                openable += 1
                if cap > new_cap:
                    new_cap = cap
        for k in range(r - 1, -1, -1):
            if most_at[k + 1] > most_at[k]:
                most_at[k] = most_at[k + 1]
        best = (visited + (r if r < openable else openable)) * big
        for a in range(1, r + 1):
            if most_at[a]:  # a visited district gains a stations, other turns open districts
                grown, rest = most_at[a] + a, r - a
                value = (visited + (rest if rest < openable else openable)) * (grown if grown > big else big)
                if value > best:
                    best = value
            if a <= new_cap:  # an unvisited district becomes the biggest
                rest = r - a if r - a < openable - 1 else openable - 1
                value = (visited + 1 + rest) * (a if a > big else big)
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

        The hot loop of every round search: :meth:`score` and :meth:`bound` are inlined here
        (the same figures); ``draws`` holds (turn, from, to) as station indices, named only when
        a line is kept."""
        if self.cut:
            return
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            self.cut = True
            return
        seen = self.seen
        prev = seen.get(line_secs)
        if prev is not None and prev <= t:
            return  # searched from an earlier or equal turn: every continuation from here too
        seen[line_secs] = t
        valued = self.valued
        districts = len(counts) - counts.count(0)
        biggest = max(counts)
        score = districts * biggest + self.points * thames + self.extra
        if valued:
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
        turns = self.turns
        n = len(turns)
        if t >= n:
            return
        unusable = secs | blocked
        dist_of, incident = self.dist_of, self.incident
        prune = self.prune
        if prune:  # the bound's parts that do not change with the turn
            products = self.products
            th_free = (self.thames_mask & ~unusable).bit_count()
            points = self.points
            if valued:
                sites_on = (on & self.tour).bit_count()
                sites_free = (self.tour & ~on).bit_count()
                last_gain = len(self.tour_gain) - 1
        collect = self.collect is not None
        match_of = self.match
        bonus, enter, pen, cross = self.bonus, self.enter, self.pen, self.cross
        for tt in range(t, n):  # draw on turn tt, having passed t .. tt - 1
            if prune:  # (self.bound, inlined) fewer turns left can only lower the bound
                r = n - tt
                product = products.get((tt, on))
                if product is None:
                    product = products[tt, on] = self.product_bound(tt, r, on, counts)
                bound = product + points * (thames + (r if r < th_free else th_free))
                if valued:
                    sites = sites_on + (r if r < sites_free else sites_free)
                    top, tail = self.top[r], self.tail[tt]
                    bound += self.extra + (top if top < tail else tail) + \
                        self.tour_gain[sites if sites < last_gain else last_gain]
                if bound <= self.best:
                    return
            switch = turns[tt].switch
            match = match_of[tt]
            moves = []
            for u in order:
                if not switch and degree[u] > 1:
                    continue
                for i, v, vb, th in incident[u]:
                    if vb & on or not vb & match or (1 << i) & unusable:
                        continue
                    moves.append((-(counts[dist_of[v]] + 2 * th), u, v, vb, i, th))
            # the most promising first: a station in an already big district, a Thames section
            # (a stable sort: ties keep the listing order)
            moves.sort(key=_first)
            for _, u, v, vb, i, th in moves:
                bit = 1 << i
                d = dist_of[v]
                counts[d] += 1
                degree[u] += 1
                degree[v] += 1
                order.append(v)
                draws.append((tt, u, v))
                if collect:
                    self.code.extend((tt, u, v))
                step = (bonus[v] + enter.get((i, v), 0) - pen[i] if enter else bonus[v] - pen[i]) if valued else 0
                self.extra += step
                self.go(tt + 1, on | vb, order, line_secs | bit, secs | bit, blocked | cross[i], counts,
                        degree, thames + th, draws)
                self.extra -= step
                if collect:
                    del self.code[-3:]
                draws.pop()
                order.pop()
                degree[v] -= 1
                degree[u] -= 1
                counts[d] -= 1


def _first(move: tuple) -> int:
    return move[0]


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
