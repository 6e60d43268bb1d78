"""Results files of a run: JSON Lines, one header line then one record per seed.

Reading for resume (validated line by line, memory-flat: only byte offsets are kept), writing
whole lines with signals held, the lock that keeps two runs apart, and counting what is stored.
"""

from __future__ import annotations

import contextlib
import json
import signal
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from tubedeck.errors import UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

Validator = Callable[[dict], "str | None"]
MAX_LINE = 1 << 20  # a results line longer than 1 MiB is not one of ours


@dataclass(frozen=True)
class Resumed:
    """What an existing results file already holds: each seed's byte offset (not the record, so
    resuming a 100,000-deal file stays memory-flat; records are read back one at a time)."""

    done: dict[int, int]
    header: dict | None
    path: Path | None = None
    undecided: frozenset[int] = frozenset()

    def record(self, seed: int) -> dict:
        assert self.path is not None
        with open(self.path, "rb") as fh:
            fh.seek(self.done[seed])
            return json.loads(fh.readline())


def _corrupt(path: Path, number: int, why: str) -> UsageError:
    return UsageError(f"{path}:{number}: corrupt results file ({why}); move it away or pass another --results path")


def check_results_path(path: Path) -> None:
    """A results file must be a regular file (not a directory, device, FIFO or a link to one)."""
    try:
        st = path.stat()  # follows links: /dev/null behind a link is refused too
    except FileNotFoundError:
        if path.is_symlink():
            raise UsageError(f"--results {path}: a dangling symbolic link") from None
        return
    except OSError as exc:
        from tubedeck.atomic import in_the_way

        raise UsageError(f"--results {path}: {in_the_way(path.parent) or exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise UsageError(f"--results {path}: {kind}; results go to a regular file")


_INPUT_WORDS = {"data": "the dataset's content (--data)", "content": "the game's bundled content files"}


def header_diff(theirs: dict, ours: dict) -> list[str]:
    """What differs between a stored header and this run's, named: ``players``, ``the content of
    --ground`` (the ``inputs`` digests, one by one)."""
    out = []
    for k in sorted(set(theirs) | set(ours), key=str):
        a, b = theirs.get(k), ours.get(k)
        if a == b:
            continue
        if k == "inputs" and isinstance(a, dict) and isinstance(b, dict):
            out += [_INPUT_WORDS.get(n, f"the content of --{str(n)[:40].replace('_', '-')}")
                    for n in sorted(set(a) | set(b), key=str) if a.get(n) != b.get(n)]
        else:
            out.append(str(k)[:60])
    return out


def read_results(path: Path, header: dict, validate: Validator | None = None,
                 decided: Callable[[dict], bool] | None = None) -> Resumed:
    """Scan a results file for resuming, line by line; UsageError on corruption or a mismatch."""
    if not path.exists():
        return Resumed({}, None)
    done: dict[int, int] = {}
    line_of: dict[int, int] = {}
    undecided: set[int] = set()
    found_header = None
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    with fh:
        offset, number = 0, 0
        while True:
            raw = fh.readline(MAX_LINE + 1)
            if not raw:
                break
            number += 1
            here, offset = offset, offset + len(raw)
            if len(raw) > MAX_LINE:
                raise _corrupt(path, number, f"a line longer than {MAX_LINE} bytes")
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
                if not raw.endswith(b"\n"):
                    # The signature of a run killed mid-write. The file is never truncated for the
                    # user: they decide whether to drop the torn line.
                    raise UsageError(f"{path}:{number}: corrupt results file: the last line is incomplete "
                                     "(a run killed mid-write?); delete that line to resume, or pass another "
                                     "--results path") from None
                raise _corrupt(path, number, f"not JSON: {getattr(exc, 'msg', exc)}") from None
            if not isinstance(record, dict):
                raise _corrupt(path, number, "a line is not a JSON object")
            if record.get("kind") == "header":
                if found_header is not None or done:
                    raise _corrupt(path, number, "a second header line")
                found_header = record
                theirs = {k: v for k, v in record.items() if k != "kind"}
                if theirs != header:
                    diff = header_diff(theirs, header)
                    if "version" in diff or "mode" in diff:
                        raise UsageError(f"{path}:{number}: results of another record version ({', '.join(diff)}); "
                                         "re-run: pass another --results path (or move this file away) to start anew")
                    raise UsageError(f"{path}:{number}: results were made with other parameters ({', '.join(diff)}); "
                                     "pass another --results path to start a new run")
                continue
            if found_header is None:
                raise _corrupt(path, number, "a result before the header line")
            seed = record.get("seed")
            if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
                raise _corrupt(path, number, "a result has no whole-number 'seed' >= 0")
            if seed in done:
                raise _corrupt(path, number, f"seed {seed} again (first on line {line_of[seed]}): "
                                             "two runs wrote this file?")
            if not raw.endswith(b"\n"):
                raise UsageError(f"{path}:{number}: corrupt results file: the last line is incomplete")
            if validate is not None:
                try:
                    why = validate(record)
                except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                    why = f"malformed record ({type(exc).__name__}: {exc})"
                if why:
                    raise _corrupt(path, number, f"seed {seed}: {why}")
            if decided is not None and not decided(record):
                undecided.add(seed)
            done[seed] = here
            line_of[seed] = number
    if done and found_header is None:
        raise UsageError(f"{path}: corrupt results file (no header line)")
    return Resumed(done, found_header, path, frozenset(undecided))


# -- running ----------------------------------------------------------------------------------
@contextlib.contextmanager
def _signals_blocked() -> Iterator[None]:
    """Hold SIGINT/SIGTERM (and the --time-limit's SIGALRM) while a record is written, so a line
    is whole or absent."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGALRM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _write(out, text: str) -> None:
    with _signals_blocked():
        try:
            out.write(text)
            out.flush()
        except OSError as exc:  # a full disk: the line may be torn; the next resume names it
            raise UsageError(f"cannot write results file {out.name}: {exc.strerror or exc}") from None


def _open_locked(results: Path):
    check_results_path(results)
    try:
        results.parent.mkdir(parents=True, exist_ok=True)
        out = open(results, "a", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write results file {results}: {exc.strerror or exc}") from None
    if fcntl is not None:
        try:
            fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            out.close()
            raise UsageError(f"{results}: another check is writing this results file; wait for it or pass "
                             "another --results path") from None
    return out


def _drop_undecided(results: Path, resumed: Resumed) -> Resumed:
    """Rewrite ``results`` (atomically) without its undecided records, for ``--retry-unknown``."""
    from tubedeck.atomic import atomic_open

    with open(results, "rb") as src, atomic_open(results, "wb") as dst:
        for raw in src:
            record = json.loads(raw) if raw.strip() else None
            if isinstance(record, dict) and record.get("seed") in resumed.undecided and record.get("kind") != "header":
                continue
            dst.write(raw)
    return resumed



def _count(results: Path | None) -> int:
    if results is None or not results.exists():
        return 0
    with open(results, "rb") as fh:
        return sum(1 for raw in fh if raw.strip() and b'"kind": "header"' not in raw)
