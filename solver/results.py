"""Results files of a run: JSON Lines, one header line then one record per seed.

Reading for resume (validated line by line, memory-flat: only byte offsets are kept), writing
whole lines with signals held, the lock that keeps two runs apart, counting what is stored, and
putting a file back in seed order (:func:`sort_results`, an external merge sort: memory bounded
whatever the file's size).
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import signal
import stat
import tempfile
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from tubedeck.errors import UsageError
from tubedeck.results_file import BadLine, lines
from tubedeck.words import plural

try:
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

Validator = Callable[[dict], "str | None"]


@dataclass(frozen=True)
class Resumed:
    """What an existing results file already holds: each seed's byte offset (not the record, so
    resuming a 100,000-deal file stays memory-flat; records are read back one at a time)."""

    done: dict[int, int]
    header: dict | None
    path: Path | None = None
    undecided: frozenset[int] = frozenset()
    ordered: bool = True  # the records stand in rising seed order, each once
    top: int = -1  # the highest seed stored (-1: none)

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


def _describe_seeds(seeds: Collection[int]) -> str:
    """``4-10``; a shard's slice ``5, 8, ... 17``; a list: how many."""
    if not isinstance(seeds, range):
        return f"a list of {plural(len(seeds), 'seed')}"
    if len(seeds) <= 3:
        return ", ".join(map(str, seeds)) or "none"
    if seeds.step == 1:
        return f"{seeds[0]}-{seeds[-1]}"
    return f"{seeds[0]}, {seeds[1]}, ... {seeds[-1]}"


class _RunSeeds:
    """Which stored seeds may stand in the results file of a run over ``seeds``.

    A seed of the run is its own. A seed a run with the same start (and shard slice) and a larger
    count would have (a range's ``start + i * step`` past its end) is a wider run's: a file may hold
    it if it holds every seed of this run too (a resume with a smaller ``--deals`` reads a prefix).
    Any other seed (below ``--seed``, off the shard's slice) no run from this ``--seed`` and
    ``--shard`` ever writes: an edited line or another run's file, refused."""

    def __init__(self, seeds: Collection[int]):
        self.seeds = seeds
        self.members = seeds if isinstance(seeds, (range, set, frozenset)) else frozenset(seeds)

    def kind(self, seed: int) -> str:
        if seed in self.members:
            return "own"
        r = self.seeds
        if not isinstance(r, range):
            return "wider"
        if r.step > 0 and seed >= r.start and (seed - r.start) % r.step == 0:
            return "wider"
        return "foreign"

    def never(self, seed: int) -> str:
        r = self.seeds
        assert isinstance(r, range)
        slice_ = f"from seed {r.start}" if r.step == 1 else f"of this shard's slice ({r.start} + a multiple of {r.step})"
        return (f"seed {seed} is not one of this run's seeds ({_describe_seeds(r)}) and no run {slice_} has it: "
                "an edited line, or the file of another run")

    def first_missing(self, done: dict[int, int]) -> int | None:
        # Stops at most one past the stored seeds of the run: a 10**9-seed range is never walked.
        return next((s for s in self.seeds if s not in done), None)


