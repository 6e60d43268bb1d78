"""The solo challenge (``tubedeck build nextstation --challenge S``): seed S's solo deal laid out
round by round, so a player plays without the cards, and the best game known from
``data/nextstation/challenges.csv`` (written by ``python -m research.nextstation.challenges``).

A row of that file is ``map,seed,score,status,bound,drawing``: ``map`` is ``classic`` or a
generated map's seed (generated with the default zones), ``status`` is ``OPTIMAL`` (proven best:
``bound`` equals ``score``) or ``FEASIBLE`` (the best game found, ``bound`` the proven most any
game can score: the sheet says "best found", never "best possible"), and ``drawing`` is the 4 rounds joined by ``;``, each a ``,``-joined list of moves
``T:U>V`` (T the 1-based turn of that round, U and V station ids). Pencils and departures are not
stored: they come from the seed's deal. Every row of the map played is checked (stations and
sections exist, turns in order); the printed row is also replayed through the rules engine
(:mod:`.play`), so a drawing that breaks a rule, or a score it does not reach, is a located
:class:`~tubedeck.errors.DataError`, never a wrong answer on paper. A seed with no row (any
seed beyond the stored ones, any generated map but the stored ones, a map folder) is answered as
the sheet is made by the best-response search (:mod:`.responses`, 10-35 s): "best found", with
the command that searches longer, since it has no bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from tubedeck.content import Row, content, data_root, game_dir, is_whole_text, read_csv, read_toml
from tubedeck.errors import DataError, Problem, UsageError

from .board import load_board
from .edition import MAX_CHALLENGE as MAX_SEED
from .edition import Edition, deal
from .flips import Turn, turns, turns_so_far
from .play import PASS, new_game
from .responses import best_responses, lines_of
from .scoring import final_score

COLUMNS = ("map", "seed", "score", "status", "bound", "drawing")
STATUSES = ("OPTIMAL", "FEASIBLE")  # proven best, or the best found with its bound
CLASSIC = "classic"
DEFAULT_ZONES = "1-2"  # generated maps' answers are for the default zones only
TEXTS = ("title", "how", "classic", "generated", "folder", "departure", "switch", "switch_ignored", "round_end",
         "score", "fold", "answer", "credit", "answer_found", "credit_found", "credit_searched", "key")
PLACEHOLDERS = {"seed": 0, "map": "", "score": 0, "bound": 0, "command": "", "pencil": "", "mark": "", "last_row": "J",
                "cols": 10,
                "round_end": 5, "switch_ignored_turns": 2}
MOVE = re.compile(r"^(\d{1,3}):([^>:]+)>([^>:]+)$")


@dataclass(frozen=True)
class Flip:
    """One card flipped in a round, in order: a turn's card, or a Railroad Switch."""

    card: str  # card id
    turn: int | None  # the 1-based turn it gives; None for a Railroad Switch
    ignored: bool = False  # a Switch flipped on turn 1 or 2 of the round
    last: bool = False  # the round's last Underground card: the round ends after its section


@dataclass(frozen=True)
class Round:
    pencil: str
    departure: str  # station id
    flips: tuple[Flip, ...]  # up to the round's end (later cards are never flipped)
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Move:
    turn: int  # 1-based turn of its round
    start: str  # station id the section starts from
    end: str  # station id it reaches


@dataclass(frozen=True)
class Answer:
    score: int
    status: str
    bound: int | None  # None: searched as the sheet was made (best responses), with no bound
    moves: tuple[tuple[Move, ...], ...]  # per round


@dataclass(frozen=True)
class Challenge:
    seed: int
    map: str  # as challenges.csv names it: "classic", a generated map's seed; else a title
    kind: str  # "classic", "generated" or "folder"
    rounds: tuple[Round, ...]
    answer: Answer  # the stored row's, else searched as the sheet is made (make_challenge)
    texts: tuple[tuple[str, str], ...]  # challenge.toml's [text], as (key, text) pairs
    flags: str = ""  # the map's options on the command line: " --map 4"

    def text(self, key: str, **values) -> str:
        """A printed text with its placeholders filled (checked on load)."""
        return dict(self.texts)[key].format(**{**PLACEHOLDERS, **values})

    @property
    def command(self) -> str:
        """The command that proves this challenge's best game."""
        return f"tubedeck solve nextstation --seed {self.seed} --game{self.flags}"


