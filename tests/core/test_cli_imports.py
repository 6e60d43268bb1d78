"""What a one-shot command imports (issue 26, item 6): no timing here (benchmarks/bench_cli.py
times it), only which heavy modules a command loads, read from ``sys.modules`` in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

RACK = ("Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,Oxford Circus,Elephant & Castle,"
        "King's Cross St Pancras,Waterloo,Edgware Road (Bakerloo)")
HEAVY = ("ortools.sat.python.cp_model", "ortools", "pandas", "reportlab", "networkx", "numpy", "pydantic", "rich")

PROBE = """
import json, sys
from tubedeck.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:  # typer's standalone mode ends with SystemExit
    code = exc.code
games = [m for m in sys.modules if m.startswith("tubedeck.games.") and m.count(".") > 2]  # past a declaration
print(json.dumps({"code": code, "loaded": [m for m in %r if m in sys.modules] + games}), file=sys.stderr)
""" % (HEAVY,)


def _loaded(*args: str) -> tuple[int, list[str], str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=300)
    answer = json.loads(proc.stderr.strip().splitlines()[-1])
    return answer["code"], answer["loaded"], proc.stdout


def test_one_shot_solve_oneday_does_not_import_cp_sat():
    """The default engine answers this rack with the exact bound, so OR-Tools (and pandas) stay out."""
    code, loaded, out = _loaded("solve", "oneday", "--rack", RACK)
    assert code == 0
    assert "minimum exchanges: 0 (proven best (OPTIMAL), by the exact bound)" in out
    assert "ortools.sat.python.cp_model" not in loaded and "pandas" not in loaded, loaded
    assert "networkx" not in loaded and "reportlab" not in loaded, loaded


def test_one_shot_solve_oneday_of_a_journey_loads_no_numpy_pydantic_rich_or_other_games():
    """The one-shot start-up budget (benchmarks/RESULTS.md): a rack that is already a journey needs no
    state space (numpy), its plain options no pydantic (typer's checks), its lines on a pipe no rich,
    and no other game's edition is read."""
    code, loaded, out = _loaded("solve", "oneday", "--rack", RACK)
    assert code == 0 and out.startswith("valid journey\nminimum exchanges: 0 ")
    assert not set(loaded) & {"numpy", "pydantic", "rich"}, loaded
    assert [m for m in loaded if m.startswith("tubedeck.games.oneday.")]  # (the probe sees game modules)
    assert not [m for m in loaded if m.startswith("tubedeck.games.") and ".oneday." not in m], loaded


def test_a_rack_to_mend_still_runs_the_bound_with_numpy():
    """The probe can fail: a rack that is not a journey runs the exact bound (numpy), and a typed
    number (--time-limit) or a bad one still goes through typer's own checks."""
    swapped = RACK.split(",")
    swapped[1], swapped[2] = swapped[2], swapped[1]
    code, loaded, out = _loaded("solve", "oneday", "--rack", ",".join(swapped), "--time-limit", "5")
    assert code == 0 and "not a valid journey" in out and "numpy" in loaded and "pydantic" in loaded, loaded
    code, loaded, out = _loaded("solve", "oneday", "--rack", RACK, "--time-limit", "soon")
    assert code == 2 and "pydantic" in loaded


def test_cp_sat_engine_still_imports_cp_sat():
    """The probe can fail: asking for CP-SAT does load it."""
    code, loaded, out = _loaded("solve", "oneday", "--rack", RACK, "--engine", "cp-sat")
    assert code == 0
    assert "(proven best (OPTIMAL), by CP-SAT)" in out
    assert "ortools.sat.python.cp_model" in loaded


# -- every command of every game: what it loads, step by step ------------------------------------
# The heavy libraries a command may load (docs/layout.md: "imported only where used"), by verb and
# game, as measured: the network (networkx) where an edition reads it, numpy where an exact search
# runs on arrays, CP-SAT (ortools, which brings pandas) where a model is solved, ortools' graph
# assignment in Next Station's map generator, reportlab and PyMuPDF (contact sheets) only in a
# build. Never: matplotlib (report only), Dask (--runner dask only), research/.
STEPS = ("play", "simulate", "solve", "check")  # each allowed set holds the one before it for a game
LIBRARIES = ("ortools", "numpy", "pandas", "matplotlib", "distributed", "dask", "reportlab", "pymupdf",
             "networkx", "research")
CP_SAT = {"numpy", "ortools", "pandas"}
ALLOWED = {
    # Next Station plays map 1 (a generated map, the first make run prints) by default: its
    # generator assigns stations by ortools' min-cost flow (the graph module, not CP-SAT)
    "play": {"klm": {"networkx"}, "oneday": {"numpy"}, "dice": {"networkx"}, "keepmoving": set(),
             "nextstation": {"ortools"}},
    "solve": {"klm": {"networkx"} | CP_SAT, "oneday": {"numpy"}, "dice": {"networkx"} | CP_SAT, "keepmoving": set(),
              "nextstation": CP_SAT},
    "check": {"klm": {"networkx"} | CP_SAT, "oneday": CP_SAT, "nextstation": CP_SAT},
    "build": {"klm": {"networkx"}, "oneday": set(), "dice": {"networkx"}, "keepmoving": set(),
              "nextstation": {"ortools"}, "sampler": set()},
}
ALLOWED["simulate"] = ALLOWED["play"]
PRINTING = {"reportlab", "pymupdf"}

STEPPED = """
import json, sys
from tubedeck.cli import main
seen = set()
for args in json.loads(sys.argv[1]):
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    loaded = {m.split(".")[0] for m in sys.modules} & set(%r)
    print(json.dumps({"args": args, "code": code, "new": sorted(loaded - seen)}), file=sys.stderr)
    seen |= loaded
""" % (LIBRARIES,)


def _steps(commands: list[list[str]]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-c", STEPPED, json.dumps(commands)], capture_output=True, text=True,
                          timeout=900)
    return [json.loads(line) for line in proc.stderr.splitlines() if line.startswith('{"args"')]


@pytest.mark.parametrize("gid", ["klm", "oneday", "dice", "keepmoving", "nextstation", "sampler"])
def test_every_command_imports_only_what_it_uses(gid, tmp_path):
    """Each of the game's commands (its examples, as the contract test runs them) in a fresh
    process, play first: what each step loads that no step before it did is in its allowed set."""
    from tubedeck.games import get

    game = get(gid)
    commands = []
    for verb in STEPS:
        for c in {"play": game.plays, "simulate": game.simulations, "solve": game.solves, "check": game.checks}[verb]:
            extra = ["--results", str(tmp_path / f"{verb}-{c.name}.jsonl"), "--no-progress"] if c.kind == "deals" else []
            commands.append([verb, c.name, *c.example, *extra])
    steps = _steps(commands) if commands else []
    build = _steps([["build", gid, "--out", str(tmp_path / "out"), "--export", "pdf"]])
    assert len(steps) == len(commands) and len(build) == 1
    for step in steps + build:
        verb = step["args"][0]
        assert step["code"] == 0, step
        new, allowed = set(step["new"]), ALLOWED[verb][gid] | (PRINTING if verb == "build" else set())
        assert new <= allowed, f"{' '.join(step['args'][:2])} imports {sorted(new - allowed)}"
        assert verb == "build" or not new & PRINTING, step
    if game.plays:  # the rules engine and bots alone: no solver library (but a map generator's), no print engine
        assert not ({"ortools", "pandas", "reportlab", "pymupdf"} - ALLOWED["play"][gid]) & set(steps[0]["new"]), \
            steps[0]
