"""One Day in London's reference map: projection, schematic nudges, label placement, the map page.

The map is drawn from the stations' coordinates (equirectangular, fitted into the page), with
two deterministic adjustments so it reads cleanly where the game needs it to:

* :func:`relax` nudges a station (at most ``cap`` mm from its place) when a line it does not
  serve would pass over its marker: in a game about which lines stations share, Regent's Park
  or Warren Street sitting under the Metropolitan's stroke would be a lie;
* :func:`place_labels` tries candidate spots around every marker (right, left, above, below,
  the four diagonals, each at seven distances; a long name also broken onto two lines) and scores each against the labels already
  placed, the other markers, the drawn line strokes, the map area, and ambiguity (a label nearer
  another marker than its own); a greedy pass, then improvement passes, in a fixed order. Where
  no spot near the marker is free of lines (a few labels in the crowded core of London), the spot
  where a line only clips the label's edge wins over one where it runs through the words.

:func:`layout` does both for a page; :func:`map_page` draws it (the layout of a map on a page is
worked out once per process: building at several card sizes reuses it). The title and the note
come from the recipe's ``[text]`` table.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from tubedeck.games.oneday.board import Board
from tubedeck.games.oneday.edition import Edition
from tubedeck.generator.diagram import Cut, Spec
from tubedeck.generator.diagram.cache import laid_out
from tubedeck.generator.diagram.model import fit, from_runs
from tubedeck.generator.linestyle import WIDTH, cased, draw_line
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.theme import INK, PLAY_PT

from .chips import chip, chip_size, line_letters

Point = tuple[float, float]
LABEL_SIZE = PLAY_PT  # players check journeys against the map
LINE_WIDTH = WIDTH + 0.05  # mm, a line's stroke with its halo; lines on one segment are drawn side by side
# Label costs: a line through a label, a label nearer another marker than its own (at 7 pt it
# must lose to a line clipping a label's edge: Warren Street's label read as Great Portland
# Street's), each mm out from the marker.
CROSSING, AMBIGUOUS, RING_COST = 40.0, 200.0, 8.0
NEAR, LABEL_GAP = 30.0, 1.0  # two labels closer than LABEL_GAP mm read as one name ("Euston Russell")
RINGS = (0.4, 0.8, 1.2, 1.7, 2.2, 2.8, 3.4)  # mm from a marker to its label's box
LEGEND_COL = 47.0  # mm, one legend entry across
LEGEND_ROW = 5.0  # mm
SWATCH = 11.0  # mm of a line's stroke in the key: long enough to show its dash pattern
CHIP_CLEAR = 0.4  # mm between a line chip on the map and any other mark
DIAGRAM = Spec(min_length=2, clearance=1, spacing=2, spread=2)  # stations two grid steps apart at least
DIAGRAM_BUDGET = 3.0  # CP-SAT deterministic seconds for the map's layout (cached: solved once per map)
DIAGRAM_FIRST = 8  # stations laid out whole before the map grows (12, the engine's default, left 2 lines too close in London)
DIAGRAM_STATIONS = 80  # beyond, the layout takes minutes of a first build: drawn from geography
DIAGRAM_STEP = 4.5  # mm a grid step needs at least: names of 7 pt between stations two steps apart
CHIP_STEPS = tuple(k * sign for k in range(0, 16) for sign in ((1,) if k == 0 else (-1, 1)))  # mm from the middle


def _plane(gmap: Board) -> tuple[dict[str, float], dict[str, float]]:
    """Each station's x and y, equirectangular at the network's mean latitude (degrees of latitude)."""
    lat_mid = sum(st.lat for st in gmap.stations.values()) / max(1, len(gmap.stations))
    k = math.cos(math.radians(lat_mid))
    return ({s: st.lon * k for s, st in gmap.stations.items()}, {s: st.lat for s, st in gmap.stations.items()})


def wide(gmap: Board) -> bool:
    """Whether the map is wider than tall (as :func:`project` draws it): its page is then landscape,
    else portrait (London's zone 1 is wide; New York's, along Manhattan, is tall)."""
    xs, ys = _plane(gmap)
    return max(xs.values(), default=0.0) - min(xs.values(), default=0.0) >= \
        max(ys.values(), default=0.0) - min(ys.values(), default=0.0)


def project(gmap: Board, box: Rect) -> dict[str, Point]:
    """Stations to page millimetres: equirectangular at the network's mean latitude, fitted into ``box``."""
    xs, ys = _plane(gmap)
    x0, x1, y0, y1 = min(xs.values()), max(xs.values()), min(ys.values()), max(ys.values())
    scale = min(box.w / ((x1 - x0) or 1e-9), box.h / ((y1 - y0) or 1e-9))
    ox = box.x + (box.w - (x1 - x0) * scale) / 2
    oy = box.y + (box.h - (y1 - y0) * scale) / 2
    return {s: (ox + (xs[s] - x0) * scale, oy + (ys[s] - y0) * scale) for s in gmap.stations}


