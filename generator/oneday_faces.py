"""One Day in London print faces: station cards, card back, rules card, map sheet, rack sheet.

Every face draws the game's own objects (:class:`tubedeck.games.oneday.Card`, the
:class:`~tubedeck.games.oneday.GameMap`); nothing about the game is restated here.
"""

from __future__ import annotations

import math
from functools import partial
from pathlib import Path

from tubedeck.games.oneday import Card as GameCard
from tubedeck.games.oneday import GameMap, build_deck, derive_map, load_recipe
from tubedeck.errors import DataError, NotApplicable
from tubedeck.network import Network

from .document import Card, Deck, Sheet
from .emblem import emblem
from .options import PrintOptions
from .pen import Pen
from .sizes import Rect

PAPER = "#F7F4EC"
INK = "#1C1C1C"
RED = "#DC241F"
BLUE = "#0019A8"



def card_front(pen: Pen, card: GameCard, gmap: GameMap) -> None:
    """Name at the top, one band per line (before, line, after), copy mark at the foot."""
    t, s = pen.trim, pen.safe
    pen.background(PAPER)
    pen.rect(s.x, s.top - 2.2, s.w, 1.2, fill=RED)
    pen.text_box(Rect(s.x, s.top - 20, s.w, 17), card.name, font="sans-bold", size=15, min_size=7,
                 colour=INK, max_lines=3, field="name")
    n = len(card.bands)
    top, bottom = s.top - 23, s.y + 8
    band_h = min(9.0, (top - bottom - (n - 1) * 1.5) / n)
    y = top - band_h
    for band in card.bands:
        line = gmap.lines[band.line]
        pen.rect(t.x - 3, y, t.w + 6, band_h, fill=line.colour)
        text_box = Rect(s.x, y + 0.5, s.w, band_h - 1)
        pen.text_box(Rect(text_box.x, text_box.y, 9, text_box.h), str(band.before), font="sans-bold", size=11,
                     min_size=6, colour=line.text_colour, align="left", max_lines=1, field="before")
        pen.text_box(Rect(text_box.right - 9, text_box.y, 9, text_box.h), str(band.after), font="sans-bold",
                     size=11, min_size=6, colour=line.text_colour, align="right", max_lines=1, field="after")
        pen.text_box(Rect(text_box.x + 9, text_box.y, text_box.w - 18, text_box.h), line.name, font="sans-bold",
                     size=9, min_size=5, colour=line.text_colour, max_lines=2, field="line")
        y -= band_h + 1.5
    pen.text(s.right, s.y + 1, card.copy_mark, size=8, colour=INK, align="right", field="copy")
    pen.text(s.x, s.y + 1, "< before | after >", size=6, colour=INK, field="legend")


def card_back(pen: Pen, title: str = "One Day in London") -> None:
    t = pen.trim
    pen.background(BLUE)
    ring = RED if not pen.ink_saver else BLUE
    emblem(pen, t.w / 2, t.h / 2, min(t.w, t.h) * 0.3, ring, ring, title.upper())


def rules_front(pen: Pen, gmap: GameMap) -> None:
    s = pen.safe
    pen.background(PAPER)
    pen.text_box(Rect(s.x, s.top - 8, s.w, 8), gmap.recipe.name, font="sans-bold", size=11, min_size=7,
                 colour=INK, max_lines=1, field="title")
    text = "\n".join(f"\u2022 {r}" for r in gmap.recipe.texts("rules"))
    pen.text_box(Rect(s.x, s.y, s.w, s.h - 9), text, size=7, min_size=4, colour=INK, align="left", valign="top",
                 field="rules")


