"""Throughput per runner: local processes (1 and 2 workers) and a local Dask cluster, through
the same runner ``tubedeck check`` uses, with a results file written as a real run does.

    .venv/bin/python benchmarks/bench_scale.py [--deals 4000] [--engine auto]

Prints deals/s per runner, the Dask cluster's start-up time, a byte comparison of the results
files, and the projected time for 10 million deals on N cores from the measured per-deal cost.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.solver.distributed import Runner  # noqa: E402
from tubedeck.solver.klm.check import KlmCheck  # noqa: E402
from tubedeck.solver.runner import run_check  # noqa: E402


def timed(job, deals: int, workers: int, runner, path: Path) -> float:
    start = time.perf_counter()
    run_check(job, range(deals), path, workers, progress=False, runner=runner)
    return deals / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--engine", default="auto", choices=("auto", "cp-sat"))
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    job = KlmCheck(args.players, engine=args.engine)
    job.edition()
    print(f"klm check, scope {job.edition().scope.label!r}, {args.players} players, engine {args.engine}, "
          f"{args.deals} deals")
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, workers, runner in (("local, 1 worker", 1, None), ("local, 2 workers", 2, None),
                                      ("dask local cluster, 2 workers", 2, Runner("dask"))):
            if runner is not None and importlib.util.find_spec("distributed") is None:
                print(f"{name}: skipped (pip install 'tubedeck[cluster]')")
                continue
            path = Path(tmp) / f"{len(files)}.jsonl"
            if runner is not None:
                from tubedeck.solver.distributed import dask_executor

                t0 = time.perf_counter()
                with dask_executor(2):
                    pass
                print(f"  a local Dask cluster of 2 workers starts and stops in {time.perf_counter() - t0:.2f} s")
            rate = timed(job, args.deals, workers, runner, path)
            files[name] = path.read_bytes()
            print(f"{name:32s} {rate:8.1f} deals/s")
            if workers == 1:
                per_deal = 1 / rate
        same = len(set(files.values())) == 1
        print(f"results files byte-identical across runners: {same}")
        for cores in (2, 16, 64, 256):
            hours = 10_000_000 * per_deal / cores / 3600
            print(f"  10 million deals on {cores:3d} cores (linear from 1 worker): {hours:6.2f} h")


if __name__ == "__main__":
    main()
