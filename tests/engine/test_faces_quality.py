"""Print quality of every registered game's faces, read back from the real PDFs, on every card size.

For each game x card size: the whole build succeeds; then a sample of every deck (its first cards
plus the known hard cases) and every sheet is built again while :func:`tubedeck.generator.pen.recording`
notes each line of text with its field, and the PDF's spans (PyMuPDF) are checked:

* no text below 6 pt; play-relevant fields (:data:`PLAY`) at 7 pt or more;
* no two spans' boxes overlap on a page (touching within 0.1 mm is allowed);
* every span contrasts >= 4.5:1 with what is printed behind it (the page rasterised, the colours
  around the glyphs sampled);
* on cards, no two badges overlap (a badge: a small closed shape filled white with an outline,
  such as a Connection Number's pill or a band's number chip).

The ruler block (field ``ruler``) is the engine's furniture, not a face: it is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from tubedeck import generator
from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator.colour import contrast
from tubedeck.generator.document import Deck, Pages
from tubedeck.generator.pen import Written, recording
from tubedeck.generator.sizes import MM

SIZES = ("poker", "bridge", "mini", "tarot", "square", "poker-landscape", "bridge-landscape", "mini-landscape",
         "tarot-landscape", "square-landscape", "60x90")
GAMES = tuple(registry())
MIN_PT, PLAY_PT, MIN_CONTRAST, TOUCH_MM = 6.0, 7.0, 4.5, 0.1
# Fields that play needs, per game and document, and one that every sampled page of it must show.
PLAY = {
    ("klm", "stations"): ({"number", "name", "nearest", "lines", "terminus", "frame"}, "number"),  # lines: Line Closure, in B&W; frame: its word
    ("klm", "fortune"): ({"name", "effect", "turns", "footer"}, "footer"),  # footer: the Fortune play rules
    ("klm", "reference"): ({"rules"}, "rules"),
    ("oneday", "stations"): ({"name", "before", "after", "legend"}, "before"),
    ("oneday", "rules"): ({"rules"}, "rules"),  # the rules summary is read in play: 7 pt, more cards instead
    ("sampler", "stations"): ({"name"}, "name"),
    ("dice", "sheet"): ({"heading", "row", "points", "passes", "rules"}, "points"),  # tables, pass track, rules
}
WIDEST = {"klm": {"scope": "all"}}  # editions whose hard cases lie outside the default scope
FIRST = 3  # cards sampled from the start of each deck, besides the hard cases below
HARD = {  # card ids that stress a face: most connections, lines, facts; longest names and texts
    ("klm", "stations"): ("baker-street", "kings-cross-st-pancras", "hammersmith-district-piccadilly",
                          "west-brompton", "liverpool-street", "edgware-road-bakerloo", "paddington-hammersmith-city",
                          "earls-court", "heathrow-terminal-5", "turnham-green", "bank"),
    ("klm", "fortune"): ("signal-failure-1", "step-free-upgrade-1", "lost-property-1", "engineering-works-1",
                         "fare-top-up-1", "doors-closing-1", "rush-hour-1", "ticket-inspection-1", "good-service-1",
                         "line-closure-1"),
    ("oneday", "stations"): ("kings-cross-st-pancras-1", "baker-street-1", "edgware-road-hammersmith-city-1",
                             "high-street-kensington-1", "bank-1"),
    ("sampler", "stations"): ("kings-cross-st-pancras", "hammersmith-district-piccadilly", "heathrow-terminals-2-3",
                              "baker-street", "brixton"),  # bands no plain black or white reads on in grey
}


@dataclass(frozen=True)
class Span:
    doc: str
    page: int
    text: str
    size: float
    colour: tuple[float, float, float]
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in pt, y down (PyMuPDF)
    field: str | None  # from the Pen's recording; None if no recorded line matched


@dataclass
class Report:
    spans: list[Span] = field(default_factory=list)
    overlaps: list[tuple[str, str, str]] = field(default_factory=list)  # (document, text, text)
    contrasts: list[tuple[float, str, str]] = field(default_factory=list)  # (ratio, document, text)
    greys: list[tuple[float, str, str]] = field(default_factory=list)  # the same, on a black-and-white printer
    play: dict[str, set[str]] = field(default_factory=dict)  # document -> fields seen
    badges: list[tuple[str, int, tuple, tuple]] = field(default_factory=list)  # (document, page, box, box)


def sample(deck: Deck, game: str) -> Deck:
    hard = HARD.get((game, deck.name), ())
    ids = {c.id for c in deck.cards[:FIRST]} | set(hard)
    cards = [c for c in deck.cards if c.id in ids]
    assert {c.id for c in cards} >= set(hard), f"{game}/{deck.name}: hard cases missing"
    return Deck(deck.name, cards, back=deck.back, size=deck.size, title=deck.title)


def match(spans: list[dict], log: list[Written], page: int, height_mm: float) -> list[tuple[dict, str | None]]:
    """Each span with the field of the recorded line drawn at its origin (same page, within 0.3 mm)."""
    here = [w for w in log if w.page == page]
    out = []
    for s in spans:
        x, y = s["origin"][0] / MM, height_mm - s["origin"][1] / MM
        best = min(here, key=lambda w: (w.x - x) ** 2 + (w.y - y) ** 2, default=None)
        ok = best is not None and abs(best.x - x) < 0.3 and abs(best.y - y) < 0.3 and abs(best.size - s["size"]) < 0.05
        out.append((s, best.field if ok else None))
    return out


LUMA = np.array([0.299, 0.587, 0.114])


def background_contrast(pix: np.ndarray, scale: float, span: Span, grey: bool = False) -> float | None:
    """Contrast of the span's colour against the colours printed around its glyphs (each colour
    covering >= 10% of the span's box, other than the text's own colour and its antialiasing).
    ``grey``: as a black-and-white printer prints the page, every colour its luminance grey (worked
    out for the span's box alone: the whole page's grey, for every page, was a quarter of the time)."""
    x0, y0, x1, y1 = (int(round(v * scale)) for v in span.box)
    region = pix[max(0, y0):max(0, y1), max(0, x0):max(0, x1)].reshape(-1, 3)
    if grey:
        region = np.repeat((region @ LUMA)[:, None], 3, axis=1).round().astype(np.uint8)
    region = region.astype(np.int32)
    if len(region) < 4:
        return None
    text = np.array([round(c * 255) for c in span.colour])
    packed = (region[:, 0] << 16) | (region[:, 1] << 8) | region[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    worst = None
    for v, n in zip(values, counts):
        if n < 0.10 * len(region):
            continue
        rgb = np.array([(v >> 16) & 255, (v >> 8) & 255, v & 255])
        if np.abs(rgb - text).max() <= 24:
            continue
        ratio = contrast(tuple(rgb / 255), span.colour)
        worst = ratio if worst is None else min(worst, ratio)
    return worst


def badge_overlaps(page, doc_name: str, index: int) -> list[tuple[str, int, tuple, tuple]]:
    """Small white-filled outlined shapes (badges) whose boxes overlap by more than 0.1 mm."""
    big, tol = 12 * MM, TOUCH_MM * MM
    shapes = [d["rect"] for d in page.get_drawings() if d["type"] == "fs" and d.get("fill")
              and min(d["fill"]) > 0.97 and d["rect"].width < big and d["rect"].height < big]
    out = []
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            if min(a.x1, b.x1) - max(a.x0, b.x0) > tol and min(a.y1, b.y1) - max(a.y0, b.y0) > tol:
                out.append((doc_name, index, tuple(round(v / MM, 1) for v in a), tuple(round(v / MM, 1) for v in b)))
    return out


def inspect(pdf: Path, log: list[Written], doc_name: str, cards: bool) -> Report:
    report = Report(play={doc_name: set()})
    with pymupdf.open(pdf) as d:
        for index, page in enumerate(d):
            h_mm = page.rect.height / MM
            raw = [s for b in page.get_text("dict")["blocks"] for ln in b.get("lines", []) for s in ln["spans"]
                   if s["text"].strip()]
            spans = []
            for s, name in match(raw, log, index + 1, h_mm):
                if name == "ruler":
                    continue  # the engine's ruler block: not a face
                c = s["color"]
                rgb = ((c >> 16 & 255) / 255, (c >> 8 & 255) / 255, (c & 255) / 255)
                spans.append(Span(doc_name, index + 1, s["text"], s["size"], rgb, tuple(s["bbox"]), name))
            report.spans += spans
            if cards:
                report.badges += badge_overlaps(page, doc_name, index + 1)
            report.play[doc_name] |= {s.field for s in spans if s.field}
            tol = TOUCH_MM * MM
            ordered = sorted(spans, key=lambda s: s.box[0])
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    if b.box[0] >= a.box[2] - tol:
                        break
                    if min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > tol:
                        report.overlaps.append((doc_name, a.text, b.text))
            scale = 200 / 72
            pm = page.get_pixmap(dpi=200, alpha=False)
            pix = np.frombuffer(pm.samples, dtype=np.uint8).reshape(pm.height, pm.width, pm.n)[:, :, :3]
            for s in spans:
                ratio = background_contrast(pix, scale, s)
                if ratio is not None:
                    report.contrasts.append((ratio, doc_name, s.text))
                # a black-and-white printer's page: every colour turned into its luminance grey
                lum = sum(w * c for w, c in zip((0.299, 0.587, 0.114), s.colour))
                ratio = background_contrast(pix, scale, replace(s, colour=(lum, lum, lum)), grey=True)
                if ratio is not None:
                    report.greys.append((ratio, doc_name, s.text))
    return report


_CACHE: dict[tuple[str, str], Report] = {}


def built(game_id: str, size: str, tmp: Path) -> Report:
    """Build the game at this size (everything: it must succeed), then inspect a sample."""
    key = (game_id, size)
    if key not in _CACHE:
        game = registry()[game_id]
        options = generator.PrintOptions.parse(card=size, export="pdf")
        docs = resolve(game.faces)(edition(game, **WIDEST.get(game_id, {})), options)
        generator.render([d for d in docs if isinstance(d, Deck)], options, tmp / "full")
        report = Report()
        for doc in docs:
            part = doc if isinstance(doc, Pages) else sample(doc, game_id)
            with recording() as log:
                generator.render([part], options, tmp / doc.name)
            one = inspect(next((tmp / doc.name).glob("*.pdf")), log, doc.name, isinstance(doc, Deck))
            report.spans += one.spans
            report.overlaps += one.overlaps
            report.contrasts += one.contrasts
            report.greys += one.greys
            report.badges += one.badges
            report.play.update(one.play)
        _CACHE[key] = report
    return _CACHE[key]


@pytest.fixture(params=[(g, s) for g in GAMES for s in SIZES], ids=lambda p: f"{p[0]}-{p[1]}")
def report(request, tmp_path_factory) -> tuple[str, str, Report]:
    game, size = request.param
    return game, size, built(game, size, tmp_path_factory.mktemp(f"{game}-{size}"))


@pytest.mark.slow
def test_text_is_at_least_6pt_and_play_fields_7pt(report):
    game, size, rep = report
    small = sorted({(round(s.size, 2), s.field, s.text) for s in rep.spans if s.size < MIN_PT - 0.01})
    assert not small, f"{game} {size}: text below {MIN_PT} pt: {small[:8]}"
    for (g, doc), (_fields, must) in PLAY.items():
        if g != game:
            continue
        assert must in rep.play.get(doc, set()), f"{game}/{doc} {size}: no {must!r} text found"
    low = sorted({(round(s.size, 2), s.doc, s.field, s.text) for s in rep.spans
                  if s.field in PLAY.get((game, s.doc), ((), ""))[0] and s.size < PLAY_PT - 0.01})
    assert not low, f"{game} {size}: play text below {PLAY_PT} pt: {low[:8]}"


def test_no_two_texts_overlap(report):
    game, size, rep = report
    assert not rep.overlaps, f"{game} {size}: overlapping text: {rep.overlaps[:8]}"
    assert not rep.badges, f"{game} {size}: overlapping badges: {rep.badges[:8]}"


def test_text_contrasts_with_what_is_behind_it(report):
    game, size, rep = report
    low = sorted({(round(r, 2), doc, text) for r, doc, text in rep.contrasts if r < MIN_CONTRAST})
    assert not low, f"{game} {size}: contrast below {MIN_CONTRAST}:1: {low[:8]}"
    assert len(rep.contrasts) >= 0.8 * len(rep.spans)  # nearly every span was measured


def test_text_contrasts_on_a_black_and_white_printer(report):
    """The same page as a black-and-white printer prints it (each colour its luminance grey): the
    One Day band's black "Bakerloo" was 4.70:1 in colour and 4.25:1 in grey (now on a plate)."""
    game, size, rep = report
    low = sorted({(round(r, 2), doc, text) for r, doc, text in rep.greys if r < MIN_CONTRAST})
    assert not low, f"{game} {size}: contrast in greyscale below {MIN_CONTRAST}:1: {low[:8]}"
