"""SIGTERM and Ctrl-C at any moment (issue 23, item 5): the console script installs its handlers
before anything heavy is imported, and every run a signal stops exits 143 (SIGTERM) or 130 (Ctrl-C)
with one line on stderr, no traceback, and results files that are absent or whole and resumable.

The sweep sends each signal to real ``check``, ``simulate`` and ``build`` processes at delays spread
from 0 to past the end of the run. Just before sending, it reads ``SigCgt`` in
``/proc/PID/status``: once SIGTERM is caught, tubedeck's handlers are in (SIGINT is taken first), so
the strict promise applies. Before that the interpreter itself is starting (site and its ``.pth``
files, before any tubedeck code runs): SIGTERM kills the process outright (a shell reports 143)
and Ctrl-C is Python's own; all the sweep asks of those is that nothing was written.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tubedeck import signals

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinycity"
# Exactly what the installed console script runs (pip's wrapper imports sys, then the entry point).
SCRIPT = [sys.executable, "-c", "import sys; from tubedeck.__main__ import main; sys.exit(main())"]
CODES = {signal.SIGTERM: 143, signal.SIGINT: 130}

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status")


def test_the_console_script_is_the_launcher():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"tubedeck": "tubedeck.__main__:main"}


def test_handlers_come_before_any_heavy_import():
    """When SIGTERM gets its handler, nothing but tubedeck's two small modules is loaded (the old
    entry point installed it after typer, click, rich and the command modules)."""
    spy = """
import signal, sys
real = signal.signal
def spy(sig, handler):
    if sig == signal.SIGTERM and handler is not signal.SIG_DFL:
        ours = sorted(m for m in sys.modules if m.split(".")[0] in
                      ("tubedeck", "solver", "generator", "typer", "click", "rich", "networkx", "ortools"))
        print("AT-INSTALL", *ours, file=sys.stderr)
    return real(sig, handler)
signal.signal = spy
sys.argv = ["tubedeck", "--version"]
from tubedeck.__main__ import main
sys.exit(main())
"""
    proc = subprocess.run([sys.executable, "-c", spy], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0 and "tubedeck 0.1.0" in proc.stdout, proc.stderr
    first = [line.split()[1:] for line in proc.stderr.splitlines() if line.startswith("AT-INSTALL")][0]
    assert first == ["tubedeck", "tubedeck.__main__", "tubedeck.signals"]


def test_the_handler_imports_nothing():
    """A handler that imports, run in the middle of another import, fails with ImportError (the
    old one did: 'partially initialized module solver.runner')."""
    import ast

    import tubedeck.signals as sig

    tree = ast.parse(Path(sig.__file__).read_text(encoding="utf-8"))
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        assert not [n for n in ast.walk(fn) if isinstance(n, ast.Import | ast.ImportFrom)], fn.name


def _caught_and_ignored(pid: int) -> tuple[bool, bool]:
    """Whether SIGTERM is caught / ignored by the process (``/proc/PID/status``)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False, False
    fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
    bit = 1 << (signal.SIGTERM - 1)
    return bool(int(fields.get("SigCgt", "0"), 16) & bit), bool(int(fields.get("SigIgn", "0"), 16) & bit)


def _as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background pytest inherits an ignored SIGINT


@dataclass
class Run:
    kind: str
    sig: int
    delay: float
    phase: str  # "exited" (before the signal), "ours" (handlers in), "start" (interpreter starting), "end"
    code: int
    err: str
    results: Path | None
    out: Path | None


def _command(kind: str, where: Path) -> tuple[list[str], Path | None, Path | None]:
    results = where / f"{kind}.jsonl"
    if kind == "check":
        return [*SCRIPT, "check", "klm", "--data", str(TINY), "--scope", "all", "--players", "2", "--deals", "6",
                "--no-progress", "--results", str(results)], results, None
    if kind == "simulate":
        return [*SCRIPT, "simulate", "klm", "--data", str(TINY), "--scope", "all", "--players", "2", "--games", "6",
                "--no-progress", "--results", str(results)], results, None
    out = where / "out"
    return [*SCRIPT, "build", "sampler", "--data", str(TINY), "--out", str(out)], None, out


