"""One Day in London: the solver's explanation of a journey ("District towards Upminster: Blackfriars
through Tower Hill to Aldgate (at Aldgate East)"), every printed leg checked against data/routes.csv.

The check reads the dataset's CSV files itself (not the game's map): a leg names one line; its stops,
in order, are stations one branch of that line calls at (a merged game station names the one it
calls at: the District calls at Aldgate East, not Aldgate); "towards Y" is that branch's end in the
direction of travel. The legs join up and cover the journey, slot 1 to slot 10.
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict

import pytest

from tubedeck.content import data_root
from tubedeck.games.oneday.edition import load
from tubedeck.solver.oneday.exchanges import solve_one

LEG = re.compile(r"^  - (?P<line>.+?) towards (?P<towards>.+?): (?P<stops>.+)$")
AT = re.compile(r"^(?P<game>.+) \(at (?P<called>.+)\)$")


class Routes:
    """data/routes.csv, stations.csv and lines.csv as read by this test alone."""

    def __init__(self) -> None:
        root = data_root()
        with open(root / "stations.csv", encoding="utf-8") as f:
            self.name = {r["id"]: r["name"] for r in csv.DictReader(f)}
        with open(root / "lines.csv", encoding="utf-8") as f:
            self.line_id = {r["name"]: r["id"] for r in csv.DictReader(f)}
        seqs: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
        with open(root / "routes.csv", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                seqs[(r["line"], r["branch"])].append((int(r["seq"]), r["station"]))
        self.branches: dict[str, list[list[str]]] = defaultdict(list)
        for (line, _), seq in sorted(seqs.items()):
            self.branches[line].append([s for _, s in sorted(seq)])
        self.ids_named: dict[str, list[str]] = defaultdict(list)
        for ident, name in self.name.items():
            self.ids_named[name].append(ident)

    def calls(self, line: str, stop: str) -> set[str]:
        """The stations of ``line`` a printed stop can be: "Aldgate (at Aldgate East)" is Aldgate
        East; "Paddington" is a station of the line named Paddington or "Paddington (...)"."""
        on_line = {s for b in self.branches[line] for s in b}
        m = AT.match(stop)
        if m:
            return set(self.ids_named[m["called"]]) & on_line
        return {s for s in on_line if self.name[s] == stop or self.name[s].startswith(stop + " (")}


def leg_problems(routes: Routes, text: str) -> list[str]:
    """What is wrong with one printed leg (empty: it is right)."""
    m = LEG.match(text)
    if not m:
        return [f"{text!r} is not 'LINE towards Y: A [through B, C] to D'"]
    line = routes.line_id.get(m["line"])
    if line is None:
        return [f"{text!r}: no line {m['line']!r}"]
    first, last = m["stops"].rsplit(" to ", 1)
    stops = first.split(" through ")[0:1] + (first.split(" through ", 1)[1].split(", ") if " through " in first else [])
    stops.append(last)
    cands = [routes.calls(line, s) for s in stops]
    missing = [s for s, c in zip(stops, cands) if not c]
    if missing:
        return [f"{text!r}: the {m['line']} does not call at {', '.join(missing)}"]
    towards = set(routes.ids_named.get(m["towards"], ()))
    for branch in routes.branches[line]:
        pos = {s: i for i, s in enumerate(branch)}
        for calls in _choices([sorted(c & set(pos)) for c in cands]):
            idx = [pos[s] for s in calls]
            steps = {(b > a) - (b < a) for a, b in zip(idx, idx[1:])}
            if len(steps) != 1 or 0 in steps:
                continue
            end = branch[-1] if steps == {1} else branch[0]
            if end in towards:
                return []
    return [f"{text!r}: no branch of the {m['line']} calls at these stops in this order towards {m['towards']} "
            "(its end that way)"]


def _choices(options: list[list[str]]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for opts in options:
        out = [o + [s] for o in out for s in opts]
    return out


def journey_problems(report, routes: Routes) -> list[str]:
    """Every leg right, and the legs' stops join up and hold the journey's stops in order."""
    gmap, journey = report.gmap, report.solution.journey
    legs = [line for line in report.describe() if line.startswith("  - ")]
    problems = [p for leg in legs for p in leg_problems(routes, leg)]
    if problems:
        return problems
    names = []  # the stops of all legs, a leg's first stop being the previous leg's last
    for leg in legs:
        first, last = LEG.match(leg)["stops"].rsplit(" to ", 1)
        stops = [AT.sub(r"\g<game>", s) for s in re.split(" through |, ", first) + [last]]
        if names and names[-1] != stops[0]:
            problems.append(f"{leg!r} starts at {stops[0]}, the leg before ends at {names[-1]}")
        names += stops[1:] if names else stops
    wanted = [gmap.name(s) for s in journey.stations]
    it = iter(names)
    if names[0] != wanted[0] or names[-1] != wanted[-1] or not all(w in it for w in wanted):
        problems.append(f"the legs' stops {names} do not hold the journey {wanted} in order")
    return problems


@pytest.fixture(scope="module")
def edition(london):
    return load(london)


@pytest.fixture(scope="module")
def routes():
    return Routes()


README_RACK = ("Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,Oxford Circus,Elephant & Castle,"
               "King's Cross St Pancras,Waterloo,Edgware Road (Bakerloo)")


def test_the_readme_example_is_explained_by_lines_that_serve_it(edition, routes):
    report = solve_one(edition, README_RACK)
    legs = [line[4:] for line in report.describe() if line.startswith("  - ")]
    assert legs == [
        "District towards Upminster: Blackfriars through Tower Hill to Aldgate (at Aldgate East)",
        "Metropolitan towards Harrow-on-the-Hill: Aldgate through Farringdon to Baker Street",
        "Bakerloo towards Elephant & Castle: Baker Street through Oxford Circus to Elephant & Castle",
        "Northern towards Camden Town: Elephant & Castle through King's Cross St Pancras to Euston",
        "Northern towards Kennington: Euston to Waterloo",
        "Bakerloo towards Harrow & Wealdstone: Waterloo to Edgware Road (Bakerloo)",
    ]
    assert journey_problems(report, routes) == []
    ride = report.solution.journey.as_dict()["rides"][0]
    assert ride["legs"] == [{"line": "district", "towards": "upminster", "stops": ["blackfriars", "tower-hill", "aldgate"],
                             "calls": ["blackfriars", "tower-hill", "aldgate-east"]}]


def test_a_district_ride_through_earls_court_is_two_legs(edition, routes):
    """The game's District is one run from Edgware Road to Aldgate; a rider changes at Earl's Court."""
    rack = ("Edgware Road (Circle Line),Paddington,Victoria,Westminster,Green Park,Bond Street,Notting Hill Gate,"
            "Earl's Court,Aldgate East,Liverpool Street")
    report = solve_one(edition, rack)
    assert report.verdict.valid, report.verdict.message
    legs = [line[4:] for line in report.describe() if line.startswith("  - ")]
    assert legs[:2] == ["District towards Earl's Court: Edgware Road (Hammersmith & City) through Paddington to Earl's Court",
                        "District towards Upminster: Earl's Court through Victoria to Westminster"]
    assert journey_problems(report, routes) == []


def test_the_check_catches_the_old_explanation(routes):
    assert leg_problems(routes, "  - District towards Aldgate: Blackfriars through Tower Hill to Aldgate")
    assert leg_problems(routes, "  - District towards Aldgate: Edgware Road (Hammersmith & City) to Paddington")
    assert leg_problems(routes, "  - Northern towards Waterloo: Elephant & Castle through King's Cross St Pancras to Waterloo")
    assert not leg_problems(routes, "  - District towards Earl's Court: Edgware Road (Hammersmith & City) to Paddington")


@pytest.mark.parametrize("seed", range(50))
def test_every_leg_of_dealt_racks_explained_is_on_its_line(edition, routes, seed):
    """50 four-player deals: each rack's target journey (the other racks held), every leg checked."""
    deal = edition.deal(4, seed)
    gmap = edition.board
    for p, rack in enumerate(deal.racks):
        held = [c.station for q, other in enumerate(deal.racks) if q != p for c in other]
        report = solve_one(edition, ",".join(gmap.name(c.station) for c in rack),
                           held=",".join(gmap.name(s) for s in held))
        if report.solution.journey is None:
            continue
        assert journey_problems(report, routes) == [], (seed, p)
