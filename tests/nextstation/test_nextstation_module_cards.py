"""The Shared Objective and Pencil Power cards, read back from the printed PDF: each uses most of
its card (its texts, icon and panels reach from the head band to the foot) and each objective and
power kind has an icon of its own, distinct from every other's."""

from __future__ import annotations

import itertools

import pymupdf
import pytest

from tubedeck import generator
from tubedeck.game import network
from tubedeck.games.nextstation.edition import load
from tubedeck.generator.nextstation.faces import documents
from tubedeck.generator.nextstation.modules import ICONS, layout
from tubedeck.generator.pen import DRIFT, recording
from tubedeck.generator.sizes import CardGeometry
from tubedeck.generator.theme import PLAY_PT

MM = 72 / 25.4


@pytest.fixture(scope="module")
def ed():
    return load(network(None))


def _cards(ed, tmp_path_factory, card: str, mode: str = "colour"):
    """(pages of objectives-cards.pdf and powers-cards.pdf, the recorded texts)."""
    opts = generator.PrintOptions.parse(card=card, export="cards", mode=mode)
    out = tmp_path_factory.mktemp(f"modules-{card}-{mode}")
    decks = [d for d in documents(ed, opts) if getattr(d, "name", "") in ("objectives", "powers")]
    with recording() as log:
        generator.render(decks, opts, out)
    docs = {}
    for name in ("objectives", "powers"):
        doc = pymupdf.open(out / f"{name}-cards.pdf")
        title = ed.book.texts["objective_title" if name == "objectives" else "power_title"]
        docs[name] = [page for page in doc if title in " ".join(page.get_text().split())]  # the fronts
    return docs, list(log)


def _covered(intervals: list[tuple[float, float]]) -> float:
    """The length of the union of the intervals."""
    total, end = 0.0, -1e9
    for a, b in sorted(intervals):
        if b > end:
            total += b - max(a, end)
            end = b
    return total


@pytest.mark.parametrize("card", ["poker", "mini", "tarot"])
def test_every_objective_and_power_card_uses_most_of_its_card(ed, tmp_path_factory, card):
    """Within the safe area, the union of the text lines and the drawn parts (head band, icon
    frame, example panel) covers at least 75% of the height and reaches from its top 12% to its
    bottom 8%. The old cards, 8 pt text in the top quarter, covered about a quarter."""
    docs, log = _cards(ed, tmp_path_factory, card)
    for name, doc in docs.items():
        assert len(doc) == (len(ed.book.objectives) if name == "objectives" else len(ed.book.powers))
        for page in doc:
            w, h = page.rect.width, page.rect.height
            g = CardGeometry(w / MM, h / MM)
            top, bottom = h - g.safe.top * MM, h - g.safe.y * MM  # the safe area, y down
            spans = []
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", ()):
                    spans.append((line["bbox"][1], line["bbox"][3]))
            safe_area = g.safe.w * g.safe.h * MM * MM
            for d in page.get_drawings():
                r = d["rect"]
                if r.width * r.height < 0.6 * safe_area:  # not the card's ground (the paper colour)
                    spans.append((r.y0, r.y1))
            inside = [(max(a, top), min(b, bottom)) for a, b in spans if b > top and a < bottom]
            height = bottom - top
            assert _covered(inside) >= 0.75 * height, (name, page.number, _covered(inside) / height)
            assert min(a for a, _ in inside) <= top + 0.12 * height, (name, page.number)
            assert max(b for _, b in inside) >= bottom - 0.08 * height, (name, page.number)
    rules = [x for x in log if x.field == "rules"]
    assert rules and min(x.size for x in rules) >= PLAY_PT - 0.01
    if card == "poker":  # the rule reads across the table: 9 pt on the default card
        assert min(x.size for x in rules) >= 9.0 - 0.01
        assert {x.field for x in log} >= {"title", "name", "rules", "example"}


def _icon_bitmap(page, rect_mm, card_h: float, side: int = 40) -> list[bool]:
    """The icon's square (centred in its frame) rendered at ``side`` x ``side`` px, as ink / paper."""
    a = min(rect_mm.w, rect_mm.h) * 0.82
    cx, cy = rect_mm.x + rect_mm.w / 2, rect_mm.y + rect_mm.h / 2
    clip = pymupdf.Rect((cx - a / 2) * MM, (card_h - cy - a / 2) * MM, (cx + a / 2) * MM, (card_h - cy + a / 2) * MM)
    zoom = side / clip.width
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, colorspace=pymupdf.csGRAY)
    data = pix.samples
    return [data[i] < 200 for i in range(min(len(data), side * side))]


def test_each_objective_and_power_kind_has_its_own_distinct_icon(ed, tmp_path_factory):
    """One icon per objective measure and per power, and no two alike: rendered at 40 x 40 px,
    any two differ in at least 30% of their inked pixels (greyscale, so shape alone counts)."""
    book = ed.book
    assert {o.measure for o in book.objectives} | {p.id for p in book.powers} == set(ICONS)
    assert len(set(ICONS.values())) == len(ICONS)
    docs, _ = _cards(ed, tmp_path_factory, "poker", "greyscale")
    g = CardGeometry(63.5, 88.9)
    art = g.trim.inset(DRIFT)
    bitmaps = {}
    for name, doc in docs.items():
        items = book.objectives if name == "objectives" else book.powers
        title = book.texts["objective_title" if name == "objectives" else "power_title"]
        for page, item in zip(doc, items):
            lay = layout(g.safe, art, title, item.title, item.text, item.example)
            assert lay.icon is not None and lay.icon.h >= 0.26 * g.safe.h - 0.01, item.id
            bitmaps[item.id] = _icon_bitmap(page, lay.icon, g.trim.h)
    for (a, x), (b, y) in itertools.combinations(bitmaps.items(), 2):
        ink = sum(p or q for p, q in zip(x, y))
        differ = sum(p != q for p, q in zip(x, y))
        assert ink and differ >= 0.3 * ink, (a, b, differ / max(ink, 1))