def deal_rounds(edition: Edition, seed: int) -> tuple[Round, ...]:
    """The solo deal's rounds: pencil, departure and the cards flipped up to each round's end."""
    d = deal(edition, 1, seed)
    book = edition.book
    out = []
    for r, order in enumerate(d.flips):
        ts = turns(book, order)
        flips: list[Flip] = []
        for position, ident in enumerate(order, start=1):
            if book.card(ident).switch:
                flips.append(Flip(ident, None, ignored=position <= book.rules.switch_ignored_turns))
                continue
            k = sum(f.turn is not None for f in flips)
            flips.append(Flip(ident, k + 1, last=ts[k].last))
            if ts[k].last:
                break
        pencil = d.pencils[0][r]
        out.append(Round(pencil, edition.board.departure(pencil).id, tuple(flips), ts))
    return tuple(out)


def parse_drawing(text: str, rounds: int, board, problem) -> tuple[tuple[Move, ...], ...] | None:
    """``T:U>V`` moves, ``,`` within a round, ``;`` between rounds; ``problem(message)`` for
    each fault (None is returned if there was any)."""
    parts = text.split(";")
    if len(parts) != rounds:
        problem(f"drawing must hold {rounds} rounds joined by ';', found {len(parts)}")
        return None
    out, ok = [], True
    for r, part in enumerate(parts, start=1):
        moves: list[Move] = []
        for raw in filter(None, (p.strip() for p in part.split(","))):
            m = MOVE.match(raw)
            if not m:
                problem(f"round {r}: {raw[:30]!r} is not a move T:FROM>TO")
                ok = False
                continue
            t, u, v = int(m[1]), m[2].strip(), m[3].strip()
            unknown = [s for s in (u, v) if s not in board.by_id]
            if unknown:
                problem(f"round {r}, turn {t}: unknown station {unknown[0]!r}")
                ok = False
            elif frozenset((u, v)) not in board.section_between:
                problem(f"round {r}, turn {t}: there is no section {u}-{v} on this map")
                ok = False
            elif t < 1 or (moves and t <= moves[-1].turn):
                problem(f"round {r}: turn {t} out of order (turns count from 1, one move a turn)")
                ok = False
            moves.append(Move(t, u, v))
        out.append(tuple(moves))
    return tuple(out) if ok else None


def replay(edition: Edition, seed: int, moves: tuple[tuple[Move, ...], ...]) -> int:
    """The drawing played through the rules engine on the seed's solo deal: its final score
    (UsageError naming the first move the rules refuse or that never gets its turn)."""
    state = new_game(edition, 1, seed)
    left = {(r, m.turn): m for r, ms in enumerate(moves) for m in ms}
    while not state.is_terminal():
        flip = state.dealt_outcome()
        if flip is not None:
            state = state.apply(flip)
            continue
        r, t = state.round, len(turns_so_far(edition.book, state.flipped)[0])
        m = left.pop((r, t), None)
        if m is not None and ("draw", m.start, m.end) not in state.legal_actions():
            raise UsageError(f"round {r + 1}, turn {t}: {m.start}>{m.end} breaks a rule of the game")
        state = state.apply(PASS if m is None else ("draw", m.start, m.end))
        if state.round != r:  # the round is over: any move left for it never had its turn
            late = sorted(k[1] for k in left if k[0] == r)
            if late:
                raise UsageError(f"round {r + 1} has {t} turns; the drawing has a move on turn {late[0]}")
    return state.final(0).total


MAX_SEEDS = 10_000  # seeds a developer's tool takes at once (--seeds A-B)


def seed_range(text: str) -> range:
    """``--seeds A-B`` (or a single seed) as a range; UsageError otherwise."""
    lo, dash, hi = text.strip().partition("-")
    if not (lo.isascii() and lo.isdigit()) or (dash and not (hi.isascii() and hi.isdigit())):
        raise UsageError(f"--seeds must be A-B (whole numbers), got {text!r}")
    out = range(int(lo), int(hi or lo) + 1)
    if not 1 <= len(out) <= MAX_SEEDS:
        raise UsageError(f"--seeds must name 1-{MAX_SEEDS} seeds, A <= B, got {text!r}")
    return out


