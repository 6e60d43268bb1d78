"""The installed tool finds its own data: ``data/`` ships inside the wheel as ``tubedeck.data``.

The wheel test builds a real wheel (pip, no network: the venv's setuptools), unpacks it, and runs
the command line from ``/`` with only the unpacked wheel on the path for tubedeck's own code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_list_covers_every_package_and_data_folder():
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    # tubedeck/generator and tubedeck/solver are links to the top-level folders: walked as folders
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "tubedeck").rglob("__init__.py")
             if p.relative_to(ROOT).parts[1] not in ("generator", "solver")}
    found |= {".".join(("tubedeck",) + p.parent.relative_to(ROOT).parts) for pkg in ("generator", "solver")
              for p in (ROOT / pkg).rglob("__init__.py")}
    found |= {"tubedeck.data"} | {f"tubedeck.data.{p.name}" for p in (ROOT / "data").iterdir()
                                  if p.is_dir() and p.name != "cities"}  # cities: package data of tubedeck.data
    assert declared == found, f"pyproject.toml [tool.setuptools] packages: add {sorted(found - declared)}, " \
                              f"drop {sorted(declared - found)}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    try:
        import setuptools  # noqa: F401
    except ImportError:
        pytest.skip("setuptools is not installed in this environment (make test installs it with pip)")
    out, src = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("src")
    # Build from a copy: an in-tree build would write build/ and *.egg-info into the checkout.
    for name in ("pyproject.toml", "README.md", "data", "tubedeck", "generator", "solver"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy2
        copy(ROOT / name, src / name, **({"ignore": shutil.ignore_patterns("__pycache__")} if copy is shutil.copytree else {}))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out), str(src)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return next(out.glob("tubedeck-*.whl"))


def test_the_wheel_carries_the_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for rel in ("stations.csv", "lines.csv", "routes.csv", "README.md", "klm/fortune.csv", "klm/scopes.csv",
                "klm/rules.toml", "oneday/recipe.toml", "cities/new-york/stations.csv",
                "cities/new-york/routes.csv", "cities/new-york/lines.csv", "cities/new-york/city.toml"):
        assert f"tubedeck/data/{rel}" in names, rel


def test_the_wheel_installs_only_the_tubedeck_namespace(wheel):
    """Nothing generic lands in site-packages: the print engine and the solver install as
    tubedeck.generator and tubedeck.solver (from the checkout's top-level generator/ and solver/)."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"tubedeck", next(t for t in tops if t.endswith(".dist-info"))}, sorted(tops)
    for rel in ("generator/pen.py", "solver/runner.py", "solver/nextstation/solve.py"):
        assert f"tubedeck/{rel}" in names, rel
    assert not any(n.startswith("tubedeck/research") or n.startswith("research/") for n in names)


def test_the_unpacked_wheel_runs_from_the_root_directory(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    code = ("import sys, tubedeck; assert tubedeck.__file__.startswith(sys.argv[1]), tubedeck.__file__; "
            "from tubedeck.cli import main; sys.exit(main(sys.argv[2:]))")
    out = tmp_path / "out"

    def tubedeck(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code, str(site), *args], cwd="/", env=env,
                              capture_output=True, text=True, timeout=300)

    check = tubedeck("data", "check", "--json")
    assert check.returncode == 0, check.stderr
    assert '"stations": 272' in check.stdout and str(site) in check.stdout
    built = tubedeck("build", "oneday", "--out", str(out), "--export", "pdf")
    assert built.returncode == 0, built.stderr
    assert (out / "oneday" / "stations.pdf").is_file()
    solved = tubedeck("solve", "oneday", "--rack", "Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,"
                      "Oxford Circus,Elephant & Castle,King's Cross St Pancras,Waterloo,Edgware Road (Bakerloo)")
    assert solved.returncode == 0 and "valid journey" in solved.stdout, solved.stderr
    shutil.rmtree(out)
