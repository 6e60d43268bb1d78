"""One Day in London: the minimum-exchange solver against an independent exhaustive search (on
hundreds of small random networks), the CP-SAT model (the default engine) against the exact
dynamic-programming bound on London racks, and the solve / check commands."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

from tubedeck.cli import main
from tubedeck.games.oneday.board import Board, GameStation, Run, derive_map
from tubedeck.games.oneday.cards import build_deck
from tubedeck.games.oneday.journey import validate
from tubedeck.games.oneday.recipe import load_recipe
from tubedeck.network import Line
from tubedeck.solver.oneday.exchanges import caps_for, solve_rack, state_space

# A toy map: "m" and "p" share the track b-g-h (like the Metropolitan and H&C).
TOY_RUNS = {"red": "abcde", "blue": "fcgh", "m": "bgh", "p": "ebgh"}


def toy_map(slots: int, toy_runs: dict[str, str] = TOY_RUNS) -> Board:
    names = sorted(set("".join(toy_runs.values())))
    lines_at = {s: tuple(sorted(l for l, r in toy_runs.items() if s in r)) for s in names}
    stations = {s: GameStation(s, s.upper(), 51.5, -0.1, (s,), lines_at[s]) for s in names}
    lines = {l: Line(l, l, "#000000", "#FFFFFF") for l in toy_runs}
    runs = {l: Run(l, tuple(r)) for l, r in toy_runs.items()}
    shared = ((("m", "p"), "toy"),) if {"m", "p"} <= set(toy_runs) else ()
    recipe = dataclasses.replace(load_recipe(), slots=slots, shared_track=shared)
    return Board(stations, lines, runs, tuple(frozenset(ls) for ls, _ in shared), recipe)


def random_runs(rng: random.Random) -> dict[str, str]:
    """2-4 lines over 4-7 stations; every station on some line, lines may share track."""
    names = "abcdefg"[: rng.randint(4, 7)]
    runs = {f"l{i}": "".join(rng.sample(names, rng.randint(2, min(5, len(names))))) for i in range(rng.randint(2, 4))}
    for s in names:
        if not any(s in r for r in runs.values()):
            line = rng.choice(sorted(runs))
            at = rng.randint(0, len(runs[line]))
            runs[line] = runs[line][:at] + s + runs[line][at:]
    return runs


def exhaustive_best(runs: dict[str, str], rack: str, caps: dict[str, int]) -> int | None:
    """Most kept slots over every valid journey, by depth-first search straight from the rules
    (independent of the solver's state space and of the validator)."""
    best = None

    def dfs(stops: list[str], last: tuple | None, used: dict[str, int]) -> None:
        nonlocal best
        if len(stops) == len(rack):
            kept = sum(a == b for a, b in zip(stops, rack, strict=True))
            best = kept if best is None or kept > best else best
            return
        here = stops[-1]
        for line, run in runs.items():
            if here not in run:
                continue
            for nxt in run:
                if nxt == here or used.get(nxt, 0) >= caps[nxt]:
                    continue
                d = 1 if run.index(nxt) > run.index(here) else -1
                if last and last[0] == line and last[1] != d:
                    continue  # backtracking on the same line
                if last and {last[0], line} == {"m", "p"} and "m" in runs and "p" in runs:
                    # m and p share a track: a change keeps the direction of travel along it
                    shared = [s for s in runs[last[0]] if s in runs[line]]
                    same = (runs[line].index(shared[1]) > runs[line].index(shared[0]))
                    if d != (last[1] if same else -last[1]):
                        continue
                used[nxt] = used.get(nxt, 0) + 1
                dfs(stops + [nxt], (line, d), used)
                used[nxt] -= 1

    for s in caps:
        if caps[s] > 0:
            dfs([s], None, {s: 1})
    return best


def check_against_exhaustive(gmap: Board, runs: dict[str, str], rack: str, caps: dict[str, int]) -> None:
    space = state_space(gmap)
    n = len(rack)
    expected = exhaustive_best(runs, rack, caps)
    cap_arr = np.array([caps[s] for s in space.stations])
    for engine in ("cp-sat", "auto"):
        sol = solve_rack(gmap, space, list(rack), cap_arr, engine)
        if expected is None:
            assert sol.status == "INFEASIBLE" and sol.reachable is False, (engine, runs, rack, caps)
            assert sol.journey is None
            continue
        assert sol.status == "OPTIMAL" and sol.exchanges == n - expected, (engine, runs, rack, caps, sol)
        assert sol.lower_bound == sol.exchanges
        assert validate(gmap, sol.journey.stations, n).valid
        for s in set(sol.journey.stations):
            assert sol.journey.stations.count(s) <= caps[s]
        assert sol.kept == tuple(k for k in range(1, n + 1) if sol.journey.stations[k - 1] == rack[k - 1])


def test_solver_agrees_with_exhaustive_search_on_a_small_network():
    gmap = toy_map(slots=6)
    rng = random.Random(11)
    for _ in range(60):
        rack = "".join(rng.choice("abcdefgh") for _ in range(6))
        caps = {s: rng.choice([0, 1, 1, 2, 3]) for s in "abcdefgh"}
        for s in rack:
            caps[s] = max(caps[s], 1)  # a card in the rack is in the game
        check_against_exhaustive(gmap, TOY_RUNS, rack, caps)


def test_solver_agrees_with_exhaustive_search_on_random_networks():
    """Hundreds of random small networks, racks and copy limits (some with no journey at all)."""
    rng = random.Random(2024)
    for _ in range(300):
        runs = random_runs(rng)
        slots = rng.randint(3, 6)
        gmap = toy_map(slots, runs)
        names = sorted(gmap.stations)
        rack = "".join(rng.choice(names) for _ in range(slots))
        caps = {s: rng.choice([0, 1, 1, 1, 2, 3]) for s in names}
        for s in rack:
            caps[s] = max(caps[s], rng.choice([0, 1]))  # sometimes the rack's own card is unobtainable
        check_against_exhaustive(gmap, runs, rack, caps)


@pytest.fixture(scope="module")
def game(london):
    gmap = derive_map(london, load_recipe())
    deck = build_deck(gmap)
    return gmap, deck, state_space(gmap)


def test_cp_sat_agrees_with_the_bound_on_london_deals(game):
    """CP-SAT alone (the default) against the dynamic programme, on racks from 2-4 player deals."""
    gmap, deck, space = game
    rng = random.Random(3)
    engines = set()
    for trial in range(240):
        players = 2 + trial % 3
        cards = rng.sample(deck.cards, 10 * players)
        rack = [c.station for c in cards[:10]]
        caps = caps_for(space, deck.copies(), [c.station for c in cards[10:]])
        cpsat, auto = solve_rack(gmap, space, rack, caps), solve_rack(gmap, space, rack, caps, "auto")
        assert cpsat.engine == "cp-sat" and cpsat.status == "OPTIMAL" and auto.status == "OPTIMAL"
        assert cpsat.exchanges == auto.exchanges == cpsat.lower_bound, (rack, cpsat, auto)
        assert validate(gmap, cpsat.journey.stations).valid
        used = np.bincount([space.index[s] for s in cpsat.journey.stations], minlength=len(caps))
        assert (used <= caps).all()
        engines.add(auto.engine)
    assert "bound" in engines


def test_cp_sat_status_is_reported_as_it_is(game):
    """A time limit too short to prove anything gives UNKNOWN or FEASIBLE, never INFEASIBLE."""
    gmap, deck, space = game
    rack = [c.station for c in random.Random(8).sample(deck.cards, 10)]
    best = solve_rack(gmap, space, rack, caps_for(space, deck.copies()))
    sol = solve_rack(gmap, space, rack, caps_for(space, deck.copies()), time_limit=1e-9)
    assert sol.engine == "cp-sat" and sol.status in ("UNKNOWN", "FEASIBLE", "OPTIMAL")
    assert sol.lower_bound <= best.exchanges == best.lower_bound
    if sol.status == "UNKNOWN":
        assert sol.exchanges is None and sol.reachable is None and sol.journey is None
    with pytest.raises(ValueError, match="unknown engine"):
        solve_rack(gmap, space, rack, caps_for(space, deck.copies()), "dp")


def test_a_valid_rack_needs_no_exchange_and_copies_bind(game):
    gmap, deck, space = game
    rack = ["blackfriars", "tower-hill", "aldgate", "farringdon", "baker-street", "oxford-circus",
            "elephant-castle", "kings-cross-st-pancras", "waterloo", "edgware-road-bakerloo"]
    caps = caps_for(space, deck.copies())
    assert solve_rack(gmap, space, rack, caps).exchanges == 0
    assert solve_rack(gmap, space, rack, caps).engine == "cp-sat"
    # if another player holds Farringdon, slot 4 must change
    sol = solve_rack(gmap, space, rack, caps_for(space, deck.copies(), ["farringdon"]))
    assert sol.exchanges == 1 and 4 not in sol.kept and "farringdon" not in sol.journey.stations


def run(*args: str) -> int:
    """The CLI's exit code (click exits via SystemExit on success, main returns 2 on input errors)."""
    try:
        return main(list(args))
    except SystemExit as exc:
        return int(exc.code or 0)


WIN = ("Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,Oxford Circus,Elephant and Castle,"
       "Kings Cross St. Pancras,Waterloo,Edgware Road (Bakerloo)")


def test_solve_command(capsys):
    assert run(*["solve", "oneday", "--rack", WIN, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["validation"]["valid"] and out["solution"]["exchanges"] == 0
    # the default engine is auto: the exact bound decides a rack whose journey breaks no copy limit
    assert out["solution"]["engine"] == "bound" and out["solution"]["status"] == "OPTIMAL"
    assert run(*["solve", "oneday", "--rack", WIN, "--engine", "cp-sat", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solution"]["engine"] == "cp-sat" and out["solution"]["status"] == "OPTIMAL"
    swapped = WIN.replace("Farringdon", "Pimlico")
    assert run(*["solve", "oneday", "--rack", swapped, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["validation"]["rule"] == "connect" and out["solution"]["exchanges"] == 1


@pytest.mark.parametrize("args, message", [
    (["--rack", "Bank,Monument"], "exactly 10"),
    (["--rack", WIN.replace("Blackfriars", "Blackfryers")], "did you mean"),
    (["--rack", WIN, "--engine", "magic"], "unknown value 'magic'"),
    (["--rack", WIN, "--held", "Farringdon"], "deck has 1"),
])
def test_solve_bad_input_exits_2(args, message, capsys):
    assert run(*["solve", "oneday", *args]) == 2
    assert message in capsys.readouterr().err


def test_check_command_is_resumable(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    base = ["check", "oneday", "--players", "3", "--seed", "5", "--results", str(results), "--json"]
    assert run(*[*base, "--deals", "3"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["deals"] == 3 and sum(first["exchanges"].values()) == 9 and first["unreachable"] == []
    assert run(*[*base, "--deals", "5", "--workers", "2"]) == 0
    second = json.loads(capsys.readouterr().out)
    lines = results.read_text().splitlines()
    assert len(lines) == 1 + 5 and json.loads(lines[0])["kind"] == "header"
    assert [json.loads(l)["seed"] for l in lines[1:]] == [5, 6, 7, 8, 9]
    record = json.loads(lines[1])
    assert len(record["players"]) == 3 and all(len(p["rack"]) == 10 for p in record["players"])
    assert second["closest_player"]["exchanges"] <= first["closest_player"]["exchanges"]
    assert run(*["check", "oneday", "--players", "4", "--seed", "5", "--results", str(results), "--deals", "1"]) == 2


@pytest.mark.parametrize("players", ["1", "5"])
def test_check_players_out_of_range(players, capsys):
    assert run(*["check", "oneday", "--players", players, "--deals", "1"]) == 2
    assert "2-4" in capsys.readouterr().err


def test_buried_discards_are_not_at_hand(capsys):
    """--held alone is the optimistic bound; --buried follows the text (only pile tops are drawn):
    bury the card the optimistic target journey draws, and the new target does without it."""
    swapped = WIN.replace("Farringdon", "Pimlico")
    assert run(*["solve", "oneday", "--rack", swapped, "--json"]) == 0
    free = json.loads(capsys.readouterr().out)["solution"]
    drawn = [s for s, k in zip(free["journey"]["stations"], range(10), strict=False) if s not in SWAPPED_IDS]
    assert drawn, free
    from tubedeck.game import edition
    from tubedeck.games import get

    copies = edition(get("oneday")).deck.copies()[drawn[0]]  # bury every copy
    assert run(*["solve", "oneday", "--rack", swapped, "--buried", ",".join([drawn[0]] * copies), "--json"]) == 0
    text = json.loads(capsys.readouterr().out)["solution"]
    assert text["exchanges"] >= free["exchanges"] and drawn[0] not in text["journey"]["stations"]


SWAPPED_IDS = {"blackfriars", "tower-hill", "aldgate", "pimlico", "baker-street", "oxford-circus", "elephant-castle",
               "kings-cross-st-pancras", "waterloo", "edgware-road-bakerloo"}


# -- check oneday's declared record (tubedeck.games.oneday.records.CHECK) -----------------------
def test_check_records_are_declared_and_pass_their_validator(tmp_path, capsys):
    from tubedeck.games import record_schema
    from tubedeck.games.oneday.records import CHECK, SEVERITY

    results = tmp_path / "r.jsonl"
    assert run(*["check", "oneday", "--players", "2", "--deals", "2", "--results", str(results), "--no-progress"]) == 0
    capsys.readouterr()
    lines = [json.loads(l) for l in results.read_text().splitlines()]
    header, records = lines[0], lines[1:]
    assert (header["mode"], header["version"]) == ("check", CHECK.version)
    assert record_schema(header) is CHECK and CHECK.field("closest").kind == "seat"
    for r in records:
        assert CHECK.validate(r, 2) is None
        assert r["status"] == max((p["status"] for p in r["players"]), key=SEVERITY.index)
    r = records[0]
    other = 1 if r["closest"] == 2 else 2
    for bad, why in (({**r, "status": "UNKNOWN"}, "worst"), ({**r, "closest": other}, "closest"),
                     ({**r, "closest": 3}, "'closest' must be a seat 1-2"), ({**r, "players": r["players"][:1]}, "2 players"),
                     ({**r, "players": [{**r["players"][0], "reachable": None}, r["players"][1]]}, "reachable"),
                     ({**r, "players": [{**r["players"][0], "exchanges": None}, r["players"][1]]}, "fit status")):
        assert why in CHECK.validate(bad, 2), bad


def test_a_check_file_of_the_old_version_is_refused(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    args = ["check", "oneday", "--players", "2", "--deals", "1", "--results", str(results), "--no-progress"]
    assert run(*args) == 0
    lines = results.read_text().splitlines()
    old = {k: v for k, v in json.loads(lines[0]).items() if k not in ("mode", "version")}
    results.write_text(json.dumps(old) + "\n" + lines[1] + "\n")
    capsys.readouterr()
    assert run(*args) == 2
    assert "mode" in capsys.readouterr().err


def test_the_check_summary_names_the_game_and_says_what_it_counts(tmp_path, capsys):
    """It began "2 deals, 4 players" and named "player 3 of seed 1": a title, and what each count is."""
    from conftest import run_cli

    code, out, _ = run_cli(capsys, "check", "oneday", "--deals", "2", "--no-progress",
                           "--results", str(tmp_path / "r.jsonl"))
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("One Day in London: 2 deals, 4 players")
    assert "fewest exchanges to a journey, player by player (exchanges: players):" in lines
    assert " of seed " not in out
