"""The solo challenge sheet (``build nextstation --challenge S``), read back from its PDF: the seed's
flips in order round by round, the answer strip (score, every move; a seed with no stored row
answered by the quick search as the sheet is made), located errors for bad rows of challenges.csv, text sizes; and the writer of that file.

Answers here come from games played through the rules engine (:mod:`tubedeck.games.nextstation.play`)
by a seeded bot, never typed in: the page must print whatever row the file holds."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest

from tubedeck import generator
from tubedeck.errors import DataError
from tubedeck.game import network
from tubedeck.games.nextstation.challenge import (
    COLUMNS,
    drawing_text,
    make_challenge,
    printed,
    read_answers,
    replay,
    which_map,
)
from tubedeck.games.nextstation.edition import load
from tubedeck.generator.document import Pages
from tubedeck.generator.nextstation.challenge import card_name, challenge_pages, coordinate
from tubedeck.generator.nextstation.faces import DECK_NAMES, NAMES, documents
from tubedeck.generator.pen import recording
from tubedeck.generator.sizes import MM

from conftest import run_cli
from ns_helpers import played
from ns_helpers import write_challenges as write

SEED = 3
LABEL = "1"  # the first map printed with the classic board played: generated map 1
MOVE = re.compile(r"turn \d+: \w+ -> \w+$")


@pytest.fixture(scope="module")
def classic():
    """``make run``'s edition: the classic board played, generated maps printed."""
    return load(network(None), challenge=str(SEED))


@pytest.fixture(scope="module")
def first(classic):
    """The map the challenge is for: the first one printed (generated map 1)."""
    return printed(classic)


@pytest.fixture(scope="module")
def rows(first, tmp_path_factory):
    """challenges.csv rows for the first printed map, from games played through the rules
    engine (seeds 3 and 5), so the page tests need no search."""
    games = {seed: played(first, seed) for seed in (SEED, 5)}
    path = write(tmp_path_factory.mktemp("rows") / "challenges.csv",
                 [[LABEL, seed, score, "OPTIMAL", score, drawing_text(rounds)] for seed, (score, rounds) in games.items()])
    return path, games


@pytest.fixture(scope="module")
def answered(classic, rows):
    """The challenge with an answer row from a played game (file named as the real one)."""
    path, games = rows
    score, rounds = games[SEED]
    return printed(classic), make_challenge(classic, answers=path), score, rounds


def render_challenge(ed, tmp: Path, paper: str = "a4", challenge=None):
    """The challenge page (the map sheet's last page; only that page for a ``challenge`` of the
    test's own) and what the Pen wrote on it."""
    opts = generator.PrintOptions.parse(paper=paper, export="pdf")
    if challenge is None:
        sheet = next(d for d in documents(ed, opts) if d.name == "map")
    else:
        sheet = Pages("map", challenge_pages(ed, NAMES, DECK_NAMES, challenge))
    with recording() as log:
        generator.render([sheet], opts, tmp)
    pdf = pymupdf.open(tmp / "map.pdf")
    last = pdf.page_count
    return pdf[last - 1], [w for w in log if w.page == last]


def spans(page) -> list[dict]:
    return [s for b in page.get_text("dict")["blocks"] for ln in b.get("lines", []) for s in ln["spans"]
            if s["text"].strip()]


