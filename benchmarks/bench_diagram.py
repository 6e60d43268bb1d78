"""The octilinear layout engine (generator/diagram) on growing windows of a city's centre.

For each radius: the stations in the window, the model's size, CP-SAT's status, objective and
bound within the deterministic budget, the CPU it took, and what the independent validator finds
(every edge pair checked, not only the near ones the model separates).

    .venv/bin/python benchmarks/bench_diagram.py [--data new-york --centre times-sq-42-st] [--det 30]

With ``--oneday``: One Day's whole map (London: 62 stations; New York: 69) by the windowed search
(``lns``) as the build runs it (its spec, budget and start), with the broken separations left, the
cost, the windows and the CPU it took, and the names a line touches once placed at 7 pt on A4
landscape (against the drawing from geography).

    .venv/bin/python benchmarks/bench_diagram.py --oneday [--data new-york] [--budget 3]
"""

from __future__ import annotations

import argparse
import math
import time

from tubedeck.game import network
from tubedeck.generator.diagram import from_network, lns, problems, solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=None)
    ap.add_argument("--centre", default="oxford-circus")
    ap.add_argument("--radii", default="1.5,2.0,2.5,3.0")
    ap.add_argument("--det", type=float, default=30.0, help="CP-SAT deterministic seconds per window")
    ap.add_argument("--oneday", action="store_true", help="One Day's whole map by the windowed search")
    ap.add_argument("--budget", type=float, default=None, help="deterministic seconds in all (--oneday)")
    args = ap.parse_args()
    if args.oneday:
        oneday(args.data, args.budget)
        return
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


def oneday(data: str | None, budget: float | None) -> None:
    from tubedeck.game import edition
    from tubedeck.games import registry
    from tubedeck.generator import fonts
    from tubedeck.generator.diagram.model import fit
    from tubedeck.generator.oneday import map as od
    from tubedeck.generator.sizes import Rect

    gmap = edition(registry()["oneday"], data).board
    cut = od.board_cut(gmap)
    t = time.process_time()
    lay = lns(cut, od.DIAGRAM, budget=budget or od.DIAGRAM_BUDGET, first=od.DIAGRAM_FIRST)
    cpu = time.process_time() - t
    print(f"stations {len(cut.points)} edges {len(cut.edges)} status {lay.status} cost {lay.objective:g} "
          f"stats {lay.stats} cpu_s {cpu:.1f}")
    if not lay.positions:
        return
    safe = Rect(12.7, 12.7, 297 - 25.4, 210 - 25.4)
    area = Rect(safe.x, safe.y + 20, safe.w, safe.h - 30)
    box = Rect(area.x + 24, area.y + 4, area.w - 42, area.h - 8)
    at, scale = fit(lay.positions, box.x, box.y, box.w, box.h)
    for kind, where in (("diagram", at), ("geography", od.relax(gmap, od.project(gmap, box)))):
        drawn = od.strokes(gmap, where)
        labels = od.place_labels(fonts.text_width, gmap, where, drawn, od.LABEL_SIZE, area)
        touched = sorted(gmap.name(s) for s, lab in labels.items() if od.label_crossings(lab, drawn))
        print(f"{kind}: {len(touched)} names touched by a line {touched}" + (f", grid step {scale:.1f} mm" if kind == "diagram" else ""))


if __name__ == "__main__":
    main()
