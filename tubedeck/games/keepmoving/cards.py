"""Keep Moving's components as read from ``data/keepmoving/``: ground cards, movement cards,
function cards, dice and the rules values.

Every reader reports problems with file, line and column (a :class:`~tubedeck.errors.DataError`
listing all of them, exit 2): a ground composition that is not ``rules.ground_cards`` cards, an
unknown kind or symbol, a symbol on side B, unknown function kinds, dice faces out of 1-6.
"""

from __future__ import annotations

import string
from dataclasses import asdict, dataclass
from pathlib import Path

from tubedeck.content import content, is_whole_text, read_csv, read_toml, read_values
from tubedeck.errors import DataError, Problem

KINDS = ("lava", "grassland", "dry soil")
SYMBOLS = ("", "function", "replace")
# The engine gives each function kind its effect (play.py); data names and counts them.
FUNCTION_KINDS = ("double", "exchange", "life-potion", "lock-even", "lock-high", "lock-low", "lock-odd",
                  "new-hand", "protection", "push", "relocation", "steal", "stun", "swap")
ACTIONS = ("move", "roll", "draw")
COLOURS = ("blue", "green")


@dataclass(frozen=True)
class Side:
    """One side of a ground card: its kind and its symbol ("" for none)."""

    kind: str
    symbol: str = ""

    @property
    def label(self) -> str:
        return self.kind + (f" + {self.symbol}" if self.symbol else "")


@dataclass(frozen=True)
class GroundCard:
    """A double-sided ground card; side A carries the symbol if the card has one."""

    id: str
    sides: tuple[Side, Side]


@dataclass(frozen=True)
class Die:
    id: str
    name: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
class MovementCard:
    """One kind of movement card: ``move`` a fixed ``value``, ``roll`` a die, or ``draw`` ``value`` cards."""

    id: str
    name: str
    action: str
    value: int
    die: str
    copies: int
    text: str


@dataclass(frozen=True)
class FunctionCard:
    """One kind of function card. ``answerable``: Protection can answer it; ``numbers``: what a Lock forbids."""

    id: str
    name: str
    colour: str
    copies: int
    answerable: bool
    numbers: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class Rules:
    """The rulebook's numbers (``data/keepmoving/rules.toml`` says what each one means)."""

    players_min: int
    players_max: int
    row: int
    ground_cards: int
    movement_set: int
    function_cards: int
    hand_limit: int
    lives: int
    supply: int
    start_hand: int
    start_function: int
    start_offset: int
    turn_draw: int
    potion_lives: int
    push_cards: int
    max_turns: int


@dataclass(frozen=True)
class Texts:
    """The printed texts: the turn summary (``reference``) and the setup card (``setup``), their
    ``{placeholders}`` filled from the rules values and :func:`derived` (``rules.toml``)."""

    title: str
    credit: str
    reference: tuple[str, ...]
    setup: tuple[str, ...]


def derived(rules: Rules) -> dict[str, int]:
    """The rules values and the figures that follow from them, for the printed texts: the ground
    pile (``ground_pile``), each player's pile at setup (``pile_cards``), the function pile left
    after the deal (``function_pile``) and the first and last starting card (``start_first``,
    ``start_last``: a roll of 1 and 6 on the random die, plus ``start_offset``)."""
    return {**asdict(rules), "ground_pile": rules.ground_cards - rules.row,
            "pile_cards": rules.movement_set + rules.start_function,
            "function_pile": rules.function_cards - 2 * rules.start_function,
            "start_first": rules.start_offset + 1, "start_last": rules.start_offset + 6}


def _int(row, col: str, lo: int, hi: int, problems: list[Problem]) -> int:
    text = row[col]
    if not is_whole_text(text) or not lo <= int(text) <= hi:
        problems.append(row.problem(col, f"must be a whole number {lo}-{hi}, got {text!r}"))
        return lo
    return int(text)


def _unique(rows, problems: list[Problem]) -> None:
    seen: set[str] = set()
    for r in rows:
        if not r["id"] or not all(c.isalnum() or c in "-_" for c in r["id"]):
            problems.append(r.problem("id", f"must be a file-safe id, got {r['id']!r}"))
        if r["id"] in seen:
            problems.append(r.problem("id", f"id {r['id']!r} appears twice"))
        seen.add(r["id"])


def read_ground(path: Path, rules: Rules, problems: list[Problem]) -> tuple[GroundCard, ...]:
    rows = read_csv(path, ("id", "a_kind", "a_symbol", "b_kind", "b_symbol"), problems)
    _unique(rows, problems)
    cards = []
    for r in rows:
        sides = []
        for s in ("a", "b"):
            kind, sym = r[f"{s}_kind"], r[f"{s}_symbol"]
            if kind not in KINDS:
                problems.append(r.problem(f"{s}_kind", f"unknown kind {kind!r} (known: {', '.join(KINDS)})"))
            if sym not in SYMBOLS:
                problems.append(r.problem(f"{s}_symbol", f"unknown symbol {sym!r} (known: function, replace or blank)"))
            sides.append(Side(kind, sym))
        if sides[1].symbol:  # setup turns the symbol side up: a card has at most one, on side A
            problems.append(r.problem("b_symbol", "a symbol goes on side A (the side set up face up); side B has none"))
        cards.append(GroundCard(r["id"], (sides[0], sides[1])))
    if rows and len(rows) != rules.ground_cards:
        problems.append(Problem(path.name, None, None, f"{len(rows)} ground cards; the game has {rules.ground_cards}"))
    if rows and len(rows) < rules.row + 2:
        problems.append(Problem(path.name, None, None, f"{len(rows)} ground cards cannot fill a row of {rules.row}"))
    return tuple(cards)


