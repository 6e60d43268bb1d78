"""The ``tubedeck`` command line: parse, call the library, print.

``build``, ``check`` and ``solve`` are generated from the game registry (:mod:`tubedeck.games`);
``games`` lists it. Errors caused by input (``TubedeckError``: bad data, options or names) all
pass through :func:`main`, the one error funnel: a message and exit code 2, never a traceback.
Heavy libraries (networkx, ortools, reportlab, PyMuPDF) are imported only by the commands that
use them, so ``tubedeck --help`` and ``--version`` start fast.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.main

import tubedeck
from tubedeck import __version__, signals
from tubedeck.errors import DataError, Stopped, TubedeckError, UsageError

from . import build, coerce, data, listing, options, results, run

coerce.install()  # plain option values without pydantic (see tubedeck.cli.coerce)
app = typer.Typer(
    help="Print-and-play decks and sheets for five tabletop games (four on the London Underground, one on "
         "lava), with rules engines, bots and solvers.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
build_app = typer.Typer(help="Build a game's print files (PDF, PNG, SVG) into --out.", no_args_is_help=True)
check_app = typer.Typer(help="Check many seeded deals of a game with its solver.", no_args_is_help=True)
solve_app = typer.Typer(help="Solve one position of a game.", no_args_is_help=True)
play_app = typer.Typer(help="Play one game with bots, turn by turn.", no_args_is_help=True)
simulate_app = typer.Typer(help="Simulate many games with bots (resumable) and summarise them.", no_args_is_help=True)
app.add_typer(data.app, name="data")
app.add_typer(build_app, name="build")
app.add_typer(check_app, name="check")
app.add_typer(solve_app, name="solve")
app.add_typer(play_app, name="play")
app.add_typer(simulate_app, name="simulate")
app.command("games")(listing.games)


@app.command("preview")
def preview(game: Annotated[str, typer.Argument(help="The game whose built files to show (its folder in --out).")],
            out: Annotated[Path, typer.Option("--out", help="The build folder (GAME/ inside).", file_okay=False)]
            = Path("output"),
            port: Annotated[int, typer.Option("--port", help="The port on 127.0.0.1 (0: any free port).")] = 8000,
            ) -> None:
    """Show a game's built pages and contact sheets in a browser, reloaded after each rebuild
    (build GAME --watch in another terminal); 127.0.0.1 only, read-only."""
    from tubedeck.games import registry
    from tubedeck.preview import HOST, server

    games = registry()
    if game not in games:
        raise UsageError(f"no game {game!r} (games: {', '.join(games)})")
    folder = out / game
    srv = server(folder, f"{games[game].title}: {folder}", port)
    typer.echo(f"previewing {folder} at http://{HOST}:{srv.server_address[1]}/ (Ctrl-C to stop)")
    try:
        srv.serve_forever()
    finally:
        srv.server_close()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tubedeck {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Show the version and exit.")) -> None:
    """tubedeck: data -> network -> games -> print files and solvers."""


build.register(build_app)
run.register(check_app, solve_app, play_app, simulate_app)
results.register(app)



def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app; input errors -> message + exit 2 (click's own usage errors too);
    Ctrl-C -> 130 and SIGTERM -> 143, each after a one-line account of what was kept."""
    if not _main_thread():
        return _run(argv)
    # The console script (tubedeck.__main__) installed the handlers before importing this module,
    # and what they recorded counts; called in-process (tests, scripts), main installs them itself.
    previous = signals.install()
    if signals.on_signal not in previous:
        signals.SIGNALLED.clear()
        tubedeck.STARTED = time.perf_counter()  # in-process: --time-limit counts from this call, not the import
    try:
        return _run(argv)
    finally:
        signals.restore(previous)


def _interrupt_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt (or Terminated) an exception was raised from, if any."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


@functools.cache
def _command(typer_app: typer.Typer) -> Callable[..., Any]:
    """The click command typer builds from an app, once a process: building it reads every
    command's signature (about 50 ms), which an in-process caller (tests, scripts) paid per call."""
    return typer.main.get_command(typer_app)


def _run(argv: list[str] | None) -> int:
    options.ARGV[:] = sys.argv[1:] if argv is None else list(argv)
    try:
        _command(app)(args=argv, prog_name="tubedeck")  # standalone: exits via SystemExit with click's code
    except TubedeckError as exc:
        typer.secho(str(exc) if isinstance(exc, DataError) else f"error: {exc}", fg="red", err=True)
        if "--json" in (sys.argv[1:] if argv is None else argv):
            # Scripts asked for JSON: they get the error as JSON on stdout too.
            payload: dict = {"ok": False, "error": exc.args[0] if exc.args else str(exc)}
            if isinstance(exc, DataError):
                payload = {"ok": False, "error": "bad data", "problems": [p.as_dict() for p in exc.problems]}
            sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
        return 2
    except Stopped as exc:
        typer.secho(str(exc), fg="yellow", err=True)
        return exc.code
    except SystemExit as exc:  # typer turns a KeyboardInterrupt outside a command into a silent exit 130
        stop = _interrupt_behind(exc)
        if stop is None:
            raise
        typer.secho(signals.describe(stop), fg="yellow", err=True)
        return signals.exit_code(stop)
    except KeyboardInterrupt as exc:
        typer.secho(signals.describe(exc), fg="yellow", err=True)
        return signals.exit_code(exc)
    except ImportError as exc:
        if not options.interrupted_import(exc):
            raise
        typer.secho("interrupted", fg="yellow", err=True)
        return options.SIGNALLED[-1]
    except OSError as exc:  # the environment (a full disk, a vanished folder): a message, not a traceback
        where = f" ({exc.filename})" if exc.filename else ""
        typer.secho(f"error: {exc.strerror or exc}{where}", fg="red", err=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
