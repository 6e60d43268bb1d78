"""``tubedeck solve|check|build oneday``: One Day in London on the command line (thin: parse,
call the library, print)."""

from __future__ import annotations

import math
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Optional

import typer

from tubedeck.errors import UsageError

from .build import BuildJob, print_command, register_builder
from .common import DataOption, JsonOption, console, print_json

ENGINES = ("auto", "cp-sat")
RecipeOption = typer.Option(None, "--recipe", help="Recipe TOML (default: data/oneday/recipe.toml).", dir_okay=False)
CopyRuleOption = typer.Option(None, "--copy-rule", help="Override the recipe's copy rule: lines-minus-one, one-per-line, single.")


def _engine(value: str) -> str:
    if value not in ENGINES:
        raise UsageError(f"unknown engine {value!r} (known: {', '.join(ENGINES)})")
    return value


def solve(rack: str, held: str, engine: str, time_limit: float, data: Optional[Path], recipe: Optional[Path],
          copy_rule: Optional[str], as_json: bool) -> None:
    from solver.oneday import caps_for, solve_rack, state_space
    from tubedeck.games.oneday import build_deck, load_map, parse_stations
    from tubedeck.games.oneday_rules import validate

    engine = _engine(engine)
    if not (math.isfinite(time_limit) and time_limit > 0):
        raise UsageError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    gmap = load_map(data, recipe, copy_rule)
    slots = gmap.recipe.slots
    stations = parse_stations(gmap, rack)
    if len(stations) != slots:
        raise UsageError(f"--rack names {len(stations)} stations; a rack holds exactly {slots}")
    others = parse_stations(gmap, held, what="--held card") if held.strip() else ()
    deck = build_deck(gmap)
    copies = deck.copies()
    for s, n in (Counter(stations) + Counter(others)).items():
        if n > copies[s]:
            raise UsageError(f"{gmap.name(s)} appears {n} times in the racks but the deck has {copies[s]} card(s)")
    verdict = validate(gmap, stations)
    space = state_space(gmap)
    sol = solve_rack(gmap, space, stations, caps_for(space, copies, others), engine, time_limit)
    if as_json:
        print_json({"rack": list(stations), "validation": verdict.as_dict(), "solution": sol.as_dict()})
        return
    console.print("[green]valid journey[/green]" if verdict.valid else f"[red]not a valid journey[/red]: {verdict.message}")
    if sol.exchanges is None:
        console.print(f"no target journey: solver status {sol.status} (at least {sol.lower_bound} exchanges)")
        return
    console.print(f"minimum exchanges: [bold]{sol.exchanges}[/bold] ({sol.status}, {sol.engine}); "
                  f"keep slots {', '.join(map(str, sol.kept)) or 'none'}")
    for k, s in enumerate(sol.journey.stations, 1):
        mark = "keep" if k in sol.kept else f"swap {gmap.name(stations[k - 1])} ->"
        console.print(f"  {k:>2}. {mark:<34} {gmap.name(s)}")
    for ride in sol.journey.rides:
        console.print(f"  - {ride.describe(gmap)}")


def check(deals: int, players: int, seed: int, workers: int, results: Optional[Path], engine: str,
          progress: bool, data: Optional[Path], recipe: Optional[Path], copy_rule: Optional[str], as_json: bool) -> None:
    from solver.oneday_check import DealChecker, Summary, default_results
    from solver.runner import run_deals
    from tubedeck.games.oneday import load_recipe

    rec = load_recipe(recipe, copy_rule)
    if not rec.players_min <= players <= rec.players_max:
        raise UsageError(f"--players must be {rec.players_min}-{rec.players_max}, got {players}")
    if deals < 1:
        raise UsageError(f"--deals must be at least 1, got {deals}")
    checker = DealChecker(players, str(data) if data else None, str(recipe) if recipe else None, copy_rule,
                          _engine(engine))
    path = results or default_results(players, seed)
    summary = Summary()
    for record in run_deals(checker, list(range(seed, seed + deals)), checker.header(seed), path, workers,
                            progress and not as_json, "oneday deals"):
        summary.add(record)
    out = summary.as_dict() | {"results": str(path)}
    if as_json:
        print_json(out)
        return
    console.print(f"{out['deals']} deals, {players} players (seeds {seed}..{seed + deals - 1}); results in {path}")
    console.print("minimum exchanges per player: " + ", ".join(f"{k}: {v}" for k, v in out["exchanges"].items())
                  + f" (mean {out['mean_exchanges']})")
    console.print("closest player per deal:      " + ", ".join(f"{k}: {v}" for k, v in out["closest_per_deal"].items()))
    best = out["closest_player"]
    if best:
        console.print(f"closest to winning: player {best['player']} of seed {best['seed']}, {best['exchanges']} exchanges")
    console.print(f"players who cannot reach a journey: {len(out['unreachable'])}"
                  + "".join(f"\n  seed {u['seed']} player {u['player']}" for u in out["unreachable"][:20]))
    if out["undecided"]:
        console.print(f"[yellow]undecided (solver limit): {len(out['undecided'])}[/yellow]")


def register(build_app: typer.Typer, check_app: typer.Typer, solve_app: typer.Typer) -> None:
    """Add this module's commands to the shared groups."""

    @solve_app.command("oneday")
    def _solve(
        rack: str = typer.Option(..., "--rack", help="10 station names, slot 1 first, comma-separated."),
        held: str = typer.Option("", "--held", help="Cards in the other players' racks (not obtainable)."),
        engine: str = typer.Option("cp-sat", "--engine", help="cp-sat (always solve with CP-SAT) or auto (exact bound first)."),
        time_limit: float = typer.Option(10.0, "--time-limit", help="CP-SAT time limit in seconds."),
        data: Optional[Path] = DataOption, recipe: Optional[Path] = RecipeOption,
        copy_rule: Optional[str] = CopyRuleOption, as_json: bool = JsonOption,
    ) -> None:
        """Is a rack a valid journey? If not: the fewest exchanges and one target journey."""
        solve(rack, held, engine, time_limit, data, recipe, copy_rule, as_json)

    @check_app.command("oneday")
    def _check(
        deals: int = typer.Option(100, "--deals", help="Number of deals (seeds SEED..SEED+N-1)."),
        players: int = typer.Option(4, "--players", help="Players, 2-4."),
        seed: int = typer.Option(0, "--seed", help="First seed."),
        workers: int = typer.Option(1, "--workers", help="Worker processes."),
        results: Optional[Path] = typer.Option(None, "--results", help="JSON Lines results (appended, resumable). "
                                               "Default: output/checks/oneday-pP-seedS.jsonl", dir_okay=False),
        engine: str = typer.Option("cp-sat", "--engine", help="cp-sat (CP-SAT decides every rack) or auto (exact bound first)."),
        progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
        data: Optional[Path] = DataOption, recipe: Optional[Path] = RecipeOption,
        copy_rule: Optional[str] = CopyRuleOption, as_json: bool = JsonOption,
    ) -> None:
        """Deal N seeded games; per deal each player's minimum exchanges and reachability; a summary."""
        check(deals, players, seed, workers, results, engine, progress, data, recipe, copy_rule, as_json)
    from generator.oneday_faces import documents

    register_builder("oneday", documents)

    @build_app.command("oneday")
    @print_command
    def _build(job: BuildJob, recipe: Optional[Path] = RecipeOption, copy_rule: Optional[str] = CopyRuleOption) -> None:
        """Build One Day in London: the station cards, rules card, map sheet and rack sheet."""
        job.run("oneday", partial(documents, recipe=recipe, copy_rule=copy_rule))
