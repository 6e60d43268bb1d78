"""What a one-shot command imports (issue 26, item 6): no timing here (benchmarks/bench_cli.py
times it), only which heavy modules a command loads, read from ``sys.modules`` in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys

RACK = ("Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,Oxford Circus,Elephant & Castle,"
        "King's Cross St Pancras,Waterloo,Edgware Road (Bakerloo)")
HEAVY = ("ortools.sat.python.cp_model", "ortools", "pandas", "reportlab", "networkx")

PROBE = """
import json, sys
from tubedeck.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:  # typer's standalone mode ends with SystemExit
    code = exc.code
print(json.dumps({"code": code, "loaded": [m for m in %r if m in sys.modules]}), file=sys.stderr)
""" % (HEAVY,)


def _loaded(*args: str) -> tuple[int, list[str], str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=300)
    answer = json.loads(proc.stderr.strip().splitlines()[-1])
    return answer["code"], answer["loaded"], proc.stdout


def test_one_shot_solve_oneday_does_not_import_cp_sat():
    """The default engine answers this rack with the exact bound, so OR-Tools (and pandas) stay out."""
    code, loaded, out = _loaded("solve", "oneday", "--rack", RACK)
    assert code == 0
    assert "minimum exchanges: 0 (OPTIMAL, bound)" in out
    assert "ortools.sat.python.cp_model" not in loaded and "pandas" not in loaded, loaded
    assert "networkx" not in loaded and "reportlab" not in loaded, loaded


def test_cp_sat_engine_still_imports_cp_sat():
    """The probe can fail: asking for CP-SAT does load it."""
    code, loaded, out = _loaded("solve", "oneday", "--rack", RACK, "--engine", "cp-sat")
    assert code == 0
    assert "(OPTIMAL, cp-sat)" in out
    assert "ortools.sat.python.cp_model" in loaded
