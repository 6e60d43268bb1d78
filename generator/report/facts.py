"""What a results file says, folded in one streaming pass (memory stays flat however many seeds).

Any game's ``check`` or ``simulate`` file works: a header line, then one JSON object per seed. The
fold knows the shapes the games write and reads them by key, not by game:

* ``winner`` (1-based seat or null) and ``order`` (place in turn order): wins by seat and by
  place, games without a winner;
* ``status`` (a solver's): the share left undecided by a time limit (UNKNOWN, FEASIBLE);
* ``winnable`` and ``first.turn``: the share of winnable deals and the earliest win's turn;
* every other whole-number field (``turns``, ``rounds``, ``exchanges``...) and the same in each
  ``players`` entry (``turn``, ``exchanges``): a distribution;
* every true/false field (``fast``, ``fortune_last3``): a share.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tubedeck.errors import UsageError
from tubedeck.stats import quantile, wilson

MAX_LINE = 1 << 20
SKIP = {"seed", "winner", "order", "starter", "kind"}  # identities, not measures
UNDECIDED = ("UNKNOWN", "FEASIBLE")


@dataclass
class Facts:
    """One results file, folded."""

    path: Path
    header: dict
    records: int = 0
    seeds: tuple[int, int] | None = None
    wins: Counter = field(default_factory=Counter)  # by seat (1-based)
    places: Counter = field(default_factory=Counter)  # by place in turn order
    no_winner: int = 0
    statuses: Counter = field(default_factory=Counter)
    winnable: Counter = field(default_factory=Counter)  # True / False / None
    measures: dict[str, Counter] = field(default_factory=dict)
    flags: dict[str, Counter] = field(default_factory=dict)

    @property
    def label(self) -> str:
        h = self.header
        parts = [h.get("game", "?"), h.get("mode", "check")]
        parts += [str(h[k]) for k in ("scope", "map", "recipe") if h.get(k)]
        if h.get("players"):
            parts.append(f"{h['players']} players")
        if h.get("bots"):
            parts.append(",".join(sorted(set(h["bots"]))))
        return " · ".join(parts)

    @property
    def players(self) -> int:
        return int(self.header.get("players") or max(self.wins, default=0) or 0)

    def add(self, record: dict) -> None:
        self.records += 1
        seed = record.get("seed")
        if isinstance(seed, int):
            lo, hi = self.seeds or (seed, seed)
            self.seeds = (min(lo, seed), max(hi, seed))
        if "winner" in record:
            if isinstance(record["winner"], int):
                self.wins[record["winner"]] += 1
                if isinstance(record.get("order"), int):
                    self.places[record["order"]] += 1
            else:
                self.no_winner += 1
        if isinstance(record.get("status"), str):
            self.statuses[record["status"]] += 1
        if "winnable" in record:
            self.winnable[record["winnable"]] += 1
        first = record.get("first")
        if isinstance(first, dict) and isinstance(first.get("turn"), int):
            self._measure("first win turn", first["turn"])
        for key, value in record.items():
            self._take(key, value)
        for p in record.get("players") or ():
            if isinstance(p, dict):
                for key, value in p.items():
                    if key not in ("player", "order", "turns") and isinstance(value, int) and not isinstance(value, bool):
                        self._measure(f"per player: {key}", value)

    def _take(self, key: str, value) -> None:
        if key in SKIP or key == "winnable":
            return
        if isinstance(value, bool):
            self.flags.setdefault(key, Counter())[value] += 1
        elif isinstance(value, int):
            self._measure(key, value)

    def _measure(self, key: str, value: int) -> None:
        self.measures.setdefault(key, Counter())[value] += 1

    def headline(self) -> list[tuple[str, str]]:
        """(figure, value) rows: the figures a designer reads first, with 95% intervals."""
        n, out = self.records, [("records", f"{self.records:,}")]
        if self.seeds:
            out.append(("seeds", f"{self.seeds[0]}-{self.seeds[1]}"))
        decided = sum(v for k, v in self.winnable.items() if k is not None)
        if decided:
            k = self.winnable.get(True, 0)
            lo, hi = wilson(k, decided)
            out.append(("winnable", f"{100 * k / decided:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"))
        if self.statuses:
            u = sum(self.statuses.get(s, 0) for s in UNDECIDED)
            out.append(("undecided (time limit)", f"{100 * u / n:.2f}% ({u})"))
        if self.wins or self.no_winner:
            out.append(("games without a winner", f"{self.no_winner}"))
            for seat in range(1, self.players + 1):
                k = self.wins.get(seat, 0)
                lo, hi = wilson(k, n)
                out.append((f"wins, seat {seat}", f"{100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"))
        if self.places:
            k = self.places.get(1, 0)
            lo, hi = wilson(k, n)
            out.append(("wins, first in turn order", f"{100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"))
        for key, counts in self.measures.items():
            out.append((f"{key}: median (10-90%)",
                        f"{quantile(counts, 0.5)} ({quantile(counts, 0.1)}-{quantile(counts, 0.9)})"))
        for key, counts in self.flags.items():
            k, m = counts.get(True, 0), sum(counts.values())
            out.append((f"{key}: share true", f"{100 * k / m:.1f}%"))
        return out


def read_facts(path: Path) -> Facts:
    """Fold a results file; UsageError naming the file and line when it is not one."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    facts = None
    with fh:
        for number, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            if len(raw) > MAX_LINE:
                raise UsageError(f"{path}:{number}: not a results file (a line over 1 MiB)")
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):
                raise UsageError(f"{path}:{number}: not a results file (not JSON)") from None
            if not isinstance(obj, dict):
                raise UsageError(f"{path}:{number}: not a results file (not a JSON object)")
            if facts is None:
                if obj.get("kind") != "header":
                    raise UsageError(f"{path}:{number}: not a results file (no header line)")
                facts = Facts(path, {k: v for k, v in obj.items() if k != "kind"})
                continue
            facts.add(obj)
    if facts is None:
        raise UsageError(f"{path}: empty results file")
    return facts


def results_header(path: Path) -> dict | None:
    """The header of a results file, or None when it is not one (for finding a game's latest run)."""
    try:
        with open(path, "rb") as fh:
            first = json.loads(fh.readline(MAX_LINE))
    except (OSError, ValueError, RecursionError):
        return None
    return first if isinstance(first, dict) and first.get("kind") == "header" else None


def latest_results(folder: Path, game: str) -> Path | None:
    """The newest results file in ``folder`` whose header names ``game`` (shards left out)."""
    found = []
    for p in folder.glob("*.jsonl") if folder.is_dir() else ():
        h = results_header(p)
        if h and h.get("game") == game and "shard" not in h:
            found.append((p.stat().st_mtime, p.name, p))
    return max(found)[2] if found else None
