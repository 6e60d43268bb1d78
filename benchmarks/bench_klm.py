"""Keep London Moving checker: deals per second (workers 1 and 2) and peak memory over many deals.

    .venv/bin/python benchmarks/bench_klm.py [--deals 2000] [--memory-deals 100000] [--scope all] [--engine auto]

CP-SAT decides every player of every deal (one model per deal), or with ``--engine auto`` the
exhaustive path search (exact; CP-SAT only for graphs too large for it). Throughput is measured through
the same :func:`tubedeck.solver.runner.run_deals` the CLI uses (no results file, no progress bar); peak
RSS is the parent's and the largest worker's, read from ``getrusage`` after the run.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tubedeck.solver.klm.check import KlmCheck, Summary  # noqa: E402
from tubedeck.solver.runner import run_deals  # noqa: E402


def rss_mib(pid: int | str = "self") -> float:
    """Resident memory of a process now (Linux /proc), in MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def throughput(job: KlmCheck, deals: int, workers: int, first: int = 0,
               samples: list | None = None) -> tuple[float, Summary]:
    """Deals per second through the runner; ``samples`` collects (deals done, parent MiB, workers MiB)."""
    summary = Summary(job.players)
    start = time.perf_counter()
    step = max(1, deals // 10)
    for i, record in enumerate(run_deals(job, list(range(first, first + deals)), {}, None, workers, progress=False), 1):
        summary.add(record)
        if samples is not None and i % step == 0:
            kids = [rss_mib(c.pid) for c in mp.active_children()]
            samples.append((i, rss_mib(), max(kids, default=0.0)))
    return deals / (time.perf_counter() - start), summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--memory-deals", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--scope", default=None)
    ap.add_argument("--engine", default="cp-sat", choices=("cp-sat", "auto"))
    args = ap.parse_args()
    job = KlmCheck(args.players, args.scope, engine=args.engine)
    print(f"scope {job.edition().scope.label!r}, {job.players} players, engine {args.engine}")
    for workers in (1, 2):
        rate, summary = throughput(job, args.deals, workers)
        print(f"workers={workers}: {rate:7.1f} deals/s over {args.deals} deals "
              f"({100 * summary.share:.1f}% winnable, statuses {dict(summary.statuses)})")
    if args.memory_deals:
        start = time.perf_counter()
        samples: list = []
        rate, summary = throughput(job, args.memory_deals, 2, first=10**6, samples=samples)
        for done, parent, worker in samples:
            print(f"  after {done:>7} deals: parent RSS {parent:6.1f} MiB, largest worker RSS {worker:6.1f} MiB")
        me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"memory run: {args.memory_deals} deals, workers=2, {rate:.1f} deals/s, "
              f"{time.perf_counter() - start:.0f} s; peak RSS parent {me:.0f} MiB, largest worker {kids:.0f} MiB "
              f"({100 * summary.share:.1f}% winnable)")


if __name__ == "__main__":
    main()
