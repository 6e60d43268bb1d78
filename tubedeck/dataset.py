"""Read and validate a dataset directory: ``stations.csv``, ``lines.csv``, ``routes.csv``.

The format (documented for other cities in the README):

* ``stations.csv``: ``id, name, lat, lon, zone`` required; ``local_authority, opened, step_free,
  listed, surface, interchanges, aliases`` optional columns (blank = unknown; blank ``aliases`` =
  none). ``aliases`` holds ``;``-separated other names of the station; no alias may fold (see
  :func:`tubedeck.names.fold`) to the station's own name or to another station's name or alias.
* ``lines.csv``: ``id, name, colour, text_colour`` (``#RRGGBB``).
* ``routes.csv``: ``line, branch, seq, station``: the ordered stops of every branch. Adjacency is
  derived from consecutive stops, never typed twice.

Validation collects every problem with file, line and column before raising one
:class:`~tubedeck.errors.DataError`; it never raises anything else on bad content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .content import Row, read_csv, unreadable
from .errors import DataError, Problem
from .names import fold
from .printable import why_unprintable

STATION_COLUMNS = ("id", "name", "lat", "lon", "zone")
STATION_OPTIONAL = ("local_authority", "opened", "step_free", "listed", "surface", "interchanges", "aliases")
LINE_COLUMNS = ("id", "name", "colour", "text_colour")
ROUTE_COLUMNS = ("line", "branch", "seq", "station")

STEP_FREE = {"", "yes", "partial", "no"}
SURFACE = {"", "open", "tunnel"}
INTERCHANGE_MODES = ("National Rail", "Overground", "Elizabeth line", "DLR", "Tram", "river", "airport")
LISTED = {"", "I", "II*", "II", "listed"}

_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
_ZONE = re.compile(r"^[1-9](/[1-9])?$")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_DATE = re.compile(r"^\d{4}(-\d{2}-\d{2})?$")



def _real_date(text: str) -> bool:
    """``1876-13-45`` has the shape of a date but is none."""
    import datetime

    if len(text) == 4:
        return True
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True

def _float(row: Row, col: str, lo: float, hi: float, problems: list[Problem]) -> float | None:
    try:
        value = float(row[col])
    except ValueError:
        problems.append(Problem(row.file, row.line, col, f"not a number: {row[col]!r}"))
        return None
    if not lo <= value <= hi:
        problems.append(Problem(row.file, row.line, col, f"{value} out of range {lo}..{hi}"))
        return None
    return value


def _unique_ids(rows: list[Row], problems: list[Problem]) -> dict[str, Row]:
    seen: dict[str, Row] = {}
    for row in rows:
        ident = row["id"]
        if not _ID.match(ident):
            problems.append(Problem(row.file, row.line, "id", f"bad id {ident!r}: use lowercase letters, digits and '-'"))
        elif ident in seen:
            problems.append(Problem(row.file, row.line, "id", f"duplicate id {ident!r} (first on line {seen[ident].line})"))
        else:
            seen[ident] = row
    return seen


def _printable(row: Row, problems: list[Problem]) -> None:
    """A name is printed (cards, maps, sheets): every character one the print fonts draw, the
    same rule a build applies (:mod:`tubedeck.printable`)."""
    why = why_unprintable(row["name"])
    if why:
        problems.append(Problem(row.file, row.line, "name", f"{why}; names are printed, so use letters they draw"))


def check_stations(rows: list[Row], problems: list[Problem]) -> dict[str, Row]:
    """Validate station records; return the valid-id ones by id."""
    by_id = _unique_ids(rows, problems)
    for row in rows:
        if not row["name"]:
            problems.append(Problem(row.file, row.line, "name", "empty name"))
        _printable(row, problems)
        _float(row, "lat", -90.0, 90.0, problems)
        _float(row, "lon", -180.0, 180.0, problems)
        zone = row["zone"]
        if not _ZONE.match(zone) or ("/" in zone and int(zone[2]) != int(zone[0]) + 1):
            problems.append(Problem(row.file, row.line, "zone", f"bad zone {zone!r}: use '1', or '2/3' for a boundary station"))
        if row["step_free"] not in STEP_FREE:
            problems.append(Problem(row.file, row.line, "step_free", f"{row['step_free']!r} is not yes/partial/no/blank"))
        if row["surface"] not in SURFACE:
            problems.append(Problem(row.file, row.line, "surface", f"{row['surface']!r} is not open/tunnel/blank"))
        if row["listed"] not in LISTED:
            problems.append(Problem(row.file, row.line, "listed", f"{row['listed']!r} is not I/II*/II/listed/blank"))
        if row["opened"] and not (_DATE.match(row["opened"]) and _real_date(row["opened"])):
            problems.append(Problem(row.file, row.line, "opened", f"{row['opened']!r} is not a date YYYY or YYYY-MM-DD"))
        for mode in filter(None, (m.strip() for m in row["interchanges"].split(";"))):
            if mode not in INTERCHANGE_MODES:
                problems.append(Problem(row.file, row.line, "interchanges", f"unknown mode {mode!r}"))
    _check_aliases(rows, problems)
    return by_id


def _check_aliases(rows: list[Row], problems: list[Problem]) -> None:
    """Every alias is non-empty and names one station only: not its own name again, and not the
    name or alias of another station (compared after :func:`tubedeck.names.fold`)."""
    names: dict[str, Row] = {}
    for row in rows:
        if fold(row["name"]):
            names.setdefault(fold(row["name"]), row)
    aliases: dict[str, Row] = {}
    for row in rows:
        if not row["aliases"]:
            continue
        for alias in (a.strip() for a in row["aliases"].split(";")):
            key = fold(alias)
            if not key:
                problems.append(Problem(row.file, row.line, "aliases", f"empty alias in {row['aliases']!r}"))
            elif key == fold(row["name"]):
                problems.append(Problem(row.file, row.line, "aliases", f"alias {alias!r} is the station's own name"))
            elif key in names:
                other = names[key]
                problems.append(Problem(row.file, row.line, "aliases",
                                        f"alias {alias!r} is the name of station {other['id']!r} (line {other.line})"))
            elif key in aliases:
                other = aliases[key]
                whose = "repeated" if other is row else f"also an alias of station {other['id']!r} (line {other.line})"
                problems.append(Problem(row.file, row.line, "aliases", f"alias {alias!r} is {whose}"))
            else:
                aliases[key] = row


def check_lines(rows: list[Row], problems: list[Problem]) -> dict[str, Row]:
    """Validate line records; return them by id."""
    by_id = _unique_ids(rows, problems)
    for row in rows:
        if not row["name"]:
            problems.append(Problem(row.file, row.line, "name", "empty name"))
        _printable(row, problems)
        for col in ("colour", "text_colour"):
            if not _HEX.match(row[col]):
                problems.append(Problem(row.file, row.line, col, f"bad hex colour {row[col]!r}: use #RRGGBB"))
    return by_id


def check_routes(
    rows: list[Row], stations: dict[str, Row], lines: dict[str, Row], problems: list[Problem]
) -> dict[tuple[str, str], list[str]]:
    """Validate route records; return ``{(line, branch): [station ids in seq order]}``."""
    stops: dict[tuple[str, str], list[tuple[int, Row]]] = {}
    for row in rows:
        ok = True
        if row["line"] not in lines:
            problems.append(Problem(row.file, row.line, "line", f"unknown line {row['line']!r}"))
            ok = False
        if row["station"] not in stations:
            problems.append(Problem(row.file, row.line, "station", f"unknown station {row['station']!r}"))
            ok = False
        if not row["branch"]:
            problems.append(Problem(row.file, row.line, "branch", "empty branch name"))
            ok = False
        try:
            seq = int(row["seq"])
        except ValueError:
            problems.append(Problem(row.file, row.line, "seq", f"not a whole number: {row['seq']!r}"))
            continue
        if ok:
            stops.setdefault((row["line"], row["branch"]), []).append((seq, row))
    branches: dict[tuple[str, str], list[str]] = {}
    for key, items in stops.items():
        items.sort(key=lambda item: item[0])
        for (s1, r1), (s2, r2) in zip(items, items[1:]):
            if s1 == s2:
                problems.append(Problem(r2.file, r2.line, "seq", f"seq {s2} repeated on {key[0]}/{key[1]} (line {r1.line})"))
            elif r1["station"] == r2["station"]:
                problems.append(Problem(r2.file, r2.line, "station", f"{r2['station']!r} repeats the previous stop on {key[0]}/{key[1]}"))
        if len(items) < 2:
            r = items[0][1]
            problems.append(Problem(r.file, r.line, "branch", f"branch {key[0]}/{key[1]} has a single stop"))
        branches[key] = [r["station"] for _, r in items]
    served = {line for line, _ in branches}
    for ident, row in lines.items():
        if ident not in served:
            problems.append(Problem(row.file, row.line, "id", f"line {ident!r} has no route"))
    on_route = {s for seq in branches.values() for s in seq}
    for ident, row in stations.items():
        if ident not in on_route:
            problems.append(Problem(row.file, row.line, "id", f"station {ident!r} is on no route"))
    return branches


@dataclass(frozen=True)
class RawDataset:
    """Validated records, ready for :class:`tubedeck.network.Network`."""

    directory: Path
    stations: dict[str, Row]
    lines: dict[str, Row]
    branches: dict[tuple[str, str], list[str]]


def read_dataset(directory: Path | str) -> RawDataset:
    """Read and validate a dataset directory; raise DataError listing every problem."""
    from .content import bundled_cities, dataset_dir

    directory = dataset_dir(directory)
    if not directory.is_dir():
        raise DataError([Problem(str(directory), None, None, "dataset directory not found (a folder, or a "
                                 f"bundled city: {', '.join(bundled_cities())})")])
    problems: list[Problem] = []
    station_rows = read_csv(directory / "stations.csv", STATION_COLUMNS, problems)
    line_rows = read_csv(directory / "lines.csv", LINE_COLUMNS, problems)
    route_rows = read_csv(directory / "routes.csv", ROUTE_COLUMNS, problems)
    stations = check_stations(station_rows, problems)
    lines = check_lines(line_rows, problems)
    if unreadable(problems):  # routes name stations and lines: a file not read would bury itself
        raise DataError(problems)
    branches = check_routes(route_rows, stations, lines, problems) if station_rows and line_rows else {}
    if problems:
        raise DataError(problems)
    return RawDataset(directory, stations, lines, branches)
