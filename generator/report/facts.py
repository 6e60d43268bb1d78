"""What a results file says, folded in one streaming pass (memory stays flat however many seeds).

Any game's ``check`` or ``simulate`` file works: a header line naming the game, mode and record
version, then one JSON object per seed. The fold reads each record by the game's declared schema
(:mod:`tubedeck.records`), never by guessing from field names: wins by seat and by place in turn
order, scores, every measure with its label and unit, flags, tallies and solver statuses. Every
record is validated against the declaration first (a count read from a file is bounded by it), and
a file of another record version is refused with a message to re-run.

The engine layer does not read the registry: the caller hands over ``schema_of(header)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tubedeck.errors import UsageError
from tubedeck.records import Fold, Schema, is_whole
from tubedeck.results_file import BadLine, header_of, lines, open_regular, players_of

SchemaOf = Callable[[dict], Schema]


@dataclass
class Facts:
    """One results file, folded by its declaration."""

    path: Path
    header: dict
    schema: Schema
    fold: Fold
    seeds: tuple[int, int] | None = None
    figures: dict = field(default_factory=dict)

    @property
    def records(self) -> int:
        return self.fold.records

    @property
    def players(self) -> int:
        return self.fold.players

    @property
    def label(self) -> str:
        h = self.header
        parts = [str(h.get("game", "?")), str(h.get("mode", "check"))]
        # (a recipe named by its digest says nothing to a reader: the Run table has it)
        parts += [str(h[k]) for k in ("scope", "map", "recipe") if isinstance(h.get(k), str) and h.get(k)
                  and not (k == "recipe" and re.fullmatch(r"[0-9a-f]{8,}", h[k]))]
        parts.append(f"{self.players} player{'s' if self.players > 1 else ''}")
        bots = h.get("bots")
        if isinstance(bots, list) and bots:
            parts.append(",".join(sorted({str(b) for b in bots})))
        return " · ".join(parts)

    def add(self, record: dict) -> None:
        self.fold.add(record)
        seed = record.get("seed")
        if isinstance(seed, int) and is_whole(seed):
            lo, hi = self.seeds or (seed, seed)
            self.seeds = (min(lo, seed), max(hi, seed))

    def as_dict(self) -> dict:
        return {"file": str(self.path), "game": self.schema.game, "mode": self.schema.mode, "what": self.schema.what,
                "players": self.players, "records": self.records,
                "seeds": list(self.seeds) if self.seeds else None, "header": self.header, **self.fold.figures()}

    def headline(self) -> list[tuple[str, str]]:
        """(figure, value) rows in words: the figures a designer reads first, with 95% intervals."""
        d = self.fold.figures()
        out = [("records", f"{self.records:,} ({self.schema.what})")]
        if self.seeds:
            out.append(("seeds", f"{self.seeds[0]}-{self.seeds[1]}"))
        for s in d.get("statuses", {}).values():
            out.append((s["label"], ", ".join(f"{k} {v:,}" for k, v in s["counts"].items())))
            u = s["undecided"]
            out.append(("undecided (a time limit cut the search short)", f"{100 * u['share']:.2f}% ({u['count']:g})"))
        for f in d.get("flags", {}).values():
            out.append((f["label"], _pct(f)))
        if "wins_by_seat" in d:
            if self.players > 1 or d.get("no_winner"):
                out.append(("games without a winner", f"{d['no_winner']:,}"))
            for seat, w in d["wins_by_seat"].items():
                if self.players > 1:
                    out.append((f"wins, seat {seat}", _pct(w)))
        for place, w in d.get("wins_by_place", {}).items():
            if self.players > 1:
                out.append((f"wins, {_ORDINAL.get(place, place + 'th')} in turn order", _pct(w)))
        for seat, s in d.get("scores_by_seat", {}).items():
            lo, hi = s["mean_interval95"]
            out.append((f"{s['label']}, seat {seat}", f"mean {s['mean']} ({lo}-{hi}), median {s['median']} "
                                                       f"(10-90%: {s['p10']}-{s['p90']})"))
        for m in d.get("measures", {}).values():
            unit = f" ({m['unit']})" if m["unit"] else ""
            out.append((f"{m['label']}{unit}", f"median {m['median']} (10-90%: {m['p10']}-{m['p90']})"))
        for t in d.get("tallies", {}).values():
            items = ", ".join(f"{k} {v}" for k, v in t["per_record"].items())
            out.append((f"{t['label']}, per record", items or "none"))
        for s in d.get("seats", {}).values():
            out.append((s["label"], ", ".join(f"seat {k}: {v:,}" for k, v in s["counts"].items())))
        return out


_ORDINAL = {"1": "1st", "2": "2nd", "3": "3rd"}


def _pct(w: dict) -> str:
    lo, hi = w["interval95"]
    return f"{100 * w['share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


def read_facts(path: Path, schema_of: SchemaOf) -> Facts:
    """Fold a results file; UsageError naming the file and line when it is not one of ours."""
    facts = None
    with open_regular(path) as fh:
        try:
            for line in lines(fh):
                obj, number = line.record, line.number
                if facts is None:
                    if obj.get("kind") != "header":
                        raise UsageError(f"{path}:{number}: not a results file (no header line)")
                    header = {k: v for k, v in obj.items() if k != "kind"}
                    try:
                        schema = schema_of(header)
                    except UsageError as exc:
                        raise UsageError(f"{path}:{number}: {exc}") from None
                    facts = Facts(path, header, schema, Fold(schema, players_of(path, header, schema)))
                    continue
                why = facts.schema.validate(obj, facts.players)
                if why:
                    raise UsageError(f"{path}:{number}: not a record of {facts.schema.game} {facts.schema.mode} ({why})")
                facts.add(obj)
        except BadLine as bad:
            raise UsageError(f"{path}:{bad.number}: not a results file ({bad.why})") from None
    if facts is None:
        raise UsageError(f"{path}: empty results file")
    return facts


def latest_results(folder: Path, game: str) -> Path | None:
    """The newest results file in ``folder`` whose header names ``game`` (shards left out)."""
    found = []
    for p in folder.glob("*.jsonl") if folder.is_dir() else ():
        h = header_of(p)
        if h and h.get("game") == game and "shard" not in h:
            found.append((p.stat().st_mtime, p.name, p))
    return max(found)[2] if found else None
