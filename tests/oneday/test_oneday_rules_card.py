"""One Day in London: the printed rules card says what the engine does (issue 27, item 2).

The card's text is read from rules.pdf (as a player reads it) and each phrase that decides play is
checked against :mod:`tubedeck.games.oneday.play`'s legal actions: the setup (who places, one card
at a time, into which slots, how many, cards never moving between slots), the discard piles, the
turn's draw / exchange / discard, the player count, and the direction the rack is read in, which
is also checked against the rack sheet as printed (racks.pdf: slot 1 at the top).

A phrase the card might use is mapped to the engine behaviour it promises (``PLACEMENT``,
``DIRECTION``): a card that says something else, or two things, fails.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

import pymupdf
import pytest

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.games.oneday.play import STOCK, is_journey, new_game
from tubedeck.generator import PrintOptions
from tubedeck.generator.oneday.faces import documents, rack_sheet
from tubedeck.generator.pdf import deck_cards_pdf, sheet_pdf

# What a setup phrase promises: the slots a player may put the card they drew in.
PLACEMENT = {
    "any empty slot": lambda rack: [k for k, c in enumerate(rack) if c is None],
    "the next slot": lambda rack: [k for k, c in enumerate(rack) if c is None][:1],
    "the next empty slot": lambda rack: [k for k, c in enumerate(rack) if c is None][:1],
    "the first empty slot": lambda rack: [k for k, c in enumerate(rack) if c is None][:1],
}
# What a reading direction promises: where slot 2 stands from slot 1 on the rack sheet (dx, dy),
# y downwards as PyMuPDF reads a page.
DIRECTION = {"top to bottom": (0, 1), "bottom to top": (0, -1), "left to right": (1, 0), "right to left": (-1, 0)}
WINNING = ("blackfriars", "tower-hill", "aldgate", "farringdon", "baker-street", "oxford-circus", "elephant-castle",
           "kings-cross-st-pancras", "waterloo", "edgware-road-bakerloo")


@lru_cache(maxsize=1)
def london():
    return edition(registry()["oneday"])


@lru_cache(maxsize=None)
def card_text(size: str = "poker") -> str:
    """The rules card(s) as printed, fronts only, whitespace collapsed."""
    opts = PrintOptions.parse(card=size, export="pdf")
    deck = next(d for d in documents(london(), opts) if d.name == "rules")
    data, _ = deck_cards_pdf(deck, opts, 0.0)
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return " ".join(" ".join(page.get_text().split()) for page in list(doc)[::2])


def bullet(text: str, head: str) -> str:
    """The rule that starts with ``head`` (each rule is a bullet)."""
    found = [b.strip() for b in text.split("\u2022") if head in b]
    assert len(found) == 1, f"{head!r}: {found}"
    return found[0]


def one_of(text: str, phrases) -> str:
    said = [p for p in phrases if re.search(rf"\b{re.escape(p)}\b", text)]
    said = [p for p in said if not any(p != q and p in q for q in said)]  # "the next slot" in "the next empty slot"
    assert len(said) == 1, f"the card should say exactly one of {list(phrases)}: it says {said} in {text!r}"
    return said[0]


def test_the_setup_sentence_is_what_the_engine_allows():
    """'in turn round the table, each player draws one card, looks at it and puts it in any empty slot of
    their rack, until every rack holds 10 cards': checked move by move through a whole setup (placing
    in scattered slots), for 2, 3 and 4 players; then the piles."""
    setup = bullet(card_text(), "Setup:")
    placement = PLACEMENT[one_of(setup, PLACEMENT)]
    piles = int(re.search(r"turn (\d+) cards face up", setup).group(1))
    ed = london()
    for players in (2, 3, 4):
        rng = random.Random(players)
        s = new_game(ed, players, seed=players)
        placed = 0
        while s.phase == "setup":
            assert s.to_move == placed % players  # round the table from seat 1, one card each
            assert s.observation(s.to_move)["holding"] == s.stock[0].id  # the drawn card is seen
            legal = sorted(k for kind, k in s.legal_actions() if kind == "place")
            assert len(legal) == len(s.legal_actions()), s.legal_actions()  # placing is all one can do
            assert legal == placement(s.racks[s.to_move]), (players, placed, legal)
            s = s.apply(("place", rng.choice(legal)))
            placed += 1
        assert len(s.piles) == piles and all(len(p) == 1 for p in s.piles)
    assert "round the table" in setup and "one card" in setup and "looks at it" in setup
    holds = int(re.search(r"holds (\d+) cards", setup).group(1))
    assert holds == ed.rules.slots and placed == players * holds
    assert all(len(r) == holds and None not in r for r in s.racks)


def test_a_card_never_moves_to_another_slot():
    """'(a card never moves to another slot)': in random games every action changes at most one slot
    of one rack, and a card leaving a slot never shows up in another slot of that rack."""
    assert "a card never moves to another slot" in bullet(card_text(), "Setup:")
    ed = london()
    for seed in range(3):
        rng = random.Random(seed)
        s = new_game(ed, 3, seed, max_turns=150)
        while not s.is_terminal():
            t = s.apply(rng.choice(s.legal_actions()))
            for before, after in zip(s.racks, t.racks):
                changed = [k for k in range(len(before)) if before[k] != after[k]]
                assert len(changed) <= 1
                for k in changed:
                    assert before[k] is None or before[k] not in after  # not moved elsewhere in the rack
            s = t


def test_the_direction_is_the_racks_and_the_engines():
    """The card reads the rack 'top to bottom (slot 1 at the top starts the journey)': the rack sheet
    as printed puts slot 2 under slot 1 (and so on to 10), and the engine reads the rack in slot order:
    the text's winning journey in slots 1-10 wins; with two neighbours swapped it does not."""
    goal = bullet(card_text(), "Goal:")
    said = one_of(goal, DIRECTION)
    ed = london()
    opts = PrintOptions.parse(export="pdf")
    data, _ = sheet_pdf(rack_sheet(ed, opts.card.width, opts.card.height), opts)
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        numbers = {}
        for b in doc[0].get_text("dict")["blocks"]:
            for ln in b.get("lines", []):
                for sp in ln["spans"]:
                    if sp["text"].strip().isdigit() and sp["size"] >= 7:
                        numbers.setdefault(int(sp["text"]), sp["bbox"])  # the first mat's, leftmost first
    steps = set()
    for k in range(1, ed.rules.slots):
        dx, dy = numbers[k + 1][0] - numbers[k][0], numbers[k + 1][1] - numbers[k][1]
        steps.add((round(dx / max(abs(dx), abs(dy))), round(dy / max(abs(dx), abs(dy)))))
    assert steps == {DIRECTION[said]}, (said, steps)
    assert "slot 1 at the top starts the journey" in goal
    cards = {c.station: c for c in ed.deck.cards}
    rack = tuple(cards[st] for st in WINNING)
    assert is_journey(rack, ed)
    swapped = rack[:4] + (rack[5], rack[4]) + rack[6:]
    assert not is_journey(swapped, ed)
    s = new_game(ed, 2, 0)
    assert "slot 1 " in s.describe(("place", 0)) + " "  # slot 1 in words is the engine's first slot


