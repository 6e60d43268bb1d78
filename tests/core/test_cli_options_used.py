"""Every option of every command is read by its implementation (issue 26, item 9): a command
takes only the options it uses, and the combinations the issue found ignored are refused.

The commands are registered afresh on new typer apps with their bodies wrapped, so each run
records which of its parameters the body read; the library underneath (targets, runner, print
engine) is replaced by stubs that accept what the command hands them, so this is fast and checks
the command layer. The deal targets' own signatures are checked to name what they are handed."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer

from tubedeck.cli import build as build_cli
from tubedeck.cli import options as options_cli
from tubedeck.cli import run as run_cli
from tubedeck.game import resolve
from tubedeck.games import registry


class Reads(dict):
    """A dict that records the keys read (``[]``, ``get``, ``pop``, ``in``, iteration)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read: set[str] = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def pop(self, key, *default):
        self.read.add(key)
        return super().pop(key, *default)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)

    def __iter__(self):  # also defeats dict's fast copy path, so {**values} reads through keys()
        self.read.update(super().keys())
        return super().__iter__()

    def keys(self):  # type: ignore[override]
        self.read.update(super().keys())
        return super().keys()


@pytest.fixture()
def commands(monkeypatch):
    """(path, click command, record) for every generated command, with stubs underneath."""
    seen: dict[str, Reads] = {}

    def tracking(name, doc, params, body):
        def wrapped(values):
            reads = Reads(values)
            seen[name] = reads
            return body(reads)
        return options_cli.command(name, doc, params, wrapped)

    monkeypatch.setattr(run_cli, "command", tracking)
    monkeypatch.setattr(build_cli, "command", tracking)
    handed: dict[str, dict] = {}

    class Summary:
        def describe(self):
            return []

        def as_dict(self):
            return {}

        def failures(self):
            return None

    def fake_target(target):
        def call(*args, **kwargs):
            handed[target] = kwargs
            return SimpleNamespace(as_dict=dict, describe=list, header=dict)
        return call

    monkeypatch.setattr(run_cli, "resolve", fake_target)
    monkeypatch.setattr(run_cli, "edition", lambda game, data, **own: None)
    import tubedeck.solver.runner as runner

    monkeypatch.setattr(runner, "run_check", lambda *a, **k: Summary())
    monkeypatch.setattr(runner, "default_results", lambda *a: Path("results.jsonl"))
    monkeypatch.setattr(build_cli, "documents_of", lambda game, job, **own: [])
    monkeypatch.setattr(build_cli, "print_manifest", lambda *a, **k: None)
    from tubedeck.generator.engine import Manifest

    monkeypatch.setattr(build_cli.BuildJob, "render", lambda self, name, docs, game=None: Manifest(""))
    apps = {verb: typer.Typer() for verb in ("build", "check", "solve", "play", "simulate")}
    for app in apps.values():
        app.callback()(lambda: None)
    run_cli.register(apps["check"], apps["solve"], apps["play"], apps["simulate"])
    build_cli.register(apps["build"])
    return apps, seen, handed


def _cases():
    cases = []
    for game in registry().values():
        for verb, cmds in (("check", game.checks), ("solve", game.solves), ("play", game.plays),
                           ("simulate", game.simulations)):
            cases += [(verb, c.name, list(c.example)) for c in cmds]
        if game.faces:
            cases.append(("build", game.id, []))
    return cases


@pytest.mark.parametrize("verb,name,example", _cases(), ids=[f"{v} {n}" for v, n, _ in _cases()])
def test_every_option_is_read(commands, verb, name, example, tmp_path, monkeypatch):
    apps, seen, _ = commands
    monkeypatch.chdir(tmp_path)
    click = typer.main.get_command(apps[verb])
    result_args = [name, *example] + (["--out", str(tmp_path)] if verb == "build" else [])
    try:
        click.main(result_args, standalone_mode=False)
    except SystemExit:
        pass
    reads = seen.get(f"build_{name}" if verb == "build" else name)
    assert reads is not None, f"{verb} {name} did not run"
    unread = sorted(set(dict.keys(reads)) - reads.read)  # dict.keys: reading the keys here marks nothing
    assert not unread, f"`tubedeck {verb} {name}` takes {unread} but never reads them"


@pytest.mark.parametrize("verb,cmds", [("check", "checks"), ("simulate", "simulations")])
def test_deal_targets_name_what_they_are_handed(verb, cmds):
    """A deals command hands its target --players and --deal-limit (as ``time_limit``, a deal's
    budget) only if it takes them; the target must name each one (not swallow it in **options).
    --time-limit, the whole command's wall clock, is the runner's alone."""
    for game in registry().values():
        for cmd in getattr(game, cmds):
            if cmd.kind != "deals":
                continue
            taken = run_cli.shared_options(cmd, simulation=verb == "simulate")
            params = inspect.signature(resolve(cmd.target)).parameters
            for name, param in (("players", "players"), ("deal_limit", "time_limit")):
                if name in taken:
                    assert param in params, f"{verb} {cmd.name} takes --{name.replace('_', '-')}; its target ignores it"


REFUSED = [
    ["simulate", "keepmoving", "--games", "1", "--deal-limit", "1"],
    ["simulate", "keepmoving", "--games", "1", "--retry-unknown"],
    ["check", "nextstation", "--deals", "1", "--players", "3"],
    ["check", "klm", "--deals", "1", "--scheduler", "tcp://localhost:1"],  # needs --runner dask
    ["simulate", "nextstation", "--games", "1", "--players", "1", "--deal-limit", "5"],  # only with --optimum
]


@pytest.mark.parametrize("args", REFUSED, ids=[" ".join(a) for a in REFUSED])
def test_options_a_command_does_not_use_are_refused(args, tmp_path, monkeypatch, capsys):
    from tubedeck.cli import main

    monkeypatch.chdir(tmp_path)
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert not (tmp_path / "output").exists()  # refused before anything ran


def test_simulate_require_all_reads_as_a_simulation():
    from tubedeck.cli import app

    sim = typer.main.get_command(app).commands["simulate"].commands["keepmoving"]
    helps = {p.name: p.help for p in sim.params}
    assert "without a winner" in helps["require_all"]
    assert "deal_limit" not in helps and "retry_unknown" not in helps
    assert "whole command" in helps["time_limit"]


def test_an_option_that_needs_another_is_refused_alone(tmp_path, monkeypatch, capsys):
    """simulate nextstation reads --deal-limit only for --optimum: alone it is refused."""
    from conftest import run_cli

    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "simulate", "nextstation", "--games", "1", "--players", "1", "--deal-limit", "5")
    assert code == 2 and "--deal-limit only works with --optimum" in err
    assert not (tmp_path / "output").exists()
