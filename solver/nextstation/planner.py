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
not valued: the prices tried for them (the room a line takes from the later pencils' best lines,
the interchanges it would make with them, new stations, a steeper tourist track) each gained less
than its noise and were removed (benchmarks/RESULTS.md). The last turn of a round needs no sample.

Why the planner stays below the search bot (benchmarks/RESULTS.md): it values each sampled order
as if it knew it (perfect-information Monte Carlo's strategy fusion), so it overrates lines that
only some orders allow, even in the last round, where its value is the game's own; more samples
do not cure that.

Work is shared: samples whose remaining turns read the same (the same symbols, Switches and end)
are searched once and weighted; one search object per distinct sample serves every action (the
tables of the sampled turns and the bound's memo are kept between actions); the board's tables are
built once per board. Candidates are searched best bound first,
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
from tubedeck.games.nextstation.best import RoundSearch
from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.flips import Turn, turns_so_far
from tubedeck.games.nextstation.play import PASS, Line, State
from tubedeck.games.nextstation.responses import value_bonus
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.play import Bot

from .players import power_moves

NAME = "planner"
DEFAULT_SAMPLES = 8
MAX_SAMPLES = 10_000
EPS = 1e-6  # values closer than this are equal (a tie goes to the first candidate)


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


def _position(base: RoundSearch, board: Board, line: Line, drawn: frozenset[int], bonus: list[float]) -> _Position:
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
    extra = sum(bonus[k] for k in order[1:])
    return _Position(on, order, line_secs, secs, blocked, counts, degree, thames, extra)


def _values(state: State) -> tuple[list[float], list[float]]:
    """Per station (the board's order) what it adds to the game on the current line, and the
    tourist track's rise for k sites on the line, the sheet's earlier lines fixed
    (:func:`.responses.value_bonus`'s prices)."""
    ed = state.edition
    earlier = [line.stations for line in state.sheets[state.to_move].lines[:-1]]
    bonus, gain = value_bonus(ed.board, ed.book, earlier + [()], len(earlier))
    return [float(bonus.get(s.id, 0)) for s in ed.board.stations], [float(g) for g in gain]


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


def plan(state: State, rng: random.Random, samples: int, every: bool = False) -> tuple[tuple, list[float | None]]:
    """(the action, each candidate's mean value) for the seat to move; see the module.

    Candidates are searched in the order of their upper bounds (the search's own bound at the
    start of each sample, averaged), and a candidate's search under a sample is given a floor:
    the value below which, even with every sample left at its bound, the candidate could not
    reach the best mean found. A search that finds nothing above its floor ends the candidate:
    its mean is None (it is below the best), and the choice is the one searching every candidate
    in full would make. ``every``: search every candidate in full (all means known)."""
    ed = state.edition
    board, book = ed.board, ed.book
    cands = _candidates(state)
    if len(cands) == 1:
        return cands[0][0], [None]
    base = _base(board, book)
    bonus, gain = _values(state)
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
    positions = [_position(base, board, line, drawn, bonus) for _, line, drawn in cands]
    dep = base.ids.index(state.sheets[state.to_move].lines[-1].stations[0])
    prices = dict(zip(base.ids, bonus))
    searches, weights = [], []
    for rest, weight in rests.values():
        s = _Search.over(base, rest)
        s.dep = dep
        s.value_for_game(prices, gain, {})
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
