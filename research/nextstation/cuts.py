"""Cuts that tie the rounds together at each interchange station, for the column bound
(:mod:`.columns`).

The column bound's master LP scores a station's interchange by a mix of **patterns** z (which
rounds pass it), round r's share of the patterns with z_r = 1 at most the weight of r's lines
through the station. Every pattern of the 2**R was allowed, so four half-lines through a station
made half of a four-line interchange even where four lines can never meet. Here a pattern is
kept only if a real game could show it (:func:`station_patterns`):

* **reach under the flips**: a round's line enters a station other than its departure along
  exactly one of its sections, on a turn whose symbol the station shows, from a station the line
  reached on an earlier turn. :func:`entries` lists, per round, the sections each station can be
  entered by: a station u is reachable by turn t if the departure is u or some turn t' < t shows
  u's symbol and a neighbour of u is reachable before t' (one station a turn, no crossings: an
  over-approximation, so every real line enters along a listed section);
* **one line per section**: the rounds of a pattern that do not depart from the station each need
  their own entering section (distinct sections: two lines never share one), a system of distinct
  representatives (a bipartite matching, :func:`_matched`);
* **the departure**: the round whose pencil departs from the station is always on it, so a
  pattern leaving it out is dropped too.

Every real game's pattern at every station passes all three, so the relaxation only loses
points no game could score: the Lagrangian bound (its per-station max over patterns) and the
master LP both take the kept patterns alone, and stay bounds.

:func:`tourist_patterns` does the same for the tourist track (branch and price's relaxation,
``relaxation(..., tourist=True)``): the tuples of tourist sites per round's line the flips allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import product

import numpy as np

from tubedeck.games.nextstation.board import Board
from tubedeck.solver.nextstation.game_model import Round

from .goals import Goal

Pattern = tuple[int, ...]


def reach(board: Board, rnd: Round) -> dict[str, int]:
    """The earliest turn (0-based; -1 for the departure) by which round ``rnd``'s line could have
    reached each station it can reach at all (an over-approximation: see the module)."""
    turns, dep = rnd
    when = {dep: -1}
    for t, turn in enumerate(turns):
        new = [v.id for v in board.stations if v.id not in when and board.matches(v.id, turn.symbol)
               and any(when.get(sec.other(v.id), t) < t for sec in board.incident[v.id])]
        for v in new:
            when[v] = t
    return when


def entries(board: Board, rnd: Round) -> dict[str, frozenset[int]]:
    """Per station other than the departure: the sections round ``rnd``'s line could enter it
    by (empty: it can never be on the line)."""
    turns, dep = rnd
    when = reach(board, rnd)
    out: dict[str, frozenset[int]] = {}
    for v in board.stations:
        if v.id == dep:
            continue
        shows = [t for t, turn in enumerate(turns) if board.matches(v.id, turn.symbol)]
        out[v.id] = frozenset(sec.index for sec in board.incident[v.id]
                              if any(when.get(sec.other(v.id), len(turns)) < t for t in shows))
    return out


def _matched(options: list[frozenset[int]]) -> bool:
    """Whether every entry can take a distinct element of its set (Hall's condition, by
    augmenting paths: a handful of rounds and sections)."""
    owner: dict[int, int] = {}

    def place(k: int, seen: set[int]) -> bool:
        for i in options[k]:
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or place(owner[i], seen):
                owner[i] = k
                return True
        return False

    return all(place(k, set()) for k in range(len(options)))


def station_patterns(board: Board, rounds: tuple[Round, ...], cuts: bool = True) -> dict[str, list[Pattern]]:
    """Per station, the patterns (which rounds' lines pass it) the relaxation may score: all
    2**R without ``cuts``, else only those a real game could show (see the module). The pattern
    of no line is kept wherever no round departs (the LP then always has one)."""
    n = len(rounds)
    every = list(product((0, 1), repeat=n))
    if not cuts:
        return {s.id: every for s in board.stations}
    enter = [entries(board, rnd) for rnd in rounds]
    out: dict[str, list[Pattern]] = {}
    for s in board.stations:
        departs = [r for r, (_, dep) in enumerate(rounds) if dep == s.id]
        kept = []
        for z in every:
            if any(not z[r] for r in departs):
                continue
            others = [enter[r][s.id] for r in range(n) if z[r] and r not in departs]
            if _matched(others):
                kept.append(z)
        out[s.id] = kept
    return out


CUTS = ("none", "patterns", "entries")  # the relaxations, loosest first


@dataclass(frozen=True)
class Relaxation:
    """How the column bound scores interchanges (``cuts``, :data:`CUTS`):

    * ``none``: every pattern, each round linked to a station by the weight of its lines through
      it (the bound before the cuts);
    * ``patterns``: only the patterns a game could show (:func:`station_patterns`);
    * ``entries``: those patterns, each with **the section each round enters the station by**
      (distinct, one the flips let it draw: :func:`entries`), each round linked to a station by
      the weight of its lines entering it along that section. Two rounds whose lines reach a
      station only along the same section can no longer meet there, whatever the mix.

    ``choices[s]``: per station, (pattern, ((round, entering section), ...)) for each choice the
    relaxation may score (the departing round enters by no section).

    ``tours`` (:func:`tourist_patterns`; empty: the tourist track as one total): the tourist
    track scored by the number of tourist sites **each round's** line takes, t = (t_1, ..., t_R),
    worth ``tourist(min(sum t, cap))``, round r's share of the tuples with t_r >= j at most the
    weight of its lines with j sites or more. With whole lines the LP then scores the track as the
    game does; over one total (the default) it scores the track's convex steps by their chord.

    ``goals`` (:mod:`.goals`): the Shared Objectives in play, each a variable and rows of the
    master (none: the game without them)."""

    cuts: str
    choices: dict[str, list[tuple[Pattern, tuple[tuple[int, int], ...]]]]
    tours: tuple[tuple[int, ...], ...] = ()
    goals: tuple[Goal, ...] = ()

    @property
    def entering(self) -> bool:
        return self.cuts == "entries"

    @cached_property
    def tables(self) -> dict[str, ChoiceTable]:
        """``choices`` per station as arrays (:class:`ChoiceTable`), for the bound's station terms."""
        return {s: ChoiceTable.of(choices) for s, choices in self.choices.items()}


@dataclass(frozen=True)
class ChoiceTable:
    """One station's interchange choices as arrays: ``z[k, r]`` whether choice k has round r on
    it, ``size[k]`` its lines, ``enter[r]`` the sections round r may enter by (``keys``) and per
    choice the index of its own among them (``len(keys)``: none)."""

    z: np.ndarray
    size: np.ndarray
    keys: tuple[tuple[int, ...], ...]
    enter: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, choices: Sequence[tuple[Pattern, tuple[tuple[int, int], ...]]]) -> ChoiceTable:
        n = len(choices[0][0]) if choices else 0
        z = np.array([list(pat) for pat, _ in choices], dtype=float).reshape(len(choices), n)
        by = [dict(a) for _, a in choices]
        keys = tuple(tuple(sorted({d[r] for d in by if r in d})) for r in range(n))
        enter = tuple(np.array([keys[r].index(d[r]) if r in d else len(keys[r]) for d in by], dtype=np.intp)
                      for r in range(n))
        return cls(z, z.sum(axis=1).astype(np.intp), keys, enter)


