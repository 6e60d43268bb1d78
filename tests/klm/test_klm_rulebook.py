"""Keep London Moving's rulebook: every number it prints against ``rules.toml``, the decks and a
fresh replay of its seeded games by the engine.

The rules values are read back from the printed text (:func:`tubedeck.generator.rulebook.plain`
and the built PDF) and compared with ``rules.toml`` and ``fortune.csv``, read here on their own;
the worked examples (the setup, a Fortune Card's effect, the win) are compared with the deal and a
replay of their seeded games, walked here move by move. So changing a rules value, a Fortune Card or
the engine changes the printed book, or fails here.
"""

from __future__ import annotations

import csv
import re
import tomllib

import pymupdf
import pytest

from tubedeck.content import content
from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.games.klm.examples import PLAYERS, SETUP_SEED, fortune_example, steady, win_example
from tubedeck.games.klm.play import new_game
from tubedeck.generator import PrintOptions
from tubedeck.generator.klm.plan import FRAME_WORDS
from tubedeck.generator.klm.rulebook import rulebook
from tubedeck.generator.pen import recording
from tubedeck.generator.rulebook import plain, read_source
from tubedeck.generator.sizes import Rect

from blank_pen import BlankPen
from conftest import run_cli as run


@pytest.fixture(scope="module")
def ed():
    return edition(registry()["klm"])  # the default deck (zone 1)


@pytest.fixture(scope="module")
def book(ed):
    return rulebook(ed, PrintOptions.parse())


@pytest.fixture(scope="module")
def text(book) -> str:
    return plain(book)


def flat(text: str) -> str:
    return " ".join(text.split())


def rules() -> dict:
    with content("klm", "rules.toml").open("rb") as f:
        return tomllib.load(f)["rules"]


def fortune_rows() -> list[dict]:
    with content("klm", "fortune.csv").open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def found(pattern: str, text: str) -> tuple[str, ...]:
    m = re.search(pattern, flat(text))
    assert m, f"the rulebook no longer says: {pattern}"
    return m.groups()


def replay(ed, seed: int, players: int = PLAYERS):
    """The seeded game, move by move: [(state, action)], and its end."""
    state, moves = new_game(ed, players, seed), []
    while not state.is_terminal():
        action = steady(state)
        moves.append((state, action))
        state = state.apply(action)
    return moves, state


# -- the rules values ----------------------------------------------------------------------------
def test_the_rules_values_print_as_rules_toml_has_them(text):
    r = rules()
    assert found(r"A card game for (\d+) to (\d+) players", text) == (str(r["players_min"]), str(r["players_max"]))
    assert found(r"One (\d+)-sided die", text) == (str(r["die"]),)
    assert found(r"Deal (\d+) Station Cards to each player, one at a time", text) == (str(r["hand"]),)
    assert found(r"put your (\d+) Station Cards back into the Station Cards Stock, shuffle it, and draw (\d+) new",
                 text) == (str(r["hand"]), str(r["unlucky_hand"]))
    assert found(r"On a (\d+), draw a Fortune Card from the Fortune Cards Stock", text) == (str(r["fortune_roll"]),)
    assert found(r"you may create at most (\d+) Connection", text) == (str(r["connections_per_turn"]),)
    assert found(r"you may play at most (\d+) Fortune Card from your hand", text) == (str(r["fortune_per_turn"]),)
    assert found(r"You may hold at most (\d+) Station Cards and (\d+) Fortune Cards", text) == (
        str(r["hand"]), str(r["fortune_hand"]))
    assert found(r"You win the moment your Play Field holds (\d+) continuous Active stations", text) == (str(r["path"]),)
    assert found(r"• (\d+): take any Station Card from another player's hand", text) == (str(r["fast_take_hand"]),)
    assert found(r"• (\d+): take a Station Card with at most one Connection from another player's Play Field",
                 text) == (str(r["fast_take_field"]),)
    assert found(r"the limit of (\d+) Fortune Cards stays", text) == (str(r["fortune_hand"]),)
    quick = text[text.index("[quickref]"):]
    assert found(r"Goal: (\d+) continuous Active stations", quick) == (str(r["path"]),)
    assert found(r"Roll\. (\d+): draw a Fortune Card", quick) == (str(r["fortune_roll"]),)
    assert found(r"keep at most (\d+) Station Cards and (\d+) Fortune Cards", quick) == (
        str(r["hand"]), str(r["fortune_hand"]))
    assert found(r"roll (\d+): take a Station Card from another player's hand; (\d+): take one", quick) == (
        str(r["fast_take_hand"]), str(r["fast_take_field"]))


