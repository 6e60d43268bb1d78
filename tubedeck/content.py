"""Where the project's content lives, and the one strict reader for every CSV and TOML it reads.

**Locator.** ``data/`` stays at the top of the repository (the facts, edited by hand) and is
packaged from there into the wheel as ``tubedeck/data/`` (``pyproject.toml``: ``package-dir``).
:func:`data_root` finds it in either place, so a source checkout, an editable install, ``pip
install .``, a wheel and ``pipx`` all work from any directory. Every module asks here; none
builds a path from ``__file__`` of its own.

**Readers.** :func:`read_csv` and :func:`read_toml` report every problem with file, line and
column (or table and key) as :class:`~tubedeck.errors.Problem` s; a caller collects them and
raises one :class:`~tubedeck.errors.DataError`. :func:`read_values` turns a TOML table into a
frozen dataclass of rules values, checking every field's type.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import stat
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, get_type_hints

from .errors import DataError, Problem, Unreadable
from .printable import composed

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_HERE = Path(__file__).resolve().parent
_MARK = "stations.csv"


@cache
def data_root() -> Path:
    """The bundled dataset directory: ``tubedeck/data`` in an installed wheel, else the checkout's
    ``data/`` (editable install or running from the source tree)."""
    for candidate in (_HERE / "data", _HERE.parent / "data"):
        if (candidate / _MARK).is_file():
            return candidate
    raise DataError([Problem(str(_HERE / "data"), None, None,
                             "the bundled dataset is missing from this installation (reinstall tubedeck)")])


CITIES = "cities"  # data/cities/<name>/: the bundled datasets of other cities (London is data/ itself)
DEFAULT_CITY = "london"


def bundled_cities() -> dict[str, Path]:
    """``{name: folder}`` of every bundled dataset, London (the default) first."""
    cities = {DEFAULT_CITY: data_root()}
    folder = data_root() / CITIES
    if folder.is_dir():
        cities.update({d.name: d for d in sorted(folder.iterdir()) if (d / _MARK).is_file()})
    return cities


def dataset_dir(given: Path | str | None) -> Path:
    """The dataset folder ``--data`` names: a folder, or a bundled city's name (``london``,
    ``new-york``); None is London. A folder of that name in the working directory wins."""
    if given is None:
        return data_root()
    path = Path(given)
    if path.is_dir() or len(path.parts) != 1:
        return path
    return bundled_cities().get(str(given), path)


def city_field(directory: Path | str, key: str) -> str:
    """A field of a dataset's ``city.toml`` (``[city]``: ``data import`` writes it); "" where
    there is none (London's own data/, a folder made by hand)."""
    import tomllib

    try:
        with open(Path(directory) / "city.toml", "rb") as f:
            value = tomllib.load(f).get("city", {}).get(key, "")
    except (OSError, tomllib.TOMLDecodeError, AttributeError):
        value = ""
    return value.strip() if isinstance(value, str) else ""


def city_name(directory: Path | str, default: str = "the city") -> str:
    """A dataset's city (``[city] name`` of its ``city.toml``), else ``default``."""
    return city_field(directory, "name") or default


def is_london(directory: Path | str | None) -> bool:
    """Is ``directory`` the bundled London dataset (None: the default, London)?"""
    return directory is None or Path(directory).resolve() == data_root().resolve()


# The games' names, printed as they are on every city (docs/data.md): kept out of the swaps below.
GAME_NAMES = ("Keep London Moving", "KEEP LONDON MOVING", "One Day in London", "ONE DAY IN LONDON",
              "Next Station: London", "Next Station London", "NEXT STATION LONDON", "Tube Dice", "TUBE DICE")
# What London's words become on another city ({city}: its city.toml name), in this order; Next
# Station's "Underground cards" and "Underground lines" are the game's own words and stay.
_SWAPS: tuple[tuple[str, str], ...] = (
    (r"\bthe\s+London\s+Underground\b", "the {city} metro"),
    (r"\bLondon\s+Underground\b", "{city} metro"),
    (r"\bLondoners\b", "{city}'s riders"),
    (r"\bCentral\s+London\b", "central {city}"),
    (r"\bLondon\b", "{city}"),
    (r"(?<![A-Za-z])(The|the)\s+Thames\b", r"\1 river"),
    (r"(?:(?<=^)|(?<=[.:!?]\s)|(?<=\n)|(?<=[|•#(\"]\s)|(?<=[|•#(\"]))Thames\b", "River"),
    (r"\bThames\b", "river"),
    (r"\b(the|The)\s+Tube\b(?!\s+Dice)", r"\1 metro"),
    (r"\bTube\b(?!\s+Dice)", "metro"),
    (r"\b(the|The|game's|the\s+game's)\s+Underground\b(?!\s+cards?\b)", r"\1 metro"),
    (r"\bUnderground\s+(stations?|journeys?|network)\b", r"metro \1"),
    (r"\bfare\s+(zones?)\b", r"\1"),
)


def localise(text: str, directory: Path | str | None) -> str:
    """``text`` as it prints on the dataset at ``directory``: unchanged on London; on another city
    London becomes the city's name (``city.toml``), the Thames "the river", the Tube and the
    Underground "the metro" (a fare zone a zone: an imported city's zones are rings). The games'
    names (:data:`GAME_NAMES`) print as they are."""
    if is_london(directory) or not text:
        return text
    city = city_name(directory if directory is not None else data_root())
    kept: list[str] = []

    def keep(m: re.Match) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    out = re.sub("|".join(re.escape(n) for n in GAME_NAMES), keep, text)
    for pattern, to in _SWAPS:
        out = re.sub(pattern, to.replace("{city}", city.replace("\\", r"\\")), out)
    out = out.replace("metro metro", "metro")
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], out)


