"""A build of unchanged inputs is kept (tubedeck.buildcache): the second build of the same game,
options, data and code into the same folder loads no edition and draws nothing, and gives the same
files and manifest; any edit to the data, an option, or a file in the folder builds it again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tubedeck import buildcache, game
from tubedeck.cli import build as build_cmd

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent.parent
TINY = ROOT / "tests" / "data" / "tinycity"


@pytest.fixture
def made(monkeypatch, tmp_path):
    """Each build's editions made (game ids, in order), stamps in this test's own cache folder."""
    monkeypatch.setenv("TUBEDECK_BUILD_CACHE", str(tmp_path / "stamps"))
    calls: list[str] = []
    real = build_cmd.documents_of

    def counting(game, job, **options):
        calls.append(game.id)
        return real(game, job, **options)

    monkeypatch.setattr(build_cmd, "documents_of", counting)
    return calls


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _build(capsys, data: Path, out: Path, *more: str) -> dict:
    code, text, err = run_cli(capsys, "build", "sampler", "--data", str(data), "--out", str(out), "--json", *more)
    assert code == 0, err
    return json.loads(text)


def test_the_same_inputs_are_kept_with_the_same_bytes_and_manifest(tmp_path, capsys, made, monkeypatch):
    first = _build(capsys, TINY, tmp_path / "a")
    files = _files(tmp_path / "a")
    assert made == ["sampler"] and len(files) > 3
    second = _build(capsys, TINY, tmp_path / "a")
    assert made == ["sampler"], "the second build of the same inputs made its edition again"
    assert second == first and _files(tmp_path / "a") == files
    monkeypatch.setenv("TUBEDECK_BUILD_CACHE", "off")  # built whole again: the same bytes as kept
    third = _build(capsys, TINY, tmp_path / "a")
    assert made == ["sampler", "sampler"] and third == first and _files(tmp_path / "a") == files
    assert not [p for p in (tmp_path / "a").rglob(".*")], "the output folder holds only what the build writes"


def test_a_data_edit_builds_again(tmp_path, capsys, made):
    data = tmp_path / "city"
    shutil.copytree(TINY, data)
    _build(capsys, data, tmp_path / "out")
    before = _files(tmp_path / "out" / "sampler")
    stations = data / "stations.csv"
    stations.write_text(stations.read_text(encoding="utf-8").replace("Bravo Cross", "Bravo Crossing"),
                        encoding="utf-8")
    game.network.cache_clear()  # (the dataset as a new process reads it: this one kept it loaded)
    game._edition.cache_clear()
    _build(capsys, data, tmp_path / "out")
    assert made == ["sampler", "sampler"]
    assert _files(tmp_path / "out" / "sampler") != before  # the new name is drawn
    _build(capsys, data, tmp_path / "out")
    assert made == ["sampler", "sampler"]  # and kept from then on


def test_another_option_or_a_touched_output_builds_again(tmp_path, capsys, made):
    out = tmp_path / "out"
    _build(capsys, TINY, out)
    _build(capsys, TINY, out, "--mode", "greyscale")
    assert made == ["sampler", "sampler"]
    grey = _files(out)
    (out / "sampler" / "stations.pdf").write_bytes(b"edited by hand")
    _build(capsys, TINY, out, "--mode", "greyscale")
    assert made == ["sampler"] * 3 and _files(out) == grey
    (out / "sampler" / "extra.txt").write_text("a file the build did not write")
    _build(capsys, TINY, out, "--mode", "greyscale")
    assert made == ["sampler"] * 4 and _files(out) == grey


def test_build_all_keeps_each_game_and_writes_the_same_output(tmp_path, capsys, made, monkeypatch):
    only = {g: f for g, f in build_cmd.buildable().items() if g in ("sampler", "keepmoving")}
    monkeypatch.setattr(build_cmd, "buildable", lambda: only)
    args = ["build", "all", "--data", str(TINY), "--out", str(tmp_path / "out")]
    first = run_cli(capsys, *args)
    files = _files(tmp_path / "out")
    second = run_cli(capsys, *args)
    assert first[0] == second[0] == 0 and first[1] == second[1]  # the summary and the manifest
    assert _files(tmp_path / "out") == files
    assert sorted(made) == sorted(set(made)), made  # each game's edition made once


def test_the_key_covers_the_code_and_the_data(tmp_path, monkeypatch):
    from tubedeck.generator import PrintOptions

    options = PrintOptions.parse(export="pdf")
    data = tmp_path / "city"
    shutil.copytree(TINY, data)
    key = buildcache.build_key("sampler", options, data, {})
    assert key == buildcache.build_key("sampler", options, data, {})
    assert key != buildcache.build_key("klm", options, data, {})
    assert key != buildcache.build_key("sampler", PrintOptions.parse(export="pdf", mode="greyscale"), data, {})
    (data / "lines.csv").write_bytes((data / "lines.csv").read_bytes() + b"\n")
    assert key != buildcache.build_key("sampler", options, data, {})
    edited = buildcache.build_key("sampler", options, data, {})
    monkeypatch.setattr(buildcache, "code_digest", lambda: "another version of the code")
    assert edited != buildcache.build_key("sampler", options, data, {})
    sources = {str(p.relative_to(buildcache._PACKAGE)) for p in buildcache._files(buildcache._PACKAGE)}
    assert {"buildcache.py", "generator/engine.py", "generator/pdf.py", "solver/oneday/exchanges.py"} <= sources
