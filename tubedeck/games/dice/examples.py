"""Tube Dice's worked examples for the rulebook: one seeded game, played and replayed by the engine.

The game: :data:`PLAYERS` players, roll seed :data:`SEED` (the rolls ``tubedeck play dice --seed 1``
rolls), every decision taken by :func:`choose`, a plain deterministic policy written here (the
engine only: the rules module may not import the bots). Each decision is one of the engine's own
legal actions and is applied through :meth:`State.apply` with its legality check on, so every die,
station, pass and point the rulebook prints is the engine's: change a rule, the map or the points
and the numbers change with it (and the rulebook's test compares them).

Two examples come out of the one game (engine only, no generator import):

* :func:`turn_example`: the first use of a roll that needs a pass (a die turned by one), as one
  player's sheet had it before and after (for the figure: the sheet part round the station);
* :func:`score_example`: the end: who ended it, each player's lines, zones and unused passes,
  the totals and the winner(s).

:func:`setup_example` gives the table before roll 1: the players, who rolls first, each seat's
passes and the first roll. On a map (another scope or city) where the seed's game never needs a
pass, :func:`example_seed` takes the first later seed whose game does, for all three.
"""

from __future__ import annotations

from dataclasses import dataclass

from tubedeck.errors import NotApplicable

from .edition import Edition
from .play import SKIP, Action, Sheet, State, cost_of, new_game, pairs_of, use

SEED = 1
PLAYERS = 4


def _value(state: State, sheet: Sheet, after: Sheet, cost: int) -> float:
    """What :func:`choose` counts for one use: lines and zones completed, connections marked, a
    station filled, less the passes spent."""
    ed = state.edition
    new_lines = bin(after.lines & ~sheet.lines).count("1")
    new_zones = bin(after.zones & ~sheet.zones).count("1")
    marked = bin(after.marked & ~sheet.marked).count("1")
    filled = bin(after.filled & ~sheet.filled).count("1")
    return 12.0 * new_lines + 6.0 * new_zones + 1.0 * marked + 0.6 * filled - 2.5 * cost * ed.rules.pass_points


def choose(state: State) -> Action:
    """The example game's decision: the legal use worth most by :func:`_value` (the first of equal
    ones, in the engine's order), declining only when no use is worth anything."""
    board = state.edition.board
    sheet = state.sheets[state.to_move]
    best: tuple[float, int] | None = None
    legal = state.legal_actions()
    for i, action in enumerate(legal):
        keep, station, number, sections = action
        if station == SKIP:
            continue
        dice = tuple(state.dice[k] for k in keep) if keep else state.left
        cost = cost_of(sheet, dice, number, sections, board)
        value = _value(state, sheet, use(board, sheet, station, number, sections, cost), cost)
        if best is None or value > best[0] + 1e-9:
            best = (value, i)
    if best is None or best[0] <= 0:
        return next(a for a in legal if a[1] == SKIP)  # the roller still keeps a pair
    return legal[best[1]]


@dataclass(frozen=True)
class Game:
    """The example game: its seed and players, every action (rolls included) and every state."""

    seed: int
    players: int
    actions: tuple[Action, ...]
    states: tuple[State, ...]


def _play(edition: Edition, players: int, seed: int) -> Game:
    state = new_game(edition, players, seed)
    states, acts = [state], []
    while not state.is_terminal():
        action = state.dealt_outcome() if state.phase == "roll" else choose(state)
        assert action is not None
        state = state.apply(action)  # the engine's legality check on
        acts.append(action)
        states.append(state)
    return Game(seed, players, tuple(acts), tuple(states))


_GAMES: dict[tuple[int, int, int], tuple[Edition, Game]] = {}


def replay(edition: Edition, players: int = PLAYERS, seed: int = SEED) -> Game:
    """The example game on ``edition`` (played once per process, edition, players and seed)."""
    players = max(edition.rules.players_min, min(players, edition.rules.players_max))
    key = (id(edition), players, seed)
    hit = _GAMES.get(key)
    if hit is None or hit[0] is not edition:
        if len(_GAMES) > 8:
            _GAMES.clear()
        _GAMES[key] = hit = (edition, _play(edition, players, seed))
    return hit[1]


