"""Next Station's rulebook: the numbers it prints are the engine's and rules.toml's.

The worked example's table is replayed move by move through the rules engine (a move the rules
refuse, a card out of the deal's order or a score the line does not make fails here), the rules
numbers are compared with ``rules.toml`` read directly, and every term the rules lean on is
defined before it is used."""

from __future__ import annotations

import re
import tomllib

import pytest

from tubedeck.content import game_dir
from tubedeck.game import network
from tubedeck.games.nextstation.edition import load
from tubedeck.games.nextstation.examples import ROUND_SEED, game_example, held_map, round_example
from tubedeck.games.nextstation.play import CHANCE, PASS, new_game
from tubedeck.games.nextstation.rules import JOKER, QUESTION_MARK
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.generator import PrintOptions
from tubedeck.generator.nextstation.rulebook import rulebook
from tubedeck.generator.rulebook import plain

# The example's figures as the book prints them today: a change in the engine, the map generator
# or rules.toml that moves one fails here, so the text around them (the pass, the branch) is read
# again before the numbers are updated.
PINNED = {"districts": 5, "biggest": 4, "thames": 4, "points": 28, "tourist": 2, "total": 116}


@pytest.fixture(scope="module")
def ed():
    return load(network(None))


@pytest.fixture(scope="module")
def text(ed):
    return plain(rulebook(ed, PrintOptions.parse()))


@pytest.fixture(scope="module")
def toml():
    with open(game_dir("nextstation") / "rules.toml", "rb") as f:
        return tomllib.load(f)


def _section(text: str, heading: str) -> str:
    """The lines of ``## heading`` up to the next ``## ``."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line == f"## {heading}"
            continue
        if inside:
            out.append(line)
    return "\n".join(out)


def test_the_example_round_replays_through_the_engine_to_the_printed_score(ed, text):
    """Each row of the table is the next card of the seeded deal; each drawn section is applied to
    the engine (which refuses an illegal one); the line scores what the book says."""
    held = held_map(ed)
    board = held.board
    at = {board.coordinate(s.id): s.id for s in board.stations}
    rows = re.findall(r"^(.+?) \| (\d+|-) \| (.+)$", _section(text, "Worked example: a round"), re.M)
    assert len(rows) == len(round_example(ed).flips)
    state = new_game(held, 1, ROUND_SEED)
    card_words = {c.id: (c.face, c.deck) for c in held.cards}
    for words, turn, drawn in rows:
        assert state.current_player() == CHANCE
        flip = state.dealt_outcome()
        face, deck = card_words[flip[1]]
        name = "Railroad Switch" if face == "railroad-switch" else face.capitalize()
        assert words.startswith(f"{name} ({deck.capitalize()})"), (words, flip)
        state = state.apply(flip)
        if turn == "-":
            assert face == "railroad-switch" and state.current_player() == CHANCE
            continue
        move = re.match(r"^([A-J]\d+) to ([A-J]\d+) ", drawn)
        action = ("draw", at[move.group(1)], at[move.group(2)]) if move else PASS
        assert move or drawn == "nothing"
        state = state.apply(action)  # UsageError if the rules refuse it
    assert state.round == 1, "the table must run to the round's end"
    line = state.sheets[0].lines[0]
    score = line_score(board, held.book, line.stations, line.sections)
    printed = re.search(r"So the line scores (\d+) x (\d+) \+ (\d+) = (\d+)", text)
    assert printed, "the book prints the line's score"
    d, m, t, p = map(int, printed.groups())
    assert (d, m, t, p) == (score.districts, score.biggest, score.thames * held.rules.thames_points,
                            state.sheets[0].round_scores[0])
    assert f"has {score.thames} Thames sections" in text
    assert f"so {score.tourist_sites} tourist circles are crossed out" in text
    assert {"districts": d, "biggest": m, "thames": score.thames, "points": p,
            "tourist": score.tourist_sites} == {k: PINNED[k] for k in ("districts", "biggest", "thames", "points",
                                                                       "tourist")}


def test_the_final_score_example_is_the_engines(ed, text):
    """The same seed played to its end by the example's player: the book's sums are the score pad's."""
    game = game_example(ed)
    state = new_game(held_map(ed), 1, ROUND_SEED)
    from tubedeck.games.nextstation.examples import greedy_move
    while not state.is_terminal():
        state = state.apply(state.dealt_outcome() if state.current_player() == CHANCE else greedy_move(state))
    fs = state.final(0)
    assert game.total == fs.total == PINNED["total"]
    body = _section(text, "End of the game")
    assert f"scored {', '.join(str(v) for v in fs.lines[:-1])} and {fs.lines[-1]}, {sum(fs.lines)} in all" in body
    assert f"{fs.tourist_marks} tourist circles were crossed out: {fs.tourist} points" in body
    assert f"Total: {sum(fs.lines)} + {fs.tourist} + {fs.interchange_points} = {fs.total}" in body
    bands = ed.book.scores.solo_bands
    assert f"band {1 + sum(fs.total >= b for b in bands)} on the solo table" in body
    assert round_example(ed).points == fs.lines[0]


