"""Keep London Moving: the Station deck, its Connection Numbers, and the Fortune deck.

A deck is cut from the network by a **scope** (see :mod:`tubedeck.games.klm.scope`): one
**Station Card** per station in scope. Every pair of stations adjacent on some line *within the
scope* shares one **Connection Number**, printed on both cards beside the neighbour's name (the
card's *Nearest Station* field). The generator prints these very objects and the checker in
:mod:`tubedeck.solver.klm.model` reasons about them, so a card is described exactly once.

Decisions where the rulebook is silent (also in the README):

* **Terminus** follows the glossary: "a station which is the last one in the underground line.
  Terminus stations can form one Connection only and they do not connect to each other." A
  station *ends* a line when it has one neighbour on that line in the **whole network**: a
  scope's edge is not a line's end (the line goes on; the scope only limits which cards are in
  the deck), so Aldgate East, Paddington (H&C) and Vauxhall are ordinary cards in ``core``.
  Decision for a station that ends one line and continues another (Elephant & Castle ends the
  Bakerloo, the Northern runs on): it is a **Terminus card only when it ends every line serving
  it** (Ealing Broadway, Morden, Battersea Power Station); otherwise it is an ordinary card. So a
  station is a Terminus card in every scope that holds it, or in none. A Terminus card forms one
  Connection only, so in a winning path it can only be an end (the checker and the play engine
  read the same set, :attr:`tubedeck.games.klm.edition.Edition.termini`). A pair adjacent only on
  lines that both of them end (Bank-Waterloo on the Waterloo & City) gets **no** Connection
  Number; such cards may print "no connection in this deck". The checker sees the same graph.
* Numbering runs along each line: lines in dataset order, branches in name order, stops in
  order; a pair gets the next number the first time it is met, so Bakerloo pairs are 1, 2, 3...
  and a pair shared by two lines (Circle and Hammersmith & City) keeps its first number.
* Facts left blank in the dataset are left off the card (never invented): no outline colour
  claim when ``surface`` is blank, no Heritage line when ``listed`` is blank, and so on.
  Easy Access follows the glossary: step-free ``yes`` or ``partial`` both count.
* The **Fortune deck** (``data/klm/fortune.csv``, 10 kinds, 30 cards) is our design: the rules
  only imply its effects. Every effect keeps the rules: one Fortune Card per turn (printed on
  each card), durations count the *playing* player's own turns (rule 3.3), Disabled cards are
  rotated, no effect allows a second Connection in a turn, and extra draws come from the stocks
  as the rules describe. The deal checker plays no Fortune effect (see :mod:`tubedeck.solver.klm.model`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import networkx as nx

from tubedeck.content import content, read_csv
from tubedeck.errors import DataError, Problem
from tubedeck.network import Network

from .scope import Scope


@dataclass(frozen=True)
class LineMark:
    """A line as a card shows it: id, name and colour."""

    id: str
    name: str
    colour: str


@dataclass(frozen=True)
class Connection:
    """One Connection Number printed on a card: ``number``, the neighbour it links to, the lines
    that link them in the scope, and the neighbour's bearing (degrees anticlockwise from east,
    as a map shows it) for the card's illustration."""

    number: int
    neighbour: str
    neighbour_name: str
    lines: tuple[LineMark, ...] = ()
    bearing: float = 0.0


@dataclass(frozen=True)
class StationCard:
    """A Station Card: every glossary field, ``None`` / empty where the dataset does not know."""

    station: str
    name: str
    connections: tuple[Connection, ...]
    terminus: bool
    outline: str | None  # "black" (tunnel) / "white" (open section) / None (unknown)
    lines: tuple[str, ...]  # line ids serving the station (full network), dataset order
    line_marks: tuple[LineMark, ...]  # the same lines, with names and colours
    zone: str
    interchange_lines: tuple[str, ...]  # the lines one can change between here (empty if only one)
    interchange_modes: tuple[str, ...]  # National Rail, Overground, DLR...
    borough: str | None
    built: str | None
    heritage: str | None  # "Grade II", "Grade II*", "Grade I", "Listed"
    easy_access: bool | None
    description: str

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.connections)

    @property
    def interchange(self) -> bool:
        return len(self.interchange_lines) >= 2 or bool(self.interchange_modes)


