"""The printed maps as diagrams, measured from the PDFs: Tube Dice sheets for several scopes and
cities (A4), each built in a fresh process with an empty user cache (so a map the shipped cache
does not hold is solved and timed).

Per map: stations, whether the diagram drew it (or geography, with the reason), the share of line
stroke length at a multiple of 45 degrees, strokes crossing away from stations, the least distance
between two station centres (mm), and the build's CPU seconds.

    .venv/bin/python benchmarks/bench_maps.py
"""

from __future__ import annotations

import math
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pymupdf

from tubedeck.generator.diagram.measure import read

MAPS = [  # (dataset, scope or None for the recipe's)
    ("london", None),
    ("london", "zone 1 within 1.5 km"),
    ("london", "all except circle,hammersmith-city in zones 1-2 within 1.8 km"),
    ("london", "bakerloo,central,jubilee,northern,piccadilly,victoria in zone 1 within 2 km"),
    ("new-york", None),
    ("new-york", "zones 1-2 within 1.5 km"),
    ("new-york", "zones 1-2 within 2.5 km"),
]
MM = 72 / 25.4
RADIUS = 3.3


def circles(page) -> list[tuple[float, float]]:
    out = []
    for d in page.get_drawings():
        r = d["rect"]
        if d.get("fill") == (1.0, 1.0, 1.0) and abs(r.width - 2 * RADIUS * MM) < 0.3 and abs(r.height - r.width) < 0.3:
            out.append(((r.x0 + r.x1) / 2 / MM, (r.y0 + r.y1) / 2 / MM))
    return out


def main() -> None:
    print("| dataset | scope | stations | drawn by | octilinear | crossings | closest stations | build CPU |")
    print("|---|---|---|---|---|---|---|---|")
    for data, scope in MAPS:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-m", "tubedeck", "build", "dice", "--data", data, "--out", tmp]
            if scope:
                cmd += ["--scope", scope]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(cmd, capture_output=True, text=True,
                                  env=dict(os.environ, TUBEDECK_CACHE=str(Path(tmp) / "cache")))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            if done.returncode:
                print(f"| {data} | {scope or 'recipe'} | - | refused: {done.stderr.strip().splitlines()[-1][:80]} |"
                      " - | - | - | - |")
                continue
            why = next((line.split("drawn from geography: ")[1] for line in done.stderr.splitlines()
                        if "drawn from geography" in line), "")
            with pymupdf.open(Path(tmp) / "dice" / "sheet.pdf") as pdf:
                page = pdf[0]
                at = circles(page)
                got = read(page, pymupdf.Rect(0, 0, page.rect.width * 0.64, page.rect.height))
            closest = min(math.dist(p, q) for i, p in enumerate(at) for q in at[:i])
            print(f"| {data} | {scope or 'recipe'} | {len(at)} | {'geography: ' + why if why else 'diagram'} | "
                  f"{got.octilinear_share:.0%} | {got.crossings} | {closest:.1f} mm | {cpu:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