def read_results(path: Path, header: dict, validate: Validator | None = None,
                 decided: Callable[[dict], bool] | None = None, seeds: Iterable[int] | None = None) -> Resumed:
    """Scan a results file for resuming, line by line; UsageError on corruption or a mismatch.

    ``seeds`` (the run's; a range or a collection, ``None``: not checked): a stored seed no run
    from the same start and shard has is refused at its line; a seed of a wider run (past this
    run's end) is refused unless the file holds every seed of this run (see :class:`_RunSeeds`).
    With ``decided``, only the run's own undecided records are marked for recomputing."""
    if not path.exists():
        return Resumed({}, None)
    run = _RunSeeds(seeds) if isinstance(seeds, Collection) and not isinstance(seeds, (str, bytes)) else None
    wider: tuple[int, int] | None = None  # (line, seed) of the first record past this run's seeds
    ordered, top = True, -1
    done: dict[int, int] = {}
    line_of: dict[int, int] = {}
    undecided: set[int] = set()
    found_header = None
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    try:
        with fh:
            for line in lines(fh):
                number, here, raw, record = line.number, line.offset, line.raw, line.record
                if record.get("kind") == "header":
                    if found_header is not None or done:
                        raise _corrupt(path, number, "a second header line")
                    found_header = record
                    theirs = {k: v for k, v in record.items() if k != "kind"}
                    if theirs != header:
                        diff = header_diff(theirs, header)
                        if theirs.get("game") != header.get("game") or theirs.get("mode", header.get("mode")) \
                                != header.get("mode"):  # the cause first: whose results these are (no mode: older)
                            said = f"{str(theirs.get('game'))[:40]} {str(theirs.get('mode'))[:40]}"
                            raise UsageError(f"{path}:{number}: these are results of {said}, not of "
                                             f"{header.get('game')} {header.get('mode')}; pass another --results path")
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
                kind = run.kind(seed) if run is not None else "own"
                if kind == "foreign":
                    assert run is not None
                    raise _corrupt(path, number, run.never(seed))
                if kind == "wider" and wider is None:
                    wider = (number, seed)
                if decided is not None and kind == "own" and not decided(record):
                    undecided.add(seed)
                if seed < top:
                    ordered = False
                top = max(top, seed)
                done[seed] = here
                line_of[seed] = number
    except BadLine as bad:
        if bad.torn:  # the signature of a run killed mid-write: the file is never truncated for the user,
            # they decide whether to drop the torn line
            raise UsageError(f"{path}:{bad.number}: corrupt results file: the last line is incomplete (a run killed "
                             "mid-write?); delete that line to resume, or pass another --results path") from None
        raise _corrupt(path, bad.number, bad.why) from None
    if done and found_header is None:
        raise UsageError(f"{path}: corrupt results file (no header line)")
    if wider is not None:
        assert run is not None
        missing = run.first_missing(done)
        if missing is not None:
            number, seed = wider
            raise _corrupt(path, number, f"seed {seed} is not one of this run's seeds "
                                         f"({_describe_seeds(run.seeds)}), and seed {missing} of the run is not "
                                         "stored: an edited line, or the file of a wider run (resume that with its "
                                         "own --seed and count)")
    return Resumed(done, found_header, path, frozenset(undecided), ordered, top)


# -- running ----------------------------------------------------------------------------------
@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
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


def write_line(out, text: str, kept: int | None = None) -> None:
    """Append one line (a record or the header) whole or not at all: written straight to the file
    with signals held; should the disk fill (or any write fail) part-way, the file is cut back to
    where the line began, so it ends with its last whole record and the same command resumes it.
    ``kept``: the records the file holds before this line, for the message."""
    data = text.encode("utf-8")
    with signals_blocked():
        out.flush()  # (nothing buffered: every line goes through here)
        fd = out.fileno()
        start = os.lseek(fd, 0, os.SEEK_END)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
                cut = "cut back to its last whole record"
            except OSError:  # pragma: no cover - a file that cannot be truncated: resume names the torn line
                cut = "its last line may be torn"
            held = f"{plural(kept, 'record')}" if kept is not None else "every record written before this one"
            raise UsageError(f"cannot write results file {out.name}: {exc.strerror or exc}; the file keeps {held} "
                             f"({cut}): free space and run the same command to resume") from None