def _one(kind: str, sig: int, delay: float, where: Path) -> Run:
    where.mkdir(parents=True)
    cmd, results, out = _command(kind, where)
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=where,
                         preexec_fn=_as_from_a_terminal)
    end = time.monotonic() + delay
    while time.monotonic() < end and p.poll() is None:
        time.sleep(0.002)
    caught, ignored = _caught_and_ignored(p.pid)
    phase = "exited"
    if p.poll() is None:
        phase = "ours" if caught else "end" if ignored else "start"
        p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # a hang is a failure, reported as such
        p.kill()
        _, err = p.communicate()
        return Run(kind, sig, delay, phase, 999, err, results, out)
    return Run(kind, sig, delay, phase, p.returncode, err, results, out)


def _records(path: Path) -> list[dict]:
    return [r for r in (json.loads(line) for line in path.read_text().splitlines()) if r.get("kind") != "header"]


def _problems(run: Run, reference: dict[str, list[dict]]) -> list[str]:
    """What is wrong with one run (empty: fine)."""
    # (check and simulate say where results go, "results: FILE", before they start: not about the signal)
    want, lines = CODES[run.sig], [x for x in run.err.splitlines() if x.strip() and not x.startswith("results: ")]
    name = f"{run.kind} {signal.Signals(run.sig).name} at {run.delay:.2f}s ({run.phase}): exit {run.code}"
    bad = []
    if run.phase == "exited" and (run.code != 0 or "Traceback" in run.err):
        bad.append(f"{name}: finished badly before the signal {run.err[-300:]!r}")
    if run.phase == "ours":
        if run.code == 0:  # came after the work was done: the command's own exit, nothing on stderr
            if "Traceback" in run.err or (lines and run.kind == "build"):
                bad.append(f"{name}: {run.err[-300:]!r}")
        elif run.code != want or len(lines) != 1 or not lines[0].startswith("interrupted") or "Traceback" in run.err:
            bad.append(f"{name}: want exit {want} and one 'interrupted' line, got {run.err[-400:]!r}")
    if run.phase == "end" and run.code != 0:
        bad.append(f"{name}: signals ignored at exit, yet {run.err[-300:]!r}")
    if run.phase == "start":  # nothing of tubedeck's ran: nothing may have been written
        if run.code not in (-run.sig, want, 1, 0):
            bad.append(f"{name}: before tubedeck's code, yet {run.err[-300:]!r}")
        if run.code != 0 and ((run.results and run.results.exists()) or (run.out and run.out.exists())):
            bad.append(f"{name}: killed before tubedeck's code ran, yet it wrote files")
    if run.results and run.results.exists():
        text = run.results.read_text()
        if text and not text.endswith("\n"):
            bad.append(f"{name}: a partial record at the end of {run.results.name}")
        try:
            kept = _records(run.results)
        except json.JSONDecodeError as exc:
            bad.append(f"{name}: {run.results.name} is not whole JSON lines: {exc}")
        else:
            full = reference[run.kind]
            if kept != full[: len(kept)]:
                bad.append(f"{name}: kept records are not the reference's first {len(kept)}")
            if len(kept) < len(full):  # resumable: the same command completes the very same records
                cmd, _, _ = _command(run.kind, run.results.parent)
                again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=run.results.parent)
                if again.returncode != 0 or _records(run.results) != full:
                    bad.append(f"{name}: resume failed ({again.returncode}) {again.stderr[-300:]!r}")
    if run.out and run.out.exists():
        leftovers = [x.name for x in run.out.rglob("*") if ".part" in x.name or ".staging-" in x.name]
        if leftovers:
            bad.append(f"{name}: half-written build files {leftovers}")
        for game in (g for g in run.out.iterdir() if g.is_dir()):
            if not (game / "stations.pdf").is_file():
                bad.append(f"{name}: {game.name}/ is there without its files")
    return bad


