"""Runs on an executor: a Dask cluster (local or at a scheduler address) behind the runner.

The runner (:mod:`tubedeck.solver.runner`) hands seeds in chunks to any :class:`concurrent.futures.Executor`
and writes the records back in seed order, so the results file is byte-identical whatever ran
them: one process, a local pool, or a cluster. Dask's ``Client.get_executor()`` is such an
executor; a worker that dies loses only the chunks it held, which the scheduler gives to another
worker. Each worker builds a check's evaluator once (keyed by the pickled check) and keeps it.

Dask is an optional extra (``make install-cluster`` in a source tree); without it ``--runner dask``
says how to install it for the way tubedeck was installed (exit 2: :mod:`tubedeck.install`).

Failures are stated, never a traceback or a hang (exit 2): ``--scheduler`` is ``[tcp://]HOST[:PORT]``
(``tls://``, ``ucx://`` and the rest are refused by name, an empty one too); before Dask's own
client connects, a plain socket connects within :data:`CONNECT_TIMEOUT` and waits
:data:`GREETING_TIMEOUT` for the scheduler's greeting, at most :data:`MAX_GREETING` bytes read
(a server that speaks first with a banner, or waits for a request, as HTTP does, is named as not
a Dask scheduler); a scheduler with no workers is waited on for :data:`WORKER_WAIT` with a line
to stderr every 10 s. A local cluster's ``--workers`` is bounded by the memory available
(:data:`WORKER_MEMORY` each), its worker processes never see Ctrl-C (no tracebacks from them),
and an interrupted run closes the cluster within about a second.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import pickle
import signal
import socket
import struct
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from tubedeck.errors import UsageError

from .memory import available_memory

RUNNERS = ("local", "dask")
DEFAULT_PORT = 8786  # dask scheduler's
CONNECT_TIMEOUT = 10.0  # s: a TCP connection to the scheduler (and Dask's client after it)
GREETING_TIMEOUT = 5.0  # s: a Dask scheduler greets a new connection at once; other servers wait or talk
MAX_GREETING = 1 << 16  # bytes: a scheduler's greeting is under 100; never read (or allocate) more
WORKER_WAIT = 60.0  # s: how long a run waits for the first worker to join a scheduler
WORKER_MEMORY = 110 * 2**20  # bytes: what one local Dask worker process takes, about
CLOSE_TIMEOUT = 0.5  # s: an interrupted local cluster's graceful close, before its processes are killed
STARTUP_STOP = 30.0  # s: at most, an interrupted local cluster's start is waited on before it is killed
SCHEMES = {"tls": "needs certificates, which tubedeck does not pass to Dask; on a trusted network use "
                  "tcp://, or tunnel tcp:// over SSH",
           "ucx": "needs UCX networking (ucx-py), which tubedeck does not support; use tcp://",
           "inproc": "is this process's own, for Dask's tests; use tcp://",
           "ws": "is not supported; use tcp://", "wss": "is not supported; use tcp://"}


@dataclass(frozen=True)
class Runner:
    """Where seeds run: ``local`` (processes of this machine) or ``dask`` (a local cluster of
    ``workers`` processes, or the cluster at ``scheduler``)."""

    kind: str = "local"
    scheduler: str | None = None
    worker_wait: float = WORKER_WAIT  # s to wait for a scheduler's first worker

    def __post_init__(self) -> None:
        if self.kind not in RUNNERS:
            raise UsageError(f"--runner must be one of {', '.join(RUNNERS)}, got {self.kind!r}")
        if self.scheduler is not None and self.kind != "dask":
            raise UsageError("--scheduler needs --runner dask")
        if self.scheduler is not None:
            scheduler_address(self.scheduler)  # refused now, before anything runs


def scheduler_address(text: str) -> tuple[str, str, int]:
    """``[tcp://]HOST[:PORT]`` -> (``tcp://HOST:PORT``, host, port); UsageError saying what is wrong."""
    shown = repr(text[:80]) + ("..." if len(text) > 80 else "")
    if not text.strip():
        raise UsageError("--scheduler is empty: give a Dask scheduler's address (tcp://HOST:8786), or leave "
                         "--scheduler out for a local cluster of --workers processes")
    scheme, sep, rest = text.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", text.strip()
    scheme = scheme.lower()
    if scheme != "tcp":
        why = SCHEMES.get(scheme, "is not a Dask address scheme tubedeck speaks; use tcp://")
        raise UsageError(f"--scheduler {shown}: {scheme}:// {why}")
    if rest.startswith("["):  # an IPv6 address: [::1]:8786
        host, bracket, port_text = rest[1:].partition("]")
        if not bracket or (port_text and not port_text.startswith(":")):
            raise UsageError(f"--scheduler {shown}: an IPv6 address goes in brackets: tcp://[::1]:8786")
        port_text = port_text[1:]
    else:
        host, colon, port_text = rest.rpartition(":") if ":" in rest else (rest, "", "")
        if ":" in host:
            raise UsageError(f"--scheduler {shown}: an IPv6 address goes in brackets: tcp://[::1]:8786")
    if not host or len(host) > 253 or not all(c.isalnum() or c in ".-_:" for c in host) or not host.isascii():
        raise UsageError(f"--scheduler {shown}: not HOST[:PORT] (e.g. tcp://10.0.0.5:8786)")
    if not port_text:
        port = DEFAULT_PORT
    elif port_text.isascii() and port_text.isdigit() and len(port_text) <= 5 and 1 <= int(port_text) <= 65535:
        port = int(port_text)
    else:
        raise UsageError(f"--scheduler {shown}: the port must be 1-65535")
    return f"tcp://{'[' + host + ']' if ':' in host else host}:{port}", host, port


def _recv(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def greet(address: str, connect_timeout: float = CONNECT_TIMEOUT, greeting_timeout: float = GREETING_TIMEOUT) -> None:
    """Check that a Dask scheduler answers at ``address`` before Dask's client is given it: Dask
    reads a length from the first 8 bytes and allocates it (a banner gave 2.82 EiB), and waits with
    no limit for a server that never speaks (HTTP). Reads at most :data:`MAX_GREETING` bytes."""
    _, host, port = scheduler_address(address)
    where = f"--scheduler {address}"
    try:
        sock = socket.create_connection((host, port), timeout=connect_timeout)
    except socket.gaierror:
        raise UsageError(f"{where}: unknown host {host!r}") from None
    except ConnectionRefusedError:
        raise UsageError(f"{where}: nothing listens there (connection refused); start a scheduler with "
                         "'dask scheduler', or check the address") from None
    except TimeoutError:
        raise UsageError(f"{where}: no answer within {connect_timeout:g} s (a wrong host, or a firewall?)") from None
    except OSError as exc:
        raise UsageError(f"{where}: cannot connect ({exc.strerror or exc})") from None
    with sock:
        sock.settimeout(greeting_timeout)
        try:
            head = _recv(sock, 8)
            size = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
            body = _recv(sock, size) if 16 <= size <= MAX_GREETING else b""
        except TimeoutError:
            raise UsageError(f"{where}: connected, but no Dask scheduler greeting within {greeting_timeout:g} s "
                             "(another kind of server, such as HTTP, at that port?)") from None
        except OSError as exc:
            raise UsageError(f"{where}: the connection failed ({exc.strerror or exc})") from None
        if not head:
            raise UsageError(f"{where}: the server closed the connection at once; not a Dask scheduler")
        nframes = struct.unpack("<Q", body[:8])[0] if len(body) >= 8 else 0
        if len(body) != size or not 1 <= nframes <= 16 or b"pickle-protocol" not in body:
            said = head[:40].decode("ascii", "replace").strip()
            said = "".join(c if c.isprintable() else "?" for c in said)
            raise UsageError(f"{where}: not a Dask scheduler (it answered {said!r}); the scheduler's port is "
                             f"the one 'dask scheduler' prints (default {DEFAULT_PORT})")
        with contextlib.suppress(OSError):
            sock.sendall(head + body)  # its own greeting back: a well-formed handshake, then a quiet close


def local_workers_bound(workers: int, available: int | None = None) -> None:
    """Refuse more local Dask workers than the available memory holds (about :data:`WORKER_MEMORY` each)."""
    if available is None:
        available = available_memory()
        if available is None:  # no figure: no bound beyond --workers' own
            return
    most = max(1, available // WORKER_MEMORY)
    if workers > most:
        raise UsageError(f"--workers {workers}: a local Dask cluster takes about {WORKER_MEMORY >> 20} MB a worker, "
                         f"and {available / 2**30:.1f} GB is available: use --workers {most} or fewer")


def _wait_for_workers(client, address: str, wait: float, clock=time.monotonic) -> None:
    """Wait up to ``wait`` s for a worker to join, saying so on stderr every 10 s."""
    start = last = clock()
    said = False
    while not client.nthreads():
        now = clock()
        if now - start >= wait:
            raise UsageError(f"--scheduler {address}: no Dask worker joined within {wait:g} s; start workers "
                             f"with 'dask worker {address} --nthreads 1' (with tubedeck installed)")
        if not said or now - last >= 10:
            print(f"waiting for Dask workers at {address}: none yet ({now - start:.0f} of {wait:g} s)",
                  file=sys.stderr, flush=True)
            said, last = True, now
        time.sleep(0.2)


@contextlib.contextmanager
def dask_executor(workers: int, scheduler: str | None = None,
                  worker_wait: float = WORKER_WAIT) -> Iterator[cf.Executor]:
    """A concurrent.futures executor on a Dask cluster (a LocalCluster of ``workers`` single-threaded
    processes when no ``scheduler`` address is given). Everything that can fail is checked before
    this yields, so a caller creates no file before the cluster has answered."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        from tubedeck.install import install_advice

        raise UsageError(f"--runner dask needs Dask: {install_advice('cluster')}") from None

    _quiet_logs()  # the progress bar speaks, not the cluster
    if scheduler is not None:
        address = scheduler_address(scheduler)[0]
        greet(address)
        try:
            client = Client(address, timeout=f"{CONNECT_TIMEOUT}s")
        except Exception as exc:  # noqa: BLE001 - whatever Dask raises, the user gets words, not a traceback
            raise UsageError(f"--scheduler {address}: the Dask scheduler did not take the connection "
                             f"({type(exc).__name__}: {str(exc)[:200]})") from None
        with _quick_close(client):
            _wait_for_workers(client, address, worker_wait)
            yield client.get_executor(pure=False)
        return
    local_workers_bound(workers)
    cluster = _start_local_cluster(LocalCluster, workers)
    with _quick_close(cluster, kill=True), _quick_close(Client(cluster)) as client:
        client.run(_quiet_worker)
        yield client.get_executor(pure=False)


def _start_local_cluster(factory: Callable, workers: int):
    """A started LocalCluster whose worker processes never see Ctrl-C, which goes to the whole
    process group: they start with SIGINT blocked (a worker caught importing printed a traceback).
    The cluster is built in a thread that blocks SIGINT, which the threads and processes it starts
    inherit; this thread stays interruptible, and an interrupt meanwhile stops the start cleanly."""
    from multiprocessing import resource_tracker

    # Started from a thread, the resource tracker would unblock SIGINT in it on its way out.
    resource_tracker.ensure_running()
    built: dict = {}
    done = threading.Event()  # not Thread.join: on 3.11 an interrupted join marks a live thread stopped

    def build() -> None:
        try:
            # No dashboard; the scheduler's HTTP server (always started) takes a free port, not
            # 8787, which a second run or another cluster holds ("Port 8787 is already in use").
            built["cluster"] = factory(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None,
                                       scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            built["error"] = exc
        finally:
            done.set()

    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        threading.Thread(target=build, name="tubedeck local cluster", daemon=True).start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    try:
        while not done.wait(0.1):
            pass
    except BaseException:
        _stop_starting_cluster(done, built)
        raise
    if "error" in built:
        raise built["error"]
    return built["cluster"]


def _stop_starting_cluster(done: threading.Event, built: dict, wait: float = STARTUP_STOP) -> None:
    """An interrupt while a local cluster starts: the start is let finish (a second or two; at most
    ``wait`` s, or until a second Ctrl-C), then the cluster is killed like a running one. Killing
    workers as they start does not work: a worker spawned a moment later reads our pipes after we
    exit and prints a traceback. Dask's exit hook is told to leave the clusters alone (closing a
    half-built one waits 10 s, then fails on a worker that never started)."""
    from distributed.deploy.spec import SpecCluster

    try:
        done.wait(wait)
        if "cluster" in built:
            _close_at_once(built["cluster"], kill=True)
    finally:
        for cluster in list(SpecCluster._instances):
            cluster.shutdown_on_close = False


def _quiet_logs() -> None:
    """Only critical log lines from Dask and tornado (Dask's configuration sets some of their loggers
    apart: 'tornado.application' logs every future a stopped run cancels)."""
    import logging

    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in ("distributed", "tornado")]
    for name in ["distributed", "tornado", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _quiet_worker() -> None:
    """Run on each local worker, in its main thread (its event loop's): Ctrl-C is ignored and only
    critical log lines are printed (a killed cluster's workers would warn of lost connections)."""
    _quiet_logs()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _quick_close(thing, kill: bool = False) -> Iterator:
    """Close a Dask client or local cluster; after an interrupt or error, at once: a local
    cluster's worker processes are killed rather than asked, which took 30 s with 32 workers."""
    try:
        yield thing
    except BaseException:
        _close_at_once(thing, kill)
        raise
    thing.close()


def _close_at_once(thing, kill: bool) -> None:
    """Close a Dask client or local cluster after an interrupt or error (see :func:`_quick_close`)."""
    if kill:
        for nanny in list(getattr(thing, "workers", {}).values()):
            with contextlib.suppress(Exception):
                nanny.close_gracefully()  # a killed worker is not restarted (whose start would fail)
            pid = getattr(getattr(nanny, "process", None), "pid", None)
            if isinstance(pid, int):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        thing.close(timeout=CLOSE_TIMEOUT)
    if kill:
        # A close cut short (a loaded machine) would be tried again at exit for 10 s by
        # Dask's own atexit hook; the workers are dead and the scheduler goes with us.
        thing.shutdown_on_close = False


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
