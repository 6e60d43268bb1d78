"""Next Station: London as played: the rules as a state machine (:class:`tubedeck.play.State`).

A :class:`State` is immutable and carries its edition (bound by :func:`new_game`, so no method
takes it again). :meth:`State.current_player` is :data:`~tubedeck.play.CHANCE` while a card is to
be flipped (:meth:`State.chance_outcomes`: the unflipped cards, equally likely), a seat while that
seat draws and :data:`~tubedeck.play.TERMINAL` once the game is over; :meth:`State.legal_actions`
lists the seat's moves, :meth:`State.apply` returns the next state. A seeded game (:func:`new_game`)
fixes its flips in its :class:`~.edition.Deal`, and :meth:`State.dealt_outcome` names the next
one, so a game is its seed plus its players' actions.

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

Everything on the table is public (every sheet, the cards face up, the pencils, objectives and
powers): :meth:`State.observation` hides only the order of the cards still face down.

The construction rules themselves are :func:`.lines.legal_sections`; Pencil Powers (an option)
are :mod:`.powers`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cached_property

from tubedeck.errors import UsageError
from tubedeck.play import CHANCE, TERMINAL, Engine

from .board import Board
from .edition import Deal, Edition, deal
from .flips import Turn, flip_turn
from .lines import Line, can_draw, legal_sections
from .powers import deal_powers, power_actions
from .rules import JOKER, SWITCH
from .scoring import FinalScore, final_score, line_score

__all__ = ["CHANCE", "TERMINAL", "PASS", "Line", "Sheet", "State", "legal_sections", "new_game", "drawn_objectives"]

PASS = ("pass",)
FACE_NAMES = {JOKER: "Joker", SWITCH: "Railroad Switch"}  # the cards' printed words (the faces' too)
DECK_NAMES = {"street": "Street", "underground": "Underground"}
POWER_WORDS = {"joker": "the card played as a Joker", "railroad-switch": "as if a Railroad Switch came with the card"}


@dataclass(frozen=True)
class Sheet:
    """One player's map sheet: the lines drawn (the current one last) and the score pad."""

    lines: tuple[Line, ...]
    round_scores: tuple[int, ...] = ()
    marks: int = 0  # tourist circles crossed

    @cached_property
    def drawn(self) -> frozenset[int]:
        return frozenset(i for line in self.lines for i in line.sections)

    def with_line(self, line: Line, drawn: frozenset[int]) -> "Sheet":
        """This sheet with its current line replaced by ``line``, which adds the sections
        ``drawn`` adds to :attr:`drawn`: the new sheet's ``drawn`` is filled in, not recounted."""
        return _sheet(self.lines[:-1] + (line,), self.round_scores, self.marks, drawn)


def _sheet(lines: tuple[Line, ...], round_scores: tuple[int, ...], marks: int, drawn: frozenset[int]) -> Sheet:
    """A Sheet whose :attr:`~Sheet.drawn` is known (the engine's steps know it from the sheet
    before): it is stored where cached_property itself stores it, so it is never recounted."""
    sheet = Sheet(lines, round_scores, marks)
    sheet.__dict__["drawn"] = drawn
    return sheet


