"""Tube Dice as played: the rules as an immutable state machine (:class:`tubedeck.play.State`).

:func:`new_game` binds the edition to the game; a :class:`State` says whose decision it is
(:meth:`State.current_player`: :data:`~tubedeck.play.CHANCE` for the roll of the dice, the seat
deciding, :data:`~tubedeck.play.TERMINAL` once over), lists :meth:`State.legal_actions` and
returns the next state from :meth:`State.apply`; :meth:`State.returns` (each player's score) ends
it. The roll is the chance event: :meth:`State.chance_outcomes` are the 252 distinct rolls of 5
dice (sorted, with their probabilities), and :func:`new_game` fixes a seeded roll sequence whose
roll :meth:`State.dealt_outcome` gives, so a seeded game is its seed plus its decisions, and
replaying them gives the same log. :meth:`State.describe` says an action in a player's words
("keeps 3 and 5: writes 4 in Bank and marks its connections of 2 sections (1 pass)").

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
  extra_passes[k - 1]`` (recipe ``[game]``): a later seat never gets fewer (the default: one more
  for seat 4), against seat 1's advantage of rolling first (measured: docs/dice.md, Seat advantage).
  Solo is seat 1.
* **Using dice is optional**: a player may always decline ("can use"); a player with no possible
  pair declines. The active player still keeps 2 dice (action ``keep`` with no use).
* **Completions** are scored when everyone has used the roll: a line or zone that no player had
  completed before this turn scores its high points for every player completing it this turn
  ("ties share": each gets the high number), later completions score low.
* **The end**: after the turn in which any player has completed ``lines_to_end`` lines (or
  every line of a map with fewer lines), or after ``max_turns`` rolls.
* **Score**: line and zone points plus ``pass_points`` per unused pass; ``returns`` are scores.

Actions are tuples ``(keep, station, number, sections)``: ``keep`` the dice indices the active
player keeps (``()`` for the others), ``station`` -1 for declining; a roll is ``("roll", dice)``.
A turn is one roll of the dice, which every player uses: the game counts rolls (``roll 7``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial
from random import Random
from typing import NamedTuple

from tubedeck.errors import UsageError
from tubedeck.play import CHANCE, TERMINAL, Engine
from tubedeck.words import plural

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


def use_cost(board: Board, sheet: Sheet, dice: tuple[int, ...], station: int, number: int, sections: int) -> int | None:
    """``uses(board, sheet, dice).get((station, number, sections))`` for one use, without listing
    the others: the fewest passes, or None when the use is not open to ``sheet``."""
    if not (type(station) is int and type(number) is int and type(sections) is int
            and 0 <= station < len(sheet.nums) and 1 <= number <= 6):
        return None
    at = board.masks.at[station]
    fixed = sheet.nums[station]
    if not sheet.filled:
        if station != board.star:
            return None
    elif fixed:
        if number != fixed:
            return None
    elif not any(sheet.marked >> c & 1 for c, _, _ in at):  # not at the end of a marked connection
        return None
    if not any(k == sections for _, k, _ in at):
        return None
    cost = min((abs(a - number) + abs(b - sections) for a, b in pairs_of(dice)), default=None)
    return cost if cost is not None and cost <= sheet.passes else None


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
    edition: Edition = field(compare=False, repr=False)  # bound at new_game: no method takes it
    players: int
    sheets: tuple[Sheet, ...]
    rolls: tuple[tuple[int, ...], ...] = field(repr=False)  # the seeded chance outcomes, roll 1 first
    seed: int = 0
    turn: int = 0  # rolls made before this one
    active: int = 0  # the player who rolls this turn
    to_move: int = -1  # -1: chance (the roll)
    phase: str = "roll"  # roll | keep | use | over
    dice: tuple[int, ...] = ()
    left: tuple[int, ...] = ()  # the dice the others use
    before: tuple[tuple[int, int], ...] = ()  # each sheet's (lines, zones) at the start of this turn
    claimed: tuple[int, int] = (0, 0)  # lines, zones completed by someone before this turn
    firsts: tuple[int, ...] = ()  # per line, then per zone: the roll (1-based) of its first completion, 0 not yet

    # -- the play contract (tubedeck.play.State) -----------------------------------------------
    def current_player(self) -> int:
        if self.phase == "roll":
            return CHANCE
        return TERMINAL if self.phase == "over" else self.to_move

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Every distinct roll (the dice sorted) with its probability; empty unless rolling."""
        return roll_outcomes(self.edition.rules.dice) if self.phase == "roll" else ()

    def dealt_outcome(self) -> Action | None:
        """The seeded roll of this turn (the dice in the order rolled), else None."""
        return ("roll", self.rolls[self.turn]) if self.phase == "roll" else None

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> tuple[int, ...]:
        """Each player's points: lines and zones circled plus ``pass_points`` per unused pass."""
        pp = self.edition.rules.pass_points
        return tuple(s.points + pp * s.passes for s in self.sheets)

    def returns(self) -> tuple[float, ...]:
        """Each player's score (0s before the end)."""
        return tuple(float(x) for x in self.scores()) if self.is_terminal() else (0.0,) * self.players

    def legal_actions(self) -> tuple[Action, ...]:
        board = self.edition.board
        if self.phase == "keep":
            out: list[Action] = []
            sheet = self.sheets[self.to_move]
            for keep in keeps(self.dice):
                kept = tuple(self.dice[i] for i in keep)
                out.append((keep, SKIP, 0, 0))
                out += [(keep, s, n, k) for (s, n, k) in sorted(uses(board, sheet, kept))]
            return tuple(out)
        if self.phase == "use":
            found = uses(board, self.sheets[self.to_move], self.left)
            return ((), SKIP, 0, 0), *(((), s, n, k) for (s, n, k) in sorted(found))
        return ()

    def apply(self, action: Action, check: bool = True) -> "State":
        """The state after ``action`` (a roll ``("roll", dice)`` at a chance node). UsageError if
        illegal; ``check=False`` skips the test (bots pass actions they took from ``uses``)."""
        edition = self.edition
        if self.phase == "roll":
            n = edition.rules.dice
            if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "roll"
                    and isinstance(action[1], tuple) and len(action[1]) == n
                    and all(type(d) is int and 1 <= d <= 6 for d in action[1])):
                raise UsageError(f"{action!r} is not a roll of {n} dice")
            return replace(self, dice=action[1], phase="keep", to_move=self.active,
                           before=tuple((s.lines, s.zones) for s in self.sheets))
        if self.phase == "over":
            raise UsageError("the game is over")
        if check and not (isinstance(action, tuple) and len(action) == 4):
            raise UsageError(f"{action!r} is not a legal action for player {self.to_move + 1}")
        keep, station, number, sections = action
        if self.phase == "keep":
            if check and keep not in keeps(self.dice):
                raise UsageError(f"{action!r} is not a legal action for player {self.to_move + 1}")
            dice = tuple(self.dice[i] for i in keep)
        else:
            if check and keep != ():
                raise UsageError(f"{action!r} is not a legal action for player {self.to_move + 1}")
            dice = self.left
        sheets = self.sheets
        if station != SKIP or (check and (number, sections) != (0, 0)):
            if check:  # what legal_actions lists, for the one use asked
                cost = use_cost(edition.board, sheets[self.to_move], dice, station, number, sections)
                if cost is None:
                    raise UsageError(f"{action!r} is not a legal action for player {self.to_move + 1}")
            else:
                cost = cost_of(sheets[self.to_move], dice, number, sections, edition.board)
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
        return state._end_turn()

    def _end_turn(self) -> "State":
        edition = self.edition
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
        firsts = self.firsts
        fresh = (new_lines & ~lines_claimed) | (new_zones & ~zones_claimed) << len(edition.lines)
        if fresh:
            firsts = tuple(turn if fresh >> i & 1 else f for i, f in enumerate(firsts))
        target = lines_target(edition)
        over = any(bin(s.lines).count("1") >= target for s in sheets) or turn >= min(len(self.rolls), edition.rules.max_turns)
        return replace(self, sheets=tuple(sheets), turn=turn, claimed=(lines_claimed | new_lines, zones_claimed | new_zones),
                       phase="over" if over else "roll", to_move=-1, active=(self.active + 1) % self.players,
                       dice=(), left=(), firsts=firsts)

    def determinize(self, seat: int, rng: Random) -> "State":
        """A state ``seat`` cannot tell from this one (:func:`tubedeck.play.determinize`): the
        rolls to come drawn again (the rolls made are replaced by a placeholder: no one reads them)."""
        n, made = self.edition.rules.dice, self.turn + (self.phase != "roll")
        rolls = ((1,) * n,) * made + tuple(tuple(rng.randint(1, 6) for _ in range(n))
                                           for _ in range(len(self.rolls) - made))
        return replace(self, rolls=rolls)

    # -- words ------------------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        """``rolls 3 3 5 1 6``; ``keeps 3 and 5: writes 4 in Bank and marks its connections of 2
        sections (1 pass)``; ``uses no dice``."""
        if action[0] == "roll":
            return "rolls " + " ".join(map(str, action[1]))
        keep, station, number, sections = action
        dice = tuple(self.dice[i] for i in keep) if keep else self.left
        if station == SKIP:
            what = "uses no dice"
        else:
            sheet = self.sheets[self.to_move]
            name = self.edition.board.stations[station].name
            cost = cost_of(sheet, dice, number, sections, self.edition.board)
            what = (f"uses the {number} in {name}" if sheet.nums[station] else f"writes {number} in {name}") \
                + f" and marks its connections of {plural(sections, 'section')}" \
                + (f" ({plural(cost, 'pass', 'passes')})" if cost else "")
        return f"keeps {' and '.join(map(str, dice))}: {what}" if keep else what

    def clock(self) -> str:
        """``roll 7 (player 3 rolls)``; ``over after 18 rolls`` at the end."""
        if self.phase == "over":
            return f"over after {plural(self.turn, 'roll')}"
        return f"roll {self.turn + 1} (player {self.active + 1} rolls)"

    def observation(self, seat: int) -> dict:
        """What ``seat`` (0-based) sees: everything but the rolls to come (the seed fixes them).
        Stations, connections, lines and zones by their index on the edition's board."""
        return {"seat": seat, "players": self.players, "roll": self.turn + (self.phase != "over"),
                "roller": self.active, "to_move": self.current_player(), "phase": self.phase,
                "dice": list(self.dice), "left": list(self.left),
                "claimed": {"lines": bits(self.claimed[0]), "zones": bits(self.claimed[1])},
                "sheets": [{"numbers": list(s.nums), "marked": bits(s.marked), "passes": s.passes,
                            "lines": bits(s.lines), "zones": bits(s.zones), "points": s.points}
                           for s in self.sheets],
                "completed_before_this_roll": [{"lines": bits(lb), "zones": bits(zb)} for lb, zb in self.before]}


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