def read_rows(path: Path) -> dict[tuple[str, str], list[str]]:
    """The file's rows by (map, seed), as text (an absent file: none); the columns checked, not
    the drawings (:func:`read_answers` does that for one map)."""
    if not path.exists():
        return {}
    problems: list[Problem] = []
    rows = read_csv(path, COLUMNS, problems, allow_empty=True)
    if problems:
        raise DataError(problems)
    return {(r["map"], r["seed"]): [r[c] for c in COLUMNS] for r in rows}


def read_answers(path: Path, edition: Edition, label: str) -> dict[int, tuple[Row, Answer]]:
    """``seed -> (row, answer)`` of the rows for map ``label`` (DataError listing every bad row)."""
    problems: list[Problem] = []
    rows = read_csv(path, COLUMNS, problems, allow_empty=True)
    out: dict[int, tuple[Row, Answer]] = {}
    for row in rows:
        bad = len(problems)
        if row["map"] != CLASSIC and not is_whole_text(row["map"]):
            problems.append(row.problem("map", f"must be classic or a generated map's seed, got {row['map']!r}"))
        if not is_whole_text(row["seed"]) or int(row["seed"]) >= MAX_SEED:
            problems.append(row.problem("seed", f"must be a whole number 0-{MAX_SEED - 1}, got {row['seed']!r}"))
        if not is_whole_text(row["score"], 4):
            problems.append(row.problem("score", f"must be a whole number, got {row['score']!r}"))
        if row["status"] not in STATUSES:
            problems.append(row.problem("status", f"must be {' or '.join(STATUSES)}, got {row['status']!r}"))
        elif not is_whole_text(row["bound"], 4) or (is_whole_text(row["score"], 4) and (
                int(row["bound"]) < int(row["score"]) or (row["status"] == "OPTIMAL") != (row["bound"] == row["score"]))):
            problems.append(row.problem("bound", f"must be a whole number, the score when OPTIMAL and above it "
                                                 f"when FEASIBLE, got {row['bound']!r}"))
        if len(problems) > bad or row["map"] != label:
            continue
        moves = parse_drawing(row["drawing"], edition.rules.rounds, edition.board,
                              lambda message, row=row: problems.append(row.problem("drawing", message)))
        seed = int(row["seed"])
        if seed in out:
            problems.append(row.problem("seed", f"map {label} seed {seed} has another row (line {out[seed][0].line})"))
        elif moves is not None:
            out[seed] = (row, Answer(int(row["score"]), row["status"], int(row["bound"]), moves))
    if problems:
        raise DataError(problems)
    return out


def load_texts(path: Path | None = None) -> tuple[tuple[str, str], ...]:
    path = path or content("nextstation", "challenge.toml")
    raw = read_toml(path).get("text", {})
    problems = []
    for key in TEXTS:
        value = raw.get(key)
        if not isinstance(value, str) or not value:
            problems.append(Problem(path.name, None, f"text.{key}", "missing or not a string"))
            continue
        try:
            value.format(**PLACEHOLDERS)
        except (KeyError, IndexError, ValueError) as exc:
            problems.append(Problem(path.name, None, f"text.{key}", f"unknown or malformed placeholder: {exc}"))
    if problems:
        raise DataError(problems)
    return tuple((k, raw[k]) for k in TEXTS)


def which_map(edition: Edition) -> tuple[str, str, str]:
    """(label, kind, command-line flags) of the edition's map: ``classic`` (the classic board,
    from any folder), a generated map's seed (with another zones, a label no row can hold), or
    a map folder's title."""
    made = edition.generated
    if made is not None:
        if edition.zones == DEFAULT_ZONES:
            return str(made.seed), "generated", f" --map {made.seed}"
        return f"{made.seed}, zones {edition.zones}", "generated", f" --map {made.seed} --zones {edition.zones}"
    if edition.board == load_board(game_dir("nextstation"), edition.rules, prefix="classic-"):
        return CLASSIC, CLASSIC, ""
    return edition.board.title, "folder", " --map FOLDER"