@dataclass(frozen=True)
class Edge:
    """A Connection Number and its two stations (``a`` < ``b`` by id)."""

    number: int
    a: str
    b: str
    line: str  # the line along which the number was assigned


@dataclass(frozen=True)
class StationDeck:
    """The Station Cards of a scope, in card order (by id), and the numbered connections."""

    scope: Scope
    cards: tuple[StationCard, ...]
    edges: tuple[Edge, ...]

    @cached_property
    def by_station(self) -> dict[str, StationCard]:
        return {c.station: c for c in self.cards}

    @cached_property
    def graph(self) -> nx.Graph:
        """The connection graph the rules allow (terminus pairs already removed)."""
        g = nx.Graph()
        g.add_nodes_from(c.station for c in self.cards)
        for e in self.edges:
            g.add_edge(e.a, e.b, number=e.number)
        return g

    def __len__(self) -> int:
        return len(self.cards)


def line_ends(net: Network) -> dict[str, frozenset[str]]:
    """For each station, the lines it ends in ``net`` (one neighbour on that line)."""
    on_line: dict[tuple[str, str], set[str]] = {}
    for b in net.branches:
        for a, c in b.pairs:
            on_line.setdefault((b.line, a), set()).add(c)
            on_line.setdefault((b.line, c), set()).add(a)
    ends: dict[str, set[str]] = {s: set() for s in net.stations}
    for (line, s), ns in on_line.items():
        if len(ns) == 1:
            ends[s].add(line)
    return {s: frozenset(ls) for s, ls in ends.items()}


def number_connections(net: Network, full: Network | None = None) -> tuple[tuple[Edge, ...], frozenset[str]]:
    """Number every adjacent pair of ``net`` (the scope) along its lines; return the edges and the
    Terminus cards of ``net``. Line ends are read in ``full`` (the whole network; default ``net``):
    a Terminus card ends every line serving it in the full network, and a pair gets no number
    when both of them end every line joining them there (see the module docstring). A scope's edge
    is never a line's end: it only limits which cards are in the deck."""
    full = full or net
    ends = line_ends(full)
    serving: dict[str, set[str]] = {s: set() for s in full.stations}
    joining: dict[tuple[str, str], set[str]] = {}
    for b in full.branches:
        for a, c in b.pairs:
            serving[a].add(b.line)
            serving[c].add(b.line)
            joining.setdefault((min(a, c), max(a, c)), set()).add(b.line)
    termini = frozenset(s for s in net.stations if serving[s] and serving[s] <= ends[s])
    order = {line: i for i, line in enumerate(net.lines)}
    edges: list[Edge] = []
    seen: set[tuple[str, str]] = set()
    for b in sorted(net.branches, key=lambda b: (order[b.line], b.name)):
        for a, c in b.pairs:
            key = (min(a, c), max(a, c))
            if key in seen:
                continue
            seen.add(key)
            if all(line in ends[a] and line in ends[c] for line in joining[key]):
                continue  # rule 3.4: termini (of every line joining them) never connect to each other
            edges.append(Edge(len(edges) + 1, key[0], key[1], b.line))
    return tuple(edges), termini


_HERITAGE = {"I": "Grade I", "II*": "Grade II*", "II": "Grade II", "listed": "Listed"}


def _year(opened: str | None) -> str | None:
    return opened[:4] if opened else None


