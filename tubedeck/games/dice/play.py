"""Tube Dice as played: the rules as an immutable state machine (the OpenSpiel shape).

A :class:`State` says whose decision it is (:meth:`State.is_chance_node` for the roll of the
dice), lists :meth:`State.legal_actions` and returns the next state from :meth:`State.apply`;
:meth:`State.is_terminal` and :meth:`State.returns` (each player's score) end it. The roll is the
chance event: :func:`new_game` fixes a seeded roll sequence, so a game is its seed plus its
decisions, and replaying them gives the same log.

A turn, in the text's words: the active player "roll[s] all 5 of the six-sided dice", keeps 2
and uses them; "all other players can use any 2 of the three remaining dice"; then the next
player rolls. Using two dice: "one will be used as a station the other will form the
connections", and "you must be able to perform both actions".

Decisions where the text is silent or ambiguous (each has a test in ``tests/dice``):

* **"An empty station you have connection to"**: an empty station at either end of a connection
  the player has marked (marking a connection is what opens the next station).
* **Which connections**: every connection touching the chosen station with exactly the
  connection die's sections is marked, all at once ("Mark these connections"). The connection
  action is possible when the station has at least one such connection, marked already or not.
  (Requiring an unmarked one deadlocks: a station whose connections were all marked from their
  other ends could never be filled, and its lines never completed; simulation found every game
  stuck that way.)
* **First turn**: a player's first use of dice (the active player's or another's) is on the star.
* **Passes** change a die by one each, never past 1 or 6 (no wrap); any number per turn.
* **Passes by seat** (the pass track is ours to size): seat k starts with ``passes +
  extra_passes[k - 1]`` (recipe ``[game]``): the later seats get more, against seat 1's advantage
  of rolling first and most (measured: README, Tube Dice, seat advantage). Solo is seat 1.
* **Using dice is optional**: a player may always decline ("can use"); a player with no possible
  pair declines. The active player still keeps 2 dice (action ``keep`` with no use).
* **Completions** are scored when everyone has used the roll: a line or zone that no player had
  completed before this turn scores its high points for every player completing it this turn
  ("ties share": each gets the high number), later completions score low.
* **The end**: after the turn in which any player has completed ``lines_to_end`` lines (or
  every line of a map with fewer lines), or after ``max_turns`` rolls.
* **Score**: line and zone points plus ``pass_points`` per unused pass; ``returns`` are scores.

Actions are tuples ``(keep, station, number, sections)``: ``keep`` the dice indices the active
player keeps (``()`` for the others), ``station`` -1 for declining.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import NamedTuple

from tubedeck.errors import UsageError

from .board import Board
from .edition import Edition

SKIP = -1
Action = tuple  # (keep, station, number, sections)


class Sheet(NamedTuple):
    """One player's map sheet."""

    nums: tuple[int, ...]  # the number written in each station (0: empty)
    filled: int  # bit i: station i holds a number
    marked: int  # bit k: connection k is marked
    passes: int  # passes left
    lines: int  # bit l: line l complete
    zones: int  # bit z: zone z complete
    points: int  # points circled so far (lines and zones)


def blank_sheet(board: Board, passes: int) -> Sheet:
    return Sheet((0,) * len(board.stations), 0, 0, passes, 0, 0, 0)


