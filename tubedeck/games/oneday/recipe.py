"""One Day in London's recipe: how the game's network is cut from a dataset (``data/oneday/recipe.toml``).

The recipe holds the game's facts as data: players and slots, zones, the lines and stations left
out, stations merged or kept apart, lines that share track, the copy rule, each run's orientation,
and the texts the rules card and map print. Every exception carries its reason. Another city's
game is another recipe (``tests/data/tinycity_oneday.toml`` is a small example).
"""

from __future__ import annotations

import datetime
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tubedeck.content import content, read_toml
from tubedeck.errors import DataError, Problem, UsageError


def default_recipe() -> Path:
    """The bundled London recipe, ``data/oneday/recipe.toml``."""
    return content("oneday", "recipe.toml")

COPY_RULES = ("lines-minus-one", "one-per-line", "single")
# Placeholders a [text] entry may use; filled in when printed.
PLACEHOLDERS = ("name", "slots", "players_min", "players_max", "piles", "zones", "stations", "cards")
TEXT_KEYS = ("map_title", "map_note", "rules")  # required in [text]


def zone_phrase(zones: tuple[int, ...] | list[int]) -> str:
    """"zone 1", "zones 1 and 2", "zones 1, 2 and 3"."""
    z = [str(n) for n in zones]
    if len(z) == 1:
        return f"zone {z[0]}"
    return f"zones {', '.join(z[:-1])} and {z[-1]}"


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
    # Printed texts ([text] table): rules card lines, map title and note, with PLACEHOLDERS.
    text: dict = field(default_factory=dict, compare=False)
    # "one": a line's part in scope must be one run of stops (London: the recipe makes it so);
    # "longest": a line that leaves the scope and comes back, or branches, keeps its longest run
    # (another city, where nobody wrote exceptions by hand)
    runs: str = "one"
    # "listed": lines share a track only where [[shared_track]] says so (London); "auto": lines whose
    # runs share two or more consecutive stops run on one track (another city's trunk lines)
    track: str = "listed"

    def texts(self, key: str, **values) -> list[str]:
        """The recipe's text ``key`` (a string or list of strings) with its placeholders filled;
        ``stations`` and ``cards`` come from the caller (they depend on the derived map)."""
        raw = self.text.get(key, [])
        fill = {"slots": self.slots, "players_min": self.players_min, "players_max": self.players_max,
                "piles": self.discard_piles, "name": self.name, "zones": zone_phrase(self.zones)} | values
        return [line.format(**fill) for line in ([raw] if isinstance(raw, str) else raw)]


# -- reading, with every problem located: "recipe.toml [merge #2]: missing 'reason'" -------------------
_MISSING = object()
RUNS = ("one", "longest")
TRACKS = ("listed", "auto")
_TABLES = {  # table -> the keys it takes
    "game": {"name", "slots", "players_min", "players_max", "discard_piles"},
    "scope": {"zones", "zones_reason", "opened_before", "opened_reason", "runs", "runs_reason"},
    "copies": {"rule", "reason", "track", "track_reason"},
}
_ARRAYS = {  # array of tables -> its keys and their kinds
    "exclude_lines": (("line", "id"), ("reason", "str")),
    "exclude_stations": (("station", "id"), ("reason", "str")),
    "merge": (("id", "id"), ("name", "str"), ("stations", "ids"), ("reason", "str")),
    "keep_apart": (("stations", "ids"), ("reason", "str")),
    "shared_track": (("lines", "ids"), ("reason", "str")),
    "orientation": (("line", "id"), ("first", "id"), ("reason", "str")),
}
_KINDS = {"id": "a non-empty string", "str": "a non-empty string", "int": "a whole number",
          "ints": "a non-empty list of whole numbers", "ids": "a non-empty list of ids",
          "date": "a date (YYYY-MM-DD)", "texts": "a string or a list of strings"}


