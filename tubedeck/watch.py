"""``build GAME --watch``: build, then build again whenever the data behind it changes.

What is watched: the dataset (``--data``: its three files and ``city.toml``), the game's content
folder (``data/<game>/``: rules, recipes, decks, the rulebook's words) and any file an option names
(``--recipe``, ``--ground``). It polls every half second (no dependency, works on every file
system) and compares each file's modification time and size, so an editor's save, a ``git
checkout`` and a copy all count.

Each build runs as its own process (``python -m tubedeck build ...`` without ``--watch``): nothing
a previous build read is cached into the next one, and a build that fails (a typo in a rules file)
says why and the watch goes on. A line per rebuild says what changed, whether it built, and how
long it took. Ctrl-C ends the watch (exit 130, as every command).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

Snapshot = dict[str, tuple[int, int]]
POLL = 0.5  # seconds between looks


def snapshot(paths: Iterable[Path]) -> Snapshot:
    """Every file under ``paths`` (files, or folders walked), with (mtime in ns, size)."""
    out: Snapshot = {}
    for root in paths:
        files = [root] if root.is_file() else sorted(root.rglob("*")) if root.is_dir() else []
        for f in files:
            if f.is_file() and "__pycache__" not in f.parts and not f.name.startswith("."):
                try:
                    st = f.stat()
                except OSError:
                    continue
                out[str(f)] = (st.st_mtime_ns, st.st_size)
    return out


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """The files added, removed or changed, sorted."""
    return sorted(f for f in before.keys() | after.keys() if before.get(f) != after.get(f))


def rebuild_command(argv: Sequence[str]) -> list[str]:
    """This process's own ``build`` command line without ``--watch``."""
    return [sys.executable, "-m", "tubedeck", *[a for a in argv if a != "--watch"]]


def run_build(command: Sequence[str]) -> int:
    return subprocess.run(list(command), check=False).returncode


def watch(paths: Sequence[Path], build: Callable[[], int], *, say: Callable[[str], None] = print,
          sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.perf_counter,
          rounds: int | None = None) -> None:
    """Build once, then again after every change under ``paths``; ``rounds`` bounds the looks
    (tests), None watches until interrupted."""
    def timed(what: str) -> None:
        start = clock()
        code = build()
        took = clock() - start
        say(f"{what}: {'built' if code == 0 else f'build failed (exit {code})'} in {took:.1f} s")

    seen = snapshot(paths)
    timed("first build")
    say(f"watching {len(seen)} files in {', '.join(str(p) for p in paths)} (Ctrl-C to stop)")
    looked = 0
    while rounds is None or looked < rounds:
        sleep(POLL)
        looked += 1
        now = snapshot(paths)
        changed = changes(seen, now)
        if not changed:
            continue
        seen = now
        names = ", ".join(Path(c).name for c in changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4 else "")
        timed(f"changed {names}")


__all__ = ["POLL", "changes", "rebuild_command", "run_build", "snapshot", "watch"]
