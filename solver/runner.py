"""Run a deal check over many seeds: in parallel, with a progress bar, resumable.

Every game's ``tubedeck check GAME`` goes through :func:`run_deals`. Results are appended to a
JSON Lines file as they are computed (one ``{"seed": ..}`` object per line, after one header line
recording the parameters), so an interrupted run resumes where it stopped and nothing is lost.
An existing results file is only ever appended to: never truncated, never overwritten. A file
whose header disagrees with the run's parameters, or a line that is not a result, is refused
with a message naming the file and line (exit 2).

Results stream out of :func:`run_deals` in seed order, so a summary can be folded on the fly and
memory stays flat however many deals run.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from tubedeck.errors import UsageError

Evaluator = Callable[[int], dict]


class Summary(Protocol):
    """Figures folded over streamed records (memory stays flat)."""

    def add(self, record: dict) -> None: ...
    def as_dict(self) -> dict: ...
    def describe(self) -> list[str]: ...
    def failures(self) -> str | None: ...


class DealCheck(Protocol):
    """What a game's ``"deals"`` check returns (see :mod:`tubedeck.game`): a picklable factory
    of the per-seed evaluator, run once per worker process, plus what the runner records."""

    def __call__(self) -> Evaluator: ...
    def header(self) -> dict: ...
    def summary(self) -> Summary: ...
    @property
    def results_name(self) -> str: ...
    @property
    def label(self) -> str: ...


def default_results(check: DealCheck, seed: int) -> Path:
    """``output/checks/<game and parameters>-s<first seed>.jsonl``."""
    return Path("output") / "checks" / f"{check.results_name}-s{seed}.jsonl"


def run_check(check: DealCheck, seeds: list[int], results: Path | None, workers: int = 1,
              progress: bool = True) -> Summary:
    """Run ``check`` over ``seeds`` (resuming ``results``) and fold every record into its summary."""
    summary = check.summary()
    for record in run_deals(check, seeds, check.header(), results, workers, progress, check.label):
        summary.add(record)
    return summary

_EVALUATOR: Evaluator | None = None


def _init_worker(factory: Callable[[], Evaluator]) -> None:
    global _EVALUATOR
    _EVALUATOR = factory()


def _evaluate(seed: int) -> dict:
    assert _EVALUATOR is not None
    return _EVALUATOR(seed)


@dataclass(frozen=True)
class Resumed:
    """What an existing results file already holds: each seed's byte offset (not the record, so
    resuming a 100,000-deal file stays memory-flat; records are read back one at a time)."""

    done: dict[int, int]
    header: dict | None
    path: Path | None = None

    def record(self, seed: int) -> dict:
        assert self.path is not None
        with open(self.path, "rb") as fh:
            fh.seek(self.done[seed])
            return json.loads(fh.readline())


def _corrupt(path: Path, number: int, why: str) -> UsageError:
    return UsageError(f"{path}:{number}: corrupt results file ({why}); move it away or pass another --results path")


def read_results(path: Path, header: dict) -> Resumed:
    """Scan a results file for resuming, line by line; UsageError on corruption or a parameter mismatch."""
    if not path.exists():
        return Resumed({}, None)
    done: dict[int, int] = {}
    found_header = None
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    with fh:
        offset, number = 0, 0
        for raw in fh:
            number += 1
            here, offset = offset, offset + len(raw)
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
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
                found_header = record
                theirs = {k: v for k, v in record.items() if k != "kind"}
                if theirs != header:
                    diff = sorted(k for k in set(theirs) | set(header) if theirs.get(k) != header.get(k))
                    raise UsageError(f"{path}:{number}: results were made with other parameters ({', '.join(diff)}); "
                                     "pass another --results path to start a new run")
                continue
            seed = record.get("seed")
            if not isinstance(seed, int):
                raise _corrupt(path, number, "a result has no integer 'seed'")
            if not raw.endswith(b"\n"):
                raise UsageError(f"{path}:{number}: corrupt results file: the last line is incomplete")
            done[seed] = here
    if done and found_header is None:
        raise UsageError(f"{path}: corrupt results file (no header line)")
    return Resumed(done, found_header, path)


def run_deals(
    factory: Callable[[], Evaluator],
    seeds: list[int],
    header: dict[str, Any],
    results: Path | None = None,
    workers: int = 1,
    progress: bool = True,
    label: str = "deals",
) -> Iterator[dict]:
    """Yield one result dict per seed, in seed order; resume from and append to ``results``.

    ``factory`` is a picklable callable run once per worker process that returns the evaluator
    (so expensive structure, such as a game's network or a solver's model skeleton, is built once).
    """
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    resumed = read_results(results, header) if results else Resumed({}, None)
    todo = [s for s in seeds if s not in resumed.done]
    out = None
    if results is not None:
        try:
            results.parent.mkdir(parents=True, exist_ok=True)
            out = open(results, "a", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write results file {results}: {exc.strerror or exc}") from None
        if resumed.header is None:
            out.write(json.dumps({"kind": "header", **header}, sort_keys=True) + "\n")
            out.flush()
    bar = Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   disable=not progress, transient=True)
    pool = None
    try:
        if workers > 1 and len(todo) > 1:
            pool = mp.get_context("fork" if os.name == "posix" else "spawn").Pool(
                workers, initializer=_init_worker, initargs=(factory,))
            computed = pool.imap(_evaluate, todo, chunksize=max(1, min(64, len(todo) // (workers * 8) or 1)))
        else:
            evaluator = factory()
            computed = map(evaluator, todo)
        with bar:
            task = bar.add_task(label, total=len(seeds), completed=len(seeds) - len(todo))
            fresh = iter(zip(todo, computed))
            for seed in seeds:
                if seed in resumed.done:
                    yield resumed.record(seed)
                    continue
                got_seed, record = next(fresh)
                record = {"seed": got_seed, **{k: v for k, v in record.items() if k != "seed"}}
                if out is not None:
                    out.write(json.dumps(record, sort_keys=True) + "\n")
                    out.flush()
                bar.advance(task)
                yield record
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if out is not None:
            out.close()
