"""The ``planner`` bot: perfect-information Monte Carlo over the exact round search.

At each decision the bot deals the cards still face down again, ``samples`` times, in an order of
its own (:attr:`State.observation` gives them as a set; the bot sorts them and shuffles with its
seat's stream, so it never reads the deal's order). Each order fixes the rest of the round's turns.
Every legal action (the pass, each section, each Pencil Power use) is then valued, under each
sample, by the **best completion of the round** after it: the exact branch and bound of
:mod:`tubedeck.games.nextstation.best` run from the line as it stands, over the sampled turns. The
action with the best mean is played (ties: the first in :meth:`State.legal_actions`'s order, the
pass first).

A line is valued as the whole game values it, given the sheet's earlier lines
(:func:`tubedeck.games.nextstation.responses` prices them the same way): its round score, the
interchange points each of its stations adds and the tourist track's rise. The rounds to come are
not valued by default; the heuristics measured for them (benchmarks/RESULTS.md: none gained more
than its noise) stay as options, all off: :data:`BLOCK`, a price on each section drawn
(:func:`_penalties`: at the round's start the bot finds, with the same exact search, the best line
of each later pencil on the sheet as it stands in a few flip orders of its own, and a section
costs ``BLOCK`` points per such line's section it takes or crosses, in the share of those lines
that draw it; the search subtracts the price of every section it draws, its bound only the least
price of a way into each station, so it stays a bound); :data:`VISIT`, the interchange those
lines would make at a station; :data:`FUTURE` and :data:`SITES_AHEAD`. The last turn of a round
needs no sample.

Work is shared: samples whose remaining turns read the same (the same symbols, Switches and end)
are searched once and weighted; one search object per distinct sample serves every action (the
tables of the sampled turns and the bound's memo are kept between actions); the board's tables are
built once per board; the later lines once per round. Candidates are searched best bound first,
each under a floor below which it could no longer catch the best mean (:func:`plan`), so the
choice is the one a full search of every candidate makes.

The budget is in samples, not time (``planner:16``), so a seeded game is the same game on any
machine. Shared Objectives are not valued (the bot plays them as the base game); the searches
themselves use no Pencil Power, though the bot weighs a power's use among its actions now.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.best import RoundSearch, best_round
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn, turns_so_far
from tubedeck.games.nextstation.flips import turns as flip_turns
from tubedeck.games.nextstation.play import PASS, Line, State
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.play import Bot

from .players import power_moves

NAME = "planner"
DEFAULT_SAMPLES = 8
MAX_SAMPLES = 10_000
FUTURE = 0.0  # points per new station per round to come (see the module)
EPS = 1e-6  # values closer than this are equal (a tie goes to the first candidate)
BLOCK = 0.0  # points per later line's section (in share of its sampled best lines) a section drawn takes
VISIT = 0.0  # per later line's visit (in share of its sampled best lines): the interchange it would make
LATER_SAMPLES = 4  # flip orders per later pencil for _later_lines
GUARD = 60.0  # seconds: a round search takes well under one; this only guards
SITES_AHEAD = 0.0  # tourist sites the rounds to come are expected to cross, per round (see the module)


def parse_spec(name: str) -> int:
    """``planner`` -> :data:`DEFAULT_SAMPLES`, ``planner:32`` -> 32 samples; UsageError otherwise."""
    if name == NAME:
        return DEFAULT_SAMPLES
    text = name[len(NAME) + 1:] if name.startswith(NAME + ":") else ""
    if not text.isdigit() or not 1 <= int(text) <= MAX_SAMPLES:
        raise UsageError(f"--bots: {name!r}: the planner's budget is a whole number of samples, "
                         f"1-{MAX_SAMPLES} (as in planner:16)")
    return int(text)


class _Search(RoundSearch):
    """:class:`RoundSearch` over given turns, its board tables copied from a first one (they do not
    depend on the turns), started from a line already drawn (:meth:`complete`)."""

    @classmethod
    def over(cls, base: RoundSearch, turns: tuple[Turn, ...]) -> "_Search":
        s = cls.__new__(cls)
        s.__dict__.update(base.__dict__)
        s.turns = turns
        s.match = [base.symbol_masks[t.symbol] for t in turns]  # type: ignore[attr-defined]
        s.top = [0] * (len(turns) + 1)
        s.tail = [0] * (len(turns) + 1)
        s.products = [{} for _ in range(len(turns) + 1)]
        s.caps = [{} for _ in range(len(turns) + 1)]
        s.opens = [{} for _ in range(len(turns) + 1)]
        s.trail = s.collect = None
        return s

    def price(self, bonus: dict[str, float], gain: list[float], pen: dict[int, float], net: list[float]) -> None:
        """:meth:`value_for_game`, its bound then taking each station at ``net``: its bonus less
        the least penalty of a section into it (a station is entered along one: still a bound)."""
        self.value_for_game(bonus, gain, pen)
        best = sorted((b for k, b in enumerate(net) if k != self.dep), reverse=True)
        for k in range(1, len(self.top)):
            self.top[k] = self.top[k - 1] + max(best[k - 1], 0) if k <= len(best) else self.top[k - 1]
        for t in range(len(self.turns) - 1, -1, -1):
            reach = [b for k, b in enumerate(net) if self.match[t] >> k & 1]
            self.tail[t] = self.tail[t + 1] + max(reach + [0])

    def complete(self, floor: float | None, on: int, order: list[int], line_secs: int, secs: int, blocked: int,
                 counts: list[int], degree: list[int], thames: int, extra: float) -> float | None:
        """The most the line can be worth at the round's end (the exact search from here); with a
        ``floor``, None when no completion is worth more than it."""
        self.seen = {}
        if floor is None:
            self.best, self.best_draws = -math.inf, ()
        else:
            self.best, self.best_draws = floor, None
        self.cut = False
        self.extra = extra
        self.go(0, on, order, line_secs, secs, blocked, counts, degree, thames, [])
        return None if self.best_draws is None else self.best

    def upper(self, on: int, order: list[int], line_secs: int, secs: int, blocked: int, counts: list[int],
              degree: list[int], thames: int, extra: float) -> float:
        """The search's bound on what the line can be worth at the round's end (at least its
        worth now)."""
        self.extra = extra
        now = (len(counts) - counts.count(0)) * max(counts) + self.points * thames + extra \
            + self._gain(on)
        return max(now, self.bound(0, on, counts, thames, secs | blocked))


def _base(board: Board, book: RuleBook) -> RoundSearch:
    """The board's tables, built once per board (a search of no turns from any departure)."""
    cache = _BASES.get(id(board))
    if cache is not None and cache[0] is board:
        return cache[1]
    base = RoundSearch(board, book, (), board.stations[0].id, frozenset(), float("inf"))
    symbols = {s.symbol for s in board.stations} | {None}
    base.symbol_masks = {sym: sum(1 << k for k, v in enumerate(base.ids) if board.matches(v, sym))  # type: ignore[attr-defined]
                         for sym in symbols}
    base.deadline = float("inf")
    base.incident_sections = [[i for i, _, _, _ in inc] for inc in base.incident]  # type: ignore[attr-defined]
    _BASES[id(board)] = (board, base)
    return base