def test_the_rules_numbers_are_rules_toml(text, toml):
    r, s = toml["rules"], toml["scores"]
    assert f"{r['players_min']} to {r['players_max']} players" in text
    assert f"The game lasts {r['rounds']} rounds" in text
    assert f"{r['thames_points']} points for each Thames section" in text
    assert f"at most {r['tourist_marks_max']} circles" in text
    assert f"({', '.join(map(str, s['tourist_track']))}: 0 crossed out scores 0" in text
    inter = s["interchange"]
    assert f"exactly 2 of your lines scores {inter[2]}, on 3 lines {inter[3]}, on all 4 lines {inter[4]}" in text
    assert f"draw {r['objectives_drawn']} at random and lay them face up" in text
    assert f"subtract {r['solo_module_penalty']} points for each module" in text
    bands = s["solo_bands"]
    assert f"below {bands[0]} | 1" in text and f"{bands[-1]} or more | 6" in text
    for low, high in zip(bands, bands[1:]):
        assert f"{low} to {high - 1} |" in text
    assert f"one of the first {r['switch_ignored_turns']} cards" in text
    assert "the 5th Underground card" in text and r["round_end"] == 5


def test_the_components_are_counted_from_the_edition(ed, text):
    book = ed.book
    assert f"Station cards: {sum(not c.underground for c in book.cards)} Street, " \
           f"{sum(c.underground for c in book.cards)} Underground | {len(book.cards)}" in text
    assert f"Shared Objective cards | {len(book.objectives)}" in text
    assert f"Pencil Power cards | {len(book.powers)}" in text
    assert "4 coloured pencils: one green, pink, purple and blue." in text
    for o in book.objectives:
        assert f"{o.title}: {o.text}" in text
    for p in book.powers:
        assert f"{p.title}: {p.text}" in text


def test_every_term_is_defined_before_it_is_used(text):
    """Each term the rules lean on has its line under "Words used in these rules", and the
    controller (undefined in the old rules card) is first met there."""
    words = _section(text, "Words used in these rules")
    for term in ("Station", "Section", "Line", "End of a line", "Network", "Interchange", "District",
                 "Station card", "Flip", "Controller", "Turn", "Round"):
        assert re.search(rf"^\u2022 {term}: ", words, re.M), term
    first = text.lower().index("controller")
    assert first > text.index("## Words used in these rules")
    assert text[first - 2:first + 11] == "\u2022 Controller:"


def test_the_rulings_are_gathered(text):
    rulings = [line for line in text.splitlines() if line.startswith("Our ruling:")]
    for topic in ("everyone plays the same map", "Thames sections on our maps", "the Railroad Switch",
                  "the round score is a product", "pencils with 2 and 3 players", "interchanges and departures",
                  "counting an objective", "the powers", "solo bands"):
        assert any(line.startswith(f"Our ruling: {topic}.") for line in rulings), topic


def test_the_map_described_is_the_map_a_player_holds(ed, text):
    board = held_map(ed).board
    assert ed.sheet.board is board
    assert f"It holds {len(board.stations)} stations" in text
    assert f"{sum(s.tourist for s in board.stations)} stations with short spikes" in text
    assert f"There are {len(board.districts)} districts in all" in text
    assert f"on {ed.sheet.name}, the first page of map.pdf" in text


def test_a_section_to_the_question_mark_station_is_explained(ed, text):
    """A row of the example drawn to the ? station on a symbol card says why the symbol need not
    match (a first table read "Square ... to Goodge Street" as a mistake)."""
    board = held_map(ed).board
    ex = round_example(ed)
    faces = {f.turn: f.face for f in ex.flips if f.turn is not None}
    symbol_at = {board.coordinate(s.id): s.symbol for s in board.stations}
    wild = [m for m in ex.moves if symbol_at[m.end] == QUESTION_MARK and faces[m.turn] != JOKER]
    assert wild, "the pinned example draws to the ? station on a Square card"
    for m in wild:
        assert f"{m.start} to {m.end} {m.end_name} (the ? station)" in text
        assert f"took the line to {m.end} {m.end_name}, which is no {faces[m.turn]}: it is the ? station" in text


def test_what_a_first_table_asked_is_answered(text):
    """Round 1's pencils, the cover card, where the score card's missing boxes go, the solo
    challenge without modules, and the examples and rulings explained once."""
    assert "Deal the pencils at random: shuffle the 4 pencil cards face down" in text
    assert "Cover card, listing the contents | 1 | cards.pdf" in text
    assert "Where to write it." in _section(text, "End of the game")
    assert "Play it without modules" in _section(text, "Solo mode")
    assert "sample game 12" in text and "solo game 12" not in text and "seed 3" not in text
    about = text[:text.index("## Words used in these rules")]
    assert "the published rulebook" in about and "the source text" in about
