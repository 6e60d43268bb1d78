"""Tube Dice's rulebook (issue 44): the numbers it prints are the recipe's and the engine's.

* the rules values in the text are ``data/dice/recipe.toml``'s (read here with tomllib, not through
  the code that fills the text), and change when the recipe changes;
* the worked turn and the worked final score are the example game as the rules engine replays it
  (its actions applied again here, with the legality check on), read from the printed text;
* every decision of docs/dice.md's "Rule decisions" is in a ruling box, and the built PDF prints
  the worked score's totals.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pymupdf
import pytest

from tubedeck.games.dice.edition import load
from tubedeck.games.dice.examples import example_seed, replay, score_example, turn_example
from tubedeck.games.dice.play import new_game
from tubedeck.games.dice.recipe import load_recipe
from tubedeck.generator import PrintOptions, render
from tubedeck.generator.dice.rulebook import rulebook
from tubedeck.generator.rulebook import documents, plain
from tubedeck.network import Network

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "data" / "dice" / "recipe.toml"


@pytest.fixture(scope="module")
def ed():
    return load(Network.load())


@pytest.fixture(scope="module")
def text(ed) -> str:
    return plain(rulebook(ed, PrintOptions.parse()))


def _section(text: str, heading: str) -> str:
    """The lines of ``text`` from ``heading`` to the next heading of the same or a higher level."""
    lines = text.splitlines()
    start = lines.index(heading)
    level = len(heading) - len(heading.lstrip("#"))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= level), len(lines))
    return "\n".join(lines[start:end])


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def test_the_rules_values_are_the_recipes(text):
    game = tomllib.loads(RECIPE.read_text(encoding="utf-8"))["game"]
    dice, keep, use, end = game["dice"], game["keep"], game["use"], game["lines_to_end"]
    assert f"The roller rolls all {dice} dice." in text
    assert f"The roller keeps {keep} dice" in text
    assert f"Every other player uses any {use} of the {dice - keep} dice left" in text
    assert f"any player completes their {_nth(end)} line" in text
    assert f"{game['pass_points']} point for each pass you have not crossed off" in text
    assert f"A game that has not ended after {game['max_turns']} rolls ends there" in text
    assert f"replaced by {game['challenge_turns']} numbered rolls" in text
    assert f"You have {game['passes']} passes." in text  # solo: seat 1's track
    # the pass track: the base circles for everyone, the extras for the seats that get them
    extra = game["extra_passes"]
    per_seat = [game["passes"] + e for e in extra]
    assert f"{game['passes']} circles marked everyone and {max(extra)} marked {_nth(len(extra))} to roll" in text
    assert f"Passes: {per_seat[0]} each for the 1st-{_nth(len(extra) - 1)} to roll, {per_seat[-1]} for the " \
           f"{_nth(len(extra))}." in text
    assert f"{game['players_min'] + 1} to {game['players_max']} players, or solo" in text.splitlines()[1]
    components = _section(text, "## Components")
    assert "Map sheet (one per player per game) | 1 in this print" in components
    assert f"{dice} ordinary six-sided dice" in text


def test_a_changed_recipe_changes_the_printed_rules(tmp_path):
    """Change the recipe's end and passes: the book prints the new numbers (nothing is typed twice)."""
    source = RECIPE.read_text(encoding="utf-8")
    changed = source.replace("lines_to_end = 5 ", "lines_to_end = 4 ").replace("passes = 3 ", "passes = 4 ")
    assert changed != source
    recipe = tmp_path / "recipe.toml"
    recipe.write_text(changed, encoding="utf-8")
    ed = load(Network.load(), recipe=recipe, sheets=3, challenge=2)
    text = plain(rulebook(ed, PrintOptions.parse()))
    assert "any player completes their 4th line" in text and "5th line" not in text
    assert "You have 4 passes." in text
    assert "Map sheet (one per player per game) | 3 in this print" in text
    assert "Solo challenge page | 1 in this print" in text


