"""Next Station: London's rules values and printed texts (``data/nextstation/rules.toml``), the
Station cards (``cards.csv``) and the Shared Objectives and Pencil Powers (our own words).

Every number the engine, the solver and the faces use is read here once, as frozen values, with
located errors (file, table.key or line and column) for anything malformed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tubedeck.content import game_dir, is_whole_text, read_csv, read_toml, read_values
from tubedeck.errors import DataError, Problem

JOKER = "joker"
SWITCH = "railroad-switch"
DECKS = ("street", "underground")
QUESTION_MARK = "question-mark"  # the central station's symbol: any card reaches it
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


@dataclass(frozen=True)
class Rules:
    """The rulebook's numbers (``[rules]``)."""

    players_min: int
    players_max: int
    rounds: int
    round_end: int
    switch_ignored_turns: int
    thames_points: int
    tourist_marks_max: int
    objective_points: int
    objectives_drawn: int
    solo_module_penalty: int
    symbols: tuple[str, ...]
    pencils: tuple[str, ...]
    main_districts: int  # a map's districts: this many main ones (boxes apart) ...
    corner_districts: int  # ... and this many corner ones (boxes apart)
    question_marks: int  # stations with the ? (any card reaches them)
    symbol_spread: int  # the most and the fewest stations of one symbol differ by at most this


@dataclass(frozen=True)
class Scores:
    """Scoring tables (``[scores]``): index = crossed circles / lines through a station."""

    tourist_track: tuple[int, ...]
    interchange: tuple[int, ...]
    solo_bands: tuple[int, ...]

    def tourist(self, marks: int) -> int:
        return self.tourist_track[min(marks, len(self.tourist_track) - 1)]


@dataclass(frozen=True)
class Card:
    """One Station card. ``face`` is a symbol, ``joker`` or ``railroad-switch``."""

    id: str
    deck: str  # "street" (blue) or "underground" (pink and yellow): the latter count to round end
    face: str

    @property
    def underground(self) -> bool:
        return self.deck == "underground"

    @property
    def switch(self) -> bool:
        return self.face == SWITCH


@dataclass(frozen=True)
class Objective:
    id: str
    measure: str
    threshold: int
    text: str
    title: str = ""  # the card's name ("Eight interchanges")
    example: str = ""  # the card's example sentence


@dataclass(frozen=True)
class Power:
    id: str
    text: str
    title: str = ""  # the card's name ("Double section")
    example: str = ""  # the card's example sentence


@dataclass(frozen=True)
class RuleBook:
    rules: Rules
    scores: Scores
    cards: tuple[Card, ...]
    objectives: tuple[Objective, ...]
    powers: tuple[Power, ...]
    colours: dict
    texts: dict

    @property
    def players_min(self) -> int:
        return self.rules.players_min

    @property
    def players_max(self) -> int:
        return self.rules.players_max

    def card(self, ident: str) -> Card:
        return next(c for c in self.cards if c.id == ident)

    @cached_property
    def card_by_id(self) -> dict[str, Card]:
        """The cards by id (the engine reads it on every flip)."""
        return {c.id: c for c in self.cards}

    @cached_property
    def card_flags(self) -> dict[str, tuple[bool, bool, str | None]]:
        """Per card id: (a Railroad Switch, Underground, the symbol to reach: None for a Joker),
        what a flip needs, as plain values (the engine reads them on every flip)."""
        return {c.id: (c.switch, c.underground, None if c.face == JOKER else c.face) for c in self.cards}


MEASURES = ("interchanges", "districts", "tourist-sites", "central-stations", "thames")


def _int_list(raw: dict, key: str, where: str, problems: list[Problem], length: int | None = None) -> tuple[int, ...]:
    value = raw.get("scores", {}).get(key)
    if not (isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                                     for v in value)):
        problems.append(Problem(where, None, f"scores.{key}", "must be a list of whole numbers >= 0"))
        return ()
    if length is not None and len(value) != length:
        problems.append(Problem(where, None, f"scores.{key}", f"must have {length} entries, got {len(value)}"))
    return tuple(value)


def _fill(text: str, values: dict, where: str, place: str, problems: list[Problem]) -> str:
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError) as exc:
        problems.append(Problem(where, None, place, f"unknown or malformed placeholder: {exc}"))
        return text


