"""One Day in London's tent rack (``--racks tent``, the default), measured from its geometry and
read back from racks.pdf, on every card size the build advertises and both papers.

The tent must hold the deck's cards: each slit is the card's width plus the sleeve room, the
slits are the cards' name strip apart (so each card shows its strip, as on the flat mat), every
card's tucked foot stays above the foot fold and clear of the slit below, the front reaches past
slot 1's slit, and the three panels close into the tent (a right triangle: the back upright under
the ridge). The net as printed lies inside the printable page; its ten slits per front are cut
lines of that length, that pitch apart; the slot numbers 1-10 stand beside them at 7 pt or more,
upright as the owner sees the front (their tops towards the ridge), slot 1 nearest the ridge.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pymupdf
import pytest
from engine.test_faces_quality import SIZES  # the card sizes the build advertises

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.generator import PrintOptions
from tubedeck.generator.oneday.faces import SLEEVE, documents, strip
from tubedeck.generator.oneday.tent import GLUE, LEANS, NUMBER_PT, TOP_MIN, plan, tent_for
from tubedeck.generator.pdf import sheet_pdf
from tubedeck.generator.ruler import sheet_safe
from tubedeck.generator.sizes import MM, parse_card, parse_paper

PAPERS = ("a4", "letter")
TOL = 0.05  # mm


@lru_cache(maxsize=1)
def london():
    return edition(registry()["oneday"])


def pitch_of(size: str) -> float:
    card = parse_card(size)
    return strip(london().board, london().deck, card.width, card.height).pitch


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", SIZES)
def test_the_tents_panels_hold_the_card(size, paper):
    card, slots = parse_card(size), london().rules.slots
    pitch = pitch_of(size)
    tent = plan(card.width, card.height, pitch, slots, parse_paper(paper)).tent
    assert tent.slit == pytest.approx(card.width + SLEEVE)  # the card, sleeved, goes through
    assert tent.width >= tent.slit + 2 * 3.0 + 8.0  # the slit, a number strip and the sides
    steps = {round(tent.slit_y(k) - tent.slit_y(k + 1), 6) for k in range(1, slots)}
    assert steps == {round(pitch, 6)}  # one strip apart: each card shows its name strip
    assert tent.slit_y(1) > tent.slit_y(slots)  # slot 1 is the highest
    assert tent.slit_y(slots) - tent.tuck >= 0.0  # the lowest card's foot stays above the foot fold
    assert 0 < tent.tuck <= pitch - 3.0 + 1e-9  # a tucked foot ends 3 mm short of the slit below
    assert tent.front >= tent.slit_y(1) + TOP_MIN - TOL  # the front runs on past slot 1's slit
    # each number beside its own card's strip, the post reaching past slot 1's
    assert all(tent.card_top(k) - pitch < tent.number_y(k) < tent.card_top(k) for k in range(1, slots + 1))
    assert tent.post > tent.number_y(1) + 2.0
    # each card covers the slit above its own (the card above shows only its strip)
    assert all(tent.card_top(k + 1) > tent.slit_y(k) + 1.0 for k in range(1, slots))
    # the three panels close: the back upright under the ridge, the base from foot to foot
    assert tent.back ** 2 + tent.base ** 2 == pytest.approx(tent.front ** 2)
    assert math.degrees(math.atan2(tent.back, tent.base)) == pytest.approx(tent.lean) and tent.lean in LEANS


def test_a_card_too_big_for_the_paper_is_refused_with_the_flat_option_named():
    with pytest.raises(UsageError, match="--racks flat"):
        plan(200.0, 280.0, 40.0, 10, parse_paper("a4"))
    assert tent_for(63.5, 88.9, 13.9, 10, 100.0) is None  # no front that short holds ten slots


@lru_cache(maxsize=None)
def printed(size: str, paper: str) -> dict:
    """racks.pdf as printed: per page the cut segments, the slot numbers and whether all lies inside."""
    options = PrintOptions.parse(card=size, paper=paper, export="pdf")
    sheet = next(d for d in documents(london(), options) if d.name == "racks")
    data, _ = sheet_pdf(sheet, options)
    safe = sheet_safe(parse_paper(paper).portrait)
    pages = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page in doc:
            ph = page.rect.height / MM
            segs, inside = [], True
            for d in page.get_drawings():
                r = d["rect"]
                x0, x1, y0, y1 = r.x0 / MM, r.x1 / MM, ph - r.y1 / MM, ph - r.y0 / MM
                if d.get("color") is not None and y0 > safe.y - 2:  # the net, not the ruler strip under it
                    inside &= safe.x - TOL <= x0 and x1 <= safe.right + TOL and safe.y - TOL <= y0 \
                        and y1 <= safe.top + TOL
                for item in d["items"]:
                    if item[0] == "l":
                        a, b = item[1], item[2]
                        segs.append(((a.x / MM, ph - a.y / MM), (b.x / MM, ph - b.y / MM), d.get("dashes")))
            numbers = []
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        if span["text"].strip().isdigit() and span["size"] >= 7:
                            x0, y0, x1, y1 = span["bbox"]
                            numbers.append((int(span["text"]), ((x0 + x1) / 2 / MM, ph - (y0 + y1) / 2 / MM),
                                            line["dir"], span["size"]))
            pages.append({"segs": segs, "inside": inside, "numbers": numbers})
    return {"pages": pages}


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", SIZES)
def test_the_printed_net_fits_the_paper_with_its_slits_and_numbers(size, paper):
    card, slots = parse_card(size), london().rules.slots
    pitch = pitch_of(size)
    p = plan(card.width, card.height, pitch, slots, parse_paper(paper))
    got = printed(size, paper)["pages"]
    players = london().rules.players_max
    assert len(got) == players * (2 if p.split else 1)
    fronts = 0
    for page in got:
        assert page["inside"], (size, paper)
        slits = [(a, b) for a, b, dash in page["segs"]
                 if not dash or dash.replace(" ", "").startswith("[]")  # solid: a cut
                 if abs(math.dist(a, b) - (card.width + SLEEVE)) < TOL]
        numbers = sorted(page["numbers"])
        if not slits and not numbers:
            continue  # the back-and-base page of a split net
        fronts += 1
        assert len(slits) == slots, (size, paper, len(slits))
        assert [n for n, *_ in numbers] == list(range(1, slots + 1))
        assert all(pt >= 7.0 and pt == pytest.approx(NUMBER_PT) for *_, pt in numbers)
        # slits one pitch apart; each number beside its own card's name strip (the top pitch of the card
        # whose foot is in that slot's slit), slot 1 nearest the ridge, upright for the owner
        mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in slits]
        up = (numbers[0][1][0] - numbers[-1][1][0], numbers[0][1][1] - numbers[-1][1][1])  # slot N -> slot 1
        norm = math.hypot(*up)
        up = (up[0] / norm, up[1] / norm)
        along = sorted((m[0] * up[0] + m[1] * up[1] for m in mids), reverse=True)  # slot 1's slit first
        assert {round(a - b, 2) for a, b in zip(along, along[1:])} == {round(pitch, 2)}
        tuck = p.tent.tuck
        for n, (x, y), direction, _ in numbers:
            above = x * up[0] + y * up[1] - along[n - 1]  # from slot n's slit up to its number
            assert card.height - tuck - pitch + 1.0 < above < card.height - tuck - 1.0, (n, above)
            top = (direction[1], direction[0])  # the reading direction turned a quarter left, in y-up mm
            assert top[0] * up[0] + top[1] * up[1] > 0.99, (n, direction, up)
            across = x * up[1] - y * up[0]  # left of every slit: no card covers it
            assert all(across < a[0] * up[1] - a[1] * up[0] - 0.5 and across < b[0] * up[1] - b[1] * up[0] - 0.5
                       for a, b in slits), n
    assert fronts == players
    assert GLUE > 0
