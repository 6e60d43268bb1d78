"""One Day in London's recipe: how the game's network is cut from a dataset (``data/oneday/recipe.toml``).

The recipe holds the game's facts as data: players and slots, zones, the lines and stations left
out, stations merged or kept apart, lines that share track, the copy rule, each run's orientation,
and the texts the rules card and map print. Every exception carries its reason. Another city's
game is another recipe (``tests/data/tinycity_oneday.toml`` is a small example).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from tubedeck.errors import DataError, Problem, UsageError

DEFAULT_RECIPE = Path(__file__).resolve().parents[2] / "data" / "oneday" / "recipe.toml"
COPY_RULES = ("lines-minus-one", "one-per-line", "single")


@dataclass(frozen=True)
class Recipe:
    """The parsed recipe. Every exception keeps its reason (printed in the README and the rules card)."""

    name: str
    slots: int
    players_min: int
    players_max: int
    discard_piles: int
    zones: tuple[int, ...]
    opened_before: str
    copy_rule: str
    exclude_lines: tuple[tuple[str, str], ...]  # (line, reason)
    exclude_stations: tuple[tuple[str, str], ...]  # (station, reason)
    merges: tuple[tuple[str, str, tuple[str, ...], str], ...]  # (id, name, members, reason)
    keep_apart: tuple[tuple[tuple[str, ...], str], ...]
    shared_track: tuple[tuple[tuple[str, ...], str], ...]
    orientation: tuple[tuple[str, str, str], ...]  # (line, first station, reason)
    source: str = ""
    # Printed texts ([text] table): rules card lines, map title and note; {slots}, {players_min},
    # {players_max}, {piles} and {stations} are filled in when printed.
    text: dict = field(default_factory=dict, compare=False)

    def texts(self, key: str, **values) -> list[str]:
        """The recipe's text ``key`` (a string or list of strings) with its placeholders filled."""
        raw = self.text.get(key, [])
        fill = {"slots": self.slots, "players_min": self.players_min, "players_max": self.players_max,
                "piles": self.discard_piles, "name": self.name} | values
        return [line.format(**fill) for line in ([raw] if isinstance(raw, str) else raw)]


def load_recipe(path: Path | str | None = None, copy_rule: str | None = None) -> Recipe:
    """Read the recipe TOML; DataError naming the file on a missing or malformed entry."""
    path = Path(path or DEFAULT_RECIPE)
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError([Problem(where, None, None, "recipe file not found")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError([Problem(where, None, None, f"not valid TOML: {exc}")]) from None
    try:
        game, scope = raw["game"], raw["scope"]
        rule = copy_rule or raw["copies"]["rule"]
        recipe = Recipe(
            game["name"], int(game["slots"]), int(game["players_min"]), int(game["players_max"]),
            int(game["discard_piles"]), tuple(int(z) for z in scope["zones"]), str(scope["opened_before"]), rule,
            tuple((e["line"], e["reason"]) for e in raw.get("exclude_lines", [])),
            tuple((e["station"], e["reason"]) for e in raw.get("exclude_stations", [])),
            tuple((e["id"], e["name"], tuple(e["stations"]), e["reason"]) for e in raw.get("merge", [])),
            tuple((tuple(e["stations"]), e["reason"]) for e in raw.get("keep_apart", [])),
            tuple((tuple(e["lines"]), e["reason"]) for e in raw.get("shared_track", [])),
            tuple((e["line"], e["first"], e["reason"]) for e in raw.get("orientation", [])),
            where,
            dict(raw["text"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError([Problem(where, None, None, f"missing or malformed entry: {exc}")]) from None
    for key, ok, want in (("game.slots", recipe.slots >= 2, "at least 2"),
                          ("game.players_min", 1 <= recipe.players_min <= recipe.players_max, "1..players_max"),
                          ("game.discard_piles", recipe.discard_piles >= 0, "0 or more")):
        if not ok:
            raise DataError([Problem(where, None, key, f"must be {want}")])
    if recipe.copy_rule not in COPY_RULES:
        raise UsageError(f"unknown copy rule {recipe.copy_rule!r} (known: {', '.join(COPY_RULES)})")
    return recipe