def test_the_components_are_the_decks_counts(text, ed):
    kinds = fortune_rows()
    boundary = sum("/" in c.zone for c in ed.deck.cards)
    assert boundary  # the 1/2 stations are in the zone-1 deck, and the book says so
    assert (f"Station Cards: one for each station of the deck (zone 1, with the stations on its boundary "
            f"(Zone 1/2 on their cards)) | {len(ed.deck.cards)}") in text
    assert "Cover card: the title and the contents, printed with the Fortune Cards (not played) | 1" in text
    assert f"Fortune Cards: {len(kinds)} kinds | {sum(int(k['count']) for k in kinds)}" in text
    for k in kinds:  # each Fortune Card as its card prints it
        assert f"{k['name']} | {k['count']} | {' '.join(k['effect'].split())}" in text, k["name"]
    assert "Quick-reference cards (an aid, not played) | 2" in text  # the poker build's two reference cards


def test_a_bigger_deck_prints_its_own_count(london):
    text = plain(rulebook(edition(registry()["klm"], scope="london"), PrintOptions.parse()))
    assert "Station Cards: one for each station of the deck (the whole Underground) | 272" in text


def test_what_to_bring_is_the_dice_the_rules_roll():
    from tubedeck.generator.rulebook import bring

    book = rulebook(edition(registry()["klm"]), PrintOptions.parse())
    items = bring(book)
    assert items[0].startswith(f"One {rules()['die']}-sided die for the rolls")
    assert any("Disabled cards" in item for item in items)  # the rules' die on a Disabled card


# -- the examples against a replay ---------------------------------------------------------------
def test_the_setup_example_is_the_seeded_deal(text, ed):
    rolls, starter, first, draw, stock, fortune = found(
        r"the opening rolls were ([\d, and then]+): player (\d+) starts\. Their first roll is a (\d+), so they draw "
        r"(.+?)\. The Station Cards Stock holds (\d+) cards after the deal, the Fortune Cards Stock all (\d+) Fortune",
        text)
    deal = ed.deal(PLAYERS, SETUP_SEED)
    assert rolls == ", then ".join(", ".join(map(str, r[:-1])) + f" and {r[-1]}" for r in deal.opening_rolls)
    assert int(starter) == deal.starter + 1
    state = new_game(ed, PLAYERS, SETUP_SEED, unlucky=False)
    assert int(first) == state.roll == deal.turn_rolls[0]
    new = [c for c in state.hands[deal.starter] if c not in deal.hands[deal.starter]]
    assert draw == (state.name(new[0]) if new else "a Fortune Card")
    assert int(stock) == len(ed.deck.cards) - rules()["hand"] * PLAYERS
    assert int(fortune) == len(ed.fortune) == len(state.fortune_stock) + (0 if new else 1)


def test_the_setup_figure_draws_the_dealt_hands_and_piles(book, ed):
    """The figure is the deal: every dealt card by name, in its player's column, and the piles' counts."""
    figure = book.figures["setup"]
    deal = ed.deal(PLAYERS, SETUP_SEED)
    for width in (87.5, 124.5):  # a column of the two-column sheet, the booklet's page
        box = Rect(0, 0, width, width * figure.aspect)
        with recording() as log:
            figure.draw(BlankPen(width, box.h, box=box), box)
        drawn = " ".join(w.text for w in log)
        names = {c.station: c.name for c in ed.deck.cards}
        for seat, hand in enumerate(deal.hands):
            assert f"Player {seat + 1}" in drawn
            for card in hand:
                assert all(part in drawn for part in names[card].split()), names[card]
        assert f"{len(ed.deck.cards) - rules()['hand'] * PLAYERS} cards, face down" in drawn
        assert f"{len(ed.fortune)} cards, face down" in drawn
        assert min(w.size for w in log) >= 8.0
        for w in log:  # nothing outside the figure's box
            assert box.x - 1e-6 <= w.x and w.x + w.width <= box.right + 1e-6 and box.y <= w.y <= box.top


