"""``tubedeck check nextstation``: par scores over many flip seeds, for one map (run it once per
map to set the classic and generated maps side by side).

* default: the **best round**: the first round of the seeded solo deal (its flips and pencil) on
  an empty sheet, proven by the exact branch and bound (:mod:`tubedeck.games.nextstation.best`;
  CP-SAT takes over should the bound's proof run out of time, ``solve nextstation --engine auto``);
* ``--game``: the **best whole game** of the seed (:func:`.game.best_game`): its score as found,
  with status and bound, since the proof is usually out of reach within the time limit.

A result the budget cut short is stored with its status and bound, never as a proven par. Each
round's record names the engine that proved it (``engine``: the branch and bound, or CP-SAT where
the branch and bound ran out of budget).

**Budget.** What is stored must not depend on the machine's load, so each deal gets a
*deterministic* budget, ``--det-limit`` seconds (default: ``--time-limit``'s value): CP-SAT's
deterministic time and the branch and bound's nodes (:mod:`.engines`), with the wall clock only
a guard: ``WALL_GUARD`` times it, never less than ``--time-limit``, and with ``--game`` never
less than ``GAME_GUARD`` seconds: a whole game's round pars and first best responses are fixed work
(5-10 s a seed on one core, more on a loaded machine) and its kicks are paid from the deterministic
budget (:func:`.game.kicks_for`); a guard that cut them stored 184 for a seed one run and 187 the
next. The results file's header records the budget. The records
(:data:`~tubedeck.games.nextstation.records.PAR`, ``PAR_GAME``) hold no wall-clock time: the same
seeds and budget write the same bytes on any machine.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.nextstation.edition import Edition, generated_maps, map_title
from tubedeck.games.nextstation.records import PAR, PAR_GAME
from tubedeck.records import Schema
from tubedeck.solver.cpsat import WALL_GUARD, check_time_limit
from tubedeck.stats import percentile
from tubedeck.words import plural

from .game import GAME_GUARD, best_game
from .solve import RoundReport, solve_round


@dataclass(frozen=True)
class ParCheck:
    """A picklable :class:`~solver.runner.DealCheck` over flip seeds."""

    time_limit: float
    data: str | None = None
    map: str | None = None
    zones: str = "1-2"
    game: bool = False
    det_limit: float | None = None  # the deterministic budget per deal (None: time_limit's value)
    river: str | None = None  # --river FILE: a generated map's river (another river: another map)

    @property
    def det(self) -> float:
        return self.det_limit if self.det_limit is not None else self.time_limit

    def edition(self) -> Edition:
        given = {"river": self.river} if self.river is not None else {}
        return cached_edition(get("nextstation"), self.data, map=self.map, zones=self.zones, **given)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()

        wall = max(self.det * WALL_GUARD, self.time_limit, GAME_GUARD if self.game else 0.0)
        shown = not sys.stderr.isatty()  # on a terminal the runner's bar shows; a log gets lines

        def evaluate(seed: int) -> dict:
            if self.game:
                g = best_game(ed, seed, time_limit=wall, det_limit=self.det, progress=shown)
                return {"status": g.status, "score": g.score, "bound": g.bound, "best_response": g.start,
                        "round_pars": list(g.pars)}
            r = solve_round(ed, seed=seed, round=1, time_limit=wall, det_limit=self.det, engine="auto",
                            progress=shown)
            assert isinstance(r, RoundReport)
            return {"status": r.result.status, "score": r.result.score, "bound": r.result.bound,
                    "turns": len(r.turns), "pencil": r.pencil, "engine": r.engine}

        return evaluate

    @property
    def record(self) -> Schema:
        return PAR_GAME if self.game else PAR

    def header(self) -> dict:
        return self.record.header(map=self.map or "classic", zones=self.zones, round=None if self.game else 1,
                                  det_limit=self.det, **generated_maps(self.map),
                                  **({"river": self.river} if self.river is not None else {}))

    @property
    def results_name(self) -> str:
        zones = f"-z{self.zones}" if self.zones != "1-2" else ""  # another zones: another map, another file
        river = f"-river-{Path(self.river).stem}" if self.river is not None else ""  # another river too
        return f"nextstation-par{'-game' if self.game else ''}-{self.map or 'classic'}{zones}{river}".replace("/", "_")

    @property
    def label(self) -> str:
        return "nextstation games" if self.game else "nextstation rounds"

    def summary(self) -> "ParSummary":
        where = map_title(self.map, self.zones)
        return ParSummary(self.game, where=where)

    def decided(self, record: dict) -> bool:
        return record.get("status") == "OPTIMAL"

    def validate(self, record: dict) -> str | None:
        return self.record.validate(record, 1)


def par_check(edition: Edition, players: int = 1, time_limit: float = 60.0, data: str | None = None,
              map: str | None = None, zones: str = "1-2",  # noqa: A002 - the CLI hands the edition options
              game: bool = False, det_limit: float | None = None, river: str | None = None) -> ParCheck:
    check_time_limit(time_limit)
    if det_limit is not None:
        check_time_limit(det_limit, "--det-limit")
    return ParCheck(time_limit, data, map, zones, game, det_limit, river)


def _spread(values: list) -> dict | None:
    s = sorted(values)
    if not s:
        return None
    return {"mean": round(statistics.mean(s), 2), "median": statistics.median(s), "min": s[0], "max": s[-1],
            "p10": round(percentile(s, 0.1), 2), "p90": round(percentile(s, 0.9), 2)}


@dataclass
class ParSummary:
    game: bool = False
    where: str = "the classic map"  # the map checked, named in the summary
    statuses: Counter = field(default_factory=Counter)
    scores: list = field(default_factory=list)  # proven (rounds) or found (games)
    bounds: list = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.statuses[record["status"]] += 1
        if record["status"] == "OPTIMAL" or (self.game and record["score"] is not None):
            self.scores.append(record["score"])
            self.bounds.append(record["bound"])

    def failures(self) -> str | None:
        if self.game:  # a whole game's proof is the exception: FEASIBLE is the expected answer
            return None
        undecided = sum(v for k, v in self.statuses.items() if k != "OPTIMAL")
        return f"{undecided} round(s) not proven within the time limit" if undecided else None

    def as_dict(self) -> dict:
        out = {"map": self.where, "games" if self.game else "rounds": sum(self.statuses.values()),
               "statuses": dict(self.statuses),
               "par": _spread(self.scores)}
        if self.game:
            out["bound"] = _spread([b for b in self.bounds if b is not None])
        return out

    def describe(self) -> list[str]:
        d = self.as_dict()
        what = "best whole game, found" if self.game else "best first round, proven"
        out = [f"Next Station: London par on {self.where} ({what}): {plural(sum(self.statuses.values()), 'seed')}",
               "  statuses: " + ", ".join(f"{k} {v}" for k, v in d["statuses"].items())]
        if d["par"]:
            p = d["par"]
            out.append(f"  {'best game' if self.game else 'best round'}: mean {p['mean']}, median {p['median']} "
                       f"(10-90%: {p['p10']}-{p['p90']}, range {p['min']}-{p['max']})")
        if self.game and d.get("bound"):
            out.append(f"  proven bound: median {d['bound']['median']} (no game of these seeds scores more)")
        return out
