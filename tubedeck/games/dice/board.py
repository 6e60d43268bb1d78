"""The Tube Dice map: stations, connections with their sections, lines, zones and the star.

Derived from any dataset by the recipe (:mod:`.recipe`) and a scope (:mod:`.scope`):

* **connections**: one per pair of stations adjacent on any line in scope, shared by every line
  running there (decision: a shared track is one connection, boxed once, and counts for each of
  its lines; the sheet would otherwise draw two rows of boxes on one stretch of track);
* **sections**: the connections ranked by real length (ties by station ids) and cut into equal
  groups, one per value of ``[sections] values`` (1-6): every value occurs, so a die reaches each;
* **zones**: a boundary station (``1/2``) belongs to its lowest zone in scope (decision: each
  station counts for one zone, as TfL charges the cheaper one);
* **star**: the recipe's station; on a dataset without it, the fallback (``auto``: most lines,
  ties nearest the centroid, then id) and the recipe's ``fallback_scope`` instead of its scope.

Refused with a message: a scope without a star station, a disconnected map (some stations cannot
be reached from the star), fewer connections than section values (a value no connection gets).
The recipe's own scope must also have no **nested lines** (:func:`nested_lines`: a line whose
stations on the map are all another line's), else marking the longer line completes the shorter
one for free: on the old default map one stretch completed the Circle, the Hammersmith & City and
the Metropolitan, 3 of the 5 lines that end the game (a DataError at ``[map] scope``; a
``--scope`` of the player's may have them).
Stations and connections are also numbered (indices) for the rules engine and the solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tubedeck.errors import DataError, Problem, UsageError
from tubedeck.network import Network, Station

from .recipe import Recipe
from .scope import Scope, cut, in_zones, km_between, parse_scope


@dataclass(frozen=True)
class Connection:
    index: int
    a: int  # station indices, a < b
    b: int
    lines: tuple[str, ...]
    km: float
    sections: int


@dataclass(frozen=True)
class LineInfo:
    id: str
    name: str
    colour: str
    text_colour: str
    stations: tuple[int, ...]
    connections: tuple[int, ...]


@dataclass(frozen=True)
class Zone:
    zone: int
    stations: tuple[int, ...]


@dataclass(frozen=True)
class Masks:
    at: tuple[tuple[tuple[int, int, int], ...], ...]  # per station: (connection, sections, other station)
    ends: tuple[tuple[int, int], ...]  # per connection
    line_stations: tuple[int, ...]  # per line: bit i = station i
    line_connections: tuple[int, ...]  # per line: bit k = connection k
    zone_stations: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    scope: Scope
    stations: tuple[Station, ...]  # index = position
    connections: tuple[Connection, ...]
    lines: tuple[LineInfo, ...]
    zones: tuple[Zone, ...]
    zone_of: tuple[int, ...]  # per station
    star: int

    def index(self, ident: str) -> int:
        for i, st in enumerate(self.stations):
            if st.id == ident:
                return i
        raise UsageError(f"station {ident!r} is not on this map")

    @cached_property
    def around(self) -> tuple[tuple[Connection, ...], ...]:
        """The connections touching each station."""
        out: list[list[Connection]] = [[] for _ in self.stations]
        for c in self.connections:
            out[c.a].append(c)
            out[c.b].append(c)
        return tuple(tuple(x) for x in out)

    @cached_property
    def masks(self) -> "Masks":
        """Bit masks and adjacency as the rules engine and the solvers read them (built once)."""
        at = tuple(tuple((c.index, c.sections, c.b if c.a == i else c.a) for c in cs) for i, cs in enumerate(self.around))
        return Masks(
            at=at,
            ends=tuple((c.a, c.b) for c in self.connections),
            line_stations=tuple(sum(1 << s for s in l.stations) for l in self.lines),
            line_connections=tuple(sum(1 << c for c in l.connections) for l in self.lines),
            zone_stations=tuple(sum(1 << s for s in z.stations) for z in self.zones),
        )

    def lines_at(self, i: int) -> tuple[str, ...]:
        return tuple(l.id for l in self.lines if i in l.stations)


def nested_lines(board: Board) -> tuple[tuple[str, str], ...]:
    """``(inner, outer)`` line ids where every station of ``inner`` on the map is also on
    ``outer`` (equal sets give both pairs), in the board's line order. A map for the recipe has
    none: completing ``outer`` would leave ``inner`` complete or one connection away, a free line
    towards the end of the game."""
    return tuple((a.id, b.id) for a in board.lines for b in board.lines
                 if a.id != b.id and set(a.stations) <= set(b.stations))


def nested_message(board: Board) -> str:
    """The recipe validation's message for nested lines ('' when there are none)."""
    pairs = nested_lines(board)
    if not pairs:
        return ""
    name = {l.id: l.name for l in board.lines}
    said = "; ".join(f"every station of the {name[a]} is on the {name[b]}" for a, b in pairs)
    return (f"the map of scope {board.scope.label!r} has nested lines ({said}): completing the longer line "
            "completes the shorter one almost for free. Choose a scope where they differ, or leave lines out "
            "('all except LINE in ...')")