def test_the_worked_turn_is_the_engines(ed, text):
    """Replay the example game's actions through the engine (legality checked) up to the worked
    turn, and read every number of it back from the printed paragraph."""
    game, ex = replay(ed, seed=example_seed(ed)), turn_example(ed)
    state = new_game(ed, game.players, game.seed)
    k = None
    for i, action in enumerate(game.actions):
        if (state.phase != "roll" and state.turn + 1 == ex.roll and state.to_move + 1 == ex.seat):
            k = i
            break
        state = state.apply(action)
    assert k is not None
    keep, station, number, sections = game.actions[k]
    assert keep == () and (station, number, sections) == (ex.station, ex.number, ex.sections)
    after = state.apply(game.actions[k])
    sheet, new = state.sheets[state.to_move], after.sheets[state.to_move]
    spent = sheet.passes - new.passes
    assert spent >= 1  # a turn with a pass
    board = ed.board
    name = board.stations[station].name
    worked = _section(text, "### A worked turn")
    dice = ", ".join(map(str, state.dice[:-1])) + f" and {state.dice[-1]}"
    assert f"roll {ex.roll} is player {state.active + 1}'s" in worked
    assert f"rolls {dice}" in worked
    assert f"use two of {', '.join(map(str, state.left[:-1]))} and {state.left[-1]}" in worked
    assert (f"write {number} in {name}" in worked if not sheet.nums[station]
            else f"{name} already holds {number}" in worked)
    assert f"cross off {spent} pass" in worked
    assert f"({sheet.passes} left before, {new.passes} after)" in worked
    marked = [board.stations[c.b if c.a == station else c.a].name for c in board.around[station]
              if new.marked >> c.index & 1 and not sheet.marked >> c.index & 1]
    assert marked and all(m in worked for m in marked)
    assert f"connections of {sections} section" in worked
    # the station die and connection die printed read the left dice as (number, sections) with that many passes
    die = re.search(r"They take (\d) as the station die", worked)
    shows = re.search(r"the connection die shows (\d)", worked)
    assert die and shows
    assert sorted([int(die.group(1)), int(shows.group(1))]) in [sorted(p) for p in
                                                                  _pairs(state.left)]
    assert abs(int(die.group(1)) - number) + abs(int(shows.group(1)) - sections) == spent


def _pairs(dice):
    return [[dice[i], dice[j]] for i in range(len(dice)) for j in range(len(dice)) if i != j]


def test_the_worked_score_is_the_engines(ed, text):
    """The final score table and the winner: the engine's scores at the end of the replayed game."""
    game = replay(ed, seed=example_seed(ed))
    state = new_game(ed, game.players, game.seed)
    for action in game.actions:
        state = state.apply(action)
    assert state.is_terminal()
    scores = state.scores()
    worked = _section(text, "### A worked final score")
    assert f"ended after roll {state.turn}," in worked
    rows = {int(m.group(1)): [int(x) for x in m.groups()[1:]]
            for m in re.finditer(r"^Player (\d) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+)$", worked, re.M)}
    assert sorted(rows) == list(range(1, game.players + 1))
    pp = ed.rules.pass_points
    for seat, (count, lines, zones, passes, total) in rows.items():
        sheet = state.sheets[seat - 1]
        assert total == scores[seat - 1]
        assert count == bin(sheet.lines).count("1")
        assert passes == pp * sheet.passes
        assert lines + zones + passes == total
    best = max(scores)
    winners = [i + 1 for i, s in enumerate(scores) if s == best]
    assert (f"Player {winners[0]} wins with {best} points." in worked if len(winners) == 1
            else "share the win" in worked)
    ender = [i + 1 for i, s in enumerate(state.sheets) if bin(s.lines).count("1") >= ed.lines_to_end]
    assert f"in which player {ender[0]} completed their {_nth(ed.lines_to_end)} line" in worked
    # the shared first completion the Scoring section cites is the engine's
    ex = score_example(ed)
    shared = re.search(r"players (\d) and (\d) both completed the (\w+) line in roll (\d+)", text)
    if shared:
        a, b, line, roll = shared.groups()
        for seat in (int(a), int(b)):
            done = [c for c in ex.scores[seat - 1].lines if c.name == line]
            assert done and done[0].roll == int(roll) and done[0].first