def segment_distance(p: Point, a: Point, b: Point) -> tuple[float, float, float]:
    """Distance from ``p`` to segment ab, and the unit vector from the nearest point towards ``p``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ((dx * dx + dy * dy) or 1.0)))
    nx, ny = p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)
    d = math.hypot(nx, ny)
    if d < 1e-9:  # on the line: push square to it, to a fixed side
        length = math.hypot(dx, dy) or 1.0
        return 0.0, -dy / length, dx / length
    return d, nx / d, ny / d


def relax(gmap: Board, at: dict[str, Point], clear: float = 2.6, cap: float = 6.0,
          rounds: int = 60) -> dict[str, Point]:
    """Nudge stations so no line passes within ``clear`` mm of a station it does not serve.

    Each round pushes such a station square away from the segment; no station moves more than
    ``cap`` mm from its geographic place. Deterministic (fixed order)."""
    home = dict(at)
    pos = dict(at)
    segs = [(line, a, b) for line, run in sorted(gmap.runs.items()) for a, b in zip(run.stations, run.stations[1:])]
    for _ in range(rounds):
        moved = False
        for s in sorted(pos):
            serves = set(gmap.lines_at(s))
            for line, a, b in segs:
                if line in serves or s in (a, b):
                    continue
                d, ux, uy = segment_distance(pos[s], pos[a], pos[b])
                if d < clear:
                    x, y = pos[s][0] + ux * (clear - d + 0.05), pos[s][1] + uy * (clear - d + 0.05)
                    hx, hy = home[s]
                    k = min(1.0, cap / (math.hypot(x - hx, y - hy) or 1.0))
                    pos[s] = (hx + (x - hx) * k, hy + (y - hy) * k)
                    moved = True
        if not moved:
            break
    return pos


def strokes(gmap: Board, at: dict[str, Point]) -> list[tuple[str, Point, Point]]:
    """Every line stroke as drawn: (line, from, to); lines sharing a segment sit side by side."""
    return [(line, p, q) for line, _, p, q in _strokes(gmap, at)]


def _strokes(gmap: Board, at: dict[str, Point]) -> list[tuple[str, frozenset[str], Point, Point]]:
    """:func:`strokes`, each with the two stations it joins."""
    shared: dict[frozenset, list[str]] = {}
    for line in sorted(gmap.runs):
        run = gmap.runs[line].stations
        for a, b in zip(run, run[1:]):
            shared.setdefault(frozenset((a, b)), []).append(line)
    out = []
    for pair, on in shared.items():
        a, b = sorted(pair)
        (x1, y1), (x2, y2) = at[a], at[b]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        for i, line in enumerate(on):
            off = (i - (len(on) - 1) / 2) * LINE_WIDTH
            out.append((line, pair, (x1 + nx * off, y1 + ny * off), (x2 + nx * off, y2 + ny * off)))
    return out


def stretches(gmap: Board, line: str) -> list[list[tuple[str, str]]]:
    """A line's run cut at every station another line serves too: the stretches along which a
    player cannot take a wrong turn, as lists of (station, next station)."""
    run = gmap.runs[line].stations
    out: list[list[tuple[str, str]]] = [[]]
    for a, b in zip(run, run[1:]):
        out[-1].append((a, b))
        if b != run[-1] and len(gmap.lines_at(b)) > 1:
            out.append([])
    return [st for st in out if st]


def chip_box(centre: Point, size: tuple[float, float]) -> Rect:
    w, h = size
    return Rect(centre[0] - w / 2, centre[1] - h / 2, w, h)


def place_chips(gmap: Board, at: dict[str, Point], labels: dict[str, Label], area: Rect,
                size: tuple[float, float]) -> list[tuple[str, Point]]:
    """Where each line's chip sits on its own stroke, one on every stretch (:func:`stretches`) where
    one fits: the letter names the line in greyscale, where several lines print the same grey
    (Bakerloo and Victoria at Oxford Circus). A spot is the middle of the stretch's middlemost
    segment, or a millimetre at a time either way along it, then along the others, clear of every
    label, marker and other chip (``CHIP_CLEAR`` mm apart) and of every other segment's strokes
    (their painted width); a stretch too short or too crowded has none. On a segment where lines run
    side by side a chip covers its neighbours' strokes, so every line there gets its chip on it, or
    none does (an N chip alone between Euston and Warren Street hid the Victoria beside it)."""
    by = {(line, pair): (p, q) for line, pair, p, q in _strokes(gmap, at)}
    sharing = Counter(pair for _, pair in by)
    blocked: set[frozenset] = set()
    while True:  # each pass blocks at least one more shared segment, or ends
        out = _chips(gmap, at, labels, area, size, by, blocked)
        on = Counter(pair for _, _, pair in out)
        partial = {pair for pair, n in on.items() if n < sharing[pair]}
        if not partial:
            return [(line, centre) for line, centre, _ in out]
        blocked |= partial


def _chips(gmap: Board, at: dict[str, Point], labels: dict[str, Label], area: Rect, size: tuple[float, float],
           by: dict[tuple[str, frozenset], tuple[Point, Point]],
           blocked: set[frozenset]) -> list[tuple[str, Point, frozenset]]:
    """One placement pass of :func:`place_chips`, the ``blocked`` segments left without chips."""
    taken = [lab.box.inset(-CHIP_CLEAR) for lab in labels.values()]
    taken += [Rect(x - r, y - r, 2 * r, 2 * r).inset(-CHIP_CLEAR) for s, (x, y) in at.items()
              for r in (marker_radius(gmap, s),)]
    out: list[tuple[str, Point, frozenset]] = []
    for line in sorted(gmap.runs):
        for stretch in stretches(gmap, line):
            mid = (len(stretch) - 1) / 2
            order = sorted(range(len(stretch)), key=lambda k: (abs(k - mid), k))
            for k, step in ((k, step) for k in order for step in CHIP_STEPS):
                pair = frozenset(stretch[k])
                if pair in blocked:
                    continue
                (x1, y1), (x2, y2) = by[line, pair]
                length = math.hypot(x2 - x1, y2 - y1) or 1.0
                t = 0.5 + step / length
                if not 0 < t < 1:
                    continue
                centre = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
                box = chip_box(centre, size)
                if not area.contains(box) or any(overlaps(box, other) for other in taken):
                    continue
                wide = box.inset(-(LINE_WIDTH / 2 + 0.1))  # a stroke's painted width, not its centre line
                if any(segment_hits(wide, p, q) for (_, other), (p, q) in by.items() if other != pair):
                    continue
                out.append((line, centre, pair))
                taken.append(box.inset(-CHIP_CLEAR))
                break
    return out


def marker_radius(gmap: Board, station: str) -> float:
    return 1.1 if len(gmap.lines_at(station)) > 1 else 0.8


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def clip_length(box: Rect, p: Point, q: Point) -> float:
    """The length of segment pq inside ``box`` (Liang-Barsky clipping: exact, not sampled)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for edge_p, edge_q in ((-dx, p[0] - box.x), (dx, box.right - p[0]), (-dy, p[1] - box.y), (dy, box.top - p[1])):
        if edge_p == 0:
            if edge_q < 0:
                return 0.0
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy)


