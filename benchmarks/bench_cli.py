"""Command-line start-up: whole-process wall time, median of several runs (not a test).

    .venv/bin/python benchmarks/bench_cli.py [--runs 9]

Targets (the structure issue): ``tubedeck --version`` and ``--help`` within 2.5x the time of
``python -c "import typer"``; a one-shot ``solve oneday --rack ...`` (issue 26, item 6) at most
0.3 s on a quiet machine and at most 5x ``import typer``, measured side by side in this run. Also
printed, to show where a one-shot solve's time goes: the bare imports a rack to mend needs (typer
with the pydantic coercion a typed number goes through, and numpy for the exact bound), the same
solve of a rack to mend (slots 2 and 3 swapped: the bound runs, numpy imported), and the same solve
with ``--engine cp-sat``, which imports OR-Tools' ``cp_model`` (and pandas). The rack of record is
already a journey: it is answered by the validator, with no numpy, pydantic or rich imported.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RACK = ("Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,Oxford Circus,Elephant & Castle,"
        "King's Cross St Pancras,Waterloo,Edgware Road (Bakerloo)")
MEND = ",".join((lambda r: [r[0], r[2], r[1], *r[3:]])(RACK.split(",")))  # not a journey: the bound runs
CASES = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import typer'": [sys.executable, "-c", "import typer"],
    "tubedeck --version": [str(BIN / "tubedeck"), "--version"],
    "tubedeck --help": [str(BIN / "tubedeck"), "--help"],
    "tubedeck games": [str(BIN / "tubedeck"), "games"],
    "import typer + typer._adapters (pydantic)": [sys.executable, "-c", "import typer, typer._adapters"],
    "import numpy": [sys.executable, "-c", "import numpy"],
    "import ortools cp_model (+pandas)": [sys.executable, "-c", "import ortools.sat.python.cp_model"],
    "tubedeck solve oneday --rack ...": [str(BIN / "tubedeck"), "solve", "oneday", "--rack", RACK],
    "tubedeck solve oneday --rack (to mend)": [str(BIN / "tubedeck"), "solve", "oneday", "--rack", MEND],
    "tubedeck solve oneday --rack ... --engine cp-sat": [str(BIN / "tubedeck"), "solve", "oneday", "--rack", RACK,
                                                         "--engine", "cp-sat"],
}


def wall(cmd: list[str], runs: int) -> list[float]:
    subprocess.run(cmd, capture_output=True, check=True)  # warm the file cache and bytecode
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    med = {}
    for name, cmd in CASES.items():
        times = wall(cmd, args.runs)
        med[name] = statistics.median(times)
        print(f"{name:<44} median {1000 * med[name]:6.0f} ms  (min {1000 * min(times):5.0f}, "
              f"max {1000 * max(times):5.0f}, {args.runs} runs)")
    typer_t = med["python -c 'import typer'"]
    for name in ("tubedeck --version", "tubedeck --help"):
        ratio = med[name] / typer_t
        print(f"{name}: {ratio:.2f}x import typer (target <= 2.5x): {'ok' if ratio <= 2.5 else 'MISSED'}")
    solve = med["tubedeck solve oneday --rack ..."]
    floor = med["import typer + typer._adapters (pydantic)"] + med["import numpy"] - med["python -c pass"]
    print(f"solve oneday: {1000 * solve:.0f} ms (target <= 300 ms on a quiet machine): "
          f"{'ok' if solve <= 0.3 else 'MISSED'}; {solve / typer_t:.2f}x import typer ({1000 * typer_t:.0f} ms, "
          f"target <= 5x): {'ok' if solve <= 5 * typer_t else 'MISSED'}")
    print(f"  a rack to mend (the bound, numpy): {1000 * med['tubedeck solve oneday --rack (to mend)']:.0f} ms; "
          f"the imports it needs alone (typer + pydantic + numpy) about {1000 * floor:.0f} ms; "
          f"with --engine cp-sat (OR-Tools imported): "
          f"{1000 * med['tubedeck solve oneday --rack ... --engine cp-sat']:.0f} ms")


if __name__ == "__main__":
    main()