def read_dice(path: Path, problems: list[Problem]) -> dict[str, Die]:
    rows = read_csv(path, ("id", "name", "faces"), problems)
    _unique(rows, problems)
    out = {}
    for r in rows:
        faces = r["faces"].split()
        if len(faces) != 6 or not all(f in "123456" and len(f) == 1 for f in faces):
            problems.append(r.problem("faces", f"a die has 6 faces, each 1-6, got {r['faces']!r}"))
            continue
        out[r["id"]] = Die(r["id"], r["name"], tuple(int(f) for f in faces))
    if "random" not in out and rows:
        problems.append(Problem(path.name, None, "id", "the random die (id 'random') is missing: Double and setup use it"))
    return out


def read_movement(path: Path, dice: dict[str, Die], problems: list[Problem]) -> tuple[MovementCard, ...]:
    rows = read_csv(path, ("id", "name", "action", "value", "die", "copies", "text"), problems)
    _unique(rows, problems)
    out = []
    for r in rows:
        action = r["action"]
        if action not in ACTIONS:
            problems.append(r.problem("action", f"unknown action {action!r} (known: {', '.join(ACTIONS)})"))
            continue
        value = _int(r, "value", 1, 6, problems) if action != "roll" else 0
        if action == "roll" and r["die"] not in dice:
            problems.append(r.problem("die", f"unknown die {r['die']!r} (dice.csv: {', '.join(dice)})"))
        out.append(MovementCard(r["id"], r["name"], action, value, r["die"], _int(r, "copies", 1, 20, problems),
                                r["text"]))
    return tuple(out)


def read_function(path: Path, problems: list[Problem]) -> tuple[FunctionCard, ...]:
    rows = read_csv(path, ("id", "name", "colour", "copies", "answerable", "numbers", "text"), problems)
    _unique(rows, problems)
    out = []
    for r in rows:
        if r["id"] not in FUNCTION_KINDS:
            problems.append(r.problem("id", f"unknown function card {r['id']!r} (known: {', '.join(FUNCTION_KINDS)})"))
        if r["colour"] not in COLOURS:
            problems.append(r.problem("colour", f"must be blue or green, got {r['colour']!r}"))
        if r["answerable"] not in ("yes", "no"):
            problems.append(r.problem("answerable", f"must be yes or no, got {r['answerable']!r}"))
        nums = r["numbers"].split()
        if not all(n in ("1", "2", "3", "4", "5", "6") for n in nums) or (r["id"].startswith("lock-") != bool(nums)):
            problems.append(r.problem("numbers", "a Lock lists the numbers it forbids (1-6); other cards none"))
            nums = []
        out.append(FunctionCard(r["id"], r["name"], r["colour"], _int(r, "copies", 1, 4, problems),
                                r["answerable"] == "yes", tuple(int(n) for n in nums), r["text"]))
    missing = sorted(set(FUNCTION_KINDS) - {c.id for c in out})
    if rows and missing:
        problems.append(Problem(path.name, None, "id", f"function cards missing: {', '.join(missing)}"))
    return tuple(out)


def read_rules(path: Path, problems: list[Problem]) -> tuple[Rules | None, Texts | None]:
    where = str(path)
    raw = read_toml(path)
    rules = read_values(raw, Rules, where, "rules", problems)
    texts = read_values(raw, Texts, where, "text", problems)
    if rules and not (rules.players_min == rules.players_max == 2):
        problems.append(Problem(where, None, "rules.players_min", "Keep Moving is a 2-player game"))
    if rules and not (4 <= rules.row <= 40 and 1 <= rules.hand_limit <= 10 and 1 <= rules.lives <= 50
                      and 0 <= rules.supply <= 100 and 0 <= rules.start_hand <= rules.hand_limit
                      and 1 <= rules.start_offset + 1 and rules.start_offset + 6 <= rules.row
                      and 10 <= rules.max_turns <= 10_000 and rules.start_function >= 0):
        problems.append(Problem(where, None, "rules", "a rules value is out of range (row 4-40, hand limit 1-10, "
                                "lives 1-50, start_offset + 6 within the row, max_turns 10-10000)"))
    if rules and texts:
        values = derived(rules)
        if rules.function_cards < 2 * rules.start_function:
            problems.append(Problem(where, None, "rules.start_function", f"{rules.function_cards} function cards "
                                    f"cannot deal {rules.start_function} to each player"))

        def fill(key: str, lines: tuple[str, ...]) -> tuple[str, ...]:
            filled = []
            for i, line in enumerate(lines):
                names = {f for _, f, _, _ in string.Formatter().parse(line) if f}
                if names - set(values):
                    problems.append(Problem(where, None, f"text.{key}[{i}]",
                                            f"unknown placeholder {sorted(names - set(values))[0]}"))
                    filled.append(line)
                else:
                    filled.append(line.format(**values))
            return tuple(filled)

        texts = Texts(texts.title, texts.credit, fill("reference", texts.reference), fill("setup", texts.setup))
    return rules, texts


def data_file(name: str) -> Path:
    return content("keepmoving", name)


def raise_if(problems: list[Problem]) -> None:
    if problems:
        raise DataError(problems)