def segment_hits(box: Rect, p: Point, q: Point) -> bool:
    """Whether segment pq crosses ``box``."""
    return clip_length(box, p, q) > 0 or (box.x <= p[0] <= box.right and box.y <= p[1] <= box.top)


def _box_distance(box: Rect, p: Point) -> float:
    dx = max(box.x - p[0], 0.0, p[0] - box.right)
    dy = max(box.y - p[1], 0.0, p[1] - box.top)
    return math.hypot(dx, dy)


@dataclass(frozen=True)
class Label:
    """A placed label: its lines of text, drawn at ``x`` (per ``align``) on ``baselines``; its ink box."""

    lines: tuple[str, ...]
    x: float
    baselines: tuple[float, ...]
    align: str
    box: Rect


def _em(size: float) -> float:
    return size * 25.4 / 72


def _wordings(name: str) -> list[tuple[float, tuple[str, ...]]]:
    """(cost, lines): the name on one line, or broken in two at the space nearest its middle."""
    out: list[tuple[float, tuple[str, ...]]] = [(0.0, (name,))]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    if spaces and len(name) >= 10:
        cut = min(spaces, key=lambda i: (abs(2 * i - len(name)), i))
        out.append((4.0, (name[:cut], name[cut + 1:])))
    return out


def _candidates(x: float, y: float, r: float, name: str, size: float,
                text_width: Callable[[str, str, float], float]) -> list[tuple[float, Label]]:
    """(preference cost, label) around a marker at (x, y) of radius r: right, left, above, below,
    then the diagonals, each at seven distances (``RINGS``), on one line or two."""
    em = _em(size)
    out = []
    for word_cost, lines in _wordings(name):
        w = max(text_width(line, "sans", size) for line in lines)
        h = 0.98 * em + (len(lines) - 1) * 1.05 * em
        for g in RINGS:
            d, diag = r + g, r * 0.6 + g
            boxes = [(Rect(x + d, y - h / 2, w, h), "left"), (Rect(x - d - w, y - h / 2, w, h), "right"),
                     (Rect(x - w / 2, y + d, w, h), "centre"), (Rect(x - w / 2, y - d - h, w, h), "centre"),
                     (Rect(x + diag, y + diag, w, h), "left"), (Rect(x + diag, y - diag - h, w, h), "left"),
                     (Rect(x - diag - w, y + diag, w, h), "right"), (Rect(x - diag - w, y - diag - h, w, h), "right"),
                     # beside the marker but raised or lowered by a third of the label
                     (Rect(x + d, y - h / 6, w, h), "left"), (Rect(x + d, y - 5 * h / 6, w, h), "left"),
                     (Rect(x - d - w, y - h / 6, w, h), "right"), (Rect(x - d - w, y - 5 * h / 6, w, h), "right"),
                     # above or below, slid along to either side (a crowded centre has room at its edges)
                     (Rect(x - w * 0.15, y + d, w, h), "left"), (Rect(x - w * 0.85, y + d, w, h), "right"),
                     (Rect(x - w * 0.15, y - d - h, w, h), "left"), (Rect(x - w * 0.85, y - d - h, w, h), "right")]
            for k, (box, align) in enumerate(boxes):
                ax = box.x if align == "left" else (box.right if align == "right" else box.x + w / 2)
                baselines = tuple(box.top - 0.76 * em - i * 1.05 * em for i in range(len(lines)))
                out.append((word_cost + g * RING_COST + k * 0.15, Label(lines, ax, baselines, align, box)))
    return out