def _auto_star(net: Network) -> str:
    lat = sum(s.lat for s in net.stations.values()) / len(net.stations)
    lon = sum(s.lon for s in net.stations.values()) / len(net.stations)
    return min(net.stations, key=lambda s: (-len(net.lines_at(s)),
                                            (net.stations[s].lat - lat) ** 2 + (net.stations[s].lon - lon) ** 2, s))


def _star(net: Network, part: Network, recipe: Recipe, label: str) -> str:
    want = recipe.map.star
    if want in net.stations:
        if want not in part.stations:
            raise UsageError(f"no star station: {net.stations[want].name} (the recipe's star) is not on the map "
                             f"of scope {label!r}; choose a scope that includes it")
        return want
    if want != "auto" and recipe.map.star_fallback != "auto":
        raise UsageError(f"no star station: {want!r} is not in the dataset {net.source}")
    if not part.stations:
        raise UsageError(f"no star station: scope {label!r} has no connected stations")
    return _auto_star(part)


def derive_board(net: Network, recipe: Recipe, scope_text: str | None = None) -> Board:
    """The map for ``scope_text`` (default: the recipe's). UsageError for a bad ``--scope``; the
    same problems in the recipe's own scope are a DataError located at ``[map] scope``."""
    if scope_text is not None and not scope_text.strip():  # --scope "" fell back to the default
        raise UsageError("--scope is empty: name a part of the network (e.g. 'zones 1-2'), or leave --scope out")
    try:
        if not scope_text and recipe.map.star not in net.stations:  # another city: London's radius means nothing
            if recipe.map.fallback_scope == "auto":
                return auto_board(net, recipe)
            return _derive(net, recipe, recipe.map.fallback_scope)
        board = _derive(net, recipe, scope_text or recipe.map.scope)
        if not scope_text and (problem := nested_message(board)):
            raise UsageError(problem)
        return board
    except UsageError as exc:
        if scope_text:
            raise
        raise DataError([Problem(recipe.source, None, "map.scope", str(exc))]) from None


# Another city's map, when the recipe's star is not in the dataset (``fallback_scope = "auto"``): the
# smallest ring round a well-served station, in zones 1-2, that holds at least AUTO_STATIONS
# stations in two zones (AUTO_ZONE_MIN or more in the smaller), every station reached from the
# star, a line riding another's stations all the way left out (as London's map leaves out the
# Circle): the measure London's own map was chosen by (docs/dice.md), found by search. A network
# with fewer stations in zones 1-2, or a small one (AUTO_WHOLE) where no ring qualifies, is its own map.
AUTO_STATIONS = 20
AUTO_ZONE_MIN = 3
AUTO_RADII = tuple(round(0.5 + 0.1 * k, 1) for k in range(96))  # 0.5 to 10.0 km
AUTO_STARS = 60  # the best-served stations tried as the star
AUTO_WHOLE = 60  # a network of at most this many stations in zones 1-2 is its own map if no ring qualifies


def _nested_to_drop(board: Board) -> list[str]:
    """The lines to leave out so that none is nested in another: the smallest first, each left out
    while another kept line holds all its stations (of equal lines, the later id goes)."""
    kept = sorted(board.lines, key=lambda ln: (-len(ln.stations), ln.id))
    out: list[str] = []
    for line in reversed(kept):
        others = [o for o in kept if o.id != line.id and o.id not in out]
        if any(set(line.stations) <= set(o.stations) for o in others):
            out.append(line.id)
    return sorted(out)


