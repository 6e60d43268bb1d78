"""The ``tubedeck`` console script (and ``python -m tubedeck``): signal handlers first, then the CLI.

:mod:`tubedeck.cli` imports typer, the game registry and, per command, networkx, OR-Tools or
ReportLab: a second or more on a busy machine. Its own handlers used to be installed only once all
that was imported, so a SIGTERM in that time killed the process without a word (or, landing in an
import, left an ImportError traceback). Here the handlers come first (:mod:`tubedeck.signals`
imports nothing heavy), the command line is imported under them, and whatever stops it (a signal
in an import, in option parsing, in the command, or after it) ends with exit 143 (SIGTERM) or 130
(Ctrl-C) and one line on stderr.
"""

import sys

from tubedeck import signals


def main() -> int:
    signals.install()
    signals.hold_at_exit()
    try:
        code = _run()
    except BaseException as exc:  # noqa: BLE001 - a signal may land anywhere, even in an import
        code = _stopped(exc)
    signals.finish(code)
    if signals.SIGNALLED:
        signals.leave(code)  # not the interpreter's teardown, which nothing can bound
    return code


def _run() -> int:
    try:
        from tubedeck.cli import main as cli_main

        return cli_main()
    except SystemExit as exc:  # typer's standalone mode ends with SystemExit
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1


def _stopped(exc: BaseException) -> int:
    """A signal that stopped the command before its own account: one line, its exit code."""
    if not signals.interrupted(exc) and not signals.SIGNALLED:
        raise exc  # a bug, not an interrupt: the traceback is the report
    code = signals.exit_code(exc) if isinstance(exc, KeyboardInterrupt) else signals.SIGNALLED[0]
    try:
        sys.stderr.write((str(exc) if isinstance(exc, KeyboardInterrupt) and str(exc) else "interrupted") + "\n")
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - a closed stderr: the exit code says it
        pass
    return code


if __name__ == "__main__":
    sys.exit(main())
