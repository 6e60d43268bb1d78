"""Errors a user can cause. The CLI turns every one of them into a message and exit code 2.

A :class:`Problem` says where (file, line, column) and what; a :class:`DataError` carries all the
problems found in one pass, so a dataset is reported at once, not one error per run.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with an input file. ``line`` is 1-based (the header is line 1)."""

    file: str
    line: int | None
    column: str | None
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.column:
            where += f" [{self.column}]"
        return f"{where}: {self.message}"

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message}


class Unreadable(Problem):
    """A file that cannot be read at all (missing, a directory or FIFO, not UTF-8, empty, without
    its header): listed first, and nothing that depends on the file is checked."""


class TubedeckError(Exception):
    """Base of every error caused by input (data, options, names): exit code 2, no traceback."""


class UsageError(TubedeckError):
    """A bad option, name or argument."""


class DataError(TubedeckError):
    """A dataset (or game content file) with one or more problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=lambda p: (not isinstance(p, Unreadable), p.file, p.line or 0,
                                                             p.column or "", p.message))
        super().__init__(self._summary())

    def _summary(self) -> str:
        n = len(self.problems)
        lines = [f"{n} {'problem' if n == 1 else 'problems'} in the data:"]
        lines += [f"  {p}" for p in self.problems]
        return "\n".join(lines)


class NotApplicable(TubedeckError):
    """A game's bundled content (say, a recipe naming London stations) does not fit the dataset.

    ``tubedeck build GAME`` reports it like any input error (exit 2); ``tubedeck build all`` skips
    that game with a note and builds the others.
    """


class Stopped(Exception):
    """A command stopped by Ctrl-C (``code`` 130) or SIGTERM (143), with a one-line account of what
    was kept. Not a KeyboardInterrupt, so the CLI framework cannot swallow its message."""

    def __init__(self, message: str, code: int = 130):
        self.code = code
        super().__init__(message)