def test_the_fortune_example_is_a_replayed_game(text, ed, book):
    (players, turn, caster, card, own, station, victim, before, after) = found(
        r"An example from a real game \((\d+) players\)\. On turn (\d+), player (\d+) plays (.+?) in their own turn "
        r"(\d+) on (.+?), in player (\d+)'s Play Field: the longest row of connected Active stations there drops "
        r"from (\d+) to (\d+)\.", text)
    lasts, until, back, restored = found(
        rf"The card lasts (\d+) turns of player {caster}'s: so {re.escape(station)} is Active again when player "
        rf"{caster} finishes their own turn (\d+), turn (\d+) of the game, and player {victim}'s row is (\d+) long",
        text)
    kind = next(k for k in fortune_rows() if k["name"] == card)
    assert int(lasts) == int(kind["turns"]) and kind["action"] == "disable"
    moves, _ = replay(ed, fortune_example(ed).seed, int(players))  # the seed is not printed
    i = next(i for i, (s, a) in enumerate(moves) if s.turn + 1 == int(turn) and a[0] == "fortune")
    state, action = moves[i]
    assert state.to_move + 1 == int(caster) and state.own_turn() == int(own)
    assert state.table.fortune[action[1]].name == card and action[2] + 1 == int(victim)
    assert state.name(action[3]) == station
    seat, hit = int(victim) - 1, action[3]
    assert state.longest(seat) == int(before) and state.apply(action).longest(seat) == int(after)
    assert int(until) == int(own) + int(lasts)  # own turns, the turn of play not counted
    for later, _ in moves[i + 1:]:  # Disabled through the caster's own turn ``until``, Active after it
        assert (hit in later.disabled(seat)) == (later.turn < int(back)), later.turn
        if later.turn >= int(back):
            assert later.longest(seat) == int(restored)
            break
    assert book.values["fortune_back"] == int(back)


def test_the_win_example_is_a_replayed_game(text, ed):
    players, turn, own, winner, a, b, number = found(
        r"An example from a real game \((\d+) players\)\. On turn (\d+), their (\d+)(?:st|nd|rd|th) own turn, player "
        r"(\d+) connects (.+?) and (.+?) by Connection Number (\d+)\.", text)
    field, links, path, numbers, rounds, stock = found(
        r"Their Play Field now holds (\d+) Station Cards and (\d+) Connections, and among them \d+ continuous Active "
        r"stations: (.+?), joined by Connection Numbers ([\d, and]+)\. Player \d+ wins, in round (\d+), with (\d+) "
        r"Station Cards left", text)
    moves, end = replay(ed, win_example(ed).seed, int(players))  # the seed is not printed
    assert end.winner == int(winner) - 1 and end.turn + 1 == int(turn) and end.own_turns[end.winner] + 1 == int(own)
    last_state, last = moves[-1]
    assert last[0] == "connect" and {last_state.name(last[1]), last_state.name(last[2])} == {a, b}
    w, names = end.winner, {c.station: c.name for c in ed.deck.cards}
    fld = end.fields[w]
    assert (len(fld.cards), len(fld.links)) == (int(field), int(links))
    stations = [next(s for s, n in names.items() if n == name) for name in re.split(r", | and ", path)]
    assert len(stations) == rules()["path"] == len(set(stations))
    assert all(s not in end.disabled(w) for s in stations)  # all Active
    printed = [int(n) for n in re.split(r", | and ", numbers)]
    for (x, y), n in zip(zip(stations, stations[1:]), printed, strict=True):
        assert (min(x, y), max(x, y)) in fld.links  # a Connection in the winner's Play Field
        on_x = {c.number for c in ed.deck.by_station[x].connections if c.neighbour == y}
        on_y = {c.number for c in ed.deck.by_station[y].connections if c.neighbour == x}
        assert on_x == on_y == {n}  # the number both cards print
    assert int(number) == printed[[{names[p], names[q]} for p, q in zip(stations, stations[1:])].index({a, b})]
    assert int(rounds) == end.turn // int(players) + 1 and int(stock) == len(end.stock)


def test_the_win_figure_draws_the_path_and_its_numbers(book):
    figure = book.figures["win"]
    box = Rect(10, 20, 87.5, 87.5 * figure.aspect)
    with recording() as log:
        figure.draw(BlankPen(200, 200, box=Rect(0, 0, 200, 200)), box)
    drawn = " ".join(w.text for w in log)
    v = book.values
    for name in re.split(r", | and ", v["win_path"]):
        assert all(part in drawn for part in name.split()), name
    assert sorted(w.text for w in log if w.field == "figure" and w.text.isdigit()) == sorted(
        re.split(r", | and ", v["win_numbers"]))
    assert min(w.size for w in log) >= 8.0


