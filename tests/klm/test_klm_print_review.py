"""The print review's Keep London Moving findings, read back from the PDFs a build writes: play
rules at 7 pt or more on the smallest cards (the Fortune footer, the "Nearest stations" heading,
the reference cards); Fortune effects name the Play Field's piles as it prints them; the reference
and every Station Card name its frame (TUNNEL, OPEN AIR, NOT KNOWN) as the cards draw it; the Station and Fortune backs look
the same printed 1.5 mm off (duplex drift) and cut 1 mm off."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
from engine.drift import DRIFTS, back_colours
from engine.drift import near_colour as near

from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.games.klm.edition import load
from tubedeck.generator import PrintOptions
from tubedeck.generator.pdf import sheets_pdf
from tubedeck.generator.theme import BLUE, PILE_BACKS

from conftest import run_cli as run

MM = 72 / 25.4
PLAY_PT = 7.0 - 0.01  # PDF sizes read back as 6.9999995


def spans(pdf: Path) -> list[tuple[float, str]]:
    with pymupdf.open(pdf) as doc:
        return [(s["size"], s["text"]) for page in doc for b in page.get_text("dict")["blocks"]
                for ln in b.get("lines", ()) for s in ln["spans"] if s["text"].strip()]


@pytest.mark.parametrize("size", ["mini", "mini-landscape"])
def test_play_rules_print_at_7pt_on_the_smallest_cards(tmp_path, capsys, size):
    """Were 6.5 pt: the footer on all 30 Fortune Cards, the list heading, the mini-landscape
    reference cards."""
    code, _, err = run(capsys, "build", "klm", "--card", size, "--export", "pdf", "--out", str(tmp_path))
    assert code == 0, err
    fortune = spans(tmp_path / "klm" / "fortune-and-reference.pdf")
    footer = [s for s, t in fortune if "One Fortune Card per turn" in t or "Fortune Cards." in t]
    assert len(footer) >= 30 and min(footer) >= PLAY_PT
    reference = [s for s, t in fortune if t.startswith(("1. Roll the die", "Unlucky Hand", "Setup:"))]
    assert reference and min(reference) >= PLAY_PT
    heading = [s for s, t in spans(tmp_path / "klm" / "stations.pdf") if t in ("Nearest stations", "TERMINUS")]
    assert heading and min(heading) >= PLAY_PT


def text_of(pdf: Path) -> str:
    with pymupdf.open(pdf) as doc:
        return " ".join(" ".join(page.get_text() for page in doc).replace("-\n", "").split())


def test_fortune_effects_name_the_piles_as_the_play_field_prints_them(tmp_path, capsys, london):
    """Lost Property took "the top card of the Discarded Station Cards Stock": two of the Play
    Field's pile names in one. The engine's ``take_discard`` takes the top of the discard pile,
    the slot printed "Discarded Station Cards"."""
    code, _, err = run(capsys, "build", "klm", "--export", "pdf", "--out", str(tmp_path))
    assert code == 0, err
    field = text_of(tmp_path / "klm" / "play-field.pdf")
    slots = {"Station Cards Stock", "Discarded Station Cards", "Fortune Cards Stock", "Discarded Fortune Cards"}
    assert all(slot in field for slot in slots)
    printed = text_of(tmp_path / "klm" / "fortune-and-reference.pdf")
    pile = re.compile(r"Discarded (?:Station|Fortune) Cards(?: Stock)?|(?:Station|Fortune) Cards Stock")
    for kind in {f.kind.id: f.kind for f in load(london).fortune}.values():
        effect = " ".join(kind.effect.split())
        assert effect in printed
        assert set(pile.findall(effect)) <= slots, kind.effect
        if kind.action == "take_discard":
            assert "Discarded Station Cards" in pile.findall(effect)


def outline_kind(page: pymupdf.Page) -> str:
    """How a card front's outline is drawn: "thick black", "double line" (a thick white line edged
    by two thin black ones) or "none"."""
    thick = [d for d in page.get_drawings() if d.get("color") is not None and (d.get("width") or 0) > 0.5 * MM
             and d["rect"].width > 0.8 * page.rect.width]  # round the card, not the illustration's lines
    if any(min(d["color"]) < 0.2 for d in thick):
        return "thick black"
    if any(min(d["color"]) > 0.99 for d in thick):
        return "double line"
    return "none"


def frame_word(page: pymupdf.Page) -> str | None:
    """The word on the frame's tab (None unless exactly one of the three words is printed)."""
    words = [s["text"] for b in page.get_text("dict")["blocks"] for ln in b.get("lines", ()) for s in ln["spans"]
             if s["text"].strip() in ("TUNNEL", "OPEN AIR", "NOT KNOWN")]
    return words[0].strip() if len(words) == 1 else None


