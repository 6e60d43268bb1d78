"""The octilinear layout engine (generator/diagram) on growing windows of a city's centre.

For each radius: the stations in the window, the model's size, CP-SAT's status, objective and
bound within the deterministic budget, the CPU it took, and what the independent validator finds
(every edge pair checked, not only the near ones the model separates).

    .venv/bin/python benchmarks/bench_diagram.py [--data new-york --centre times-sq-42-st] [--det 30]
"""

from __future__ import annotations

import argparse
import math
import time

from tubedeck.game import network
from tubedeck.generator.diagram import from_network, problems, solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=None)
    ap.add_argument("--centre", default="oxford-circus")
    ap.add_argument("--radii", default="1.5,2.0,2.5,3.0")
    ap.add_argument("--det", type=float, default=30.0, help="CP-SAT deterministic seconds per window")
    args = ap.parse_args()
    net = network(args.data)
    c = net.stations[args.centre]
    print("radius_km stations edges separations status objective bound bends cpu_s det_s validator_problems")
    for r in (float(v) for v in args.radii.split(",")):
        keep = {s for s, st in net.stations.items()
                if math.hypot((st.lat - c.lat) * 111.2, (st.lon - c.lon) * 111.2 * math.cos(math.radians(c.lat))) <= r}
        cut = from_network(net, keep)
        t = time.process_time()
        lay = solve(cut, det_time=args.det)
        cpu = time.process_time() - t
        found = len(problems(cut, lay.positions, 2)) if lay.positions else "-"
        print(f"{r:g} {lay.stats['stations']} {lay.stats['edges']} {lay.stats['separations']} {lay.status} "
              f"{lay.objective:g} {lay.bound:g} {lay.bends} {cpu:.1f} {lay.stats['det_time']} {found}", flush=True)


if __name__ == "__main__":
    main()
