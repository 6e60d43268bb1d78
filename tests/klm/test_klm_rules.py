"""Keep London Moving's rules values come from data/klm/rules.toml: the deal, the checker and the
printed texts all follow an edited file, and a bad file is reported by table and key."""

from __future__ import annotations

import dataclasses
import re

import pytest

from tubedeck.content import content
from tubedeck.errors import DataError
from tubedeck.games.klm.rules import load_rules
from tubedeck.games.klm.setup import deal
from tubedeck.solver.klm.model import solve_deal


def edited(tmp_path, *edits):
    text = content("klm", "rules.toml").read_text()
    for pattern, new in edits:
        changed = re.sub(pattern, new, text, count=1, flags=re.M)
        assert changed != text, pattern
        text = changed
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return path


def test_printed_texts_fill_their_numbers_from_the_rules(tmp_path):
    book = load_rules(edited(tmp_path, (r"^hand = 5", "hand = 7"), (r"^fortune_hand = 2", "fortune_hand = 3")))
    assert book.rules.hand == 7
    text = " ".join(" ".join(r.lines) for r in book.texts.reference)
    assert "hold at most 7 Station Cards + 3 Fortune Cards" in text and "shuffle your 7 Station Cards into the stock" in text
    assert book.texts.fortune_footer.endswith("Hand limit: 3 Fortune Cards.")
    bundled = load_rules()
    assert "hold at most 5 Station Cards + 2 Fortune Cards" in " ".join(" ".join(r.lines) for r in bundled.texts.reference)


def test_the_deal_and_the_checker_read_the_rules(london):
    from tubedeck.games.klm.edition import load

    ed = load(london, "zone 1")
    stations = tuple(c.station for c in ed.deck.cards)
    six = dataclasses.replace(ed.rules, hand=6)
    assert {len(h) for h in deal(stations, (), 3, 5, six).hands} == {6}
    # a shorter winning path can only make wins earlier, and somewhere strictly earlier
    earlier = 0
    for seed in range(12):
        d = ed.deal(3, seed)
        _, five = solve_deal(ed.adjacency, d, 5)
        _, four = solve_deal(ed.adjacency, d, 4)
        for a, b in zip(five, four, strict=True):
            assert all(len(x.path) == n for x, n in ((a, 5), (b, 4)) if x.turn is not None)
            if a.turn is not None:
                assert b.turn is not None and b.turn <= a.turn
                earlier += b.turn < a.turn
    assert earlier > 0


def test_a_bad_rules_file_is_located(tmp_path):
    bad = edited(tmp_path, (r"^path = 5", 'path = "five"'), (r"^die = 6", "die = 6\nsides = 6"),
                 (r"^connections_per_turn = 1", "connections_per_turn = 2"))
    with pytest.raises(DataError) as info:
        load_rules(bad)
    found = [str(p) for p in info.value.problems]
    assert any("[rules.path]: must be a whole number, got 'five'" in p for p in found), found
    assert any("[rules.sides]: unknown key" in p for p in found), found
    bad = edited(tmp_path, (r"\{hand\} Station Cards \+", "{hnad} Station Cards +"))
    with pytest.raises(DataError, match=r"unknown placeholder \{hnad\}"):
        load_rules(bad)