# -- the page -----------------------------------------------------------------------------------
@pytest.mark.parametrize("paper, seed", [("a4", SEED), ("letter", 5)])  # 5: a Switch on turn 1, ignored
def test_the_page_prints_each_rounds_flips_in_order(tmp_path, paper, seed, rows):
    ed = load(network(None), challenge=str(seed))
    first = printed(ed)
    page, _ = render_challenge(ed, tmp_path, paper, challenge=make_challenge(ed, answers=rows[0]))
    found = spans(page)
    heads = sorted((s for s in found if s["text"].startswith("Round ") and ":" in s["text"] and s["size"] > 8.5),
                   key=lambda s: s["bbox"][0])
    assert len(heads) == 4
    foot = next(s["bbox"][1] for s in found if s["text"] == "Your score")  # the rounds end above it
    for k, (rnd, head) in enumerate(zip(make_challenge(ed, answers=rows[0]).rounds, heads)):
        assert head["text"] == f"Round {k + 1}: {rnd.pencil.capitalize()}"
        x0 = head["bbox"][0]
        x1 = heads[k + 1]["bbox"][0] if k < 3 else page.rect.width
        column = sorted((s for s in found if x0 - 2 <= (s["bbox"][0] + s["bbox"][2]) / 2 < x1 - 2
                         and head["bbox"][3] < s["bbox"][1] < foot),
                        key=lambda s: s["bbox"][1])
        text = [s["text"] for s in column]
        names = [t for t in text if t.startswith(("Street ", "Underground ", "Railroad Switch"))]
        want = [card_name(first, f.card, NAMES, DECK_NAMES) if f.turn else "Railroad Switch" for f in rnd.flips]
        joined = " ".join(text)
        assert joined.count("ignored") == sum(f.ignored for f in rnd.flips)
        assert joined.count("any station of") == sum(f.turn is None and not f.ignored for f in rnd.flips)
        cards = [w for w in want if not w.startswith("Railroad")]
        assert [n for n in names if not n.startswith("Railroad")] == cards
        assert [n[:len(w)] for n, w in zip(names, want)] == want  # the Switch where it was flipped
        turns = [t for t in text if t.isdigit()]
        assert turns == [str(i) for i in range(1, len(rnd.turns) + 1)]
        assert f"({coordinate(first, rnd.departure)})" in " ".join(text)
        assert "last turn of the round" in text
    text = page.get_text()
    assert f"Solo challenge {seed}" in text and "Your score" in text and "before playing" in text
    if seed == 5:
        assert any(f.ignored for r in make_challenge(ed, answers=rows[0]).rounds for f in r.flips)


def test_the_strip_prints_the_score_and_every_move(answered, tmp_path):
    ed, ch, score, rounds = answered
    page, _ = render_challenge(ed, tmp_path, challenge=ch)
    text = page.get_text()
    assert f"Best possible score: {score}" in text
    for draws in rounds:
        for t, u, v in draws:
            assert f"turn {t + 1}: {coordinate(ed, u)} -> {coordinate(ed, v)}" in text
    answer = [s for s in spans(page) if MOVE.match(s["text"]) or s["text"].startswith("Best possible")]
    assert len(answer) == 1 + sum(len(d) for d in rounds)
    # printed upside down: every answer span runs right to left
    for b in page.get_text("dict")["blocks"]:
        for ln in b.get("lines", []):
            if any(s in answer for s in ln["spans"]):
                assert ln["dir"][0] < -0.99


def test_an_unproven_answer_says_best_found_and_its_bound(classic, rows, tmp_path):
    score, rounds = rows[1][SEED]
    path = write(tmp_path / "challenges.csv", [[LABEL, SEED, score, "FEASIBLE", score + 40, drawing_text(rounds)]])
    page, _ = render_challenge(classic, tmp_path, challenge=make_challenge(classic, answers=path))
    text = " ".join(page.get_text().split())
    assert f"Best score we found: {score}. Can you beat it?" in text
    assert f"no game can score more than {score + 40}" in text and "Best possible" not in text


@pytest.fixture(scope="module")
def searched():
    """A generated map's challenge with no stored row (the longest command: --map 4 --zones 1-3)."""
    ed = load(network(None), map="4", zones="1-3", challenge="987654")
    return ed, make_challenge(ed)