def open_locked(results: Path):
    """Open ``results`` for appending, holding its lock. A run that finishes rewrites its file
    (:func:`sort_results`, ``--retry-unknown``) by renaming a new one onto the name while it holds
    the old one's lock: a lock taken on a file no longer at the name is let go and taken again on
    the file that is, so nobody appends to a file nobody reads."""
    check_results_path(results)
    for _ in range(100):
        try:
            results.parent.mkdir(parents=True, exist_ok=True)
            out = open(results, "a", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write results file {results}: {exc.strerror or exc}") from None
        if fcntl is None:  # pragma: no cover
            return out
        try:
            fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            out.close()
            raise UsageError(f"{results}: another check is writing this results file; wait for it or pass "
                             "another --results path") from None
        if _same_file(out, results):
            return out
        out.close()  # replaced between the open and the lock: lock the file now at the name
    raise UsageError(f"{results}: replaced again and again while being opened; is another program rewriting it?")


def _same_file(fh: IO, path: Path) -> bool:
    try:
        here, there = os.fstat(fh.fileno()), os.stat(path)
    except FileNotFoundError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def drop_undecided(results: Path, resumed: Resumed) -> Resumed:
    """Rewrite ``results`` (atomically) without its undecided records, for ``--retry-unknown``
    (the caller holds the file's lock throughout, see :func:`open_locked`)."""
    from tubedeck.atomic import atomic_open

    with open(results, "rb") as src, atomic_open(results, "wb") as dst:
        for raw in src:
            record = json.loads(raw) if raw.strip() else None
            if isinstance(record, dict) and record.get("seed") in resumed.undecided and record.get("kind") != "header":
                continue
            dst.write(raw)
    return resumed



def count_records(results: Path | None) -> int:
    if results is None or not results.exists():
        return 0
    with open(results, "rb") as fh:
        return sum(1 for raw in fh if raw.strip() and b'"kind": "header"' not in raw)


# -- seed order ---------------------------------------------------------------------------------
SORT_CHUNK = 32 << 20  # bytes of records sorted in memory at a time
SORT_FAN = 64  # sorted runs merged at a time (one read buffer each)
_BLOCK = 1 << 16


def _seed_key(line: bytes) -> int:
    return int(line[:line.index(b" ")])


def _run_lines(fd: int, start: int, end: int) -> Iterator[bytes]:
    """The lines of bytes ``start:end`` of a spill file, read in blocks (``os.pread``: every run of
    one spill file reads at its own place)."""
    pos, rest = start, b""
    while pos < end:
        block = os.pread(fd, min(_BLOCK, end - pos), pos)
        if not block:
            break
        pos += len(block)
        *lines, rest = (rest + block).split(b"\n")
        for line in lines:
            yield line + b"\n"
    if rest:
        yield rest


def _spill(fh: IO[bytes], lines: Iterable[bytes]) -> tuple[int, int]:
    start = fh.tell()
    fh.writelines(lines)
    return start, fh.tell()


def sort_results(path: Path) -> None:
    """Rewrite ``path`` atomically as its header line then its records in rising seed order: the
    bytes one uninterrupted run writes. The caller holds the file's lock (and has validated it:
    each record has its whole-number seed, once).

    Memory stays bounded whatever the file's size: an external merge sort. Records are read
    :data:`SORT_CHUNK` bytes at a time and each chunk sorted in memory; a file of one chunk is
    written out at once, else each sorted chunk goes to an unnamed spill file beside ``path``
    (each line prefixed with its seed, so it is parsed once), and the sorted runs are merged
    :data:`SORT_FAN` at a time (``heapq.merge``, one read buffer per run) until one pass writes the
    result. Disk: up to three times the file's size for the moment (spill, its merge, the result)."""
    from tubedeck.atomic import atomic_open

    header = b""
    runs: list[tuple[int, int]] = []
    with contextlib.ExitStack() as stack:
        spill: IO[bytes] | None = None
        chunk: list[tuple[int, bytes]] = []
        size = 0

        def flush() -> None:
            nonlocal spill, size
            if spill is None:
                spill = stack.enter_context(tempfile.TemporaryFile(dir=path.parent))
            chunk.sort(key=lambda t: t[0])
            runs.append(_spill(spill, (b"%d %s" % (seed, raw) for seed, raw in chunk)))
            chunk.clear()
            size = 0

        with open(path, "rb") as src:
            for raw in src:
                if not raw.strip():
                    continue
                raw = raw if raw.endswith(b"\n") else raw + b"\n"
                record = json.loads(raw)
                if record.get("kind") == "header":
                    header = raw
                    continue
                chunk.append((record["seed"], raw))
                size += len(raw)
                if size >= SORT_CHUNK:
                    flush()
        if spill is None:  # one chunk: sorted in memory
            chunk.sort(key=lambda t: t[0])
            with atomic_open(path, "wb") as dst:
                dst.write(header)
                dst.writelines(raw for _, raw in chunk)
            return
        if chunk:
            flush()
        while len(runs) > SORT_FAN:  # merge passes: SORT_FAN runs into one, until few are left
            assert spill is not None
            spill.flush()
            merged = stack.enter_context(tempfile.TemporaryFile(dir=path.parent))
            fd = spill.fileno()
            runs = [_spill(merged, heapq.merge(*(_run_lines(fd, a, b) for a, b in runs[i:i + SORT_FAN]),
                                               key=_seed_key))
                    for i in range(0, len(runs), SORT_FAN)]
            spill.close()
            spill = merged
        assert spill is not None
        spill.flush()
        fd = spill.fileno()
        with atomic_open(path, "wb") as dst:
            dst.write(header)
            for line in heapq.merge(*(_run_lines(fd, a, b) for a, b in runs), key=_seed_key):
                dst.write(line[line.index(b" ") + 1:])
