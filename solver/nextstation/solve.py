"""``tubedeck solve nextstation``: the best possible round for a flip order and a pencil.

The flip order is a seeded deal's (``--seed S --round R``: the R-th round of that game) or the
order a table just flipped (``--flips "s-circle,switch,u-joker,..."``; bare symbols such as
``circle,square,...`` when the list runs to the round's end, see :func:`resolve_flips`). The pencil
is the seeded solo order's pencil for that round unless ``--pencil`` names one. The round is
solved on an empty sheet (what this round alone could score).

**Engines.** ``auto`` (the default) runs the exact branch and bound
(:mod:`tubedeck.games.nextstation.best`), which proves nearly every round in well under a second;
should it not finish within half the budget, CP-SAT (:mod:`.model`) takes over with the rest,
keeping the better line and the tighter bound. ``cp-sat`` runs the CP-SAT model alone. The answer
names the engine that proved it (or found the line, when unproven).

**Limits** (:mod:`.engines`): ``--time-limit`` is wall-clock seconds for the whole command;
``--det-limit`` a deterministic budget (CP-SAT deterministic seconds, branch-and-bound nodes) for
an answer that must not depend on the machine's load.
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, replace

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.best import RoundResult
from tubedeck.games.nextstation.edition import Edition, deal
from tubedeck.games.nextstation.flips import Turn, parse_flips, turns
from tubedeck.games.nextstation.play import drawn_objectives
from tubedeck.games.nextstation.rules import RuleBook
from tubedeck.progress import Progress
from tubedeck.solver.cpsat import check_time_limit

from .engines import Budget, bnb_round, ticking
from .game import MAX_SEED, GameResult, best_game, spot
from .model import best_round

ENGINES = ("auto", "cp-sat")
BNB = "branch and bound"
CP_SAT = "CP-SAT"

@dataclass(frozen=True)
class RoundReport:
    seed: int | None
    round: int
    pencil: str
    departure: str
    flips: tuple[str, ...]
    turns: tuple[Turn, ...]
    result: RoundResult
    places: tuple[tuple[str, str], ...] = ()  # station id -> "D8" (and a generated map's name), for people
    engine: str = CP_SAT  # who proved the answer (or found the line, when unproven): BNB or CP_SAT
    found_by: str = ""  # who found the line kept ("": the engine); it differs when one engine's
    bound_by: str = ""  # line is kept and the other's bound proves or bounds it ("": the engine)

    def as_dict(self) -> dict:
        out = {"game": "nextstation", "seed": self.seed, "round": self.round, "pencil": self.pencil,
               "departure": spot(self.places, self.departure), "flips": list(self.flips), "turns": len(self.turns),
               "engine": self.engine, "found_by": self.found_by or self.engine,
               "bound_by": self.bound_by or self.engine, **self.result.as_dict()}
        # every station as its id with the sheet coordinate beside it (D8), as the text names it
        out["draws"] = [{**d, "from": spot(self.places, d["from"]), "to": spot(self.places, d["to"])}
                        for d in out["draws"]]
        out["stations"] = [spot(self.places, v) for v in out["stations"]]
        return out

    def describe(self) -> list[str]:
        r = self.result
        head = f"round {self.round}" + (f" of seed {self.seed}" if self.seed is not None else "")
        place = dict(self.places)
        lines = [f"{head}: {self.pencil} pencil from {place.get(self.departure, self.departure)}, "
                 f"{len(self.turns)} turns",
                 "flips: " + ", ".join(self.flips)]
        if r.score is None:
            return lines + [f"{r.status}: no line found within the time limit (bound {r.bound})"]
        by, found, bound = (_name(e or self.engine) for e in (self.engine, self.found_by, self.bound_by))
        if r.status == "OPTIMAL":
            verdict = f"proven best by {by}" + (f", line found by {found}" if found != by else "")
        else:
            verdict = f"{r.status}: found by {found}, not proven; no line scores more than {r.bound}" + \
                (f" (bound by {bound})" if bound != found else "")
        lines.append(f"best round score: {r.score} ({verdict}, {r.wall:.2f} s)")
        drawn = {t: (u, v) for t, u, v in r.draws}
        for t, turn in enumerate(self.turns):
            card = turn.card + (" + Railroad Switch" if turn.switch else "")
            move = " -> ".join(place.get(v, v) for v in drawn[t]) if t in drawn else "pass"
            lines.append(f"  turn {t + 1:2d} {card:32s} {move}")
        return lines

def _name(engine: str) -> str:
    return "the branch and bound" if engine == BNB else engine


def _then_cp_sat(first: RoundResult, cp: RoundResult) -> tuple[RoundResult, str, str, str]:
    """CP-SAT's answer after a cut-short branch and bound: the better line (CP-SAT's on a tie),
    the tighter bound; a bound that meets the line proves it, whichever engine found it. Returns
    (the answer, who proved it or else found it, who found its line, whose bound it is)."""
    assert first.score is not None and first.bound is not None  # the branch and bound always has both
    line = cp if cp.score is not None and cp.score >= first.score else first
    found = CP_SAT if line is cp else BNB
    if cp.status == "OPTIMAL":
        bound, bound_by = cp.score, CP_SAT
    elif cp.bound is not None and cp.bound < first.bound:
        bound, bound_by = cp.bound, CP_SAT
    else:
        bound, bound_by = first.bound, BNB
    assert bound is not None and line.score is not None  # (CP-SAT's OPTIMAL has a line; else first's)
    proven = bound <= line.score
    both = replace(line, status="OPTIMAL" if proven else "FEASIBLE", bound=max(bound, line.score),
                   wall=first.wall + cp.wall)
    return both, bound_by if proven else found, found, bound_by

def solve_round(edition: Edition, seed: int = 0, flips: str | None = None, pencil: str = "", round: int = 1,  # noqa: A002
                time_limit: float = 30.0, engine: str = "auto", game: bool = False,
                objectives: bool = False, det_limit: float | None = None,
                progress: bool = True, started: float | None = None) -> RoundReport | GameResult:
    """``engine``: ``auto`` (the exact branch and bound; CP-SAT takes over should it not finish
    in half the budget) or ``cp-sat`` (the CP-SAT model alone). ``time_limit``: wall-clock seconds
    for the whole call; ``det_limit``: a deterministic budget as well (see :mod:`.engines`).
    ``game``: the whole solo game instead (:mod:`.game`). ``progress``: a line on stderr for
    work over 2 s (:mod:`tubedeck.progress`). ``started``: when the command started
    (``time.perf_counter``, default now): the CLI's start-up then counts in the time limit."""
    rules = edition.rules
    check_time_limit(time_limit)
    if det_limit is not None:
        check_time_limit(det_limit, "--det-limit")
    if engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if game:
        if flips is not None or pencil or round != 1:
            raise UsageError("--game solves the seeded solo game (its flips and pencils): drop --flips, --pencil "
                             "and --round")
        return best_game(edition, seed, drawn_objectives(edition, seed) if objectives else (), time_limit=time_limit,
                         det_limit=det_limit, progress=progress, started=started)
    if objectives:
        raise UsageError("--objectives counts the seeded game's Shared Objectives in the whole game: add --game")
    if not 1 <= round <= rules.rounds:
        raise UsageError(f"--round must be 1-{rules.rounds}, got {round}")
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be 0-{MAX_SEED}, got {seed}")
    if pencil and pencil not in rules.pencils:
        raise UsageError(f"--pencil must be one of {', '.join(rules.pencils)}, got {pencil!r}")
    d = deal(edition, 1, seed)
    order = resolve_flips(edition.book, flips) if flips is not None else d.flips[round - 1]
    ts = turns(edition.book, order)
    order = order[:order.index(ts[-1].card) + 1]  # the cards flipped before the round ended
    colour = pencil or d.pencils[0][round - 1]
    dep = edition.board.departure(colour).id
    label = f"solve nextstation round {round}" + (f" seed {seed}" if flips is None else "")
    with Progress(label) if progress else _quiet() as shown, ticking(shown):
        budget = Budget.of(time_limit, det_limit, shown, started)
        result, by, found, bound_by = best_line(edition, ts, dep, budget, engine)
    board = edition.board
    return RoundReport(None if flips is not None else seed, round, colour, dep, order, ts, result,
                       tuple((v, board.place(v)) for v in sorted({dep} | {x for _, u, w in result.draws for x in (u, w)})),
                       by, found, bound_by)


