"""Tube Dice's recipe (``data/dice/recipe.toml``): the map cut from the dataset and the rules values.

Read with :func:`tubedeck.content.read_values`, so a missing key, a wrong type or an unknown key
is a DataError naming the file and ``table.key``; the numbers are then checked against what
five six-sided dice can do (a section count no die can reach is refused here).
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass, replace
from pathlib import Path

from tubedeck.content import content, read_toml, read_values
from tubedeck.errors import DataError, Problem

SIDES = 6  # "six-sided dice"
SECTION_RULES = ("quantile",)
PLACEHOLDERS = ("lines_to_end", "pass_points", "passes", "players_min", "players_max", "seat_passes")
SOLO_PLACEHOLDERS = ("turns", "lines_to_end", "passes", "pass_points")


def default_recipe() -> Path:
    return content("dice", "recipe.toml")


@dataclass(frozen=True)
class Rules:
    """The ``[game]`` table: the text's numbers plus the pass track chosen by simulation.

    ``passes`` is seat 1's pass track (and the solo game's); ``extra_passes[k]`` more boxes for
    seat k + 1, our fix for the first seat's advantage (the text leaves the pass count to the
    sheet). Read apart from the other keys: :func:`tubedeck.content.read_values` knows no int lists."""

    name: str
    players_min: int
    players_max: int
    dice: int
    keep: int
    use: int
    lines_to_end: int
    passes: int
    pass_points: int
    challenge_turns: int
    max_turns: int
    extra_passes: tuple[int, ...] = ()  # by seat, seat 1 first; 0 for seat 1 and beyond the list

    def passes_of(self, seat: int) -> int:
        """The passes seat ``seat`` (0-based) starts with."""
        return self.passes + (self.extra_passes[seat] if seat < len(self.extra_passes) else 0)


@dataclass(frozen=True)
class MapRecipe:
    scope: str
    scope_reason: str
    star: str
    star_reason: str
    star_fallback: str
    fallback_scope: str


@dataclass(frozen=True)
class Sections:
    rule: str
    values: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class PointsRule:
    """high = clamp(round(scale * difficulty), min_high, max_high); low = max(1, round(high * low_share))."""

    scale: float
    min_high: int
    max_high: int
    low_share: float

    def points(self, difficulty: float) -> tuple[int, int]:
        high = max(self.min_high, min(self.max_high, math.floor(self.scale * difficulty + 0.5)))
        return high, max(1, math.floor(high * self.low_share + 0.5))  # halves round up


@dataclass(frozen=True)
class Measure:
    """``[measure]``: how the default map is chosen (``python -m tubedeck.solver.dice.balance --map``): each
    candidate's points are set by the balance, then ``games`` games per table size 2-4 are played by
    ``bots``; the map must have at least ``zones_min`` zones and no nested lines, someone must
    complete a zone in ``zone_share_min``-``zone_share_max`` of the games and a long line (the
    longer half of the map's lines by size) in at least ``long_share_min`` of them."""

    bots: str
    games: int
    zones_min: int
    zone_share_min: float
    zone_share_max: float
    long_share_min: float
    reason: str


@dataclass(frozen=True)
class Texts:
    title: str
    rules: str
    map_name: str  # the recipe's own scope, as players read it; {star} is the star station's name
    answer: str  # the challenge's answer strip; {best} is the best possible score
    answer_credit: str  # the small line under it: how the best was found
    pass_everyone: str  # the pass track's base boxes: every seat's
    pass_seats: str  # the pass track's extra boxes; {seats} is "2nd-4th" or "4th"
    solo_rules: str  # the challenge page's solo rules: SOLO_PLACEHOLDERS, the engine's numbers


@dataclass(frozen=True)
class Recipe:
    rules: Rules
    map: MapRecipe
    sections: Sections
    points: PointsRule
    text: Texts
    source: str
    measure: Measure | None = None

    def rules_text(self) -> str:
        r = self.rules
        return self.text.rules.format(lines_to_end=r.lines_to_end, pass_points=r.pass_points, passes=r.passes,
                                      players_min=r.players_min, players_max=r.players_max,
                                      seat_passes=seat_passes(r))

    def solo_text(self, lines_to_end: int) -> str:
        """The challenge page's solo rules: seat 1's passes, the challenge's rolls and the end rule
        (``lines_to_end``: the engine's target on the map, :func:`tubedeck.games.dice.play.lines_target`)."""
        r = self.rules
        return self.text.solo_rules.format(turns=r.challenge_turns, lines_to_end=lines_to_end,
                                           passes=r.passes_of(0), pass_points=r.pass_points)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def seat_passes(r: Rules) -> str:
    """Each seat's passes for the rules paragraph, equal neighbours joined: "3 for the 1st to roll,
    6 each for the 2nd-4th" ("1st-3rd to roll 3, 4th 4" read as a riddle: a fresh-eyes review)."""
    counts = [r.passes_of(k) for k in range(r.players_max)]
    if len(set(counts)) == 1:
        return str(counts[0])
    runs: list[list[int]] = []  # [first seat, last seat, passes], 1-based
    for k, n in enumerate(counts, 1):
        if runs and runs[-1][2] == n:
            runs[-1][1] = k
        else:
            runs.append([k, k, n])
    return ", ".join(f"{n}{'' if a == b else ' each'} for the " + (ordinal(a) if a == b else f"{ordinal(a)}-{ordinal(b)}")
                     + (" to roll" if i == 0 else "") for i, (a, b, n) in enumerate(runs))


def pass_groups(r: Rules) -> tuple[tuple[int, int], ...]:
    """The printed pass track as groups of boxes, ``(boxes, first seat)`` (seats 1-based): the base
    boxes every seat uses, then for each seat the boxes it gains over the seat before (used by it
    and every later seat, as ``extra_passes`` never falls). Seat k has the boxes of groups <= k."""
    out = [(r.passes, 1)]
    prev = 0
    for k in range(1, r.players_max):
        more = r.passes_of(k) - r.passes - prev
        if more > 0:
            out.append((more, k + 1))
            prev += more
    return tuple(out)


def load_recipe(path: Path | str | None = None) -> Recipe:
    """Read and check the recipe; every problem at once (DataError)."""
    path = Path(path or default_recipe())
    where = str(path)
    raw = read_toml(path)
    problems: list[Problem] = []
    rules = _rules(raw, where, problems)
    cut = read_values(raw, MapRecipe, where, "map", problems)
    points = read_values(raw, PointsRule, where, "points", problems)
    text = read_values(raw, Texts, where, "text", problems)
    measure = read_values(raw, Measure, where, "measure", problems) if "measure" in raw else None
    if measure is not None and not (0 <= measure.zone_share_min <= measure.zone_share_max <= 1
                                    and 0 <= measure.long_share_min <= 1 and measure.games >= 1
                                    and measure.zones_min >= 1):
        problems.append(Problem(where, None, "measure", "shares must be 0-1 (min <= max), games and zones_min at least 1"))
    sections = _sections(raw, where, problems)
    if rules is not None:
        _check_rules(rules, where, problems)
    if points is not None:
        if not 1 <= points.min_high <= points.max_high <= 1000:
            problems.append(Problem(where, None, "points.min_high", "must be 1..max_high, and max_high at most 1000"))
        if not (points.scale > 0 and 0 < points.low_share <= 1):
            problems.append(Problem(where, None, "points.scale", "scale must be > 0 and low_share in (0, 1]"))
    if text is not None:
        for key, known in (("rules", PLACEHOLDERS), ("map_name", ("star",)), ("answer", ("best",)),
                           ("answer_credit", ()), ("pass_everyone", ()), ("pass_seats", ("seats",)),
                           ("solo_rules", SOLO_PLACEHOLDERS)):
            _placeholders(getattr(text, key), f"text.{key}", known, where, problems)
    if problems:
        raise DataError(problems)
    # each part is None only with a problem recorded
    assert rules is not None and cut is not None and points is not None and text is not None
    return Recipe(rules, cut, sections, points, text, where, measure)


def _placeholders(value: str, key: str, known: tuple[str, ...], where: str, problems: list[Problem]) -> None:
    try:
        names = {f for _, f, _, _ in string.Formatter().parse(value) if f is not None}
    except ValueError as exc:
        problems.append(Problem(where, None, key, f"malformed placeholder ({exc})"))
        return
    for unknown in sorted(names - set(known)):
        problems.append(Problem(where, None, key, f"unknown placeholder {{{unknown}}} "
                                                  f"(known: {', '.join(known) or 'none'})"))


def _rules(raw: dict, where: str, problems: list[Problem]) -> Rules | None:
    """``[game]``, with ``extra_passes`` (a list of whole numbers) checked here."""
    table = raw.get("game")
    if not isinstance(table, dict) or "extra_passes" not in table:
        if isinstance(table, dict):
            problems.append(Problem(where, None, "game.extra_passes", "missing"))
        return read_values(raw, Rules, where, "game", problems)
    extra = table["extra_passes"]
    rules = read_values({**raw, "game": {k: v for k, v in table.items() if k != "extra_passes"}}, Rules, where,
                        "game", problems)
    if not (isinstance(extra, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in extra)):
        problems.append(Problem(where, None, "game.extra_passes",
                                f"must be a list of whole numbers (seat 1 first), got {extra!r}"))
        return None
    if rules is None:
        return None
    if len(extra) != rules.players_max:
        problems.append(Problem(where, None, "game.extra_passes",
                                f"needs one number per seat (players_max = {rules.players_max}), got {len(extra)}"))
    elif extra[0] != 0:
        problems.append(Problem(where, None, "game.extra_passes",
                                f"seat 1 has the base track (passes) and the solo game too: the first must be 0, got {extra[0]}"))
    elif any(b < a for a, b in zip(extra, extra[1:])) or not all(0 <= v <= 30 for v in extra):
        problems.append(Problem(where, None, "game.extra_passes",
                                f"must be 0-30 and never fall from one seat to the next (the sheet prints the extra "
                                f"boxes as \"2nd-4th to roll\" and so on), got {extra}"))
    return replace(rules, extra_passes=tuple(extra))


def _check_rules(r: Rules, where: str, problems: list[Problem]) -> None:
    def bad(key: str, message: str) -> None:
        problems.append(Problem(where, None, f"game.{key}", message))

    if not 1 <= r.players_min <= r.players_max <= 8:
        bad("players_min", f"players must satisfy 1 <= min <= max <= 8, got {r.players_min}-{r.players_max}")
    if not 1 <= r.use <= r.keep < r.dice <= 12:
        bad("dice", "need 1 <= use <= keep < dice <= 12")
    if r.use != 2:
        bad("use", "the rules use exactly 2 dice: one for the station, one for the connections")
    if r.dice - r.keep < r.use:
        bad("keep", f"the others need {r.use} dice of the {r.dice - r.keep} left")
    if not 1 <= r.challenge_turns <= 30:
        bad("challenge_turns", "must be 1-30")
    for key in ("lines_to_end", "max_turns"):
        if getattr(r, key) < 1:
            bad(key, "must be at least 1")
    if r.max_turns > 10_000:
        bad("max_turns", "at most 10000")
    if not 0 <= r.passes <= 30 or not 0 <= r.pass_points <= 100:
        bad("passes", "passes must be 0-30 and pass_points 0-100")
    elif r.extra_passes and r.passes + r.extra_passes[-1] > 30:
        bad("extra_passes", f"a seat's passes (passes + extra) must be at most 30, got {r.passes + r.extra_passes[-1]}")


def _sections(raw: dict, where: str, problems: list[Problem]) -> Sections:
    table = raw.get("sections")
    if not isinstance(table, dict):
        problems.append(Problem(where, None, "sections", "missing table [sections]"))
        return Sections("quantile", (), "")
    for extra in sorted(set(table) - {"rule", "values", "reason"}):
        problems.append(Problem(where, None, f"sections.{extra}", "unknown key"))
    rule, values, reason = table.get("rule"), table.get("values"), table.get("reason", "")
    if rule not in SECTION_RULES:
        problems.append(Problem(where, None, "sections.rule", f"unknown rule {rule!r} (known: {', '.join(SECTION_RULES)})"))
    if not (isinstance(values, list) and values and all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
        problems.append(Problem(where, None, "sections.values", f"must be a non-empty list of whole numbers, got {values!r}"))
        return Sections(str(rule), (), str(reason))
    unreachable = [v for v in values if not 1 <= v <= SIDES]
    if unreachable:
        problems.append(Problem(where, None, "sections.values",
                                f"{unreachable[0]} sections: a six-sided die (1-{SIDES}) cannot reach it"))
    if len(set(values)) != len(values) or list(values) != sorted(values):
        problems.append(Problem(where, None, "sections.values", "must be distinct and increasing"))
    return Sections(str(rule), tuple(values), str(reason))
