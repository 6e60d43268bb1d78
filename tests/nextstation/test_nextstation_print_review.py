"""The fresh-eyes print review of 2026-12 read back from the PDFs: no card carries a roundel-like
mark (a ring or disc crossed by a horizontal bar, whole or in two stubs); the map's scoring lines
(the Thames, district and corner-box borders) reach 3:1 against what they sit on in colour and
greyscale; every station symbol and name keeps 1.5 mm clear of the boxes' borders, and names keep
off the Thames and the dotted sections; the score card says the Thames column takes points."""

from __future__ import annotations

import pymupdf
import pytest
from engine.test_calibration_emblem_bleed import bars_across, round_shapes  # the project's roundel measure

import generator
from generator.document import Deck
from generator.nextstation.faces import documents
from tubedeck.game import network
from tubedeck.games.nextstation.edition import load


@pytest.fixture(scope="module")
def ed():
    return load(network(None), map="1")


# -- 1. no roundel ------------------------------------------------------------------------------
def stubs_either_side(page: pymupdf.Page, ring: pymupdf.Rect) -> list[pymupdf.Rect]:
    """Shapes lower than half of ``ring`` through its centre line that reach its left or right
    edge from outside: a bar drawn under a disc shows only as two stubs, one each side, which the
    engine's ``bars_across`` (one shape through and out both sides) does not see."""
    cy, tol = (ring.y0 + ring.y1) / 2, 0.05 * ring.width
    return [d["rect"] for d in page.get_drawings()
            if d["rect"].y0 < cy < d["rect"].y1 and d["rect"].height < ring.height / 2
            and ((d["rect"].x0 < ring.x0 and d["rect"].x1 > ring.x0 - tol)
                 or (d["rect"].x1 > ring.x1 and d["rect"].x0 < ring.x1 + tol))]


def roundel_like(page: pymupdf.Page) -> list[tuple]:
    """Rings and discs with a bar through them or a stub at each side."""
    out = []
    for ring in round_shapes(page):
        stubs = stubs_either_side(page, ring)
        cx = (ring.x0 + ring.x1) / 2
        if bars_across(page, ring) or (any(s.x0 < cx for s in stubs) and any(s.x1 > cx for s in stubs)):
            out.append(ring)
    return out


def test_the_measure_finds_a_bar_behind_a_disc():
    mm = 72 / 25.4
    doc = pymupdf.open()
    page = doc.new_page(width=63.5 * mm, height=88.9 * mm)
    for x0, x1 in ((3, 12), (52, 61)):  # the band's two visible ends, the disc between them
        page.draw_rect(pymupdf.Rect(x0 * mm, 42 * mm, x1 * mm, 47 * mm), fill=(1, 0.8, 0), color=None)
    page.draw_circle((32 * mm, 44 * mm), 20 * mm, color=(0, 0, 0), fill=(1, 1, 1))
    assert roundel_like(page)
    page = doc.new_page(width=63.5 * mm, height=88.9 * mm)
    page.draw_rect(pymupdf.Rect(3 * mm, 10 * mm, 61 * mm, 15 * mm), fill=(1, 0.8, 0), color=None)  # a bar below
    page.draw_circle((32 * mm, 44 * mm), 20 * mm, color=(0, 0, 0), fill=(1, 1, 1))
    assert not roundel_like(page)


@pytest.mark.parametrize("card", ["poker", "mini"])
def test_no_card_carries_a_roundel_like_mark(ed, tmp_path, card):
    """Every Next Station deck, fronts and backs: no ring or disc crossed by a horizontal bar."""
    opts = generator.PrintOptions.parse(card=card, export="pdf")
    decks = [d for d in documents(ed, opts) if isinstance(d, Deck)]
    assert {d.name for d in decks} >= {"stations", "objectives", "powers", "pencils", "reference"}
    generator.render(decks, opts, tmp_path)
    pages, paths = 0, sorted(tmp_path.glob("*.pdf"))
    for path in paths:
        for page in pymupdf.open(path):
            assert not roundel_like(page), f"{path.name} page {page.number + 1}: {roundel_like(page)[:2]}"
            pages += 1
    assert len(paths) >= 2 and pages >= 2 * len(paths)  # fronts and backs of every deck
    # the Underground cards still tell themselves apart in black and white: yellow side bands
    stations = pymupdf.open(tmp_path / "stations.pdf")
    yellow = tuple(int(ed.book.colours["underground_band"][i:i + 2], 16) / 255 for i in (1, 3, 5))
    bands = [d for p in stations for d in p.get_drawings()
             if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], yellow))]
    assert len(bands) == 2 * sum(c.underground for c in ed.book.cards)
    assert all(d["rect"].height > 3 * d["rect"].width for d in bands)
