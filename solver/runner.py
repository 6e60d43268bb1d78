"""Run a deal check over many seeds: in parallel, with a progress bar, resumable, interruptible.

Every game's ``tubedeck check GAME`` goes through :func:`run_deals`. Results are appended to a
JSON Lines file as they are computed (one ``{"seed": ..}`` object per line, after one header line
recording the parameters), so an interrupted run resumes where it stopped and nothing is lost.

The promises, and where they are kept:

* **Never a wrong answer stored.** CP-SAT never takes SIGINT (``catch_sigint_signal`` off, see
  :mod:`tubedeck.solver.cpsat`): a solve is stopped only by our own interrupt, which then stores nothing
  for that seed. Each record is written with SIGINT and SIGTERM blocked, so a line is whole or
  absent. Worker processes ignore SIGINT; the parent stops them.
* **Interrupts.** Ctrl-C or SIGTERM ends the run within a second with :class:`Interrupted`
  (the CLI prints how many deals are stored and exits 130 / 143).
* **Safe files.** An existing results file is only ever appended to (or, with
  ``retry_unknown``, rewritten atomically without its undecided records); it is locked for the
  run, so two checks cannot interleave; it must be a regular file; every line is validated on
  resume (JSON object, integer seed, no duplicate seed, a seed this run can have, the game's own
  schema), and a bad one is refused with the file and line (exit 2). A header that disagrees with
  the run is refused too.
* **Seed order.** A run that completes (every seed of its range stored) leaves its file in seed
  order, the bytes one run writes: when it filled gaps (a partial merge, ``--retry-unknown``, an
  edited file) it rewrites the file sorted, atomically, still holding the lock
  (:func:`tubedeck.solver.results.sort_results`). A run stopped early leaves what it appended; the next
  complete one orders it.
* **Bounded.** Seeds stream (a ``range`` is never listed); memory stays flat however many run.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Generator, Iterable, Iterator, Protocol, Sized

from tubedeck.errors import UsageError
from tubedeck.signals import Terminated, exit_code  # noqa: F401 (re-exported: the CLI's signal contract)
from tubedeck.words import plural

from .results import (  # noqa: F401 (re-exported: the results file is part of the runner's promise)
    Resumed,
    Validator,
    check_results_path,
    count_records,
    drop_undecided,
    open_locked,
    read_results,
    signals_blocked,
    sort_results,
    write_line,
)

Evaluator = Callable[[int], dict]
MAX_WORKERS = 256


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




class TimeUp(Exception):
    """The whole command's ``--time-limit`` passed before the last seed: the deals in progress
    were stopped as Ctrl-C stops them (nothing of theirs stored). ``summary`` folds the records
    done; ``done`` of ``total`` seeds (None: a stream of unknown length)."""

    def __init__(self, summary: Summary | None, done: int, total: int | None, results: Path | None):
        self.summary, self.done, self.total, self.results = summary, done, total, results
        where = f"{plural(count_records(results), 'record')} stored in {results}; " if results else ""
        seeds = f"{done} of {plural(total, 'seed')}" if total is not None else plural(done, "seed")
        super().__init__(f"time limit reached after {seeds}: {where}resume with the same command")


class _Deadline(KeyboardInterrupt):
    """Raised in the main thread when the ``--time-limit`` passes (a SIGALRM timer, or the loop
    before it starts a seed): it stops a solve, the pool and a cluster exactly as Ctrl-C does."""


RING_AGAIN = 1.0  # s: the timer rings again until the deadline is caught (see _alarm)


@contextlib.contextmanager
def _alarm(deadline: float | None) -> Iterator[None]:
    """Raise :class:`_Deadline` in the main thread at ``deadline`` (``time.perf_counter``), and
    again every :data:`RING_AGAIN` seconds until :func:`_caught` stops it: a handler's exception
    raised inside a garbage-collector callback is dropped by CPython ("Exception ignored"; the
    suite's first run met it), and a one-shot timer would then leave a long deal running."""
    if deadline is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise _Deadline()

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.perf_counter(), 1e-3), RING_AGAIN)
    try:
        yield
    finally:
        _caught()
        signal.signal(signal.SIGALRM, old)


def _caught() -> None:
    """The deadline is being acted on: ring no more (cleanup is not interrupted again)."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (``code`` 130) or SIGTERM (143); ``stored`` records are safe."""

    def __init__(self, stored: int, results: Path | None, code: int = 130):
        self.stored, self.results, self.code = stored, results, code
        where = f" in {results}" if results else ""
        super().__init__(f"interrupted: {plural(stored, 'record')} stored{where}; resume with the same command")