def place_labels(text_width: Callable[[str, str, float], float], gmap: Board, at: dict[str, Point],
                 drawn: list[tuple[str, Point, Point]], size: float, area: Rect) -> dict[str, Label]:
    """A label for every station: the best-scoring candidate spot (see the module docstring).

    ``text_width(text, font, size)`` measures in mm (``pen.text_width`` or ``fonts.text_width``);
    ``drawn`` are the line strokes (:func:`strokes`). Greedy (stations with most lines first),
    then three improvement passes that re-place each label given all the others."""
    dots = {s: Rect(x - marker_radius(gmap, s) - 0.2, y - marker_radius(gmap, s) - 0.2,
                    2 * marker_radius(gmap, s) + 0.4, 2 * marker_radius(gmap, s) + 0.4) for s, (x, y) in at.items()}
    order = sorted(gmap.stations, key=lambda s: (-len(gmap.lines_at(s)), s))
    cands = {s: _candidates(*at[s], marker_radius(gmap, s), gmap.name(s), size, text_width) for s in order}

    # what a station's candidates can touch: the box round them all (a label is a few mm from its
    # marker, so the far strokes, markers and labels are left out of its sums, without changing them)
    reach = {s: _span([lab.box for _, lab in cands[s]], LABEL_GAP) for s in order}

    def fixed(s: str, pref: float, lab: Label, near_at: list[Point],
              near_drawn: list[tuple[str, Point, Point]]) -> float:
        box = lab.box
        c = pref
        if box.x < area.x or box.right > area.right or box.y < area.y or box.top > area.top:
            c += 100000
        c += 500 * sum(overlaps(box, d) for t, d in dots.items() if t != s)
        c += crossing_cost(lab, near_drawn)
        own = _box_distance(box, at[s])
        near = min((_box_distance(box, p) for p in near_at), default=math.inf)
        if near < own + 1.5:  # reads as another station's name
            c += AMBIGUOUS
        return c

    scored: dict[str, list[tuple[float, Label]]] = {}
    for s in order:
        wide = reach[s].inset(-10.0)  # a marker farther off is farther than any label's own
        near_at = [p for t, p in at.items() if t != s and wide.x <= p[0] <= wide.right and wide.y <= p[1] <= wide.top]
        near_drawn = [d for d in drawn if segment_hits(reach[s], d[1], d[2])]
        scored[s] = [(fixed(s, pref, lab, near_at, near_drawn), lab) for pref, lab in cands[s]]

    def best(s: str, placed: dict[str, Label]) -> Label:
        others = [other.box for t, other in placed.items() if t != s and overlaps(other.box, reach[s])]

        def total(cl: tuple[float, Label]) -> float:
            box = cl[1].box
            return cl[0] + sum(1000 * overlaps(box, o) + NEAR * overlaps(box, o.inset(-LABEL_GAP)) for o in others)
        return min(scored[s], key=total)[1]

    placed: dict[str, Label] = {}
    for s in order:
        placed[s] = best(s, placed)
    for _ in range(3):
        changed = False
        for s in order:
            lab = best(s, placed)
            if lab != placed[s]:
                placed[s], changed = lab, True
        if not changed:
            break
    return placed


