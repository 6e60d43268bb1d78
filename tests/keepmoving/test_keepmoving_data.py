"""Keep Moving's components from data/keepmoving/ and the located errors for bad ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tubedeck.content import content
from tubedeck.errors import DataError
from tubedeck.games.keepmoving.edition import load

GOOD = content("keepmoving", "ground.csv").read_text()


def test_the_components_have_the_texts_counts():
    ed = load(None)
    assert len(ed.ground) == 28 and len(ed.movement_set) == 33
    counts = Counter(ed.movement_set)
    assert [counts[k] for k in ("one", "two", "three", "four", "five", "six")] == [2] * 6
    assert [counts[k] for k in ("even", "odd", "low", "high")] == [3] * 4
    assert counts["random"] == 7 and counts["draw"] == 2
    fn = Counter(ed.function_deck)
    assert len(ed.function_deck) == 16 and len(fn) == 14 and fn["life-potion"] == fn["protection"] == 2
    assert {f.id for f in ed.function if f.colour == "green"} == {"protection"}
    assert ed.dice["even"].faces == (2, 4, 6, 2, 4, 6) and ed.dice["high"].faces == (4, 5, 6, 4, 5, 6)
    assert all(not c.sides[1].symbol for c in ed.ground)


def _bad(tmp_path: Path, text: str) -> DataError:
    path = tmp_path / "ground.csv"
    path.write_text(text)
    with pytest.raises(DataError) as exc:
        load(None, ground=path)
    return exc.value


def test_a_composition_that_is_not_28_cards_is_refused(tmp_path):
    err = _bad(tmp_path, "\n".join(GOOD.splitlines()[:-1]) + "\n")
    assert "27 ground cards; the game has 28" in str(err)


def test_an_unknown_kind_or_symbol_is_named_with_its_line(tmp_path):
    lines = GOOD.splitlines()
    lines[3] = "g03,magma,function,grassland,"
    lines[5] = "g05,lava,teleport,grassland,"
    err = _bad(tmp_path, "\n".join(lines) + "\n")
    text = str(err)
    assert "ground.csv:4 [a_kind]: unknown kind 'magma'" in text
    assert "ground.csv:6 [a_symbol]: unknown symbol 'teleport'" in text


def test_a_symbol_on_side_b_is_refused(tmp_path):
    lines = GOOD.splitlines()
    lines[1] = "g01,lava,,grassland,replace"
    assert "ground.csv:2 [b_symbol]" in str(_bad(tmp_path, "\n".join(lines) + "\n"))


def test_a_bad_setup_text_or_deal_is_located(tmp_path):
    """The setup card's placeholders are rules values (or cards.derived); a deal the function cards
    cannot cover is refused."""
    from tubedeck.errors import Problem
    from tubedeck.games.keepmoving.cards import read_rules

    raw = content("keepmoving", "rules.toml").read_text()
    raw = raw.replace("Deal {start_function} face down", "Deal {start_functions} face down")
    raw = raw.replace("start_function = 3 ", "start_function = 9 ")
    (tmp_path / "rules.toml").write_text(raw)
    problems: list[Problem] = []
    read_rules(tmp_path / "rules.toml", problems)
    text = "\n".join(str(p) for p in problems)
    assert "[text.setup[2]]: unknown placeholder start_functions" in text
    assert "16 function cards cannot deal 9 to each player" in text