def pairs_of(dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(station die, connection die) for every ordered pair of distinct dice, values deduplicated."""
    return tuple(sorted({(dice[i], dice[j]) for i in range(len(dice)) for j in range(len(dice)) if i != j}))


def uses(board: Board, sheet: Sheet, dice: tuple[int, ...]) -> dict[tuple[int, int, int], int]:
    """Every use of two of ``dice`` on ``sheet``: ``(station, number, sections) -> passes spent``
    (the fewest over the choice of dice), within the passes left."""
    m = board.masks
    budget, marked, nums = sheet.passes, sheet.marked, sheet.nums
    pairs = pairs_of(dice)
    if not sheet.filled:
        cands = [(board.star, 0)]
    else:
        cands = [(s, n) for s, n in enumerate(nums) if n]
        seen = set()
        bits = marked
        while bits:
            low = bits & -bits
            a, b = m.ends[low.bit_length() - 1]
            bits ^= low
            for s in (a, b):
                if not nums[s] and s not in seen:
                    seen.add(s)
                    cands.append((s, 0))
    out: dict[tuple[int, int, int], int] = {}
    for s, fixed in cands:
        secs = {k for _, k, _ in m.at[s]}
        for k in secs:
            for d1, d2 in pairs:
                ck = abs(d2 - k)
                if ck > budget:
                    continue
                if fixed:
                    cost = ck + abs(d1 - fixed)
                    if cost <= budget and out.get((s, fixed, k), 99) > cost:
                        out[(s, fixed, k)] = cost
                    continue
                spare = budget - ck
                for n in range(max(1, d1 - spare), min(6, d1 + spare) + 1):
                    cost = ck + abs(d1 - n)
                    if out.get((s, n, k), 99) > cost:
                        out[(s, n, k)] = cost
    return out


def use(board: Board, sheet: Sheet, station: int, number: int, sections: int, cost: int) -> Sheet:
    """The sheet after writing ``number`` in ``station`` (if empty) and marking its connections
    with ``sections`` sections; completed lines and zones are flagged (points come at turn end)."""
    m = board.masks
    nums = sheet.nums if sheet.nums[station] else sheet.nums[:station] + (number,) + sheet.nums[station + 1:]
    filled = sheet.filled | 1 << station
    marked = sheet.marked
    for c, k, _ in m.at[station]:
        if k == sections:
            marked |= 1 << c
    lines = sheet.lines
    for i, (ls, lc) in enumerate(zip(m.line_stations, m.line_connections)):
        if not lines >> i & 1 and ls & filled == ls and lc & marked == lc:
            lines |= 1 << i
    zones = sheet.zones
    for i, zs in enumerate(m.zone_stations):
        if not zones >> i & 1 and zs & filled == zs:
            zones |= 1 << i
    return Sheet(nums, filled, marked, sheet.passes - cost, lines, zones, sheet.points)


def lines_target(edition: Edition) -> int:
    return min(edition.rules.lines_to_end, len(edition.board.lines))


@dataclass(frozen=True)
class State:
    players: int
    sheets: tuple[Sheet, ...]
    rolls: tuple[tuple[int, ...], ...]  # the seeded chance outcomes, turn 1 first
    seed: int = 0
    turn: int = 0  # rolls made before this one
    active: int = 0  # the player who rolls this turn
    to_move: int = -1  # -1: chance (the roll)
    phase: str = "roll"  # roll | keep | use | over
    dice: tuple[int, ...] = ()
    left: tuple[int, ...] = ()  # the dice the others use
    before: tuple[tuple[int, int], ...] = ()  # each sheet's (lines, zones) at the start of this turn
    claimed: tuple[int, int] = (0, 0)  # lines, zones completed by someone before this turn

    # -- the OpenSpiel shape ------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.phase == "roll"

    def chance_outcome(self) -> tuple[int, ...]:
        """The seeded roll for this turn."""
        return self.rolls[self.turn]

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self, edition: Edition) -> tuple[int, ...]:
        pp = edition.rules.pass_points
        return tuple(s.points + pp * s.passes for s in self.sheets)

    def returns(self, edition: Edition) -> tuple[float, ...]:
        """Each player's score (0s before the end)."""
        return tuple(float(x) for x in self.scores(edition)) if self.is_terminal() else (0.0,) * self.players

    def legal_actions(self, edition: Edition) -> tuple[Action, ...]:
        if self.phase == "keep":
            out: list[Action] = []
            sheet = self.sheets[self.to_move]
            for keep in keeps(self.dice):
                kept = tuple(self.dice[i] for i in keep)
                out.append((keep, SKIP, 0, 0))
                out += [(keep, s, n, k) for (s, n, k) in sorted(uses(edition.board, sheet, kept))]
            return tuple(out)
        if self.phase == "use":
            found = uses(edition.board, self.sheets[self.to_move], self.left)
            return ((), SKIP, 0, 0), *(((), s, n, k) for (s, n, k) in sorted(found))
        return ()

    def apply(self, action: Action, edition: Edition, check: bool = True) -> "State":
        """The state after ``action`` (a roll ``("roll", dice)`` at a chance node). UsageError if
        illegal; ``check=False`` skips the test (bots pass actions they took from ``uses``)."""
        if self.phase == "roll":
            if action[0] != "roll" or len(action[1]) != edition.rules.dice or not all(1 <= d <= 6 for d in action[1]):
                raise UsageError(f"{action!r} is not a roll of {edition.rules.dice} dice")
            return replace(self, dice=tuple(action[1]), phase="keep", to_move=self.active,
                           before=tuple((s.lines, s.zones) for s in self.sheets))
        if self.phase == "over":
            raise UsageError("the game is over")
        if check and action not in self.legal_actions(edition):
            raise UsageError(f"{action!r} is not a legal action for player {self.to_move + 1}")
        keep, station, number, sections = action
        dice = tuple(self.dice[i] for i in keep) if self.phase == "keep" else self.left
        sheets = self.sheets
        if station != SKIP:
            cost = uses(edition.board, sheets[self.to_move], dice)[(station, number, sections)] if check else \
                cost_of(sheets[self.to_move], dice, number, sections, edition.board)
            sheet = use(edition.board, sheets[self.to_move], station, number, sections, cost)
            sheets = sheets[:self.to_move] + (sheet,) + sheets[self.to_move + 1:]
        state = replace(self, sheets=sheets)
        if self.phase == "keep":
            left = list(self.dice)
            for i in sorted(keep, reverse=True):
                del left[i]
            state = replace(state, left=tuple(left))
        nxt = (self.to_move + 1) % self.players
        if nxt != self.active:
            return replace(state, phase="use", to_move=nxt)
        return state._end_turn(edition)

    def _end_turn(self, edition: Edition) -> "State":
        lines_claimed, zones_claimed = self.claimed
        new_lines, new_zones = 0, 0
        sheets = []
        for sheet, (lb, zb) in zip(self.sheets, self.before):
            pts = sheet.points
            for i, award in enumerate(edition.lines):
                if sheet.lines >> i & 1 and not lb >> i & 1:
                    pts += award.low if lines_claimed >> i & 1 else award.high
                    new_lines |= 1 << i
            for i, award in enumerate(edition.zones):
                if sheet.zones >> i & 1 and not zb >> i & 1:
                    pts += award.low if zones_claimed >> i & 1 else award.high
                    new_zones |= 1 << i
            sheets.append(sheet._replace(points=pts) if pts != sheet.points else sheet)
        turn = self.turn + 1
        target = lines_target(edition)
        over = any(bin(s.lines).count("1") >= target for s in sheets) or turn >= min(len(self.rolls), edition.rules.max_turns)
        return replace(self, sheets=tuple(sheets), turn=turn, claimed=(lines_claimed | new_lines, zones_claimed | new_zones),
                       phase="over" if over else "roll", to_move=-1, active=(self.active + 1) % self.players,
                       dice=(), left=())


def cost_of(sheet: Sheet, dice: tuple[int, ...], number: int, sections: int, board: Board) -> int:
    """The fewest passes to read two of ``dice`` as (number, sections)."""
    return min(abs(a - number) + abs(b - sections) for a, b in pairs_of(dice))


def keeps(dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The index pairs the active player may keep, one per distinct pair of values."""
    seen, out = set(), []
    for i, j in combinations(range(len(dice)), 2):
        key = tuple(sorted((dice[i], dice[j])))
        if key not in seen:
            seen.add(key)
            out.append((i, j))
    return tuple(out)


def new_game(edition: Edition, players: int, seed: int) -> State:
    """Blank sheets, each seat's passes (the recipe's ``passes`` plus ``extra_passes`` for its seat: later
    seats get more, against seat 1's advantage of rolling first and most), the seeded rolls; seat 1 rolls first."""
    rules = edition.rules
    if not rules.players_min <= players <= rules.players_max:
        raise UsageError(f"--players must be {rules.players_min}-{rules.players_max}, got {players}")
    rolls = edition.rolls(seed).turns
    return State(players, tuple(blank_sheet(edition.board, rules.passes_of(p)) for p in range(players)), rolls, seed)