_BASES: dict[int, tuple[Board, RoundSearch]] = {}


@dataclass
class _Position:
    """A line in the search's terms: bits and counts, as :meth:`RoundSearch.go` takes them."""

    on: int
    order: list[int]
    line_secs: int
    secs: int
    blocked: int
    counts: list[int]
    degree: list[int]
    thames: int
    extra: float

    def args(self) -> tuple:
        return (self.on, list(self.order), self.line_secs, self.secs, self.blocked, list(self.counts),
                list(self.degree), self.thames, self.extra)


def _position(base: RoundSearch, board: Board, line: Line, drawn: frozenset[int], bonus: list[float],
              pen: dict[int, float] | None = None) -> _Position:
    idx = {v: k for k, v in enumerate(base.ids)}
    order = [idx[v] for v in line.stations]
    on = 0
    counts = [0] * len(base.dist_mask)
    for k in order:
        on |= 1 << k
        counts[base.dist_of[k]] += 1
    degree = [0] * len(base.ids)
    line_secs = 0
    for i in line.sections:
        line_secs |= 1 << i
        a, b = board.ends[i]
        degree[idx[a]] += 1
        degree[idx[b]] += 1
    secs = blocked = 0
    for i in drawn:
        secs |= 1 << i
        blocked |= base.cross[i]
    thames = sum(board.thames_of[i] for i in line.sections)
    extra = sum(bonus[k] for k in order[1:]) - sum((pen or {}).get(i, 0.0) for i in line.sections)
    return _Position(on, order, line_secs, secs, blocked, counts, degree, thames, extra)


