"""One Day in London's rulebook says what the engine does, with the engine's and the recipe's numbers.

The printed text is read with ``plain()`` (the substituted text as it prints). Every rules value is
compared with ``data/oneday/recipe.toml`` read here with ``tomllib`` and with the derived deck; every
number of the worked examples with a replay of the seeded game done here, action by action, through
the engine; the rules the seed text leaves open (who starts, the empty draw pile, the end) with the
engine's own behaviour in states built for the purpose.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pymupdf
import pytest

from tubedeck.content import content
from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.games.oneday.examples import PLAYERS, SEED, actions
from tubedeck.games.oneday.journey import validate
from tubedeck.games.oneday.play import STOCK, new_game
from tubedeck.games.oneday.records import MAX_TURNS
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.oneday.faces import rules_parts, strip
from tubedeck.generator.oneday.rulebook import rulebook
from tubedeck.generator.oneday.tent import plan
from tubedeck.generator.rulebook import documents, plain
from tubedeck.generator.sizes import CardGeometry

TINY = Path(__file__).resolve().parents[1] / "data" / "tinycity"
TINY_RECIPE = Path(__file__).resolve().parents[1] / "data" / "tinycity_oneday.toml"


@lru_cache(maxsize=1)
def london():
    return edition(registry()["oneday"])


@lru_cache(maxsize=1)
def text() -> str:
    return " ".join(plain(rulebook(london(), PrintOptions.parse())).split())


@lru_cache(maxsize=1)
def recipe() -> dict:
    return tomllib.loads(content("oneday", "recipe.toml").read_text(encoding="utf-8"))


def played():
    """The rulebook's game, replayed here: every state, the first included."""
    state = new_game(london(), PLAYERS, SEED)
    states = [state]
    for action in actions():
        state = state.apply(action)
        states.append(state)
    return states


def test_the_rules_values_are_the_recipes_and_the_decks():
    game = recipe()["game"]
    t, ed = text(), london()
    slots, lo, hi, piles = game["slots"], game["players_min"], game["players_max"], game["discard_piles"]
    assert f"for {lo} to {hi} players" in t
    assert f"a **rack** of {slots}".replace("**", "") in t and f"one continuous journey of {slots} stops" in t
    assert f"Turn the next {piles} cards face up, one on each of {piles} discard piles" in t
    assert f"until every rack holds {slots} cards ({slots * hi} cards at {hi} players)" in t
    copies = list(ed.deck.copies().values())
    assert f"Station cards ({len(ed.board.stations)} stations) | {len(ed.deck)}" in t
    assert (f"{copies.count(1)} stations have one card, {copies.count(2)} have two and {copies.count(3)} have three"
            in t)
    assert (len(ed.board.stations), len(ed.deck)) == (62, 72)  # the seed text's figures
    rules_cards = len(rules_parts(ed, CardGeometry(63.5, 88.9).safe))
    assert f"Rules summary cards (for the table) | {rules_cards}" in t
    assert f"no winner after {MAX_TURNS} turns" in t.lower() and f"If nobody has won after {MAX_TURNS} turns" in t