def load_rules(folder: Path | None = None) -> RuleBook:
    """Read ``rules.toml``, ``cards.csv``, ``objectives.csv`` and ``powers.csv`` (DataError with
    every problem found)."""
    folder = folder or game_dir("nextstation")
    where = str(folder / "rules.toml")
    raw = read_toml(folder / "rules.toml")
    problems: list[Problem] = []
    rules = read_values(raw, Rules, where, "rules", problems)
    if rules is not None:
        if not 1 <= rules.players_min <= rules.players_max <= len(rules.pencils):
            problems.append(Problem(where, None, "rules.players_max", "need 1 <= players_min <= players_max <= pencils"))
        if rules.rounds < 1 or rules.round_end < 1 or rules.switch_ignored_turns < 0:
            problems.append(Problem(where, None, "rules.rounds", "rounds and round_end must be >= 1"))
    track = _int_list(raw, "tourist_track", where, problems)
    if rules is not None and track and len(track) != rules.tourist_marks_max + 1:
        problems.append(Problem(where, None, "scores.tourist_track",
                                f"needs tourist_marks_max + 1 = {rules.tourist_marks_max + 1} entries"))
    inter = _int_list(raw, "interchange", where, problems, length=len(rules.pencils) + 1 if rules else None)
    bands = _int_list(raw, "solo_bands", where, problems)
    colours = raw.get("colours", {})
    for key, value in colours.items():
        if not (isinstance(value, str) and COLOUR.match(value)):
            problems.append(Problem(where, None, f"colours.{key}", f"must be #RRGGBB, got {value!r}"))
    if rules is not None:
        for key in rules.pencils + DECKS:
            if key not in colours:
                problems.append(Problem(where, None, f"colours.{key}", "missing"))
    cards = _cards(folder, rules, problems)
    objectives = tuple(Objective(r["id"], r["measure"], int(r["threshold"]), r["text"], r["title"], r["example"])
                       for r in _rows(folder / "objectives.csv", ("id", "measure", "threshold", "title", "text",
                                                                  "example"), problems,
                                      {"measure": MEASURES}, ints=("threshold",)))
    powers = tuple(Power(r["id"], r["text"], r["title"], r["example"])
                   for r in read_csv(folder / "powers.csv", ("id", "title", "text", "example"), problems))
    texts: dict = {}
    if rules is not None and inter and not problems:
        values = {**{k: getattr(rules, k) for k in Rules.__dataclass_fields__},
                  **{f"interchange_{k}": v for k, v in enumerate(inter)}}
        text = raw.get("text", {})
        for key, value in text.items():
            if isinstance(value, str):
                texts[key] = _fill(value, values, where, f"text.{key}", problems)
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                texts[key] = tuple(_fill(v, values, where, f"text.{key}", problems) for v in value)
            else:
                problems.append(Problem(where, None, f"text.{key}", "must be a string or a list of strings"))
        for key in ("title", "rules_card", "score_pad_title", "score_pad_note", "pencil_card"):
            if key not in texts:
                problems.append(Problem(where, None, f"text.{key}", "missing"))
    if problems:
        raise DataError(problems)
    assert rules is not None  # read_values reports a problem whenever it returns None
    return RuleBook(rules, Scores(track, inter, bands), cards, objectives, powers, dict(colours), texts)


def _rows(path: Path, columns: tuple[str, ...], problems: list[Problem], choices: dict, ints: tuple[str, ...] = ()):
    rows = read_csv(path, columns, problems)
    seen: set[str] = set()
    out = []
    for row in rows:
        ok = True
        if row["id"] in seen or not row["id"]:
            problems.append(row.problem("id", f"blank or repeated id {row['id']!r}"))
            ok = False
        seen.add(row["id"])
        for col, allowed in choices.items():
            if row[col] not in allowed:
                problems.append(row.problem(col, f"unknown {col} {row[col]!r} (known: {', '.join(allowed)})"))
                ok = False
        for col in ints:
            if not is_whole_text(row[col], 6):
                problems.append(row.problem(col, f"must be a whole number, got {row[col]!r}"))
                ok = False
        if ok:
            out.append(row)
    return out


def _cards(folder: Path, rules: Rules | None, problems: list[Problem]) -> tuple[Card, ...]:
    faces = (rules.symbols if rules else ()) + (JOKER, SWITCH)
    rows = _rows(folder / "cards.csv", ("id", "deck", "face"), problems, {"deck": DECKS, "face": faces})
    cards = tuple(Card(r["id"], r["deck"], r["face"]) for r in rows)
    if rules is not None and cards:
        under = sum(c.underground for c in cards)
        if under < rules.round_end:
            problems.append(Problem("cards.csv", None, "deck",
                                    f"{under} Underground cards cannot end a round on the {rules.round_end}th"))
        if any(c.switch and c.underground for c in cards):
            problems.append(Problem("cards.csv", None, "face", "a Railroad Switch must be a Street card"))
    return cards
