"""One Tube Dice edition: the map, the rules values, each line's and zone's high/low points, and
the seeded rolls (the game's only chance), built once per process and shared by faces and solver.

Points come from the recipe's ``[points]`` rule applied to a difficulty: the simulated one in
``data/dice/points.csv`` (written by ``python -m tubedeck.solver.dice.balance``) when that file describes
this map's scope, else the count of the line's stations and connections (a zone's stations).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

from tubedeck.content import content, data_root, is_whole_text, read_csv
from tubedeck.errors import DataError, Problem, UsageError
from tubedeck.network import Network

from .board import Board, derive_board
from .recipe import Recipe, Rules, load_recipe

MAX_SEED = 2**62
MAX_SHEETS = 100


@dataclass(frozen=True)
class Award:
    """High (first to complete) and low (later) points of a line or zone, and where they came from."""

    kind: str  # "line" | "zone"
    id: str
    high: int
    low: int
    difficulty: float
    source: str  # "simulated" | "size"


@dataclass(frozen=True)
class Rolls:
    """A seeded roll sequence: ``dice`` values per turn (the setup of a game)."""

    seed: int
    turns: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Challenge:
    """The solo challenge: a seed's first ``challenge_turns`` rolls and, when
    ``data/dice/challenges.csv`` holds it, the proven best score (written by
    ``python -m tubedeck.solver.dice.challenges``)."""

    rolls: Rolls
    best: int | None
    status: str  # OPTIMAL, or "" when the file does not have this seed


@dataclass(frozen=True)
class Edition:
    recipe: Recipe
    board: Board
    lines: tuple[Award, ...]  # in board.lines order
    zones: tuple[Award, ...]  # in board.zones order
    sheets: int = 1
    challenge: Challenge | None = None
    dataset: str = field(default="", compare=False)  # the dataset's folder: its print says its city's words

    @property
    def rules(self) -> Rules:
        return self.recipe.rules

    @property
    def lines_to_end(self) -> int:
        """Lines that end the game on this map: ``lines_to_end``, or every line of a map with fewer
        (what :func:`tubedeck.games.dice.play.lines_target` applies)."""
        return min(self.rules.lines_to_end, len(self.board.lines))

    def solo_rules(self) -> str:
        """The challenge page's solo rules, with the engine's numbers."""
        return self.recipe.solo_text(self.lines_to_end)

    def rolls(self, seed: int, turns: int | None = None) -> Rolls:
        return roll_sequence(self.rules, seed, turns or self.rules.max_turns)


def check_seed(seed: int, what: str = "--seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise UsageError(f"{what} must be a whole number 0-{MAX_SEED - 1}, got {seed!r}")
    return seed


def roll_sequence(rules: Rules, seed: int, turns: int) -> Rolls:
    """``random.Random(seed)``: ``rules.dice`` six-sided dice per turn, turn 1 first (a sequence
    is a prefix of any longer one for the same seed)."""
    check_seed(seed)
    if not 1 <= turns <= rules.max_turns:
        raise UsageError(f"--rolls must be 1-{rules.max_turns}, got {turns}")
    draw = random.Random(seed).random  # C-fast; 1 + int(6u) is a fair die
    return Rolls(seed, tuple(tuple(1 + int(6 * draw()) for _ in range(rules.dice)) for _ in range(turns)))


def simulated(path: Path, scope: str) -> dict[tuple[str, str], float]:
    """``(kind, id) -> difficulty`` rows of points.csv for ``scope`` (DataError on a bad row)."""
    problems: list[Problem] = []
    rows = read_csv(path, ("scope", "kind", "id", "first_median", "completion_rate", "difficulty"), problems,
                    allow_empty=True)
    out = {}
    for row in rows:
        if row["scope"] != scope:
            continue
        try:
            value = float(row["difficulty"])
        except ValueError:
            problems.append(row.problem("difficulty", f"not a number: {row['difficulty']!r}"))
            continue
        if row["kind"] not in ("line", "zone") or not 0 <= value <= 100_000:
            problems.append(row.problem("kind", "kind must be line or zone, difficulty 0-100000"))
            continue
        out[(row["kind"], row["id"])] = value
    if problems:
        raise DataError(problems)
    return out


def awards(recipe: Recipe, board: Board, table: dict[tuple[str, str], float]) -> tuple[tuple[Award, ...], ...]:
    wanted = [("line", l.id, len(l.stations) + len(l.connections)) for l in board.lines]
    wanted += [("zone", str(z.zone), len(z.stations)) for z in board.zones]
    use_sim = all((k, i) in table for k, i, _ in wanted)
    out = []
    for kind, ident, size in wanted:
        diff = table[(kind, ident)] if use_sim else float(size)
        high, low = recipe.points.points(diff)
        out.append(Award(kind, ident, high, low, diff, "simulated" if use_sim else "size"))
    return tuple(a for a in out if a.kind == "line"), tuple(a for a in out if a.kind == "zone")


def load(network: Network, recipe: Path | str | None = None, scope: str | None = None, sheets: int = 1,
         challenge: str | int | None = None) -> Edition:
    """Derive the game from the dataset (see :mod:`.board`)."""
    if isinstance(sheets, bool) or not isinstance(sheets, int) or not 1 <= sheets <= MAX_SHEETS:
        raise UsageError(f"--sheets must be 1-{MAX_SHEETS}, got {sheets!r}")
    if challenge is not None:
        text = str(challenge).strip()
        if not is_whole_text(text):
            raise UsageError(f"--challenge must be a roll seed 0-{MAX_SEED - 1}, got {str(challenge)[:40]!r}")
        challenge = check_seed(int(text), "--challenge")
    rec = load_recipe(recipe)
    board = derive_board(network, rec, scope)
    table = simulated(content("dice", "points.csv"), board.scope.label) if recipe is None else {}
    lines, zones = awards(rec, board, table)
    ed = Edition(rec, board, lines, zones, sheets, dataset=str(network.source))
    if challenge is None:
        return ed
    rolls = ed.rolls(challenge, rec.rules.challenge_turns)
    known = solved(content("dice", "challenges.csv"), board.scope.label, rec.rules.challenge_turns) \
        if recipe is None and str(network.source) == str(data_root()) else {}
    best, status = known.get(challenge, (None, ""))
    return replace(ed, challenge=Challenge(rolls, best, status))


def solved(path: Path, scope: str, turns: int) -> dict[int, tuple[int, str]]:
    """``seed -> (best score, status)`` of challenges.csv rows for this scope and length."""
    problems: list[Problem] = []
    rows = read_csv(path, ("scope", "seed", "turns", "best", "status"), problems, allow_empty=True)
    out = {}
    for row in rows:
        if row["scope"] != scope or row["turns"] != str(turns):
            continue
        if not (is_whole_text(row["seed"]) and is_whole_text(row["best"]) and row["status"] == "OPTIMAL"):
            problems.append(row.problem("seed", "seed and best must be whole numbers, status OPTIMAL"))
            continue
        out[int(row["seed"])] = (int(row["best"]), row["status"])
    if problems:
        raise DataError(problems)
    return out
