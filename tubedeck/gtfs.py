"""A GTFS feed (a zip or a folder) to the project's dataset: ``stations.csv``, ``lines.csv``,
``routes.csv`` and ``city.toml``, so any city's metro builds the tube games.

The decisions a transit feed leaves to the importer, each an argument of :func:`convert` (and an
option of ``tubedeck data import``), with its default:

* **which routes**: ``route_type`` 1 (subway, metro) and the extended types 400-404 (``modes``);
* **service variants**: a route whose short name is another's plus ``X`` (New York's FX, 6X, 7X:
  express variants of one line) is merged into that line; ``merge`` overrides ({"FX": "F"}) and
  ``merge={}`` with ``auto_merge=False`` keeps every route a line of its own;
* **stations**: platforms (``parent_station``) fold into their station; stations joined by a
  ``transfers.txt`` row between *different* stations are one complex, one station for a rider,
  named by its distinct names joined with " / " (Two / Two Av): the name with the most platforms
  first, a second only where both fit a card's line (:data:`NAME_ROOM`), every other name an
  alias; a name two or more stations share gets the lines that stop at each
  (:func:`disambiguate`: "Canal St (1/2)", "Canal St (A/C/E)"); ids are slugs of the name;
* **lines and branches** from the trips' stop patterns: a pattern is kept when it carries at least
  ``share`` of its line's trips (default 5%); ``express="drop"`` (the default) leaves out an
  adjacency that skips stops a kept pattern of the same line serves between the two; each
  adjacency is written once, the line's graph cut into branches (the longest path is ``main``,
  every other branch runs from the junction it leaves to its end); a loop is a branch that comes
  back to where it started;
* **colours** from ``route_color`` / ``route_text_color``, a readable text colour computed where
  the feed has none;
* **zones**: the feed's ``zone_id`` where its stations carry numbers 1-9, else rings of ``ring_km``
  around ``centre`` (a station name; default the station nearest the mean of all), a station within
  ``ring_km / 20`` of a ring's edge on the boundary (``2/3``), capped at 9.

Every problem in the feed is a :class:`~tubedeck.errors.DataError` naming the file, line and
column. Files stream through :mod:`csv` row by row; of the timetable only the trip being read is
held, closed as soon as the file moves on (a trip whose rows are not together is read again:
:func:`_patterns`).
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DataError, Problem, UsageError
from .geo import great_circle_km

MODES = (1, 400, 401, 402, 403, 404)
REQUIRED = {
    "routes.txt": ("route_id", "route_type"),
    "stops.txt": ("stop_id", "stop_name", "stop_lat", "stop_lon"),
    "trips.txt": ("route_id", "trip_id"),
    "stop_times.txt": ("trip_id", "stop_id", "stop_sequence"),
}
NAME_ROOM = 32  # characters: a complex's two names joined only within this (a card's name line)
LABEL_ROOM = 3  # characters: a line named this short is written by its name in a station's name (A, 7, FS)
MAX_FIELD = 10_000  # characters: a longer field is a broken feed, not a name


def bad(file: str, line: int | None, column: str | None, message: str) -> DataError:
    """A located problem of the feed (``file:line [column]: message``)."""
    return DataError([Problem(file, line, column, message)])


class Feed:
    """The files of a feed, a zip or a folder, read as CSV rows with their line numbers."""

    def __init__(self, path: Path):
        self.path = path
        if path.is_dir():
            self._zip = None
        elif path.is_file():
            try:
                self._zip = zipfile.ZipFile(path)
            except (zipfile.BadZipFile, OSError) as exc:
                raise UsageError(f"{path}: not a GTFS zip or folder ({exc})") from None
        else:
            raise UsageError(f"{path}: no such GTFS zip or folder")

    def has(self, name: str) -> bool:
        if self._zip is None:
            return (self.path / name).is_file()
        return name in self._names()

    def _names(self) -> dict[str, str]:
        assert self._zip is not None
        return {Path(n).name: n for n in self._zip.namelist()}  # a feed zipped inside a folder

    def rows(self, name: str, required: tuple[str, ...] = ()) -> Iterator[tuple[int, dict[str, str]]]:
        """``(line, row)`` for every row of ``name``; DataError on a missing file or column."""
        if not self.has(name):
            raise bad(str(self.path), None, None, f"the feed has no {name}")
        raw = open(self.path / name, "rb") if self._zip is None else self._zip.open(self._names()[name])
        with raw, io.TextIOWrapper(raw, encoding="utf-8-sig", newline="") as text:
            reader = csv.reader(text)
            try:
                header = [h.strip() for h in next(reader)]
            except StopIteration:
                raise bad(name, 1, None, "empty file (a header row is needed)") from None
            except (csv.Error, UnicodeDecodeError) as exc:
                raise bad(name, 1, None, str(exc)) from None
            missing = [c for c in required if c not in header]
            if missing:
                raise bad(name, 1, missing[0], f"no column {missing[0]!r} (the header has {', '.join(header)})")
            try:
                for values in reader:
                    line = reader.line_num
                    if not values:
                        continue
                    if any(len(v) > MAX_FIELD for v in values):
                        raise bad(name, line, None, f"a field over {MAX_FIELD:,} characters")
                    yield line, dict(zip(header, (v.strip() for v in values)))
            except (csv.Error, UnicodeDecodeError) as exc:
                raise bad(name, reader.line_num, None, str(exc)) from None


def slug(name: str) -> str:
    """The dataset's id rule: lower-case ASCII, '&' and apostrophes dropped, other runs of
    non-alphanumerics one '-'."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[&'\u2019]", "", text)
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "x"


