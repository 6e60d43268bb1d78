"""``tubedeck build all``: whole-process wall time of a first build and of a second build of the same
inputs into the same folder (kept: tubedeck.buildcache), median of several runs (not a test).

    .venv/bin/python benchmarks/bench_build.py [--runs 3] [--skip nextstation,dice]

Target (the speed goals): ``build all`` at most 3 s wall on a warm cache. Each first build writes
into a new folder with a new stamp folder (nothing kept); the second builds run into the last one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def timed(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True, env=env)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip", default="", help="as build all --skip (make run: nextstation,dice)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cold, warm = [], []
        for i in range(args.runs):
            env = dict(os.environ, TUBEDECK_BUILD_CACHE=str(Path(tmp) / f"stamps-{i}"))
            cmd = [str(BIN / "tubedeck"), "build", "all", "--out", str(Path(tmp) / f"out-{i}")]
            cmd += ["--skip", args.skip] if args.skip else []
            cold.append(timed(cmd, env))
        for _ in range(args.runs):
            warm.append(timed(cmd, env))
    for name, times in (("first build", cold), ("second build, same inputs", warm)):
        print(f"build all {name:<28} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, "
              f"max {max(times):.2f}, {args.runs} runs)")
    med = statistics.median(warm)
    print(f"warm build: {med:.2f} s (target <= 3 s): {'ok' if med <= 3 else 'MISSED'}")


if __name__ == "__main__":
    main()