def _values(state: State, future: float) -> tuple[list[float], list[float]]:
    """Per station (the board's order) what it adds to the game on the current line, and the
    tourist track's rise for k sites on the line (:func:`.responses._value_bonus`'s prices, plus
    ``future`` per new station per round to come)."""
    ed = state.edition
    board, book = ed.board, ed.book
    scores, rules = book.scores, book.rules
    sheet = state.sheets[state.to_move]
    on: dict[str, int] = {}
    for line in sheet.lines[:-1]:
        for v in set(line.stations):
            on[v] = on.get(v, 0) + 1
    most = len(scores.interchange) - 1
    left = len(state.deal.flips) - state.round - 1
    visits = _later_lines(state)[1] if VISIT and left else {}
    bonus = []
    for s in board.stations:
        n = on.get(s.id, 0)
        b = scores.interchange[min(n + 1, most)] - scores.interchange[min(n, most)]
        # a later line through it makes it an interchange (or a bigger one)
        ahead = scores.interchange[min(n + 2, most)] - scores.interchange[min(n + 1, most)]
        bonus.append(b + (future * left if n == 0 else 0.0) + VISIT * ahead * visits.get(s.id, 0.0))
    cap, track = rules.tourist_marks_max, scores.tourist_track
    marks = sheet.marks + round(SITES_AHEAD * left)  # the track is steeper further on
    gain = [float(track[min(cap, marks + k)] - track[min(cap, marks)]) for k in range(cap + 1)]
    return bonus, gain


def _later_lines(state: State) -> tuple[dict[int, float], dict[str, float]]:
    """How the rounds to come would use the sheet as it is at this round's start: for each later
    pencil, its best line (the exact round search) in :data:`LATER_SAMPLES` flip orders of its
    own; per section, the share of those lines drawing it, and per station the share visiting
    it (each summed over the later pencils). The
    orders come from a stream seeded by what the table shows (the round, the sheet, the later
    pencils), so the figures are the same whatever the bot drew before, and blind to the deal."""
    ed = state.edition
    board, book = ed.board, ed.book
    sheet = state.sheets[state.to_move]
    before = frozenset(i for line in sheet.lines[:-1] for i in line.sections)
    pencils = state.deal.pencils[state.to_move][state.round + 1:]
    key = (id(ed), state.round, before, pencils, LATER_SAMPLES)
    got = _LATER.get(key)
    if got is not None and got[0] is ed:
        return got[1]
    rng = random.Random(repr((state.round, sorted(before), pencils)))
    used: dict[int, float] = {}
    visits: dict[str, float] = {}
    ids = sorted(c.id for c in ed.cards)
    for pencil in pencils:
        dep = board.departure(pencil).id
        for _ in range(LATER_SAMPLES):
            order = list(ids)
            rng.shuffle(order)
            found = best_round(board, book, flip_turns(book, tuple(order)), dep, before, time_limit=GUARD)
            for _, u, v in found.draws:
                i = board.section_between[frozenset((u, v))].index
                used[i] = used.get(i, 0.0) + 1.0 / LATER_SAMPLES
            for v in found.stations[1:]:
                visits[v] = visits.get(v, 0.0) + 1.0 / LATER_SAMPLES
    if len(_LATER) > 64:
        _LATER.clear()
    _LATER[key] = (ed, (used, visits))
    return used, visits


_LATER: dict[tuple, tuple[Any, tuple[dict[int, float], dict[str, float]]]] = {}  # a few rounds' figures, by what they depend on


def _penalties(state: State) -> dict[int, float]:
    """Per section, what drawing it costs the rounds to come: :data:`BLOCK` for each later
    line's section it takes or crosses, in the share of the later pencils' sampled best lines
    that draw it (:func:`_later_lines`)."""
    board = state.edition.board
    pencils = state.deal.pencils[state.to_move][state.round + 1:]
    pen: dict[int, float] = {}
    if BLOCK and pencils:
        used, _ = _later_lines(state)
        for i, share in used.items():
            for j in board.crossing[i] | {i}:
                pen[j] = pen.get(j, 0.0) + BLOCK * share
    return pen