# -- the rulings' facts, the words -------------------------------------------------------------
def test_the_terminus_ruling_names_the_decks_termini(london):
    deck = edition(registry()["klm"], scope="london").deck
    by_name = {c.name: c for c in deck.cards}
    text = read_source("klm")
    for name in ("Morden", "Ealing Broadway"):  # the full network's, named in the source
        assert name in text and by_name[name].terminus
    assert "in this deck: {termini}" in text  # and the printed deck's own, filled from it
    assert "Elephant & Castle" in text and not by_name["Elephant & Castle"].terminus
    bank, waterloo = by_name["Bank"], by_name["Waterloo"]
    assert waterloo.station not in {c.neighbour for c in bank.connections}  # they share no number


def test_the_frames_are_named_as_the_cards_print_them(text):
    for word in FRAME_WORDS.values():
        assert word in text
    said = found(r"\b(TUNNEL) \(a thick black frame\).+?(OPEN AIR) \(a double line\).+?(NOT KNOWN) \(no frame\)", text)
    assert said == (FRAME_WORDS["black"], FRAME_WORDS["white"], FRAME_WORDS[None])


def test_no_line_starts_with_a_value():
    """A line that starts with a value ("{win_last_number}. Their ...") would print as a numbered
    step once filled in ("5. Their ..."): every value sits after a word of the line."""
    for number, line in enumerate(read_source("klm").splitlines(), 1):
        assert not line.lstrip().startswith("{"), f"rulebook.md line {number}: {line}"


def test_the_book_prints_no_internal_ids(text, ed):
    ids = {c.station for c in ed.deck.cards if "-" in c.station} | {f.kind.id for f in ed.fortune}
    words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", text))
    assert not words & ids
    assert "seed" not in text.lower() and "scope" not in text.lower()


# -- the built PDF -------------------------------------------------------------------------------
def test_the_built_rulebook_prints_the_examples(tmp_path, capsys, book):
    code, _, err = run(capsys, "build", "klm", "--export", "pdf", "--out", str(tmp_path))
    assert code == 0, err
    for name in ("rulebook.pdf", "rulebook-booklet.pdf"):
        with pymupdf.open(tmp_path / "klm" / name) as doc:
            printed = flat(" ".join(page.get_text() for page in doc).replace("-\n", "-"))
        v = book.values
        assert f"On turn {v['win_turn']}, their {v['win_own_turn_ordinal']} own turn, player {v['win_winner']}" in printed
        assert f"Deal {rules()['hand']} Station Cards to each player" in printed
        assert f"turn {v['fortune_back']} of the game" in printed


def test_the_terminus_ruling_names_the_printed_decks_own_termini():
    game = registry()["klm"]
    ed = edition(game)
    printed = plain(rulebook(ed, PrintOptions.parse()))
    names = sorted(c.name for c in ed.deck.cards if c.terminus)
    assert names and f"in this deck: {names[0]}" in printed


def test_the_book_says_what_the_engine_does_where_a_first_table_asked(text, ed):
    """Unlucky Hand is asked after the opening roll, from seat 1 (the first dealt to), not from the
    starter; Fast Gameplay's field take may take a Disabled card (its die comes off); a game not won
    after MAX_TURNS turns ends without a winner."""
    from tubedeck.games.klm.records import MAX_TURNS

    state = new_game(ed, PLAYERS, SETUP_SEED)
    assert state.phase == "unlucky" and state.to_move == 0  # seat 1 asked first, whoever starts
    assert "from the first player dealt to and then clockwise (not from the starting player)" in flat(text)
    assert flat(text).index("Everybody rolls the die.") < flat(text).index("Unlucky Hand. After the roll")
    assert "A Disabled card may be taken too: take its die off" in flat(text)
    assert f"if nobody has won after {MAX_TURNS:,} turns" in flat(text)
    short = new_game(ed, PLAYERS, SETUP_SEED, max_turns=1, unlucky=False)
    while not short.is_terminal():  # end the one turn (discarding down to the limit if need be)
        short = short.apply(short.legal_actions()[-1])
    assert short.is_terminal() and short.winner is None and set(short.returns()) == {0.0}
    assert "There is no solo game" in text