# -- setup ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SetupExample:
    """The table before roll 1: ``passes`` by seat (seat 1 rolls first), the first roll."""

    seed: int
    players: int
    passes: tuple[int, ...]
    first_roll: tuple[int, ...]
    star: str


def setup_example(edition: Edition) -> SetupExample:
    game = replay(edition, seed=example_seed(edition))
    start = game.states[0]
    return SetupExample(game.seed, game.players, tuple(s.passes for s in start.sheets), start.rolls[0],
                        edition.board.stations[edition.board.star].name)


# -- a turn with a pass ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnExample:
    """One use of a roll that needs passes, as the engine played it.

    ``seat`` used two dice (``roller``'s kept pair when ``seat == roller``, else two of ``left``):
    ``station_die`` as the station (``number`` after the passes) and ``connection_die`` as the
    connections (``sections`` after the passes). ``opened_from``: the station at the far end of
    the marked connection that let an empty station be filled (None when the station already held
    ``number``). ``marked``: the stations at the other ends of the connections marked now (those
    marked before left out) and ``kept_marked`` those already marked. ``before`` / ``after``: the
    seat's sheet."""

    seed: int
    players: int
    roll: int  # 1-based
    roller: int  # 1-based seat
    dice: tuple[int, ...]  # as rolled
    kept: tuple[int, int]
    left: tuple[int, ...]
    seat: int  # 1-based
    station: int
    station_name: str
    filled_before: bool
    opened_from: str | None
    number: int
    sections: int
    station_die: int
    connection_die: int
    marked: tuple[str, ...]
    kept_marked: tuple[str, ...]
    passes_before: int
    passes_spent: int
    before: Sheet
    after: Sheet


def _dice_read(dice: tuple[int, ...], number: int, sections: int) -> tuple[int, int]:
    """The (station die, connection die) pair of ``dice`` read as (number, sections) with fewest passes."""
    return min(pairs_of(dice), key=lambda p: (abs(p[0] - number) + abs(p[1] - sections), p))


def _pass_uses(game: Game) -> list[tuple[bool, bool, int]]:
    """The uses of ``game`` needing a pass, on a station other than the star: (marks nothing new,
    by the roller, index of the action), for :func:`turn_example` to pick the first of."""
    board = game.states[0].edition.board
    out = []
    for k, action in enumerate(game.actions):
        if action[0] == "roll" or action[1] == SKIP:
            continue
        state = game.states[k]
        keep, station, number, sections = action
        dice = tuple(state.dice[i] for i in keep) if keep else state.left
        sheet = state.sheets[state.to_move]
        d1, d2 = _dice_read(dice, number, sections)
        after = game.states[k + 1].sheets[state.to_move]
        if abs(d1 - number) + abs(d2 - sections) and station != board.star and sheet.filled:
            out.append((after.marked == sheet.marked, bool(keep), k))
    return out


def example_seed(edition: Edition, tries: int = 20) -> int:
    """:data:`SEED`, or on a map where its game never uses a pass the first seed after it whose game
    does (both worked examples come from one game)."""
    for seed in range(SEED, SEED + tries):
        if _pass_uses(replay(edition, seed=seed)):
            return seed
    raise NotApplicable(f"no worked example for the rulebook: none of {tries} seeded games used a pass")


