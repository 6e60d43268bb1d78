"""Issue 44 point 3, the graphic identity (``tubedeck.generator.identity``), read back from rendered
backs: every deck of every game (default build) has a designed back that, in colour, greyscale and
ink-saver, is neither blank nor like any other deck's back, names its game in print, keeps the flat
ground at its edges (the drift rule), and draws no circle (no roundel); each game prints a cover
card; the title mark stays inside its box at every shape."""

from __future__ import annotations

import io
from itertools import combinations

import numpy as np
import pymupdf
import pytest

from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator import Deck, PrintOptions
from tubedeck.generator.colour import Mode
from tubedeck.generator.identity import IDENTITIES, title_mark
from tubedeck.generator.pdf import draw_face, new_canvas
from tubedeck.generator.pen import PdfPen, recording
from tubedeck.generator.sizes import CARD_SIZES, CardGeometry, Rect, parse_card
from tubedeck.generator.theme import MIN_PT, PLAY_PT

GAMES = ("klm", "oneday", "nextstation", "dice", "keepmoving", "sampler")
MODES = ("colour", "greyscale", "ink-saver")
DPI = 60
PX = 25.4 / DPI  # mm per pixel
INKED = 0.04  # share of the safe area a back's design must mark off its ground, at least
APART = 6.0  # mean grey-level difference (0-255) between any two backs, at least
# Decks whose cards are double-sided, each its own back (side B of a ground card): no deck back.
TWO_SIDED = {("keepmoving", "ground")}


def backs_of(game: str, mode: str) -> list[tuple[str, object, Deck]]:
    """(label, face, deck) for every distinct back of the game's default build: each deck's shared
    back and every card's own back (the cover card's, the setup card's); one face shared by two decks
    (Keep Moving's movement and function piles) counts once."""
    g = registry()[game]
    docs = resolve(g.faces)(edition(g), PrintOptions.parse(export="pdf", mode=mode))
    seen: dict[int, tuple[str, object, Deck]] = {}
    for d in docs:
        if not isinstance(d, Deck) or (game, d.name) in TWO_SIDED:
            continue
        for k, face in enumerate([d.back] + [c.back for c in d.cards]):
            if face is not None and id(face) not in seen:
                seen[id(face)] = (f"{game}/{d.name}" + ("" if k == 0 else f"/{d.cards[k - 1].id}"), face, d)
    return list(seen.values())


def render(face, mode: str, w: float = 63.5, h: float = 88.9) -> tuple[np.ndarray, str, list, list]:
    """The face alone on a page the size of the card (no bleed): (grey pixels, the page's text,
    the text runs drawn, the page's drawings)."""
    buf = io.BytesIO()
    m = Mode(mode)
    c = new_canvas(buf, w, h, "back", "test", m)
    with recording() as log:
        draw_face(c, face, (0.0, 0.0), CardGeometry(w, h), None, m, "test back")
        c.showPage()
        c.save()
    with pymupdf.open(stream=buf.getvalue()) as doc:
        page = doc[0]
        pix = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False)
        grey = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width).astype(float)
        return grey, page.get_text(), list(log), page.get_drawings()


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[tuple[str, str, np.ndarray, str, list, list]]]:
    """Per mode: (label, game, pixels, text, runs, drawings) of every back of every game."""
    out: dict[str, list] = {}
    for mode in MODES:
        for game in GAMES:
            for label, face, _ in backs_of(game, mode):
                out.setdefault(mode, []).append((label, game, *render(face, mode)))
    return out


def _safe(grey: np.ndarray) -> np.ndarray:
    """The pixels of the safe area (4 mm inside the trim), the top row first."""
    k = int(np.ceil(4.0 / PX))
    return grey[k:-k, k:-k]