def is_whole_text(text: str, digits: int = 19) -> bool:
    """A whole number of at most ``digits`` ASCII digits: ``str.isdigit`` alone takes '²', which
    ``int`` then refuses with a traceback."""
    return text.isascii() and text.isdigit() and len(text) <= digits


def game_dir(game: str) -> Path:
    """A game's content folder: ``data/<game>/``."""
    return data_root() / game


def content(game: str, name: str) -> Path:
    """One content file of a game, e.g. ``content("klm", "fortune.csv")``."""
    return game_dir(game) / name


# -- CSV ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One CSV record with its 1-based file line number, for error messages."""

    file: str
    line: int
    values: dict[str, str]

    def __getitem__(self, key: str) -> str:
        return self.values.get(key, "") or ""

    def problem(self, column: str | None, message: str) -> Problem:
        return Problem(self.file, self.line, column, message)


MAX_FILE = 64 << 20  # 64 MiB: far above any dataset; a larger "CSV" is not one of ours
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def regular_file(path: Path, problems: list[Problem], what: str = "file") -> bool:
    """Whether ``path`` is a readable regular file of sane size; a located problem otherwise. A
    directory or a FIFO is named as such (and a FIFO is never opened: reading it would block)."""
    name = path.name
    try:
        st = path.stat()
    except FileNotFoundError:
        problems.append(Unreadable(name, None, None, f"{what} not found in {path.parent}"))
        return False
    except OSError as exc:
        problems.append(Unreadable(name, None, None, f"cannot read: {exc.strerror or exc}"))
        return False
    if stat.S_ISDIR(st.st_mode):
        problems.append(Unreadable(name, None, None, f"is a directory, not a {what}"))
        return False
    if not stat.S_ISREG(st.st_mode):
        problems.append(Unreadable(name, None, None, f"is not a regular {what} (a device, FIFO or socket)"))
        return False
    if st.st_size > MAX_FILE:
        problems.append(Unreadable(name, None, None, f"is {st.st_size} bytes; more than {MAX_FILE} is not a dataset"))
        return False
    return True


def unreadable(problems: list[Problem]) -> bool:
    """Whether a file among ``problems`` could not be read at all (see
    :class:`~tubedeck.errors.Unreadable`): a loader then stops before the checks that depend on it,
    so the one real problem is not buried under hundreds it causes."""
    return any(isinstance(p, Unreadable) for p in problems)