def test_the_setup_figure_and_the_turn_are_the_engines_replay():
    states, acts = played(), actions()
    after = next(s for s in states if s.phase != "setup")
    assert after.to_move == 0  # player 1 takes the first turn
    assert states[0].to_move == 0 and acts[0][0] == "place"  # and places the first card
    t = text()
    assert "Player 1 places the first card at setup and takes the first turn" in t
    book = rulebook(london(), PrintOptions.parse())
    caption = book.figures["setup"].caption
    assert f"The sample game's setup: {PLAYERS} players." in caption and "seed" not in caption and f"{len(after.stock)} cards are left in the draw pile" in caption
    assert len(after.stock) == 72 - PLAYERS * 10 - 3
    k = next(i for i, a in enumerate(acts) if a[0] == "draw" and a[1] != STOCK and acts[i + 1][0] == "exchange")
    before, held, swapped, done = states[k], states[k + 1], states[k + 2], states[k + 3]
    pile, slot, to = acts[k][1], acts[k + 1][1], acts[k + 2][1]
    assert held.holding is not None and swapped.holding is not None
    assert held.holding == before.piles[pile][-1] and swapped.holding == before.racks[before.to_move][slot]
    assert done.racks[before.to_move][slot] == held.holding
    said = (f"turn {before.turn + 1}: player {before.to_move + 1} draws {held.holding.name} from discard pile "
            f"{pile + 1}, exchanges it for {swapped.holding.name} in slot {slot + 1}, and discards "
            f"{swapped.holding.name} onto pile {to + 1}")
    assert said in t
    # the empty pile took the discard because the rule left no other pile: the engine offered only it
    assert swapped.legal_actions() == (("discard", to),) and not swapped.piles[to]
    assert f"emptied pile {to + 1}, so the discard had to go there" in t


def test_the_winning_rack_is_the_engines_win():
    states = played()
    end = states[-1]
    assert end.is_terminal() and end.winner is not None
    seat = end.winner
    rack = end.racks[seat]
    verdict = validate(london().board, [c.station for c in rack if c is not None])
    assert verdict.valid and verdict.journey is not None
    own = sum(1 for s, a in zip(states, actions()) if s.to_move == seat and a[0] == "draw")
    exchanges = sum(1 for s, a in zip(states, actions()) if s.to_move == seat and a[0] == "exchange")
    t = text()
    assert (f"player {seat + 1} won on turn {end.turn} of the game (their own turn {own}), after {exchanges} "
            f"exchanges in all") in t
    gmap = london().board
    for ride in verdict.journey.rides:
        stops = [gmap.name(s) for s in ride.stops]
        inner = stops[1:-1]
        via = f" through {', '.join(inner[:-1]) + ' and ' + inner[-1] if len(inner) > 1 else ''.join(inner)}" \
            if inner else ""
        assert f"the {gmap.lines[ride.line].name} from {stops[0]}{via} to {stops[-1]}" in t
    # the figure draws the rack in slot order
    book = rulebook(london(), PrintOptions.parse())
    assert f"Player {seat + 1}'s winning rack (the sample game, turn {end.turn})" in book.figures["winning"].caption
    names = [c.name for c in rack if c is not None]
    if len(set(names)) < len(names):  # the rack uses a station twice: the note says it is allowed
        assert "a stop twice: allowed" in t


def _state_with_stock(cards: int, buried: int):
    """A game after setup, the draw pile cut to ``cards`` cards and ``buried`` cards under pile 1's top."""
    s = played()[next(i for i, st in enumerate(played()) if st.phase != "setup")]
    under = s.stock[cards:cards + buried]
    piles = (under + s.piles[0],) + s.piles[1:]
    return replace(s, stock=s.stock[:cards], piles=piles)


def test_the_empty_draw_pile_is_refilled_as_the_book_says():
    t = text()
    assert "The moment a player draws the last card of the draw pile, before they go on with the turn" in t
    assert "Take from each discard pile every card except its top card" in t
    assert "The top cards stay where they were, one on each discard pile" in t
    s = _state_with_stock(1, 5)
    tops = [p[-1] for p in s.piles]
    buried = sorted(c.id for p in s.piles for c in p[:-1])
    t2 = s.apply(("draw", STOCK))
    assert t2.phase == "exchange" and t2.holding == s.stock[0]  # the player goes on with the turn
    assert sorted(c.id for c in t2.stock) == buried and len(buried) == 5
    assert [p for p in t2.piles] == [(c,) for c in tops]
    # nothing under the tops: no new draw pile, and from then on only the discard piles
    assert "from then on there is no draw pile, and players draw from the discard piles only" in t
    u = _state_with_stock(1, 0).apply(("draw", STOCK))
    assert not u.stock
    u = u.apply(("keep", None)).apply(("discard", 0))
    for _ in range(6):  # several turns later, with cards buried again, still no draw pile
        assert ("draw", STOCK) not in u.legal_actions() and not u.stock
        u = u.apply(("draw", 1)).apply(("keep", None))
        u = u.apply(u.legal_actions()[0])


