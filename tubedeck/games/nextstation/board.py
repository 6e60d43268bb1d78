"""A Next Station map: stations on a grid, the potential sections between them, districts, the
Thames, and the section crossings (derived from coordinates, never typed).

A map is four files in one folder, named with a common prefix (``classic-`` for the bundled
classic map in ``data/nextstation/``, none in a map folder of your own): ``map.toml`` (title,
grid size), ``stations.csv`` (id, row, col, symbol, district, tourist, departure),
``sections.csv`` (from, to, thames) and ``districts.csv`` (id, kind, rows, cols). (The files sit
beside the rules rather than in a subfolder so that the wheel ships them: only ``data/<game>/``
folders are packaged.) Validation reports every problem with file, line and column: a station off
the grid or on another's cell, an unknown symbol, district or pencil, a station outside its
district's box, a section that is not straight along one of the 8 directions or that passes over
a station (skips it), a repeated section, a district without stations, a pencil without exactly
one departure station; and the published map's shape (``[rules]`` of ``rules.toml``): 9 main and
4 corner districts whose boxes keep apart, one ? station, symbols balanced. A wrong row is
reported once: sections and stations naming a row that is wrong are not reported again, and the
whole map's checks (districts, ?, symbols, departures) wait for a clean read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from tubedeck.content import is_whole_text, read_csv, read_toml, unreadable
from tubedeck.errors import DataError, Problem

from .rules import QUESTION_MARK, Rules


@dataclass(frozen=True)
class Station:
    id: str
    row: int
    col: int
    symbol: str  # a rules symbol, or "question-mark" (the central station: every card reaches it)
    district: str
    tourist: bool
    departure: str  # the pencil colour departing here, or ""
    name: str = ""  # a generated map's real station name (printed small under the symbol)


@dataclass(frozen=True)
class Section:
    """A potential section (a dotted line on the map) between two stations, ``a`` < ``b``."""

    index: int
    a: str
    b: str
    thames: bool

    def other(self, station: str) -> str:
        return self.b if station == self.a else self.a


@dataclass(frozen=True)
class District:
    id: str
    kind: str  # "main" or "corner" (the rulebook's secondary districts)
    rows: tuple[int, int]
    cols: tuple[int, int]

    def holds(self, row: int, col: int) -> bool:
        return self.rows[0] <= row <= self.rows[1] and self.cols[0] <= col <= self.cols[1]


@dataclass(frozen=True)
class Board:
    title: str
    rows: int
    cols: int
    stations: tuple[Station, ...]
    sections: tuple[Section, ...]
    districts: tuple[District, ...]
    crossings: frozenset[tuple[int, int]]  # (i, j), i < j: sections that cross away from a station

    @cached_property
    def by_id(self) -> dict[str, Station]:
        return {s.id: s for s in self.stations}

    @cached_property
    def incident(self) -> dict[str, tuple[Section, ...]]:
        out: dict[str, list[Section]] = {s.id: [] for s in self.stations}
        for sec in self.sections:
            out[sec.a].append(sec)
            out[sec.b].append(sec)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def section_between(self) -> dict[frozenset, Section]:
        return {frozenset((s.a, s.b)): s for s in self.sections}

    @cached_property
    def crossing(self) -> tuple[frozenset[int], ...]:
        """For each section index, the sections it crosses."""
        out: list[set[int]] = [set() for _ in self.sections]
        for i, j in self.crossings:
            out[i].add(j)
            out[j].add(i)
        return tuple(frozenset(s) for s in out)

    # The tables below are the fields above in the shapes the rules engine's hot loops read (a
    # search bot's rollouts apply and value sections millions of times): plain dicts and tuples,
    # so a lookup costs no attribute access on a Station or Section.
    @cached_property
    def links(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Per station, (the other station, section index) of its sections, in :attr:`incident`'s order."""
        return {u: tuple((sec.other(u), sec.index) for sec in secs) for u, secs in self.incident.items()}

    @cached_property
    def ends(self) -> tuple[tuple[str, str], ...]:
        """Per position in :attr:`sections`, its two stations (a, b)."""
        return tuple((sec.a, sec.b) for sec in self.sections)

    @cached_property
    def pair_section(self) -> dict[tuple[str, str], Section]:
        """:attr:`section_between` keyed by the ordered pair, both orders (no frozenset to build)."""
        out: dict[tuple[str, str], Section] = {}
        for pair, sec in self.section_between.items():
            a, b = sorted(pair)
            out[a, b] = out[b, a] = sec
        return out

    @cached_property
    def symbol_of(self) -> dict[str, str]:
        return {s.id: s.symbol for s in self.stations}

    @cached_property
    def district_of(self) -> dict[str, str]:
        return {s.id: s.district for s in self.stations}

    @cached_property
    def tourist_of(self) -> dict[str, bool]:
        return {s.id: s.tourist for s in self.stations}

    @cached_property
    def thames_of(self) -> tuple[bool, ...]:
        """Per position in :attr:`sections`, whether it crosses the Thames."""
        return tuple(sec.thames for sec in self.sections)

    def coordinate(self, station: str) -> str:
        """The grid label every printed sheet uses: the row's letter (A from the top), the column's
        number (1 from the left): ``D8``."""
        st = self.by_id[station]
        return f"{row_label(st.row)}{st.col + 1}"

    def place(self, station: str) -> str:
        """The coordinate, and a generated map's real name: ``D8 Oval`` (the classic: ``D8``)."""
        name = self.by_id[station].name
        return f"{self.coordinate(station)} {name}" if name else self.coordinate(station)

    def span(self, section: Section) -> int:
        """How many cells the section runs, along its direction (1: neighbouring cells)."""
        a, b = self.by_id[section.a], self.by_id[section.b]
        return max(abs(b.row - a.row), abs(b.col - a.col))

    def cells_between(self, section: Section) -> tuple[tuple[int, int], ...]:
        """The cells the section runs through between its two stations, (row, col): all empty,
        since a section joins the nearest stations. The engine's geometry: a station is the point
        of its cell, so a straight or diagonal section runs through exactly these cells (a
        diagonal only touches the corners of the cells beside it)."""
        a, b = self.by_id[section.a], self.by_id[section.b]
        n = self.span(section)
        dr, dc = (b.row - a.row) // n, (b.col - a.col) // n
        return tuple((a.row + k * dr, a.col + k * dc) for k in range(1, n))

    def strays(self, section: Section) -> frozenset[str]:
        """The districts whose box the section runs through though neither of its stations is in
        them: a player who sees the line cross such a box could count a district the engine does
        not (none on the classic map; generated maps draw no such section)."""
        ends = {self.by_id[section.a].district, self.by_id[section.b].district}
        return frozenset(d.id for cell in self.cells_between(section) for d in self.districts
                         if d.holds(*cell) and d.id not in ends)

    def departure(self, pencil: str) -> Station:
        found = self.departures.get(pencil)
        return found if found is not None else next(s for s in self.stations if s.departure == pencil)

    @cached_property
    def departures(self) -> dict[str, Station]:
        """Per pencil, the first station it departs from (what :meth:`departure` finds)."""
        out: dict[str, Station] = {}
        for s in self.stations:
            out.setdefault(s.departure, s)
        return out

    def matches(self, station: str, symbol: str | None) -> bool:
        """Whether a card showing ``symbol`` (None = a Joker) lets a section reach ``station``."""
        sym = self.by_id[station].symbol
        return symbol is None or sym == QUESTION_MARK or sym == symbol