@pytest.mark.slow
def test_a_missing_row_is_answered_by_the_quick_search_as_the_sheet_is_made(searched, tmp_path):
    """No stored row (item 7 wants an answer for any seed and map): the best-response search
    answers it, the rules engine agrees with its score, and the strip says it is a found score
    without a bound, with the command that searches longer."""
    unsolved, ch = searched
    assert (ch.answer.status, ch.answer.bound) == ("FEASIBLE", None)
    assert replay(unsolved, 987654, ch.answer.moves) == ch.answer.score > 0
    greedy, _ = played(unsolved, 987654)
    assert ch.answer.score >= greedy  # the search beats the greedy bot's game on the same deal
    page, _ = render_challenge(unsolved, tmp_path, challenge=ch)
    text = " ".join(page.get_text().split())
    assert f"Best score we found: {ch.answer.score}. Can you beat it?" in text
    assert "tubedeck solve nextstation --seed 987654 --game --map 4 --zones 1-3 searches longer" in text
    assert len([s for s in spans(page) if MOVE.match(s["text"])]) == sum(map(len, ch.answer.moves))
    assert which_map(load(network(None), map="4"))[2] == " --map 4"
    assert which_map(load(network(None), map="4", zones="1-3"))[2] == " --map 4 --zones 1-3"


@pytest.mark.slow
def test_a_generated_map_prints_the_challenge_after_its_map_page(tmp_path):
    ed = load(network(None), map="4", challenge="5")
    page, _ = render_challenge(ed, tmp_path / "out")
    assert page.number == 1  # page 2 of the map sheet, after map 4
    assert "Play it on map 4 (London, zones 1-2): page 1 of this file." in " ".join(page.get_text().split())
    score, rounds = played(ed, 5)
    path = write(tmp_path / "challenges.csv", [["4", 5, score, "OPTIMAL", score, drawing_text(rounds)]])
    ch = make_challenge(ed, answers=path)
    page, _ = render_challenge(ed, tmp_path / "answered", challenge=ch)
    assert f"Best possible score: {score}" in page.get_text()
    other = replace(ed, zones="1-3")
    assert 5 not in read_answers(path, other, which_map(other)[0])  # another map: not its row


@pytest.mark.parametrize("which", ["answered", "searched"])
def test_text_is_6pt_and_what_play_needs_7pt(which, request, tmp_path):
    ed, ch = request.getfixturevalue(which)[:2]
    page, log = render_challenge(ed, tmp_path, challenge=ch)
    ours = [w for w in log if w.field != "ruler"]
    assert ours and min(w.size for w in ours) >= 6.0
    play = [w for w in ours if w.field in ("flip", "move", "departure", "round", "coordinate", "answer")]
    assert {w.field for w in play} == {"flip", "move", "departure", "round", "coordinate", "answer"}
    assert min(w.size for w in play) >= 7.0 - 1e-6
    h = page.rect.height / MM
    printed = []
    for s in spans(page):  # the PDF agrees (the engine's ruler left out, as faces quality does)
        x, y = s["origin"][0] / MM, h - s["origin"][1] / MM
        near = min((w for w in log if w.text == s["text"]), key=lambda w: (w.x - x) ** 2 + (w.y - y) ** 2)
        if near.field != "ruler":
            assert s["size"] >= 6.95 if near.field != "note" else s["size"] >= 5.95, s["text"]
            printed.append(pymupdf.Rect(s["bbox"]))
    assert len(printed) == len(ours), (len(printed), len(ours))
    for i, a in enumerate(printed):  # no two texts overlap
        for b in printed[:i]:
            inter = a & b
            assert inter.is_empty or inter.width < 0.3 or inter.height < 0.3, (a, b)


def _cells(page) -> tuple[dict, dict, float]:
    """The printed map's grid off its PDF page: column centres by number, row centres by letter
    (the labels left of the grid), and the cell's size, in PDF points (y down)."""
    found = spans(page)
    digits = [s for s in found if s["text"] in {str(k) for k in range(1, 11)} and s["size"] < 7.5]
    top = min(s["bbox"][1] for s in digits)
    cols = {s["text"]: (s["bbox"][0] + s["bbox"][2]) / 2 for s in digits if s["bbox"][1] < top + 2}
    step = (cols["10"] - cols["1"]) / 9
    rows = {s["text"]: (s["bbox"][1] + s["bbox"][3]) / 2 for s in found if len(s["text"]) == 1
            and s["text"].isupper() and s["bbox"][2] < cols["1"] - step / 2 and s["bbox"][1] > top}
    return cols, rows, step


