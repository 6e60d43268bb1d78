"""Where a command's work goes, said before it starts and shown as it is written (issue 26,
items 7 and 8): ``build`` lists files as it writes them on a terminal, ``check``/``simulate``
print the full path of their results file before they run, ``build --facts-from`` takes a
results file; and advice for a missing extra that works for the way tubedeck was installed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tubedeck.cli import build as build_cli

from conftest import run_cli


def test_build_lists_files_as_written_on_a_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build_cli, "terminal", lambda: True)
    code, out, err = run_cli(capsys, "build", "klm", "--out", str(tmp_path / "o"))
    assert code == 0, err
    written = [line.split("wrote ", 1)[1] for line in err.splitlines() if line.startswith("wrote ")]
    on_disk = sorted(str(p) for p in (tmp_path / "o").rglob("*") if p.is_file() and not p.name.startswith("."))
    assert sorted(w.split(" (")[0] for w in written) == on_disk
    assert any("pages)" in w for w in written)
    in_game = [p for p in on_disk if "/o/klm/" in p]
    assert f"Wrote {len(in_game)} files" in out  # the summary still follows on stdout (OUT/README.pdf
    # is the index of every game folder, written after the game's own files)
    assert str(tmp_path / "o" / "README.pdf") in on_disk and str(tmp_path / "o" / "klm" / "README.pdf") in on_disk


def test_build_listing_writes_the_same_files_as_one_render(tmp_path, monkeypatch, capsys):
    """Rendering document by document (to list them) gives the same bytes and manifest order."""
    monkeypatch.setattr(build_cli, "terminal", lambda: True)
    code, listed, err = run_cli(capsys, "build", "klm", "--out", str(tmp_path / "a"), "--json")
    assert code == 0 and "wrote" not in err  # --json: nothing listed
    code, _, err = run_cli(capsys, "build", "klm", "--out", str(tmp_path / "b"))
    assert code == 0, err
    monkeypatch.setattr(build_cli, "terminal", lambda: False)
    code, whole, _ = run_cli(capsys, "build", "klm", "--out", str(tmp_path / "c"), "--json")
    assert [f["path"] for f in json.loads(listed)["files"]] == [f["path"] for f in json.loads(whole)["files"]]
    for p in (tmp_path / "c").rglob("*"):
        if p.is_file():
            assert (tmp_path / "b" / p.relative_to(tmp_path / "c")).read_bytes() == p.read_bytes(), p


def test_batches_keep_a_shared_sheet_together():
    from types import SimpleNamespace as D

    docs = [D(name="a", share=None), D(name="b", share="s"), D(name="c", share=None), D(name="d", share="s"),
            D(name="e", share=None)]
    assert [[d.name for d in b] for b in build_cli.batches(docs)] == [["a"], ["b", "c", "d"], ["e"]]
    assert len(build_cli.batches(docs, whole=True)) == 1
    assert len(build_cli.batches(docs + [D(name="a", share=None)])) == 1  # a repeated name: the engine refuses


def test_results_path_is_printed_before_the_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    import tubedeck.solver.runner as runner

    seen = {}

    def stop(*args, **kwargs):
        seen["err"] = capsys.readouterr().err  # what was printed before the run started
        raise KeyboardInterrupt()

    monkeypatch.setattr(runner, "run_check", stop)
    code, _, _ = run_cli(capsys, "simulate", "keepmoving", "--games", "1", "--no-progress")
    assert code == 130
    expected = tmp_path / "output" / "checks" / "keepmoving-sim-greedy-greedy-p2-s0.jsonl"
    assert f"results: {expected}" in seen["err"]


def test_build_facts_from_a_results_file(tmp_path, monkeypatch, capsys):
    import pymupdf

    monkeypatch.chdir(tmp_path)
    results = tmp_path / "elsewhere" / "km.jsonl"
    code, _, err = run_cli(capsys, "simulate", "keepmoving", "--games", "2", "--players", "2", "--no-progress",
                           "--results", str(results))
    assert code == 0, err
    code, _, err = run_cli(capsys, "build", "keepmoving", "--facts", "--export", "pdf", "--out", "o")
    assert code == 2 and str(tmp_path / "output" / "checks") in err and "--facts-from" in err
    code, _, err = run_cli(capsys, "build", "oneday", "--facts-from", str(results), "--export", "pdf", "--out", "o")
    assert code == 2 and "not a results file of oneday" in err
    code, _, err = run_cli(capsys, "build", "keepmoving", "--facts-from", str(results), "--export", "pdf",
                           "--out", "o")
    assert code == 0, err
    with pymupdf.open(tmp_path / "o" / "keepmoving" / "deck-facts.pdf") as pdf:
        assert "Deck facts: keepmoving" in pdf[0].get_text()


# -- advice for a missing extra -------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]


def test_advice_names_a_make_target_that_exists(monkeypatch):
    from tubedeck import install

    monkeypatch.setattr(sys, "prefix", str(ROOT / ".venv"))
    makefile = (ROOT / "Makefile").read_text()
    for extra in ("cluster", "report"):
        advice = install.install_advice(extra)
        assert advice.endswith(f"install-{extra}") and str(ROOT) in advice
        assert f"\ninstall-{extra}:" in makefile


def test_advice_under_pipx_and_plain_pip(monkeypatch, tmp_path):
    from tubedeck import install

    monkeypatch.setattr(sys, "prefix", str(tmp_path / "pipx" / "venvs" / "tubedeck"))
    assert install.install_advice("report") == "pipx inject tubedeck 'matplotlib>=3.8'"
    assert install.install_advice("cluster") == "pipx inject tubedeck 'distributed>=2024.1'"
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    advice = install.install_advice("report")
    assert advice.endswith("-m pip install 'matplotlib>=3.8'") and "tubedeck[" not in advice


def test_missing_extras_say_what_works(monkeypatch):
    """The messages themselves, with the import failing (sys.modules entry None)."""
    from tubedeck.errors import UsageError

    monkeypatch.setattr(sys, "prefix", str(ROOT / ".venv"))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    import importlib

    plots = importlib.import_module("tubedeck.generator.report.plots")  # the package re-exports a function "plots"

    with pytest.raises(UsageError, match="make -C .* install-report"):
        plots._pyplot()
    monkeypatch.setitem(sys.modules, "distributed", None)
    from tubedeck.solver.distributed import dask_executor

    with pytest.raises(UsageError, match="make -C .* install-cluster"):
        with dask_executor(1):
            pass