@cache
def roll_outcomes(dice: int) -> tuple[tuple[Action, float], ...]:
    """The distinct rolls of ``dice`` six-sided dice (sorted values) with their multinomial
    probabilities: 252 for 5 dice, summing to 1."""
    total = 6 ** dice
    out = []
    for roll in combinations_with_replacement(range(1, 7), dice):
        ways = factorial(dice)
        for c in Counter(roll).values():
            ways //= factorial(c)
        out.append((("roll", roll), ways / total))
    return tuple(out)


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
    """The game bound to ``edition``: blank sheets, each seat's passes (the recipe's ``passes`` plus
    ``extra_passes`` for its seat: a later seat never fewer, against seat 1's advantage of rolling
    first), the seeded rolls; seat 1 rolls first."""
    rules = edition.rules
    if not rules.players_min <= players <= rules.players_max:
        raise UsageError(f"--players must be {rules.players_min}-{rules.players_max}, got {players}")
    rolls = edition.rolls(seed).turns
    return State(edition, players, tuple(blank_sheet(edition.board, rules.passes_of(p)) for p in range(players)),
                 rolls, seed, firsts=(0,) * (len(edition.lines) + len(edition.zones)))


# The engine bound to the play contract (tubedeck.play.State): mypy checks every method, so drift fails `make lint`.
ENGINE: Engine[Action] = new_game
