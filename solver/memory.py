"""How much memory this machine has available now: the one place the solvers read it (a local
Dask cluster's ``--workers`` bound, :mod:`tubedeck.solver.distributed`; how many lines Next Station's
tables may list, research/nextstation/pairs.py)."""

from __future__ import annotations

import os


def available_memory() -> int | None:
    """Bytes available now: psutil's figure where it is installed (Dask brings it), else Linux's
    MemAvailable, else the free pages; None where the system does not say."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except Exception:  # noqa: BLE001 - not installed, or no figure from it: ask the system
        pass
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, AttributeError):
        return None
