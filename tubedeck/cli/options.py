"""Options shared by every command (``Annotated``, as huggingface_hub's CLI does), output helpers,
and the conversion of a game's declared :class:`~tubedeck.game.Option` into a typer parameter."""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from tubedeck import signals
from tubedeck.errors import Stopped, UsageError
from tubedeck.game import Option

DataOpt = Annotated[Optional[Path], typer.Option(
    "--data", file_okay=False,
    help="Dataset: a folder (stations.csv, lines.csv, routes.csv) or a bundled city (london, the default; "
         "new-york): tubedeck data list.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON (for scripts).")]

_TYPES = {"str": str, "int": int, "float": float, "path": Optional[Path], "bool": bool}


def parameter(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def declared(option: Option) -> inspect.Parameter:
    """A game's declared option as a typer parameter."""
    kind = _TYPES[option.type]
    if option.type in ("str", "float") and option.default is None and not option.required:
        kind = Optional[kind]  # no default: the option may be left off (None)
    help_ = option.help + (f" One of: {', '.join(option.choices)}." if option.choices else "")
    names = [option.flag, *option.aliases] + ([option.short] if option.short else [])
    opt = typer.Option(*names, help=help_, dir_okay=False) if option.type == "path" else \
        typer.Option(*names, help=help_)
    return parameter(option.name, Annotated[kind, opt],
                     ... if option.required else option.default)


def check_choices(options: tuple[Option, ...], values: dict) -> None:
    """Refuse a value outside an option's declared choices (UsageError: exit 2)."""
    for o in options:
        value = values.get(o.name)
        if o.choices and value is not None and value not in o.choices:
            raise UsageError(f"{o.flag}: unknown value {value!r} (known: {', '.join(o.choices)})")


SIGNALLED = signals.SIGNALLED  # exit codes of the signals received (130 Ctrl-C, 143 SIGTERM)
ARGV: list[str] = []  # the arguments of the command being run, set by main(): for :func:`typed`


def typed(*names: str) -> str:
    """Which of an option's names the user typed (the last one given; ``--games=3`` counts), so a
    message speaks of ``--games`` to who typed it, ``--deals`` to who typed that; the first name
    when none was typed (a default)."""
    for arg in reversed(ARGV):
        if arg == "--":
            continue
        for name in names:
            if arg == name or (name.startswith("--") and arg.startswith(name + "=")) or \
                    (not name.startswith("--") and arg.startswith(name) and len(arg) > len(name)):
                return name
    return names[0]


def interrupted_import(exc: BaseException) -> bool:
    """A C extension whose import a signal interrupted reports ImportError, not KeyboardInterrupt."""
    return isinstance(exc, ImportError) and bool(SIGNALLED)


def command(name: str, doc: str, params: list[inspect.Parameter], body) -> Any:
    """A function typer can register: ``params`` as its signature, ``body(values: dict)`` its work."""

    def fn(**values):
        try:
            return body(values)
        except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (see tubedeck.cli.main)
            from tubedeck.solver.runner import exit_code

            raise Stopped(signals.describe(exc), exit_code(exc)) from None
        except ImportError as exc:
            if interrupted_import(exc):
                raise Stopped("interrupted", SIGNALLED[-1]) from None
            raise

    fn.__name__ = name.replace("-", "_")
    fn.__doc__ = doc
    fn.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]  # what typer reads
    fn.__annotations__ = {p.name: p.annotation for p in params}
    return fn


def console(stderr: bool = False):
    from rich.console import Console  # rich only when something is printed

    return Console(stderr=stderr)


# What rich prints as it is but for these tags, which it drops when it writes no colour; anything
# else it reads (other markup, escapes, emoji codes, tabs, control characters) goes through rich.
_TAGS = re.compile(r"\[/?(?:bold|green|red|yellow)\]")
_RICH = re.compile(r"[\[\\\t\x00-\x08\x0b-\x1f\x7f]|:\S*:")
_COLOUR_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


def plain_lines(lines: list[str]) -> str | None:
    """What :func:`print_lines` writes when stdout is no terminal, written without importing rich
    (60-80 ms of a one-shot command); None where rich is needed (a terminal, or text it reads)."""
    import os

    isatty = getattr(sys.stdout, "isatty", None)
    if isatty is None or isatty() or any(os.environ.get(k) is not None for k in _COLOUR_ENV) or \
            "IPython" in sys.modules:
        return None
    text = [_TAGS.sub("", line) for line in lines]
    if any(_RICH.search(line) for line in text):
        return None
    return "".join(line + "\n" for line in text)


def print_lines(lines: list[str]) -> None:
    plain = plain_lines(lines)
    if plain is not None:
        sys.stdout.write(plain)
        sys.stdout.flush()
        return
    out = console()
    for line in lines:
        out.print(line, highlight=False, soft_wrap=True)


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
