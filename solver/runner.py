"""Run a deal check over many seeds: in parallel, with a progress bar, resumable, interruptible.

Every game's ``tubedeck check GAME`` goes through :func:`run_deals`. Results are appended to a
JSON Lines file as they are computed (one ``{"seed": ..}`` object per line, after one header line
recording the parameters), so an interrupted run resumes where it stopped and nothing is lost.

The promises, and where they are kept:

* **Never a wrong answer stored.** CP-SAT never takes SIGINT (``catch_sigint_signal`` off, see
  :mod:`solver.cpsat`): a solve is stopped only by our own interrupt, which then stores nothing
  for that seed. Each record is written with SIGINT and SIGTERM blocked, so a line is whole or
  absent. Worker processes ignore SIGINT; the parent stops them.
* **Interrupts.** Ctrl-C or SIGTERM ends the run within a second with :class:`Interrupted`
  (the CLI prints how many deals are stored and exits 130 / 143).
* **Safe files.** An existing results file is only ever appended to (or, with
  ``retry_unknown``, rewritten atomically without its undecided records); it is locked for the
  run, so two checks cannot interleave; it must be a regular file; every line is validated on
  resume (JSON object, integer seed, no duplicate seed, the game's own schema), and a bad one is
  refused with the file and line (exit 2). A header that disagrees with the run is refused too.
* **Bounded.** Seeds stream (a ``range`` is never listed); memory stays flat however many run.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import os
import signal
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from tubedeck.errors import UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

Evaluator = Callable[[int], dict]
Validator = Callable[[dict], "str | None"]
MAX_WORKERS = 256
MAX_LINE = 1 << 20  # a results line longer than 1 MiB is not one of ours


class Summary(Protocol):
    """Figures folded over streamed records (memory stays flat)."""

    def add(self, record: dict) -> None: ...
    def as_dict(self) -> dict: ...
    def describe(self) -> list[str]: ...
    def failures(self) -> str | None: ...


class DealCheck(Protocol):
    """What a game's ``"deals"`` check returns (see :mod:`tubedeck.game`): a picklable factory
    of the per-seed evaluator, run once per worker process, plus what the runner records.

    ``validate(record)`` says what is wrong with a stored record (``None``: fine), so a resumed
    run never counts an edited or foreign line; ``decided(record)`` is False for a record whose
    solver status was cut short by the time limit (UNKNOWN), which ``--retry-unknown`` recomputes."""

    def __call__(self) -> Evaluator: ...
    def header(self) -> dict: ...
    def summary(self) -> Summary: ...
    def validate(self, record: dict) -> str | None: ...
    def decided(self, record: dict) -> bool: ...
    @property
    def results_name(self) -> str: ...
    @property
    def label(self) -> str: ...


STATUSES = ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN", "MODEL_INVALID")  # CP-SAT's, as stored


def whole(value, lo: int, hi: int | None = None) -> bool:
    """A whole number (not a bool) in ``lo..hi``: for validating stored records."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= lo and (hi is None or value <= hi)


def percentile(counter, q: float) -> int | None:
    """The ``q`` quantile (0-1) of a value -> count histogram."""
    total = sum(counter.values())
    if not total:
        return None
    seen = 0
    for value in sorted(counter):
        seen += counter[value]
        if seen >= q * total:
            return value
    return max(counter)


def exit_code(exc: BaseException) -> int:
    """130 for Ctrl-C, 143 for SIGTERM (:class:`Terminated`), or the code an exception carries."""
    return getattr(exc, "code", None) or (143 if isinstance(exc, Terminated) else 130)


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (``code`` 130) or SIGTERM (143); ``stored`` records are safe."""

    def __init__(self, stored: int, results: Path | None, code: int = 130):
        self.stored, self.results, self.code = stored, results, code
        where = f" in {results}" if results else ""
        super().__init__(f"interrupted: {stored} deals stored{where}; resume with the same command")


class Terminated(KeyboardInterrupt):
    """Raised in the main thread by the SIGTERM handler the CLI installs."""


def default_results(check: DealCheck, seed: int) -> Path:
    """``output/checks/<game and parameters>-s<first seed>.jsonl``."""
    return Path("output") / "checks" / f"{check.results_name}-s{seed}.jsonl"


def run_check(check: DealCheck, seeds: Iterable[int], results: Path | None, workers: int = 1,
              progress: bool = True, retry_unknown: bool = False) -> Summary:
    """Run ``check`` over ``seeds`` (resuming ``results``) and fold every record into its summary."""
    summary = check.summary()
    try:
        for record in run_deals(check, seeds, check.header(), results, workers, progress, check.label,
                                validate=check.validate, decided=check.decided if retry_unknown else None):
            summary.add(record)
    except Interrupted:
        raise
    except KeyboardInterrupt as exc:  # arrived while the summary was folding a record
        raise Interrupted(_count(results), results, exit_code(exc)) from None
    return summary


# -- workers ----------------------------------------------------------------------------------
_EVALUATOR: Evaluator | None = None


def _init_worker(factory: Callable[[], Evaluator]) -> None:
    # The parent owns interrupts: a worker ignores Ctrl-C (sent to the whole process group) and
    # dies quietly on the SIGTERM the parent's pool.terminate() sends. It was forked with both
    # signals blocked (see _pool), so one sent before this point waits, then meets these handlers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    global _EVALUATOR
    _EVALUATOR = factory()


def _evaluate(seeds: list[int]) -> list[dict]:
    assert _EVALUATOR is not None
    return [_EVALUATOR(seed) for seed in seeds]


# -- reading a results file -------------------------------------------------------------------
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
                    diff = sorted(k for k in set(theirs) | set(header) if theirs.get(k) != header.get(k))
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
    """Hold SIGINT/SIGTERM while a record is written, so a line is whole or absent."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
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


