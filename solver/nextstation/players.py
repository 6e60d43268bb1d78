"""Seeded players for Next Station: London: random, greedy and look-ahead.

Each is a :data:`tubedeck.play.Bot`, ``bot(state, rng) -> action`` (the edition comes from the
state). They see what a player at the table sees (:meth:`State.observation`): their sheet, the
cards face up this round and so the cards still to come (never their order). The random player
draws from ``rng``, the seat's own seeded stream; the others are deterministic, so a game is its
seed plus its bots.

* **random**: any legal action (pass included, Pencil Power uses included), uniformly.
* **greedy**: the draw that most raises :func:`value` now; passes only when nothing can be drawn.
  With Pencil Powers, a power use (:func:`.powers.power_actions`) is valued the same way, by the
  line it leaves, and taken only when it beats every plain draw (a tie keeps the power).
* **look-ahead**: each draw, power use and the pass valued by the average, over the cards still to
  come, of the best greedy value after the next turn too (that next turn may use the power if it
  is still unused: keeping it is worth what it may add then).

:func:`value` is the line's round score plus what the line adds to the end of game: 1 per
tourist site on it, 2 per station it shares with an earlier line (a new interchange), and with
Shared Objectives ``objective_points`` per objective the sheet meets with this line (:class:`Goals`).
The double-station power needs no move (the engine scores it), so no bot weighs it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.play import PASS, Line, State, legal_sections
from tubedeck.games.nextstation.powers import power_actions
from tubedeck.games.nextstation.rules import JOKER, Objective
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.play import Bot


@dataclass(frozen=True)
class Goals:
    """The Shared Objectives in play, measured on a sheet's earlier lines once a decision, so that
    the objectives a line completes are counted in a few set operations (as
    :func:`.scoring.objective_reached` counts them on the finished sheet)."""

    objectives: tuple[Objective, ...]
    points: int
    on: Counter  # station -> earlier lines through it
    districts: frozenset[str]
    thames: int

    @classmethod
    def of(cls, state: State, lines: tuple[Line, ...]) -> "Goals | None":
        if not state.objectives:
            return None
        ed = state.edition
        board = ed.board
        objs = tuple(o for o in ed.book.objectives if o.id in state.objectives)
        on = Counter(s for line in lines for s in set(line.stations))
        return cls(objs, ed.rules.objective_points, on, frozenset(board.by_id[s].district for s in on),
                   sum(board.sections[i].thames for line in lines for i in line.sections))

    def met(self, board: Board, line: Line) -> int:
        """Objectives the sheet meets with ``line`` added to the earlier lines."""
        here = set(line.stations)
        stations = here | set(self.on)
        n = 0
        for o in self.objectives:
            if o.measure == "interchanges":
                v = sum(1 for c in self.on.values() if c >= 2) + sum(1 for s in here if self.on.get(s) == 1)
            elif o.measure == "districts":
                v = len(self.districts | {board.by_id[s].district for s in here})
            elif o.measure == "tourist-sites":
                v = sum(board.by_id[s].tourist for s in stations)
            elif o.measure == "central-stations":
                v = sum(board.by_id[s].district == "central" for s in stations)
            else:  # thames
                v = self.thames + sum(board.sections[i].thames for i in line.sections)
            n += v >= o.threshold
        return n


def value(edition: Edition, line: Line, earlier: set[str], goals: Goals | None = None) -> float:
    sc = line_score(edition.board, edition.book, line.stations, line.sections)
    out = sc.points + sc.tourist_sites + 2 * len(earlier & set(line.stations))
    return out + (goals.points * goals.met(edition.board, line) if goals else 0)


def _after(line: Line, move: tuple[str, str, int]) -> Line:
    return Line(line.pencil, line.stations + (move[1],), line.sections + (move[2],))


@dataclass(frozen=True)
class _Ctx:
    edition: Edition
    earlier: set[str]
    goals: Goals | None

    def value(self, line: Line) -> float:
        return value(self.edition, line, self.earlier, self.goals)


def _context(state: State):
    sheet = state.sheets[state.to_move]
    line = sheet.lines[-1]
    earlier = {s for l in sheet.lines[:-1] for s in l.stations}
    power = state.power(state.to_move)
    left = power if power and not state.used[state.to_move] else None
    return _Ctx(state.edition, earlier, Goals.of(state, sheet.lines[:-1])), line, sheet.drawn, left


def random_player(state: State, rng: random.Random) -> tuple:
    return rng.choice(state.legal_actions())


def power_moves(board: Board, line: Line, drawn: frozenset[int], turn: Turn, power: str | None):
    """The power's uses this turn, each with the line and drawn sections it leaves."""
    if not power:
        return []
    out = []
    for a in power_actions(board, line, drawn, turn, power):
        ends = a[1:5] if a[0] == "draw2" else a[1:3]
        nl, nd = line, drawn
        for u, v in zip(ends[::2], ends[1::2]):
            i = board.section_between[frozenset((u, v))].index
            nl, nd = _after(nl, (u, v, i)), nd | {i}
        out.append((a, nl, nd))
    return out


