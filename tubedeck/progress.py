"""Progress for long work, one way for every command.

Work over 2 s shows progress: on a terminal a live line (rich) with what the work reports, else a
plain line on stderr every 10 s. Progress only prints, to stderr: results and files are the same
with or without it. Use it as a context manager and call :meth:`Progress.update` as often as you
like (it is cheap: it looks at the clock and returns)::

    with Progress("solve nextstation", total=len(rounds)) as progress:
        for r in rounds:
            ...
            progress.update(done=i + 1, best=best, bound=bound)

Progress nests: one made while another is open in this process (a command's own around the
solver's, the runner's or the report's) shows through the outer one, on its clock: the command is
quiet for 2 s from its own start, never twice, and a terminal holds one live line.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["Progress", "since_start", "ticking"]

START_AFTER = 2.0  # seconds of quiet before anything is shown
EVERY = 10.0  # seconds between plain lines when stderr is not a terminal
TICK = 0.5  # seconds between a ticker's looks at the clock while one long step runs

_OPEN: list[Progress] = []  # the progress objects open in this process, outermost first
_OPEN_LOCK = threading.Lock()


class Progress:
    """``label``: what runs; ``total``: how many steps (``done`` counts them), or None.
    ``fields`` given to :meth:`update` (best, bound, positions, ...) print as ``name value``.
    ``since``: seconds the work has already run (a command's start-up: :func:`since_start`)."""

    def __init__(self, label: str, total: int | None = None, *, stream: TextIO | None = None,
                 start_after: float = START_AFTER, every: float = EVERY, tty: bool | None = None,
                 since: float = 0.0):
        self.label, self.total = label, total
        self.stream = stream if stream is not None else sys.stderr
        self.start_after, self.every = start_after, every
        self.tty = self.stream.isatty() if tty is None else tty
        self.start = time.monotonic() - max(since, 0.0)
        self.last_line = self.start
        self.done = 0
        self.fields: dict[str, Any] = {}
        self._live: Any = None
        self._task: Any = None
        self._lock = threading.Lock()  # a ticker thread and the work both update: one shows at a time
        self.lines = 0  # plain lines printed (tests read it)
        self.outer: Progress | None = None  # the open one that shows this one's work (set on entering)

    def __enter__(self) -> Progress:
        with _OPEN_LOCK:  # open: shown through the outermost one open, or the outermost itself
            self.outer = _OPEN[0] if _OPEN else None
            _OPEN.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def text(self, elapsed: float | None = None) -> str:
        """What the work has reported, in words: ``3/10, best 41, bound 44, 12 s`` (``elapsed``:
        the seconds to say, by default this one's own)."""
        parts = []
        if self.total is not None:
            parts.append(f"{self.done}/{self.total}")
        elif self.done:
            parts.append(str(self.done))
        parts += [f"{k} {_fmt(v)}" for k, v in list(self.fields.items()) if v is not None]
        parts.append(f"{self.elapsed() if elapsed is None else elapsed:.0f} s")
        return ", ".join(parts)

    def _shown(self) -> Progress:
        """Whose work this one shows: the innermost progress open in this process (its own when
        none is open inside it)."""
        with _OPEN_LOCK:
            return _OPEN[-1] if self.outer is None and self in _OPEN else self

    def update(self, done: int | None = None, advance: int = 0, **fields: Any) -> None:
        with self._lock:
            if done is not None:
                self.done = done
            self.done += advance
            self.fields.update(fields)
        if self.outer is not None:  # shown through the outer one, on its clock
            self.outer.update()
            return
        with self._lock:
            now = time.monotonic()
            if now - self.start < self.start_after:
                return
            shown = self._shown()
            if self.tty:
                self._show_live(shown)
            elif now - self.last_line >= self.every or self.lines == 0:
                self.last_line = now
                self.lines += 1
                print(f"{shown.label}: {shown.text(now - self.start)}", file=self.stream, flush=True)

    def _show_live(self, shown: Progress) -> None:
        if self._live is None:
            from rich.console import Console
            from rich.progress import BarColumn, TextColumn
            from rich.progress import Progress as Bar

            columns: list[Any] = [TextColumn("[bold]{task.fields[label]}"), BarColumn(),
                                  TextColumn("{task.fields[count]}"), TextColumn("{task.fields[info]}")]
            self._live = Bar(*columns, console=Console(file=self.stream), transient=True)
            self._live.start()
            self._task = self._live.add_task(self.label, total=None, label=self.label, count="", info="")
        info = ", ".join(f"{k} {_fmt(v)}" for k, v in list(shown.fields.items()) if v is not None)
        count = f"{shown.done}/{shown.total}" if shown.total is not None else str(shown.done or "")
        self._live.update(self._task, total=shown.total, completed=shown.done, label=shown.label, count=count,
                          info=", ".join(filter(None, (info, f"{self.elapsed():.0f} s"))))

    def close(self) -> None:
        with _OPEN_LOCK:
            if self in _OPEN:
                _OPEN.remove(self)
        with self._lock:
            if self._live is not None:
                self._live.stop()
                self._live = None


def since_start() -> float:
    """Seconds since the command started (``tubedeck.STARTED``: the console script's start, or an
    in-process ``main`` call's), so its progress counts the start-up too."""
    import tubedeck

    return time.perf_counter() - tubedeck.STARTED


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


@contextlib.contextmanager
def ticking(progress: Progress | None, every: float = TICK) -> Iterator[None]:
    """Look at the progress clock every ``every`` seconds from a helper thread, so a line shows
    while one long step (a CP-SAT solve, a column iteration) runs without calling back."""
    if progress is None:
        yield
        return
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every):
            with contextlib.suppress(Exception):  # a progress line is never worth a failure
                progress.update()

    thread = threading.Thread(target=run, name="progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