def default_results(check: DealCheck, seed: int, shard: tuple[int, int] | None = None) -> Path:
    """``output/checks/<game and parameters>-s<first seed>[-shardKofN].jsonl``."""
    part = f"-shard{shard[0]}of{shard[1]}" if shard else ""
    return Path("output") / "checks" / f"{check.results_name}-s{seed}{part}.jsonl"


def run_check(check: DealCheck, seeds: Iterable[int], results: Path | None, workers: int = 1,
              progress: bool = True, retry_unknown: bool = False, runner=None,
              shard: tuple[int, int] | None = None, inputs: dict | None = None,
              deadline: float | None = None) -> Summary:
    """Run ``check`` over ``seeds`` (resuming ``results``) and fold every record into its summary.
    ``runner``: a :class:`tubedeck.solver.distributed.Runner` (None: local processes); ``shard`` (k, n)
    is recorded in the header of a shard's file (``tubedeck merge`` joins the shards).
    ``deadline`` (``time.perf_counter``, the command's ``--time-limit``): past it the run stops
    with :class:`TimeUp`, which carries the summary of the seeds done."""
    summary = check.summary()
    from .merge import shard_facts

    # A shard's header says which shard and which seeds the whole run had, so merge names what is missing.
    # ``inputs``: what the input files hold (digests) and their resolved paths, so a resume with
    # other inputs is refused naming them (see tubedeck.cli.run.input_facts).
    header = check.header() | (inputs or {}) | (shard_facts(shard, seeds) if shard and isinstance(seeds, range)
                               else {"shard": f"{shard[0]}/{shard[1]}"} if shard else {})
    done = 0
    total = len(seeds) if isinstance(seeds, Sized) else None
    try:
        with _alarm(deadline):
            for record in run_deals(check, seeds, header, results, workers, progress, check.label,
                                    validate=check.validate, decided=check.decided if retry_unknown else None,
                                    runner=runner, deadline=deadline):
                summary.add(record)
                done += 1
    except TimeUp as exc:
        raise TimeUp(summary, done, total, exc.results) from None
    except _Deadline:  # arrived while the summary was folding a record
        _caught()
        raise TimeUp(summary, done, total, results) from None
    except Interrupted:
        raise
    except KeyboardInterrupt as exc:  # arrived while the summary was folding a record
        raise Interrupted(count_records(results), results, exit_code(exc)) from None
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
    runner=None,
    deadline: float | None = None,
) -> Iterator[dict]:
    """Yield one result dict per seed, in seed order; resume from and append to ``results``.

    ``factory`` is a picklable callable run once per worker process that returns the evaluator
    (so expensive structure, such as a game's edition or a solver's model skeleton, is built once).
    ``seeds`` may be a ``range`` of any length: it is iterated, never listed. With ``decided``,
    stored records it calls undecided are recomputed (``--retry-unknown``). Past ``deadline``
    (``time.perf_counter``) no seed is started and the seeds in progress are stopped (with the
    caller's :func:`_alarm`): :class:`TimeUp`.
    """
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be 1-{MAX_WORKERS}, got {workers}")
    assert "kind" not in header, "'kind' marks the header line itself; name the key otherwise"
    out = None
    cluster = contextlib.ExitStack()
    try:
        if runner is not None and runner.kind == "dask":  # the cluster answers before the file is touched
            from .distributed import dask_executor

            if results is not None:
                check_results_path(results)
            runner = cluster.enter_context(dask_executor(workers, runner.scheduler, runner.worker_wait))
        if results is not None:
            out = open_locked(results)
        resumed = read_results(results, header, validate, decided, seeds) if results else Resumed({}, None)
        if results is not None and resumed.undecided:
            assert out is not None  # opened above: results is given
            drop_undecided(results, resumed)  # with the lock held: no other run slips in
            held, out = out, open_locked(results)  # the new file (the old one's lock is on another file)
            held.close()
            resumed = read_results(results, header, validate)  # (its seeds were checked above)
        if out is not None and resumed.header is None:
            write_line(out, json.dumps({"kind": "header", **header}, sort_keys=True) + "\n", kept=len(resumed.done))
        total = len(seeds) if isinstance(seeds, Sized) else None
        in_order = yield from _run(factory, seeds, total, resumed, out, workers, progress, label, runner, deadline)
        if out is not None and not in_order:  # complete, but gaps were filled: the file one run writes
            assert results is not None
            with _alarm_held():
                sort_results(results)  # still holding the lock (see open_locked)
    except _Deadline:
        _caught()
        cluster.__exit__(*sys.exc_info())
        raise TimeUp(None, 0, None, results) from None
    except Interrupted:
        cluster.__exit__(*sys.exc_info())  # told of the interrupt, a cluster closes at once
        raise
    except KeyboardInterrupt as exc:
        cluster.__exit__(*sys.exc_info())
        raise Interrupted(count_records(results), results, exit_code(exc)) from None
    finally:
        if out is not None:
            out.close()
        cluster.close()


