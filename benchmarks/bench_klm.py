"""Keep London Moving checker: deals per second (workers 1 and 2) and peak memory over many deals.

    .venv/bin/python benchmarks/bench_klm.py [--deals 2000] [--memory-deals 100000] [--scope all] [--engine auto] [--runs 1]

CP-SAT decides every player of every deal (one model per deal), or with ``--engine auto`` the
exhaustive path search (exact; CP-SAT only for graphs too large for it). Throughput is measured through
the same :func:`tubedeck.solver.runner.run_deals` the CLI uses (no results file, no progress bar), with
the CPU time a deal took in the parent (the runner, the pool's threads, the summary) and in the
workers (``getrusage``; with one worker the parent does it all); ``--runs`` repeats each figure
and prints each run and the range, since a shared machine moves them. Peak RSS is the parent's
and the largest worker's, read from ``getrusage`` after the run.
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


def cpu_seconds(who: int) -> float:
    use = resource.getrusage(who)
    return use.ru_utime + use.ru_stime


def throughput(job: KlmCheck, deals: int, workers: int, first: int = 0,
               samples: list | None = None) -> tuple[float, Summary, float, float]:
    """Deals per second through the runner and CPU ms a deal in the parent and in the workers
    (reaped when the run ends); ``samples`` collects (deals done, parent MiB, workers MiB)."""
    summary = Summary(job.players)
    parent, kids = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    step = max(1, deals // 10)
    for i, record in enumerate(run_deals(job, list(range(first, first + deals)), {}, None, workers, progress=False), 1):
        summary.add(record)
        if samples is not None and i % step == 0:
            rss = [rss_mib(c.pid) for c in mp.active_children() if c.pid is not None]
            samples.append((i, rss_mib(), max(rss, default=0.0)))
    rate = deals / (time.perf_counter() - start)
    parent = 1000 * (cpu_seconds(resource.RUSAGE_SELF) - parent) / deals
    return rate, summary, parent, 1000 * (cpu_seconds(resource.RUSAGE_CHILDREN) - kids) / deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--memory-deals", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--scope", default=None)
    ap.add_argument("--engine", default="cp-sat", choices=("cp-sat", "auto"))
    ap.add_argument("--runs", type=int, default=1, help="runs of each figure (the same seeds each time)")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, got {args.runs}")
    job = KlmCheck(args.players, args.scope, engine=args.engine)
    print(f"scope {job.edition().scope.label!r}, {job.players} players, engine {args.engine}")
    for workers in (1, 2):
        rates = []
        for _ in range(args.runs):
            rate, summary, parent, kids = throughput(job, args.deals, workers)
            rates.append(rate)
            print(f"workers={workers}: {rate:7.1f} deals/s over {args.deals} deals; CPU a deal {parent + kids:.3f} ms "
                  f"(parent {parent:.3f}, workers {kids:.3f}) ({100 * summary.share:.1f}% winnable, "
                  f"statuses {dict(summary.statuses)})")
        if args.runs > 1:
            rates.sort()
            print(f"workers={workers}: {args.runs} runs, deals/s min {rates[0]:.0f}, median "
                  f"{rates[len(rates) // 2]:.0f}, max {rates[-1]:.0f}")
    if args.memory_deals:
        start = time.perf_counter()
        samples: list = []
        rate, summary, _, _ = throughput(job, args.memory_deals, 2, first=10**6, samples=samples)
        for done, parent, worker in samples:
            print(f"  after {done:>7} deals: parent RSS {parent:6.1f} MiB, largest worker RSS {worker:6.1f} MiB")
        me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"memory run: {args.memory_deals} deals, workers=2, {rate:.1f} deals/s, "
              f"{time.perf_counter() - start:.0f} s; peak RSS parent {me:.0f} MiB, largest worker {kids:.0f} MiB "
              f"({100 * summary.share:.1f}% winnable)")


if __name__ == "__main__":
    main()