def run_deals(
    factory: Callable[[], Evaluator],
    seeds: Iterable[int],
    header: dict[str, Any],
    results: Path | None = None,
    workers: int = 1,
    progress: bool = True,
    label: str = "deals",
    validate: Validator | None = None,
    decided: Callable[[dict], bool] | None = None,
) -> Iterator[dict]:
    """Yield one result dict per seed, in seed order; resume from and append to ``results``.

    ``factory`` is a picklable callable run once per worker process that returns the evaluator
    (so expensive structure, such as a game's edition or a solver's model skeleton, is built once).
    ``seeds`` may be a ``range`` of any length: it is iterated, never listed. With ``decided``,
    stored records it calls undecided are recomputed (``--retry-unknown``).
    """
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be 1-{MAX_WORKERS}, got {workers}")
    assert "kind" not in header, "'kind' marks the header line itself; name the key otherwise"
    out = None
    try:
        if results is not None:
            out = _open_locked(results)
        resumed = read_results(results, header, validate, decided) if results else Resumed({}, None)
        if results is not None and resumed.undecided:
            out.close()
            _drop_undecided(results, resumed)
            out = _open_locked(results)
            resumed = read_results(results, header, validate)
        if out is not None and resumed.header is None:
            _write(out, json.dumps({"kind": "header", **header}, sort_keys=True) + "\n")
        total = len(seeds) if hasattr(seeds, "__len__") else None
        yield from _run(factory, seeds, total, resumed, out, workers, progress, label)
    except Interrupted:
        raise
    except KeyboardInterrupt as exc:
        raise Interrupted(_count(results), results, exit_code(exc)) from None
    finally:
        if out is not None:
            out.close()


def _count(results: Path | None) -> int:
    if results is None or not results.exists():
        return 0
    with open(results, "rb") as fh:
        return sum(1 for raw in fh if raw.strip() and b'"kind": "header"' not in raw)


def _pool(workers: int, factory: Callable[[], Evaluator]):
    """A worker pool whose helper threads and workers start with SIGINT/SIGTERM blocked, so a
    signal sent to the process always reaches the main thread (a signal landing on a helper
    thread would leave the main thread asleep in its wait: the hang Ctrl-C used to cause)."""
    with _signals_blocked():
        return mp.get_context("fork" if os.name == "posix" else "spawn").Pool(
            workers, initializer=_init_worker, initargs=(factory,))


def _waiting(results) -> Iterator[dict]:
    """Iterate pool results, waking every 100 ms so a pending signal is always acted on."""
    while True:
        try:
            yield results.next(timeout=0.1)
        except mp.TimeoutError:
            continue
        except StopIteration:
            return


BATCH = 4096  # seeds handed to the pool at a time: the pool would otherwise queue every seed at once


def _batches(items: Iterable[int], size: int) -> Iterator[list[int]]:
    batch: list[int] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _run(factory, seeds, total, resumed: Resumed, out, workers, progress, label) -> Iterator[dict]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    todo = (s for s in seeds if s not in resumed.done)
    bar = Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   disable=not progress, transient=True)
    pool = None
    try:
        pending = None
        if total is not None:
            members = seeds if isinstance(seeds, range) else set(seeds)
            pending = total - sum(1 for s in resumed.done if s in members)
        if workers > 1 and (pending is None or pending > 1):
            pool = _pool(workers, factory)
            chunk = max(1, min(64, min(pending or BATCH, BATCH) // (workers * 8) or 1))
            # Our own chunks, one pool task each, so the result iterator is the pool's own
            # (with a timeout) and not the generator Pool.imap returns for chunksize > 1.
            computed = (r for batch in _batches(todo, BATCH)
                        for chunk_out in _waiting(pool.imap(_evaluate, list(_batches(batch, chunk))))
                        for r in chunk_out)
        else:
            evaluator = factory()
            computed = map(evaluator, todo)
        with bar:
            task = bar.add_task(label, total=total, completed=(total - pending) if total is not None else 0)
            fresh = iter(computed)
            for seed in seeds:
                if seed in resumed.done:
                    yield resumed.record(seed)
                    continue
                record = next(fresh)
                record = {"seed": seed, **{k: v for k, v in record.items() if k != "seed"}}
                if out is not None:
                    _write(out, json.dumps(record, sort_keys=True) + "\n")
                bar.advance(task)
                yield record
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