def answers_apply(edition: Edition, kind: str) -> bool:
    """Whether the bundled answers may be about this map: the classic, or a map generated from
    the bundled dataset."""
    source = str(getattr(edition.network, "source", ""))
    return kind == CLASSIC or (kind == "generated" and source == str(data_root()))


def printed(edition: Edition) -> Edition:
    """The edition the challenge is played on: the first map the map sheet prints (page 1 of
    map.pdf). That is the played map with ``--map SEED``; the classic board and a map folder are
    never printed, so with them (``make run``'s default) it is the first generated map of the
    file, as :attr:`Edition.sheet_maps` makes it: a challenge for a board the player does not
    hold would name empty cells and answer for another map."""
    made = edition.sheet
    if edition.generated is made:
        return edition
    return replace(edition, board=made.board, generated=made, sheets=1)


def make_challenge(edition: Edition, seed: int | None = None, answers: Path | None = None) -> Challenge:
    """The challenge of ``seed`` (default: the edition's ``--challenge``) on the first printed
    map (:func:`printed`), with its answer from ``answers`` (default: the bundled challenges.csv,
    when it is about this map). DataError, located, for a bad row; UsageError if the edition has
    no challenge."""
    seed = edition.challenge if seed is None else seed
    if seed is None:
        raise UsageError("no --challenge seed given")
    edition = printed(edition)
    label, kind, flags = which_map(edition)
    rounds = deal_rounds(edition, seed)
    answer: Answer | None = None
    if kind != "folder" and (answers is not None or answers_apply(edition, kind)):
        found = read_answers(answers or content("nextstation", "challenges.csv"), edition, label).get(seed)
        if found is not None:
            answer = replayed(edition, seed, *found)
    if answer is None:
        answer = searched(edition, seed, rounds)
    return Challenge(seed, label, kind, rounds, answer, load_texts(), flags)


def stored_answer(edition: Edition, seed: int) -> Answer | None:
    """The bundled answer of ``seed`` on the edition's own map (not :func:`printed`'s), or None
    where the file has no row for it (a map folder, other zones, a dataset of its own). The row
    is replayed through the rules engine: a drawing it refuses is a located DataError."""
    label, kind, _ = which_map(edition)
    if kind == "folder" or not answers_apply(edition, kind):
        return None
    found = read_answers(content("nextstation", "challenges.csv"), edition, label).get(seed)
    return None if found is None else replayed(edition, seed, *found)


def replayed(edition: Edition, seed: int, row: Row, answer: Answer) -> Answer:
    """``answer`` once the rules engine has replayed its drawing to its score (else a DataError
    located at the row: never a wrong answer on paper)."""
    try:
        total = replay(edition, seed, answer.moves)
    except UsageError as exc:
        raise DataError([row.problem("drawing", str(exc))]) from None
    if total != answer.score:
        raise DataError([row.problem("score", f"the drawing scores {total}, not {answer.score}")])
    return answer


def searched(edition: Edition, seed: int, rounds: tuple[Round, ...]) -> Answer:
    """A seed with no stored answer is answered now by the best-response search (no kicks: some
    10-35 s on the classic map), replayed through the rules engine like a stored row."""
    plan = tuple((r.turns, r.departure) for r in rounds)
    draws = best_responses(edition.board, edition.book, plan)
    total = final_score(edition.board, edition.book, *lines_of(edition.board, plan, draws)).total
    moves = tuple(tuple(Move(t + 1, u, v) for t, u, v in ds) for ds in draws)
    played = replay(edition, seed, moves)
    if played != total:  # the search and the rules engine must agree (tested): never a wrong answer on paper
        raise RuntimeError(f"challenge {seed}: the search scored {total}, the rules engine {played}")
    return Answer(total, "FEASIBLE", None, moves)


def drawing_text(draws_by_round) -> str:
    """The ``drawing`` column for rounds of ``(turn0, from, to)`` draws (0-based turns, as the
    solver reports them)."""
    return ";".join(",".join(f"{t + 1}:{u}>{v}" for t, u, v in draws) for draws in draws_by_round)