def test_every_station_card_names_its_frame_on_the_card(tmp_path, capsys, london):
    """The frames (thick black, double line, none) were explained only on a reference card, in
    small print. Each now carries its word on a tab, at 7 pt or more; the reference says the same.
    Every card of the London-wide deck: the word printed is the one its drawn frame means, and the
    one the dataset's surface gives."""
    code, _, err = run(capsys, "build", "klm", "--scope", "london", "--export", "cards", "--out", str(tmp_path))
    assert code == 0, err
    said = re.search(r"Station Card frame, named on its tab: ([A-Z ]+) = thick black; ([A-Z ]+) = double line; "
                     r"([A-Z ]+) = none\.", text_of(tmp_path / "klm" / "reference-cards.pdf"))
    assert said, "the reference does not say what the frames mean"
    meaning = {"thick black": said.group(1), "double line": said.group(2), "none": said.group(3)}
    surface = {"black": "TUNNEL", "white": "OPEN AIR", None: "NOT KNOWN"}  # the engine's outline, from the dataset
    cards = sorted(load(london, "london").deck.cards, key=lambda c: (c.name.lower(), c.station))
    seen = set()
    with pymupdf.open(tmp_path / "klm" / "stations-cards.pdf") as doc:
        assert doc.page_count == 2 * len(cards) == 2 * 272
        for card, page in zip(cards, (doc[i] for i in range(0, doc.page_count, 2))):
            drawn, word = outline_kind(page), frame_word(page)
            assert word == meaning[drawn] == surface[card.outline], (card.name, drawn, word, card.outline)
            sizes = [s["size"] for b in page.get_text("dict")["blocks"] for ln in b.get("lines", ())
                     for s in ln["spans"] if s["text"].strip() == word]
            assert min(sizes) >= PLAY_PT, (card.name, sizes)
            seen.add(drawn)
    assert seen == {"thick black", "double line", "none"}


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_pile_backs_look_the_same_under_a_1_5_mm_duplex_drift(duplex):
    """Review: the Station and Fortune backs were a panel 3 mm inside the trim with a frame on the
    safe area and a title and emblem near the edges; a 1.5 mm drift left 1.5 mm of paper on one
    side and 4.5 on the other, and the piles print over many sheets, which drift differently. Now
    every pixel of every Station and Fortune back, drifted 1.5 mm either way each way and cut 1 mm
    off, is its pile's colour, the Fortune cards' sheet neighbours (the reference cards) included;
    the reference back still carries its mark, so face down it never passes for a Fortune Card."""
    game = registry()["klm"]
    base = PrintOptions.parse(export="pdf", duplex=duplex)
    docs = {d.name: d for d in resolve(game.faces)(edition(game), base)}
    stations, shared = [docs["stations"]], [docs["fortune"], docs["reference"]]
    n_st, n_fo = len(docs["stations"].printed()), len(docs["fortune"].printed())
    n_ref = len(docs["reference"].printed())
    nominal = {id(g): sheets_pdf(g, base, "nominal")[2] for g in (stations, shared)}
    for dx, dy in DRIFTS:
        options = base.with_(back_offset=(dx, dy))
        count, seen = back_colours(sheets_pdf(stations, options, "s")[0], nominal[id(stations)], range(n_st))
        assert count == n_st and near(seen, PILE_BACKS["klm station"]), f"Station backs, drift {dx}, {dy}: {len(seen)} colours"
        data = sheets_pdf(shared, options, "f")[0]
        count, seen = back_colours(data, nominal[id(shared)], range(n_fo))
        assert count == n_fo and near(seen, PILE_BACKS["klm fortune"]), f"Fortune backs, drift {dx}, {dy}: {len(seen)} colours"
        count, seen = back_colours(data, nominal[id(shared)], range(n_fo, n_fo + n_ref))
        assert count == n_ref and near(seen, PILE_BACKS["klm fortune"]), f"reference backs' edges, drift {dx}, {dy}"
        count, seen = back_colours(data, nominal[id(shared)], range(n_fo, n_fo + n_ref), edge=None)
        assert any(near({c}, BLUE) for c in seen)  # the mark, inside the safe area
