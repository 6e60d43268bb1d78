"""One Day in London: the fewest exchanges that turn a rack into a valid journey.

**The question.** A rack is 10 cards in slots. An exchange replaces the card in one slot. A
target journey ``J`` keeps slot ``k`` when ``J[k]`` is the station already there, so the fewest
exchanges is ``10 - max kept`` over every valid journey ``J`` whose stations are obtainable:
``J`` may use station ``s`` at most ``cap(s)`` times, ``cap(s)`` = the deck's copies of ``s`` less
the copies in the *other* players' racks. (The player's own cards count as obtainable: a card
exchanged out goes face up on a discard pile and can be drawn again.)

**The engines** (:func:`solve_rack`):

* ``cp-sat`` (the default, the engine of record): the CP-SAT model of
  :mod:`tubedeck.solver.oneday.model` decides every rack on its own (no hint, no bound from elsewhere).
  Its status is reported as it is: OPTIMAL, FEASIBLE (time ran out with a journey), INFEASIBLE,
  UNKNOWN (time ran out without one; never read as INFEASIBLE). ``engine = "cp-sat"``.
* ``auto``: the exact bound below decides when its journey respects every cap
  (``engine = "bound"``); otherwise CP-SAT with the bound as a cut and its journey as a hint
  (``engine = "cp-sat+bound"``). An independent cross-check of the model, and ~5x faster.

**The state space.** A journey is a walk over *states*: at slot 1 a station; at later slots a
``(station, line, direction)`` triple saying how the rider arrived. State ``q -> q'`` is a legal
step when ``q``'s station is on ``q'``'s line on the correct side of ``q'``'s station, and
``q`` did not arrive on the same line going the other way (the backtracking rule). The rules of
:mod:`tubedeck.games.oneday.journey` are exactly the walks of this layered automaton.

**The exact bound** (:func:`relaxed_best`, :func:`lazy_best`): the same automaton as a
longest-path dynamic programme with numpy (max-plus products over the transition matrices),
enforcing ``cap = 0`` and, lazily, the caps of the stations its journeys over-use. Its value is
an upper bound on kept slots, and optimal when its journey respects every cap. If the relaxation
has no journey at all, neither has the model (INFEASIBLE).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Sequence

from tubedeck.errors import UsageError
from tubedeck.games.oneday.board import Board, parse_stations
from tubedeck.games.oneday.edition import Edition
from tubedeck.games.oneday.journey import Journey, Verdict, validate
from tubedeck.solver.cpsat import check_time_limit
from tubedeck.words import status_words

if TYPE_CHECKING:  # .model imports OR-Tools' cp_model (pandas): only when CP-SAT runs
    import numpy as np  # imported where the bound runs: a rack that is already a journey needs none

    from .model import JourneyTemplate

NEG = -(10**6)


@dataclass(frozen=True)
class StateSpace:
    """The automaton of valid journeys on a game map, built once per map."""

    stations: tuple[str, ...]  # station index -> id
    hops: tuple[tuple[int, str, int], ...]  # hop state -> (station index, line, direction)
    hop_station: np.ndarray  # (H,) station index of each hop state
    first_step: np.ndarray  # (S, H) bool: slot-1 station -> hop state
    step: np.ndarray  # (H, H) bool: hop state -> hop state
    slots: int
    lines: tuple[str, ...] = ()  # line index -> id (sorted)
    runs: tuple[tuple[int, ...], ...] = ()  # per line, its station indices in line order
    reversals: tuple = ()  # ((line, dir), (line, dir)) pairs that may not follow each other
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def template(self) -> JourneyTemplate:
        """The CP-SAT model's rack-independent part, built on first use and kept."""
        if "template" not in self._cache:
            from .model import build_template

            self._cache["template"] = build_template(self.runs, len(self.stations), self.slots, self.reversals)
        return self._cache["template"]

    @property
    def index(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.stations)}

    def predecessors(self, first: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The step (or first step) as lists of predecessors per hop state, for a sparse DP:
        ``(preds, offsets, has, tie)``: state h's predecessors are ``preds[offsets[h]:...]``
        (ascending); ``tie`` ranks them for the max (see :func:`relaxed_best`)."""
        import numpy as np
        key = "first" if first else "step"
        if key not in self._cache:
            trans = self.first_step if first else self.step
            hs, ps = np.nonzero(trans.T)  # sorted by hop state, then predecessor
            counts = np.bincount(hs, minlength=trans.shape[1])
            offsets = np.minimum(np.concatenate(([0], np.cumsum(counts)[:-1])), max(len(ps) - 1, 0))
            ps = ps.astype(np.int64)
            tie = (trans.shape[0] - 1 - ps)[:, None]  # see relaxed_best: lower predecessors win ties
            self._cache[key] = (ps, offsets, counts > 0, tie)
        return self._cache[key]


def state_space(gmap: Board, slots: int | None = None) -> StateSpace:
    """Enumerate the states and the legal steps between them."""
    import numpy as np
    stations = tuple(sorted(gmap.stations))
    idx = {s: i for i, s in enumerate(stations)}
    hops = []
    for line, run in sorted(gmap.runs.items()):
        for pos, s in enumerate(run.stations):
            if pos > 0:
                hops.append((idx[s], line, +1))
            if pos < len(run.stations) - 1:
                hops.append((idx[s], line, -1))
    hops.sort()
    place = {(line, s): i for line, run in gmap.runs.items() for i, s in enumerate(run.stations)}
    S, H = len(stations), len(hops)
    first = np.zeros((S, H), dtype=bool)
    for h, (t, line, d) in enumerate(hops):
        pt = place[(line, stations[t])]
        for s in gmap.runs[line].stations:
            if (place[(line, s)] - pt) * d < 0:
                first[idx[s], h] = True
    step = np.zeros((H, H), dtype=bool)
    for q, (t, line, d) in enumerate(hops):
        for h in range(H):
            if first[t, h] and not gmap.reverses((line, d), (hops[h][1], hops[h][2])):
                step[q, h] = True
    hop_station = np.array([h[0] for h in hops], dtype=np.int64)
    lines = tuple(sorted(gmap.runs))
    runs = tuple(tuple(idx[s] for s in gmap.runs[line].stations) for line in lines)
    # (line, direction) pairs that may not follow each other (line indices): the backtracking rule
    reversals = tuple(((i, d), (j, e)) for i, a in enumerate(lines) for j, b in enumerate(lines)
                      for d in (1, -1) for e in (1, -1) if gmap.reverses((a, d), (b, e)))
    return StateSpace(stations, tuple(hops), hop_station, first, step, slots or gmap.recipe.slots, lines, runs,
                      reversals)


@dataclass(frozen=True)
class Solution:
    """The answer for one rack.

    ``status``: OPTIMAL, FEASIBLE (a journey, optimality unproved), INFEASIBLE (no journey from
    the obtainable cards), UNKNOWN (time ran out first). ``exchanges`` is ``None`` unless a journey
    was found; ``lower_bound`` is proved either way; ``kept`` lists the kept slots (1-based)."""

    status: str
    exchanges: int | None
    lower_bound: int
    kept: tuple[int, ...]
    journey: Journey | None
    engine: str  # which engine decided: "cp-sat", "bound" or "cp-sat+bound" (see the module docstring)

    @property
    def reachable(self) -> bool | None:
        return True if self.journey else (False if self.status == "INFEASIBLE" else None)

    def as_dict(self) -> dict:
        return {"status": self.status, "exchanges": self.exchanges, "lower_bound": self.lower_bound,
                "kept": list(self.kept), "engine": self.engine, "reachable": self.reachable,
                "journey": self.journey.as_dict() if self.journey else None}


def _masks(space: StateSpace, caps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return caps > 0, caps[space.hop_station] > 0


def relaxed_best(space: StateSpace, rack: np.ndarray, caps: np.ndarray,
                 tracked: Sequence[int] = ()) -> tuple[int, list[int]]:
    """Longest path in the layered automaton: (max kept slots, the states of one best journey).

    Only the ``caps`` of the ``tracked`` stations are enforced (their use counts ride along in
    the DP state, mixed-radix encoded in ``c``); other stations are limited only by ``cap > 0``.
    So the value is an upper bound on the capped optimum. ``states[0]`` is a station index,
    ``states[k>0]`` hop-state indices; ``(NEG, [])`` when no journey exists even so."""
    import numpy as np
    ok_s, ok_h = _masks(space, caps)
    n_st = len(space.stations)
    inc = np.zeros(n_st, dtype=np.int64)
    size = 1
    for s in tracked:
        inc[s] = size
        size *= int(caps[s]) + 1
    codes = np.arange(size)

    # For each tracked station: the hop states at it, and the counts c in which it may be used
    # once more (c -> c + inc): one fancy-indexed copy per station and step, not per hop state.
    moves = []
    for s in tracked:
        fits = codes[(codes // inc[s]) % (int(caps[s]) + 1) < caps[s]]
        moves.append((np.flatnonzero(space.hop_station == s)[:, None], fits[None, :], fits[None, :] + inc[s]))

    value = np.full((n_st, size), NEG, dtype=np.int64)
    starts = np.flatnonzero(ok_s)
    value[starts, inc[starts]] = starts == rack[0]
    back = []
    hop_inc = inc[space.hop_station]
    hits = (space.hop_station[None, :] == np.asarray(rack)[1:, None])[:, :, None]  # slot k keeps its card
    alive = {first: (ok_h & space.predecessors(first)[2])[:, None] for first in (True, False)}
    for k in range(1, space.slots):
        # Sparse max over each state's predecessors: key = value * W + (W - 1 - pred) keeps the
        # value and, among ties, the lowest predecessor (what a dense argmax would pick).
        preds, offsets, _, tie = space.predecessors(first=k == 1)
        width = value.shape[0]
        keys = np.maximum.reduceat(value[preds] * width + tie, offsets, axis=0)
        best, arg = np.divmod(keys, width)
        arg = width - 1 - arg
        best = np.where(alive[k == 1] & (best > NEG // 2), best + hits[k - 1], NEG)
        if moves:
            value = np.full_like(best, NEG)
            plain = hop_inc == 0
            value[plain] = best[plain]
            for rows, src, dst in moves:
                value[rows, dst] = best[rows, src]
        else:
            value = best
        back.append(arg)
    end_h, end_c = np.unravel_index(int(value.argmax()), value.shape)
    if value[end_h, end_c] <= NEG // 2:
        return NEG, []
    total = int(value[end_h, end_c])
    states, c = [int(end_h)], int(end_c)
    for arg in reversed(back):
        c -= int(hop_inc[states[-1]])
        states.append(int(arg[states[-1], c]))
    return total, states[::-1]


def lazy_best(space: StateSpace, rack: np.ndarray, caps: np.ndarray,
              max_codes: int = 64) -> tuple[int, list[int], bool]:
    """Enforce caps lazily: track the stations the last best journey over-used, and repeat.

    Returns ``(value, states, exact)``: ``exact`` when the journey respects every cap (then it is
    optimal); otherwise the tracked state grew past ``max_codes`` and ``value`` is only a bound."""
    import numpy as np
    tracked: list[int] = []
    while True:
        value, states = relaxed_best(space, rack, caps, tracked)
        if not states:
            return value, states, True
        counts = np.bincount(_stations(space, states), minlength=len(caps))
        over = [int(s) for s in np.flatnonzero(counts > caps)]
        if not over:
            return value, states, True
        tracked += over
        if int(np.prod([int(caps[s]) + 1 for s in tracked])) > max_codes:
            return value, states, False


def _stations(space: StateSpace, states: Sequence[int]) -> list[int]:
    return [states[0]] + [int(space.hop_station[h]) for h in states[1:]]


def _journey(gmap: Board, space: StateSpace, stations: Sequence[int]) -> Journey:
    """The journey through the chosen stations, described with the validator's fewest rides."""
    stops = [space.stations[s] for s in stations]
    verdict = validate(gmap, stops, space.slots)
    assert verdict.journey is not None, f"solver produced an invalid journey: {verdict.message}"
    return verdict.journey


def caps_for(space: StateSpace, copies: Mapping[str, int], others: Sequence[str] = ()) -> np.ndarray:
    """Obtainable copies per station index: the deck's copies less the other racks' cards."""
    import numpy as np
    caps = np.array([copies.get(s, 0) for s in space.stations], dtype=np.int64)
    idx = space.index
    for s in others:
        caps[idx[s]] -= 1
    return caps


def solve_rack(gmap: Board, space: StateSpace, rack: Sequence[str], caps: np.ndarray,
               engine: str = "cp-sat", time_limit: float = 10.0, wall: float | None = None) -> Solution:
    """Fewest exchanges for ``rack`` (station ids) with the given engine (module docstring);
    ``wall``: a wall-clock cap on CP-SAT as well (see :func:`.model.solve_model`)."""
    import numpy as np
    idx = space.index
    r = np.array([idx[s] for s in rack], dtype=np.int64)
    n = space.slots
    if engine == "cp-sat":
        return _cp_sat(gmap, space, space.template(), r, caps, time_limit, "cp-sat", wall=wall)
    if engine != "auto":
        raise ValueError(f"unknown engine {engine!r}")
    value, states, exact = lazy_best(space, r, caps)
    if not states:
        return Solution("INFEASIBLE", None, n, (), None, "bound")
    stations = _stations(space, states)
    if exact:
        kept = tuple(k + 1 for k in range(n) if stations[k] == r[k])
        return Solution("OPTIMAL", n - value, n - value, kept, _journey(gmap, space, stations), "bound")
    tpl = space.template()  # CP-SAT from here on: the bound's journey over-uses a capped station
    ride_of = {rd: i for i, rd in enumerate(tpl.rides)}
    line_of = {line: i for i, line in enumerate(space.lines)}
    hint = [(stations[0], None)] + [(stations[k], ride_of[(line_of[space.hops[h][1]], space.hops[h][2])])
                                    for k, h in enumerate(states[1:], 1)]
    return _cp_sat(gmap, space, tpl, r, caps, time_limit, "cp-sat+bound", hint, value, wall)


def _cp_sat(gmap: Board, space: StateSpace, tpl: JourneyTemplate, r: np.ndarray, caps: np.ndarray,
            time_limit: float, label: str, hint: Sequence = (), upper: int | None = None,
            wall: float | None = None) -> Solution:
    """Build, solve, extract; the status as CP-SAT reports it (UNKNOWN is never INFEASIBLE)."""
    import numpy as np

    from .model import build_model, extract, solve_model

    n = space.slots
    rm = build_model(tpl, r, caps, hint, upper)
    status, solver = solve_model(rm, time_limit, wall=wall)
    if status == "INFEASIBLE":
        return Solution(status, None, n, (), None, label)
    most = n if upper is None else upper  # most kept slots proved possible
    if status in ("OPTIMAL", "FEASIBLE"):
        stations = extract(tpl, solver)
        kept = tuple(k + 1 for k in range(n) if stations[k] == r[k])
        bound = int(np.floor(solver.best_objective_bound + 1e-9))
        if status == "OPTIMAL" or bound > len(kept):  # CP-SAT's bound when set (unset it reads 0)
            most = min(most, bound)
        return Solution(status, n - len(kept), n - most, kept, _journey(gmap, space, stations), label)
    return Solution(status, None, n - most, (), None, label)


ENGINES = ("cp-sat", "auto")


@dataclass(frozen=True)
class RackReport:
    """``tubedeck solve oneday``: the rack's verdict and the fewest exchanges, with names."""

    gmap: Board
    rack: tuple[str, ...]
    verdict: Verdict
    solution: Solution

    def as_dict(self) -> dict:
        return {"rack": list(self.rack), "validation": self.verdict.as_dict(), "solution": self.solution.as_dict()}

    def describe(self) -> list[str]:
        gmap, sol = self.gmap, self.solution
        out = ["[green]valid journey[/green]" if self.verdict.valid
               else f"[red]not a valid journey[/red]: {self.verdict.message}"]
        if sol.exchanges is None:
            return out + [f"no target journey: {status_words(sol.status)} (at least {sol.lower_bound} exchanges)"]
        assert sol.journey is not None  # found together with ``exchanges``
        engine = {"bound": "the exact bound", "cp-sat": "CP-SAT"}.get(sol.engine, sol.engine)
        out.append(f"minimum exchanges: [bold]{sol.exchanges}[/bold] ({status_words(sol.status)}, by {engine}); "
                   f"keep slots {', '.join(map(str, sol.kept)) or 'none'}")
        for k, s in enumerate(sol.journey.stations, 1):
            mark = "keep" if k in sol.kept else f"swap {gmap.name(self.rack[k - 1])} ->"
            out.append(f"  {k:>2}. {mark:<34} {gmap.name(s)}")
        out += [f"  - {leg.describe(gmap)}" for ride in sol.journey.rides for leg in ride.legs]
        return out


def solve_one(edition: Edition, rack: str, held: str = "", engine: str = "cp-sat",
              time_limit: float = 10.0, buried: str = "") -> RackReport:
    """The registry's ``solve oneday``: validate a rack, then its fewest exchanges.

    What counts as obtainable: the deck less ``held`` (the other racks) is the *optimistic bound*;
    naming ``buried`` (cards under the tops of the discard piles) follows the text, which lets a
    player draw only a pile's top or the draw pile, so buried cards are not at hand."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    check_time_limit(time_limit)
    begun = time.perf_counter()
    gmap, slots = edition.board, edition.rules.slots
    stations = parse_stations(gmap, rack)
    if len(stations) != slots:
        raise UsageError(f"--rack names {len(stations)} stations; a rack holds exactly {slots}")
    others = parse_stations(gmap, held, what="--held card") if held.strip() else ()
    others += parse_stations(gmap, buried, what="--buried card") if buried.strip() else ()
    copies = edition.deck.copies()
    for s, n in (Counter(stations) + Counter(others)).items():
        if n > copies[s]:
            raise UsageError(f"{gmap.name(s)} appears {n} times in the rack, --held and --buried but the deck has "
                             f"{copies[s]} card(s)")
    verdict = validate(gmap, stations)
    if engine == "auto" and verdict.valid and verdict.journey is not None:
        # Already a journey: it keeps every slot, which no journey beats, and its cards are at hand
        # (checked above), so the exact bound's answer is this one, found without the state space.
        return RackReport(gmap, stations, verdict, already_journey(verdict.journey))
    space = space_of(edition)
    # --time-limit is the whole command's wall clock (the CLI takes start-up off): CP-SAT's cap too
    sol = solve_rack(gmap, space, stations, caps_for(space, copies, others), engine, time_limit,
                     wall=time_limit - (time.perf_counter() - begun))
    return RackReport(gmap, stations, verdict, sol)


def already_journey(journey: Journey) -> Solution:
    """The ``auto`` engine's answer for a rack that is a valid journey as it stands (what
    :func:`lazy_best` proves for it, without numpy or the state space): no exchange, every slot kept."""
    n = len(journey.stations)
    return Solution("OPTIMAL", 0, 0, tuple(range(1, n + 1)), journey, "bound")


_SPACES: dict[int, tuple[Edition, StateSpace]] = {}  # holds the edition, so its id is never reused


def space_of(edition: Edition) -> StateSpace:
    """The state space of an edition's board, built once per edition and process."""
    held = _SPACES.get(id(edition))
    if held is None or held[0] is not edition:
        held = _SPACES[id(edition)] = (edition, state_space(edition.board))
    return held[1]