def test_every_rule_decision_is_a_ruling(text):
    """docs/dice.md's rule decisions each have their ruling box (the book's own words)."""
    rulings = [line for line in text.splitlines() if line.startswith("Our ruling.")]
    wants = {
        "empty station at the end of a marked connection": "an empty station at either end of a connection you have marked",
        "the first use is on the star": "Your first station is always the star",
        "every connection at once, marked ones count": "It is allowed when the station has at least one such connection",
        "using dice is optional": "Using dice is never compulsory",
        "passes by seat": "Passes: 3 each for the 1st-3rd to roll, 4 for the 4th",
        "ties for a first completion share": "all score its first points",
        "ties for the win share": "share the win",
        "the end on small maps and the roll cap": "A game that has not ended after",
        "who rolls": "the player who rolls first is the 1st to roll",
        "points are ours": "The text names no points",
        "solo": "has no solo game",
        "a shared track is one connection": "one connection with one row of boxes",
        "a boundary station counts for its lowest zone": "belongs to the lower zone",
    }
    missing = [what for what, words in wants.items() if not any(words in r for r in rulings)]
    assert not missing, missing
    assert all("\u00a0" not in r and "{" not in r for r in rulings)


def test_the_built_rulebook_prints_the_engines_totals(ed, tmp_path):
    opts = PrintOptions.parse(export="pdf", paper="a4")
    render(documents(rulebook(ed, opts), opts), opts, tmp_path)
    with pymupdf.open(tmp_path / "rulebook.pdf") as pdf:
        words = " ".join(page.get_text() for page in pdf)
    ex = score_example(ed)
    top = max(p.total for p in ex.scores)
    assert f"Player {ex.winners[0]} wins with {top} points." in " ".join(words.split())
    assert "Quick reference" in words
    assert "{" not in words and "}" not in words


def test_the_score_example_changes_with_the_points(tmp_path):
    """A different points rule (recipe [points] scale) changes the worked score the book prints."""
    source = RECIPE.read_text(encoding="utf-8")
    changed = source.replace("scale = 0.35", "scale = 0.6")
    assert changed != source
    recipe = tmp_path / "recipe.toml"
    recipe.write_text(changed, encoding="utf-8")
    base = plain(rulebook(load(Network.load()), PrintOptions.parse()))
    other = plain(rulebook(load(Network.load(), recipe=recipe), PrintOptions.parse()))
    assert load_recipe(recipe).points.scale == 0.6
    assert _section(base, "### A worked final score") != _section(other, "### A worked final score")


def test_a_first_tables_questions_are_answered_as_the_engine_plays(ed, text):
    """A first table's review of the printed rules: who gets the extra pass at a small table, whose
    die a pass changes, a crossing without a circle, the sample game, colour, the cover card, the
    sheet's summary in the book's words, and the solo answer cut out (not folded)."""
    rules = ed.rules
    first_extra = next(k for k in range(rules.players_max) if rules.passes_of(k) > rules.passes) + 1
    small = list(range(2, first_extra))
    assert small == [2, 3]  # the default recipe: only the 4th to roll gets an extra pass
    for players in small:  # a table without that seat: nobody gets it
        assert {s.passes for s in new_game(ed, players, 0).sheets} == {rules.passes}
    assert (f"With 2 or 3 players nobody is the {_nth(first_extra)} to roll, so nobody gets the extra pass: "
            f"everyone starts with {rules.passes}.") in text
    assert f"(with 2 or 3 players: {rules.passes} each)" in _section(text, "## Quick reference")
    # a pass is the player's own reading of a die (the engine's cost per sheet; the dice stay as rolled)
    assert "for you only: the die stays as rolled for everyone else" in _section(text, "### Passes")
    assert "for you only" in _section(text, "## Quick reference")
    assert "Where lines cross without a circle, there is no station." in text
    # no computer jargon for players: one sample game, explained once
    assert "seed" not in text and "tubedeck solve" not in text and "command" not in text
    assert text.count("sample game of") == 1 and "example game" not in text
    assert "tubedeck" not in ed.recipe.text.answer_credit
    assert "in colour if you can" in _section(text, "### What to bring") and "dash patterns" in text
    assert "Cover card | 1" in _section(text, "## Components")
    solo = _section(text, "## Solo")
    assert "cut it out" in solo and "fold" not in solo and "fold" not in _section(text, "## Quick reference")
    # the sheet's rules paragraph says it as the book does
    sheet = ed.recipe.rules_text()
    for words in ("very first use of dice in the game", "an empty station at the end of a connection you have marked",
                  "every one of its stations holds a number and every one of its connections is marked",
                  "circle its first number", "circle its later number", "for you only"):
        assert words in sheet, words
    assert "high" not in sheet and "low" not in sheet and "first turn" not in sheet
