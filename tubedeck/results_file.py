"""The one reader of results files (JSON Lines: a header line, then one record per seed).

Every reader (resume, ``tubedeck merge``, ``tubedeck report``) takes a file's lines from
:func:`lines`: each bounded by :data:`MAX_LINE` (a line longer is not one of ours, and reading
it whole could take any memory), parsed as a JSON object; a blank line is skipped. A line that is
not one of ours raises :class:`BadLine` with its 1-based number and why; each reader says what
that means for its own command (resume: move the file away or delete a torn last line; merge:
not a shard; report: not a results file). Opening one: :func:`open_regular` (a FIFO or a device
would never end).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from .errors import UsageError
from .records import is_whole

MAX_LINE = 1 << 20  # a results line longer than 1 MiB is not one of ours
MAX_PLAYERS = 64  # no game seats more (a header's "players")


class BadLine(Exception):
    """A line that is not one of a results file's: ``number`` (1-based), ``why``, and whether it
    is ``torn`` (the last line, cut short without its newline: a run killed mid-write)."""

    def __init__(self, number: int, why: str, torn: bool = False) -> None:
        super().__init__(f"line {number}: {why}")
        self.number, self.why, self.torn = number, why, torn


@dataclass(frozen=True)
class Line:
    number: int  # 1-based
    offset: int  # the byte offset of its start
    raw: bytes  # as stored, newline included
    record: dict  # the JSON object


def lines(fh: IO[bytes], number: int = 0, offset: int = 0) -> Iterator[Line]:
    """Each non-blank line of ``fh`` from where it stands, parsed (``number``/``offset``: of the
    lines already read). :class:`BadLine` for a line over :data:`MAX_LINE` bytes, not JSON, or
    not a JSON object; a parsed last line without its newline is yielded (its reader decides)."""
    while True:
        raw = fh.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        here, offset = offset, offset + len(raw)
        if len(raw) > MAX_LINE:
            raise BadLine(number, f"a line longer than {MAX_LINE} bytes")
        if not raw.strip():
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise BadLine(number, f"not JSON: {getattr(exc, 'msg', exc)}", torn=not raw.endswith(b"\n")) from None
        if not isinstance(record, dict):
            raise BadLine(number, "not a JSON object")
        yield Line(number, here, raw, record)


def open_regular(path: Path) -> IO[bytes]:
    """Open a results file for reading: a regular file only (a FIFO or /dev/zero would never end)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{path}: not a regular file; results files are regular files")
    return os.fdopen(fd, "rb")


def players_of(path: Path, header: dict, schema: Any = None) -> int:
    """A header's seat count; UsageError when it is not one. A header without ``players`` is of
    one seat only where its records name no seat (a par file of solo rounds); where they do
    (``schema``'s winners, scores, seats or places), the file is not one of ours."""
    if "players" not in header and schema is not None and schema.of("winner", "winners", "scores", "seat", "place"):
        raise UsageError(f"{path}:1: the header has no 'players', which {schema.game} {schema.mode} records need")
    p = header.get("players", 1)
    if not is_whole(p, 1, MAX_PLAYERS):
        raise UsageError(f"{path}:1: the header's 'players' must be a whole number 1-{MAX_PLAYERS}, got {p!r}")
    return p


def header_of(path: Path) -> dict | None:
    """The header of a results file, or None when it is not one."""
    try:
        with open_regular(path) as fh:
            first = next(lines(fh), None)
    except (OSError, UsageError, BadLine):
        return None
    return first.record if first is not None and first.record.get("kind") == "header" else None