def row_label(row: int) -> str:
    """A, B, ... from the top (R27 ... beyond Z on a big grid)."""
    return chr(ord("A") + row) if row < 26 else f"R{row + 1}"


def segments_cross(p, q, r, s) -> bool:
    """Segments pq and rs cross at a point interior to both (orientation test; exact on the grid's
    integers, and on a generated map's river, which never meets a section's end or runs along it)."""
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)
    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def derive_crossings(stations: dict[str, Station], sections: tuple[Section, ...]) -> frozenset[tuple[int, int]]:
    pos = {k: (s.row, s.col) for k, s in stations.items()}
    out = set()
    for i, x in enumerate(sections):
        for y in sections[i + 1:]:
            if {x.a, x.b} & {y.a, y.b}:
                continue
            if segments_cross(pos[x.a], pos[x.b], pos[y.a], pos[y.b]):
                out.add((x.index, y.index))
    return frozenset(out)


def _band(text: str) -> tuple[int, int] | None:
    lo, _, hi = text.partition("-")
    if not is_whole_text(lo) or (hi and not is_whole_text(hi)):
        return None
    return int(lo), int(hi or lo)


def load_board(folder: Path, rules: Rules, prefix: str = "") -> Board:
    """Read and validate one map folder (DataError listing every problem)."""
    problems: list[Problem] = []
    raw = read_toml(folder / f"{prefix}map.toml").get("map", {})
    where = str(folder / f"{prefix}map.toml")
    if not isinstance(raw, dict):  # map = 3: a value where the [map] table belongs
        text = (folder / f"{prefix}map.toml").read_text(encoding="utf-8")
        line = next((n for n, t in enumerate(text.splitlines(), 1) if t.strip().startswith("map")), None)
        raise DataError([Problem(where, line, "map", "must be the [map] table (title, rows, cols)")])
    table: Any = raw  # the values are checked below
    title, rows, cols = table.get("title"), table.get("rows"), table.get("cols")
    if not isinstance(title, str) or not title:
        problems.append(Problem(where, None, "map.title", "missing or not a string"))
    if not all(isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 40 for v in (rows, cols)):
        raise DataError(problems + [Problem(where, None, "map.rows", "rows and cols must be whole numbers 2-40")])
    before = len(problems)
    districts, listed = _districts(folder / f"{prefix}districts.csv", rows, cols, problems)
    if unreadable(problems):  # a file that cannot be read is the one problem: stations depend on it
        raise DataError(problems)
    stations, named = _stations(folder / f"{prefix}stations.csv", rows, cols, rules, districts, listed, problems)
    if unreadable(problems):  # (every section names stations)
        raise DataError(problems)
    clean = len(problems) == before
    sections = _sections(folder / f"{prefix}sections.csv", stations, named, problems)
    if clean:  # the whole map's checks, on a clean read only: a bad row is reported once, by itself
        used = {s.district for s in stations.values()}
        for d in districts.values():
            if d.id not in used:
                problems.append(Problem(f"{prefix}districts.csv", None, "id", f"district {d.id!r} has no station"))
        _structure(prefix, rules, districts, stations, problems)
        for pencil in rules.pencils:
            n = sum(s.departure == pencil for s in stations.values())
            if n != 1:
                problems.append(Problem(f"{prefix}stations.csv", None, "departure",
                                        f"pencil {pencil!r} has {n} departure stations, needs 1"))
    if problems:
        raise DataError(problems)
    return Board(title, rows, cols, tuple(stations.values()), sections, tuple(districts.values()),
                 derive_crossings(stations, sections))