def tourist_patterns(board: Board, rounds: tuple[Round, ...]) -> tuple[tuple[int, ...], ...]:
    """Every tuple of tourist sites per round's line that the flips allow: round r's line takes
    at most the tourist stations it can reach at all (:func:`reach`, its departure included)."""
    caps = [sum(board.by_id[v].tourist for v in reach(board, rnd)) for rnd in rounds]
    return tuple(product(*(range(c + 1) for c in caps)))


def relaxation(board: Board, rounds: tuple[Round, ...], cuts: str = "entries", tourist: bool = False,
               goals: tuple[Goal, ...] = ()) -> Relaxation:
    """How the column bound scores interchanges (``cuts``, :class:`Relaxation`), with
    ``tourist`` the tourist track per round (:func:`tourist_patterns`; by default as one total),
    and the Shared Objectives' ``goals``."""
    if cuts not in CUTS:
        raise ValueError(f"cuts must be one of {', '.join(CUTS)}, got {cuts!r}")
    patterns = station_patterns(board, rounds, cuts != "none")
    choices: dict[str, list[tuple[Pattern, tuple[tuple[int, int], ...]]]] = {}
    enter = [entries(board, rnd) for rnd in rounds] if cuts == "entries" else []
    for s in board.stations:
        if cuts != "entries":
            choices[s.id] = [(z, ()) for z in patterns[s.id]]
            continue
        out = []
        for z in patterns[s.id]:
            rs = [r for r in range(len(rounds)) if z[r] and rounds[r][1] != s.id]
            for combo in product(*(sorted(enter[r][s.id]) for r in rs)):
                if len(set(combo)) == len(combo):
                    out.append((z, tuple(zip(rs, combo))))
        choices[s.id] = out
    return Relaxation(cuts, choices, tourist_patterns(board, rounds) if tourist else (), goals)
