"""Every command that can run over 2 s shows progress from its start (tubedeck.progress: nothing
for 2 s, then a live line on a terminal, a line every 10 s otherwise): play, solve, check and
simulate of every game, loading included (Next Station's generated map 1 takes seconds). The
progress clock is a counting clock (conftest.CountingClock, a second a look), so a command's
progress speaks after its second look on any machine, however fast or loaded; only its own
clock is replaced, so the work runs as ever."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

import tubedeck.progress as progress

from conftest import CountingClock, run_cli


@pytest.fixture
def counted(monkeypatch):
    clock = CountingClock(1.0)
    monkeypatch.setattr(progress, "time", SimpleNamespace(monotonic=clock, perf_counter=time.perf_counter))
    return clock


def _progress_lines(err: str, label: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(label + ": ")]


PLAYS = [("klm", ()), ("oneday", ()), ("dice", ()), ("keepmoving", ()), ("nextstation", ())]
RACK = ("Bank,Monument,Tower Hill,Aldgate,Liverpool Street,Moorgate,Barbican,Farringdon,Euston Square,"
        "Baker Street")
SOLVES = [("klm", ("--players", "2")), ("oneday", ("--rack", RACK)), ("dice", ("--rolls", "3")), ("keepmoving", ("--seed", "1")),
          ("nextstation", ())]


@pytest.mark.parametrize(("verb", "game", "extra"), [("play", g, e) for g, e in PLAYS]
                         + [("solve", g, e) for g, e in SOLVES])
def test_play_and_solve_show_progress_from_the_start(counted, capsys, verb, game, extra):
    code, out, err = run_cli(capsys, verb, game, *extra)
    assert code == 0, err
    lines = _progress_lines(err, f"{verb} {game}")
    assert lines, err  # the command's own progress spoke: loading, then the work
    assert lines[0].startswith(f"{verb} {game}: phase "), lines
    assert out.strip()  # the answer on stdout as ever, none of it on stderr
    assert not any(line.startswith(f"{verb} {game}") for line in out.splitlines())


@pytest.mark.parametrize("verb", ["play", "solve"])
def test_json_keeps_stderr_quiet(counted, capsys, verb):
    code, out, err = run_cli(capsys, verb, "klm", "--players", "2", "--json")
    assert code == 0 and out.lstrip().startswith("{")
    assert not _progress_lines(err, f"{verb} klm"), err


CHECKS = [("check", "klm", ("--deals", "2")), ("check", "oneday", ("--deals", "1")),
          ("check", "nextstation", ("--deals", "1")),
          ("simulate", "klm", ("--games", "2")), ("simulate", "oneday", ("--games", "1")),
          ("simulate", "dice", ("--games", "2")), ("simulate", "keepmoving", ("--games", "2")),
          ("simulate", "nextstation", ("--games", "1"))]


@pytest.mark.parametrize(("verb", "game", "extra"), CHECKS)
def test_check_and_simulate_show_progress_from_the_start(counted, capsys, tmp_path, verb, game, extra):
    results = tmp_path / "r.jsonl"
    code, out, err = run_cli(capsys, verb, game, *extra, "--results", str(results))
    assert code == 0, err
    lines = _progress_lines(err, f"{verb} {game}")
    assert lines and lines[0].startswith(f"{verb} {game}: phase "), err  # the command's own, before the runner's
    code, _, err = run_cli(capsys, verb, game, *extra, "--results", str(tmp_path / "q.jsonl"), "--no-progress")
    assert code == 0 and not _progress_lines(err, f"{verb} {game}"), err


def test_a_progress_opened_inside_another_shows_through_it(counted):
    """The runner's or a solver's progress inside a command's: one line, the inner one's label and
    count, on the outer one's clock (quiet 2 s from the command's start, not again from the inner's)."""
    import io

    out = io.StringIO()
    with progress.Progress("check klm", stream=out, tty=False) as outer:
        outer.update(phase="loading")  # 1 s in: quiet
        with progress.Progress("klm zone 1 x4", 10, stream=out, tty=False) as inner:  # (its start: 2 s)
            inner.update(advance=1)  # 3 s on the outer clock, 1 s on its own: a line, the inner's
            inner.update(advance=1)  # 4 s: within 10 s of the last, quiet
        assert inner.lines == 0  # it printed nothing itself
        outer.update()
    assert out.getvalue().splitlines() == ["klm zone 1 x4: 1/10, 3 s"]
    assert outer.lines == 1
