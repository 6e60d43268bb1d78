"""Issue 27 items 10-12, read off what is built: the default map by the recipe's own measure, the
section boxes and crossings on the printed map, the solo rules on the challenge page."""

from __future__ import annotations

import math
from pathlib import Path

import pymupdf
import pytest

from tubedeck.errors import DataError
from tubedeck.games.dice.board import nested_lines
from tubedeck.games.dice.edition import load
from tubedeck.games.dice.play import lines_target
from tubedeck.games.dice.recipe import load_recipe
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.dice.faces import documents
from tubedeck.generator.dice.layout import CROSS_CLEAR, RADIUS
from tubedeck.generator.sizes import MM
from tubedeck.network import Network
from tubedeck.solver.dice.balance import edition_figures, long_lines, verdict
from tubedeck.stats import wilson

ROOT = Path(__file__).resolve().parents[2]
WHITE = (1.0, 1.0, 1.0)


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory):
    """The default edition with challenge 3, rendered: (edition, open PDF, the page's map area in pt)."""
    ed = load(Network.load(), challenge="3")
    opts = PrintOptions.parse(export="pdf", paper=request.param)
    out = tmp_path_factory.mktemp(request.param)
    render(documents(ed, opts), opts, out)
    pdf = pymupdf.open(out / "sheet.pdf")
    yield ed, pdf
    pdf.close()


def _map_right(page) -> float:
    """x (pt) where the map area ends: left of the column, whose title is the page's 14 pt text."""
    spans = [s for bl in page.get_text("dict")["blocks"] for ln in bl.get("lines", []) for s in ln["spans"]]
    return min(s["bbox"][0] for s in spans if s["size"] > 13)