def test_every_game_has_a_back_per_deck_and_a_cover(rendered):
    labels = {label for label, *_ in rendered["colour"]}
    for game in GAMES:
        g = registry()[game]
        docs = resolve(g.faces)(edition(g), PrintOptions.parse(export="pdf"))
        decks = [d for d in docs if isinstance(d, Deck) and (game, d.name) not in TWO_SIDED]
        assert decks, game
        for d in decks:
            assert d.back is not None or all(c.back is not None for c in d.cards), f"{game}/{d.name} has no back"
        if game != "sampler":  # the engine's proof sheet is no game: no cover
            assert "cover" in g.documents and any(lab.startswith(f"{game}/cover") for lab in labels), game


@pytest.mark.parametrize("mode", MODES)
def test_no_back_is_blank(rendered, mode):
    """Ink-saver prints no ground (the paper is the back) but still the mark, the name and the lines."""
    for label, _, grey, *_ in rendered[mode]:
        safe = _safe(grey)
        ground = np.median(grey[:3, :])  # the ground as printed at the card's top edge
        marked = float(np.mean(np.abs(safe - ground) > 40))
        coverage = float(np.mean(255 - safe) / 255)
        assert marked >= INKED, f"{label} ({mode}): only {marked:.1%} of the safe area marked"
        if mode == "ink-saver":
            assert coverage >= 0.03, f"{label}: ink coverage {coverage:.1%}"
            assert float(np.mean(255 - grey) / 255) <= 0.35, f"{label}: ink-saver back too dark"


@pytest.mark.parametrize("mode", MODES)
def test_no_two_backs_look_alike(rendered, mode):
    """Greyscale too: each deck of a game tells itself from the game's others (and from every other
    game's) by its art and its word, not by hue alone."""
    for (la, _, a, *_), (lb, _, b, *_) in combinations(rendered[mode], 2):
        diff = float(np.mean(np.abs(a - b)))
        assert diff >= APART, f"{la} and {lb} ({mode}): {diff:.1f} grey levels apart on average"


@pytest.mark.parametrize("mode", MODES)
def test_every_back_names_its_game_and_deck_in_print(rendered, mode):
    for label, game, _, text, runs, _ in rendered[mode]:
        flat = " ".join(text.split())
        assert IDENTITIES[game].name in flat, f"{label} ({mode}): {flat!r}"
        assert runs and min(r.size for r in runs) >= MIN_PT - 1e-6, label


def test_the_ground_is_flat_at_every_edge(rendered):
    """The drift rule: the ground runs flat from the trim to 3.5 mm inside it (past the 2 mm a 1.5 mm
    drift and 0.5 to spare leave short of the safe area, where the design starts), on every back."""
    k = int(3.5 / PX)  # the band, and the ground up to 3.5 mm in: the same flat colour (a back's
    # ground drawn from 3 mm inside the trim, as art once was, shows paper in the band and fails)
    for mode in MODES:
        for label, _, grey, *_ in rendered[mode]:
            band = np.concatenate([grey[:k].ravel(), grey[-k:].ravel(), grey[:, :k].ravel(), grey[:, -k:].ravel()])
            assert np.ptp(band) <= 3, f"{label} ({mode}): {np.ptp(band):.0f} grey levels at the edges"


def test_no_circle_on_any_back(rendered):
    """No roundel: nothing drawn only of curves (a ring or a disc) on any back."""
    for label, _, _, _, _, drawings in rendered["colour"]:
        rings = [d["rect"] for d in drawings if d["items"] and all(i[0] == "c" for i in d["items"])]
        assert not rings, f"{label}: {len(rings)} round shapes"