def test_make_runs_challenge_is_for_the_first_printed_map(capsys, tmp_path):
    """``make run`` prints 4 generated maps then challenge 1 with the classic board played: the
    challenge is for page 1's map (it was for the classic, never printed: on map 1 three of its
    four departures were empty cells), says so, and every cell it names is a station of that
    map: each round's departure carries its pencil's mark there on page 1, each move of the
    answer joins two stations of it."""
    code, _, err = run_cli(capsys, "build", "nextstation", "--sheets", "2", "--challenge", "1", "--out",
                           str(tmp_path), "--export", "pdf")
    assert code == 0, err
    board = load(network(None)).sheet.board
    name = load(network(None)).sheet.name
    with pymupdf.open(tmp_path / "nextstation" / "map.pdf") as pdf:
        assert pdf.page_count == 3
        assert name in pdf[0].get_text()
        page = pdf[2]
        text = " ".join(page.get_text().split())
        assert f"Play it on {name}: page 1 of this file." in text
        cols, rows, step = _cells(pdf[0])
        assert sorted(rows) == list("ABCDEFGHIJ") and len(cols) == 10
        def in_grid(s) -> bool:
            x, y = (s["bbox"][0] + s["bbox"][2]) / 2, (s["bbox"][1] + s["bbox"][3]) / 2
            return cols["1"] - step / 2 < x < cols["10"] + step / 2 and rows["A"] - step / 2 < y < rows["J"] + step / 2

        marks = {s["text"]: s for s in spans(pdf[0]) if in_grid(s) and len(s["text"]) <= 2}
        stations = {board.coordinate(s.id): s for s in board.stations}
        starts = re.findall(r"marked (\S+) \(([A-J]\d+)\)", text)
        assert len(starts) == 4
        for mark, cell in starts:
            assert cell in stations and stations[cell].departure, cell
            span = marks[mark]  # on page 1, the departure's mark sits in that cell
            x, y = (span["bbox"][0] + span["bbox"][2]) / 2, (span["bbox"][1] + span["bbox"][3]) / 2
            assert abs(x - cols[cell[1:]]) < step / 2 and abs(y - rows[cell[0]]) < step / 2, (mark, cell)
        moves = [s["text"] for s in spans(page) if MOVE.match(s["text"])]
        assert moves
        for move in moves:
            a, b = re.match(r"turn \d+: (\w+) -> (\w+)$", move).groups()
            assert a in stations and b in stations, move
            assert frozenset((stations[a].id, stations[b].id)) in board.section_between, move


# -- the data -----------------------------------------------------------------------------------
def test_the_reader_replays_a_row_and_takes_it(answered):
    _, ch, score, rounds = answered
    assert ch.answer.score == score and ch.kind == "generated" and ch.map == LABEL
    assert [[(m.turn - 1, m.start, m.end) for m in r] for r in ch.answer.moves] == rounds


@pytest.mark.parametrize("change, where, says", [
    (lambda d, s: (d.replace(":", ":zz", 1), s, "OPTIMAL", s), "drawing", "unknown station"),
    (lambda d, s: ("1:willesden-green>stratford;;;", s, "OPTIMAL", s), "drawing", "no section"),
    (lambda d, s: (d, s, "UNKNOWN", s), "status", "must be OPTIMAL or FEASIBLE"),
    (lambda d, s: (d, s, "FEASIBLE", s), "bound", "above it when FEASIBLE"),  # a bound met is a proof
    (lambda d, s: (d, s, "OPTIMAL", s + 3), "bound", "the score when OPTIMAL"),
    (lambda d, s: (d, s + 1, "OPTIMAL", s + 1), "score", "the drawing scores"),
    (lambda d, s: (d.split(";", 1)[1], s, "OPTIMAL", s), "drawing", "4 rounds"),
    (lambda d, s: ("1:willesden-green>hampstead;;;", s, "OPTIMAL", s), "drawing", "breaks a rule"),  # not from
])                                                                             # round 1's departure
def test_a_bad_row_is_a_located_data_error(classic, rows, tmp_path, change, where, says):
    score, rounds = rows[1][SEED]
    drawing, score, status, bound = change(drawing_text(rounds), score)
    path = write(tmp_path / "challenges.csv", [[LABEL, 99, 0, "OPTIMAL", 0, ";;;"],
                                               [LABEL, SEED, score, status, bound, drawing]])
    with pytest.raises(DataError) as err:
        make_challenge(classic, answers=path)
    problems = [p for p in err.value.problems if p.line == 3]
    assert problems and all(p.file == "challenges.csv" for p in problems), err.value
    assert any(p.column == where and says in p.message for p in problems), err.value


