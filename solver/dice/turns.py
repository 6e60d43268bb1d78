"""The turns a Tube Dice sheet still needs to complete a target: an admissible bound, exact for
its relaxation, for :mod:`.bnb`.

A turn is one ``(station, sections)`` pair: it writes in (or reuses) one station and marks that
station's connections with that many sections. To complete a target from a position, every
missing station needs a turn there (its first turn there fills it, so it is counted once: "free"
below), every missing connection of the target needs a turn at one of its ends with its sections,
and every missing station not yet opened needs a turn at a neighbour with the sections of the
connection between them (to be written in, a station must be at the end of a marked connection).
Any play that completes the target takes at least as many turns as the cheapest set of pairs
meeting these demands, where a pair costs 1 except a missing station's first (already counted);
an opener outside the target and not yet filled costs 1 for each pair there (its filling turn
too). Dropped, so the bound stays admissible: the dice, the order of turns (an opener must come
first), the opening of openers outside the target, and the end rule.

The cheapest cover is found exactly by iterative deepening on the extra turns: the demand with
fewest affordable pairs is branched on first (a few thousand steps at most on the 22-station map).
"""

from __future__ import annotations

import time
from collections.abc import Callable

LEAVES = 300  # covers a schedule check tries before giving up (then it does not cut)


def matched(masks: list[int], need_all: bool = False) -> int:
    """The most of ``masks`` (each a bit mask of the turns one pair may take) that distinct turns
    can serve: a maximum bipartite matching by augmenting paths. ``need_all``: stop at the first
    mask left unserved (the count is then below ``len(masks)``)."""
    owner: dict[int, int] = {}  # turn bit -> mask index

    def place(i: int, seen: list) -> bool:
        bits = masks[i] & ~seen[0]
        while bits:
            low = bits & -bits
            bits ^= low
            seen[0] |= low
            j = owner.get(low)
            if j is None or place(j, seen):
                owner[low] = i
                return True
        return False

    served = 0
    for i in range(len(masks)):
        if place(i, [0]):
            served += 1
        elif need_all:
            break
    return served


class Turns:
    when: Callable[[int, int], int] | None  # set by schedulable() for the duration of a check
    missing_all: int
    leaves: int

    def __init__(self, at, ends, sections, deadline: float = float("inf")):
        self.deadline = deadline  # perf_counter time: TimeoutError beyond it (a big map's cover)
        self.steps = 0  # cover steps, the search's deterministic measure of work
        self.step_cap = float("inf")  # TimeoutError beyond it (a deterministic budget)
        self.at = at  # per station: (connection, sections, other station)
        self.ends = ends  # per connection: (a, b)
        self.sections = sections  # per connection

    def needed(self, missing: int, edges: int, unopened: int, cap: int) -> int:
        """The fewest turns to fill ``missing``, mark ``edges`` and open ``unopened`` (station and
        connection bit masks); ``cap + 1`` when more than ``cap``."""
        demands = self.demands(edges, unopened)
        base = missing.bit_count()
        self.when = None
        for extra in range(cap - base + 1):
            if self._cover(demands, missing, {}, extra):
                return base + extra
        return cap + 1

    def schedulable(
        self, missing: int, edges: int, unopened: int, cap: int, when: Callable[[int, int], int]
    ) -> bool:
        """Is there a cover of at most ``cap`` turns whose pairs go to distinct turns that allow
        them? ``when(station, sections)`` is the bit mask of the turns whose roll allows that
        pair (``sections`` 0: any). True also when :data:`LEAVES` covers were tried in vain
        (no verdict: the caller does not cut)."""
        self.when, self.missing_all, self.leaves = when, missing, 0
        ok = self._cover(self.demands(edges, unopened), missing, {}, cap - missing.bit_count())
        self.when = None
        return ok or self.leaves > LEAVES

    def _schedule(self, chosen: dict) -> bool:
        """Distinct turns for the pairs ``chosen`` and one for each missing station without one
        (a bipartite matching by augmenting paths over turn bit masks)."""
        self.leaves += 1
        if self.leaves > LEAVES:
            return True
        when = self.when
        assert when is not None  # only reached from schedulable(), which sets it
        pairs = [when(s, k) for s, ks in chosen.items() for k in range(1, 7) if ks >> k & 1]
        bits = self.missing_all
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            if s not in chosen:
                pairs.append(when(s, 0))
        pairs.sort(key=int.bit_count)
        return matched(pairs, need_all=True) == len(pairs)

    def demands(self, edges: int, unopened: int) -> list[tuple[tuple[int, int], ...]]:
        demands: list[tuple[tuple[int, int], ...]] = []
        bits = edges
        while bits:
            low = bits & -bits
            c = low.bit_length() - 1
            bits ^= low
            a, b = self.ends[c]
            k = self.sections[c]
            demands.append(((a, k), (b, k)))
        bits = unopened
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            demands.append(tuple((o, k) for _, k, o in self.at[s]))
        return demands

    def _cover(self, demands, missing: int, chosen: dict, budget: int) -> bool:
        """Can ``budget`` more paid pairs meet every demand, given the pairs ``chosen``
        (station -> bit mask of sections)?"""
        self.steps += 1
        if not self.steps & 4095 and (self.steps > self.step_cap or time.perf_counter() > self.deadline):
            raise TimeoutError
        pick = None
        for demand in demands:
            options = []
            for s, k in demand:
                ks = chosen.get(s, 0)
                if ks >> k & 1:
                    break  # met
                cost = 0 if missing >> s & 1 and not ks else 1
                if cost <= budget:
                    options.append((cost, s, k))
            else:
                if not options:
                    return False
                if pick is None or len(options) < len(pick):
                    pick = options
                    if len(options) == 1:
                        break
        if pick is None:
            return self._covered(demands, missing, chosen, budget)
        pick.sort()
        for cost, s, k in pick:
            before = chosen.get(s, 0)
            chosen[s] = before | 1 << k
            ok = self._cover(demands, missing, chosen, budget - cost)
            if before:
                chosen[s] = before
            else:
                del chosen[s]
            if ok:
                return True
        return False

    def _covered(self, demands, missing: int, chosen: dict, budget: int) -> bool:
        """Every demand is met by ``chosen``: a cover, if its pairs fit the turns (a subclass may
        ask more of it, with ``demands`` and ``budget`` to extend the search)."""
        return True if self.when is None else self._schedule(chosen)