def auto_board(net: Network, recipe: Recipe) -> Board:
    """The automatic map of another city (see :data:`AUTO_STATIONS`); UsageError if none is found."""
    stars = sorted(net.stations, key=lambda s: (-len(net.lines_at(s)), s))[:AUTO_STARS]
    zoned = {s: min(net.stations[s].zones) for s in net.stations if min(net.stations[s].zones) <= 2}
    if len(zoned) < AUTO_STATIONS:  # a small network is its own map
        return _derive(net, recipe, "all")
    for radius in AUTO_RADII:
        for star in stars:
            if star not in zoned:
                continue
            near = [s for s in zoned if km_between(net, star, s) <= radius]
            counts = [sum(1 for s in near if zoned[s] == z) for z in (1, 2)]
            if len(near) < AUTO_STATIONS or min(counts) < AUTO_ZONE_MIN:
                continue
            try:
                board = _derive(net, recipe, f"zones 1-2 within {radius:g} km", star=star)
                drop = _nested_to_drop(board)
                if drop:  # a line riding another's stations all the way: left out, as London's map does
                    board = _derive(net, recipe, f"all except {','.join(drop)} in zones 1-2 within {radius:g} km",
                                    star=star)
            except UsageError:
                continue
            zones_on = {min(net.stations[st.id].zones) for st in board.stations}
            if (len(board.stations) >= AUTO_STATIONS and len(zones_on) >= 2 and not nested_lines(board)
                    and len(board.lines) > recipe.rules.lines_to_end):
                return board
    if len(zoned) <= AUTO_WHOLE:  # a small network none of whose rings qualifies: the whole of it
        return _derive(net, recipe, "all")
    raise UsageError(f"no map found for Tube Dice on {net.source}: no ring round a well-served station holds "
                     f"{AUTO_STATIONS} connected stations in two zones; give --scope (e.g. 'zones 1-2 within 2 km')")


def _derive(net: Network, recipe: Recipe, text: str, star: str | None = None) -> Board:
    scope = parse_scope(text, net)
    part = cut(net, in_zones(net, scope), scope.lines)
    if star is None or star not in part.stations:
        star = _star(net, part, recipe, scope.label)
    if scope.km is not None:
        part = cut(part, {s for s in part.stations if km_between(part, star, s) <= scope.km}, None)
        if star not in part.stations:
            raise UsageError(f"no star station: {net.stations[star].name} has no connection within {scope.km:g} km")
    ids = sorted(part.stations)
    at = {s: i for i, s in enumerate(ids)}
    pairs: dict[tuple[int, int], set[str]] = {}
    for u, v, line_id in part.edges():
        pairs.setdefault((min(at[u], at[v]), max(at[u], at[v])), set()).add(line_id)
    _connected(ids, pairs, at[star], part, scope.label)
    values = recipe.sections.values
    if len(pairs) < len(values):
        raise UsageError(f"scope {scope.label!r} has {len(pairs)} connections: too few to give every section "
                         f"count {values[0]}-{values[-1]} (a die value would reach none)")
    ranked = sorted(pairs, key=lambda p: (round(km_between(part, ids[p[0]], ids[p[1]]), 6), ids[p[0]], ids[p[1]]))
    conns = []
    for rank, (a, b) in enumerate(ranked):
        on = tuple(l for l in part.lines if l in pairs[(a, b)])
        conns.append((a, b, on, km_between(part, ids[a], ids[b]), values[rank * len(values) // len(ranked)]))
    conns.sort(key=lambda c: (c[0], c[1]))
    connections = tuple(Connection(k, *c) for k, c in enumerate(conns))
    lines: list[LineInfo] = []
    for line in part.lines.values():
        members = tuple(sorted(at[s] for s in part.stations_on(line.id)))
        own = tuple(c.index for c in connections if line.id in c.lines)
        lines.append(LineInfo(line.id, line.name, line.colour, line.text_colour, members, own))
    allowed = set(scope.zones) if scope.zones else None
    zone_of = tuple(min(z for z in part.stations[s].zones if allowed is None or z in allowed) for s in ids)
    zones = tuple(Zone(z, tuple(i for i, zz in enumerate(zone_of) if zz == z)) for z in sorted(set(zone_of)))
    return Board(scope, tuple(part.stations[s] for s in ids), connections, tuple(lines), zones, zone_of, at[star])


def _connected(ids: list[str], pairs: dict, star: int, net: Network, label: str) -> None:
    nbr: dict[int, set[int]] = {i: set() for i in range(len(ids))}
    for a, b in pairs:
        nbr[a].add(b)
        nbr[b].add(a)
    seen, todo = {star}, [star]
    while todo:
        for n in nbr[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) < len(ids):
        lost = [net.stations[ids[i]].name for i in range(len(ids)) if i not in seen]
        raise UsageError(f"the map of scope {label!r} is disconnected: {len(lost)} station(s) cannot be reached "
                         f"from the star {net.stations[ids[star]].name} (e.g. {', '.join(lost[:3])}); "
                         "choose a wider or connected scope")