def sweep(where: Path, per: int, kinds=("check", "simulate", "build"), last: float = 1.5,
          jobs: int = 3) -> tuple[list[Run], list[str]]:
    """``per`` runs for each command and signal, delays spread evenly from 0 to ``last`` seconds,
    or to 90% of the command's own run time where that is shorter (a fast machine finishes a
    command before 1.5 s: the signals must still land in it)."""
    reference, span = {}, {}
    for kind in kinds:
        cmd, results, _ = _command(kind, where / f"ref-{kind}")
        span[kind] = last
        if results is not None:
            (where / f"ref-{kind}").mkdir(parents=True)
            started = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=results.parent)
            span[kind] = min(last, 0.9 * (time.perf_counter() - started))
            assert done.returncode == 0, done.stderr
            reference[kind] = _records(results)
    plan = [(kind, sig, span[kind] * k / max(per - 1, 1)) for sig in CODES for kind in kinds for k in range(per)]
    with ThreadPoolExecutor(jobs) as pool:
        runs = list(pool.map(lambda a: _one(*a[1], where / f"run{a[0]}"), enumerate(plan)))
    return runs, [p for run in runs for p in _problems(run, reference)]


@pytest.mark.slow
def test_a_signal_at_any_moment_exits_with_its_code_and_one_line(tmp_path):
    runs, problems = sweep(tmp_path, per=7)
    assert problems == []
    ours = [r for r in runs if r.phase == "ours" and r.code != 0]
    # The sweep reached every command in its import, parse and work phases, not only the start.
    assert len(ours) >= len(runs) // 3, [(r.kind, r.delay, r.phase, r.code) for r in runs]
    assert {r.kind for r in ours} == {"check", "simulate", "build"}
    assert {r.code for r in ours} == {130, 143}


def test_typer_s_silent_130_gets_its_line(capsys):
    """A KeyboardInterrupt while typer parses options becomes its Exit(130) with no word (SIGTERM's
    Terminated too): the funnel says 'interrupted' and keeps SIGTERM's 143."""
    import typer

    from tubedeck import cli, signals

    def boom(_ctx, _param, value):
        if value:
            raise signals.Terminated()
        return value

    app = typer.Typer()

    @app.command()
    def go(x: bool = typer.Option(False, "--x", callback=boom)) -> None:
        """A command whose option parsing is interrupted."""

    real, cli.app = cli.app, app
    try:
        assert cli.main(["--x"]) == 143
    finally:
        cli.app = real
    assert capsys.readouterr().err.strip() == "interrupted"


