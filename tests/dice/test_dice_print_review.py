"""The print review's Tube Dice finding: the sheet's rules paragraph never said who rolls, yet the
passes depend on it ("3 each for the 1st-3rd to roll, 4 for the 4th"). It says so now, and says
what the engine does: seat 1 rolls first, then each seat in turn, one roll each."""

from __future__ import annotations

import pymupdf

from tubedeck.games.dice.edition import load
from tubedeck.games.dice.play import new_game
from tubedeck.games.dice.recipe import seat_passes
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.dice.faces import documents
from tubedeck.network import Network
from tubedeck.play import CHANCE

WHO_ROLLS = "Take turns to roll, clockwise: the player who arrived last is the 1st to roll."


def rollers(ed, players: int, rolls: int) -> list[int]:
    """The seat (1-based) rolling each of the first ``rolls`` rolls of an engine game."""
    st, out = new_game(ed, players, 5), []
    while len(out) < rolls and not st.is_terminal():
        if st.current_player() == CHANCE:
            out.append(st.active + 1)
            st = st.apply(st.dealt_outcome())
        else:
            st = st.apply(st.legal_actions()[0])
    return out


def test_the_rules_paragraph_says_who_rolls_as_the_engine_plays(tmp_path):
    ed = load(Network.load())
    opts = PrintOptions.parse(export="pdf")
    render(documents(ed, opts), opts, tmp_path)
    with pymupdf.open(tmp_path / "sheet.pdf") as pdf:
        text = " ".join(pdf[0].get_text().split())
    rules = text[text.index(WHO_ROLLS):]  # the paragraph opens with who rolls, before the dice
    assert rules.index(WHO_ROLLS) < rules.index("Roll 5 dice.") < rules.index(f"passes: {seat_passes(ed.rules)}")
    # "clockwise", "1st to roll": the engine's first roller is seat 1 (the pass track's 1st to
    # roll), and the roller moves on one seat every roll, round the table
    for players in (2, 3, 4):
        assert rollers(ed, players, 2 * players + 1) == [1 + k % players for k in range(2 * players + 1)]