@contextlib.contextmanager
def _alarm_held() -> Iterator[None]:
    """Stop the ``--time-limit``'s timer while a complete run puts its file in order: every seed
    is stored, so a limit passing now changes nothing. (The timer is stopped, not its signal
    blocked: a process-directed SIGALRM would reach a helper thread that does not block it.)
    What is left of it, if anything, is set again after. Ctrl-C and SIGTERM still stop the sort:
    the file is left as appended, and the next complete run orders it."""
    if not hasattr(signal, "setitimer"):  # pragma: no cover
        yield
        return
    left, again = signal.setitimer(signal.ITIMER_REAL, 0)
    start = time.perf_counter()
    try:
        yield
    finally:
        rest = left - (time.perf_counter() - start)
        if left > 0 and rest > 0:  # (past it: every seed is stored, nothing is left to stop)
            signal.setitimer(signal.ITIMER_REAL, rest, again)


def _pool(workers: int, factory: Callable[[], Evaluator]):
    """A worker pool whose helper threads and workers start with SIGINT/SIGTERM blocked, so a
    signal sent to the process always reaches the main thread (a signal landing on a helper
    thread would leave the main thread asleep in its wait: the hang Ctrl-C used to cause)."""
    with signals_blocked():
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


def _run(factory, seeds, total, resumed: Resumed, out, workers, progress, label, runner=None,
         deadline: float | None = None) -> Generator[dict, None, bool]:
    """Yield every seed's record; return whether the file's records stand in seed order. Progress
    (:mod:`tubedeck.progress`, through the command's own when one is open): nothing for 2 s, then a
    live line on a terminal, a line every 10 s otherwise, with a ticker while one long deal runs."""
    from tubedeck.progress import Progress, ticking

    todo = (s for s in seeds if s not in resumed.done)
    shown = Progress(label, total) if progress else None
    pool = None
    in_order, top = resumed.ordered, resumed.top
    stored = len(resumed.done)  # the records the results file holds (for a full disk's message)
    try:
        pending = None
        if total is not None:
            members = seeds if isinstance(seeds, range) else set(seeds)
            pending = total - sum(1 for s in resumed.done if s in members)
        if runner is not None:  # an executor on the Dask cluster run_deals connected
            from .distributed import ordered

            executor = runner
            # Larger chunks than the local pool's: a cluster task costs about a millisecond to schedule.
            chunk = max(1, min(1000, (pending or 100 * BATCH) // (workers * 8) or 1))
            computed = ordered(executor, factory, _batches(todo, chunk), window=4 * workers)
        elif workers > 1 and (pending is None or pending > 1):
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
        with shown if shown is not None else contextlib.nullcontext(), ticking(shown):
            if shown is not None and total is not None and pending is not None:
                shown.update(done=total - pending)
            fresh = iter(computed)
            computed_now = 0
            for seed in seeds:
                if seed in resumed.done:
                    yield resumed.record(seed)
                    continue
                if deadline is not None and time.perf_counter() >= deadline:
                    raise _Deadline()
                record = next(fresh)
                record = {"seed": seed, **{k: v for k, v in record.items() if k != "seed"}}
                if out is not None:
                    write_line(out, json.dumps(record, sort_keys=True) + "\n", kept=stored)
                    stored += 1
                    in_order, top = in_order and seed > top, max(top, seed)
                if shown is not None:
                    computed_now += 1
                    shown.update(advance=1, left=time_left(computed_now, pending, shown.elapsed()))
                yield record
        return in_order
    finally:
        if isinstance(sys.exc_info()[1], _Deadline):
            _caught()  # (before the pool's cleanup: a second ring would cut its join short)
        if pool is not None:
            pool.terminate()
            pool.join()


def time_left(done: int, todo: int | None, elapsed: float) -> str | None:
    """About how long the ``todo - done`` deals left take at this run's pace so far, in words
    (None without a count or a pace)."""
    if todo is None or done <= 0 or elapsed <= 0:
        return None
    return f"about {_duration((todo - done) * elapsed / done)}"


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"