@pytest.mark.parametrize("sig, caught", [(signal.SIGTERM, "Terminated"), (signal.SIGINT, "KeyboardInterrupt")])
def test_a_signal_landing_in_a_weakref_callback_is_not_lost(sig, caught):
    """Every import runs weakref callbacks; an exception raised in one is printed and dropped, so
    a handler running there lost its signal and the run carried on writing. It is sent again."""
    script = f"""
import os, signal, sys, time, weakref
from tubedeck import signals
signals.install()
class A: pass
a = A()
r = weakref.ref(a, lambda _: os.kill(os.getpid(), {int(sig)}))
try:
    del a
    for _ in range(1000):
        time.sleep(0.01)
    print("lost")
except signals.Terminated:
    print("Terminated")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          preexec_fn=_as_from_a_terminal)
    assert (proc.stdout.strip(), proc.stderr) == (caught, "")


def test_a_signal_inside_a_codec_still_says_interrupted():
    """Python 3.11 rewraps an exception raised inside a Python codec as the same type with the
    message "encoding with 'extpdfdoc' codec failed (Terminated: )" (a CI build's PDF write met
    SIGTERM there). The command funnel prints 'interrupted' and keeps the SIGTERM's 143."""
    import codecs

    from tubedeck.cli.options import command
    from tubedeck.errors import Stopped
    from tubedeck.signals import Terminated

    def encode(text: str, errors: str = "strict"):
        raise Terminated()

    codecs.register(lambda name: codecs.CodecInfo(encode, encode, name=name) if name == "tubedeck_sweep" else None)
    run = command("sweep", "", [], lambda values: "x".encode("tubedeck_sweep"))
    with pytest.raises(Stopped) as stopped:
        run()
    assert (str(stopped.value), stopped.value.code) == ("interrupted", 143)

    # a run's own account of what it kept stays its line, rewrapped by a codec or not
    from tubedeck.solver.runner import Interrupted

    def account(text: str, errors: str = "strict"):
        raise Interrupted(5, None, 143)

    codecs.register(lambda name: codecs.CodecInfo(account, account, name=name) if name == "tubedeck_kept" else None)
    for body in (lambda values: "x".encode("tubedeck_kept"), lambda values: account("")):
        with pytest.raises(Stopped) as stopped:
            command("kept", "", [], body)()
        assert str(stopped.value).startswith("interrupted: 5 records stored") and stopped.value.code == 143


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_teardown_that_hangs_after_a_signal_cannot_hold_the_exit(sig):
    """CI once waited 60 s for a Ctrl-C'd Dask run that had printed its "interrupted: ..." line: a
    library's thread (or exit hook) hung in the interpreter's teardown. After a signal, the process
    ends with its code within EXIT_GRACE s, its account written; without a signal, exit waits."""
    script = f"""
import os, signal, sys, threading
from tubedeck import signals
signals.EXIT_GRACE = 0.5
threading.Thread(target=threading.Event().wait).start()  # a non-daemon thread that never ends
def main():
    signals.install()
    signals.hold_at_exit()
    try:
        os.kill(os.getpid(), {int(sig)})
        threading.Event().wait(30)
        code = 0
    except KeyboardInterrupt as exc:
        code = signals.exit_code(exc)
        print("kept 3 deals", file=sys.stderr)
    signals.finish(code)
    return code
sys.exit(main())
"""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          preexec_fn=_as_from_a_terminal)
    assert (proc.returncode, proc.stderr) == (CODES[sig], "kept 3 deals\n")
    # the thread would hold it for ever; EXIT_GRACE ends it (a margin that holds at ten times the load)
    assert time.monotonic() - start < 10 * signals.EXIT_GRACE + 10

    # No signal: finish arms nothing, and the thread holds the exit as Python's own does.
    quiet = script.replace(f"os.kill(os.getpid(), {int(sig)})\n        threading", "threading").replace(
        "threading.Event().wait(30)", "pass")
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run([sys.executable, "-c", quiet], capture_output=True, text=True, timeout=3,
                       preexec_fn=_as_from_a_terminal)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_finaliser_that_hangs_after_a_signal_cannot_hold_the_exit(sig):
    """The hang EXIT_GRACE could not end (a clean clone's Dask check, Ctrl-C'd, alive 60 s after its
    "interrupted: ..." line): in the interpreter's last teardown every other thread is frozen, the
    grace's too. After a signal the console script runs the exit hooks and ends there."""
    script = f"""
import os, sys, threading
import tubedeck.__main__ as console
from tubedeck import signals
signals.EXIT_GRACE = 0.5
class Stuck:
    def __del__(self):  # collected in the teardown, where it waits for ever
        lock = threading.Lock()
        lock.acquire()
        lock.acquire()
stuck = Stuck()
def command():
    os.kill(os.getpid(), {int(sig)})
    threading.Event().wait(30)
    return 0
console._run = command
import atexit
atexit.register(lambda: print("exit hook ran", file=sys.stderr))
sys.exit(console.main())
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          preexec_fn=_as_from_a_terminal)
    assert (proc.returncode, proc.stderr) == (CODES[sig], "interrupted\nexit hook ran\n")
