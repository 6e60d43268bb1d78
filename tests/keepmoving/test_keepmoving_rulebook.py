"""Keep Moving's rulebook: every number it prints against the engine and the data.

The rules values are read back from the printed text and compared with ``rules.toml`` and the
component files (read here on their own, not through the rulebook's code); the worked examples
(the setup, the push, the end) are compared with a fresh replay of their seeded games, walked
here move by move. Changing a value in the rules changes the printed book.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import tomllib
from collections import Counter

import pymupdf
import pytest

from tubedeck.content import content
from tubedeck.games.keepmoving.examples import careful
from tubedeck.games.keepmoving.play import new_game
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.keepmoving.rulebook import rulebook
from tubedeck.generator.rulebook import documents, plain
from tubedeck.play import play_game

from km_helpers import EDITION


@pytest.fixture(scope="module")
def text() -> str:
    return plain(rulebook(EDITION, PrintOptions.parse()))


def _flat(text: str) -> str:
    return " ".join(text.split())


def _rules() -> dict:
    with content("keepmoving", "rules.toml").open("rb") as f:
        return tomllib.load(f)["rules"]


def _csv(name: str) -> list[dict]:
    with content("keepmoving", name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# -- the rules values ------------------------------------------------------------------------------
def test_the_components_and_setup_print_the_rules_values(text):
    r = _rules()
    flat = _flat(text)
    assert f"Ground cards, double-sided | {r['ground_cards']}" in text
    assert f"| {2 * r['movement_set']} ({r['movement_set']} a set)" in text
    assert f"Function cards | {r['function_cards']}" in text
    assert f"Life cubes | {2 * r['lives'] + r['supply']}" in text
    assert f"Dice: random, even, odd, low and high | {len(_csv('dice.csv'))}" in text
    assert f"Lay {r['row']} of them in a row" in flat
    assert f"Stack the other {r['ground_cards'] - r['row']} the same way" in flat
    assert f"takes a meeple, {r['lives']} life cubes and a movement set of {r['movement_set']} cards" in flat
    assert f"other {r['supply']} life cubes are the supply" in flat
    assert f"Deal {r['start_function']} face down" in flat
    assert f"own pile of {r['movement_set'] + r['start_function']} cards" in flat
    assert f"other {r['function_cards'] - 2 * r['start_function']} function cards are the function pile" in flat
    assert f"ground card roll + {r['start_offset']}" in flat
    assert f"(a 1: card {r['start_offset'] + 1}; a 6: card {r['start_offset'] + 6})" in flat
    assert f"draws {r['start_hand']} cards from their own pile" in flat
    assert f"Draw {r['turn_draw']} card from your own pile, unless you already hold {r['hand_limit']} cards" in flat
    assert f"moves {r['push_cards']} cards the way you choose" in flat
    assert f"after {r['max_turns']} turns" in flat
    assert f"Life Potion: +{r['potion_lives']} cubes" in flat


def test_the_card_tables_print_the_data(text):
    moves = _csv("movement.csv")
    numbers = [m for m in moves if m["action"] == "move"]
    assert f"ONE, TWO, THREE, FOUR, FIVE, SIX | {numbers[0]['copies']} each | {numbers[0]['text']}" in text
    for m in moves:
        if m["action"] != "move":
            assert f"{m['name']} | {m['copies']} | {m['text']}" in text, m["name"]
    for f in _csv("function.csv"):
        row = next(line for line in text.splitlines() if line.startswith(f"{f['name']} ") and " | " in line)
        assert row.endswith(f"| {f['copies']} | {f['text']}"), row
        assert ("green" in row.split(" | ")[0]) == (f["colour"] == "green")
    for d in _csv("dice.csv"):
        counts = Counter(int(x) for x in d["faces"].split())
        faces = " ".join(str(n) for n in sorted(counts))
        assert re.search(rf"^{d['name']} \| {faces}(, each twice)?$", text, re.M), d["name"]
        assert ("each twice" in next(line for line in text.splitlines() if line.startswith(f"{d['name']} | "))) \
            == (set(counts.values()) == {2})
    ground = _csv("ground.csv")
    sides = Counter(r[f"{s}_kind"] for r in ground for s in "ab")
    symbols = Counter(r["a_symbol"] for r in ground)
    assert (f"In all: {sides['lava']} lava sides, {sides['grassland']} grassland sides and {sides['dry soil']} "
            f"dry soil sides; {symbols['function']} cards carry the Function symbol and {symbols['replace']} "
            f"the Replace symbol.") in text


def test_every_card_kind_is_shown_and_no_internal_id_prints(text):
    for m in _csv("movement.csv"):
        assert m["name"] in text
    for f in _csv("function.csv"):
        assert f"{f['name']} |" in text or f"{f['name']} (" in text
    for word in ("Lava", "Grassland", "Dry soil", "Function symbol", "Replace symbol", "Replace card"):
        assert word in text
    ids = [f["id"] for f in _csv("function.csv") if "-" in f["id"]] + [g["id"] for g in _csv("ground.csv")]
    for ident in ids + ["keepmoving", "seeds/", "\u2663", "\u267b"]:
        assert ident not in text, ident
    # terms are defined before they are used: the first "Replace card" is in the ground cards' section
    assert text.index("Replace card") < text.index("## Setup")
    assert "**" not in text  # markup never prints


def test_a_changed_rules_value_changes_the_book():
    r = EDITION.rules
    changed = dataclasses.replace(EDITION, rules=dataclasses.replace(r, row=12, hand_limit=4, lives=8, max_turns=300))
    flat = _flat(plain(rulebook(changed, PrintOptions.parse())))
    assert "Lay 12 of them in a row" in flat and "Stack the other 16 the same way" in flat
    assert "unless you already hold 4 cards" in flat
    assert f"Life cubes | {2 * 8 + r.supply}" in flat
    assert "after 300 turns" in flat


# -- the examples, against a fresh replay ------------------------------------------------------------
def _game(seed: int):
    """The seeded game the examples' players play, as (state before, action) pairs and the end."""
    start = new_game(EDITION, 2, seed)
    played = play_game(start, [careful, careful], seed)
    steps, s = [], start
    for m in played.moves:
        steps.append((s, m.action))
        s = s.apply(m.action)
    assert s.key() == played.state.key()
    return steps, s


