"""New Next Station maps generated from the real network (``--map SEED``).

1. **Stations by geography.** The Tube stations of the chosen zones are projected (longitude
   scaled by cos latitude) onto the 10 x 10 grid. Each district gets as many cells as the
   classic's same district (4/6/4, 6/9/6, 4/6/4 and the four corners), picked at random
   (seeded); a min-cost assignment (OR-tools min cost flow) then puts one station on each cell,
   minimising the squared distance between a station's projected place and its cell, so
   relative positions are kept and the stations chosen are those nearest the cells. Where that
   leaves a north-bank station below a south-bank one in a column, the column's stations are
   reordered (:func:`_banked`), so that the river can keep every station on its real bank.
2. **Symbols** 13 of each, cycled district by district and shuffled inside each district, so
   every district holds a near-even mix as in the classic; the ? station is the central
   district's station nearest the centre. **Districts**: the grid's 3 x 3 cut plus the corners
   (the classic's district boxes).
3. **The Thames** from the real river (``data/nextstation/thames.csv``: the centreline at the
   bridges): a station is on the south bank when it lies south of the river at its longitude;
   the drawn river (:func:`river_path`) runs in steps between the rows so as to keep every
   station on its real bank (Southwark south, always), and a section is a Thames section when
   its drawn line crosses the drawn river (what a player sees; once or more: a long section may
   cross a bend twice). **Sections** join each station to the nearest one along each of the 8
   directions, but none longer than the classic's longest (5 cells) and none that runs through
   a district box holding neither of its stations (the sheet would show a line crossing a
   district the engine does not count; the classic has none).
4. **Tourist sites**: the ? station plus four listed stations (grade I and II* first), spread out
   (at least 3 cells apart when possible); **departures** at the stations nearest the classic's
   four departure cells.
5. **Acceptance**: a candidate must meet the classic's structural figures within tolerances
   (:data:`TOLERANCE`; every departure with 3 sections or more, no station with fewer than 2)
   and its **par** (the median over flip seeds ``0..PAR_SEEDS - 1`` of the
   proven best first round, :mod:`.best`) must lie within ``PAR_TOLERANCE`` of the classic's par
   over the same flips; otherwise the next candidate is tried. ``tries`` says how many, and
   ``rejected`` why the earlier ones were refused (the map sheet prints both).
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from tubedeck.content import city_name, game_dir, is_whole_text, read_csv
from tubedeck.errors import DataError, NotApplicable, Problem, UsageError

from .best import best_round
from .board import Board, Section, Station, derive_crossings, segments_cross
from .flips import shuffled, turns
from .rules import QUESTION_MARK, RuleBook

# Generated maps change when their making does (a river that bends otherwise): results files
# about a generated map carry this, so a check never resumes from another map under the same seed.
MAPS_VERSION = 4  # 2: the river bends to keep the banks; 3: a section crossing it anyhow is a Thames one;
# 4: every station on its real bank, no section through a district it does not reach or longer than 5 cells
TOLERANCE = {"sections": (0.85, 1.15), "thames": (0.5, 1.6), "crossings": (0.6, 1.4)}
PAR_SEEDS = 9  # flip seeds whose best first round sets a map's par (about 0.3 s a map)
PAR_TOLERANCE = 0.15  # a generated map's par is within 15% of the classic's
MAX_TRIES = 40
GRADES = {"I": 0, "II*": 1, "II": 2}


@dataclass(frozen=True)
class Generated:
    board: Board
    names: dict  # station id -> name as the dataset writes it
    seed: int
    tries: int  # candidates tried before one was accepted (1 = the first)
    figures: dict
    river: tuple[float, ...] = ()  # per column, the row (between stations) where the Thames runs
    rejected: tuple[str, ...] = ()  # why each earlier candidate was refused

    @property
    def name(self) -> str:
        """The map as its sheet and the challenge page name it: ``map 1 (London, zones 1-2)``."""
        return f"map {self.seed} ({self.board.title})"


def parse_zones(text: str) -> tuple[int, int]:
    lo, _, hi = str(text).partition("-")
    if not is_whole_text(lo.strip(), 2) or (hi and not is_whole_text(hi.strip(), 2)):
        raise UsageError(f"--zones must be like 1-2, got {text!r}")
    a, b = int(lo), int(hi or lo)
    if not 1 <= a <= b <= 9:
        raise UsageError(f"--zones must be within 1-9 and low-high, got {text!r}")
    return a, b


def thames(path: Path | None = None) -> list[tuple[float, float]]:
    """A river's centreline, (lon, lat) points in WGS84 sorted west to east: London's Thames
    (``data/nextstation/thames.csv``) or the ``--river`` file (the same columns, ``lon`` and
    ``lat``; others, such as ``place``, are notes). Every problem is located (file, line, column)."""
    problems: list = []
    rows = read_csv(path or game_dir("nextstation") / "thames.csv", ("lon", "lat"), problems)
    points = []
    for r in rows:
        for column, limit in (("lon", 180.0), ("lat", 90.0)):
            try:
                value = float(r[column])
            except ValueError:
                problems.append(r.problem(column, f"must be a number (WGS84 degrees), got {r[column][:40]!r}"))
                continue
            if not (math.isfinite(value) and -limit <= value <= limit):
                problems.append(r.problem(column, f"must be within -{limit:g} and {limit:g} degrees, "
                                                  f"got {r[column][:40]!r}"))
        if not problems:
            points.append((float(r["lon"]), float(r["lat"])))
    if not problems and len({lon for lon, _ in points}) < 2:
        name = (path or Path("thames.csv")).name
        problems.append(Problem(name, None, "lon", f"a river needs two points or more at different longitudes, "
                                                   f"got {len(points)}"))
    if problems:
        raise DataError(problems)
    return sorted(points)


def _river_crosses(river: list[tuple[float, float]], pool) -> bool:
    """Does the river run through the stations' extent (London's Thames through London's zones)?"""
    lons = [s.lon for s in pool]
    lats = [s.lat for s in pool]
    inside = [(x, y) for x, y in river if min(lons) <= x <= max(lons)]
    return bool(inside) and any(min(lats) <= y <= max(lats) for _, y in inside)