def _float(row: dict[str, str], column: str, name: str, line: int) -> float:
    try:
        value = float(row[column])
    except (KeyError, ValueError):
        raise bad(name, line, column, f"{row.get(column, '')!r} is not a number") from None
    if not math.isfinite(value):
        raise bad(name, line, column, f"{row[column]!r} is not a finite number")
    return value


def _colour(text: str, line: int, column: str) -> str | None:
    if not text:
        return None
    text = text.lstrip("#").upper()
    if not re.fullmatch(r"[0-9A-F]{6}", text):
        raise bad("routes.txt", line, column, f"{text!r} is not a colour (RRGGBB)")
    return "#" + text


def _luminance(hex_colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def text_colour_for(colour: str) -> str:
    """White or near-black, whichever contrasts more with ``colour``."""
    lum = _luminance(colour)
    return "#FFFFFF" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / (_luminance("#1C1C1C") + 0.05)) else "#1C1C1C"


@dataclass
class Station:
    id: str
    name: str
    lat: float
    lon: float
    zone: str = ""
    step_free: str = ""
    lines: set[str] = field(default_factory=set)
    aliases: list[str] = field(default_factory=list)


@dataclass
class Line:
    id: str
    name: str
    colour: str
    text_colour: str
    branches: list[tuple[str, list[str]]] = field(default_factory=list)
    short: str = ""  # route_short_name (New York's shuttles: "S"), for a station's line label


@dataclass
class Dataset:
    stations: dict[str, Station]
    lines: list[Line]
    notes: list[str]
    feed: dict[str, str]
    centre: str = ""
    ring_km: float = 0.0


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, a: str) -> str:
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _routes(feed: Feed, modes: tuple[int, ...], merge: dict[str, str] | None, auto_merge: bool,
            line_names: str) -> tuple[dict[str, str], dict[str, Line], list[str]]:
    """route_id -> line id, the lines, notes."""
    rows = []
    for line, row in feed.rows("routes.txt", REQUIRED["routes.txt"]):
        try:
            kind = int(row["route_type"])
        except ValueError:
            raise bad("routes.txt", line, "route_type", f"{row['route_type']!r} is not a number") from None
        if kind in modes:
            rows.append((line, row))
    if not rows:
        raise bad("routes.txt", None, "route_type", f"no route of type {', '.join(map(str, modes))} (--modes)")
    short = {row["route_id"]: (row.get("route_short_name") or row["route_id"]) for _, row in rows}
    names = set(short.values())
    merged: dict[str, str] = {}
    notes: list[str] = []
    if merge is not None:
        merged = {a: b for a, b in merge.items()}
    elif auto_merge:
        merged = {s: s[:-1] for s in names if len(s) > 1 and s.endswith("X") and s[:-1] in names}
    for a, b in merged.items():
        if b not in names:
            raise UsageError(f"--merge {a}={b}: the feed has no route {b!r} of the modes imported")
        notes.append(f"route {a} merged into line {b}")
    # A line per route, variants into their line; routes that share a short name without being
    # variants (New York's three "S" shuttles) stay lines of their own, named by their long names.
    owner = {short[r["route_id"]]: r["route_id"] for _, r in reversed(rows)}  # the first route of a name
    repeated = {n for n, k in Counter(short.values()).items() if k > 1}
    line_of: dict[str, str] = {}
    lines: dict[str, Line] = {}
    for line_no, row in rows:
        rid = row["route_id"]
        name = merged.get(short[rid], short[rid])
        base = owner[name] if name != short[rid] else rid
        lid = slug(base if name in repeated else name)
        line_of[rid] = lid
        if lid in lines:
            continue
        colour = _colour(row.get("route_color", ""), line_no, "route_color") or "#808080"
        text = _colour(row.get("route_text_color", ""), line_no, "route_text_color")
        long = row.get("route_long_name", "")
        shown = long if long and (line_names == "long" or name in repeated) else name
        lines[lid] = Line(lid, shown, colour, text or text_colour_for(colour), short=name)
    return line_of, lines, notes


