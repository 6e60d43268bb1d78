"""Cuts between two rounds' lines (issue 25, item 1): rows of the column master that every game
keeps, so every bound stays a bound, and that the mixes of lines the relaxation leans on break.

Why: on seed 0's settled root (LP 220.2, best game 193) each round mixes 18-30 lines, and of all
the ways to take one of them a round only **2** are lines that may share a sheet; the LP scores
5.5 stations where four lines meet (9 points each) from lines that clash elsewhere. The master
keeps each section to one use *summed over the mix*; these cuts tie two rounds' lines together:

* **sections** ``(r, q, T)``: if round r's line draws every section of T, round q's line draws
  none of them and crosses none (``block(T)``), so
  ``w_r(lines drawing all of T) + w_q(lines touching block(T)) <= 1``;
* **station** ``(r, q, T, s)``: if both rounds' lines are on station s, then either r's line does
  not draw all of T, or q's line is clear of block(T), so the station's choices with r and q on
  it weigh at most ``w_r(lines on s not drawing all of T) + w_q(lines on s clear of block(T))``;
  over several sets T_1..T_k (``more``): ``w_r(lines on s drawing none of them whole) +
  w_q(lines on s clear of one of them)``, since r's line drawing T_j keeps q's clear of T_j.

T comes from a line of the master's mix: a pair of its sections for the first kind; for the
second, all its sections, or the path by which it reaches s from its departure, or an end of that
path at s (:func:`station_sets`: two lines reaching s by paths that clash never meet there, however
they go on; many lines of a mix share a path); several paths where a flow from r's paths to q's
lines clear of them carries less than the master puts on the station (:func:`flow_cut`, the
least cut of that flow). :func:`separate` picks the rows the master breaks most. A line's
coefficient is a test of its sections and stations, so a round priced by a scan of its listed
lines (:class:`.pairs.LineScan`) prices every cut at once; a round priced by the search takes
part in none (:func:`separate` is given the scanned rounds).

In the master (:meth:`.columns.MasterLP.add_clash`) a station cut holds one variable per
(station, pair of rounds), the weight of its choices with both rounds on it, defined once: written
over the choices themselves, 2,400 cuts of seed 0 were 2.4 million non-zeros and GLOP stalled.
A cut priced 0 when the next are separated is let go (its row freed) until broken again.

Branch and price's root separates :data:`CLASH_ROUNDS` rounds by default where rounds are listed
(``solve nextstation --game``, ``challenges --tables``); measured in research/nextstation/NOTEBOOK.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from tubedeck.games.nextstation.board import Board

KINDS = ("sections", "station")
CLASH_ROUNDS = 12  # rounds of cuts a root with listed lines separates by default (each at most CLASH_MOST)
CLASH_MOST = 200  # cuts a separation round adds at most


@dataclass(frozen=True)
class Clash:
    """One cut (see the module). ``bits``/``block``: T and block(T) as section masks. A station
    cut may take several sets, T and ``more`` (:func:`flow_cut`): then round r's line is in its
    row if it draws none of them whole, round q's if it is clear of one of them."""

    kind: str
    r: int
    q: int
    sections: frozenset[int]
    station: str = ""
    bits: int = field(default=0, compare=False)
    block: int = field(default=0, compare=False)
    more: tuple[frozenset[int], ...] = ()

    @property
    def every_bits(self) -> tuple[int, ...]:
        """T's mask and each of ``more``'s."""
        return (self.bits, *map(bits_of, self.more))

    @property
    def rhs(self) -> int:
        return 1 if self.kind == "sections" else 0

    def coef(self, r: int, drawn: int, block: int, stations: frozenset[str]) -> int:
        """The row's coefficient of round r's line with these sections (``drawn``, a mask; with
        what they cross, ``block``) and stations."""
        if r not in (self.r, self.q):
            return 0
        if self.kind == "sections":
            return int((drawn & self.bits) == self.bits if r == self.r else bool(block & self.bits))
        if self.station not in stations:
            return 0
        if r == self.r:
            return -int(all((drawn & t) != t for t in self.every_bits))
        return -int(any(not block & t for t in self.every_bits))

    def on(self, z: Sequence[int]) -> bool:
        """Whether a station choice with pattern z is in the row (station cuts: r and q both on it)."""
        return self.kind == "station" and bool(z[self.r]) and bool(z[self.q])

    def mask(self, first: bool, sets: Sequence[np.ndarray], bits: np.ndarray, block: np.ndarray,
             through: np.ndarray | None) -> np.ndarray:
        """Per listed line of round r (``first``) or q (section masks ``bits``, with crossings
        ``block``, as words; ``sets``: T and ``more`` as words alike, :attr:`every_bits`;
        ``through``: whether it is on the cut's station), whether its coefficient is non-zero
        (+1 for a sections cut, -1 for a station cut)."""
        some = np.zeros(len(bits), dtype=bool)  # r: draws one of the sets whole; q: touches every one
        if not first:
            some = ~some
        for words in sets:
            used = [w for w in range(len(words)) if words[w]]  # (only T's own words: a column each)
            if first:
                every = np.ones(len(bits), dtype=bool)
                for w in used:
                    every &= (bits[:, w] & words[w]) == words[w]
                some |= every
            else:
                touch = np.zeros(len(block), dtype=bool)
                for w in used:
                    touch |= (block[:, w] & words[w]) != 0
                some &= touch
        hit = some if self.kind == "sections" else ~some
        if self.kind == "station":
            assert through is not None
            hit &= through
        return hit


