"""Runs on an executor: a Dask cluster (local or at a scheduler address) behind the runner.

The runner (:mod:`solver.runner`) hands seeds in chunks to any :class:`concurrent.futures.Executor`
and writes the records back in seed order, so the results file is byte-identical whatever ran
them: one process, a local pool, or a cluster. Dask's ``Client.get_executor()`` is such an
executor; a worker that dies loses only the chunks it held, which the scheduler gives to another
worker. Each worker builds a check's evaluator once (keyed by the pickled check) and keeps it.

Dask is an optional extra (``make install-cluster`` in a source tree); without it ``--runner dask``
says how to install it for the way tubedeck was installed (exit 2: :mod:`tubedeck.install`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import pickle
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from tubedeck.errors import UsageError

RUNNERS = ("local", "dask")


@dataclass(frozen=True)
class Runner:
    """Where seeds run: ``local`` (processes of this machine) or ``dask`` (a local cluster of
    ``workers`` processes, or the cluster at ``scheduler``)."""

    kind: str = "local"
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in RUNNERS:
            raise UsageError(f"--runner must be one of {', '.join(RUNNERS)}, got {self.kind!r}")
        if self.scheduler and self.kind != "dask":
            raise UsageError("--scheduler needs --runner dask")


@contextlib.contextmanager
def dask_executor(workers: int, scheduler: str | None = None) -> Iterator[cf.Executor]:
    """A concurrent.futures executor on a Dask cluster (a LocalCluster of ``workers`` single-threaded
    processes when no ``scheduler`` address is given)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        from tubedeck.install import install_advice

        raise UsageError(f"--runner dask needs Dask: {install_advice('cluster')}") from None
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)  # the progress bar speaks, not the cluster
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"--scheduler {scheduler}: cannot reach a Dask scheduler ({exc})") from None
        with client:
            yield client.get_executor(pure=False)
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client.get_executor(pure=False)


_EVALUATORS: dict[bytes, Callable[[int], dict]] = {}


def evaluate_chunk(factory: Callable, seeds: list[int]) -> list[dict]:
    """Run on a worker: the check's evaluator (built once per worker and check) over ``seeds``."""
    key = pickle.dumps(factory)
    evaluator = _EVALUATORS.get(key)
    if evaluator is None:
        if len(_EVALUATORS) > 8:
            _EVALUATORS.clear()
        evaluator = _EVALUATORS[key] = factory()
    return [evaluator(seed) for seed in seeds]


def ordered(executor: cf.Executor, factory: Callable, chunks: Iterable[list[int]], window: int) -> Iterator[dict]:
    """Submit chunks with at most ``window`` in flight and yield their records in order; waits
    wake every 100 ms so a signal in the main thread is acted on at once."""
    inflight: deque = deque()

    def drain_one() -> list[dict]:
        fut = inflight.popleft()
        while True:
            try:
                return fut.result(timeout=0.1)
            except cf.TimeoutError:
                continue

    try:
        for chunk in chunks:
            inflight.append(executor.submit(evaluate_chunk, factory, chunk))
            if len(inflight) >= window:
                yield from drain_one()
        while inflight:
            yield from drain_one()
    finally:
        for fut in inflight:
            fut.cancel()