def _span(boxes: list[Rect], margin: float) -> Rect:
    """The box round ``boxes``, ``margin`` mm wider each way."""
    x, y = min(b.x for b in boxes) - margin, min(b.y for b in boxes) - margin
    return Rect(x, y, max(b.right for b in boxes) + margin - x, max(b.top for b in boxes) + margin - y)


def _fat(label: Label) -> Rect:
    return label.box.inset(-(LINE_WIDTH / 2 + 0.15))  # a stroke's full width touching the ink


def label_crossings(label: Label, drawn: list[tuple[str, Point, Point]]) -> int:
    """How many line strokes touch the label's ink box."""
    return sum(segment_hits(_fat(label), p, q) for _, p, q in drawn)


def crossing_cost(label: Label, drawn: list[tuple[str, Point, Point]]) -> float:
    """Each stroke touching the label costs CROSSING, plus CROSSING per 4 mm of it over the text: a
    line clipping a corner is better than one running through a word."""
    fat = _fat(label)
    lengths = [clip_length(fat, p, q) for _, p, q in drawn if segment_hits(fat, p, q)]
    return CROSSING * (len(lengths) + sum(lengths) / 4)


@dataclass(frozen=True)
class MapLayout:
    """Everything the map page draws: marker centres, line strokes, labels, and the legend strip."""

    at: dict[str, Point]
    drawn: list[tuple[str, Point, Point]]
    labels: dict[str, Label]
    area: Rect  # the map's part of the page: labels stay inside
    legend: Rect  # the strip below it: line swatches and the recipe's note
    crossed: frozenset[str] = frozenset()  # stations whose label a line still touches (no free spot)
    chips: tuple[tuple[str, Point], ...] = ()  # (line, centre) of each line chip on a stroke