def turn_example(edition: Edition) -> TurnExample:
    """The game's first use needing a pass on a station other than the star that marks a connection,
    by a player who is not the roller (so the example shows the roller's pair going and the other
    three dice shared); failing that, the first such use marking nothing new, or by the roller."""
    game = replay(edition, seed=example_seed(edition))
    board = edition.board
    candidates = _pass_uses(game)
    *_, k = min(candidates)  # one marking a connection, by a player other than the roller, the earliest
    state, action = game.states[k], game.actions[k]
    keep, station, number, sections = action
    dice = tuple(state.dice[i] for i in keep) if keep else state.left
    sheet, after = state.sheets[state.to_move], game.states[k + 1].sheets[state.to_move]
    d1, d2 = _dice_read(dice, number, sections)
    # the roller's action is the first after the roll
    roll_at = max(i for i in range(k + 1) if game.actions[i][0] == "roll")
    kept_idx = game.actions[roll_at + 1][0]
    rolled = game.actions[roll_at][1]
    kept = (rolled[kept_idx[0]], rolled[kept_idx[1]])
    left = tuple(d for i, d in enumerate(rolled) if i not in kept_idx)
    other = {c.index: (c.b if c.a == station else c.a) for c in board.around[station]}
    new = tuple(board.stations[other[c]].name for c in sorted(other)
                if after.marked >> c & 1 and not sheet.marked >> c & 1)
    old = tuple(board.stations[other[c]].name for c in sorted(other)
                if sheet.marked >> c & 1 and next(x for x in board.around[station] if x.index == c).sections == sections)
    opened = None
    if not sheet.nums[station]:
        opened = next(board.stations[other[c]].name for c in sorted(other) if sheet.marked >> c & 1)
    return TurnExample(game.seed, game.players, state.turn + 1, state.active + 1, rolled, kept, left,
                       state.to_move + 1, station, board.stations[station].name, bool(sheet.nums[station]), opened,
                       number, sections, d1, d2, new, old, sheet.passes, sheet.passes - after.passes, sheet, after)


# -- the end and the score ------------------------------------------------------------------------
@dataclass(frozen=True)
class Completion:
    """A line or zone a player completed: its name, the roll (1-based), high (first) or low points."""

    name: str
    roll: int
    first: bool
    points: int


@dataclass(frozen=True)
class PlayerScore:
    seat: int  # 1-based
    lines: tuple[Completion, ...]
    zones: tuple[Completion, ...]
    passes_left: int
    pass_points: int
    total: int


@dataclass(frozen=True)
class ScoreExample:
    """The end of the example game: after ``rolls`` rolls, ``ender`` (1-based; the first seat to
    reach the line target) completed ``target`` lines; every player's score; the winners."""

    seed: int
    players: int
    rolls: int
    ender: int
    target: int
    scores: tuple[PlayerScore, ...]
    winners: tuple[int, ...]


def score_example(edition: Edition) -> ScoreExample:
    game = replay(edition, seed=example_seed(edition))
    board, rules = edition.board, edition.rules
    end = game.states[-1]
    ends = [s for s in game.states if s.phase == "roll" or s.phase == "over"]  # after each roll (and the start)
    firsts = end.firsts
    out = []
    for seat in range(game.players):
        done_lines: list[Completion] = []
        done_zones: list[Completion] = []
        for roll, (prev, nxt) in enumerate(zip(ends, ends[1:]), 1):
            a, b = prev.sheets[seat], nxt.sheets[seat]
            for i, award in enumerate(edition.lines):
                if b.lines >> i & 1 and not a.lines >> i & 1:
                    first = firsts[i] == roll
                    done_lines.append(Completion(board.lines[i].name, roll, first, award.high if first else award.low))
            for i, award in enumerate(edition.zones):
                if b.zones >> i & 1 and not a.zones >> i & 1:
                    first = firsts[len(edition.lines) + i] == roll
                    done_zones.append(Completion(f"Zone {board.zones[i].zone}", roll, first,
                                                 award.high if first else award.low))
        sheet = end.sheets[seat]
        total = end.scores()[seat]
        assert total == sum(c.points for c in done_lines + done_zones) + rules.pass_points * sheet.passes
        out.append(PlayerScore(seat + 1, tuple(done_lines), tuple(done_zones), sheet.passes,
                               rules.pass_points * sheet.passes, total))
    top = max(p.total for p in out)
    target = min(rules.lines_to_end, len(board.lines))
    ender = next((p.seat for p in out if len(p.lines) >= target), 0)
    return ScoreExample(game.seed, game.players, end.turn, ender, target, tuple(out),
                        tuple(p.seat for p in out if p.total == top))