def test_a_win_is_checked_after_the_discard_and_at_the_deal_in_seat_order():
    t = text()
    assert "check after your discard" in t and "the first of them in player order (player 1 first)" in t
    s = played()[-2]  # the winner's last step: the discard
    assert s.phase == "discard" and s.apply(s.legal_actions()[0]).winner == s.to_move
    late = new_game(london(), 2, 0, max_turns=1)  # the cap: a game not won in max_turns turns has no winner
    while late.phase == "setup":
        late = late.apply(late.legal_actions()[0])
    late = late.apply(("draw", STOCK)).apply(("keep", None))
    end = late.apply(late.legal_actions()[0])
    assert end.is_terminal() and end.winner is None


def test_the_changes_to_the_network_come_from_the_recipe():
    t, rec = text(), recipe()
    for line in rec["exclude_lines"]:
        assert f"there is no {line['line'].capitalize()} line" in t
    for merge in rec["merge"]:
        assert f"are one station, {merge['name']}" in t
    assert f"stations opened on or after {rec['scope']['opened_before']} are left out" in t
    assert "Kennington is left out" in t
    board = london().board
    for turn in rec["orientation"]:  # each line counted from the end the recipe names, as the cards number it
        line, first = board.lines[turn["line"]].name, board.name(turn["first"])
        assert f"the {line} from {first}" in t and board.runs[turn["line"]].stations[0] == turn["first"]


def test_another_citys_rulebook_has_its_own_numbers(tmp_path):
    """A recipe the recorded game does not fit: the examples come from a game the engine plays on it."""
    ed = edition(registry()["oneday"], data=TINY, recipe=TINY_RECIPE)
    book = rulebook(ed, PrintOptions.parse())
    t = " ".join(plain(book).split())
    assert "rack of 3 station cards" in t and "Station cards (8 stations) | 8" in t
    assert "Baker Street" not in t
    render(documents(book, PrintOptions.parse()), PrintOptions.parse(), tmp_path)
    with pymupdf.open(tmp_path / "rulebook.pdf") as doc:
        assert doc.page_count >= 2


@pytest.mark.parametrize("racks", ["tent", "flat"])
def test_the_rack_words_follow_the_build_option(racks):
    ed = edition(registry()["oneday"], racks=racks)
    t = " ".join(plain(rulebook(ed, PrintOptions.parse())).split())
    assert ("tent rack" in t.lower()) == (racks == "tent")
    assert ("flat rack" in t.lower()) == (racks == "flat")
    assert re.search(r"Tent rack, a net to cut, fold and glue, one for each player \| 4", t) or racks == "flat"


def test_the_words_a_first_table_asked_about():
    """No "seed" or "simulations" in print; "the text" said once; a wrong claim is a table rule; the
    cover card counted; the tent's depth and its numbers' height are the sheet's own."""
    t = " ".join(text().split())
    assert "seed" not in t.lower() and "simulation" not in t.lower() and "source text" not in t.lower()
    assert "what this book calls the text" in t and "a sample game" in t
    assert "Our ruling: a rack shown by mistake." in t
    assert "Cover card: the title and the contents, printed with the rules summary cards (not played) | 1" in t
    card = PrintOptions.parse().card
    tent = plan(card.width, card.height, strip(london().board, london().deck, card.width, card.height).pitch, 10,
                PrintOptions.parse().paper).tent
    assert f"Push each card {tent.tuck:g} mm into its slit" in t
    assert f"about {tent.number_y(1) - tent.slit_y(1):.0f} mm" in t
    assert tent.slit_y(2) < tent.slit_y(1) - tent.tuck  # the foot stays above the next slit down, as printed