def _legend_shape(gmap: Board, width: float) -> tuple[int, int]:
    """(columns, rows) of the legend: every line and the station marker, in rows across the page."""
    items = len(gmap.runs) + 1
    cols = max(1, min(items, int(width // LEGEND_COL)))
    return cols, -(-items // cols)


def board_cut(gmap: Board) -> Cut:
    """The map as the diagram engine reads it: stations where they are, one edge per pair of
    stations a line joins (every line on it), each line's turns."""
    return from_runs(gmap.stations, {s: st.name for s, st in gmap.stations.items()},
                     ((line, gmap.runs[line].stations) for line in sorted(gmap.runs)))


def diagram_places(gmap: Board, box: Rect) -> tuple[dict[str, Point] | None, str]:
    """The stations' places from the diagram engine, scaled to fill ``box``; or None and why not."""
    if len(gmap.stations) > DIAGRAM_STATIONS:
        return None, f"{len(gmap.stations)} stations, more than the diagram engine lays out in a build ({DIAGRAM_STATIONS})"
    lay, _ = laid_out(board_cut(gmap), DIAGRAM, budget=DIAGRAM_BUDGET, first=DIAGRAM_FIRST)
    if lay.status not in ("OPTIMAL", "FEASIBLE"):
        return None, f"the diagram engine found no layout within its budget ({lay.status})"
    at, scale = fit(lay.positions, box.x, box.y, box.w, box.h)
    if scale < DIAGRAM_STEP:
        return None, f"a grid step of the diagram would be {scale:.1f} mm, under {DIAGRAM_STEP:g} mm: too close for the names"
    return at, ""


def layout(gmap: Board, safe: Rect, text_width: Callable[[str, str, float], float]) -> MapLayout:
    """The map inside ``safe`` (a page's printable area): title on top, legend strip at the foot.
    Drawn as a diagram (:func:`diagram_places`) where the engine lays it out and it leaves no more
    names touched by a line than the drawing from geography (relaxed); else from geography, said
    on stderr."""
    _, rows = _legend_shape(gmap, safe.w)
    strip = rows * LEGEND_ROW + 9
    legend = Rect(safe.x, safe.y, safe.w, strip)
    area = Rect(safe.x, safe.y + strip, safe.w, safe.h - strip - 10)
    box = Rect(area.x + 24, area.y + 4, area.w - 24 - 18, area.h - 8)
    diagram, why = diagram_places(gmap, box)
    drawings: list[tuple[str, Callable[[], dict[str, Point]]]] = [("diagram", lambda: diagram)] if diagram is not None else []
    drawings.append(("geography", lambda: relax(gmap, project(gmap, box))))  # only where the diagram leaves a name touched
    placed = []
    for kind, draw in drawings:
        at = draw()
        drawn = strokes(gmap, at)
        labels = place_labels(text_width, gmap, at, drawn, LABEL_SIZE, area)
        crossed = frozenset(s for s, lab in labels.items() if label_crossings(lab, drawn))
        placed.append((kind, at, drawn, labels, crossed))
        if not crossed:
            break
    # the diagram unless it leaves more names touched by a line than the drawing from geography
    kind, at, drawn, labels, crossed = min(placed, key=lambda p: len(p[4]))
    if kind == "geography":
        if diagram is not None:
            why = (f"the diagram leaves {len(placed[0][4])} names touched by a line ({', '.join(gmap.name(s) for s in sorted(placed[0][4]))}), "
                   f"geography {len(crossed)}")
        print(f"one day: the map is drawn from geography: {why}", file=sys.stderr)
    chips = place_chips(gmap, at, labels, area, chip_size(line_letters(gmap).values()))
    return MapLayout(at, drawn, labels, area, legend, crossed, tuple(chips))


_LAYOUTS: dict[tuple[int, Rect], tuple[Board, MapLayout]] = {}


def page_layout(gmap: Board, safe: Rect) -> MapLayout:
    """:func:`layout` measured with the fonts, once per map and page area in this process (the map
    is kept with its layout, so its id cannot be reused for another map meanwhile)."""
    from tubedeck.generator import fonts

    key = (id(gmap), safe)
    if key not in _LAYOUTS or _LAYOUTS[key][0] is not gmap:
        if len(_LAYOUTS) >= 8:
            _LAYOUTS.clear()
        _LAYOUTS[key] = (gmap, layout(gmap, safe, fonts.text_width))
    return _LAYOUTS[key][1]


def figures(edition: Edition) -> dict[str, int]:
    """The derived figures a recipe's texts may print: ``{stations}``, ``{cards}``."""
    return {"stations": len(edition.board.stations), "cards": len(edition.deck)}


def map_page(pen: Pen, edition: Edition) -> None:
    s = pen.safe
    gmap = edition.board
    facts = figures(edition)
    pen.text(s.x, s.top - 6, " ".join(gmap.recipe.texts("map_title", **facts)), font="sans-bold", size=12, colour=INK)
    lay = page_layout(gmap, s)
    order = sorted(gmap.runs)  # a line's pattern: its place in this order
    case = dict(zip(order, cased(tuple(gmap.lines[ln].colour for ln in order))))
    for line, p, q in lay.drawn:
        draw_line(pen, p, q, gmap.lines[line].colour, order.index(line), case[line])
    for st, (x, y) in lay.at.items():
        inter = len(gmap.lines_at(st)) > 1
        pen.circle(x, y, marker_radius(gmap, st), fill="#FFFFFF", stroke=INK, width=0.35 if inter else 0.25)
    letters = line_letters(gmap)
    size = chip_size(letters.values())
    for on, (x, y) in lay.chips:
        chip(pen, x - size[0] / 2, y, size, gmap.lines[on].colour, gmap.lines[on].text_colour, letters[on])
    for lab in lay.labels.values():
        for text, baseline in zip(lab.lines, lab.baselines):
            pen.text(lab.x, baseline, text, size=LABEL_SIZE, colour=INK, align=lab.align, field="label")
    cols, _ = _legend_shape(gmap, lay.legend.w)
    top = lay.legend.top
    items: list[tuple[str | None, str]] = [(ln, gmap.lines[ln].name) for ln in order]
    items.append((None, "station"))
    for i, (ln, name) in enumerate(items):
        x, y = lay.legend.x + (i % cols) * LEGEND_COL, top - (i // cols + 1) * LEGEND_ROW
        if ln is not None:  # the line's stroke with its pattern, and its chip as the station cards show it
            colour = gmap.lines[ln].colour
            draw_line(pen, (x + 0.7, y + 1.5), (x + SWATCH, y + 1.5), colour, order.index(ln), case[ln])
            chip(pen, x + SWATCH + 1, y + 1.5, size, colour, gmap.lines[ln].text_colour, letters[ln])
        else:  # in the chips' place, so "station" stands as near its mark as the names their chips
            pen.circle(x + SWATCH + 1 + size[0] - 1.1, y + 1.5, 1.1, fill="#FFFFFF", stroke=INK, width=0.35)
        pen.text(x + SWATCH + 2.5 + size[0], y + 0.6, name, size=7.5, colour=INK, field="legend")
    pen.text_box(Rect(lay.legend.x, lay.legend.y, lay.legend.w, 8),
                 " ".join(gmap.recipe.texts("map_note", **facts)),
                 size=7, min_size=6, colour=INK, align="left", valign="middle", field="notes")