def read_csv(path: Path, required: tuple[str, ...], problems: list[Problem], allow_empty: bool = False) -> list[Row]:
    """Read one CSV file; report a missing or irregular file, bad encoding, empty file, missing
    columns, ragged records, control characters and an unterminated quote (at the line where the
    quoted field starts, then stop: what follows would be misread). Blank lines are skipped."""
    name = path.name
    if not regular_file(path, problems):
        return []
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.append(Unreadable(name, None, None, f"cannot read: {exc.strerror or exc}"))
        return []
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(Unreadable(name, *_not_utf8(raw, exc)))
        return []
    if not text.strip():
        problems.append(Unreadable(name, None, None, "file is empty (a header row is required)"))
        return []
    reader = csv.reader(io.StringIO(text, newline=""))
    start = 1
    try:
        header = [h.strip() for h in next(reader)]
        missing = [c for c in required if c not in header]
        for col in missing:
            problems.append(Unreadable(name, 1, col, "missing column"))
        if missing:
            return []
        rows: list[Row] = []
        start = reader.line_num + 1
        for values in reader:
            line, end = start, reader.line_num
            start = end + 1
            if end > line and any("\n" in v or "\r" in v for v in values):
                # No field of ours spans lines: this is a quote left open on ``line``.
                problems.append(Unreadable(name, line, None, "a quoted field runs on over the next lines "
                                                             "(an unterminated \" quote?); reading stopped here"))
                return []
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                # a record cut short (or run on): the file was not read as written, and what the
                # other files say of its lost row would bury this, the cause
                problems.append(Unreadable(name, line, None, f"expected {len(header)} fields, found {len(values)}"))
                continue
            bad = [h for h, v in zip(header, values) if _CONTROL.search(v)]
            for col in bad:
                problems.append(Problem(name, line, col, "contains a control character (NUL, tab or the like)"))
            if not bad:
                # composed (NFC): a decomposed accent reads, matches and prints as the one character
                rows.append(Row(name, line, {h: composed(v.strip()) for h, v in zip(header, values)}))
    except csv.Error as exc:
        problems.append(Unreadable(name, start, None, f"malformed CSV: {exc}"))
        return []
    if not rows and not allow_empty and not problems:
        problems.append(Problem(name, None, None, "file has a header but no records"))
    return rows


def _not_utf8(raw: bytes, exc: UnicodeDecodeError) -> tuple[int, None, str]:
    """Line, column and message for bytes that are not UTF-8."""
    return raw[: exc.start].count(b"\n") + 1, None, f"not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}"


