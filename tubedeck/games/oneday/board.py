"""One Day in London: the game's board (its network of stations and runs), derived from the data.

The rules text describes a zone-1 Underground without the Circle line. Nothing here types that
network in: :func:`load_recipe` reads ``data/oneday/recipe.toml`` (zones, excluded lines and
stations, merges, shared track, copy rule, run orientation, each with its reason) and
:func:`derive_map` applies it to the dataset's :class:`~tubedeck.network.Network`.

Vocabulary (used by the validator in :mod:`.journey`, the cards in :mod:`.cards` and the solver):

* a **Run** is a line's part in the recipe's zones (zone 1 for London) as one ordered row of
  stops. The recipe must leave every line a single run (a path); the Northern's Bank and Charing Cross branches meet at Euston and,
  with Kennington left out, make one run from Elephant & Castle "all the way" to Waterloo;
* a **Band** is a line on a card with the numbers ``before`` / ``after``: how many of the game's
  stations stand before / after this one on the line's run, in the run's order. The order is
  the recipe's ``orientation`` where the text fixes it (District from Edgware Road so Sloane
  Square is 8 + 11; Victoria from King's Cross; Piccadilly ending at King's Cross; Northern from
  Elephant & Castle), else from the west end (north end for a line running mainly north-south);
* a **copy**: a station has ``copies`` identical cards, numbered ``1/3, 2/3, 3/3``.

Decisions where the text is silent or contradicts itself (tested in tests/oneday/test_deck.py):

* copies = ``max(1, L - 1)`` where L counts the station's game lines, lines that share track
  (Metropolitan and Hammersmith & City) once. This is "one card per intersection" and gives all
  the stated figures: 62 stations, 72 cards, King's Cross St Pancras 3, Embankment 2, Sloane
  Square 1 (8 before, 11 after on the District). ``one-per-line`` and ``single`` are options;
* Paddington is one station (the dataset splits it), the two Edgware Roads stay two: the only
  combination that gives 62 stations (merging both gives 61, merging neither 63; all give 72).
* a deal places each player's cards in the slots in the order drawn (slot 1 first): the text
  leaves placement to the player, and a fixed rule keeps deals reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from tubedeck.errors import DataError, Problem, UsageError
from tubedeck.names import match_station
from tubedeck.network import Line, Network

from .recipe import Recipe, load_recipe, zone_phrase


@dataclass(frozen=True)
class GameStation:
    """A station of the game: one dataset station, or several merged (``members``)."""

    id: str
    name: str
    lat: float
    lon: float
    members: tuple[str, ...]
    lines: tuple[str, ...]  # game lines, sorted by id
    aliases: tuple[str, ...] = ()  # other names: merged members' ("Aldgate East") and the dataset's aliases


@dataclass(frozen=True)
class Run:
    """A line's stops in the game as one ordered row; index 0 is the first stop."""

    line: str
    stations: tuple[str, ...]

    def index(self, station: str) -> int:
        return self.stations.index(station)

    def before_after(self, station: str) -> tuple[int, int]:
        i = self.index(station)
        return i, len(self.stations) - 1 - i