def best_line(edition: Edition, ts: tuple[Turn, ...], dep: str, budget: Budget,
              engine: str = "auto") -> tuple[RoundResult, str, str, str]:
    """The round's best line within ``budget``, the engine that proved it (or found it, when
    unproven), the engine that found the line, the engine whose bound is reported."""
    board, book = edition.board, edition.book
    if engine == "cp-sat":
        return best_round(board, book, ts, dep, budget=budget), CP_SAT, CP_SAT, CP_SAT
    first = bnb_round(board, book, ts, dep, budget, share=0.5)
    if first.status == "OPTIMAL" or budget.spent():
        return first, BNB, BNB, BNB
    budget.update(best=first.score, bound=first.bound)
    cp = best_round(board, book, ts, dep, budget=budget)
    return _then_cp_sat(first, cp)


def _quiet() -> contextlib.nullcontext[None]:
    return contextlib.nullcontext(None)


def resolve_flips(book: RuleBook, text: str) -> tuple[str, ...]:
    """A typed flip order (:func:`~tubedeck.games.nextstation.flips.parse_flips`), where a card
    may also be named by its bare symbol (``circle``, ``joker``): each symbol has a Street and an
    Underground card. Bare symbols are accepted when the list runs to the round's end (every
    symbol's Underground card is then among the flips, the last card is the round's last
    Underground card) and every reading of them gives the same turns; else refused with the reason.
    Of two readings that differ only in which of a symbol's two cards came first (the same turns),
    the Street card is taken to come first."""
    faces = {c.face for c in book.cards if not c.switch}
    words = [w.strip().lower().replace(" ", "-").replace("_", "-") for w in text.split(",")]
    bare = [k for k, w in enumerate(words) if w in faces]
    if not bare:
        return parse_flips(book, text)
    missing = sorted(f for f in faces if not any(w in (f, f"u-{f}", f"underground-{f}") for w in words))
    if missing:
        raise UsageError(f"--flips names cards by bare symbol ({', '.join(words[k] for k in bare)}), which reads "
                         "unambiguously only when the flips run to the round's end, where every symbol's Underground "
                         f"card has been flipped; {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing. "
                         "Name the cards s-circle / u-circle, or give the flips to the round's end")
    readings: dict[tuple, tuple[str, ...]] = {}
    reasons: list[str] = []
    for kinds in itertools.product(("s", "u"), repeat=len(bare)):
        typed = list(words)
        for k, kind in zip(bare, kinds):
            typed[k] = f"{kind}-{words[k]}"
        try:
            order = parse_flips(book, ",".join(typed))
        except UsageError as exc:
            reasons.append(str(exc))
            continue
        key = tuple((t.symbol, t.switch, t.last) for t in turns(book, order))
        readings.setdefault(key, order)  # the first reading: Street cards before Underground ones
    if not readings:
        raise UsageError("--flips: no reading of the bare symbols ends the round at the last card "
                         f"({reasons[-1] if reasons else 'no card'}); name the cards s-circle / u-circle")
    if len(readings) > 1:
        raise UsageError("--flips: the bare symbols read as different rounds (which card is Underground changes "
                         "when the round ends); name the cards s-circle / u-circle")
    return next(iter(readings.values()))


