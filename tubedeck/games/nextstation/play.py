"""Next Station: London as played: the rules as a state machine (the OpenSpiel shape).

A :class:`State` is immutable. :meth:`State.current_player` is :data:`CHANCE` while a card is to
be flipped (:meth:`State.chance_outcomes`: the unflipped cards, equally likely) and a seat while
that seat draws; :meth:`State.legal_actions` lists the moves, :meth:`State.apply` returns the next
state. A seeded game (:func:`new_game`) fixes its flips in its :class:`~.edition.Deal`, and
:meth:`State.seeded_flip` names the next one, so a game is its seed plus its players' actions.

Actions: ``("flip", card)`` (chance), ``("draw", from, to)`` (one section) and ``("pass",)``:
drawing is always optional. Players draw "at the same time"; here seat 0 first, then the others,
which changes nothing since sheets never interact. Rules applied (each one tested):

* the first section starts at the pencil's departure station; later ones at an end of the line
  (a station with at most one section of this line), or at any station of the line on a turn a
  Railroad Switch came with; the section reaches a station of the flipped symbol (Joker and the
  ? station: any), along a potential section;
* no station twice on a line (no loops), no section drawn twice on the sheet (by any line), no
  section over a drawn one (the derived crossings), so interchanges arise from round 2 on;
* the round ends after the turn of the 5th Underground card; each line is scored
  (:mod:`.scoring`), tourist sites cross circles, pencils pass (:func:`.edition.pencil_orders`);
* after 4 rounds the game is over and :meth:`State.returns` gives each player's final score.

The construction rules themselves are :func:`.lines.legal_sections`; Pencil Powers (an option)
are :mod:`.powers`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cached_property

from tubedeck.errors import UsageError

from .board import Board
from .edition import Deal, Edition, deal
from .flips import Turn, turns_so_far
from .lines import Line, legal_sections
from .powers import deal_powers, power_actions
from .scoring import FinalScore, final_score, line_score

CHANCE = -1
PASS = ("pass",)


@dataclass(frozen=True)
class Sheet:
    """One player's map sheet: the lines drawn (the current one last) and the score pad."""

    lines: tuple[Line, ...]
    round_scores: tuple[int, ...] = ()
    marks: int = 0  # tourist circles crossed

    @cached_property
    def drawn(self) -> frozenset[int]:
        return frozenset(i for line in self.lines for i in line.sections)