@dataclass(frozen=True)
class Board:
    """The game's network: stations, lines (with colours) and one run per line."""

    stations: Mapping[str, GameStation]
    lines: Mapping[str, Line]
    runs: Mapping[str, Run]
    shared_track: tuple[frozenset[str], ...]
    recipe: Recipe
    # (name, why) of the dataset's stations the game leaves out, so "Brixton" is told apart from a typo.
    outside: tuple[tuple[str, str], ...] = ()
    # The dataset's own branches of every game line, whole (every zone, dataset station ids), and the
    # names of their stations: what a rider boards in the real network (see :mod:`.journey`'s legs).
    branches: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    data_names: Mapping[str, str] = field(default_factory=dict)

    def lines_at(self, station: str) -> tuple[str, ...]:
        return self.stations[station].lines

    def track_groups_at(self, station: str) -> int:
        """Lines at the station, lines sharing track counted once (the copy rule's L)."""
        groups = set()
        for line in self.lines_at(station):
            group = next((g for g in self.shared_track if line in g), frozenset([line]))
            groups.add(group)
        return len(groups)

    def common_lines(self, a: str, b: str) -> tuple[str, ...]:
        return tuple(sorted(set(self.lines_at(a)) & set(self.lines_at(b))))

    def orientation(self, l1: str, l2: str) -> int:
        """+1 if the runs of two lines on one track put their shared stations in the same order,
        -1 if in opposite orders; 0 if they share no track (or fewer than two stations)."""
        if l1 == l2:
            return 1
        if not any(l1 in g and l2 in g for g in self.shared_track):
            return 0
        r1, r2 = self.runs[l1].stations, self.runs[l2].stations
        common = [s for s in r1 if s in r2]
        if len(common) < 2:
            return 0
        a, b = common[0], common[1]
        return 1 if (r2.index(b) > r2.index(a)) else -1

    def reverses(self, prev: tuple[str, int], nxt: tuple[str, int]) -> bool:
        """Whether riding ``nxt`` (line, direction) right after ``prev`` goes back the way the
        journey came on the same track: the same line the other way, or another line on the same
        track the other way (a change there keeps the direction of travel)."""
        o = self.orientation(prev[0], nxt[0])
        return o != 0 and nxt[1] != prev[1] * o

    def direction(self, line: str, a: str, b: str) -> int:
        """+1 when riding ``line`` from ``a`` to ``b`` follows the run's order, -1 against it."""
        run = self.runs[line]
        return 1 if run.index(b) > run.index(a) else -1

    def towards(self, line: str, direction: int) -> str:
        """The station a ride in ``direction`` heads for: the run's last (or first) stop."""
        run = self.runs[line]
        return run.stations[-1] if direction > 0 else run.stations[0]

    def name(self, station: str) -> str:
        return self.stations[station].name

    def preference(self, line: str) -> tuple[int, str]:
        """Sort key for equally good rides: on a shared track, the recipe's first-listed line wins
        (the text rides "the Metropolitan" from Aldgate to Baker Street, not the H&C)."""
        for group in self.recipe.shared_track:
            if line in group[0]:
                return group[0].index(line), line
        return 0, line


def _problem(recipe: Recipe, message: str, place: str | None = None) -> Problem:
    return Problem(recipe.source or "recipe", None, place, message)


def _unknown_names(net: Network, recipe: Recipe) -> list[Problem]:
    """Lines and stations the recipe names but the dataset lacks, each located by entry."""
    problems = []
    merged = {mid for mid, _, _, _ in recipe.merges}

    def station(s: str, place: str) -> None:
        if s not in net.stations and s not in merged:
            problems.append(_problem(recipe, f"unknown station {s!r}", place))

    for i, (line, _) in enumerate(recipe.exclude_lines, 1):
        if line not in net.lines:
            problems.append(_problem(recipe, f"unknown line {line!r}", f"exclude_lines #{i}"))
    for i, (s, _) in enumerate(recipe.exclude_stations, 1):
        station(s, f"exclude_stations #{i}")
    for i, (_, _, members, _) in enumerate(recipe.merges, 1):
        for s in members:
            station(s, f"merge #{i}")
    for i, (members, _) in enumerate(recipe.keep_apart, 1):
        for s in members:
            station(s, f"keep_apart #{i}")
    for i, (line, s, _) in enumerate(recipe.orientation, 1):
        if line not in net.lines:
            problems.append(_problem(recipe, f"unknown line {line!r}", f"orientation #{i}"))
        station(s, f"orientation #{i}")
    for i, (lines, _) in enumerate(recipe.shared_track, 1):
        problems += [_problem(recipe, f"unknown line {l!r}", f"shared_track #{i}") for l in lines if l not in net.lines]
    return problems


def _orient(net: Network, stations: dict[str, tuple[float, float]], path: list[str]) -> list[str]:
    """West end first, or north end first when the run's ends lie mainly north-south."""
    (lat0, lon0), (lat1, lon1) = stations[path[0]], stations[path[-1]]
    dx_km = abs(lon1 - lon0) * 69.3  # km per degree of longitude at 51.5 N
    dy_km = abs(lat1 - lat0) * 111.2
    if dy_km > dx_km:
        return path if lat0 >= lat1 else path[::-1]
    return path if lon0 <= lon1 else path[::-1]


def _connected(g: dict[str, set[str]]) -> bool:
    start = next(iter(g))
    seen, stack = {start}, [start]
    while stack:
        for n in g[stack.pop()] - seen:
            seen.add(n)
            stack.append(n)
    return len(seen) == len(g)


def _walk(g: dict[str, set[str]], end: str) -> list[str]:
    """The stops of a path graph from one end to the other."""
    path, prev = [end], None
    while True:
        nxt = [n for n in g[path[-1]] if n != prev]
        if not nxt:
            return path
        prev = path[-1]
        path.append(nxt[0])