@pytest.mark.parametrize("game", sorted(IDENTITIES))
@pytest.mark.parametrize("box", [Rect(5, 5, 50, 20), Rect(5, 5, 30, 40), Rect(20, 30, 150, 40), Rect(5, 5, 22, 14)])
def test_the_title_mark_stays_in_its_box(game, box):
    """Every mark, wide or tall, large or a card corner's, keeps inside the box it is given (its
    strokes' half widths included) and prints no text under 6 pt."""
    out: list[tuple[float, float, float, float]] = []

    class Bounds(PdfPen):
        def _path(self, points, fill, stroke, width, closed, dash):
            pad = width / 2 if stroke is not None else 0.0
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            px = py = pad
            if len(points) == 2 and not closed:  # a segment's butt ends stop at its points
                (ax, ay), (bx, by) = points
                length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1.0
                px, py = pad * abs(by - ay) / length, pad * abs(bx - ax) / length
            out.append((min(xs) - px, min(ys) - py, max(xs) + px, max(ys) + py))

        def _rect(self, x, y, w, h, fill, stroke, width, radius):
            pad = width / 2 if stroke is not None else 0.0
            out.append((x - pad, y - pad, x + w + pad, y + h + pad))

        def _circle(self, cx, cy, r, fill, stroke, width):
            raise AssertionError(f"{game}: a circle in the title mark")

        def _text(self, x, y, text, font, size, colour, align, angle):
            w = self.text_width(text, font, size)
            left = {"left": x, "centre": x - w / 2, "right": x - w}[align]
            out.append((left, y, left + w, y + 0.73 * size * 25.4 / 72))

    buf = io.BytesIO()
    c = new_canvas(buf, 200, 100, "mark", "test", Mode.COLOUR)
    pen = Bounds(c, (0.0, 0.0), Rect(0, 0, 200, 100), Rect(0, 0, 200, 100), Rect(0, 0, 200, 100), Mode.COLOUR)
    with recording() as log:
        title_mark(pen, box, game)
    assert out and log
    x0, y0 = min(b[0] for b in out), min(b[1] for b in out)
    x1, y1 = max(b[2] for b in out), max(b[3] for b in out)
    tol = 0.05
    assert box.x - tol <= x0 and box.y - tol <= y0 and x1 <= box.right + tol and y1 <= box.top + tol, \
        f"{game} in {box}: drawn over {x0:.2f}, {y0:.2f} - {x1:.2f}, {y1:.2f}"
    assert min(w.size for w in log) >= MIN_PT - 1e-6


def test_each_cover_says_players_and_time():
    for game in GAMES[:5]:
        g = registry()[game]
        docs = resolve(g.faces)(edition(g), PrintOptions.parse(export="pdf"))
        cover = next(d for d in docs if isinstance(d, Deck) and d.name == "cover")
        assert len(cover.cards) == 1
        _, text, runs, _ = render(cover.cards[0].front, "colour")
        flat = " ".join(text.split())
        lo, hi = g.players
        assert (f"{lo}\u2013{hi} players" if lo != hi else f"{lo} players") in flat, (game, flat)
        assert " min" in flat, (game, flat)
        assert {r.field for r in runs} >= {"title", "tagline", "facts"}


@pytest.mark.parametrize("size", [f"{n}{turn}" for n in CARD_SIZES for turn in ("", "-landscape")])
def test_every_back_and_cover_fits_every_card_size(size):
    """No back or cover face fails to fit a named card size (a FaceFitError would stop the build),
    and none prints text under 6 pt there; the deck's word keeps 7 pt (it sorts the cards)."""
    card = parse_card(size)
    for game in GAMES:
        g = registry()[game]
        docs = resolve(g.faces)(edition(g), PrintOptions.parse(export="pdf", card=size))
        faces = {id(f): (d.name, f) for d in docs if isinstance(d, Deck) and (game, d.name) not in TWO_SIDED
                 for f in [d.back] + [c.back for c in d.cards] + ([d.cards[0].front] if d.name == "cover" else [])
                 if f is not None}
        for name, face in faces.values():
            _, _, runs, _ = render(face, "colour", card.width, card.height)
            assert min(r.size for r in runs) >= MIN_PT - 1e-6, (game, name, size)
            assert all(r.size >= PLAY_PT - 1e-6 for r in runs if r.field == "deck"), (game, name, size)
