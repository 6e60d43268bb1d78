"""The Keep London Moving checker's exact fast engine: every winning path, searched exhaustively.

The question is the CP-SAT model's (:mod:`tubedeck.solver.klm.model`): a player's earliest own turn with
five continuous stations, each Connection made on its own turn, no earlier than both its cards
have arrived. A player holds a few Connections (edges whose two stations they both get in the
window), so trying every simple path of them, each with its earliest schedule (Hall's bound, which
:func:`tubedeck.solver.klm.model.earliest_schedule` meets), proves the optimum by exhaustion:
OPTIMAL when a path is found, INFEASIBLE when none exists. A path is its middle station and two
arms of two stations (``path // 2`` each way); a station inside a path has two neighbours there
and is no Terminus card, so most players (three in four of `core`'s 4-player hands) are settled
before any path is built, and an arm ready later than the best finish so far is dropped. When a
player's middles pair more than ``MAX_NODES`` arms the engine gives up on that deal and CP-SAT
decides it (``--engine auto``); London deals pair about 300 at most.

**The same records as before.** Stations are numbered in the order of their ids, so a station's
*key* ``arrival * n + index`` orders a player's cards as the CP-SAT model numbers them (by arrival,
then id). Of the earliest paths the search keeps the one whose keys, read from the end with the
lower key, come first: the path the former search (a depth-first search in key order that kept
the first earliest path) found, so the records, paths and schedules included, are unchanged.

**Dealing in ints.** :class:`DealSearch` deals each seed itself: it draws the very numbers
:func:`tubedeck.games.klm.setup.deal` draws from the same ``random.Random(seed)`` (``shuffle`` and
``randint`` take each number below ``k`` from ``getrandbits(k.bit_length())``, drawn again while it
is ``>= k``) and keeps who holds each station from which own turn, without the deal's tuples of
names or its per-player windows (a third of a deal's time before). It is checked against the real
deal of seed 0 when built (another Python's ``random`` would fall back to ``setup.deal``), and
tests hold it to the real deal on hundreds of seeds, its answers to the brute force and CP-SAT,
and its records to the former search's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from tubedeck.games.klm.rules import Rules
from tubedeck.games.klm.setup import Deal, deal

from .model import PlayerAnswer, earliest_schedule, make_record

MAX_NODES = 200_000  # pairs of arms tried per player before CP-SAT takes the deal


class TooLarge(Exception):
    """The candidate graph is too large for exhaustive search: use CP-SAT."""


@dataclass(frozen=True)
class Board:
    """The connection graph as ints, built once per process: station ``i`` is ``ids[i]``, the ids
    in sorted order (so an index comparison is an id comparison)."""

    ids: tuple[str, ...]
    index: dict[str, int]
    edges: tuple[tuple[int, int], ...]  # every Connection the rules allow, once, (a, b) with a < b
    terminus: tuple[bool, ...]  # one Connection only: a path's end, never its middle
    path: int  # stations in a winning path (rules.path)

    @classmethod
    def of(cls, adjacency: dict[str, tuple[str, ...]], path: int, termini: frozenset[str] = frozenset(),
           stations: Sequence[str] = ()) -> Board:
        ids = tuple(sorted({*adjacency, *stations, *(n for ns in adjacency.values() for n in ns)}))
        index = {s: i for i, s in enumerate(ids)}
        edges = sorted({(min(index[s], index[n]), max(index[s], index[n])) for s, ns in adjacency.items() for n in ns})
        return cls(ids, index, tuple(edges), tuple(s in termini for s in ids), path)

    def holdings(self, d: Deal) -> tuple[list[int], list[int]]:
        """Who holds each station in ``d``'s window and from which own turn it can be played
        (``-1`` and ``0``: nobody)."""
        owner, arrival = [-1] * len(self.ids), [0] * len(self.ids)
        for w in d.windows():
            for s, turn in w.arrival:
                owner[self.index[s]], arrival[self.index[s]] = w.seat, turn
        return owner, arrival

    def split(self, owner: list[int], players: int) -> list[list[tuple[int, int]]]:
        """Each player's Connections: the edges whose two stations that player holds (a player
        with fewer than ``path - 1`` of them has no path, and most have a handful)."""
        mine: list[list[tuple[int, int]]] = [[] for _ in range(players)]
        for e in self.edges:
            p = owner[e[0]]
            if p == owner[e[1]] and p >= 0:
                mine[p].append(e)
        return mine

    def earliest(self, edges: list[tuple[int, int]], arrival: list[int], turns: int) -> tuple[int, ...] | None:
        """The path of one player's earliest win, or None when none comes within ``turns``: over
        ``edges`` (the player's, :meth:`split`), each station ``i`` playable from own turn
        ``arrival[i]``. Each path is a middle station and two arms of ``(path - 1) // 2`` and the
        rest further stations; of the earliest, the first in key order (the module docstring)."""
        length, terminus, n = self.path, self.terminus, len(self.ids)
        if len(edges) < length - 1:
            return None
        links: dict[int, list[int]] = {}
        for a, b in edges:
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
        # A station inside a path has two neighbours on it and is no Terminus card: most players'
        # few Connections have fewer than ``path - 2`` of those, and the search ends here.
        inside = {x for x, near in links.items() if len(near) > 1 and not terminus[x]}
        if len(inside) < length - 2:
            return None
        short = (length - 1) // 2
        long = length - 1 - short
        best, keys, found, nodes = turns, [0], None, 0  # a win must come within the window

        def arms(middle: int, size: int) -> list[tuple[list[int], list[int], int]]:
            """Simple walks of ``size`` stations on from ``middle`` (a Terminus card only at the
            end), each with its Connections' ready turns and the latest, none later than ``best``."""
            out: list[tuple[list[int], list[int], int]] = [([], [], 0)]
            for k in range(size):
                grown = []
                for arm, ready, top in out:
                    at = arm[-1] if arm else middle
                    here = arrival[at]
                    for x in links[at]:
                        if x == middle or x in arm or (terminus[x] and k < size - 1):
                            continue
                        r = arrival[x] if arrival[x] > here else here
                        if r <= best:
                            grown.append((arm + [x], ready + [r], r if r > top else top))
                out = grown
            return out

        firsts = (short > 1) + (long > 1)  # arms whose first station is inside the path
        for middle in inside if short else links:
            if firsts and sum(x in inside for x in links[middle]) < firsts:
                continue
            right = arms(middle, long)
            left = arms(middle, short) if short != long else right
            nodes += len(left) * len(right)
            if nodes > MAX_NODES:
                raise TooLarge
            for i, (head, before, top) in enumerate(left):
                # with arms of one size, each pair once (the path is turned round below)
                for tail, after, last in right[i + 1:] if left is right else right:
                    if top > best or last > best or not set(head).isdisjoint(tail):
                        continue
                    finish = hall(before + after)
                    if finish > best:
                        continue
                    path = head[::-1] + [middle] + tail
                    if arrival[path[0]] * n + path[0] > arrival[path[-1]] * n + path[-1]:
                        path.reverse()  # a path and its reverse are one: read from the end with the lower key
                    order = [arrival[x] * n + x for x in path]
                    if found is None or finish < best or order < keys:
                        best, keys, found = finish, order, path
        return tuple(found) if found else None

    def answer(self, player: int, order: int, turns: int, players: int, local: tuple[int, ...] | None,
               arrival: list[int]) -> PlayerAnswer:
        """The record's answer for one player from :meth:`earliest`'s path."""
        if local is None:
            return no_win(player, order, turns)
        ids = self.ids
        schedule = earliest_schedule([(max(arrival[a], arrival[b]), ids[a], ids[b]) for a, b in zip(local, local[1:])])
        turn = schedule[-1][0]
        return PlayerAnswer(player, order, turns, "OPTIMAL", turn, (turn - 1) * players + order,
                            tuple(ids[i] for i in local), schedule)


@lru_cache(maxsize=4096)
def no_win(seat: int, order: int, turns: int) -> PlayerAnswer:
    """A player's answer without a win (immutable, and most players': made once, not per deal)."""
    return PlayerAnswer(seat, order, turns, "INFEASIBLE", None, None, (), ())


def hall(readies: list[int]) -> int:
    """The earliest last turn for Connections ready on ``readies``, one per turn (Hall's bound)."""
    last = 0
    for r in sorted(readies):
        last = r if r > last else last + 1
    return last


def solve_deal_paths(adjacency: dict[str, tuple[str, ...]], d: Deal, path: int,
                     termini: frozenset[str] = frozenset()) -> tuple[str, tuple[PlayerAnswer, ...]]:
    """Every player's earliest win by exhaustive search (TooLarge when a graph is too big)."""
    board = Board.of(adjacency, path, termini, d.station_stock)
    owner, arrival = board.holdings(d)
    windows = d.windows()
    mine = board.split(owner, d.players)
    return "OPTIMAL", tuple(board.answer(w.seat, w.order, w.turns, d.players,
                                         board.earliest(mine[w.seat], arrival, w.turns), arrival) for w in windows)


@dataclass(frozen=True)
class DealSearch:
    """Every player's earliest win for the seeds of one edition and player count, dealt and
    searched in ints (see the module docstring): what ``check klm --engine auto`` runs per seed."""

    board: Board
    deck: tuple[int, ...]  # the Station stock before the shuffle (deal()'s order), as board indices
    fortune: int  # Fortune Cards shuffled next: their numbers are drawn, their order is not needed
    players: int
    rules: Rules
    width: tuple[int, ...]  # width[k]: the bits getrandbits draws for a number below k

    @classmethod
    def of(cls, board: Board, stations: tuple[str, ...], fortune: int, players: int, rules: Rules) -> DealSearch:
        deck = tuple(board.index[s] for s in stations)
        width = tuple(k.bit_length() for k in range(max(len(deck), fortune, rules.die) + 1))
        return cls(board, deck, fortune, players, rules, width)

    def deal(self, seed: int) -> tuple[int, int, list[int], list[int]]:
        """What the checker reads of seed's deal: the starter, the window (turns), and each
        station's holder and the own turn it can be played from (:meth:`Board.holdings`)."""
        rng = random.Random(seed)
        bits, width, players = rng.getrandbits, self.width, self.players
        stock = list(self.deck)
        for i in range(len(stock) - 1, 0, -1):  # random.shuffle: j below i + 1
            k = width[i + 1]
            j = bits(k)
            while j > i:
                j = bits(k)
            stock[i], stock[j] = stock[j], stock[i]
        for i in range(self.fortune - 1, 0, -1):  # the Fortune stock's shuffle, its numbers only
            k = width[i + 1]
            while bits(k) > i:
                pass
        die = self.rules.die
        dk = width[die]
        contenders = list(range(players))
        while True:  # roll_for_start: everyone rolls (a roll less one), the highest starts, ties again
            rolls = []
            for _ in contenders:
                r = bits(dk)
                while r >= die:
                    r = bits(dk)
                rolls.append(r)
            top = max(rolls)
            contenders = [p for p, r in zip(contenders, rolls) if r == top]
            if len(contenders) == 1:
                break
        starter = contenders[0]
        owner, arrival = [-1] * len(self.board.ids), [0] * len(self.board.ids)
        dealt = self.rules.hand * players
        for i in range(dealt):  # one at a time from seat 1; playable on own turn 1
            owner[stock[i]], arrival[stock[i]] = i % players, 1
        g, pos, end, six = 0, dealt, len(stock), self.rules.fortune_roll - 1
        while True:  # turn g: one roll; a 6 draws a Fortune Card and no Station Card
            r = bits(dk)
            while r >= die:
                r = bits(dk)
            if r != six:
                if pos == end:
                    break  # this player must draw from the empty stock: the window is over
                # turn g is its player's own turn g // players + 1 (the starter's turn 1 is g = 0)
                owner[stock[pos]], arrival[stock[pos]] = (starter + g) % players, g // players + 1
                pos += 1
            g += 1
        return starter, g, owner, arrival

    def matches(self, d: Deal) -> bool:
        """Whether :meth:`deal` reads ``d`` (the real deal of the same seed) as the checker does."""
        starter, window, owner, arrival = self.deal(d.seed)
        return (starter, window) == (d.starter, d.window) and (owner, arrival) == self.board.holdings(d) and all(
            w.turns == own_turns(window, w.order, self.players) for w in d.windows())

    def record(self, seed: int) -> dict:
        """The deal's record, as :func:`tubedeck.solver.klm.model.deal_record` writes it (TooLarge
        when a player's graph is too large for the search)."""
        starter, window, owner, arrival = self.deal(seed)
        board, players = self.board, self.players
        mine = board.split(owner, players)
        answers = []
        for p in range(players):
            order = (p - starter) % players
            turns = own_turns(window, order, players)
            answers.append(board.answer(p, order, turns, players, board.earliest(mine[p], arrival, turns), arrival))
        return make_record(seed, starter, window, "OPTIMAL", tuple(answers))


def own_turns(window: int, order: int, players: int) -> int:
    """Own turns in a window of ``window`` turns of the player at ``order`` (0: the starter)."""
    return (window - order + players - 1) // players if window > order else 0


def deal_search(stations: tuple[str, ...], fortune: tuple[str, ...], players: int, rules: Rules,
                adjacency: dict[str, tuple[str, ...]], termini: frozenset[str]) -> DealSearch | None:
    """The fast dealer and search for an edition, or None when its dealing does not match the real
    deal's on seed 0 (another Python's ``random``): then the caller deals with ``setup.deal``.
    Builds the real deal of seed 0, so bad options raise what ``setup.deal`` raises."""
    fast = DealSearch.of(Board.of(adjacency, rules.path, termini, stations), stations, len(fortune), players, rules)
    return fast if fast.matches(deal(stations, fortune, players, 0, rules)) else None