def _structure(prefix: str, rules: Rules, districts: dict[str, District], stations: dict[str, Station],
               problems: list[Problem]) -> None:
    """The published map's shape (``[rules]``): so many main and corner districts, their boxes
    apart; one ? station; every symbol on about as many stations as the others. Run on a clean
    read only (every row valid, so neither districts nor stations are empty)."""
    for kind, want in (("main", rules.main_districts), ("corner", rules.corner_districts)):
        boxes = [d for d in districts.values() if d.kind == kind]
        if len(boxes) != want:
            problems.append(Problem(f"{prefix}districts.csv", None, "kind", f"{len(boxes)} {kind} districts, "
                                                                            f"the rules need {want}"))
        for k, a in enumerate(boxes):
            for b in boxes[k + 1:]:
                if a.rows[0] <= b.rows[1] and b.rows[0] <= a.rows[1] and a.cols[0] <= b.cols[1] and b.cols[0] <= a.cols[1]:
                    problems.append(Problem(f"{prefix}districts.csv", None, "rows",
                                            f"the boxes of {kind} districts {a.id!r} and {b.id!r} overlap"))
    marks = sum(s.symbol == QUESTION_MARK for s in stations.values())
    if marks != rules.question_marks:
        problems.append(Problem(f"{prefix}stations.csv", None, "symbol",
                                f"{marks} stations with the ? symbol, the rules need {rules.question_marks}"))
    count = {sym: sum(s.symbol == sym for s in stations.values()) for sym in rules.symbols}
    if max(count.values()) - min(count.values()) > rules.symbol_spread:
        problems.append(Problem(f"{prefix}stations.csv", None, "symbol",
                                "symbols unbalanced: " + ", ".join(f"{n} {sym}" for sym, n in count.items())
                                + f" (they may differ by {rules.symbol_spread} at most)"))


def _districts(path: Path, rows: int, cols: int, problems: list[Problem]) -> tuple[dict[str, District], set[str]]:
    """The valid districts, and every id the file names (a station naming a district whose own
    row is wrong is not reported again)."""
    out: dict[str, District] = {}
    listed: set[str] = set()
    before = len(problems)
    for r in read_csv(path, ("id", "kind", "rows", "cols"), problems):
        listed.add(r["id"])
        rb, cb = _band(r["rows"]), _band(r["cols"])
        if r["kind"] not in ("main", "corner"):
            problems.append(r.problem("kind", f"must be main or corner, got {r['kind']!r}"))
        elif r["id"] in out or not r["id"]:
            problems.append(r.problem("id", f"blank or repeated district {r['id']!r}"))
        elif rb is None or cb is None or not (0 <= rb[0] <= rb[1] < rows and 0 <= cb[0] <= cb[1] < cols):
            problems.append(r.problem("rows", f"rows/cols must be bands like 0-2 inside the {rows}x{cols} grid"))
        else:
            out[r["id"]] = District(r["id"], r["kind"], rb, cb)
    if not out and len(problems) == before:
        problems.append(Problem(str(path), None, "id", "no districts: every station needs one"))
    return out, listed


