"""``tubedeck report``: any game's results file as a self-contained HTML page and a PDF."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess

import pymupdf
import pytest

from conftest import run_cli as run

pytestmark = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                reason="matplotlib is not installed (pip install 'tubedeck[report]'; make test does)")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    import sys

    from tubedeck.cli import main

    root = tmp_path_factory.mktemp("results")
    files = {
        "check": root / "klm-check.jsonl",
        "core": root / "klm-core.jsonl",
        "inner": root / "klm-inner.jsonl",
        "oneday": root / "oneday.jsonl",
    }
    argv = {
        "check": ["check", "klm", "--deals", "20", "--players", "3", "--engine", "auto"],
        "core": ["simulate", "klm", "--games", "12", "--players", "3"],
        "inner": ["simulate", "klm", "--games", "12", "--players", "3", "--scope", "inner"],
        "oneday": ["simulate", "oneday", "--games", "4", "--players", "2"],
    }
    for key, args in argv.items():
        try:
            main([*args, "--results", str(files[key]), "--no-progress", "--json"])
        except SystemExit:
            pass
    sys.stdout.flush()
    return files


def test_report_page_is_self_contained_with_plots_and_figures(results, tmp_path, capsys):
    code, out, err = run(capsys, "report", str(results["check"]), "--out", str(tmp_path), "--json")
    assert code == 0, err
    page = (tmp_path / "report.html").read_text()
    assert page.count("<svg") >= 2 and "winnable" in page and "earliest" not in err
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page fetches something"
    assert "first win turn" in page and "Solver statuses" in page and "OPTIMAL" in page
    with pymupdf.open(tmp_path / "report.pdf") as pdf:
        text = " ".join(p.get_text() for p in pdf)
        assert pdf.page_count >= 2 and "tubedeck report" in text and "winnable" in text
        assert any(p.get_images() for p in pdf)  # the plots


def test_report_compares_several_runs(results, tmp_path, capsys):
    code, _, err = run(capsys, "report", str(results["core"]), str(results["inner"]), "--out", str(tmp_path))
    assert code == 0, err
    page = (tmp_path / "report.html").read_text()
    assert "zone 1" in page and "zones 1-2" in page and "Win rate by seat" in page
    assert page.count("klm · simulate · zones 1-2") >= 2  # a section and a legend entry
    assert "[&quot;" not in page and "{&quot;" not in page  # the Run table in words, not JSON


def test_report_is_reproducible(results, tmp_path, capsys):
    for d in ("a", "b"):
        assert run(capsys, "report", str(results["oneday"]), "--out", str(tmp_path / d))[0] == 0
    assert (tmp_path / "a" / "report.html").read_bytes() == (tmp_path / "b" / "report.html").read_bytes()


@pytest.mark.parametrize("content, message", [
    ("not json\n", "not JSON"),
    ('{"seed": 1}\n', "no header line"),
    ("", "empty results file"),
])
def test_a_file_that_is_no_results_file_exits_2(tmp_path, capsys, content, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    code, _, err = run(capsys, "report", str(bad), "--out", str(tmp_path / "out"))
    assert code == 2 and message in err


CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine: 'make browser-test' installs it and runs this")
def test_the_page_renders_in_a_real_browser(results, tmp_path, capsys):
    assert run(capsys, "report", str(results["core"]), str(results["inner"]), "--out", str(tmp_path))[0] == 0
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                    "--window-size=1000,4000", (tmp_path / "report.html").as_uri()],
                   check=True, capture_output=True, timeout=120)
    with pymupdf.open(shot) as img:
        pix = img[0].get_pixmap()
    import numpy as np

    px = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    rows = np.flatnonzero((px < 200).any(axis=(1, 2)))
    assert rows.size and rows[-1] > 1500  # plots drawn below the tables, not a blank or broken page
    blue = ((px[:, :, 2] > 120) & (px[:, :, 0] < 60)).sum()  # the first palette colour: bars are visible
    assert blue > 500
    right = (px[:, 950:, :] < 200).any(axis=2).sum()  # nothing runs off the right edge
    assert right == 0