def _candidates(state: State) -> list[tuple[tuple, Line, frozenset[int]]]:
    """Each legal action with the line and drawn sections it leaves."""
    board = state.edition.board
    sheet = state.sheets[state.to_move]
    line, drawn = sheet.lines[-1], sheet.drawn
    out: list[tuple[tuple, Line, frozenset[int]]] = [(PASS, line, drawn)]
    for action in state.legal_actions():
        if action[0] == "draw" and len(action) == 3:
            i = board.pair_section[action[1], action[2]].index
            out.append((action, Line(line.pencil, line.stations + (action[2],), line.sections + (i,)), drawn | {i}))
    power = state.power(state.to_move)
    if power and not state.used[state.to_move]:
        out += power_moves(board, line, drawn, state.drawing, power)
    return out


def plan(state: State, rng: random.Random, samples: int, future: float | None = None,
         every: bool = False) -> tuple[tuple, list[float | None]]:
    """(the action, each candidate's mean value) for the seat to move; see the module. ``future``:
    default :data:`FUTURE`.

    Candidates are searched in the order of their upper bounds (the search's own bound at the
    start of each sample, averaged), and a candidate's search under a sample is given a floor:
    the value below which, even with every sample left at its bound, the candidate could not
    reach the best mean found. A search that finds nothing above its floor ends the candidate:
    its mean is None (it is below the best), and the choice is the one searching every candidate
    in full would make. ``every``: search every candidate in full (all means known)."""
    future = FUTURE if future is None else future
    ed = state.edition
    board, book = ed.board, ed.book
    cands = _candidates(state)
    if len(cands) == 1:
        return cands[0][0], [None]
    base = _base(board, book)
    bonus, gain = _values(state, future)
    rng = random.Random(rng.getrandbits(64))  # one draw from the seat's stream a decision
    # the rest of the round, per sample: counted by how it reads (symbol, Switch, last)
    done, _ = turns_so_far(book, state.flipped)
    down = sorted(c.id for c in ed.cards if c.id not in state.flipped)
    rests: dict[tuple, tuple[tuple[Turn, ...], int]] = {}
    if state.drawing.last:
        rests[()] = ((), 1)
    else:
        for _ in range(samples):
            order = list(down)
            rng.shuffle(order)
            rest = turns_so_far(book, state.flipped + tuple(order))[0][len(done):]
            key = tuple((t.symbol, t.switch) for t in rest)
            got = rests.get(key)
            rests[key] = (rest, 1 + (got[1] if got else 0))
    pen = _penalties(state)
    positions = [_position(base, board, line, drawn, bonus, pen) for _, line, drawn in cands]
    dep = base.ids.index(state.sheets[state.to_move].lines[-1].stations[0])
    prices = dict(zip(base.ids, bonus))
    least = [min((pen.get(i, 0.0) for i in base.incident_sections[k]), default=0.0)  # type: ignore[attr-defined]
             for k in range(len(base.ids))]
    net = [b - p for b, p in zip(bonus, least)]
    searches, weights = [], []
    for rest, weight in rests.values():
        s = _Search.over(base, rest)
        s.dep = dep
        s.price(prices, gain, pen, net)
        searches.append(s)
        weights.append(weight)
    n = sum(weights)
    bounds = [[s.upper(*pos.args()) for s in searches] for pos in positions]
    ub = [sum(w * b for w, b in zip(weights, row)) for row in bounds]
    means: list[float | None] = [None] * len(cands)
    best_total, leader = -math.inf, -1
    for k in sorted(range(len(cands)), key=lambda k: (-ub[k], k)):
        if not every and ub[k] < best_total - EPS:
            continue  # not even its bound reaches the best mean
        total, rest_ub = 0.0, ub[k]
        args = positions[k].args()
        for j, s in enumerate(searches):
            w = weights[j]
            rest_ub -= w * bounds[k][j]
            floor = None if every or leader < 0 else (best_total - total - rest_ub) / w - EPS
            value = s.complete(floor, *args)
            if value is None:
                total = -math.inf
                break
            total += w * value
        if total == -math.inf:
            continue
        means[k] = total / n
        if total > best_total + EPS or (total >= best_total - EPS and k < leader):
            best_total, leader = total, k
    return cands[leader][0], means


class Planner:
    """The bot factory for ``planner[:SAMPLES]`` (a roster entry that takes a budget)."""

    budgeted = True  # the name may carry a budget (tubedeck.game.Game.bot)

    def __call__(self, spec: str) -> Bot[Any]:
        samples = parse_spec(spec)

        def bot(state: State, rng: random.Random) -> tuple:
            return plan(state, rng, samples)[0]

        bot.__name__ = f"planner_{samples}"
        return bot
