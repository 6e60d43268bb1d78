"""Issue 27, read back from the PDFs a build writes: TERMINUS only at the real ends of every line
serving a station (scope edges are not ends), text at least 1.5 mm inside every drawn frame on
every card size, and the reference card's Setup line saying what the deal does."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pymupdf
import pytest

from tubedeck.games.klm.cards import build_deck
from tubedeck.games.klm.edition import load
from tubedeck.games.klm.play import new_game
from tubedeck.games.klm.scope import parse_scope

from conftest import run_cli as run

MM = 72 / 25.4
PAD = 1.5  # mm
SIZES = ("poker", "bridge", "mini", "tarot", "square",
         "poker-landscape", "bridge-landscape", "mini-landscape", "tarot-landscape", "square-landscape", "60x90")


def build(capsys, out: Path, *args: str) -> Path:
    code, _, err = run(capsys, "build", "klm", "--export", "cards", "--out", str(out), *args)
    assert code == 0, err
    return out / "klm"


def fronts(pdf: Path) -> list[pymupdf.Page]:
    """The card fronts of a one-card-per-page PDF (front, back, front, back...)."""
    doc = pymupdf.open(pdf)
    return [doc[i] for i in range(0, doc.page_count, 2)]


# -- 13. Terminus: the real end of every line serving the station -------------------------------
def card_name(page: pymupdf.Page) -> str:
    """A Station Card front's name: its largest type, lines joined (a line ending in a hyphen
    was broken at it)."""
    spans = [(span["size"], span["text"]) for block in page.get_text("dict")["blocks"]
             for line in block.get("lines", ()) for span in line["spans"] if span["text"].strip()]
    big = max(size for size, _ in spans)
    name = ""
    for size, text in spans:
        if size == big:
            name += text.strip() if not name or name.endswith("-") else " " + text.strip()
    return name


def real_termini(net) -> set[str]:
    """Stations with exactly one neighbour on every line serving them, over the whole network
    (read from the routes here, not from the deck code)."""
    neighbours: dict[tuple[str, str], set[str]] = {}
    for b in net.branches:
        for a, c in b.pairs:
            neighbours.setdefault((a, b.line), set()).add(c)
            neighbours.setdefault((c, b.line), set()).add(a)
    by_station: dict[str, list[set[str]]] = {}
    for (s, _), ns in neighbours.items():
        by_station.setdefault(s, []).append(ns)
    return {s for s, sets in by_station.items() if all(len(ns) == 1 for ns in sets)}


@pytest.mark.parametrize("scope", ["core", "inner", "london"])
def test_terminus_is_printed_only_at_real_ends_of_every_line(tmp_path, capsys, london, scope):
    ends = real_termini(london)
    deck = build_deck(london, parse_scope(scope, london))
    pages = fronts(build(capsys, tmp_path, "--scope", scope) / "stations-cards.pdf")
    assert len(pages) == len(deck.cards)
    by_name = {c.name: c.station for c in deck.cards}
    printed = set()
    for page in pages:
        station = by_name[card_name(page)]
        if re.search(r"\bTERMINUS\b", page.get_text()):
            printed.add(station)
    expected = ends & {c.station for c in deck.cards}
    assert printed == expected
    assert load(london, scope).termini == expected  # the checker and the play engine read the same set
    names = {c.station: c.name for c in deck.cards}
    if scope == "core":
        # the scope's edge stations: the lines go on outside zone 1
        for edge in ("Aldgate East", "Paddington (Hammersmith & City)", "Vauxhall"):
            assert edge in names.values() and edge not in {names[s] for s in printed}
        assert {names[s] for s in printed} == {"Battersea Power Station"}
    if scope == "london":
        assert {"Morden", "Ealing Broadway"} <= {names[s] for s in printed}
        assert "Elephant & Castle" not in {names[s] for s in printed}  # the Northern runs on


# -- 14. Padding inside every frame, every card size --------------------------------------------
def frames(page: pymupdf.Page) -> list[tuple]:
    """Drawn frames, by their inner edge: stroked outlines round most of the card (a Station
    Card's outline and its edging lines, a back's frame), and the stroked discs that hold a Fortune
    Card's duration."""
    w, h = page.rect.width, page.rect.height
    out: list[tuple] = []
    for d in page.get_drawings():
        if d.get("color") is None or not d.get("width"):
            continue
        r, half = d["rect"], d["width"] / 2
        if r.width > 0.6 * w and r.height > 0.6 * h:
            out.append(("rect", pymupdf.Rect(r.x0 + half, r.y0 + half, r.x1 - half, r.y1 - half)))
        elif (d.get("fill") is not None and abs(r.width - r.height) < 0.5 and r.width > 5 * MM
              and any(item[0] == "c" for item in d["items"])):
            out.append(("disc", (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2, r.width / 2 - half))
    return out


def text_boxes(page: pymupdf.Page):
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                if span["text"].strip():
                    yield span["text"], pymupdf.Rect(span["bbox"])


def padding(frame: tuple, box: pymupdf.Rect) -> float | None:
    """mm from the frame's inner edge to the text box inside it (None: the box is not inside)."""
    if frame[0] == "rect":
        inner = frame[1]
        if not inner.intersects(box):
            return None
        return min(box.x0 - inner.x0, box.y0 - inner.y0, inner.x1 - box.x1, inner.y1 - box.y1) / MM
    _, cx, cy, r = frame
    if math.hypot((box.x0 + box.x1) / 2 - cx, (box.y0 + box.y1) / 2 - cy) > r:
        return None
    return (r - max(math.hypot(x - cx, y - cy) for x in (box.x0, box.x1) for y in (box.y0, box.y1))) / MM


@pytest.mark.parametrize("size", SIZES)
def test_text_keeps_its_padding_inside_every_frame(tmp_path, capsys, size):
    out = build(capsys, tmp_path, "--card", size)
    measured = {"rect": 0, "disc": 0}
    worst: list[tuple[float, str, int, str]] = []
    for pdf in sorted(out.glob("*-cards.pdf")):
        for n, page in enumerate(pymupdf.open(pdf)):
            found = frames(page)
            for text, box in text_boxes(page):
                for frame in found:
                    pad = padding(frame, box)
                    if pad is not None:
                        measured[frame[0]] += 1
                        worst.append((pad, pdf.name, n, text))
    assert measured["rect"] > 100 and measured["disc"] > 10, measured  # outlines and discs were found
    low = sorted(w for w in worst if w[0] < PAD - 1e-3)
    assert not low, low[:5]


def test_a_too_small_frame_would_be_caught():
    """The measure sees a text box 1 mm inside an outline."""
    doc = pymupdf.open()
    page = doc.new_page(width=63.5 * MM, height=88.9 * MM)
    page.draw_rect(pymupdf.Rect(3 * MM, 3 * MM, 60.5 * MM, 85.9 * MM), color=(0, 0, 0), width=0.9 * MM)
    page.insert_text((4.5 * MM, 12 * MM), "Nearest stations", fontsize=6.5)
    pads = [padding(f, box) for f in frames(page) for _, box in text_boxes(page)]
    assert pads and min(p for p in pads if p is not None) < PAD


# -- 7. The reference card's deal count ---------------------------------------------------------
def test_reference_card_prints_the_deal_the_engine_makes(tmp_path, capsys, london):
    ed = load(london)
    text = " ".join(page.get_text() for page in pymupdf.open(build(capsys, tmp_path) / "reference-cards.pdf"))
    text = " ".join(text.replace("-\n", "").split())
    said = re.search(r"Deal (\d+) Station Cards to each player, one at a time; no Fortune Cards", text)
    assert said, text
    assert "the highest starts (ties roll again)" in text
    hand = int(said.group(1))
    assert hand == ed.rules.hand
    for seed in range(5):
        d = ed.deal(4, seed)
        assert [len(h) for h in d.hands] == [hand] * 4
        dealt = d.station_stock[: hand * 4]
        assert all(d.hands[p] == dealt[p::4] for p in range(4))  # one at a time, round the table
        contenders = list(range(4))  # the highest roll starts; the tied roll again
        for rolls in d.opening_rolls:
            contenders = [c for c, r in zip(contenders, rolls, strict=True) if r == max(rolls)]
        assert contenders == [d.starter]
        game = new_game(ed, 4, seed)
        assert all(h == () for h in game.fortune_hands) and [len(h) for h in game.hands] == [hand] * 4