def bits_of(sections) -> int:
    """Sections as a mask (bit i: section i)."""
    return sum(1 << i for i in sections)


def block_of(board: Board, sections) -> int:
    """The sections a line drawing ``sections`` keeps from every other line: its own and those crossing them."""
    out = bits_of(sections)
    for i in sections:
        out |= bits_of(board.crossing[i])
    return out


def clash(board: Board, kind: str, r: int, q: int, sections, station: str = "", more=()) -> Clash:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if more and kind != "station":
        raise ValueError("only a station cut takes more than one set")
    t = frozenset(sections)
    return Clash(kind, r, q, t, station, bits_of(t), block_of(board, t), tuple(sorted(map(frozenset, more), key=sorted)))


def separate(board: Board, choices: dict, columns: Sequence[Sequence], weights: Sequence[Sequence[float]],
             values: Mapping[str, Sequence[float]], rounds: Sequence[int], known: set[Clash],
             most: int = 400, eps: float = 1e-4) -> list[Clash]:
    """The cuts this master solution breaks most (at most ``most``), between the ``rounds``
    given (those priced by a scan), none of ``known``. ``columns[r][k]`` has weight
    ``weights[r][k]``; ``choices``: the master's interchange choices per station, ``values``
    their weights (:class:`.columns.Master`)."""
    info = []  # per round: (weight, sections mask, block mask, stations, the column) per column in use or not
    for r, cols in enumerate(columns):
        rows = []
        for c, w in zip(cols, weights[r]):
            rows.append((w, bits_of(c.sections), block_of(board, c.sections), c.stations, c))
        info.append(rows)
    found: list[tuple[float, Clash]] = []
    for r, q in itertools.permutations(rounds, 2):
        seen: set[int] = set()
        for w, _, _, _, col in info[r]:
            if w < 1e-6:
                continue
            for pair in itertools.combinations(sorted(col.sections), 2):
                t = bits_of(pair)
                if t in seen:
                    continue
                seen.add(t)
                lhs = sum(x for x, d, _, _, _ in info[r] if (d & t) == t) + sum(x for x, _, b, _, _ in info[q] if b & t)
                if lhs > 1 + eps:
                    cut = clash(board, "sections", r, q, pair)
                    if cut not in known:
                        found.append((lhs - 1, cut))
    for s, us in values.items():
        reached: dict[int, list[tuple[float, object, list[int]]]] = {}  # per round: its lines on s, each with its path to s
        for r, q in itertools.permutations(rounds, 2):
            both = sum(u for u, (z, _) in zip(us, choices[s]) if z[r] and z[q])
            if both < eps:
                continue
            if r not in reached:
                reached[r] = [(w, col, path_to(board, col, s)) for w, _, _, st, col in info[r] if w >= 1e-6 and s in st]
            tried: set[int] = set()
            for _, col, path in reached[r]:
                for t_secs in station_sets(col, path):
                    t = bits_of(t_secs)
                    if t in tried:
                        continue
                    tried.add(t)
                    rhs = (sum(x for x, d, _, st, _ in info[r] if s in st and (d & t) != t)
                           + sum(x for x, _, b, st, _ in info[q] if s in st and not b & t))
                    if both > rhs + eps:
                        cut = clash(board, "station", r, q, t_secs, s)
                        if cut not in known:
                            found.append((both - rhs, cut))
            got = flow_cut(board, r, q, s, both, [(w, frozenset(path)) for w, _, path in reached[r]],
                           [(w, b) for w, _, b, st, _ in info[q] if w >= 1e-6 and s in st], eps)
            if got is not None and got[1] not in known:
                found.append(got)
    found.sort(key=lambda x: -x[0])
    out: list[Clash] = []
    for _, cut in found:
        if cut not in out:
            out.append(cut)
        if len(out) >= most:
            break
    return out