def describe(full: Network, station: str) -> str:
    """A short Card Description made only from the facts the dataset holds."""
    st = full.stations[station]
    names = [full.lines[l].name for l in full.lines_at(station)]
    served = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    parts = []
    if st.opened:
        parts.append(f"Opened in {_year(st.opened)}.")
    where = f"zone {st.zone}" + (f", {st.local_authority}" if st.local_authority else "")
    parts.append(f"Served by the {served} line{'s' if len(names) > 1 else ''} ({where}).")
    if st.interchanges:
        parts.append("Change here for " + ", ".join(st.interchanges) + ".")
    if st.surface == "tunnel":
        parts.append("Platforms in tunnel.")
    elif st.surface == "open":
        parts.append("Platforms in the open air.")
    return " ".join(parts)


def _mark(full: Network, line: str) -> LineMark:
    return LineMark(line, full.lines[line].name, full.lines[line].colour)


def bearing(full: Network, a: str, b: str) -> float:
    """Degrees anticlockwise from east from station ``a`` to ``b`` (equirectangular at a's latitude)."""
    sa, sb = full.stations[a], full.stations[b]
    dx, dy = (sb.lon - sa.lon) * math.cos(math.radians(sa.lat)), sb.lat - sa.lat
    return math.degrees(math.atan2(dy, dx)) if (dx or dy) else 0.0


def build_deck(full: Network, scope: Scope) -> StationDeck:
    """The Station deck of ``scope`` cut from ``full`` (facts always come from ``full``). Every
    card carries what its face prints, so the faces never look anything up in the network."""
    net = scope.cut(full)
    edges, termini = number_connections(net, full)
    by_station: dict[str, list[Connection]] = {s: [] for s in net.stations}
    for e in edges:
        linking = tuple(_mark(full, l) for l in sorted(net.graph[e.a][e.b]))
        by_station[e.a].append(Connection(e.number, e.b, full.stations[e.b].name, linking, bearing(full, e.a, e.b)))
        by_station[e.b].append(Connection(e.number, e.a, full.stations[e.a].name, linking, bearing(full, e.b, e.a)))
    cards = []
    for sid in sorted(net.stations):
        st = full.stations[sid]
        lines = full.lines_at(sid)
        lines = tuple(l for l in full.lines if l in lines)  # dataset order, stable
        cards.append(StationCard(
            station=sid, name=st.name, connections=tuple(sorted(by_station[sid], key=lambda c: c.number)),
            terminus=sid in termini,
            outline={"tunnel": "black", "open": "white"}.get(st.surface or ""),
            lines=lines, line_marks=tuple(_mark(full, l) for l in lines), zone=st.zone,
            interchange_lines=lines if len(lines) >= 2 else (),
            interchange_modes=st.interchanges,
            borough=st.local_authority, built=st.opened,
            heritage=_HERITAGE.get(st.listed or ""),
            easy_access={"yes": True, "partial": True, "no": False}.get(st.step_free or ""),
            description=describe(full, sid),
        ))
    return StationDeck(scope, tuple(cards), edges)


# -- Fortune Cards -------------------------------------------------------------------------

ACTIONS = ("disable", "enable", "draw_fortune", "draw_station", "take_discard", "discard_fortune",
           "protect", "block_connection")
TARGETS = ("self", "opponent", "all_opponents")
_CARD_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # card ids name files: file-safe from the start
FORTUNE_COLUMNS = ("id", "name", "count", "effect", "action", "target", "cards", "turns", "draw", "by_line")


@dataclass(frozen=True)
class FortuneKind:
    """One kind of Fortune Card: its printed text and the machine-readable parameters.

    ``turns`` counts the *playing* player's own turns (rule 3.3); ``cards`` is how many Station
    Cards the effect touches; ``draw`` how many cards it lets the player draw; ``by_line`` marks
    effects that pick their targets by Line Colour."""

    id: str
    name: str
    count: int
    effect: str
    action: str
    target: str
    cards: int
    turns: int
    draw: int
    by_line: bool


@dataclass(frozen=True)
class FortuneCard:
    """One physical Fortune Card: its kind and its copy number (``signal-failure-2``)."""

    id: str
    kind: FortuneKind