def _stations(feed: Feed) -> tuple[dict[str, str], dict[str, Station], list[str]]:
    """stop_id -> complex id, the stations (keyed by complex id, ids not final), notes."""
    parent: dict[str, str] = {}
    points: dict[str, tuple[str, float, float, str]] = {}
    fare_zone: dict[str, str] = {}
    for line, row in feed.rows("stops.txt", REQUIRED["stops.txt"]):
        sid = row["stop_id"]
        kind = row.get("location_type", "") or "0"
        if kind in ("2", "3", "4"):  # entrances, nodes, boarding areas
            continue
        if row.get("parent_station") and kind == "0":
            parent[sid] = row["parent_station"]
        else:
            points[sid] = (row["stop_name"], _float(row, "stop_lat", "stops.txt", line),
                           _float(row, "stop_lon", "stops.txt", line), row.get("wheelchair_boarding", ""))
            if row.get("zone_id"):
                fare_zone[sid] = row["zone_id"]
            if row.get("parent_station"):
                parent[sid] = row["parent_station"]
    platforms: Counter[str] = Counter(parent.values())
    union = _Union()
    if feed.has("transfers.txt"):
        for _, row in feed.rows("transfers.txt", ("from_stop_id", "to_stop_id")):
            a = parent.get(row["from_stop_id"], row["from_stop_id"])
            b = parent.get(row["to_stop_id"], row["to_stop_id"])
            if a != b and a in points and b in points:
                union.join(a, b)
    members: dict[str, list[str]] = defaultdict(list)
    for sid in points:
        if sid not in parent:
            members[union.find(sid)].append(sid)
    stations: dict[str, Station] = {}
    of: dict[str, str] = {}
    notes = []
    for root, ids in members.items():
        ids.sort()
        # the name: the name with the most platforms first (the complex's main station), the
        # second joined where both fit a card's line ("Times Sq-42 St / 42 St-Port Authority"
        # would not); every other name an alias, so a typed name still finds the station
        weight: Counter[str] = Counter()
        for i in ids:
            weight[points[i][0]] += platforms[i] or 1
        names = sorted(weight, key=lambda n: (-weight[n], n))
        shown = " / ".join(names[:2]) if len(names) > 1 and len(" / ".join(names[:2])) <= NAME_ROOM else names[0]
        lat = sum(points[i][1] for i in ids) / len(ids)
        lon = sum(points[i][2] for i in ids) / len(ids)
        access = {points[i][3] for i in ids}
        step = "yes" if access == {"1"} else "no" if access == {"2"} else "partial" if "1" in access else ""
        zones = sorted({fare_zone[i] for i in ids if i in fare_zone})
        stations[root] = Station(root, shown, round(lat, 6), round(lon, 6), step_free=step,
                                 aliases=[n for n in names if n not in shown.split(" / ")],
                                 zone="/".join(zones) if all(z.isdigit() for z in zones) else "")
        for i in ids:
            of[i] = root
        if len(ids) > 1:
            notes.append(f"complex: {' + '.join(names) if len(names) > 1 else names[0]} ({len(ids)} stations)")
    for sid, up in parent.items():
        while up in parent and up not in of:
            up = parent[up]
        if up in of:
            of[sid] = of[up]
    return of, stations, notes