# -- TOML ---------------------------------------------------------------------------------------
def read_toml(path: Path) -> dict:
    """Parse a TOML file; DataError naming the file (and TOML's own line and column) otherwise."""
    where = str(path)
    problems: list[Problem] = []
    if not regular_file(path, problems):
        raise DataError([Unreadable(where, None, None, problems[0].message)])
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError([Unreadable(where, None, None, "file not found")]) from None
    except OSError as exc:
        raise DataError([Unreadable(where, None, None, f"cannot read the file: {exc.strerror or exc}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError([Unreadable(where, *_not_utf8(raw, exc))]) from None
    if not text.strip():
        raise DataError([Unreadable(where, None, None, "file is empty")])
    control = _CONTROL.search(text.replace("\t", " "))
    if control:
        line = text[: control.start()].count("\n") + 1
        raise DataError([Problem(where, line, None, "contains a control character (NUL or the like)")])
    deep = too_deep(text)
    if deep:
        raise DataError([Problem(where, deep, None, f"nested over {MAX_DEPTH} deep (arrays or tables within each other)")])
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError([Problem(where, None, None, f"not valid TOML: {exc}")]) from None
    except (RecursionError, ValueError) as exc:  # nesting the scan missed; a number Python will not convert
        raise DataError([Problem(where, long_number(text), None, f"not a file tubedeck reads: {_short(exc)}")]) from None


# -- nesting and numbers a reader would choke on ---------------------------------------------------
MAX_DEPTH = 100  # arrays, objects or inline tables within each other: ours nest a few deep
MAX_DIGITS = 4000  # below Python's own 4300-digit limit on int(str)
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def too_deep(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The line where ``[``/``{`` nest over ``limit`` deep outside quoted strings (JSON or TOML;
    a TOML comment is skipped), or None. Parsers recurse per level: thousands deep is a
    RecursionError, not a message, so this scan comes first."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth, line, quote, i, n = 0, 1, "", 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "[{":
            depth += 1
            if depth > limit:
                return line
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def long_number(text: str) -> int | None:
    """The line of the first run of over :data:`MAX_DIGITS` digits in ``text``, or None."""
    m = _LONG_NUMBER.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _short(exc: BaseException) -> str:
    return "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:200]


def read_json(path: Path, what: str, limit: int = MAX_FILE) -> Any:
    """Parse a JSON file given on the command line (``what``: its option, "--state"): a regular
    file of at most ``limit`` bytes, UTF-8, nested at most :data:`MAX_DEPTH` deep, no number of
    over :data:`MAX_DIGITS` digits. UsageError naming the file and line otherwise."""
    from .errors import UsageError

    path = Path(path)
    try:
        st = path.stat()
    except OSError as exc:
        raise UsageError(f"{what} {path}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device, FIFO or socket)"
        raise UsageError(f"{what} {path}: {kind}")
    if st.st_size > limit:
        raise UsageError(f"{what} {path}: {st.st_size} bytes; over {limit} is not one of ours")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{what} {path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    deep = too_deep(text)
    if deep:
        raise UsageError(f"{path}:{deep}: nested over {MAX_DEPTH} deep (arrays or objects within each other)")
    digits = long_number(text)
    if digits:
        raise UsageError(f"{path}:{digits}: a number of over {MAX_DIGITS} digits")
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}: not JSON ({exc.msg}, column {exc.colno})") from None
    except (RecursionError, ValueError) as exc:
        raise UsageError(f"{path}: not JSON tubedeck reads ({_short(exc)})") from None


T = TypeVar("T", bound="DataclassInstance")  # read_values fills a dataclass
_KIND = {int: "a whole number", str: "a string", float: "a number", bool: "true or false",
         tuple[str, ...]: "a list of strings"}


def _fits(value: Any, kind: Any) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == tuple[str, ...]:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, kind)


def read_values(raw: dict, schema: type[T], where: str, table: str, problems: list[Problem]) -> T | None:
    """Fill the frozen dataclass ``schema`` from ``raw[table]``: every field must be present with
    its type; unknown keys are refused (a typo must not pass silently). ``None`` if any problem."""
    values = raw.get(table)
    if not isinstance(values, dict):
        problems.append(Problem(where, None, table, f"missing table [{table}]"))
        return None
    hints = get_type_hints(schema)
    out: dict[str, Any] = {}
    bad = False
    for f in dataclasses.fields(schema):
        kind = hints[f.name]
        if f.name not in values:
            if f.default is dataclasses.MISSING:
                problems.append(Problem(where, None, f"{table}.{f.name}", "missing"))
                bad = True
            continue
        value = values[f.name]
        if not _fits(value, kind):
            problems.append(Problem(where, None, f"{table}.{f.name}", f"must be {_KIND.get(kind, kind)}, got {value!r}"))
            bad = True
            continue
        out[f.name] = tuple(value) if kind == tuple[str, ...] else value
    for extra in sorted(set(values) - {f.name for f in dataclasses.fields(schema)}):
        problems.append(Problem(where, None, f"{table}.{extra}", "unknown key"))
        bad = True
    return None if bad else schema(**out)


# -- inputs by content ---------------------------------------------------------------------------
MAX_INPUT_FILES = 10_000  # files in one input folder: a dataset or map folder holds a few dozen


def digest(*roots: Path, recurse: tuple[Path, ...] = ()) -> str:
    """What a results header records of input files: 16 hex digits of a SHA-256 over each regular
    file's name (relative to its root) and bytes, streamed. ``roots`` are files or folders read
    one level deep (a dataset's CSVs); ``recurse`` folders are read whole (a game's content).
    Devices, FIFOs and sockets are left out (reading one would never end); a missing root counts
    as empty. Same content, same digest, wherever the files lie."""
    import hashlib

    h = hashlib.sha256()
    seen = 0
    for top, deep in [(r, False) for r in roots] + [(r, True) for r in recurse]:
        top = Path(top)
        files = [top] if top.is_file() else sorted(top.rglob("*") if deep else top.glob("*")) if top.is_dir() else []
        for f in files:
            try:
                if not stat.S_ISREG(f.stat().st_mode):
                    continue
                seen += 1
                if seen > MAX_INPUT_FILES:
                    from .errors import UsageError

                    raise UsageError(f"{top}: over {MAX_INPUT_FILES} files; not an input folder of ours")
                name = f.name if f == top else f.relative_to(top).as_posix()
                h.update(name.encode("utf-8", "surrogateescape") + b"\0")
                with open(f, "rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
                h.update(b"\0")
            except OSError:
                continue  # unreadable: the reader that needs it names it
    return h.hexdigest()[:16]