class _Gains:
    """:func:`value` of a line and of the line with a section or two more, the latter by what the
    new stations and sections add (a greedy decision values every legal section; the search bot's
    rollouts make tens of thousands of such decisions a game). The same figures as
    :func:`.scoring.line_score` counts: the stations per district, the Thames sections, the tourist
    sites and the stations on earlier lines (each station once); the objectives, if any, are
    measured on the whole new line (:meth:`Goals.met`)."""

    __slots__ = ("ctx", "line", "value", "per", "biggest", "thames", "on", "tourist", "shared")

    def __init__(self, ctx: _Ctx, line: Line) -> None:
        board = ctx.edition.board
        district_of, tourist_of, thames_of = board.district_of, board.tourist_of, board.thames_of
        self.ctx, self.line = ctx, line
        per: dict[str, int] = {}
        for s in line.stations:
            d = district_of[s]
            per[d] = per.get(d, 0) + 1
        self.per = per
        self.biggest = max(per.values(), default=0)
        self.thames = sum(map(thames_of.__getitem__, line.sections))
        self.on = set(line.stations)
        self.tourist = sum(map(tourist_of.__getitem__, self.on))
        self.shared = len(ctx.earlier & self.on)
        self.value = self.after((), ())  # the line itself (the pass)

    def after(self, stations: tuple[str, ...], sections: tuple[int, ...]) -> float:
        """The value of the line with ``stations`` and ``sections`` added at its end."""
        ctx = self.ctx
        board = ctx.edition.board
        district_of, tourist_of, thames_of = board.district_of, board.tourist_of, board.thames_of
        per, on = self.per, self.on
        districts, biggest, tourist, shared = len(per), self.biggest, self.tourist, self.shared
        thames = self.thames
        if len(stations) == 1 and len(sections) == 1:  # a plain draw: no copies
            v = stations[0]
            n = per.get(district_of[v], 0) + 1
            districts += n == 1
            biggest = max(biggest, n)
            if v not in on:
                tourist += tourist_of[v]
                shared += v in ctx.earlier
            thames += thames_of[sections[0]]
        else:
            more = dict(per)
            seen = set(on)
            for v in stations:
                d = district_of[v]
                n = more[d] = more.get(d, 0) + 1
                districts += n == 1
                biggest = max(biggest, n)
                if v not in seen:
                    seen.add(v)
                    tourist += tourist_of[v]
                    shared += v in ctx.earlier
            thames += sum(thames_of[i] for i in sections)
        out = districts * biggest + ctx.edition.book.rules.thames_points * thames + tourist + 2 * shared
        if ctx.goals:
            line = self.line
            if stations or sections:
                line = Line(line.pencil, line.stations + stations, line.sections + sections)
            out += ctx.goals.points * ctx.goals.met(board, line)
        return out


def _best_now(ctx: _Ctx, line: Line, drawn: frozenset[int], turn: Turn, power: str | None = None):
    """(best value, its action or None for the pass): plain draws first, a power use only if better."""
    edition = ctx.edition
    gains = _Gains(ctx, line)
    best, choice = gains.value, None
    for u, v, i in legal_sections(edition.board, line, drawn, turn):
        val = gains.after((v,), (i,))
        if choice is None or val > best:
            best, choice = val, ("draw", u, v)
    n, m = len(line.stations), len(line.sections)
    for action, nl, _ in power_moves(edition.board, line, drawn, turn, power):
        val = gains.after(nl.stations[n:], nl.sections[m:])  # (nl is line and the power's sections)
        if val > best:
            best, choice = val, action
    return best, choice


def greedy_player(state: State, rng: random.Random | None = None) -> tuple:
    ctx, line, drawn, power = _context(state)
    _, action = _best_now(ctx, line, drawn, state.drawing, power)
    return PASS if action is None else action


def lookahead_player(state: State, rng: random.Random | None = None) -> tuple:
    if state.drawing.last:
        return greedy_player(state, rng)
    ctx, line, drawn, power = _context(state)
    edition = state.edition
    upcoming = [c for c in edition.cards if c.id not in state.flipped and not c.switch]
    board, turn = edition.board, state.drawing
    moves: list = [(PASS, line, drawn, power)]
    moves += [(("draw", u, v), _after(line, (u, v, i)), drawn | {i}, power)
              for u, v, i in legal_sections(board, line, drawn, turn)]
    moves += [(a, nl, nd, None) for a, nl, nd in power_moves(board, line, drawn, turn, power)]
    best, pick = None, PASS
    for action, nxt, nd, left in moves:
        total = 0.0
        for card in upcoming:
            after = Turn(card.id, None if card.face == JOKER else card.face, False, False)
            total += _best_now(ctx, nxt, nd, after, left)[0]
        score = total / max(1, len(upcoming))
        if best is None or score > best + 1e-9:
            best, pick = score, action
    return pick


PLAYERS: dict[str, Bot[State]] = {"random": random_player, "greedy": greedy_player, "lookahead": lookahead_player}