@dataclass(frozen=True)
class State:
    players: int
    deal: Deal
    sheets: tuple[Sheet, ...]
    round: int = 0
    flipped: tuple[str, ...] = ()  # this round's cards face up, in order
    to_move: int = CHANCE
    objectives: tuple[str, ...] = ()  # Shared Objectives in play (ids)
    turn: Turn | None = None  # the turn being drawn (None while a card is to be flipped)
    powers: tuple[tuple[str, str], ...] = ()  # (pencil, Pencil Power) when the module is in play
    used: tuple[bool, ...] = ()  # per player: the power used this round
    log: tuple[tuple, ...] = ()

    # -- the OpenSpiel shape ------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def is_chance_node(self) -> bool:
        return self.to_move == CHANCE and not self.is_terminal()

    def is_terminal(self) -> bool:
        return self.round >= len(self.deal.flips)

    def chance_outcomes(self, edition: Edition) -> list[tuple[tuple, float]]:
        left = [c.id for c in edition.cards if c.id not in self.flipped]
        return [(("flip", c), 1.0 / len(left)) for c in left]

    def seeded_flip(self) -> tuple:
        return ("flip", self.deal.flips[self.round][len(self.flipped)])

    def legal_actions(self, edition: Edition) -> list[tuple]:
        if self.is_terminal():
            return []
        if self.to_move == CHANCE:
            return [a for a, _ in self.chance_outcomes(edition)]
        sheet = self.sheets[self.to_move]
        moves = legal_sections(edition.board, sheet.lines[-1], sheet.drawn, self.turn)
        out = [PASS] + [("draw", u, v) for u, v, _ in moves]
        power = self.power(self.to_move)
        if power and not self.used[self.to_move]:
            out += power_actions(edition.board, sheet.lines[-1], sheet.drawn, self.turn, power)
        return out

    def power(self, player: int) -> str | None:
        """The Pencil Power of the pencil the player draws with this round (None: module off)."""
        pencil = self.sheets[player].lines[-1].pencil
        return dict(self.powers).get(pencil)

    def apply(self, action: tuple, edition: Edition) -> "State":
        if action not in self.legal_actions(edition):
            raise UsageError(f"{action!r} is not a legal action here (round {self.round + 1}, "
                             f"{'a flip' if self.to_move == CHANCE else f'seat {self.to_move + 1}'})")
        state = replace(self, log=self.log + ((self.to_move, action),))
        if action[0] == "flip":
            state = replace(state, flipped=self.flipped + (action[1],))
            turns, waiting = turns_so_far(edition.book, state.flipped)
            if waiting or not turns or turns[-1].card != action[1]:
                return state  # a Switch: the next card is flipped at once
            return replace(state, to_move=0, turn=turns[-1])
        if action[0] in ("draw", "draw2"):
            board = edition.board
            sheet = self.sheets[self.to_move]
            line = sheet.lines[-1]
            ends = action[1:5] if action[0] == "draw2" else action[1:3]
            for u, v in zip(ends[::2], ends[1::2]):
                sec = board.section_between[frozenset((u, v))]
                line = replace(line, stations=line.stations + (v,), sections=line.sections + (sec.index,))
            sheets = list(state.sheets)
            sheets[self.to_move] = replace(sheet, lines=sheet.lines[:-1] + (line,))
            state = replace(state, sheets=tuple(sheets))
            if action[0] == "draw2" or len(action) == 4:  # a Pencil Power was used
                used = list(state.used)
                used[self.to_move] = True
                state = replace(state, used=tuple(used))
        if self.to_move + 1 < self.players:
            return replace(state, to_move=self.to_move + 1)
        if self.turn.last:
            return state._end_round(edition)
        return replace(state, to_move=CHANCE, turn=None)

    def returns(self, edition: Edition) -> tuple[float, ...]:
        """Final scores at the end; 0 for everyone before."""
        if not self.is_terminal():
            return (0.0,) * self.players
        return tuple(float(self.final(edition, p).total) for p in range(self.players))

    # -- scoring ------------------------------------------------------------------------------
    def final(self, edition: Edition, player: int) -> FinalScore:
        """The player's score pad so far (every finished line)."""
        sheet = self.sheets[player]
        done = sheet.lines[:len(sheet.round_scores)]
        objs = tuple(o for o in edition.book.objectives if o.id in self.objectives)
        fs = final_score(edition.board, edition.book, [l.stations for l in done], [l.sections for l in done], objs)
        # the round scores as written on the pad (a double-station power raised some)
        return replace(fs, lines=sheet.round_scores, total=fs.total - sum(fs.lines) + sum(sheet.round_scores))

    def _end_round(self, edition: Edition) -> "State":
        board, book = edition.board, edition.book
        sheets = []
        for p, sheet in enumerate(self.sheets):
            line = sheet.lines[-1]
            score = line_score(board, book, line.stations, line.sections)
            points = score.points + (score.districts if self.power(p) == "double-station" else 0)  # D x (M + 1)
            marks = min(sheet.marks + score.tourist_sites, book.rules.tourist_marks_max)
            sheets.append(replace(sheet, round_scores=sheet.round_scores + (points,), marks=marks))
        nxt = self.round + 1
        if nxt < len(self.deal.flips):
            sheets = [replace(s, lines=s.lines + (_start(board, self.deal.pencils[p][nxt]),))
                      for p, s in enumerate(sheets)]
        return replace(self, sheets=tuple(sheets), round=nxt, flipped=(), to_move=CHANCE, turn=None,
                       used=(False,) * self.players)


def _start(board: Board, pencil: str) -> Line:
    return Line(pencil, (board.departure(pencil).id,), ())


def drawn_objectives(edition: Edition, seed: int) -> tuple:
    """The seeded game's Shared Objectives: ``objectives_drawn`` of them, drawn by
    ``random.Random(f"{seed}-objectives")``, in id order."""
    ids = [o.id for o in edition.book.objectives]
    chosen = sorted(random.Random(f"{seed}-objectives").sample(ids, edition.rules.objectives_drawn))
    return tuple(o for o in edition.book.objectives if o.id in chosen)


def new_game(edition: Edition, players: int, seed: int, objectives: bool = False, powers: bool = False) -> State:
    """A seeded game: pencils and flips from :func:`.edition.deal`; with ``objectives``, the rules'
    ``objectives_drawn`` Shared Objectives drawn by ``random.Random(f"{seed}-objectives")``; with
    ``powers``, a Pencil Power per pencil (:func:`.powers.deal_powers`)."""
    d = deal(edition, players, seed)
    objs = tuple(o.id for o in drawn_objectives(edition, seed)) if objectives else ()
    sheets = tuple(Sheet((_start(edition.board, d.pencils[p][0]),)) for p in range(players))
    pw = deal_powers(edition.book, seed) if powers else ()
    return State(players, d, sheets, objectives=objs, powers=pw, used=(False,) * players)