class _Reader:
    """Collects every problem of a recipe in one pass, each named by table, entry and key."""

    def __init__(self, where: str):
        self.where = where
        self.problems: list[Problem] = []

    def bad(self, place: str, message: str) -> None:
        self.problems.append(Problem(self.where, None, place, message))

    def table(self, raw: dict, name: str) -> dict:
        value = raw.get(name, _MISSING)
        if value is _MISSING:
            self.bad(name, f"missing table [{name}]")
            return {}
        if not isinstance(value, dict):
            self.bad(name, f"[{name}] must be a table")
            return {}
        return value

    def get(self, table: dict, place: str, key: str, kind: str) -> Any:
        value = table.get(key, _MISSING)
        if value is _MISSING:
            self.bad(place, f"missing {key!r}")
            return None
        ok = {
            "id": lambda v: isinstance(v, str) and v.strip() != "",
            "str": lambda v: isinstance(v, str) and v.strip() != "",
            "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "ints": lambda v: isinstance(v, list) and v != [] and all(
                isinstance(x, int) and not isinstance(x, bool) for x in v),
            "ids": lambda v: isinstance(v, list) and v != [] and all(isinstance(x, str) and x for x in v),
            "date": lambda v: isinstance(v, datetime.date) or (isinstance(v, str) and _is_date(v)),
            "texts": lambda v: isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)),
        }[kind](value)
        if not ok:
            self.bad(place, f"{key!r} must be {_KINDS[kind]}, got {value!r}")
            return None
        return value

    def array(self, raw: dict, name: str) -> list[tuple]:
        entries = raw.get(name, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            self.bad(name, f"[[{name}]] must be an array of tables")
            return []
        out = []
        for i, entry in enumerate(entries, 1):
            place = f"{name} #{i}"
            keys = _ARRAYS[name]
            values = tuple(self.get(entry, place, key, kind) for key, kind in keys)
            for extra in sorted(set(entry) - {k for k, _ in keys}):
                self.bad(place, f"unknown key {extra!r} (known: {', '.join(k for k, _ in keys)})")
            if None not in values:
                out.append(tuple(tuple(v) if isinstance(v, list) else v for v in values))
        return out

    def texts(self, raw: dict) -> dict:
        table = self.table(raw, "text")
        for key in TEXT_KEYS:
            self.get(table, "text", key, "texts")
        for key, value in table.items():
            if self.get(table, "text", key, "texts") is None:
                continue
            for i, line in enumerate([value] if isinstance(value, str) else value, 1):
                place = f"text.{key}" + (f" #{i}" if isinstance(value, list) else "")
                try:
                    names = {f for _, f, _, _ in string.Formatter().parse(line) if f is not None}
                except ValueError as exc:
                    self.bad(place, f"malformed placeholder ({exc}); write {{{{ and }}}} for a brace")
                    continue
                for unknown in sorted(names - set(PLACEHOLDERS)):
                    self.bad(place, f"unknown placeholder {{{unknown}}} (known: {', '.join(PLACEHOLDERS)})")
        return dict(table)


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def load_recipe(path: Path | str | None = None, copy_rule: str | None = None) -> Recipe:
    """Read the recipe TOML. Every problem is reported at once (DataError), each located by file,
    table, entry number and key (``recipe.toml [merge #2]: missing 'reason'``); numbers are checked
    (``slots`` >= 2, 1 <= ``players_min`` <= ``players_max``, ``discard_piles`` >= 0), and so are the
    ``[text]`` placeholders. An unknown ``copy_rule`` override is a UsageError."""
    if copy_rule is not None and copy_rule not in COPY_RULES:
        raise UsageError(f"unknown copy rule {copy_rule!r} (known: {', '.join(COPY_RULES)})")
    path = Path(path or default_recipe())
    where = str(path)
    raw = read_toml(path)
    r = _Reader(where)
    game, scope = r.table(raw, "game"), r.table(raw, "scope")
    name = r.get(game, "game", "name", "str")
    numbers = {key: r.get(game, f"game.{key}", key, "int")
               for key in ("slots", "players_min", "players_max", "discard_piles")}
    zones = r.get(scope, "scope", "zones", "ints")
    opened = r.get(scope, "scope", "opened_before", "date")
    runs = scope.get("runs", "one") if isinstance(scope, dict) else "one"
    if runs not in RUNS:
        r.bad("scope", f"'runs' must be one of {', '.join(RUNS)}, got {runs!r}")
    rule = copy_rule
    if rule is None:
        rule = r.get(r.table(raw, "copies"), "copies", "rule", "str")
        if rule is not None and rule not in COPY_RULES:
            r.bad("copies.rule", f"unknown copy rule {rule!r} (known: {', '.join(COPY_RULES)})")
    copies = raw.get("copies")
    track = copies.get("track", "listed") if isinstance(copies, dict) else "listed"
    if track not in TRACKS:
        r.bad("copies", f"'track' must be one of {', '.join(TRACKS)}, got {track!r}")
    arrays = {key: r.array(raw, key) for key in _ARRAYS}
    text = r.texts(raw)
    # A key the reader does not know is a mistake, never dropped without a word (an array of
    # tables written as a plain key of the table above it, say: `exclude_lines = "circle"`).
    for place, table, known in (("", raw, set(_TABLES) | set(_ARRAYS) | {"text"}),
                                *((name, raw.get(name), keys) for name, keys in _TABLES.items())):
        if isinstance(table, dict):
            for extra in sorted(set(table) - known):
                r.bad(place or extra, f"unknown key {extra!r}" + (f" in [{place}]" if place else "") +
                      f" (known: {', '.join(sorted(known))})" +
                      (f"; [[{extra}]] is an array of tables of its own" if extra in _ARRAYS else ""))
    slots, lo, hi, piles = (numbers[k] for k in ("slots", "players_min", "players_max", "discard_piles"))
    if slots is not None and slots < 2:
        r.bad("game.slots", f"must be at least 2, got {slots}")
    if lo is not None and hi is not None and not 1 <= lo <= hi:
        r.bad("game.players_min", f"must be 1..players_max ({hi}), got {lo}")
    if piles is not None and piles < 0:
        r.bad("game.discard_piles", f"must be 0 or more, got {piles}")
    if r.problems:
        raise DataError(r.problems)
    return Recipe(
        name, slots, lo, hi, piles, tuple(zones), str(opened), rule,
        tuple(arrays["exclude_lines"]), tuple(arrays["exclude_stations"]), tuple(arrays["merge"]),
        tuple(arrays["keep_apart"]), tuple(arrays["shared_track"]), tuple(arrays["orientation"]),
        where, text, runs=str(runs), track=str(track),
    )
