"""Duplex backs that run past their trims keep a drift's room from the printer's margin
(``tubedeck.generator.layout.DRIFT_ROOM``). Review: on Letter the poker, bridge and poker-landscape grids
filled the printable height (3 x 88.9 = 266.7 mm), so no back colour could pass the outer trims
and a back printed 1.5 mm off (or cut 1 mm off) showed a sliver of paper on the outer cards."""

from __future__ import annotations

import pytest
from engine.drift import DRIFTS, back_colours, near_colour

from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator import PrintOptions
from tubedeck.generator.layout import DRIFT_ROOM, make_layout, orient
from tubedeck.generator.pdf import sheet_layout, sheets_pdf
from tubedeck.generator.sizes import CARD_SIZES, PAPERS, PRINTER_MARGIN, CardSize, parse_card
from tubedeck.generator.theme import PILE_BACKS

SIZES = [f"{name}{turn}" for name in CARD_SIZES for turn in ("", "-landscape")]


def _room(layout) -> float:
    """The least distance from an outer trim to the printable area's edge."""
    area = layout.paper.rect.inset(PRINTER_MARGIN)
    return min(min(s.trim.x - area.x, area.right - s.trim.right, s.trim.y - area.y, area.top - s.trim.top)
               for s in layout.fronts)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("size", SIZES)
def test_a_pile_grid_keeps_the_drift_room_and_a4_keeps_its_cards(paper, size):
    options = PrintOptions.parse(export="pdf", paper=paper, card=size)
    card = parse_card(size)
    piled, plain = sheet_layout(card, True, options, back_bleed=3.0), sheet_layout(card, True, options)
    assert _room(piled) >= DRIFT_ROOM - 1e-9, f"{paper} {size}: {_room(piled):.2f} mm"
    assert _room(plain) >= -1e-9
    if paper == "a4":  # (every named size had the room on A4 already: nothing moves there)
        assert (piled.cols, piled.rows, piled.paper) == (plain.cols, plain.rows, plain.paper)
        for a, b in zip(piled.fronts, plain.fronts):
            assert (a.trim.x, a.trim.y) == pytest.approx((b.trim.x, b.trim.y))


def test_letter_poker_turns_the_page_rather_than_lose_a_row():
    options = PrintOptions.parse(export="pdf", paper="letter", card="poker")
    plain = sheet_layout(CARD_SIZES["poker"], True, options)
    piled = sheet_layout(CARD_SIZES["poker"], True, options, back_bleed=3.0)
    assert (plain.paper.orientation, plain.cols, plain.rows) == ("portrait", 3, 3)
    assert (piled.paper.orientation, piled.cols, piled.rows) == ("landscape", 4, 2)
    assert _room(plain) == pytest.approx(0.0, abs=1e-6)


def test_a_card_that_fits_only_without_the_room_still_prints():
    a4 = PAPERS["a4"]
    big = CardSize("196x282", 196.0, 282.0)  # fits the printable 197.3 x 284.3 mm, not with the room
    assert orient(a4, "auto", big, 0.0, False, DRIFT_ROOM).orientation == "portrait"
    layout = make_layout(a4, big, room=DRIFT_ROOM)
    assert layout.per_page == 1


@pytest.mark.parametrize(("paper", "size"), [("letter", "poker"), ("letter", "bridge"),
                                             ("letter", "poker-landscape"), ("a4", "poker")])
def test_pile_backs_survive_a_drift_on_letter_too(paper, size):
    """Failed on Letter before (two colours at every drift, the miscut reaching the paper)."""
    game = registry()["klm"]
    base = PrintOptions.parse(export="pdf", paper=paper, card=size)
    deck = [d for d in resolve(game.faces)(edition(game), base) if d.name == "stations"]
    n = len(deck[0].printed())
    nominal = sheets_pdf(deck, base, "nominal")[2]
    for dx, dy in DRIFTS:
        count, seen = back_colours(sheets_pdf(deck, base.with_(back_offset=(dx, dy)), "s")[0], nominal, range(n))
        assert count == n and near_colour(seen, PILE_BACKS["klm station"]), \
            f"{paper} {size}, drift {dx}, {dy}: {sorted(seen)[:4]}"


def _behind(paper, duplex: str, x: float, y: float) -> tuple[float, float]:
    """Where a point of the front lands on the back page, by turning the sheet itself: a landscape
    page is printed turned a quarter onto the portrait sheet, which turns over its long (vertical)
    or short (horizontal) axis; the back page is turned onto the sheet the same way."""
    w, h = paper.width, paper.height
    landscape = w > h
    sx, sy = (y, w - x) if landscape else (x, y)  # the point on the portrait sheet
    sw, sh = (h, w) if landscape else (w, h)
    bx, by = (sw - sx, sy) if duplex == "long" else (sx, sh - sy)  # seen from the back, upright
    return (w - by, bx) if landscape else (bx, by)


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize(("paper", "size", "bleed"), [("letter", "poker", 3.0), ("a4", "poker", 3.0),
                                                      ("a4", "mini", 0.0), ("letter", "poker-landscape", 3.0)])
def test_each_back_lands_behind_its_own_card_on_either_orientation(duplex, paper, size, bleed):
    """Review (fresh eyes, Letter): the piles' landscape Letter pages asked for a long-edge flip but
    mirrored their backs left-right as a portrait page does, so on a part-filled or mixed sheet
    the backs landed behind other cards (a landscape page's long edges are its top and bottom)."""
    options = PrintOptions.parse(export="pdf", paper=paper, card=size, duplex=duplex)
    layout = sheet_layout(parse_card(size), True, options, back_bleed=bleed)
    for front, back in zip(layout.fronts, layout.backs):
        c = front.trim
        want = _behind(layout.paper, duplex, c.x + c.w / 2, c.y + c.h / 2)
        got = (back.trim.x + back.trim.w / 2, back.trim.y + back.trim.h / 2)
        assert got == pytest.approx(want), f"card {front.index}: back at {got}, the flip puts it at {want}"
    if paper == "letter" and size == "poker":
        assert layout.paper.orientation == "landscape"  # (the case that was wrong)