def _stations(path: Path, rows, cols, rules: Rules, districts, listed, problems) -> tuple[dict[str, Station], set[str]]:
    """The valid stations, and every id the file names (valid or not)."""
    out: dict[str, Station] = {}
    cells: dict[tuple[int, int], str] = {}
    symbols = rules.symbols + (QUESTION_MARK,)
    read: set[str] = set()  # every id in the file, valid or not: sections naming one are not reported again
    for r in read_csv(path, ("id", "row", "col", "symbol", "district", "tourist", "departure"),
                      problems):
        bad = len(problems)
        if not r["id"] or r["id"] in out:
            problems.append(r.problem("id", f"blank or repeated station {r['id']!r}"))
        for field, size in (("row", rows), ("col", cols)):
            if not is_whole_text(r[field]):
                problems.append(r.problem(field, f"station {r['id']!r}: {field} must be a whole number 0-{size - 1}, "
                                                 f"got {r[field]!r}"))
            elif int(r[field]) >= size:
                problems.append(r.problem(field, f"station {r['id']!r} at ({r['row']}, {r['col']}) is off the "
                                                 f"{rows}x{cols} grid"))
        if r["symbol"] not in symbols:
            problems.append(r.problem("symbol", f"unknown symbol {r['symbol']!r} (known: {', '.join(symbols)})"))
        if districts and r["district"] not in listed:  # (no districts at all: reported once)
            problems.append(r.problem("district", f"unknown district {r['district']!r}"))
        if r["tourist"] not in ("", "yes"):
            problems.append(r.problem("tourist", f"must be yes or blank, got {r['tourist']!r}"))
        if r["departure"] and r["departure"] not in rules.pencils:
            problems.append(r.problem("departure", f"unknown pencil {r['departure']!r} (known: {', '.join(rules.pencils)})"))
        read.add(r["id"])
        if len(problems) > bad or r["district"] not in districts:  # (its district's row is wrong)
            continue
        row, col = int(r["row"]), int(r["col"])
        if (row, col) in cells:
            problems.append(r.problem("row", f"station {r['id']!r} is on the cell of {cells[row, col]!r}"))
            continue
        if not districts[r["district"]].holds(row, col):
            problems.append(r.problem("district", f"({row}, {col}) lies outside district {r['district']!r}"))
            continue
        cells[row, col] = r["id"]
        out[r["id"]] = Station(r["id"], row, col, r["symbol"], r["district"], r["tourist"] == "yes", r["departure"])
    return out, read


def _sections(path: Path, stations: dict[str, Station], named: set[str], problems: list[Problem]) -> tuple[Section, ...]:
    cells = {(s.row, s.col): k for k, s in stations.items()}
    out: list[Section] = []
    seen: set[frozenset] = set()
    for r in read_csv(path, ("from", "to", "thames"), problems):
        a, b = r["from"], r["to"]
        missing = [c for c, v in (("from", a), ("to", b)) if v not in stations]
        for col in missing:
            if r[col] not in named:  # (a station whose own row is wrong is reported there)
                problems.append(r.problem(col, f"unknown station {r[col]!r}"))
        if r["thames"] not in ("", "yes"):
            problems.append(r.problem("thames", f"must be yes or blank, got {r['thames']!r}"))
            continue
        if missing:
            continue
        if a == b or frozenset((a, b)) in seen:
            problems.append(r.problem("to", f"section {a}-{b} joins a station to itself or is repeated"))
            continue
        dr, dc = stations[b].row - stations[a].row, stations[b].col - stations[a].col
        n = max(abs(dr), abs(dc))
        step = ((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))
        if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            problems.append(r.problem("to", f"section {a}-{b} is not along one of the 8 directions"))
            continue
        between = [cells[p] for k in range(1, n)
                   if (p := (stations[a].row + k * step[0], stations[a].col + k * step[1])) in cells]
        if between:
            problems.append(r.problem("to", f"section {a}-{b} skips station {between[0]!r}: a section joins "
                                            "only the nearest stations"))
            continue
        seen.add(frozenset((a, b)))
        a, b = sorted((a, b))
        out.append(Section(len(out), a, b, r["thames"] == "yes"))
    return tuple(out)