def test_the_turn_and_the_player_count_are_the_engines():
    """'draw the top card of a discard pile or of the draw pile; you may exchange it for a card in your
    rack; discard onto any pile (onto an empty pile if there is one)' and '2-4 players'."""
    text = card_text()
    turn = bullet(text, "Turn:")
    assert "draw the top card of a discard pile or of the draw pile" in turn
    assert "you may exchange it for a card in your rack" in turn
    assert "discard onto any pile (onto an empty pile if there is one)" in turn
    lo, hi = map(int, re.search(r"(\d+)-(\d+) players", text).groups())
    ed = london()
    for players in (lo - 1, hi + 1):
        with pytest.raises(UsageError):
            new_game(ed, players, 0)
    rng = random.Random(5)
    s = new_game(ed, hi, 5, max_turns=200)
    seen = set()
    while not s.is_terminal():
        legal = set(s.legal_actions())
        if s.phase == "draw":
            want = {("draw", i) for i, p in enumerate(s.piles) if p} | ({("draw", STOCK)} if s.stock else set())
            assert legal == want
        elif s.phase == "exchange":
            assert legal == {("exchange", k) for k in range(ed.rules.slots)} | {("keep", None)}
        elif s.phase == "discard":
            empty = {("discard", i) for i, p in enumerate(s.piles) if not p}
            assert legal == (empty or {("discard", i) for i in range(len(s.piles))})
            seen.add(bool(empty))
        s = s.apply(rng.choice(sorted(legal, key=str)))
    assert seen == {True, False}  # both cases of the discard rule were met


def test_who_starts_the_end_and_the_empty_draw_pile_are_the_engines():
    """The card says who starts ('round the table from player 1', 'Player 1 plays first, then
    clockwise'), the end ('The first such rack wins at once (check after each discard)') and the draw
    pile running out ('at once shuffle the cards under the discard tops into a new one'); the engine
    does each."""
    text = card_text()
    assert "round the table from player 1" in bullet(text, "Setup:")
    assert "The first such rack wins at once (check after each discard)" in bullet(text, "Goal:")
    said = bullet(text, "Player 1 plays first")
    assert "Player 1 plays first, then clockwise" in said
    assert "Draw pile used up: at once shuffle the cards under the discard tops into a new one" in said
    ed = london()
    s = new_game(ed, 3, 7)
    assert s.to_move == 0
    order = []
    while s.phase == "setup":
        order.append(s.to_move)
        s = s.apply(s.legal_actions()[-1])
    assert order[:6] == [0, 1, 2, 0, 1, 2] and s.to_move == 0  # player 1 places first and plays first
    movers = []
    for _ in range(4):  # then clockwise: seat order
        movers.append(s.to_move)
        s = s.apply(("draw", STOCK)).apply(("keep", None))
        s = s.apply(s.legal_actions()[0])
    assert movers == [0, 1, 2, 0]
    # the draw pile used up: the cards under the tops become the draw pile at once, the tops stay
    while len(s.stock) > 1:
        s = s.apply(("draw", STOCK)).apply(("keep", None))
        s = s.apply(s.legal_actions()[0])
    tops = [p[-1] for p in s.piles]
    under = sorted(c.id for p in s.piles for c in p[:-1])
    t = s.apply(("draw", STOCK))
    assert sorted(c.id for c in t.stock) == under and [p[-1] for p in t.piles] == tops
    assert all(len(p) == 1 for p in t.piles) and t.phase == "exchange"