def _circles(page, right: float) -> list[tuple[float, float]]:
    """Station circles: white-filled, stroked, RADIUS mm round, in the map area (pt)."""
    out = []
    for d in page.get_drawings():
        r = d["rect"]
        if (d.get("fill") == WHITE and d.get("color") is not None and r.x1 < right
                and abs(r.width - 2 * RADIUS * MM) < 0.3 and abs(r.height - 2 * RADIUS * MM) < 0.3):
            out.append(((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2))
    return out


def test_section_boxes_take_a_pencil_mark(built):
    """Item 11: every section box on the map is 3-3.5 mm a side, one per section."""
    ed, pdf = built
    for page in pdf:
        right = _map_right(page)
        sides = []
        for d in page.get_drawings():
            items = d["items"]
            if (d.get("fill") == WHITE and len(items) == 4 and all(i[0] == "l" for i in items)
                    and d["rect"].x1 < right):
                sides.extend(math.dist(i[1], i[2]) / MM for i in items)
            elif d.get("fill") == WHITE and len(items) == 1 and items[0][0] in ("re", "qu") and d["rect"].x1 < right:
                q = items[0][1].quad if items[0][0] == "re" else items[0][1]  # a box square to the page
                corners = (q.ul, q.ur, q.lr, q.ll)
                sides.extend(math.dist(p, r) / MM for p, r in zip(corners, corners[1:] + corners[:1]))
        assert len(sides) == 4 * sum(c.sections for c in ed.board.connections)
        assert 3.0 <= min(sides) and max(sides) <= 3.5, (min(sides), max(sides))


def test_no_crossing_near_a_station_circle(built):
    """Item 11: two connections with no station in common never cross within CROSS_CLEAR mm of a
    station circle's edge (the printed strokes, side-by-side lines included)."""
    ed, pdf = built
    for page in pdf:
        right = _map_right(page)
        at = _circles(page, right)
        assert len(at) == len(ed.board.stations)
        segs = set()
        for d in page.get_drawings():
            if (len(d["items"]) == 1 and d["items"][0][0] == "l" and (d.get("width") or 0) >= 0.6 * MM
                    and d.get("color") not in (None, WHITE) and d["rect"].x1 < right):
                _, p, q = d["items"][0]
                segs.add((round(p.x, 2), round(p.y, 2), round(q.x, 2), round(q.y, 2)))
        ends = [(g, {_nearest(at, g[0], g[1]), _nearest(at, g[2], g[3])}) for g in segs]
        assert len(segs) >= len(ed.board.connections)
        closest = math.inf
        for i, (a, sa) in enumerate(ends):
            for b, sb in ends[:i]:
                if sa & sb:
                    continue
                x = _crossing(a, b)
                if x is not None:
                    closest = min(closest, min(math.dist(x, c) for c in at) / MM - RADIUS)
        assert closest >= CROSS_CLEAR, f"a crossing {closest:.1f} mm from a station circle"


def _nearest(at: list[tuple[float, float]], x: float, y: float) -> int:
    """The station circle a stroke's end belongs to (side-by-side strokes end off its centre)."""
    return min(range(len(at)), key=lambda k: math.dist(at[k], (x, y)))


def _crossing(a, b):
    (x1, y1, x2, y2), (x3, y3, x4, y4) = a, b
    rx, ry, qx, qy = x2 - x1, y2 - y1, x4 - x3, y4 - y3
    den = rx * qy - ry * qx
    if abs(den) < 1e-9:
        return None
    t = ((x3 - x1) * qy - (y3 - y1) * qx) / den
    u = ((x3 - x1) * ry - (y3 - y1) * rx) / den
    return (x1 + t * rx, y1 + t * ry) if 0 <= t <= 1 and 0 <= u <= 1 else None


def test_the_challenge_page_prints_the_solo_rules_the_engine_plays(built):
    """Item 12: the challenge page states the solo end rule, passes and roll count its best score
    depends on, with the engine's numbers; the sheet page does not."""
    ed, pdf = built
    r = ed.rules
    text = " ".join(pdf[1].get_text().split())
    solo = " ".join(ed.solo_rules().split())
    assert solo in text
    assert f"The game ends after the roll in which you complete {lines_target(ed)} lines, or after roll " \
           f"{r.challenge_turns}." in solo
    assert f"You have {r.passes_of(0)} passes." in solo
    assert len(ed.challenge.rolls.turns) == r.challenge_turns  # the page's rolls are the rolls the end rule counts
    assert "Solo rules" not in " ".join(pdf[0].get_text().split())
    spans = [s for bl in pdf[1].get_text("dict")["blocks"] for ln in bl.get("lines", []) for s in ln["spans"]]
    first = next(i for i, s in enumerate(spans) if s["text"].startswith("Solo rules"))
    said, k = "", first
    while len(said) < len(solo):  # the paragraph's spans, in order
        said = f"{said} {spans[k]['text']}".strip()
        k += 1
    assert " ".join(said.split()) == solo
    assert min(s["size"] for s in spans[first:k]) >= 7.0 - 0.01  # play text
    page_rect = pdf[1].rect
    for s in spans:  # all of it on the page
        assert page_rect.contains(pymupdf.Rect(s["bbox"]))


def test_the_solo_rules_follow_the_map():
    """On a map with fewer lines than lines_to_end the solo text says every line (the engine's target)."""
    ed = load(Network.load(ROOT / "tests" / "data" / "tinycity"))
    assert f"complete {lines_target(ed)} lines" in ed.solo_rules()
    assert lines_target(ed) == min(ed.rules.lines_to_end, len(ed.board.lines))


def test_the_default_map_has_zones_and_no_nested_lines():
    """Item 10: at least [measure] zones_min zones, no line whose stations are all another's."""
    ed = load(Network.load())
    m = ed.recipe.measure
    assert m is not None
    b = ed.board
    assert len(b.zones) >= m.zones_min >= 2
    assert all(len(z.stations) >= 2 for z in b.zones)
    assert nested_lines(b) == ()
    for a in b.lines:
        for o in b.lines:
            assert a is o or not set(a.stations) <= set(o.stations), (a.id, o.id)
    assert len(long_lines(b)) >= 2


def test_a_recipe_whose_own_map_nests_lines_is_refused(tmp_path):
    """The old default (Circle = Hammersmith & City round Oxford Circus) fails the recipe's check."""
    text = (ROOT / "data" / "dice" / "recipe.toml").read_text()
    rec = load_recipe()
    old = tmp_path / "r.toml"
    old.write_text(text.replace(f'scope = "{rec.map.scope}"', 'scope = "zone 1 within 1.9 km"')
                   .replace(f'star = "{rec.map.star}"', 'star = "oxford-circus"'))
    with pytest.raises(DataError, match=r"map.scope.*nested lines.*Hammersmith & City"):
        load(Network.load(), recipe=old)
    assert nested_lines(load(Network.load(), scope="zone 1 within 1.9 km").board)  # a player's --scope may


def test_the_default_map_meets_the_recipes_measure_with_lookahead_bots():
    """Item 10, played: lookahead players (the recipe's [measure] bots) on the default map and
    points, 40 games per table: zone completions in 10-40% of games, a long line completed in most.
    (docs/dice.md has the full measure, 600 games per table.) The 95% interval of each share must
    reach into the bounds, and the observed share over all tables must lie inside them."""
    ed = load(Network.load())
    m = ed.recipe.measure
    assert m is not None
    fig = edition_figures(ed, 40, m.bots)
    zone, long = fig.total("zone_share"), fig.total("long_share")
    assert verdict(fig, ed.recipe) == [], (zone, long)
    lo, hi = wilson(zone.k, zone.n)
    assert lo <= m.zone_share_max and hi >= m.zone_share_min
    assert wilson(long.k, long.n)[1] > m.long_share_min


def test_the_measure_rejects_the_old_map():
    """The measure's verdict names what was wrong with the old default (one zone, nested lines)."""
    ed = load(Network.load(), scope="zone 1 within 1.9 km")
    fig = edition_figures(ed, 2, "greedy")
    missed = " ".join(verdict(fig, ed.recipe))
    assert "1 zone(s)" in missed and "nested lines" in missed


def test_the_docs_build_example_with_a_scope_builds(capsys, tmp_path):
    """docs/dice.md's `build dice ... --scope "..."` example exits 0 (it exited 2 before issue 27)."""
    import re

    from conftest import run_cli

    line = next(t for t in (ROOT / "docs" / "dice.md").read_text().splitlines() if "tubedeck build dice" in t)
    scope = re.search(r'--scope "([^"]+)"', line)
    assert scope is not None, line
    code, _, err = run_cli(capsys, "build", "dice", "--sheets", "1", "--scope", scope.group(1), "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "dice" / "sheet.pdf").exists()


def test_a_bad_measure_is_located(tmp_path):
    text = (ROOT / "data" / "dice" / "recipe.toml").read_text()
    assert "zone_share_min = 0.10" in text
    bad = tmp_path / "r.toml"
    bad.write_text(text.replace("zone_share_min = 0.10", "zone_share_min = 0.60"))
    with pytest.raises(DataError, match="min <= max") as exc:
        load_recipe(bad)
    assert {p.column for p in exc.value.problems} == {"measure"}


def test_each_rows_points_sit_clear_inside_their_pill(built):
    """The lines and zones tables' points (a bold "10" or "12" among them) had 0.25 mm to a 4 mm
    ring. Read off the page: every number is at least 0.6 mm inside its pill on either side, and
    every pill keeps 0.3 mm from the rules above and below its row."""
    from tubedeck.generator.dice.faces import POINTS_H, POINTS_W

    ed, pdf = built
    page = pdf[0]
    pills = [d["rect"] for d in page.get_drawings()
             if abs(d["rect"].width / MM - POINTS_W) < 0.05 and abs(d["rect"].height / MM - POINTS_H) < 0.05]
    rules = [d["rect"] for d in page.get_drawings()
             if d.get("color") and all(abs(c - 0xBB / 255) < 0.01 for c in d["color"])]  # the rows' #BBBBBB rules
    rows = len(ed.board.lines) + len(ed.board.zones)
    assert len(pills) == 2 * rows and len(rules) >= rows
    numbers = [w for w in page.get_text("words") if w[4].isdigit()]
    two_digit = 0
    for pill in pills:
        inside = [w for w in numbers if pill.x0 <= (w[0] + w[2]) / 2 <= pill.x1 and pill.y0 <= (w[1] + w[3]) / 2 <= pill.y1]
        assert len(inside) == 1, pill
        x0, _, x1, _, text = inside[0][:5]
        two_digit += len(text) == 2
        assert min(x0 - pill.x0, pill.x1 - x1) / MM >= 0.6, (text, pill)
        for rule in rules:
            if rule.x0 <= pill.x0 and rule.x1 >= pill.x1:  # a rule under or over this column
                gap = min(abs(rule.y0 - pill.y1), abs(pill.y0 - rule.y1))
                assert gap / MM >= 0.3 or rule.y0 > pill.y1 + 3 * MM or rule.y1 < pill.y0 - 3 * MM
    assert two_digit >= 1  # the default map's longest line scores 10
