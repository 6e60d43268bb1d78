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
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

from tubedeck.errors import UsageError
from tubedeck.records import Field, Fold, Schema, is_whole
from tubedeck.results_file import BadLine, header_of, lines, open_regular, players_of

SchemaOf = Callable[[dict], Schema]
Tick = Callable[[int], None]  # tick(records read so far): a progress callback
MAX_BOT_NAME = 40  # characters: a longer "bot" in a header is not a name a label can carry
TICK_EVERY = 10_000  # records between two progress ticks


@dataclass
class Facts:
    """One results file, folded by its declaration."""

    path: Path
    header: dict
    schema: Schema
    fold: Fold
    seeds: tuple[int, int] | None = None
    figures: dict = field(default_factory=dict)
    started: Counter = field(default_factory=Counter)  # seat -> games it started (a rolled starter)
    won_started: dict[int, float] = field(default_factory=dict)  # seat -> wins in the games it started

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
        if self.bots:
            parts.append(self.bots_words)
        return " · ".join(parts)

    # -- seats named by their bots -----------------------------------------------------------
    @cached_property
    def bots(self) -> tuple[str, ...] | None:
        """The bot in each seat, seat 1 first, as the header's ``bots`` list gives them (never
        sorted); None where the header names no bot per seat (a check, a hand-edited header)."""
        b = self.header.get("bots")
        if (isinstance(b, list) and len(b) == self.players
                and all(isinstance(x, str) and 0 < len(x) <= MAX_BOT_NAME and x.isprintable() for x in b)):
            return tuple(b)
        return None

    @property
    def bots_words(self) -> str:
        """``seats 1-3: greedy, lookahead, random`` (``greedy in every seat`` when all alike)."""
        bots = self.bots
        if not bots:
            return ""
        if len(bots) > 1 and len(set(bots)) == 1:
            return f"{bots[0]} in every seat"
        if len(bots) == 1:
            return bots[0]
        return f"seats 1-{len(bots)}: " + ", ".join(bots)

    def bot(self, seat: int) -> str | None:
        bots = self.bots
        return bots[seat - 1] if bots and 1 <= seat <= len(bots) else None

    @cached_property
    def starter_field(self) -> Field | None:
        """The field naming who started, where a roll picks the starter (a ``seat`` field beside a
        ``place`` field: Keep London Moving, Keep Moving); None where the seats play in a fixed order
        or all at once."""
        seats = self.schema.of("seat")
        return seats[0] if seats and self.schema.of("place") else None

    def seat_parts(self, seat: int) -> list[str]:
        """A seat in words, part by part: ``["seat 2", "lookahead", "started 3 of 6"]``."""
        parts = [f"seat {seat}"]
        bot = self.bot(seat)
        if bot:
            parts.append(bot)
        if self.starter_field is not None and self.records:
            parts.append(f"started {self.started.get(seat, 0):,} of {self.records:,}")
        return parts

    def seat_name(self, seat: int) -> str:
        """``seat 2 (lookahead)``, ``seat 2 (lookahead; started 3 of 6)``, or ``seat 2``."""
        first, *rest = self.seat_parts(seat)
        return f"{first} ({'; '.join(rest)})" if rest else first

    def add(self, record: dict) -> None:
        self.fold.add(record)
        starter = self.starter_field
        if starter is not None:
            s = next(iter(starter.values(record)), None)
            if is_whole(s, 1, self.players):
                self.started[s] += 1
                won = self.schema.winners(record)
                if s in won:
                    self.won_started[s] = self.won_started.get(s, 0.0) + 1 / len(won)
        seed = record.get("seed")
        if isinstance(seed, int) and is_whole(seed):
            lo, hi = self.seeds or (seed, seed)
            self.seeds = (min(lo, seed), max(hi, seed))

    def as_dict(self) -> dict:
        figures = self.fold.figures()
        for key in ("wins_by_seat", "scores_by_seat"):  # each seat's bot beside its figures
            for seat, d in figures.get(key, {}).items():
                figures[key][seat] = {"bot": self.bot(int(seat)), **d}
        return {"file": str(self.path), "game": self.schema.game, "mode": self.schema.mode, "what": self.schema.what,
                "players": self.players, "records": self.records,
                "seeds": list(self.seeds) if self.seeds else None, "header": self.header,
                "bots": list(self.bots) if self.bots else None, "by_seat": self.by_seat(figures), **figures}

    def by_seat(self, figures: dict | None = None) -> list[dict]:
        """Per seat, seat 1 first: its bot, its wins, its scores and (a rolled starter) the games it
        started and the wins among them."""
        d = self.fold.figures() if figures is None else figures
        out = []
        for seat in range(1, self.players + 1):
            row: dict = {"seat": seat, "bot": self.bot(seat)}
            w = d.get("wins_by_seat", {}).get(str(seat))
            if w:
                row["wins"] = {k: v for k, v in w.items() if k != "bot"}
            s = d.get("scores_by_seat", {}).get(str(seat))
            if s:
                row["scores"] = {k: v for k, v in s.items() if k != "bot"}
            if self.starter_field is not None:
                row["started"] = self.started.get(seat, 0)
                if self.schema.of("winner", "winners"):
                    row["wins_when_started"] = round(self.won_started.get(seat, 0.0), 2)
            out.append(row)
        return out

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
                    out.append((f"wins, {self.seat_name(int(seat))}", _pct(w)))
        places = self.schema.of("place")
        for place, w in d.get("wins_by_place", {}).items():
            if self.players > 1:
                where = f"{ordinal(int(place))} in turn order ({'the starter, ' if place == '1' else ''}any seat)"
                # a simulation's winner; a check's place is of its own (the first possible winner's)
                key = f"wins, {where}" if self.schema.of("winner", "winners") else f"{places[0].label}: {where}"
                out.append((key, _pct(w)))
        if self.starter_field is not None and self.players > 1 and self.records and self.schema.of("winner", "winners"):
            for seat in range(1, self.players + 1):
                n = self.started.get(seat, 0)
                out.append((f"{self.seat_name_short(seat)}, in the games it started",
                            f"won {self.won_started.get(seat, 0):g} of the {n:,} games it started"))
        for seat, s in d.get("scores_by_seat", {}).items():
            lo, hi = s["mean_interval95"]
            out.append((f"{s['label']}, {self.seat_name(int(seat))}",
                        f"mean {s['mean']} ({lo}-{hi}), median {s['median']} (10-90%: {s['p10']}-{s['p90']})"))
        for f in self.schema.of("measure"):  # every declared measure, a row even where no record holds one
            m = d.get("measures", {}).get(f.name)
            unit = f" ({f.unit})" if f.unit else ""
            out.append((f"{f.label}{unit}", f"median {m['median']} (10-90%: {m['p10']}-{m['p90']})" if m
                        else "no value in any record"))
        for t in d.get("tallies", {}).values():
            items = ", ".join(f"{k} {v}" for k, v in t["per_record"].items())
            out.append((f"{t['label']}, per record", items or "none"))
        for s in d.get("seats", {}).values():
            out.append((s["label"], ", ".join(f"{self.seat_name_short(int(k))}: {v:,}" for k, v in s["counts"].items())))
        return out

    def seat_name_short(self, seat: int) -> str:
        """``seat 2 (lookahead)``: the seat and its bot only."""
        bot = self.bot(seat)
        return f"seat {seat} ({bot})" if bot else f"seat {seat}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st..."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _pct(w: dict) -> str:
    lo, hi = w["interval95"]
    return f"{100 * w['share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


def read_facts(path: Path, schema_of: SchemaOf, tick: Tick | None = None) -> Facts:
    """Fold a results file; UsageError naming the file and line when it is not one of ours.
    ``tick(records)`` is called every :data:`TICK_EVERY` records (a progress line)."""
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
                if tick is not None and facts.records % TICK_EVERY == 0:
                    tick(facts.records)
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