def _longest_run(g: dict[str, set[str]], budget: int = 200_000) -> list[str]:
    """The longest simple path of a line's part in scope (ties: the first found in a sorted
    search), for a recipe whose lines keep their longest run; the search is bounded (a line's
    zone-1 part is small and nearly a path)."""
    best: list[str] = []
    for start in sorted(g, key=lambda n: (len(g[n]) != 1, n)):
        stack: list[tuple[str, tuple[str, ...]]] = [(start, (start,))]
        while stack and budget > 0:
            budget -= 1
            node, path = stack.pop()
            if len(path) > len(best):
                best = list(path)
            stack += [(n, path + (n,)) for n in sorted(g[node], reverse=True) if n not in path]
    return best


def _shared_tracks(runs: Mapping[str, Run], least: int = 2) -> tuple[frozenset[str], ...]:
    """Lines whose runs share ``least`` or more consecutive station pairs, grouped (transitively):
    one track each, for a recipe that names none by hand."""
    pairs = {line: {frozenset(p) for p in zip(r.stations, r.stations[1:])} for line, r in runs.items()}
    group = {line: line for line in runs}

    def find(a: str) -> str:
        while group[a] != a:
            a = group[a]
        return a
    lines = sorted(runs)
    for i, a in enumerate(lines):
        for b in lines[i + 1:]:
            if len(pairs[a] & pairs[b]) >= least:
                group[find(b)] = find(a)
    out: dict[str, set[str]] = {}
    for line in lines:
        out.setdefault(find(line), set()).add(line)
    return tuple(frozenset(g) for _, g in sorted(out.items()) if len(g) > 1)


def _path_graph(path: list[str]) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {s: set() for s in path}
    for a, b in zip(path, path[1:]):
        g[a].add(b)
        g[b].add(a)
    return g


def derive_map(net: Network, recipe: Recipe) -> Board:
    """Apply the recipe to the dataset: zone scope, exclusions, merges, one run per line."""
    problems = _unknown_names(net, recipe)
    if problems:
        raise DataError(problems)

    excluded_lines = {l for l, _ in recipe.exclude_lines}
    excluded = {s for s, _ in recipe.exclude_stations}
    alias = {m: mid for mid, _, members, _ in recipe.merges for m in members}

    def in_scope(ident: str) -> bool:
        st = net.stations[ident]
        opened = st.opened or ""
        return (ident not in excluded and bool(set(st.zones) & set(recipe.zones))
                and not (opened and opened[:10] >= recipe.opened_before))

    # Each line's part in scope as an adjacency map (insertion-ordered, so the result is stable).
    graphs: dict[str, dict[str, set[str]]] = {}
    for b in net.branches:
        if b.line in excluded_lines:
            continue
        g = graphs.setdefault(b.line, {})
        prev = None
        for s in b.stations:
            cur = alias.get(s, s) if in_scope(s) else None
            if cur is not None:
                g.setdefault(cur, set())
                if prev is not None and prev != cur:
                    g[prev].add(cur)
                    g[cur].add(prev)
            prev = cur
    graphs = {l: g for l, g in graphs.items() if g}
    if recipe.runs == "longest":
        graphs = {l: p for l, g in sorted(graphs.items()) if len(p := _path_graph(_longest_run(g))) >= 2}

    members: dict[str, list[str]] = {}
    for line_graph in graphs.values():
        for node in line_graph:
            members.setdefault(node, [])
    for s in net.stations:
        gid = alias.get(s, s)
        if gid in members and in_scope(s):
            members[gid].append(s)
    coords = {gid: (sum(net.stations[m].lat for m in ms) / len(ms), sum(net.stations[m].lon for m in ms) / len(ms))
              for gid, ms in members.items()}

    pinned = {line: (first, i) for i, (line, first, _) in enumerate(recipe.orientation, 1)}
    runs: dict[str, Run] = {}
    for line, g in sorted(graphs.items()):
        ends = [n for n in g if len(g[n]) == 1]
        if not _connected(g) or (len(g) > 1 and (len(ends) != 2 or max(len(ns) for ns in g.values()) > 2)):
            problems.append(_problem(recipe, f"line {line!r}: its part in {zone_phrase(recipe.zones)} is not one run of "
                                             f"stops (ends: {sorted(ends)}); exclude or merge stations in the recipe"))
            continue
        path = _walk(g, ends[0]) if len(ends) == 2 else list(g)
        if line in pinned:
            first = pinned[line][0]
            if first not in (path[0], path[-1]):
                problems.append(_problem(recipe, f"{first!r} is not an end of the {line} run "
                                                 f"({path[0]} .. {path[-1]})", f"orientation #{pinned[line][1]}"))
                continue
            path = path if path[0] == first else path[::-1]
        else:
            path = _orient(net, coords, path)
        runs[line] = Run(line, tuple(path))
    if problems:
        raise DataError(problems)

    merge_names = {mid: name for mid, name, _, _ in recipe.merges}
    stations = {}
    for gid in sorted(members):
        ms = tuple(sorted(members[gid]))
        name = merge_names.get(gid) or net.stations[ms[0]].name
        lat, lon = coords[gid]
        lines = tuple(sorted(l for l, r in runs.items() if gid in r.stations))
        aliases = tuple(dict.fromkeys([net.stations[m].name for m in ms if net.stations[m].name != name]
                                      + [a for m in ms for a in net.stations[m].aliases]))
        stations[gid] = GameStation(gid, name, round(lat, 6), round(lon, 6), ms, lines, aliases)
    shared = tuple(frozenset(ls) for ls, _ in recipe.shared_track)
    if recipe.track == "auto":
        shared += _shared_tracks(runs)
    in_game = {m for st in stations.values() for m in st.members}
    outside = tuple(sorted((st.name, _why_outside(net, recipe, sid, runs)) for sid, st in net.stations.items()
                           if sid not in in_game))
    branches = {l: tuple(b.stations for b in net.branches if b.line == l) for l in sorted(runs)}
    data_names = {s: net.stations[s].name for bs in branches.values() for b in bs for s in b}
    return Board(stations, {l: net.lines[l] for l in sorted(runs)}, runs, shared, recipe, outside,
                   branches, data_names)