@dataclass(frozen=True)
class State:
    edition: Edition = field(compare=False, repr=False)
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

    # -- the play contract --------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.round >= len(self.deal.flips) else self.to_move  # (is_terminal, inlined)

    def is_terminal(self) -> bool:
        return self.round >= len(self.deal.flips)

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        """The cards still face down this round, equally likely (empty unless a card is to be flipped)."""
        if self.current_player() != CHANCE:
            return []
        flipped = self.flipped
        left = [c for c in self.edition.book.card_by_id if c not in flipped]
        p = 1.0 / len(left)
        return [(("flip", c), p) for c in left]

    def dealt_outcome(self) -> tuple | None:
        """The seeded deal's next flip: the first card of this round's shuffled order not yet face up."""
        if self.current_player() != CHANCE:
            return None
        return ("flip", next(c for c in self.deal.flips[self.round] if c not in self.flipped))

    def legal_actions(self) -> list[tuple]:
        """The seat's moves: the pass, every section it may draw, and its Pencil Power's (unused)."""
        if self.current_player() < 0:
            return []
        board, turn = self.edition.board, self.drawing
        sheet = self.sheets[self.to_move]
        moves = legal_sections(board, sheet.lines[-1], sheet.drawn, turn)
        out = [PASS] + [("draw", u, v) for u, v, _ in moves]
        power = self.power(self.to_move)
        if power and not self.used[self.to_move]:
            out += power_actions(board, sheet.lines[-1], sheet.drawn, turn, power)
        return out

    @property
    def drawing(self) -> Turn:
        """The turn the seats draw for (only while a seat is to move)."""
        if self.turn is None:
            raise UsageError(f"no card to draw for ({self.clock()}): a card is flipped first")
        return self.turn

    def power(self, player: int) -> str | None:
        """The Pencil Power of the pencil the player draws with this round (None: module off)."""
        pencil = self.sheets[player].lines[-1].pencil
        for held, power in reversed(self.powers):  # as dict(self.powers).get(pencil), without the dict
            if held == pencil:
                return power
        return None

    def apply(self, action: tuple) -> "State":
        who = self.current_player()
        if not self._allows(who, action):
            legal = [a for a, _ in self.chance_outcomes()] if who == CHANCE else self.legal_actions()
            if action not in legal:
                where = "the game is over" if who == TERMINAL else "a flip" if who == CHANCE else f"seat {who + 1}"
                raise UsageError(f"{action!r} is not a legal action here ({self.clock()}, {where})")
        # Each step below builds the next state once, with _evolve, not dataclasses.replace:
        # a search bot's rollouts apply over a hundred thousand actions a game.
        log = self.log + ((self.to_move, action),)
        if action[0] == "flip":
            flipped = self.flipped + (action[1],)
            turn = flip_turn(self.edition.book, flipped)
            if turn is None:
                return self._evolve(log=log, flipped=flipped)  # a Switch: the next card is flipped at once
            return self._evolve(log=log, flipped=flipped, to_move=0, turn=turn)
        changes: dict = {"log": log}
        if action[0] in ("draw", "draw2"):
            pair_section = self.edition.board.pair_section
            sheet = self.sheets[self.to_move]
            line = sheet.lines[-1]
            drawn = sheet.drawn
            pairs = [action[1:3], action[3:5]] if action[0] == "draw2" else [action[1:3]]
            for u, v in pairs:
                sec = pair_section[u, v]
                line = Line(line.pencil, line.stations + (v,), line.sections + (sec.index,))
                drawn = drawn | {sec.index}
            sheets = list(self.sheets)
            sheets[self.to_move] = sheet.with_line(line, drawn)
            changes["sheets"] = tuple(sheets)
            if action[0] == "draw2" or len(action) == 4:  # a Pencil Power was used
                used = list(self.used)
                used[self.to_move] = True
                changes["used"] = tuple(used)
        if self.to_move + 1 < self.players:
            return self._evolve(**changes, to_move=self.to_move + 1)
        if self.drawing.last:
            return self._evolve(**changes)._end_round()
        return self._evolve(**changes, to_move=CHANCE, turn=None)

    def _allows(self, who: int, action: tuple) -> bool:
        """Whether ``action`` is legal, checked without listing every legal action (False: not
        known to be; :meth:`apply` then looks in the full list): a flip of a card still face down,
        or a plain draw (:func:`.lines.can_draw`). The types are checked first so that no lookup
        can raise on an odd action."""
        if type(action) is not tuple:
            return False
        if who == CHANCE:
            if len(action) != 2 or action[0] != "flip" or type(action[1]) is not str:
                return False
            return action[1] in self.edition.book.card_by_id and action[1] not in self.flipped
        if who < 0 or len(action) != 3 or action[0] != "draw":
            return False
        _, u, v = action
        if type(u) is not str or type(v) is not str:
            return False
        sheet = self.sheets[who]
        return can_draw(self.edition.board, sheet.lines[-1], sheet.drawn, self.drawing, u, v)

    def _evolve(self, **changes) -> "State":
        """``dataclasses.replace(self, **changes)`` at a fraction of its cost: the new state's
        fields are this one's with ``changes`` (a State holds nothing but its fields: no
        cached property, no __post_init__, so copying them is all that replace does)."""
        new = object.__new__(State)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return new

    def returns(self) -> tuple[float, ...]:
        """Final scores at the end; 0 for everyone before."""
        if not self.is_terminal():
            return (0.0,) * self.players
        return tuple(float(self.final(p).total) for p in range(self.players))

    def describe(self, action: tuple) -> str:
        """The action in a player's words: ``flips the Circle card (Underground)``, ``draws D8 -
        E9`` (a generated map's station names after the coordinates), ``passes``."""
        kind = action[0]
        if kind == "flip":
            return f"flips the {card_name(self.edition, action[1])}"
        if kind == "pass":
            return "passes"
        place = self.edition.board.place
        if kind == "draw2":
            return (f"draws {place(action[1])} - {place(action[2])} and {place(action[3])} - {place(action[4])} "
                    "(Pencil Power: a second section)")
        words = f"draws {place(action[1])} - {place(action[2])}"
        if len(action) == 4:
            words += f", {POWER_WORDS.get(action[3], action[3])} (Pencil Power)"
        return words

    def clock(self) -> str:
        """``round 2, card 5``: the card being flipped, or the card the seats draw for."""
        if self.is_terminal():
            return f"after round {len(self.deal.flips)}"
        card = len(self.flipped) + (1 if self.to_move == CHANCE else 0)
        return f"round {self.round + 1}, card {card}"

    def observation(self, seat: int) -> dict:
        """What a seat sees (the same for every seat: everything on the table is public): the
        cards face up this round and those still face down (as a set, never their order), the
        turn, every sheet, the objectives and powers."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} of {self.players}")
        board = self.edition.board
        t = self.turn
        return {
            "seat": seat, "to_move": self.current_player(), "round": self.round + 1, "clock": self.clock(),
            "flipped": list(self.flipped),
            "face_down": sorted(c.id for c in self.edition.cards if c.id not in self.flipped),
            "turn": None if t is None else {"card": t.card, "symbol": t.symbol, "switch": t.switch, "last": t.last},
            "sheets": [{"lines": [{"pencil": l.pencil, "stations": [station_json(board, v) for v in l.stations]}
                                  for l in s.lines],
                        "round_scores": list(s.round_scores), "tourist_marks": s.marks} for s in self.sheets],
            "objectives": list(self.objectives),
            "powers": [{"pencil": p, "power": w} for p, w in self.powers],
            "powers_used": list(self.used),
        }

    def action_json(self, action: tuple) -> list:
        """An action for ``--json``: each station as its id with the sheet coordinate beside it."""
        stations = self.edition.board.by_id
        return [station_json(self.edition.board, a) if isinstance(a, str) and a in stations else a for a in action]

    # -- scoring ------------------------------------------------------------------------------
    def final(self, player: int) -> FinalScore:
        """The player's score pad so far (every finished line)."""
        edition = self.edition
        sheet = self.sheets[player]
        done = sheet.lines[:len(sheet.round_scores)]
        objs = tuple(o for o in edition.book.objectives if o.id in self.objectives)
        fs = final_score(edition.board, edition.book, [l.stations for l in done], [l.sections for l in done], objs)
        # the round scores as written on the pad (a double-station power raised some)
        return replace(fs, lines=sheet.round_scores, total=fs.total - sum(fs.lines) + sum(sheet.round_scores))

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A state ``seat`` cannot tell from this one (:func:`tubedeck.play.determinize`): the
        order of the cards still face down shuffled, this round's and the rounds' to come."""
        flips = list(self.deal.flips[:self.round])
        for r in range(self.round, len(self.deal.flips)):
            up = self.flipped if r == self.round else ()
            down = sorted(c for c in self.deal.flips[r] if c not in up)
            rng.shuffle(down)
            flips.append(tuple(up) + tuple(down))
        d = self.deal
        return self._evolve(deal=Deal(d.seed, d.players, d.pencils, tuple(flips)))

    def _end_round(self) -> "State":
        board, book = self.edition.board, self.edition.book
        sheets = []
        nxt = self.round + 1
        for p, sheet in enumerate(self.sheets):
            line = sheet.lines[-1]
            score = line_score(board, book, line.stations, line.sections)
            points = score.points + (score.districts if self.power(p) == "double-station" else 0)  # D x (M + 1)
            marks = min(sheet.marks + score.tourist_sites, book.rules.tourist_marks_max)
            lines = sheet.lines
            if nxt < len(self.deal.flips):  # the next round's line (no section: the same drawn)
                lines += (_start(board, self.deal.pencils[p][nxt]),)
            sheets.append(_sheet(lines, sheet.round_scores + (points,), marks, sheet.drawn))
        return self._evolve(sheets=tuple(sheets), round=nxt, flipped=(), to_move=CHANCE, turn=None,
                            used=(False,) * self.players)


def card_name(edition: Edition, ident: str) -> str:
    """A Station card in its printed words, its deck after it: ``Circle card (Underground)``."""
    card = edition.book.card(ident)
    face = FACE_NAMES.get(card.face, card.face.capitalize())
    return f"{face} card ({DECK_NAMES.get(card.deck, card.deck.capitalize())})"


def station_json(board: Board, station: str) -> dict:
    """A station for ``--json``: its id, the sheet coordinate, and a generated map's name."""
    st = board.by_id[station]
    out = {"id": station, "at": board.coordinate(station)}
    return out | ({"name": st.name} if st.name else {})


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
    return State(edition, players, d, sheets, objectives=objs, powers=pw, used=(False,) * players)


# The engine bound to the play contract (tubedeck.play.State): mypy checks every method, so drift fails `make lint`.
ENGINE: Engine[tuple] = new_game