def path_to(board: Board, col, s: str) -> list[int]:
    """The sections of the path by which a line reaches station s from its departure, nearest s
    first (``col.entering``: the section each station was entered by, followed back); none for
    its departure."""
    enter = dict(col.entering)
    path: list[int] = []
    at = s
    while at in enter and len(path) < len(col.sections):
        i = enter[at]
        path.append(i)
        at = board.sections[i].other(at)
    return path


def station_sets(col, path: list[int]) -> list[frozenset[int]]:
    """The sets T a station cut at s takes from a line of the mix through s: all its sections;
    ``path``, the path it reaches s by from its departure (:func:`path_to`, nearest s first); and
    each end of that path at s (its last k sections). A game whose lines both reach s by clashing
    paths breaks a cut of the path alone, whatever else the lines draw, so the path's cut holds
    every line reaching s that way (seed 0's settled root with 12 rounds of cuts: 214.0 with whole
    lines alone, 209.1 with paths)."""
    return [frozenset(col.sections), *(frozenset(path[:k]) for k in range(len(path), 0, -1))]


def flow_cut(board: Board, r: int, q: int, s: str, both: float, r_paths: Sequence[tuple[float, frozenset[int]]],
             q_lines: Sequence[tuple[float, int]], eps: float = 1e-4) -> tuple[float, Clash] | None:
    """The station cut at s between rounds r and q over several of r's paths to s that the
    master breaks most, if it breaks one (and how far): ``r_paths``, (weight, path to s) of r's
    lines on s in the mix (:func:`path_to`), grouped by path; ``q_lines``, (weight, block mask) of q's. Both
    rounds are on s together at most as often as a flow from r's paths to q's lines clear of
    them carries; a least cut of that flow names the paths P (those it leaves with r) whose cut,
    "both <= w_r(lines on s by none of P) + w_q(lines on s clear of one of P)", is broken by as
    much as ``both`` exceeds the flow. None where it takes fewer than two paths (the cuts of one
    path are separated as such)."""
    import networkx as nx  # (here: the rest of the module does without it)

    classes: dict[frozenset[int], float] = {}
    for w, p in r_paths:
        classes[p] = classes.get(p, 0.0) + w
    if len(classes) < 2 or not q_lines:
        return None
    g = nx.DiGraph()
    for p, x in classes.items():
        g.add_edge("r", ("p", p), capacity=x)
        bp = bits_of(p)
        for k, (_, b) in enumerate(q_lines):
            if not b & bp:
                g.add_edge(("p", p), ("q", k))  # (no capacity: unbounded)
    for k, (w, _) in enumerate(q_lines):
        g.add_edge(("q", k), "t", capacity=w)
    value, (side, _) = nx.minimum_cut(g, "r", "t")
    kept = sorted((p for p in classes if ("p", p) in side), key=sorted)
    if both <= value + eps or len(kept) < 2:
        return None
    return both - value, clash(board, "station", r, q, kept[0], s, more=kept[1:])