def load_fortune(path: Path | None = None) -> tuple[FortuneKind, ...]:
    """Read and validate ``data/klm/fortune.csv``; DataError listing every problem."""
    path = Path(path or content("klm", "fortune.csv"))
    problems: list[Problem] = []
    rows = read_csv(path, FORTUNE_COLUMNS, problems)
    kinds: list[FortuneKind] = []
    for row in rows:
        ints = {}
        for col in ("count", "cards", "turns", "draw"):
            try:
                ints[col] = int(row[col] or 0)
                if ints[col] < 0:
                    raise ValueError
            except ValueError:
                problems.append(row.problem(col, f"not a whole number >= 0: {row[col]!r}"))
        if row["action"] not in ACTIONS:
            problems.append(row.problem("action", f"unknown action {row['action']!r}"))
        if row["target"] not in TARGETS:
            problems.append(row.problem("target", f"unknown target {row['target']!r}"))
        if row["by_line"] not in ("yes", "no"):
            problems.append(row.problem("by_line", "use yes or no"))
        if not row["effect"] or not row["name"]:
            problems.append(row.problem("effect", "empty name or effect text"))
        if not _CARD_ID.match(row["id"]):
            problems.append(row.problem("id", f"bad id {row['id']!r}: use lowercase letters, digits and '-'"))
        if row["action"] == "disable" and not ints.get("turns"):
            problems.append(row.problem("turns", "a disable effect needs a duration"))
        if len(ints) == 4 and row["action"] in ACTIONS and row["target"] in TARGETS:
            problems += [row.problem(col, why) for col, why in _unplayable(row["action"], row["target"], ints,
                                                                          row["by_line"] == "yes")]
        if len(ints) == 4 and row["action"] in ACTIONS and row["target"] in TARGETS:
            kinds.append(FortuneKind(row["id"], row["name"], ints["count"], row["effect"], row["action"],
                                     row["target"], ints["cards"], ints["turns"], ints["draw"],
                                     row["by_line"] == "yes"))
    ids = [k.id for k in kinds]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(Problem(path.name, None, "id", f"duplicate id {dup!r}"))
    if problems:
        raise DataError(problems)
    return tuple(kinds)


def _unplayable(action: str, target: str, n: dict, by_line: bool) -> list[tuple[str, str]]:
    """Parameter combinations the play engine (:mod:`.effects`) cannot play, as (column, why)."""
    own = action in ("enable", "protect", "draw_fortune", "draw_station", "take_discard")
    out = []
    if own and target != "self":
        out.append(("target", f"{action} acts on the player: use target self"))
    if not own and target == "self":
        out.append(("target", f"{action} acts on opponents: use opponent or all_opponents"))
    if action in ("discard_fortune", "block_connection") and target != "opponent":
        out.append(("target", f"{action} names one opponent: use target opponent"))
    if action == "disable" and (n["cards"] not in (1, 2) or ((target == "all_opponents" or by_line)
                                                             and n["cards"] != 1)):
        out.append(("cards", "disable takes 1 or 2 cards (1 with all_opponents or by_line)"))
    if action in ("enable",) and n["cards"] != 1:
        out.append(("cards", "enable makes 1 card Active"))
    if action == "take_discard" and n["cards"] < 1:
        out.append(("cards", "take_discard takes at least 1 card"))
    if action in ("draw_fortune", "draw_station") and n["draw"] < 1:
        out.append(("draw", f"{action} draws at least 1 card"))
    if action in ("protect", "block_connection") and n["turns"] < 1:
        out.append(("turns", f"{action} needs a duration"))
    return out


def fortune_deck(kinds: tuple[FortuneKind, ...]) -> tuple[FortuneCard, ...]:
    """Every physical Fortune Card, kinds in file order, copies numbered from 1."""
    return tuple(FortuneCard(f"{k.id}-{i}", k) for k in kinds for i in range(1, k.count + 1))
