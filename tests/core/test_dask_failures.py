"""The Dask runner's failures are stated, never a traceback or a hang (issue 23 item 6): a
--scheduler port that speaks something else (a banner, HTTP), an unsupported scheme, an empty
address, a scheduler with no workers; no results file is created before the cluster answers; a
local cluster's --workers is bounded by memory. Sockets here are tiny servers the tests start."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

from tubedeck.errors import UsageError
from tubedeck.solver.distributed import (
    DEFAULT_PORT,
    WORKER_MEMORY,
    Runner,
    greet,
    local_workers_bound,
    scheduler_address,
)

from conftest import run_cli as run

CHECK = ("check", "klm", "--deals", "6", "--players", "3", "--no-progress", "--runner", "dask")
needs_dask = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="Dask is not installed (make install-cluster)")


@contextmanager
def server(reply: bytes | None, wait_for_request: bool = False):
    """A TCP server on a free local port: on each connection it sends ``reply`` (at once, or after
    a request arrives, as HTTP does; None: never), then holds the connection open a while."""
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(16)
    lsock.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        held = []
        while not stop.is_set():
            try:
                conn, _ = lsock.accept()
            except OSError:
                continue
            held.append(conn)
            try:
                if wait_for_request:
                    conn.settimeout(0.5)
                    try:
                        conn.recv(4096)
                    except OSError:
                        continue
                if reply is not None:
                    conn.sendall(reply)
            except OSError:
                pass
        for c in held:
            c.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{lsock.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        lsock.close()


BANNERS = [b"SSH-2.0-OpenSSH_9.6\r\n", b"220 mail.example.com ESMTP\r\n", b"+OK POP3 ready\r\n",
           b"\xff" * 64, b"\x00" * 8 + b"x" * 8, b"\x10\x00\x00\x00\x00\x00\x00\x00" + b"\x00" * 16,
           b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", b"short", b"* OK IMAP4rev1\r\n"]


@pytest.mark.parametrize("banner", BANNERS, ids=range(len(BANNERS)))
def test_a_port_that_speaks_first_is_not_a_scheduler(banner):
    """An SSH banner made Dask allocate 2.82 EiB; every banner here is refused in words, at once."""
    with server(banner) as address:
        start = time.monotonic()
        with pytest.raises(UsageError, match="not a Dask scheduler|no Dask scheduler greeting"):  # 'short': 5 bytes
            greet(address, greeting_timeout=2)
        assert time.monotonic() - start < 10 * 2 + 10  # within the greeting timeout (a margin for 10x the load)


@pytest.mark.parametrize("wait_for_request", [False, True])
def test_a_server_that_waits_for_a_request_is_not_a_scheduler(wait_for_request):
    """An HTTP server waits for a request: Dask waited forever; the greeting times out."""
    reply = b"HTTP/1.1 400 Bad Request\r\n\r\n"
    with server(reply if wait_for_request else None, wait_for_request=True) as address:
        start = time.monotonic()
        with pytest.raises(UsageError, match=r"no Dask scheduler greeting within 1 s"):
            greet(address, greeting_timeout=1)
        assert time.monotonic() - start < 10 * 1 + 10  # within the greeting timeout (a margin for 10x the load)


def test_a_closed_port_and_an_unknown_host_say_so():
    with socket.socket() as s:  # a port nothing listens on: bound, then closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(UsageError, match="nothing listens there"):
        greet(f"tcp://127.0.0.1:{port}")
    with pytest.raises(UsageError, match="unknown host|cannot connect|no answer"):
        greet("tcp://no-such-host.invalid:8786", connect_timeout=2)


BAD_ADDRESSES = {
    "": "is empty", "   ": "is empty", "tls://h:8786": "tls:// needs certificates", "TLS://h:8786": "tls://",
    "ucx://h:8786": "ucx:// needs UCX", "inproc://x": "inproc://", "ws://h:1": "ws://", "wss://h:1": "wss://",
    "http://h:8787": "http:// is not a Dask address scheme", "tcp://": "not HOST", "tcp://:8786": "not HOST",
    "tcp://h:0": "port must be 1-65535", "tcp://h:65536": "port must be", "tcp://h:x": "port must be",
    "tcp://h:" + "9" * 30: "port must be", "tcp://h:8786/path": "port must be", "::1": "IPv6",
    "tcp://[::1": "IPv6", "tcp://[::1]8786": "IPv6", "tcp://h o/": "not HOST", "tcp://" + "a" * 300: "not HOST",
    "tcp://hé:8786": "not HOST",
}


@pytest.mark.parametrize("text,why", BAD_ADDRESSES.items(), ids=list(map(repr, BAD_ADDRESSES)))
def test_bad_scheduler_addresses_are_refused_before_anything_runs(text, why, tmp_path, capsys):
    """tls:// and ucx:// raised TypeErrors; '' ran a local cluster instead."""
    results = tmp_path / "r.jsonl"
    code, _, err = run(capsys, *CHECK, "--scheduler", text, "--results", str(results))
    assert code == 2 and "Traceback" not in err, err
    assert why in " ".join(err.split()), err
    assert not results.exists()