SETUP = re.compile(r"The figure is the setup of sample game (\d+), dealt at random: player 1 rolled (\d) and starts on card (\d+), player 2 "
                   r"rolled (\d) and starts on card (\d+)\. Player (\d) won the roll-off and starts\. Each player "
                   r"holds (\d+) cards, with (\d+) left in their own pile\.")


def test_the_setup_example_is_the_seeded_deal(text):
    m = SETUP.search(text)
    assert m, "the setup example's sentence"
    seed, roll1, pos1, roll2, pos2, first, hand, pile = map(int, m.groups())
    s = new_game(EDITION, 2, seed)
    assert (pos1, pos2) == (s.pos[0] + 1, s.pos[1] + 1)
    assert (roll1, roll2) == (pos1 - EDITION.rules.start_offset, pos2 - EDITION.rules.start_offset)
    assert first == s.first + 1
    assert hand == len(s.hand[0]) == len(s.hand[1]) and pile == len(s.pile[0]) == len(s.pile[1])


PUSH = re.compile(r"In sample game (\d+), turn (\d+): player (\d) stands on card (\d+) and plays (\w+)\. They roll (\d) and "
                  r"move (\d+) cards (left|right), onto card (\d+) \(([^)]*)\), where player (\d)'s meeple stands\. "
                  r"Player \d's card acts first: ([^.]*)\. Player \d's meeple is pushed one card on, to card (\d+) "
                  r"\(([^)]*)\): it goes from (\d+) to (\d+) life cubes(, and draws a function card)?\. The card "
                  r"player \d left, card \d+, turns over: it was ([^,]*), now it is ([^.]*)\.")


def _words(side) -> str:
    return side.kind + (f" with the {side.symbol.title()} symbol" if side.symbol else "")


def test_the_push_example_is_what_the_engine_plays(text):
    m = PUSH.search(_flat(text))
    assert m, "the push example's sentences"
    g = m.groups()
    seed, turn, mover, start, card = int(g[0]), int(g[1]), int(g[2]) - 1, int(g[3]) - 1, g[4]
    roll, distance, direction, landing, landing_kind, pushed = int(g[5]), int(g[6]), g[7], int(g[8]) - 1, g[9], \
        int(g[10]) - 1
    effect, pushed_to, pushed_kind, before, after, drew = g[11], int(g[12]) - 1, g[13], int(g[14]), int(g[15]), g[16]
    left_before, left_after = g[17], g[18]
    steps, _ = _game(seed)
    # the play: that turn, that player, that card, from that card
    i = next(i for i, (s, a) in enumerate(steps) if s.turn == turn - 1 and s.phase == "decide" and a[0] == "play"
             and s.decider == mover and EDITION.cards[a[1]].name == card)
    s0 = steps[i][0]
    assert s0.pos[mover] == start and s0.pos[pushed] == landing and pushed == 1 - mover
    rolls = [a for s, a in steps[i:] if s.turn == turn - 1 and s.phase == "chance" and s.pending[0][0] == "roll"]
    assert rolls[0] == roll == distance
    # the move: the first state of the turn where the mover stands elsewhere
    j = next(j for j in range(i, len(steps)) if steps[j][0].pos[mover] != start)
    moved, was = steps[j][0], steps[j - 1][0]
    assert moved.pos[mover] == landing == start + (distance if direction == "right" else -distance)
    assert moved.pos[pushed] == pushed_to == landing + (1 if direction == "right" else -1)
    assert _words(moved.side(landing)) == landing_kind and _words(moved.side(pushed_to)) == pushed_kind
    assert _words(was.side(start)) == left_before and _words(moved.side(start)) == left_after
    end = next(s for s, _ in steps[j:] if s.turn == turn)  # the next turn begins: both landings done
    assert (before, after) == (s0.lives[pushed], end.lives[pushed])
    assert str(end.lives[mover]) in effect and effect.startswith(moved.side(landing).kind)
    assert bool(drew) == (len(end.hand[pushed]) > len(s0.hand[pushed]))