def _patterns(feed: Feed, line_of: dict[str, str], of: dict[str, str],
              tick: Callable[[int], None]) -> dict[str, Counter[tuple[str, ...]]]:
    """Each line's stop patterns (station sequences, one direction) and how many trips run each.

    Feeds list a trip's stop times together, so a trip is closed (its pattern counted, its rows
    let go) as soon as the file moves on to another trip: only one trip's rows are held. A trip
    whose rows come back after it was closed is *scattered*: its count is taken back, and a
    second read of the file gathers only the scattered trips' rows (none in a grouped feed)."""
    trip_line: dict[str, str] = {}
    for _, row in feed.rows("trips.txt", REQUIRED["trips.txt"]):
        if row["route_id"] in line_of:
            trip_line[row["trip_id"]] = line_of[row["route_id"]]
    patterns: dict[str, Counter[tuple[str, ...]]] = defaultdict(Counter)
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per pattern, however many trips
    counted: dict[str, tuple[str, ...] | None] = {}  # closed trip -> the pattern it counted
    scattered: set[str] = set()

    def pattern(rows: list[tuple[int, str]]) -> tuple[str, ...] | None:
        seq = [s for _, s in sorted(rows)]
        seq = [s for i, s in enumerate(seq) if i == 0 or s != seq[i - 1]]
        if len(seq) < 2:
            return None
        key = min(tuple(seq), tuple(seq[::-1]))
        return shared.setdefault(key, key)

    def stop_times(only: set[str] | None = None) -> Iterator[tuple[str, int, str]]:
        """(trip, sequence, station) of every imported trip's row (of ``only``'s, if given)."""
        for line, row in feed.rows("stop_times.txt", REQUIRED["stop_times.txt"]):
            if only is None and line % 100_000 == 0:
                tick(line)
            trip = row["trip_id"]
            if trip not in trip_line or (only is not None and trip not in only):
                continue
            station = of.get(row["stop_id"])
            if station is None:
                raise bad("stop_times.txt", line, "stop_id", f"{row['stop_id']!r} is not in stops.txt")
            try:
                seq = int(row["stop_sequence"])
            except ValueError:
                raise bad("stop_times.txt", line, "stop_sequence", f"{row['stop_sequence']!r} "
                          "is not a whole number") from None
            yield trip, seq, station

    current = ""
    rows: list[tuple[int, str]] = []
    for trip, seq, station in stop_times():
        if trip != current:
            if current and current not in scattered:
                key = counted[current] = pattern(rows)
                if key is not None:
                    patterns[trip_line[current]][key] += 1
            current, rows = trip, []
            if trip in counted and trip not in scattered:  # back after it was closed
                scattered.add(trip)
                key = counted[trip]
                if key is not None:
                    patterns[trip_line[trip]][key] -= 1
        if trip not in scattered:
            rows.append((seq, station))
    if current and current not in scattered:
        key = pattern(rows)
        if key is not None:
            patterns[trip_line[current]][key] += 1
    if scattered:
        held: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for trip, seq, station in stop_times(scattered):
            held[trip].append((seq, station))
        for trip, trip_rows in held.items():
            key = pattern(trip_rows)
            if key is not None:
                patterns[trip_line[trip]][key] += 1
    for counter in patterns.values():
        for key in [k for k, n in counter.items() if n <= 0]:
            del counter[key]
    return {lid: counter for lid, counter in patterns.items() if counter}


def _edges(patterns: Counter[tuple[str, ...]], share: float, express: str) -> tuple[set[frozenset[str]], int]:
    """The adjacencies of the kept patterns, express skips dropped; how many patterns were kept."""
    total = sum(patterns.values())
    kept = [p for p, n in patterns.items() if n >= share * total] or [patterns.most_common(1)[0][0]]
    edges = {frozenset(e) for p in kept for e in zip(p, p[1:])}
    if express == "drop":
        position = [{s: i for i, s in enumerate(p)} for p in kept]
        skipping = set()
        for edge in edges:
            a, b = tuple(edge)
            for where in position:
                if a in where and b in where and abs(where[a] - where[b]) > 1:
                    skipping.add(edge)
                    break
        edges -= skipping
    return edges, len(kept)