def south_of_river(river: list[tuple[float, float]], lon: float, lat: float) -> bool:
    if lon <= river[0][0]:
        return lat < river[0][1]
    for (x0, y0), (x1, y1) in zip(river, river[1:]):
        if x0 <= lon <= x1:
            return lat < y0 + (y1 - y0) * (lon - x0) / (x1 - x0 or 1)
    return lat < river[-1][1]


def _project(stations) -> dict[str, tuple[float, float]]:
    """(row, col) in grid units, 0-9, north up; the 2nd-98th percentiles span the grid."""
    lat0 = sum(s.lat for s in stations) / len(stations)
    xs = sorted(s.lon * math.cos(math.radians(lat0)) for s in stations)
    ys = sorted(s.lat for s in stations)
    lo_x, hi_x = xs[len(xs) // 50], xs[-1 - len(xs) // 50]
    lo_y, hi_y = ys[len(ys) // 50], ys[-1 - len(ys) // 50]
    out = {}
    for s in stations:
        x = (s.lon * math.cos(math.radians(lat0)) - lo_x) / (hi_x - lo_x) * 9
        y = (hi_y - s.lat) / (hi_y - lo_y) * 9
        out[s.id] = (min(9.0, max(0.0, y)), min(9.0, max(0.0, x)))
    return out


def _cells(classic: Board, rng: random.Random) -> dict[tuple[int, int], str]:
    """Cells per district as many as the classic's, drawn at random inside each district."""
    want = Counter(s.district for s in classic.stations)
    corners = {(d.rows[0], d.cols[0]) for d in classic.districts if d.kind == "corner"}
    out: dict[tuple[int, int], str] = {}
    for d in classic.districts:
        box = [(r, c) for r in range(d.rows[0], d.rows[1] + 1) for c in range(d.cols[0], d.cols[1] + 1)
               if d.kind == "corner" or (r, c) not in corners]
        for cell in rng.sample(box, want[d.id]):
            out[cell] = d.id
    return out


def _assign(cells: list[tuple[int, int]], pos: dict[str, tuple[float, float]]) -> dict[tuple[int, int], str]:
    from ortools.graph.python import min_cost_flow

    ids = sorted(pos)
    flow = min_cost_flow.SimpleMinCostFlow()
    src, sink = 0, 1 + len(cells) + len(ids)
    for i, cell in enumerate(cells):
        flow.add_arc_with_capacity_and_unit_cost(src, 1 + i, 1, 0)
        near = sorted(range(len(ids)), key=lambda j: (pos[ids[j]][0] - cell[0]) ** 2 + (pos[ids[j]][1] - cell[1]) ** 2)
        for j in near[:40]:
            d2 = (pos[ids[j]][0] - cell[0]) ** 2 + (pos[ids[j]][1] - cell[1]) ** 2
            flow.add_arc_with_capacity_and_unit_cost(1 + i, 1 + len(cells) + j, 1, int(d2 * 1000))
    for j in range(len(ids)):
        flow.add_arc_with_capacity_and_unit_cost(1 + len(cells) + j, sink, 1, 0)
    flow.set_node_supply(src, len(cells))
    flow.set_node_supply(sink, -len(cells))
    if flow.solve() != flow.OPTIMAL:
        raise UsageError(f"cannot place {len(cells)} stations: the zones hold too few stations")
    out = {}
    for a in range(flow.num_arcs()):
        t, h = flow.tail(a), flow.head(a)
        if flow.flow(a) and 1 <= t <= len(cells) and h > len(cells):
            out[cells[t - 1]] = ids[h - 1 - len(cells)]
    return out


# Where things sit on the sheet, in cells from the grid's top left (the map sheet draws them so):
STATION_AT = 0.3  # a station's point (its symbol's centre) below its cell's top, at the cell's middle
RIVER_UP = 0.05  # the river runs this far above the boundary between two rows: clear of the symbols
WRONG_BANK = 1000.0  # the river's price for a station on the other bank: more than any bend


def river_path(splits: tuple[float, ...]) -> list[tuple[float, float]]:
    """The drawn Thames, (x, y) in cells: along the gap between two rows in each column (split
    ``r + 0.5``: between rows r and r + 1), from row to row only on the line between two columns,
    so it never runs over a symbol."""
    points: list[tuple[float, float]] = []
    for c, t in enumerate(splits):
        y = t + 0.5 - RIVER_UP
        points += [(c, y), (c + 1, y)]
    return points


def crosses_river(a: Station, b: Station, path: list[tuple[float, float]]) -> bool:
    """Whether the section a-b, drawn between the two stations' points, crosses the drawn river.
    (Never just touches it: sections run along the 8 directions between points at x.5, y.3, the
    river along whole x and y.95.)"""
    p, q = (a.col + 0.5, a.row + STATION_AT), (b.col + 0.5, b.row + STATION_AT)
    return any(segments_cross(p, q, u, v) for u, v in zip(path, path[1:]))


def _sections(stations: dict[str, Station], path: list[tuple[float, float]], classic: Board) -> tuple[Section, ...]:
    """The potential sections: each station to the nearest one along each of the 8 directions,
    except a section longer than the classic's longest (5 cells) or one that runs through a
    district box holding neither of its stations (:meth:`~.board.Board.strays`: the player would
    see the line cross a district it does not reach; the classic has none)."""
    cells = {(s.row, s.col): k for k, s in stations.items()}
    pairs = []
    for s in stations.values():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            r, c = s.row + dr, s.col + dc
            while 0 <= r < classic.rows and 0 <= c < classic.cols and (r, c) not in cells:
                r, c = r + dr, c + dc
            if (r, c) in cells:
                a, b = sorted((s.id, cells[r, c]))
                pairs.append((a, b))
    every = tuple(Section(i, a, b, False) for i, (a, b) in enumerate(sorted(pairs)))
    grid = Board("", classic.rows, classic.cols, tuple(stations.values()), every, classic.districts, frozenset())
    longest = max(classic.span(sec) for sec in classic.sections)
    kept = [sec for sec in every if grid.span(sec) <= longest and not grid.strays(sec)]
    return tuple(Section(i, sec.a, sec.b, crosses_river(stations[sec.a], stations[sec.b], path))
                 for i, sec in enumerate(kept))


def _banked(placed: dict[tuple[int, int], str], south: dict[str, bool]) -> dict[tuple[int, int], str]:
    """The stations of each column reordered, where they must be, so that every north-bank
    station lies above every south-bank one (a stable partition of the column's cells, top down:
    the north ones first, each bank in its own order). Then a river between the rows of each
    column keeps every station on its real bank. The assignment keeps relative places only
    roughly, so near the river a north-bank station may land below a south-bank one."""
    out = dict(placed)
    for col in {c for _, c in placed}:
        mine = sorted(cell for cell in placed if cell[1] == col)
        ids = [placed[cell] for cell in mine]
        ordered = [k for k in ids if not south[k]] + [k for k in ids if south[k]]
        out.update(zip(mine, ordered))
    return out


def candidate(network, book: RuleBook, classic: Board, rng: random.Random, zones: tuple[int, int],
              river: list[tuple[float, float]], city: str = "London") -> Generated:
    pool = [s for s in network.stations.values() if set(s.zones) & set(range(zones[0], zones[1] + 1))]
    if len(pool) < len(classic.stations):
        raise NotApplicable(f"zones {zones[0]}-{zones[1]} of {network.source} hold {len(pool)} stations; a generated "
                            f"map needs {len(classic.stations)} (try wider --zones)")
    pos = _project(pool)
    cells = _cells(classic, rng)
    by = {s.id: s for s in pool}
    real = {s.id: bool(river) and south_of_river(river, s.lon, s.lat) for s in pool}
    placed = _banked(_assign(sorted(cells), pos), real)
    centre = min((c for c in placed if cells[c] == "central"), key=lambda c: (c[0] - 4.5) ** 2 + (c[1] - 4.5) ** 2)
    symbols: dict[tuple[int, int], str] = {centre: QUESTION_MARK}
    order = list(book.rules.symbols)
    rng.shuffle(order)
    k = 0
    for d in classic.districts:
        mine = sorted(c for c in placed if cells[c] == d.id and c != centre)
        syms = [order[(k + i) % len(order)] for i in range(len(mine))]
        k += len(mine)
        rng.shuffle(syms)
        symbols.update(zip(mine, syms))
    departures: dict[tuple[int, int], str] = {}
    for pencil in book.rules.pencils:
        target = classic.departure(pencil)
        free = [c for c in placed if c != centre and c not in departures]
        departures[min(free, key=lambda c: ((c[0] - target.row) ** 2 + (c[1] - target.col) ** 2, c))] = pencil
    listed = sorted((c for c in placed if c != centre),
                    key=lambda c: (GRADES.get(by[placed[c]].listed or "", 3), rng.random()))
    tourist = [centre]
    for gap in (3, 2, 0):
        for c in listed:
            if len(tourist) < 5 and c not in tourist and all(max(abs(c[0] - t[0]), abs(c[1] - t[1])) >= gap
                                                              for t in tourist):
                tourist.append(c)
    stations = {placed[c]: Station(placed[c], c[0], c[1], symbols[c], cells[c], c in tourist,
                                   departures.get(c, ""), by[placed[c]].name) for c in sorted(placed)}
    splits = _splits(stations, real, classic.cols) if river else ()  # no river: no Thames sections
    sections = _sections(stations, river_path(splits), classic)
    board = Board(f"{city}, zones {zones[0]}-{zones[1]}", classic.rows, classic.cols, tuple(stations.values()),
                  sections, classic.districts, derive_crossings(stations, sections))
    return Generated(board, {k: by[k].name for k in stations}, 0, 0, figures(board), splits)


def _splits(stations: dict[str, Station], south: dict[str, bool], cols: int, bend: float = 0.4) -> tuple[float, ...]:
    """The drawn Thames: per column the row split (x.5) between the banks, chosen by dynamic
    programming to put every station on its real bank (:data:`WRONG_BANK` per station on the
    other: a price no bend outweighs; :func:`_banked` has ordered each column so that a split
    exists) while bending little (``bend`` per row of change between neighbouring columns).
    Sections are then scored by the river drawn along these splits (:func:`crosses_river`), so
    the sheet agrees with itself. (Bends priced against banks at 0.4 a row left 12 stations of
    2,650 on the wrong bank over maps 0-49, Southwark north on 7 of them.)"""
    options = [r + 0.5 for r in range(-1, 10)]

    def wrong(c: int, t: float) -> float:
        return WRONG_BANK * sum((s.row > t) != south[k] for k, s in stations.items() if s.col == c)

    cost = {t: float(wrong(0, t)) for t in options}
    back: list[dict[float, float]] = []
    for c in range(1, cols):
        step, new = {}, {}
        for t in options:
            prev = min(options, key=lambda p: (cost[p] + bend * abs(p - t), abs(p - 4.5)))
            step[t], new[t] = prev, cost[prev] + bend * abs(prev - t) + wrong(c, t)
        back.append(step)
        cost = new
    t = min(options, key=lambda o: (cost[o], abs(o - 4.5)))
    out = [t]
    for step in reversed(back):
        t = step[t]
        out.append(t)
    return tuple(reversed(out))


def figures(board: Board) -> dict:
    deg = {s.id: len(board.incident[s.id]) for s in board.stations}
    return {"stations": len(board.stations), "sections": len(board.sections),
            "thames": sum(s.thames for s in board.sections), "crossings": len(board.crossings),
            "symbols": dict(sorted(Counter(s.symbol for s in board.stations).items())),
            "departure_sections": min(deg[s.id] for s in board.stations if s.departure),
            "station_sections": min(deg.values())}


def accept(fig: dict, classic: dict, river: bool = True) -> str | None:
    """Why a candidate falls outside the classic's figures (None: accepted); without a river (another
    city's map) its Thames sections are not measured: there are none."""
    for key, (lo, hi) in TOLERANCE.items():
        if key == "thames" and not river:
            continue
        if not lo * classic[key] <= fig[key] <= hi * classic[key]:
            return f"{key} {fig[key]} outside {lo:g}-{hi:g} x the classic's {classic[key]}"
    if fig["symbols"] != classic["symbols"]:
        return f"symbols {fig['symbols']} differ from the classic's {classic['symbols']}"
    if fig["departure_sections"] < 3:
        return "a departure station has fewer than 3 sections to start a line"
    if fig["station_sections"] < 2:  # (sections dropped as too long or straying leave one now and then)
        return "a station has a single section: a dead end (the classic's fewest is 3)"
    if "par" in fig and abs(fig["par"] - classic["par"]) > PAR_TOLERANCE * classic["par"]:
        return f"par {fig['par']:g} outside the classic's {classic['par']:g} +/- {PAR_TOLERANCE:.0%}"
    return None


def par(board: Board, book: RuleBook) -> float:
    """The median over flip seeds 0..PAR_SEEDS - 1 of the best first round (the seeded solo
    deal's flips and pencil), each proven by the exact search of :mod:`.best`."""
    scores = []
    for seed in range(PAR_SEEDS):
        pencils, flips = shuffled(book, seed)
        result = best_round(board, book, turns(book, flips[0]), board.departure(pencils[0]).id, time_limit=30.0)
        assert result.score is not None  # the exact search always has a line (the departure alone at worst)
        scores.append(result.score)
    return statistics.median(scores)


_CLASSIC_PAR: dict[Board, float] = {}  # the classic's par, once per process


def generate(network, book: RuleBook, classic: Board, seed: int, zones: str = "1-2",
             river_file: Path | str | None = None) -> Generated:
    """The first accepted candidate for ``seed`` (UsageError after :data:`MAX_TRIES`). The river
    is London's Thames where it runs through the zones' stations, else none; ``river_file``
    (``--river``) gives another (New York's East River), which must run through them."""
    if not 0 <= seed < 2**31:
        raise UsageError(f"--map SEED must be 0-{2**31 - 1}, got {seed}")
    z = parse_zones(zones)
    river = thames(Path(river_file)) if river_file is not None else thames()
    pool = [s for s in network.stations.values() if set(s.zones) & set(range(z[0], z[1] + 1))]
    if pool and not _river_crosses(river, pool):  # another city: London's Thames is not in it
        if river_file is not None:
            raise UsageError(f"--river {river_file}: the river (longitude {river[0][0]:g} to {river[-1][0]:g}) does "
                             f"not run through the stations of zones {zones} of {city_name(network.source)} "
                             f"(longitude {min(s.lon for s in pool):g} to {max(s.lon for s in pool):g}, latitude "
                             f"{min(s.lat for s in pool):g} to {max(s.lat for s in pool):g})")
        river = []
    london = Path(network.source).resolve() == game_dir("nextstation").parent.resolve()
    city = "London" if river and river_file is None else city_name(network.source, "London" if london else "the city")
    # without a river, the classic's par is measured the same way: its Thames sections scoring nothing
    measured = classic if river else replace(classic, sections=tuple(replace(s, thames=False)
                                                                     for s in classic.sections))
    if measured not in _CLASSIC_PAR:
        _CLASSIC_PAR[measured] = par(measured, book)
    want = figures(classic) | {"par": _CLASSIC_PAR[measured]}
    rejected: list[str] = []
    for k in range(MAX_TRIES):
        g = candidate(network, book, classic, random.Random(f"nextstation-map-{seed}-{z}-{k}"), z, river, city)
        why = accept(g.figures, want, bool(river))  # the structure first: par costs a search
        fig = g.figures
        if why is None:
            fig = g.figures | {"par": par(g.board, book)}
            why = accept(fig, want, bool(river))
        if why is None:
            return Generated(g.board, g.names, seed, k + 1, fig | {"classic_par": want["par"]}, g.river,
                             tuple(rejected))
        rejected.append(why)
    raise UsageError(f"no map for seed {seed} in zones {zones} met the classic's figures in {MAX_TRIES} tries "
                     f"(last: {rejected[-1]})")