def test_rows_of_another_map_are_checked_only_for_their_own_fields(classic, tmp_path):
    path = write(tmp_path / "challenges.csv", [["4", 1, 100, "OPTIMAL", 100, "1:not-on-classic>x;;;"]])
    assert read_answers(path, classic, "classic") == {}
    bad = write(tmp_path / "challenges.csv", [["london", 1, 100, "OPTIMAL", 100, ""]])
    with pytest.raises(DataError, match=r"challenges.csv:2 \[map\]"):
        read_answers(bad, classic, "classic")


def test_the_bundled_file_is_well_formed_and_replays():
    """Every row, of the classic and of each generated map (as maps version 4 makes it), is
    well-formed and its drawing scores its score through the rules engine on its own map; and
    ``make run``'s challenge (seed 1 on the first printed map, generated map 1) has a row."""
    from tubedeck.content import content

    path = content("nextstation", "challenges.csv")
    assert path.read_text().splitlines()[0] == ",".join(COLUMNS)
    labels = {line.split(",", 1)[0] for line in path.read_text().splitlines()[1:]}
    assert LABEL in labels
    for label in sorted(labels):
        ed = load() if label == "classic" else load(network(None), map=label)
        assert which_map(ed)[0] == label
        rows = read_answers(path, ed, label)  # every row well-formed
        assert rows
        for seed, (_, answer) in rows.items():
            assert replay(ed, seed, answer.moves) == answer.score, (label, seed)
    assert 1 in read_answers(path, printed(load(network(None))), LABEL)


# -- the command line ---------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["-1", "4611686018427387904", "seven", "1e3"])
def test_a_challenge_seed_out_of_range_exits_2(capsys, tmp_path, value):
    code, _, err = run_cli(capsys, "build", "nextstation", "--challenge", value, "--out", str(tmp_path),
                           "--export", "pdf")
    assert code == 2 and "--challenge must be a flip seed" in err
    assert not (tmp_path / "nextstation").exists()


def test_build_prints_the_challenge_after_the_map(capsys, tmp_path):
    code, _, err = run_cli(capsys, "build", "nextstation", "--challenge", "1", "--out", str(tmp_path),
                           "--export", "pdf")
    assert code == 0, err
    with pymupdf.open(tmp_path / "nextstation" / "map.pdf") as pdf:
        assert pdf.page_count == 2 and "Solo challenge 1" in pdf[1].get_text()


def test_a_bad_bundled_row_stops_the_build_with_its_place(capsys, tmp_path, monkeypatch):
    import tubedeck.games.nextstation.challenge as reader

    bad = write(tmp_path / "challenges.csv", [[LABEL, 7, 100, "OPTIMAL", 100, "1:swiss-cottage>nowhere;;;"]])
    monkeypatch.setattr(reader, "content", lambda game, name: bad if name == "challenges.csv" else
                        reader.game_dir(game) / name)
    code, _, err = run_cli(capsys, "build", "nextstation", "--challenge", "7", "--out", str(tmp_path / "out"),
                           "--export", "pdf")
    assert code == 2 and "challenges.csv:2" in err and "unknown station 'nowhere'" in err
    assert not (tmp_path / "out" / "nextstation").exists()
