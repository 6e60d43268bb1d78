"""Every Station Card's diagram prints its Connection Numbers, in the default deck and the London-wide one.

A review found Baker Street (Bakerloo, Circle, Hammersmith & City, Jubilee, Metropolitan)
squeezing its five neighbours into a 13 mm diagram of plain dots: the numbers were left off to
keep the facts and the full neighbour names. A busy interchange now shortens its neighbours' line
qualifiers ("Edgware Road (H&C)") before it gives up the numbered diagram. Each card of the
default build is drawn on a Pen that draws nothing (cheap), with the Pen's recording of its text
and the box the diagram is drawn in.
"""

from __future__ import annotations

import pytest

from tubedeck.generator import CARD_SIZES, CardGeometry
from tubedeck.generator.fonts import metrics
from tubedeck.generator.klm import station
from tubedeck.generator.pen import recording
from tubedeck.generator.sizes import PT, Rect

from blank_pen import BlankPen

PLAY_PT = 7.0
TOUCH = 0.1  # mm two text boxes may share (a wrapped line's ascent over the one above)


def text_box(w) -> tuple[float, float, float, float]:
    ascent, descent = metrics(w.font)
    return (w.x, w.y + descent * w.size * PT, w.x + w.width, w.y + ascent * w.size * PT)


def draw(card, width: float, height: float, monkeypatch) -> tuple[list, list[Rect]]:
    """The card's recorded text and the box(es) its diagram was drawn in."""
    boxes: list[Rect] = []
    real = station.schematic

    def spy(pen, box, *args, **kw):
        boxes.append(box)
        return real(pen, box, *args, **kw)

    monkeypatch.setattr(station, "schematic", spy)
    with recording() as log:
        station.station_front(BlankPen(width, height, card.station), card, "poker")
    return list(log), boxes


def deck_of(scope: str | None = None):
    from tubedeck.game import edition
    from tubedeck.games import registry

    return edition(registry()["klm"], **({"scope": scope} if scope else {})).deck


@pytest.fixture(scope="module")
def deck():
    return deck_of()  # the default build: scope core


@pytest.fixture(scope="module", params=["core", "london"])
def scoped(request):
    return deck_of(request.param)


def inside(w, box: Rect) -> bool:
    x0, y0, x1, y1 = text_box(w)
    return box.x - 1e-6 <= x0 and x1 <= box.right + 1e-6 and box.y - 1e-6 <= y0 and y1 <= box.top + 1e-6


def test_baker_street_shows_every_line_with_its_numbers(deck, monkeypatch):
    card = deck.by_station["baker-street"]
    assert len(card.line_marks) == 5
    size = CARD_SIZES["poker"]
    log, boxes = draw(card, size.width, size.height, monkeypatch)
    assert len(boxes) == 1 and boxes[0].w >= 20.0, boxes  # was 13 mm of plain dots
    diagram = {w.text: w for w in log if w.field == "number" and inside(w, boxes[0])}
    for line in card.line_marks:
        numbers = {str(c.number) for c in card.connections if line in c.lines}
        assert numbers and numbers <= set(diagram), (line.name, numbers, sorted(diagram))
    assert min(w.size for w in diagram.values()) >= PLAY_PT


def test_every_station_card_numbers_its_diagram_legibly_and_clear(scoped, monkeypatch):
    """Every card of the default deck and of the London-wide one (``--scope london``: 272 cards,
    Connection Numbers up to three digits). There eight cards (Waterloo, Green Park, Earl's Court,
    Oxford Circus, Turnham Green, Paddington (Bakerloo & District), Baker Street, King's Cross St
    Pancras) printed plain dots: their list at 8 pt with dots came before a smaller list with the
    numbers."""
    size = CARD_SIZES["poker"]
    safe = CardGeometry(size.width, size.height).safe
    assert len(scoped.cards) in (67, 272)
    for card in scoped.cards:
        log, boxes = draw(card, size.width, size.height, monkeypatch)
        if not card.connections:
            continue
        assert len(boxes) == 1, f"{card.name}: no diagram"
        diagram = [w for w in log if w.field == "number" and inside(w, boxes[0])]
        assert sorted(w.text for w in diagram) == sorted(str(c.number) for c in card.connections), card.name
        assert min(w.size for w in diagram) >= PLAY_PT, card.name
        for w in log:
            assert inside(w, safe), (card.name, w.field, w.text)
        spans = [text_box(w) for w in log]
        for i, a in enumerate(spans):
            for b in spans[i + 1:]:
                over = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
                assert min(over) <= TOUCH, (card.name, log[i].text, [w.text for w in log if text_box(w) == b])
