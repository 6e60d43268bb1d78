"""SIGTERM and Ctrl-C for the command line: handlers that import nothing.

The console script (:mod:`tubedeck.__main__`) installs :func:`on_signal` before anything heavy is
imported, so a signal in the second or so the command line spends importing typer, the games and
their libraries is acted on like one in the middle of a check. This module imports only modules
built into the interpreter or loaded before any of tubedeck's code runs, and the handler imports nothing:
an import inside a handler that lands in the middle of another import fails with ImportError (a
partly initialised module), which a library's ``except ImportError`` fallback may even swallow, so
the run carried on.

Three phases:

* **working** (from :func:`install`): SIGTERM raises :class:`Terminated` and Ctrl-C
  ``KeyboardInterrupt`` in the main thread; the command line turns either into exit 143 or 130 and
  one line on stderr (a check says what it kept);
* **finished** (:func:`finish`, once the command has its exit code): the work is over, so a signal
  ends the process at once with that code, as it would have ended a moment later;
* **exiting** (the last ``atexit`` step, :func:`_hold`): both signals are ignored, so the
  interpreter's own teardown (which puts handled signals back to their default) is never cut
  short by a kill.
"""

import _thread
import atexit
import os
import signal
import sys
import time

SIGNALLED: list[int] = []  # exit codes of the signals received, in order (130 Ctrl-C, 143 SIGTERM)
_FINISHED: list[int] = []  # the command's exit code once its work is over (phase "finished")
_CODES: dict[int, int] = {signal.SIGTERM: 143, signal.SIGINT: 130}


class Terminated(KeyboardInterrupt):
    """Raised in the main thread by the SIGTERM handler (exit code 143)."""


def on_signal(signum: int, frame: object) -> None:
    """The handler for SIGTERM and SIGINT. Imports nothing, allocates next to nothing."""
    code = _CODES.get(signum, 128 + signum)
    SIGNALLED.append(code)
    if _FINISHED:  # the work is over: end now with the command's own code
        _end(_FINISHED[0])
    raise Terminated() if code == 143 else KeyboardInterrupt()


def describe(exc: BaseException) -> str:
    """The one line a stopped run prints: the interrupt's own message (a run's account of what it
    kept, :class:`tubedeck.solver.runner.Interrupted`) or "interrupted", never a wrapper's: Python 3.11
    rewraps an exception raised inside a codec as the same type with the message "encoding with
    'extpdfdoc' codec failed (Terminated: )" and the original as its cause (a build's PDF write)."""
    while isinstance(exc.__cause__, KeyboardInterrupt) and type(exc.__cause__) is type(exc):
        exc = exc.__cause__
    return str(exc) or "interrupted"


def exit_code(exc: BaseException) -> int:
    """130 for Ctrl-C, 143 for SIGTERM (:class:`Terminated`), or the code an exception carries."""
    code = getattr(exc, "code", None)
    return code if isinstance(code, int) and code else (143 if isinstance(exc, Terminated) else 130)


def install() -> tuple[object, object]:
    """Put :func:`on_signal` on SIGTERM (unless something else already handles it) and on SIGINT
    (unless it is ignored: a job started in the background keeps ignoring Ctrl-C, as Unix tools do).
    Returns the previous handlers. Main thread only. SIGINT is taken first, so once SIGTERM is
    caught (``SigCgt`` in ``/proc/PID/status``) both are."""
    previous = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    if previous[1] is signal.default_int_handler:
        signal.signal(signal.SIGINT, on_signal)
    if previous[0] in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, on_signal)
    if sys.unraisablehook is not _redeliver:
        _NEXT_HOOK[:] = [sys.unraisablehook]
        sys.unraisablehook = _redeliver
    return previous


_NEXT_HOOK: list = []


def _redeliver(unraisable) -> None:  # type: ignore[no-untyped-def]
    """An exception raised where Python cannot propagate it (a weakref callback, say: one runs in
    every import) is printed and dropped, so a signal whose handler ran there would be lost, and the
    run carry on. Send that signal again instead, a moment later from a helper thread (sent from
    here, its handler would run here again, inside the same callback)."""
    exc = unraisable.exc_value
    if isinstance(exc, KeyboardInterrupt) and SIGNALLED and not _FINISHED:
        _thread.start_new_thread(_resend, (signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT,))
        return
    (_NEXT_HOOK[0] if _NEXT_HOOK else sys.__unraisablehook__)(unraisable)


def _resend(signum: int) -> None:
    time.sleep(0.02)
    os.kill(os.getpid(), signum)


def restore(previous: tuple[object, object]) -> None:
    for sig, handler in zip((signal.SIGTERM, signal.SIGINT), previous):
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)  # type: ignore[arg-type]


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is (or was caused by) a signal this process received: a KeyboardInterrupt,
    or an ImportError from a C extension whose import a signal cut short."""
    return isinstance(exc, KeyboardInterrupt) or (isinstance(exc, ImportError) and bool(SIGNALLED))


EXIT_GRACE = 3.0  # s: how long an interrupted command's teardown may take before the process just ends


def finish(code: int) -> None:
    """The command is done and exits with ``code``: from now on a signal ends the process at once
    with that code, and the last ``atexit`` step blocks both signals. After a signal the teardown
    is bounded too: a library's exit hook or thread that hangs (a Dask local cluster's, once in
    many runs on a loaded machine: CI waited 60 s after "interrupted: ...") cannot hold the
    process, which ends with ``code`` :data:`EXIT_GRACE` s later. Its account is already written."""
    _FINISHED.append(code)
    if SIGNALLED:
        _thread.start_new_thread(_end_after, (EXIT_GRACE, code))  # not joined at exit, unlike threading's


def leave(code: int) -> None:
    """End a process stopped by a signal without the interpreter's own teardown: the ``atexit``
    steps run (bounded by :func:`finish`'s grace, which they need as much), then the process ends
    with ``code``. The teardown after them (garbage collection, module cleanup) runs with every
    other thread frozen, so nothing can cut a hang there short: a Dask run's finaliser once held a
    Ctrl-C'd check for 60 s after its "interrupted: ..." line (CI), EXIT_GRACE or not. What the
    run keeps is written and closed by then; only its streams are left to flush."""
    atexit._run_exitfuncs()
    _end(code)


def _end_after(grace: float, code: int) -> None:
    time.sleep(grace)
    _end(code)


def _end(code: int) -> None:
    """End the process now with ``code``, what was written flushed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a reentrant write or a closed pipe: nothing more to say
            pass
    os._exit(code)


def _hold() -> None:
    # Ignored, not blocked: a mask is per thread, and a thread still alive at exit would take the
    # signal's default action (death) for the whole process. An ignored signal is not put back to
    # its default by the interpreter's teardown, as a handled one is.
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is on_signal:
            signal.signal(sig, signal.SIG_IGN)


def hold_at_exit() -> None:
    """Ignore both signals from the very last ``atexit`` step on (registered first, so it runs last)."""
    atexit.register(_hold)