END = re.compile(r"Sample game (\d+) ended on turn (\d+)\. Player (\d) had one life cube left and played (\w+): they rolled "
                 r"(\d) and moved (\d+) cards? (left|right), onto card (\d+): ([^,]*), and their last life cube went "
                 r"back to the supply\. Player (\d) won with (\d+) life cubes left\.")


def test_the_end_example_is_what_the_engine_plays(text):
    m = END.search(_flat(text))
    assert m, "the end example's sentences"
    g = m.groups()
    seed, turns, loser, card, roll, distance, direction, landing = int(g[0]), int(g[1]), int(g[2]) - 1, g[3], \
        int(g[4]), int(g[5]), g[6], int(g[7]) - 1
    kind, winner, cubes = g[8], int(g[9]) - 1, int(g[10])
    steps, end = _game(seed)
    assert end.is_terminal() and end.winner == winner == 1 - loser and end.turn + 1 == turns
    assert end.lives[winner] == cubes and end.lives[loser] == 0 and end.ended == "lava"
    last = [(s, a) for s, a in steps if s.turn == end.turn]
    plays = [a for s, a in last if s.phase == "decide" and a[0] == "play"]
    assert EDITION.cards[plays[-1][1]].name == card
    assert [a for s, a in last if s.phase == "chance" and s.pending[0][0] == "roll"][-1] == roll
    start = last[0][0].pos[loser]
    assert end.pos[loser] == landing == start + (distance if direction == "right" else -distance)
    assert _words(end.side(landing)) == kind and end.side(landing).kind == "lava"
    assert last[0][0].lives[loser] == 1


# -- the printed book ----------------------------------------------------------------------------------
def test_the_built_book_draws_the_seeded_setup(tmp_path):
    """The setup figure, read back from rulebook.pdf: both hands by name and every pile's count
    as the seeded deal has them."""
    options = PrintOptions.parse()
    render(documents(rulebook(EDITION, options), options), options, tmp_path)
    with pymupdf.open(tmp_path / "rulebook.pdf") as pdf:
        printed = _flat(" ".join(page.get_text() for page in pdf))
    seed = int(SETUP.search(plain(rulebook(EDITION, options))).group(1))
    s = new_game(EDITION, 2, seed)
    for p in (0, 1):
        names = ", ".join(EDITION.cards[c].name.title() for c in s.hand[p])
        assert f"hand: {names}" in printed
    assert f"{len(s.gpile)} ground pile" in printed and f"{len(s.fpile)} function pile" in printed
    assert f"supply: {s.supply}" in printed
    assert f"{s.lives[0]} life cubes" in printed


# -- what a first table asked (the printed answers against the engine) ----------------------------------
def test_a_lock_card_names_the_cards_the_engine_forbids():
    """Each Lock card names exactly the movement cards the engine will not let the locked player
    play (number cards with a forbidden number, die cards whose die shows only forbidden numbers),
    and says Push and Swap stay allowed: the engine never locks a function card but Double."""
    from tubedeck.games.keepmoving.resolve import legal_plays, mask

    s = new_game(EDITION, 2, 1)
    p = s.to_move
    hand = tuple(sorted([m.id for m in EDITION.movement] + ["push", "swap", "double"]))
    for lock in (f for f in EDITION.function if f.numbers):
        t = dataclasses.replace(s, hand=s.hand[:p] + (hand,) + s.hand[p + 1:],
                                locks=s.locks[:p] + (mask(lock.numbers),) + s.locks[p + 1:])
        allowed = {a[1] for a in legal_plays(t, p)}
        barred = [m.name for m in EDITION.movement if m.id not in allowed]
        names = ", ".join(barred[:-1]) + " or " + barred[-1]
        assert f"may not play {names}," in lock.text, (lock.name, barred)
        assert {"push", "swap", "double"} <= allowed and "Push, Swap" in lock.text
