"""Property: whatever the options and whatever bytes are in the data, recipe and results files,
the command line answers with exit 0, 1 or 2 and a message, never a traceback, and leaves
nothing half-written. Driven in-process with bounded examples (a few seconds each)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli, toy_dataset

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "data" / "tinycity"
TINY_RECIPE = ROOT / "tests" / "data" / "tinycity_oneday.toml"
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

edits = st.lists(st.tuples(st.integers(0, 10**6), st.binary(min_size=0, max_size=6), st.integers(0, 8)),
                 min_size=1, max_size=4)


def mutate(data: bytes, changes) -> bytes:
    """Overwrite, insert or delete a few bytes at positions spread over the file."""
    out = bytearray(data)
    for pos, new, cut in changes:
        at = pos % (len(out) + 1)
        out[at:at + cut] = new
    return bytes(out)


def leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".part") or ".staging-" in p.name]


def check_exit(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err, err


@FUZZ
@given(name=st.sampled_from(["stations.csv", "lines.csv", "routes.csv"]), changes=edits)
def test_data_check_on_edited_bytes(capsys, name, changes):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "d"
        shutil.copytree(TINY, d)
        (d / name).write_bytes(mutate((d / name).read_bytes(), changes))
        code, _, err = run_cli(capsys, "data", "check", "--data", str(d))
        check_exit(code, err)


@FUZZ
@given(changes=edits, rack=st.text(max_size=40))
def test_solve_oneday_on_an_edited_recipe(capsys, changes, rack):
    with tempfile.TemporaryDirectory() as tmp:
        recipe = Path(tmp) / "r.toml"
        recipe.write_bytes(mutate(TINY_RECIPE.read_bytes(), changes))
        code, _, err = run_cli(capsys, "solve", "oneday", "--data", str(TINY), "--recipe", str(recipe),
                               "--rack", rack or "x", "--time-limit", "2")
        check_exit(code, err)


@FUZZ
@given(changes=edits, deals=st.integers(-3, 6), seed=st.integers(-5, 10**20),
       workers=st.sampled_from([-1, 0, 1, 1000]), limit=st.sampled_from(["0", "-1", "nan", "inf", "0.001", "5", "1e300"]))
def test_check_klm_on_an_edited_results_file(capsys, changes, deals, seed, workers, limit):
    with tempfile.TemporaryDirectory() as tmp:
        data = toy_dataset(Path(tmp) / "d")
        results = Path(tmp) / "r.jsonl"
        base = ["check", "klm", "--data", str(data), "--scope", "all", "--players", "2", "--no-progress",
                "--results", str(results)]
        assert run_cli(capsys, *base, "--deals", "3")[0] == 0
        results.write_bytes(mutate(results.read_bytes(), changes))
        code, _, err = run_cli(capsys, *base, "--deals", str(deals), "--seed", str(seed), "--workers", str(workers),
                               "--time-limit", limit)
        check_exit(code, err)
        assert not leftovers(Path(tmp))


@FUZZ
@given(option=st.sampled_from(["--paper", "--card", "--bleed", "--gap", "--marks", "--duplex", "--back-offset",
                               "--mode", "--export", "--pod", "--dpi", "--orientation"]),
       value=st.one_of(st.text(max_size=12), st.integers(-10**9, 10**9).map(str),
                       st.floats(allow_nan=True, allow_infinity=True).map(str)))
def test_build_with_random_option_values(capsys, option, value):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        code, _, err = run_cli(capsys, "build", "sampler", "--data", str(TINY), "--out", str(out),
                               "--export", "pdf", option, value)
        check_exit(code, err)
        assert not leftovers(Path(tmp))
        if code != 0:
            assert not (out / "sampler").exists()  # a refused build writes nothing
