"""Keep Moving's ground textures and movement pips, rendered and read back.

The three kinds of ground must read apart with no colour (greyscale, ink-saver): each has its own
tone in greyscale and its own pattern (lava waves run across, grassland blades stand up, dry-soil
dots have no direction), measured on the rendered pixels. Every movement card draws, as pips, the
die faces its data allows.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations

import numpy as np
import pymupdf
import pytest

from tubedeck import generator
from tubedeck.generator.document import Card, Deck
from tubedeck.generator.keepmoving.art import KIND_COLOURS, texture
from tubedeck.generator.keepmoving.faces import documents
from tubedeck.generator.pdf import deck_cards_pdf

from km_helpers import EDITION

KINDS = ("lava", "grassland", "dry soil")


def _texture_face(pen, kind: str, seed: str = "t") -> None:
    texture(pen, kind, pen.art_box, seed)


def _texture_pdf(mode: str, seed: str = "t") -> bytes:
    opts = generator.PrintOptions.parse(export="pdf", mode=mode)
    cards = tuple(Card(k.replace(" ", "-"), partial(_texture_face, kind=k, seed=seed)) for k in KINDS)
    data, _ = deck_cards_pdf(Deck("textures", cards), opts, 0.0)
    return data


def _grey(mode: str) -> dict[str, np.ndarray]:
    """Each kind's texture rendered in ``mode`` at 100 dpi, as grey levels (0-255), the middle of
    the card (20 pt in from every edge: the texture only)."""
    out = {}
    with pymupdf.open(stream=_texture_pdf(mode), filetype="pdf") as pdf:
        for kind, page in zip(KINDS, pdf):
            pix = page.get_pixmap(dpi=100, colorspace=pymupdf.csGRAY, clip=page.rect + (20, 20, -20, -20))
            out[kind] = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width).astype(float)
    return out


def _lean(img: np.ndarray) -> float:
    """How much a pattern runs across rather than up: the mean vertical change of grey over the
    mean horizontal change (> 1: lines across, < 1: lines up, about 1: no direction)."""
    return float(np.abs(np.diff(img, axis=0)).mean() / np.abs(np.diff(img, axis=1)).mean())


def test_the_three_grounds_print_three_tones_in_greyscale():
    grey = _grey("greyscale")
    means = {k: grey[k].mean() for k in KINDS}
    assert means["lava"] < means["grassland"] < means["dry soil"], means  # dark, mid, light
    for a, b in combinations(KINDS, 2):
        assert abs(means[a] - means[b]) >= 20, (a, b, means)


@pytest.mark.parametrize("mode", ["greyscale", "ink-saver"])
def test_each_ground_has_its_own_pattern_with_no_colour(mode):
    """Waves across (lava), upright hatching (grassland), dots with no direction (dry soil): told
    apart by shape alone, in greyscale and in ink-saver (where every ground is a pale tint)."""
    grey = _grey(mode)
    lean = {k: _lean(grey[k]) for k in KINDS}
    assert lean["lava"] >= 1.4, lean
    assert lean["grassland"] <= 0.8, lean
    assert 0.85 <= lean["dry soil"] <= 1.15, lean
    for kind in KINDS:  # a real pattern, not a flat tint: the grey varies
        assert grey[kind].std() >= 20, (mode, kind, grey[kind].std())


def test_ink_saver_patterns_print_dark_on_pale():
    """In ink-saver the ground is a pale tint, so every pattern is drawn dark (lava's in its own red,
    not its yellow): its darkest pixels stay well below the ground."""
    grey = _grey("ink-saver")
    for kind in KINDS:
        img = grey[kind]
        assert np.percentile(img, 5) <= np.percentile(img, 60) - 60, kind
    assert KIND_COLOURS["lava"][1] == "#FFB000"  # the colour build keeps its glowing waves


def test_textures_are_seeded():
    assert _texture_pdf("colour", "a") == _texture_pdf("colour", "a")
    assert _texture_pdf("colour", "a") != _texture_pdf("colour", "b")


def _pips_by_face(page) -> list[int]:
    """The die faces drawn on a card page: each white rounded square outlined in colour, and the
    solid pips (stroked discs) inside it, counted; faces in reading order (rows top down, then
    left to right)."""
    drawings = page.get_drawings()
    squares = [d["rect"] for d in drawings
               if d.get("fill") == (1.0, 1.0, 1.0) and d.get("color") is not None
               and abs(d["rect"].width - d["rect"].height) < 0.5 and d["rect"].width > 20]
    pips = [d["rect"] for d in drawings
            if d["type"] == "s" and d.get("fill") is None and [i[0] for i in d["items"]] == ["c"] * 4]
    squares.sort(key=lambda r: (round(r.y0), r.x0))
    counts = []
    for sq in squares:
        inside = [p for p in pips if sq.contains(p)]
        counts.append(len(inside))
    assert sum(counts) == len(pips), "a pip outside every die face"
    return counts


def test_movement_cards_draw_the_pips_their_data_allows():
    opts = generator.PrintOptions.parse(export="pdf")
    movement = next(d for d in documents(EDITION, opts) if getattr(d, "name", "") == "movement")
    first = {}
    for card in movement.cards:  # one card of each kind, both players
        first.setdefault(card.label, card)
    cards = tuple(first.values())
    data, _ = deck_cards_pdf(Deck("movement", cards), opts, 0.0)
    by_name = {m.name: m for m in EDITION.movement}
    seen = set()
    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        for card, page in zip(cards, pdf):
            m = by_name[card.label.split(" ", 2)[2]]
            if m.action == "move":
                want = [m.value]
            elif m.action == "roll":
                want = sorted(set(EDITION.dice[m.die].faces))
            else:
                want = []
            assert _pips_by_face(page) == want, card.label
            seen.add(m.id)
    assert seen == {m.id for m in EDITION.movement}
    assert {m.die for m in EDITION.movement if m.action == "roll"} == set(EDITION.dice)  # every die is shown
