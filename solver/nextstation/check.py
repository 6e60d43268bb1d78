"""``tubedeck check nextstation``: par scores: the proven best single round over many flip seeds.

For each seed, the first round of the seeded solo deal (its flip order and its pencil) is solved
by the CP-SAT model (:mod:`.model`) on an empty sheet. The summary is the distribution of the
best round scores (par) and of the solve times; a round the time limit cut short is stored with
its status and bound, never as a par.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.nextstation.edition import Edition, deal
from tubedeck.games.nextstation.flips import turns

from .model import best_round

STATUSES = ("OPTIMAL", "FEASIBLE", "UNKNOWN")


@dataclass(frozen=True)
class ParCheck:
    """A picklable :class:`~solver.runner.DealCheck` over flip seeds."""

    time_limit: float
    data: str | None = None
    map: str | None = None
    zones: str = "1-2"

    def edition(self) -> Edition:
        return cached_edition(get("nextstation"), self.data, map=self.map, zones=self.zones)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()

        def evaluate(seed: int) -> dict:
            d = deal(ed, 1, seed)
            ts = turns(ed.book, d.flips[0])
            r = best_round(ed.board, ed.book, ts, ed.board.departure(d.pencils[0][0]).id, time_limit=self.time_limit)
            return {"status": r.status, "score": r.score, "bound": r.bound, "turns": len(ts),
                    "pencil": d.pencils[0][0], "seconds": round(r.wall, 3)}

        return evaluate

    def header(self) -> dict:
        return {"game": "nextstation", "mode": "par", "map": self.map or "classic", "zones": self.zones, "round": 1, "version": 1}

    @property
    def results_name(self) -> str:
        return f"nextstation-par-{self.map or 'classic'}".replace("/", "_")

    @property
    def label(self) -> str:
        return "nextstation rounds"

    def summary(self) -> "ParSummary":
        return ParSummary()

    def decided(self, record: dict) -> bool:
        return record.get("status") == "OPTIMAL"

    def validate(self, record: dict) -> str | None:
        if record.get("status") not in STATUSES:
            return "'status' must be OPTIMAL, FEASIBLE or UNKNOWN"
        s = record.get("score")
        if not (s is None or (isinstance(s, int) and 0 <= s < 1000)):
            return "'score' out of range"
        if (s is None) != (record["status"] == "UNKNOWN"):
            return "'score' must be given unless the status is UNKNOWN"
        return None


def par_check(edition: Edition, players: int = 1, time_limit: float = 60.0, data: str | None = None,
              map: str | None = None, zones: str = "1-2", sheets: int = 1,  # noqa: A002
              challenge: str | None = None) -> ParCheck:  # the CLI hands a deals check every edition option
    return ParCheck(time_limit, data, map, zones)


@dataclass
class ParSummary:
    statuses: Counter = field(default_factory=Counter)
    scores: list = field(default_factory=list)
    seconds: list = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.statuses[record["status"]] += 1
        if record["status"] == "OPTIMAL":
            self.scores.append(record["score"])
        self.seconds.append(record.get("seconds") or 0.0)

    def failures(self) -> str | None:
        undecided = sum(v for k, v in self.statuses.items() if k != "OPTIMAL")
        return f"{undecided} round(s) not proven within the time limit" if undecided else None

    def as_dict(self) -> dict:
        s, t = sorted(self.scores), sorted(self.seconds)
        par = {"mean": round(statistics.mean(s), 2), "median": statistics.median(s), "min": s[0], "max": s[-1],
               "p10": s[int(0.1 * (len(s) - 1))], "p90": s[int(0.9 * (len(s) - 1))]} if s else None
        return {"rounds": sum(self.statuses.values()), "statuses": dict(self.statuses), "par": par,
                "seconds": {"median": statistics.median(t), "p95": t[int(0.95 * (len(t) - 1))]} if t else None}

    def describe(self) -> list[str]:
        d = self.as_dict()
        out = [f"Next Station: London par (best first round): {d['rounds']} seeds, statuses {d['statuses']}"]
        if d["par"]:
            p = d["par"]
            out.append(f"  best round: mean {p['mean']}, median {p['median']} (10-90%: {p['p10']}-{p['p90']}, "
                       f"range {p['min']}-{p['max']})")
        if d["seconds"]:
            out.append(f"  solve time: median {d['seconds']['median']:.2f} s, p95 {d['seconds']['p95']:.2f} s")
        return out