# -- the map sheet ------------------------------------------------------------------------------
def _project(gmap: GameMap, box: Rect) -> dict[str, tuple[float, float]]:
    """Stations to page millimetres: equirectangular at London's latitude, fitted into ``box``."""
    k = math.cos(math.radians(51.51))
    xs = {s: st.lon * k for s, st in gmap.stations.items()}
    ys = {s: st.lat for s, st in gmap.stations.items()}
    x0, x1, y0, y1 = min(xs.values()), max(xs.values()), min(ys.values()), max(ys.values())
    scale = min(box.w / (x1 - x0), box.h / (y1 - y0))
    ox = box.x + (box.w - (x1 - x0) * scale) / 2
    oy = box.y + (box.h - (y1 - y0) * scale) / 2
    return {s: (ox + (xs[s] - x0) * scale, oy + (ys[s] - y0) * scale) for s in gmap.stations}


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float, float]:
    """Distance from ``p`` to segment ab, and the unit vector from the nearest point towards ``p``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ((dx * dx + dy * dy) or 1.0)))
    nx, ny = p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)
    d = math.hypot(nx, ny)
    if d < 1e-9:  # on the line: push square to it, to a fixed side
        length = math.hypot(dx, dy) or 1.0
        return 0.0, -dy / length, dx / length
    return d, nx / d, ny / d


def relax(gmap: GameMap, at: dict[str, tuple[float, float]], clear: float = 1.9, cap: float = 6.0,
          rounds: int = 60) -> dict[str, tuple[float, float]]:
    """Nudge stations so no line passes within ``clear`` mm of a station it does not serve.

    Drawn from coordinates, a line can cross another station's dot (Regent's Park and Warren Street
    sit right under the Metropolitan's straight segment), which on a map about which lines serve a
    station is a lie. Each round pushes such a station square away from the segment; no station
    moves more than ``cap`` mm from its geographic place. Deterministic (fixed order)."""
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
                d, ux, uy = _segment_distance(pos[s], pos[a], pos[b])
                if d < clear:
                    x, y = pos[s][0] + ux * (clear - d + 0.05), pos[s][1] + uy * (clear - d + 0.05)
                    hx, hy = home[s]
                    k = min(1.0, cap / (math.hypot(x - hx, y - hy) or 1.0))
                    pos[s] = (hx + (x - hx) * k, hy + (y - hy) * k)
                    moved = True
        if not moved:
            break
    return pos


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def _segment_hits(box: Rect, p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether segment pq crosses ``box`` (Liang-Barsky clipping: exact, not sampled)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for edge_p, edge_q in ((-dx, p[0] - box.x), (dx, box.right - p[0]), (-dy, p[1] - box.y), (dy, box.top - p[1])):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def place_labels(pen: Pen, gmap: GameMap, at: dict, size: float, area: Rect) -> dict[str, tuple[float, float, str]]:
    """Greedy label placement: for each station (most lines first) the first of 8 spots around
    its dot whose box hits no other label, dot, or (preferably) line segment."""
    h = size * 0.3528 * 0.8
    dots = [Rect(x - 1.2, y - 1.2, 2.4, 2.4) for x, y in at.values()]
    segs = [(at[a], at[b]) for run in gmap.runs.values() for a, b in zip(run.stations, run.stations[1:])]
    placed: list[Rect] = []
    out = {}
    order = sorted(gmap.stations, key=lambda s: (-len(gmap.lines_at(s)), s))
    for s in order:
        name = gmap.name(s)
        w = pen.text_width(name, "sans", size)
        x, y = at[s]
        spots = []
        for g in (0.0, 1.6, 3.2):  # near the dot first, then a little further out
            spots += [(x + 1.8 + g, y - h / 2, "left"), (x - 1.8 - g, y - h / 2, "right"),
                      (x - w / 2, y + 1.8 + g, "centre"), (x - w / 2, y - 1.8 - h - g, "centre"),
                      (x + 1.4 + g, y + 1.2 + g, "left"), (x + 1.4 + g, y - 1.2 - h - g, "left"),
                      (x - 1.4 - g, y + 1.2 + g, "right"), (x - 1.4 - g, y - 1.2 - h - g, "right")]
        best = None
        for sx, sy, align in spots:
            left = sx if align == "left" else (sx - w if align == "right" else sx)
            box = Rect(left, sy, w, h)
            own = Rect(x - 1.2, y - 1.2, 2.4, 2.4)
            clash = sum(_overlaps(box, p) for p in placed) * 100 + sum(
                _overlaps(box, d) for d in dots if d != own) * 100 + sum(_segment_hits(box, p, q) for p, q in segs)
            clash += 1000 * (box.x < area.x or box.right > area.right or box.y < area.y or box.top > area.top)
            clash += spots.index((sx, sy, align)) // 8 * 0.5  # prefer the nearer ring of spots
            if best is None or clash < best[0]:
                best = (clash, box, (sx if align != "centre" else sx + w / 2, sy, align))
            if clash == 0:
                break
        placed.append(best[1])
        out[s] = best[2]
    return out


def map_page(pen: Pen, gmap: GameMap) -> None:
    s = pen.safe
    pen.text(s.x, s.top - 6, gmap.recipe.texts("map_title")[0], font="sans-bold", size=12,
             colour=INK)
    legend_w = 42
    box = Rect(s.x + 22, s.y + 4, s.w - legend_w - 40, s.h - 16)
    at = relax(gmap, _project(gmap, box))
    lines = sorted(gmap.runs)
    shared: dict[frozenset, list[str]] = {}
    for line in lines:
        run = gmap.runs[line].stations
        for a, b in zip(run, run[1:]):
            shared.setdefault(frozenset((a, b)), []).append(line)
    for pair, on in shared.items():  # lines sharing a segment are drawn side by side
        a, b = sorted(pair)
        (x1, y1), (x2, y2) = at[a], at[b]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        for i, line in enumerate(on):
            off = (i - (len(on) - 1) / 2) * 1.0
            pen.line(x1 + nx * off, y1 + ny * off, x2 + nx * off, y2 + ny * off,
                     stroke=gmap.lines[line].colour, width=1.0)
    for st in gmap.stations:
        x, y = at[st]
        inter = len(gmap.lines_at(st)) > 1
        pen.circle(x, y, 1.1 if inter else 0.8, fill="#FFFFFF", stroke=INK, width=0.35 if inter else 0.25)
    size = 6.0
    for st, (x, y, align) in place_labels(pen, gmap, at, size, Rect(s.x, s.y, s.w - legend_w, s.h - 10)).items():
        pen.text(x, y, gmap.name(st), size=size, colour=INK, align=align, field="label")
    lx, ly = s.right - legend_w, s.top - 18
    pen.text(lx, ly, "Lines", font="sans-bold", size=9, colour=INK)
    for line in lines:
        ly -= 6
        pen.rect(lx, ly, 8, 2.2, fill=gmap.lines[line].colour)
        pen.text(lx + 10, ly + 0.2, gmap.lines[line].name, size=7.5, colour=INK)
    ly -= 8
    pen.circle(lx + 4, ly + 1, 1.1, fill="#FFFFFF", stroke=INK, width=0.35)
    pen.text(lx + 10, ly + 0.2, "station", size=7.5, colour=INK)
    pen.text_box(Rect(lx, s.y + 4, legend_w, ly - s.y - 10),
                 " ".join(gmap.recipe.texts("map_note", stations=len(gmap.stations))),
                 size=6.5, min_size=4, colour=INK, align="left", valign="top", field="notes")


def rack_page(pen: Pen, gmap: GameMap) -> None:
    s = pen.safe
    slots, players = gmap.recipe.slots, gmap.recipe.players_max
    pen.text(s.x, s.top - 6, f"{gmap.recipe.name}: racks (slot 1 is the start of the journey)", font="sans-bold",
             size=12, colour=INK)
    row_h = (s.h - 12) / players
    w = (s.w - 10) / slots
    for p in range(players):
        y = s.top - 12 - (p + 1) * row_h
        pen.text(s.x, y + row_h - 5, f"Player {p + 1}", font="sans-bold", size=9, colour=INK)
        for k in range(slots):
            x = s.x + 5 + k * w
            pen.rect(x + 1, y + 3, w - 2, row_h - 12, stroke=INK, width=0.3, radius=2)
            pen.text(x + w / 2, y + 5, str(k + 1), font="sans-bold", size=10, colour=INK, align="centre")
            if k < slots - 1:
                pen.text(x + w, y + row_h / 2, ">", size=9, colour=RED, align="centre")


def documents(options: PrintOptions, network: Network, recipe: str | Path | None = None,
              copy_rule: str | None = None) -> list:
    """The builder for ``tubedeck build oneday``: the deck, the rules card, the map and rack sheets.

    The bundled recipe names London stations; on another city's dataset it raises NotApplicable
    (``build all`` then skips the game) unless a recipe for that city is given."""
    rec = load_recipe(recipe, copy_rule)
    try:
        gmap = derive_map(network, rec)
    except DataError as exc:
        if recipe is not None:
            raise
        first = exc.problems[0]
        raise NotApplicable(f"the bundled One Day in London recipe does not fit the dataset {network.source} "
                            f"({first.message}); build it with `tubedeck build oneday --data DIR --recipe FILE`") from None
    deck = build_deck(gmap)
    name = gmap.recipe.name
    back = partial(card_back, title=name)
    cards = [Card(c.id.replace("#", "-"), partial(card_front, card=c, gmap=gmap), label=f"{c.name} {c.copy_mark}")
             for c in deck.cards]
    rules = Card("rules", partial(rules_front, gmap=gmap), label="rules summary")
    return [
        Deck("stations", cards, back=back, title=f"{name}: {len(cards)} station cards"),
        Deck("rules", [rules], back=back, title=f"{name}: rules summary"),
        Sheet("map", (partial(map_page, gmap=gmap),), title=f"{name}: map", landscape=True),
        Sheet("racks", (partial(rack_page, gmap=gmap),), title=f"{name}: racks", landscape=True),
    ]
