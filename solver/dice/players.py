"""Players for Tube Dice as played (:mod:`tubedeck.games.dice.play`): each is ``bot(state, rng)``
(:data:`tubedeck.play.Bot`; the edition comes from the state), deterministic given its seat's
seeded stream ``rng``:

* ``random``: a uniformly random legal action drawn from ``rng``, but never declining when a use
  exists (declining for nothing only slows the game);
* ``greedy``: the use that most raises a simple value of its own sheet: for every line and zone,
  its points times the square of the share of its stations and connections marked (a completion
  therefore scores its full high or low points), a little per connection marked, less the passes
  spent. Of equal values the first in a fixed order wins. The active player keeps the pair whose
  best use is best. It draws nothing;
* ``lookahead``: greedy's six best uses, each valued by itself plus the average best greedy value
  of the next use over 12 two-dice pairs drawn from ``rng`` (the same pairs for every choice of
  one decision), so a move that opens good next moves wins.

Bots read the same masks the rules engine does and return actions the engine accepts (a test
replays every bot action through :meth:`State.apply` with the legality check on). They never read
the rolls to come (``state.rolls``): what they see is :meth:`State.observation`'s.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from tubedeck.games.dice.edition import Edition
from tubedeck.games.dice.play import SKIP, Action, Sheet, State, keeps, pairs_of, use
from tubedeck.play import Bot

CONNECTION_VALUE = 0.15
PASS_VALUE = 1.0  # besides the pass's own point at the end


@dataclass(frozen=True)
class Tables:
    """Per-edition lookups for fast valuation."""

    edition: Edition

    @cached_property
    def by_sections(self) -> tuple[dict[int, int], ...]:
        out = []
        for at in self.edition.board.masks.at:
            d: dict[int, int] = {}
            for c, k, _ in at:
                d[k] = d.get(k, 0) | 1 << c
            out.append(d)
        return tuple(out)

    @cached_property
    def lines_at(self) -> tuple[tuple[int, ...], ...]:
        m = self.edition.board.masks
        return tuple(tuple(i for i, ls in enumerate(m.line_stations) if ls >> s & 1) for s in range(len(m.at)))

    @cached_property
    def zone_at(self) -> tuple[int, ...]:
        m = self.edition.board.masks
        return tuple(next(i for i, zs in enumerate(m.zone_stations) if zs >> s & 1) for s in range(len(m.at)))

    @cached_property
    def sizes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        m = self.edition.board.masks
        return (tuple(a.bit_count() + b.bit_count() for a, b in zip(m.line_stations, m.line_connections)),
                tuple(z.bit_count() for z in m.zone_stations))


_TABLES: dict[int, tuple[Edition, Tables]] = {}


def tables(edition: Edition) -> Tables:
    hit = _TABLES.get(id(edition))
    if hit is None or hit[0] is not edition:
        _TABLES[id(edition)] = hit = (edition, Tables(edition))
    return hit[1]


def line_value(t: Tables, i: int, filled: int, marked: int, claimed: int) -> float:
    m = t.edition.board.masks
    done = (m.line_stations[i] & filled).bit_count() + (m.line_connections[i] & marked).bit_count()
    award = t.edition.lines[i]
    pts = award.low if claimed >> i & 1 else award.high
    return pts * (done / t.sizes[0][i]) ** 2


def zone_value(t: Tables, i: int, filled: int, claimed: int) -> float:
    zs = t.edition.board.masks.zone_stations[i]
    award = t.edition.zones[i]
    pts = award.low if claimed >> i & 1 else award.high
    return pts * ((zs & filled).bit_count() / t.sizes[1][i]) ** 2


_OPTIONS: dict = {}


def options(edition: Edition, sheet: Sheet, claimed: tuple[int, int]) -> list[tuple[float, int, int, int]]:
    """(value before passes, station, its number or 0, sections) of every use the sheet allows
    with some dice; worked out once per sheet (the active player prices ten pairs of dice on it)."""
    key = (id(edition), sheet, claimed)
    hit = _OPTIONS.get(key)
    if hit is not None and hit[0] is edition:
        return hit[1]
    t = tables(edition)
    board = edition.board
    m = board.masks
    nums, filled, marked = sheet.nums, sheet.filled, sheet.marked
    if not filled:
        cands = [board.star]
    else:
        cands = [s for s, n in enumerate(nums) if n]
        bits = marked
        extra = set()
        while bits:
            low = bits & -bits
            a, b = m.ends[low.bit_length() - 1]
            bits ^= low
            if not nums[a]:
                extra.add(a)
            if not nums[b]:
                extra.add(b)
        cands += sorted(extra)
    cl, cz = claimed
    base: dict[int, float] = {}
    out = []
    for s in cands:
        fixed = nums[s]
        new_filled = filled | 1 << s
        lines = t.lines_at[s]
        for i in lines:
            if i not in base:
                base[i] = line_value(t, i, filled, marked, cl)
        zone_gain = 0.0
        if not fixed:
            z = t.zone_at[s]
            zone_gain = zone_value(t, z, new_filled, cz) - zone_value(t, z, filled, cz)
        for k, mask in t.by_sections[s].items():
            gain = mask & ~marked
            if not gain and fixed:  # nothing new: reusing a station for no connection
                continue
            new_marked = marked | gain
            v = CONNECTION_VALUE * gain.bit_count() + zone_gain
            for i in lines:
                v += line_value(t, i, new_filled, new_marked, cl) - base[i]
            out.append((v, s, fixed, k))
    if len(_OPTIONS) > 64:
        _OPTIONS.clear()
    _OPTIONS[key] = (edition, out)
    return out


def candidates(edition: Edition, sheet: Sheet, dice: tuple[int, ...], claimed: tuple[int, int]):
    """(value gained, station, number, sections, passes) for every use of two of ``dice`` worth
    considering: each station and sections value at its fewest passes."""
    pairs = pairs_of(dice)
    budget = sheet.passes
    out = []
    for v, s, fixed, k in options(edition, sheet, claimed):
        best, number = 99, 0
        for d1, d2 in pairs:
            cost = abs(d2 - k) + (abs(d1 - fixed) if fixed else 0)
            if cost < best:
                best, number = cost, fixed or d1
        if best <= budget:
            out.append((v - best * PASS_VALUE, s, number, k, best))
    return out


def _best(edition: Edition, sheet: Sheet, dice, claimed):
    found = candidates(edition, sheet, dice, claimed)
    return max(found, key=lambda c: c[0]) if found else None


def greedy_player(state: State, rng: random.Random | None = None) -> Action:
    edition = state.edition
    sheet = state.sheets[state.to_move]
    if state.phase == "keep":
        best, choice = None, None
        for keep in keeps(state.dice):
            c = _best(edition, sheet, tuple(state.dice[i] for i in keep), state.claimed)
            if c is not None and (best is None or c[0] > best[0]):
                best, choice = c, keep
        if best is None:
            return (keeps(state.dice)[0], SKIP, 0, 0)
        return (choice, best[1], best[2], best[3])
    c = _best(edition, sheet, state.left, state.claimed)
    return ((), SKIP, 0, 0) if c is None else ((), c[1], c[2], c[3])


SAMPLES = 12
TOP = 6


def _look(edition: Edition, state: State, sheet: Sheet, dice, samples) -> tuple[float, tuple] | None:
    found = sorted(candidates(edition, sheet, dice, state.claimed), key=lambda c: -c[0])[:TOP]
    if not found:
        return None
    best = None
    for v, s, n, k, cost in found:
        after = use(edition.board, sheet, s, n, k, cost)
        future = 0.0
        for pair in samples:
            nxt = _best(edition, after, pair, state.claimed)
            future += max(0.0, nxt[0]) if nxt else 0.0
        score = v + future / SAMPLES
        if best is None or score > best[0]:
            best = (score, (s, n, k))
    return best


def lookahead_player(state: State, rng: random.Random) -> Action:
    edition = state.edition
    sheet = state.sheets[state.to_move]
    samples = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(SAMPLES)]
    if state.phase == "keep":
        best, choice = None, None
        for keep in keeps(state.dice):
            c = _look(edition, state, sheet, tuple(state.dice[i] for i in keep), samples)
            if c is not None and (best is None or c[0] > best[0]):
                best, choice = c, (keep, *c[1])
        return choice if choice else (keeps(state.dice)[0], SKIP, 0, 0)
    c = _look(edition, state, sheet, state.left, samples)
    return ((), *c[1]) if c else ((), SKIP, 0, 0)


def random_player(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    real = [a for a in legal if a[1] != SKIP]
    return rng.choice(real or list(legal))


PLAYERS: dict[str, Bot[State]] = {"random": random_player, "greedy": greedy_player, "lookahead": lookahead_player}
