"""The one-shot fast paths of the command line give what typer and rich give: plain option values
(tubedeck.cli.coerce) and plain lines on a pipe (tubedeck.cli.options.plain_lines)."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Annotated, Optional

import pytest
import typer
from typer import _coercion, core
from typer.testing import CliRunner

from tubedeck.cli import coerce, options


def _param(annotation, default, **info):
    app = typer.Typer()
    app.command("run")(options.command("run", "Run.", [options.parameter(
        "x", Annotated[annotation, typer.Option("--x", **info)], default)], lambda values: print(repr(values["x"]))))
    cmd = typer.main.get_command(app)
    return next(p for p in cmd.params if p.name == "x"), cmd, app


CASES = [(str, "a", ["hello", "", "a,b [c]", "  spaced "]), (int, 3, ["0", "7", "-12", "007", "123456789012345678"]),
         (Optional[str], None, ["x"]), (float, 10.0, ["5", "2.5"]), (Optional[Path], None, ["."])]


@pytest.mark.parametrize(("annotation", "default", "values"), CASES)
def test_plain_values_are_what_typers_own_coercion_gives(annotation, default, values):
    param, cmd, app = _param(annotation, default)
    ctx = cmd.make_context("run", [])
    ours = param.get_runtime_param()
    assert isinstance(ours, coerce._Plain)  # the wrap is installed (tubedeck.cli imported)
    theirs = _coercion.build_runtime_param(param.type_descriptor)
    for value in [default, None, *values]:
        a, b = ours.coerce(value, param, ctx), theirs.coerce(value, param, ctx)
        assert a == b and type(a) is type(b), (annotation, value, a, b)


def _outcome(runtime, value, param, ctx):
    try:
        return "ok", runtime.coerce(value, param, ctx)
    except Exception as exc:  # noqa: BLE001 - whatever typer raises, compared below
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize(("annotation", "info", "value", "bad"), [
    (int, {}, "seven", True), (int, {}, "+5", False), (int, {}, "1_000", False), (int, {"min": 0}, "-1", True),
    (int, {"max": 9}, "10", True), (float, {}, "soon", True)])
def test_values_in_doubt_get_typers_own_answer_and_message(annotation, info, value, bad):
    """Delegated: the same value, or the same error and message, as typer's coercion alone."""
    param, cmd, app = _param(annotation, 1, **info)
    ctx = cmd.make_context("run", [])
    ours, theirs = param.get_runtime_param(), _coercion.build_runtime_param(param.type_descriptor)
    assert _outcome(ours, value, param, ctx) == _outcome(theirs, value, param, ctx)
    result = CliRunner().invoke(app, ["--x", value])
    assert (result.exit_code == 2 and "Invalid value for '--x'" in result.output) if bad else result.exit_code == 0


def test_install_is_idempotent_and_marks_typers_method():
    assert coerce.install() is False  # already installed by tubedeck.cli
    assert getattr(core._TyperParameter.get_runtime_param, "_tubedeck", False)


LINES = [["[green]valid journey[/green]", "minimum exchanges: [bold]3[/bold] (proven best (OPTIMAL), by CP-SAT); keep 1",
          "   1. keep                               King's Cross St Pancras",
          "  - Northern towards Camden Town: Elephant & Castle through Euston " + "long " * 40],
         ["[red]not a valid journey[/red]: slot 2: A and B share no line", "ünïcødé — ok", ""]]


def _rich(lines: list[str]) -> str:
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out)
    for line in lines:
        console.print(line, highlight=False, soft_wrap=True)
    return out.getvalue()


@pytest.mark.parametrize("lines", LINES)
def test_plain_lines_are_richs_on_a_pipe(lines, monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    for key in options._COLOUR_ENV:
        monkeypatch.delenv(key, raising=False)
    plain = options.plain_lines(lines)
    assert plain is not None and plain == _rich(lines)


@pytest.mark.parametrize("line", ["a [link=x]b[/link]", "time 12:30:45", "tab\there", r"esc \[green]", ":smile: hi",
                                  "[blue]x[/blue]"])
def test_text_rich_would_read_goes_through_rich(line, monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert options.plain_lines([line]) is None


def test_a_terminal_or_forced_colour_goes_through_rich(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Tty())
    assert options.plain_lines(["plain"]) is None
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert options.plain_lines(["plain"]) is None