def branches(edges: set[frozenset[str]], name: Callable[[str], str]) -> list[tuple[str, list[str]]]:
    """A line's graph cut into branches: every edge once; ``main`` the longest path; the others
    from a junction outwards, each named after its far end (``name(station)``)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for edge in edges:
        a, b = sorted(edge)
        graph[a].add(b)
        graph[b].add(a)
    used: set[frozenset[str]] = set()
    out: list[tuple[str, list[str]]] = []

    def longest_from(start: str) -> list[str]:
        """The longest trail from ``start`` over unused edges (depth-first; networks are small)."""
        best: list[str] = [start]
        stack: list[tuple[str, list[str], frozenset[frozenset[str]]]] = [(start, [start], frozenset())]
        budget = 200_000
        while stack and budget:
            budget -= 1
            node, path, taken = stack.pop()
            if len(path) > len(best):
                best = path
            for nxt in sorted(graph[node]):
                e = frozenset((node, nxt))
                if e in used or e in taken:
                    continue
                stack.append((nxt, path + [nxt], taken | {e}))
        return best

    while len(used) < len(edges):
        touched = sorted(n for n in graph if any(frozenset((n, m)) not in used for m in graph[n]))
        # a trail starts where the network already has a branch (a junction) or at a line's end
        ends = [n for n in touched if sum(frozenset((n, m)) not in used for m in graph[n]) == 1]
        starts = ([n for n in touched if any(frozenset((n, m)) in used for m in graph[n])] if out else []) \
            or ends or touched
        trail = max((longest_from(s) for s in starts), key=lambda p: (len(p), p[::-1] < p, p))
        for a, b in zip(trail, trail[1:]):
            used.add(frozenset((a, b)))
        if not out:
            if trail[0] > trail[-1]:
                trail.reverse()
            out.append(("main", trail))
        else:
            junction_first = any(trail[0] in t for _, t in out)
            if not junction_first:
                trail.reverse()
            base = slug(name(trail[-1])) or "branch"
            taken_names = {b for b, _ in out}
            label, k = base, 2
            while label in taken_names:
                label, k = f"{base}-{k}", k + 1
            out.append((label, trail))
    return out


def _fare_zone(zone: str) -> bool:
    """A fare zone the dataset takes: ``3``, or ``2/3`` on a boundary."""
    return bool(re.fullmatch(r"[1-9](/[1-9])?", zone)) and ("/" not in zone or int(zone[2]) == int(zone[0]) + 1)


def _line_label(line: Line) -> str:
    """How riders name a line in a station's name: its printed name where short (``A``, ``7``),
    else its short name where that is short (a shuttle's ``S``), else its printed name."""
    if len(line.name) <= LABEL_ROOM:
        return line.name
    return line.short if line.short and len(line.short) <= LABEL_ROOM else line.name


def _label_order(label: str) -> tuple[bool, int, str]:
    """Numbered lines first, in number order, then the lettered ones (the MTA's order: 1 2 3 A C E)."""
    return (not label.isdigit(), int(label) if label.isdigit() else 0, label)


def _with_lines(name: str, labels: list[str]) -> str:
    """``Canal St (A/C/E)``; long line names as London's two-record stations are written
    (``Hammersmith (District & Piccadilly)``)."""
    labels = sorted(set(labels), key=_label_order)
    if all(len(label) <= LABEL_ROOM for label in labels):
        return f"{name} ({'/'.join(labels)})"
    return f"{name} ({', '.join(labels[:-1]) + ' & ' if len(labels) > 1 else ''}{labels[-1]})"


def disambiguate(stations: dict[str, Station], lines: dict[str, Line]) -> int:
    """Give every name that two or more stations share (compared folded, as names are typed) the
    lines that stop at each: ``Canal St (1/2)``, ``Canal St (A/C/E)``. Where that is longer than a
    card's name line (:data:`NAME_ROOM`), only the lines the other stations of the name do not
    have; a name still shared after that gets a number (``Broadway 2``). How many stations were
    renamed."""
    from .names import fold

    groups: dict[str, list[Station]] = defaultdict(list)
    for s in stations.values():
        groups[fold(s.name)].append(s)
    renamed = 0
    for group in groups.values():
        if len(group) < 2:
            continue
        for s in group:
            others = set().union(*(o.lines for o in group if o is not s))
            full = _with_lines(s.name, [_line_label(lines[lid]) for lid in s.lines])
            own = [_line_label(lines[lid]) for lid in s.lines - others]
            s.name = full if len(full) <= NAME_ROOM or not own else _with_lines(s.name, own)
            renamed += 1
        seen: Counter[str] = Counter()
        for s in sorted(group, key=lambda s: s.id):
            seen[fold(s.name)] += 1
            if seen[fold(s.name)] > 1:
                s.name = f"{s.name} {seen[fold(s.name)]}"
    return renamed


def _keep_unique_aliases(stations: dict[str, Station]) -> None:
    """Aliases only where they name one station (the dataset's rule): a name that is another
    station's name or another's alias too ("Chambers St" in two complexes) is left out."""
    from .names import fold

    count: Counter[str] = Counter(fold(s.name) for s in stations.values())
    count.update(fold(a) for s in stations.values() for a in set(s.aliases))
    for s in stations.values():
        s.aliases = sorted({a for a in s.aliases if count[fold(a)] == 1 and fold(a) != fold(s.name)})


def _zones(stations: dict[str, Station], centre: str | None, ring: float) -> str:
    pts = list(stations.values())
    if centre is not None:
        folded = centre.strip().lower()
        match = [s for s in pts if s.name.lower() == folded or s.id == slug(centre)
                 or folded in (n.lower() for n in s.name.split(" / ") + s.aliases)]
        if not match:
            raise UsageError(f"--centre {centre!r}: no station of that name in the feed")
        hub = match[0]
    else:
        mid = (sum(s.lat for s in pts) / len(pts), sum(s.lon for s in pts) / len(pts))
        hub = min(pts, key=lambda s: (great_circle_km(s.lat, s.lon, *mid), s.id))
    edge = ring / 20
    for s in pts:
        d = great_circle_km(s.lat, s.lon, hub.lat, hub.lon)
        k = min(int(d // ring) + 1, 9)
        if k < 9 and (k * ring - d) <= edge:
            s.zone = f"{k}/{k + 1}"
        elif k > 1 and d - (k - 1) * ring <= edge and k - 1 < 9:
            s.zone = f"{k - 1}/{k}"
        else:
            s.zone = str(k)
    return hub.name


def convert(path: Path, *, modes: tuple[int, ...] = MODES, merge: dict[str, str] | None = None,
            auto_merge: bool = True, share: float = 0.05, express: str = "drop", centre: str | None = None,
            ring_km: float = 2.0, line_names: str = "short",
            tick: Callable[[int], None] = lambda n: None) -> Dataset:
    """The dataset of the feed at ``path`` (see the module's docstring for each decision)."""
    if not 0 <= share < 1:
        raise UsageError(f"--share {share}: give a fraction from 0 to below 1")
    if express not in ("drop", "keep"):
        raise UsageError(f"--express {express!r}: drop or keep")
    if not (ring_km > 0 and math.isfinite(ring_km)):
        raise UsageError(f"--ring {ring_km}: give a positive distance in km")
    feed = Feed(path)
    line_of, lines, notes = _routes(feed, modes, merge, auto_merge, line_names)
    of, complexes, station_notes = _stations(feed)
    patterns = _patterns(feed, line_of, of, tick)
    kept_edges: dict[str, set[frozenset[str]]] = {}
    served: dict[str, set[str]] = defaultdict(set)
    for lid, counter in sorted(patterns.items()):
        kept_edges[lid], _ = _edges(counter, share, express)
        for edge in kept_edges[lid]:
            for sid in edge:
                served[sid].add(lid)
    rare = sorted({complexes[sid].name for counter in patterns.values() for p in counter for sid in p} -
                  {complexes[sid].name for sid in served})
    if rare:
        notes.append(f"{len(rare)} stations only on patterns under --share {share:g}, left out: {', '.join(rare[:6])}"
                     + (", ..." if len(rare) > 6 else ""))
    stations = {k: v for k, v in complexes.items() if k in served}
    for s in stations.values():
        s.lines = served[s.id]
    renamed = disambiguate(stations, lines)
    if renamed:
        notes.append(f"{renamed} stations share a name with another: each named with the lines that stop there")
    # ids: the name's slug; where slugs still repeat, the lines serving each make it unique
    by_slug: dict[str, list[Station]] = defaultdict(list)
    for s in stations.values():
        by_slug[slug(s.name)].append(s)
    final: dict[str, Station] = {}
    rename: dict[str, str] = {}
    for base, group in sorted(by_slug.items()):
        for s in sorted(group, key=lambda s: (sorted(s.lines), s.id)):
            new = base if len(group) == 1 else f"{base}-{'-'.join(sorted(s.lines))}"
            k = 2
            while new in final:
                new, k = f"{base}-{k}", k + 1
            rename[s.id] = new
            final[new] = Station(new, s.name, s.lat, s.lon, zone=s.zone, step_free=s.step_free, lines=s.lines,
                                 aliases=s.aliases)
    for lid, line in lines.items():
        if lid not in patterns:
            notes.append(f"line {line.name}: no trips, left out")
            continue
        edges = {frozenset(rename[s] for s in e) for e in kept_edges[lid]}
        line.branches = branches(edges, lambda sid: final[sid].name)
    _keep_unique_aliases(final)
    if final and all(_fare_zone(s.zone) for s in final.values()):
        hub, ring_km = "", 0.0
        notes.append("zones: the feed's fare zones (zone_id)")
    else:
        hub = _zones(final, centre, ring_km)
        notes.append(f"zones: rings of {ring_km:g} km around {hub}")
    feed_info = {}
    if feed.has("feed_info.txt"):
        for _, row in feed.rows("feed_info.txt"):
            feed_info = row
            break
    kept_lines = [line for line in lines.values() if line.branches]
    return Dataset(final, sorted(kept_lines, key=lambda line: line.id), notes + station_notes, feed_info, hub,
                   ring_km)


def write(dataset: Dataset, out: Path, *, city: str, source: str, terms: str) -> list[Path]:
    """The three CSV files and ``city.toml`` in ``out`` (each written atomically)."""
    from .atomic import ensure_dir, write_text

    ensure_dir(out)

    def table(header: list[str], rows: list[list[str]]) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
        return buf.getvalue()

    stations = [[s.id, s.name, f"{s.lat:.6f}", f"{s.lon:.6f}", s.zone, city, "", s.step_free, "", "", "",
                 ";".join(s.aliases)]
                for s in sorted(dataset.stations.values(), key=lambda s: s.id)]
    lines = [[line.id, line.name, line.colour, line.text_colour] for line in dataset.lines]
    routes = [[line.id, branch, str(i), sid] for line in dataset.lines for branch, stops in sorted(
        line.branches, key=lambda b: (b[0] != "main", b[0])) for i, sid in enumerate(stops, 1)]
    date = dataset.feed.get("feed_start_date", "")
    publisher = dataset.feed.get("feed_publisher_name", "")
    toml = "\n".join([
        "# Written by `tubedeck data import`: the city this dataset describes, and its source.",
        "[city]",
        f"name = {_q(city)}",
        f"centre = {_q(dataset.centre)}",
        f"ring_km = {dataset.ring_km:g}",
        f"source = {_q(source)}",
        f"publisher = {_q(publisher)}",
        f"feed_version = {_q(dataset.feed.get('feed_version', ''))}",
        f"feed_dates = {_q(date + '-' + dataset.feed.get('feed_end_date', '') if date else '')}",
        f"terms = {_q(terms)}",
        f"attribution = {_q(f'Network data: {publisher or source}. Not endorsed by it; no claim of accuracy.')}",
        "",
    ])
    written = []
    for name, text in (("stations.csv", table(["id", "name", "lat", "lon", "zone", "local_authority", "opened",
                                                  "step_free", "listed", "surface", "interchanges", "aliases"],
                                                 stations)),
                       ("lines.csv", table(["id", "name", "colour", "text_colour"], lines)),
                       ("routes.csv", table(["line", "branch", "seq", "station"], routes)),
                       ("city.toml", toml)):
        written.append(write_text(out / name, text))
    return written


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


__all__ = ["MODES", "Dataset", "Feed", "branches", "convert", "disambiguate", "slug", "text_colour_for", "write"]
