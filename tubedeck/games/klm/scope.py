"""Scopes: which part of the network a Keep London Moving deck covers.

A scope is written the way a person says it, and parsed against the network:

* ``all``: every station;
* ``zone 1``, ``zones 1-2``, ``zones 1,3``: stations in those fare zones (a boundary
  station such as ``2/3`` belongs to each of its zones);
* ``central,victoria`` or ``Hammersmith & City``: the stations of those lines (ids or names);
* ``central,victoria in zones 1-2``: both at once;
* a name from ``data/klm/scopes.csv`` (``core``, ``inner`` ...), whose recipe is one of the above.
  A name never shadows a line: ``central`` is the Central line, so the zone-1 scope is ``core``
  (a scopes.csv name equal to a line's id or name is refused when a scope is parsed).

Adjacency inside a scope is adjacency in the full network with both ends kept
(:meth:`tubedeck.network.Network.subnetwork`). Unknown zones, lines or names are a UsageError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tubedeck.content import content, read_csv
from tubedeck.errors import DataError, Problem, UsageError
from tubedeck.names import fold
from tubedeck.network import Network
from tubedeck.words import names_list

_ZONES = re.compile(r"^zones?\s*([0-9][0-9,\-\s]*)$")


@dataclass(frozen=True)
class Scope:
    """A parsed scope: ``zones`` / ``lines`` are ``None`` when not restricted."""

    label: str
    zones: tuple[int, ...] | None
    lines: tuple[str, ...] | None

    @property
    def slug(self) -> str:
        """A file-name-safe form of the label: ``zones 1-2`` -> ``zones-1-2``."""
        return re.sub(r"[^a-z0-9]+", "-", self.label.lower()).strip("-")

    def cut(self, net: Network) -> Network:
        if self.zones is None and self.lines is None:
            return net
        return net.subnetwork(zones=self.zones, lines=self.lines)


@dataclass(frozen=True)
class NamedScope:
    name: str
    recipe: str
    note: str
    default: bool


def named_scopes(path: Path | None = None) -> tuple[NamedScope, ...]:
    """The named recipes of ``data/klm/scopes.csv`` (name, recipe, note, default)."""
    return _named_scopes(Path(path or content("klm", "scopes.csv")))


@cache
def _named_scopes(path: Path) -> tuple[NamedScope, ...]:
    problems: list[Problem] = []
    rows = read_csv(path, ("name", "recipe", "note", "default"), problems)
    for row in rows:
        if row["default"] not in ("yes", "no"):
            problems.append(row.problem("default", "use yes or no"))
        if not row["name"] or not row["recipe"]:
            problems.append(row.problem("name", "empty name or recipe"))
    if sum(r["default"] == "yes" for r in rows) > 1:
        problems.append(Problem(path.name, None, "default", "more than one scope is the default"))
    if problems:
        raise DataError(problems)
    return tuple(NamedScope(r["name"], r["recipe"], r["note"], r["default"] == "yes") for r in rows)


def default_scope_recipe() -> str:
    """The recipe marked ``default`` in scopes.csv (chosen from the checker's figures)."""
    for s in named_scopes():
        if s.default:
            return s.recipe
    return "all"


def _zone_list(text: str, net: Network) -> tuple[int, ...]:
    known = sorted({z for st in net.stations.values() for z in st.zones})
    span = f"zones in the data: {known[0]}-{known[-1]}"
    zones: set[int] = set()
    for part in list(names_list(text, "scope", "entry")):
        m = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
        if not m:
            raise UsageError(f"bad zone list {text[:60]!r}: use '1', '1-2' or '1,3' ({span})")
        ends = [g for g in m.groups() if g]
        if any(len(g) > 6 for g in ends):  # never int() a 10,000-digit number
            raise UsageError(f"unknown zone {next(g for g in ends if len(g) > 6)[:12]}... ({span})")
        lo, hi = int(ends[0]), int(ends[-1])
        if lo > hi:
            raise UsageError(f"bad zone range {part!r}: {lo} > {hi}")
        # Check the ends before building anything: 'zones 1-20000000' must not allocate.
        outside = [z for z in (lo, hi) if z not in known]
        if outside:
            raise UsageError(f"unknown zone {outside[0]} ({span})")
        zones.update(range(lo, hi + 1))
    if not zones:
        raise UsageError(f"no zone in {text[:60]!r} ({span})")
    return tuple(sorted(zones))


def _line_list(text: str, net: Network) -> tuple[str, ...]:
    by_key = {fold(l.name): l.id for l in net.lines.values()} | {fold(i.replace("-", " ")): i for i in net.lines}
    out: list[str] = []
    for part in list(names_list(text, "scope", "entry")):
        ident = by_key.get(fold(part))
        if ident is None:
            known = ", ".join(net.lines)
            raise UsageError(f"unknown line {part!r} in scope (known: {known})")
        if ident not in out:
            out.append(ident)
    return tuple(i for i in net.lines if i in out)  # dataset order: a stable label


def _zone_label(zones: tuple[int, ...]) -> str:
    if len(zones) == 1:
        return f"zone {zones[0]}"
    if zones == tuple(range(zones[0], zones[-1] + 1)):
        return f"zones {zones[0]}-{zones[-1]}"
    return "zones " + ",".join(map(str, zones))


def parse_scope(text: str, net: Network) -> Scope:
    """Parse a scope recipe (or a scopes.csv name) against ``net``; UsageError when unknown."""
    raw = " ".join(text.strip().lower().split())
    if not raw:
        raise UsageError("empty scope: use e.g. 'all', 'zone 1', 'zones 1-2' or 'central,victoria'")
    line_keys = {fold(l.name) for l in net.lines.values()} | {fold(i.replace("-", " ")) for i in net.lines}
    for named in named_scopes():
        if fold(named.name) in line_keys:
            raise DataError([Problem("scopes.csv", None, "name", f"scope name {named.name!r} is also a line's name; "
                                                                 "rename the scope (a line scope is written by its name)")])
        if raw == named.name.lower():
            return parse_scope(named.recipe, net)
    if raw == "all":
        return Scope("all", None, None)
    line_part, _, zone_part = raw.partition(" in ")
    if not zone_part and _ZONES.match(line_part):
        line_part, zone_part = "", line_part
    zones = None
    if zone_part:
        m = _ZONES.match(zone_part.strip())
        if not m:
            raise UsageError(f"bad scope {text!r}: after 'in' write zones, e.g. 'zones 1-2'")
        zones = _zone_list(m.group(1), net)
    lines = _line_list(line_part, net) if line_part else None
    label = " in ".join(p for p in (",".join(lines) if lines else "", _zone_label(zones) if zones else "") if p)
    scope = Scope(label, zones, lines)
    if not scope.cut(net).stations:
        raise UsageError(f"scope {text!r} has no stations")
    return scope
