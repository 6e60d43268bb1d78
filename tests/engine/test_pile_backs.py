"""Every face-down pile's back is one flat colour of its own (``tubedeck.generator.theme.PILE_BACKS``): cards of
several games mixed in one box sort by their backs, in colour and from a black-and-white printer.
Review: One Day's, Next Station's and KLM's Station Cards had the same blue back."""

from __future__ import annotations

from itertools import combinations

import pytest
from engine.drift import back_colours

from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator import PrintOptions
from tubedeck.generator.colour import luminance, rgb
from tubedeck.generator.pdf import sheets_pdf
from tubedeck.generator.theme import PILE_BACKS, PILE_GREY_STEP

# (game, deck) of every pile drawn face down, and its entry in PILE_BACKS
PILES = {("klm", "stations"): "klm station", ("klm", "fortune"): "klm fortune",
         ("oneday", "stations"): "oneday station", ("nextstation", "stations"): "nextstation station",
         ("keepmoving", "movement"): "keepmoving", ("keepmoving", "function"): "keepmoving"}


def test_every_pile_colour_is_its_own_in_colour_and_in_grey():
    assert set(PILES.values()) == set(PILE_BACKS)
    for (a, ca), (b, cb) in combinations(PILE_BACKS.items(), 2):
        step = abs(luminance(rgb(ca)) - luminance(rgb(cb)))
        assert step >= PILE_GREY_STEP, f"{a} and {b}: greys {step:.3f} apart"


@pytest.fixture(scope="module")
def printed_backs() -> dict[str, dict[tuple[str, str], tuple[int, ...]]]:
    """The one colour each pile's first sheet of backs prints, per mode (read from the PDF)."""
    seen: dict[str, dict[tuple[str, str], tuple[int, ...]]] = {}
    for mode in ("colour", "greyscale"):
        base = PrintOptions.parse(export="pdf", mode=mode)
        for game_name in sorted({g for g, _ in PILES}):
            game = registry()[game_name]
            docs = {d.name: d for d in resolve(game.faces)(edition(game), base)}
            for (g, deck_name), _ in PILES.items():
                if g != game_name:
                    continue
                data, _, nominal = sheets_pdf([docs[deck_name]], base, deck_name)
                _, colours = back_colours(data, nominal, range(nominal.per_page))
                assert len(colours) == 1, f"{g} {deck_name} backs in {mode}: {len(colours)} colours"
                seen.setdefault(mode, {})[(g, deck_name)] = colours.pop()
    return seen


def test_each_pile_prints_its_colour(printed_backs):
    for pile, key in PILES.items():
        want = tuple(round(v * 255) for v in rgb(PILE_BACKS[key]))
        got = printed_backs["colour"][pile]
        assert max(abs(a - b) for a, b in zip(got, want)) <= 2, f"{pile}: {got} printed, {want} wanted"


def test_piles_of_different_games_print_apart_in_grey(printed_backs):
    grey = printed_backs["greyscale"]
    for (p, a), (q, b) in combinations(grey.items(), 2):
        if PILES[p] == PILES[q]:
            assert a == b, f"{p} and {q} share a pile: one back"
            continue
        assert abs(a[0] - b[0]) >= 255 * PILE_GREY_STEP - 2, f"{p} {a} and {q} {b} print as near greys"
