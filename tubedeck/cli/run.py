"""``tubedeck check GAME`` and ``tubedeck solve GAME``, generated from the registry.

A ``"deals"`` check takes the shared deal options (``--deals --players --seed --workers
--results --time-limit --progress --require-all``) plus the game's edition and command options,
and runs through :func:`solver.runner.run_check`; a ``"report"`` check or a solve prints one
answer. Either way the command only parses, calls the library and prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tubedeck.content import is_whole_text
from tubedeck.errors import UsageError
from tubedeck.game import Command, Game, edition, resolve
from tubedeck.games import registry

from .options import DataOpt, JsonOpt, check_choices, command, console, declared, parameter, print_json, print_lines


def deal_parameters(cmd: Command, game: Game | None = None) -> list:
    lo, hi = game.players if game is not None and game.players else (4, 4)
    players = min(max(4, lo), hi)  # four at the table where the game allows it (Keep Moving is 2)
    return [
        parameter("deals", Annotated[int, typer.Option(cmd.count_flag, *cmd.count_aliases, "-n",
                                                       help=f"How many ({cmd.count_flag[2:]}: "
                                                                                   "seeds SEED .. SEED+N-1).")],
                  1000 if cmd.name == "klm" else 100),
        parameter("players", Annotated[int, typer.Option("--players", "-p", help="Players.")], players),
        parameter("seed", Annotated[int, typer.Option("--seed", "-s", help="First seed.")], 0),
        parameter("workers", Annotated[int, typer.Option("--workers", "-w", help="Worker processes.")], 1),
        parameter("results", Annotated[Optional[Path], typer.Option(
            "--results", dir_okay=False,
            help="JSON Lines results file (appended, resumable). Default: output/checks/GAME-...-sSEED.jsonl")], None),
        parameter("time_limit", Annotated[float, typer.Option("--time-limit", help="CP-SAT seconds per deal "
                                                                                 "(UNKNOWN beyond it).")], 10.0),
        parameter("progress", Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")], True),
        parameter("require_all", Annotated[bool, typer.Option("--require-all", help="Exit 1 if any deal is unwinnable "
                                                                                    "(or undecided).")], False),
        parameter("retry_unknown", Annotated[bool, typer.Option(
            "--retry-unknown", help="On resume, recompute the stored deals the time limit left undecided.")], False),
        parameter("runner", Annotated[str, typer.Option(
            "--runner", help="local (this machine's processes) or dask (a local Dask cluster of --workers "
                             "processes, or the cluster at --scheduler; needs tubedeck[cluster]).")], "local"),
        parameter("scheduler", Annotated[Optional[str], typer.Option(
            "--scheduler", help="A Dask scheduler address (tcp://host:8786) for --runner dask.")], None),
        parameter("shard", Annotated[Optional[str], typer.Option(
            "--shard", help="K/N: run only the K-th of N interleaved seed slices (join the files with "
                            "'tubedeck merge').")], None),
    ]


MAX_SHARDS = 10**6


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """``"2/8"`` -> (2, 8); UsageError otherwise."""
    if text is None:
        return None
    left, slash, right = text.partition("/")
    if not (slash and is_whole_text(left.strip()) and is_whole_text(right.strip())):
        raise UsageError(f"--shard must be K/N (e.g. 2/8), got {text!r}")
    k, n = int(left), int(right)
    if not 1 <= k <= n <= MAX_SHARDS:
        raise UsageError(f"--shard K/N needs 1 <= K <= N <= {MAX_SHARDS}, got {text!r}")
    return k, n


MAX_DEALS = 10**9  # seeds stream, so this bounds time, not memory: a billion deals is days of work
MAX_SEED = 2**62


def _edition_options(game: Game) -> tuple:
    """The edition options check, solve, play and simulate take: all but build's own."""
    return tuple(o for o in game.options if not o.build_only)


def _split(game: Game, cmd: Command, values: dict) -> tuple[dict, dict]:
    own = {o.name: values.pop(o.name) for o in _edition_options(game)}
    extra = {o.name: values.pop(o.name) for o in cmd.options}
    check_choices(_edition_options(game), own)
    check_choices(cmd.options, extra)
    return own, extra


def run_deals_command(game: Game, cmd: Command, values: dict) -> None:
    from solver.runner import default_results, run_check

    own, extra = _split(game, cmd, values)
    data, as_json, deals, seed = values["data"], values["as_json"], values["deals"], values["seed"]
    if not 1 <= deals <= MAX_DEALS:
        raise UsageError(f"--deals must be 1-{MAX_DEALS}, got {deals}")
    lo, hi = game.players or (1, 10**6)
    if not lo <= values["players"] <= hi:
        raise UsageError(f"--players must be {lo}-{hi} for {game.title}, got {values['players']}")
    if not 0 <= seed <= MAX_SEED - deals:
        raise UsageError(f"--seed must be 0-{MAX_SEED - deals} for {deals} deals, got {seed}")
    ed = edition(game, data, **own)
    plain = {k: str(v) if isinstance(v, Path) else v for k, v in own.items()}
    check = resolve(cmd.target)(ed, players=values["players"], time_limit=values["time_limit"],
                                data=None if data is None else str(data), **plain, **extra)
    from solver.distributed import Runner

    runner = Runner(values["runner"], values["scheduler"])
    shard = parse_shard(values["shard"])
    seeds = range(seed + shard[0] - 1, seed + deals, shard[1]) if shard else range(seed, seed + deals)
    path = values["results"] or default_results(check, seed, shard)
    summary = run_check(check, seeds, path, values["workers"], values["progress"] and not as_json,
                        values["retry_unknown"], runner if runner.kind != "local" else None, shard)
    if as_json:
        print_json(summary.as_dict() | {"seed": seed, "results": str(path)})
    else:
        print_lines(summary.describe() + [f"results: {path}"])
    failed = summary.failures()
    if values["require_all"] and failed:
        console(stderr=True).print(f"[red]{failed}[/red]")
        raise typer.Exit(1)


def run_report_command(game: Game, cmd: Command, values: dict) -> None:
    own, extra = _split(game, cmd, values)
    report = resolve(cmd.target)(edition(game, values["data"], **own), **extra)
    if values["as_json"]:
        print_json(report.as_dict())
    else:
        print_lines(report.describe())


def register(check_app: typer.Typer, solve_app: typer.Typer, play_app: typer.Typer | None = None,
             simulate_app: typer.Typer | None = None) -> None:
    """One command per declared check, solve, play and simulation."""
    common = [parameter("data", DataOpt, None), parameter("as_json", JsonOpt, False)]
    for game in registry().values():
        groups = [(check_app, game.checks), (solve_app, game.solves)]
        groups += [(g, cmds) for g, cmds in ((play_app, game.plays), (simulate_app, game.simulations)) if g is not None]
        for group, commands in groups:
            for cmd in commands:
                params = [declared(o) for o in cmd.options] + [declared(o) for o in _edition_options(game)]
                if cmd.kind == "deals":
                    params = deal_parameters(cmd, game) + params
                    body = lambda values, g=game, c=cmd: run_deals_command(g, c, values)  # noqa: E731
                else:
                    body = lambda values, g=game, c=cmd: run_report_command(g, c, values)  # noqa: E731
                group.command(cmd.name)(command(cmd.name, cmd.help, params + common, body))
