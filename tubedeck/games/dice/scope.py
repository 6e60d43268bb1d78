"""Which part of the network a Tube Dice map shows.

A scope is written as a person says it: ``[LINES in | all except LINES in] all|zone N|zones
N-M|zones N,M [within R km]``, e.g. ``zones 1-2 within 2.7 km``, ``zones 1-2``, ``central,victoria
in zone 1``, ``all except circle,hammersmith-city in zones 1-2 within 2.2 km`` (every line but
those named: the way to leave out a line whose stations on the map are all another's). The radius
is measured from the star station (great-circle distance). Adjacency in the
scope is adjacency in the full network with both ends kept: a branch is cut into the runs of stops
that remain. A boundary station (``1/2``) is inside a zone list if any of its zones is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tubedeck.errors import UsageError
from tubedeck.geo import great_circle_km
from tubedeck.names import fold
from tubedeck.network import Network
from tubedeck.words import names_list

_WITHIN = re.compile(r"^(.*?)\s*\bwithin\s+([0-9]+(?:\.[0-9]+)?)\s*km$")
_ZONES = re.compile(r"^zones?\s*([0-9][0-9,\-\s]*)$")
MAX_KM = 1000.0


@dataclass(frozen=True)
class Scope:
    label: str
    zones: tuple[int, ...] | None
    lines: tuple[str, ...] | None
    km: float | None  # radius from the star, or None


def km_between(net: Network, a: str, b: str) -> float:
    """Great-circle distance in km (haversine, mean Earth radius)."""
    p, q = net.stations[a], net.stations[b]
    return great_circle_km(p.lat, p.lon, q.lat, q.lon)


def _zones(text: str, net: Network) -> tuple[int, ...]:
    known = sorted({z for st in net.stations.values() for z in st.zones})
    span = f"zones in the data: {', '.join(map(str, known))}"
    out: set[int] = set()
    for part in list(names_list(text, "scope", "entry")):
        m = re.fullmatch(r"(\d{1,4})\s*(?:-\s*(\d{1,4}))?", part)
        if not m:
            raise UsageError(f"bad zone list {text[:40]!r} in scope: use '1', '1-2' or '1,3' ({span})")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo > hi or lo not in known or hi not in known:
            raise UsageError(f"unknown zone range {part!r} in scope ({span})")
        out.update(z for z in known if lo <= z <= hi)
    if not out:
        raise UsageError(f"no zone in scope {text[:40]!r} ({span})")
    return tuple(sorted(out))


def _lines(text: str, net: Network) -> tuple[str, ...]:
    by_key = {fold(l.name): l.id for l in net.lines.values()} | {fold(i.replace("-", " ")): i for i in net.lines}
    out = []
    for part in list(names_list(text, "scope", "entry")):
        ident = by_key.get(fold(part))
        if ident is None:
            raise UsageError(f"unknown line {part[:40]!r} in scope (known: {', '.join(net.lines)})")
        out.append(ident)
    return tuple(i for i in net.lines if i in out)


def parse_scope(text: str, net: Network) -> Scope:
    """Parse ``text`` against the network; UsageError naming what is wrong."""
    raw = " ".join(str(text).strip().lower().split())
    if not raw or len(raw) > 200:
        raise UsageError("bad scope: write e.g. 'zone 1 within 2 km', 'zones 1-2', 'all' or 'central in zone 1'")
    km = None
    m = _WITHIN.match(raw)
    if m:
        raw, km = m.group(1).strip() or "all", float(m.group(2))
        if not 0 < km <= MAX_KM:
            raise UsageError(f"scope radius must be more than 0 and at most {MAX_KM:g} km, got {km:g}")
    elif "within" in raw:
        raise UsageError(f"bad scope {text!r}: write the radius as 'within 2 km'")
    line_part, _, zone_part = raw.partition(" in ")
    if not zone_part and (_ZONES.match(line_part) or line_part == "all"):
        line_part, zone_part = "", line_part
    zones = None
    if zone_part and zone_part != "all":
        zm = _ZONES.match(zone_part)
        if not zm:
            raise UsageError(f"bad scope {text!r}: after 'in' write zones, e.g. 'zones 1-2'")
        zones = _zones(zm.group(1), net)
    if line_part.startswith("all except "):
        dropped = set(_lines(line_part[len("all except "):], net))
        lines: tuple[str, ...] | None = tuple(i for i in net.lines if i not in dropped)
    else:
        lines = _lines(line_part, net) if line_part else None
    return Scope(" ".join(str(text).split()), zones, lines, km)


def cut(net: Network, keep: set[str], lines: tuple[str, ...] | None) -> Network:
    """The network restricted to ``keep`` stations (and ``lines``), branches cut into runs of two
    stops or more (a lone stop has no connection to draw)."""
    return net.restricted(keep, lines, min_run=2)


def in_zones(net: Network, scope: Scope) -> set[str]:
    if scope.zones is None:
        return set(net.stations)
    want = set(scope.zones)
    return {s for s, st in net.stations.items() if want & set(st.zones)}