@pytest.mark.parametrize("text,address", [("h", f"tcp://h:{DEFAULT_PORT}"), ("h:1", "tcp://h:1"),
                                          ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
                                          ("TCP://h:2", "tcp://h:2"), ("[::1]:9", "tcp://[::1]:9")])
def test_good_scheduler_addresses(text, address):
    assert scheduler_address(text)[0] == address
    assert Runner("dask", text).scheduler == text


@needs_dask
@pytest.mark.parametrize("banner", [BANNERS[0], None])
def test_no_file_is_left_when_the_scheduler_is_not_one(banner, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("tubedeck.solver.distributed.GREETING_TIMEOUT", 1.0)
    results = tmp_path / "r.jsonl"
    with server(banner) as address:
        code, _, err = run(capsys, *CHECK, "--scheduler", address, "--results", str(results))
    assert code == 2 and "Traceback" not in err and "Dask scheduler" in err, err
    assert not results.exists(), "a header-only results file was left behind"


@needs_dask
def test_no_workers_waits_a_stated_time_saying_so_and_leaves_no_file(tmp_path, capsys):
    from distributed import LocalCluster

    from tubedeck.solver.klm.check import KlmCheck
    from tubedeck.solver.runner import run_check

    results = tmp_path / "r.jsonl"
    with LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster:
        start = time.monotonic()
        with pytest.raises(UsageError, match=r"no Dask worker joined within 1.5 s; start workers with 'dask worker"):
            run_check(KlmCheck(3, "zone 1"), range(6), results, 1, progress=False,
                      runner=Runner("dask", cluster.scheduler_address, worker_wait=1.5))
        took = time.monotonic() - start
    assert 1.5 <= took < 10 * 1.5 + 10  # the stated wait, and an end: a margin that holds at ten times the load
    assert "waiting for Dask workers at tcp://" in capsys.readouterr().err
    assert not results.exists()


@pytest.mark.parametrize("workers,available,ok", [(1, 10 * 2**30, True), (90, 10 * 2**30, True),
                                                  (93, 10 * 2**30, True), (94, 10 * 2**30, False),
                                                  (256, 10 * 2**30, False), (1, 50 * 2**20, True),
                                                  (2, 50 * 2**20, False), (32, 2 * 2**30, False)])
def test_local_workers_are_bounded_by_memory(workers, available, ok):
    if ok:
        local_workers_bound(workers, available)
        return
    with pytest.raises(UsageError, match=rf"--workers {workers}: .* about 110 MB a worker.* use --workers "
                                         rf"{max(1, available // WORKER_MEMORY)} or fewer"):
        local_workers_bound(workers, available)


@needs_dask
def test_too_many_local_workers_are_refused_by_the_cli(tmp_path, capsys, monkeypatch):
    import distributed  # noqa: F401 - imported first: it reads the machine's memory on import
    import psutil

    monkeypatch.setattr(psutil, "virtual_memory",
                        lambda: type("M", (), {"available": 300 * 2**20, "total": 8 * 2**30})())
    results = tmp_path / "r.jsonl"
    code, _, err = run(capsys, *CHECK, "--workers", "8", "--results", str(results))
    assert code == 2 and "use --workers 2 or fewer" in err, err
    assert not results.exists()


@needs_dask
def test_a_local_cluster_leaves_port_8787_alone(tmp_path, capsys, recwarn):
    """The scheduler's HTTP server took Dask's default port 8787 though no dashboard was asked
    for: a second run beside the first (or any other cluster) printed Dask's "Port 8787 is
    already in use ... Hosting the HTTP server on port N instead" among the progress lines."""
    held = socket.socket()
    try:
        held.bind(("127.0.0.1", 8787))
        held.listen()
    except OSError:
        pass  # someone else holds it already: the run must be as quiet
    try:
        code, _, err = run(capsys, *CHECK, "--workers", "1", "--results", str(tmp_path / "r.jsonl"))
    finally:
        held.close()
    assert code == 0, err
    assert "8787" not in err and "already in use" not in err, err
    assert not [str(w.message) for w in recwarn if "already in use" in str(w.message)]  # a terminal shows them


@needs_dask
def test_an_interrupted_close_cut_short_is_not_tried_again_at_exit(monkeypatch):
    """On a loaded machine the interrupted cluster's short graceful close can time out; Dask's
    exit hook then closed it again, waiting 10 s (CI: Ctrl-C took 11.5 s). Now the workers are
    killed, none restarted, and the exit hook leaves the cluster alone."""
    from distributed import LocalCluster
    from distributed.deploy import spec

    import tubedeck.solver.distributed as dist

    monkeypatch.setattr(dist, "CLOSE_TIMEOUT", 1e-6)  # the graceful close always runs out of time
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    nannies = list(cluster.workers.values())
    closes: list[float | None] = []
    real_close = cluster.close
    try:
        monkeypatch.setattr(cluster, "close", lambda timeout=None: closes.append(timeout))
        with pytest.raises(KeyboardInterrupt), dist._quick_close(cluster, kill=True):
            raise KeyboardInterrupt
        assert closes == [dist.CLOSE_TIMEOUT]
        spec.close_clusters()  # what Dask runs at exit
        assert closes == [dist.CLOSE_TIMEOUT], "the exit hook closed the cluster again"
        time.sleep(0.5)
        assert not any(n.process is not None and n.process.is_alive() for n in nannies), "a worker was restarted"
    finally:
        monkeypatch.undo()
        real_close(timeout=5)


def _start_check(results):
    """``check klm`` on a local cluster of 4 workers, in a session of its own (as a terminal's
    foreground job: Ctrl-C goes to every process in it)."""
    return subprocess.Popen([sys.executable, "-m", "tubedeck", *CHECK[:2], "--deals", "100000", "--players", "3",
                             "--no-progress", "--runner", "dask", "--workers", "4", "--engine", "auto",
                             "--results", str(results)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _interrupt(proc, timeout: float = 120) -> tuple[str, float]:
    """Ctrl-C to the whole session; its stderr and how long it took to end. On a timeout the
    failure names the processes still alive (one holding stderr open keeps ``communicate`` waiting)."""
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        alive = _session(proc.pid)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"not ended {timeout} s after Ctrl-C; alive: {alive}")
    return err.decode(), time.monotonic() - start


def _session(sid: int) -> list[str]:
    """The live processes of session ``sid``, with their command lines."""
    import psutil  # Dask's dependency

    alive = []
    for p in psutil.process_iter(["pid", "cmdline", "status"]):
        with contextlib.suppress(OSError, psutil.Error):
            if os.getsid(p.pid) == sid and p.info["status"] != psutil.STATUS_ZOMBIE:
                alive.append(f"{p.pid} {' '.join(p.info['cmdline'] or [])[:100]}")
    return alive


def _ended(sid: int, wait: float = 10) -> list[str]:
    """:func:`_session` once it is empty, or after ``wait`` s (a loaded machine may take a moment to
    reap the processes of an ended run: the wait is for that, not for one left running)."""
    end = time.monotonic() + wait
    alive = _session(sid)
    while alive and time.monotonic() < end:
        time.sleep(0.1)
        alive = _session(sid)
    return alive


def _catches_ctrl_c(process) -> bool:
    """A worker being spawned whose Python has set its Ctrl-C handler (before that, a SIGINT would
    end it silently: the moment where a KeyboardInterrupt in its imports printed a traceback)."""
    with contextlib.suppress(OSError):
        if "spawn_main" in " ".join(process.cmdline()):
            status = dict(line.split(":\t", 1) for line in open(f"/proc/{process.pid}/status").read().splitlines()
                          if ":\t" in line)
            return bool(int(status.get("SigCgt", "0"), 16) & (1 << (signal.SIGINT - 1)))
    return False


@needs_dask
@pytest.mark.slow
def test_ctrl_c_while_the_local_cluster_starts_stops_it_cleanly(tmp_path):
    """Ctrl-C while the workers start (one is being spawned): they start with SIGINT blocked, so
    none prints a traceback from its imports; the start is let finish and the cluster killed, so no
    worker is left to fail on our closed pipes, and Dask's exit hook does not close it again."""
    import psutil

    results = tmp_path / "r.jsonl"
    proc = _start_check(results)
    me = psutil.Process(proc.pid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(_catches_ctrl_c(c) for c in me.children()):
        time.sleep(0.005)
    text, took = _interrupt(proc)
    assert proc.returncode == 130, text[-2000:]
    assert "Traceback" not in text and "Error" not in text and "interrupted:" in text, text[-2000:]
    assert not results.exists(), "a results file before the cluster answered"
    assert took < 60.0, took  # the rest of the start (1-3 s), then the kill: a margin for ten times the load
    assert _ended(proc.pid) == [], "a process outlived the interrupted run"


@needs_dask
@pytest.mark.slow
def test_ctrl_c_stops_a_local_cluster_at_once_without_worker_tracebacks(tmp_path):
    """Ctrl-C goes to the whole process group (the workers too): they printed screens of
    tracebacks and the close took 30 s with 32 workers. Now: exit 130 within 2 s, no traceback."""
    results = tmp_path / "r.jsonl"
    proc = _start_check(results)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not results.exists() or results.stat().st_size < 20000):
        time.sleep(0.05)
    text, took = _interrupt(proc)
    assert proc.returncode == 130, text[-2000:]
    assert "Traceback" not in text and "interrupted:" in text, text[-2000:]
    # At once (about 1 s): not the 30 s of old; the margin holds at ten times the load, so it cannot
    # tell the 10 s of Dask's exit hook closing the cluster again: that is tested above without a clock.
    assert took < 20.0, took