def _why_outside(net: Network, recipe: Recipe, ident: str, runs: Mapping[str, Run]) -> str:
    """Why a dataset station is not in the game, for "Brixton is not on this game's map (...)"."""
    st = net.stations[ident]
    zones = "/".join(map(str, st.zones)) or "no zone"
    if not set(st.zones) & set(recipe.zones):
        return f"zone {zones}; the game covers {zone_phrase(recipe.zones)}"
    for s, reason in recipe.exclude_stations:
        if s == ident:
            return "left out by the recipe: " + reason.split(". ")[0].split(" (")[0].rstrip(".")
    if st.opened and st.opened[:10] >= recipe.opened_before:
        return f"opened {st.opened[:10]}, after the game"
    lines = sorted({net.lines[b.line].name for b in net.branches if ident in b.stations})
    return f"its lines ({', '.join(lines)}) are not in the game" if lines else "on no line of the game"


def load_map(data: Path | str | None = None, recipe: Path | str | None = None, copy_rule: str | None = None) -> Board:
    """The game's map from a dataset directory and a recipe (the bundled ones by default)."""
    return derive_map(Network.load(data), load_recipe(recipe, copy_rule))


def parse_stations(gmap: Board, text: str | Sequence[str], what: str = "slot") -> tuple[str, ...]:
    """Station ids from comma-separated names (forgiving: case, St/St./Street, &/and, a unique
    leading part such as "kings cross"; merged members' names such as "Aldgate East" too).

    Every name that fails is reported at once, by position (``what`` 1, 2, ...): unknown names
    get "did you mean ...", ambiguous ones their choices, and a real station the game leaves out
    says so."""
    names = [n.strip() for n in text.split(",")] if isinstance(text, str) else [n.strip() for n in text]
    pairs = [(s.id, s.name) for s in gmap.stations.values()]
    pairs += [(s.id, a) for s in gmap.stations.values() for a in s.aliases]
    outside = [(f"outside-{i}", name) for i, (name, _) in enumerate(gmap.outside)]
    why = {f"outside-{i}": (name, reason) for i, (name, reason) in enumerate(gmap.outside)}
    out, errors = [], []
    for i, name in enumerate(names, 1):
        if not name:
            errors.append(f"{what} {i} is empty")
            continue
        try:
            out.append(match_station(name, pairs))
        except UsageError as exc:
            try:
                real, reason = why[match_station(name, outside)]
                errors.append(f"{what} {i}: {real} is not on this game's map ({reason})")
            except UsageError:
                errors.append(f"{what} {i}: {exc}")
    if errors:
        raise UsageError("; ".join(errors))
    return tuple(out)
