"""``tubedeck check GAME`` and ``tubedeck solve GAME``, generated from the registry.

A ``"deals"`` check takes the shared deal options it uses (``--deals --players --seed --workers
--results --time-limit --progress --require-all ...``: ``Command.shared``, by default
:data:`~tubedeck.game.CHECK_OPTIONS` for a check and :data:`~tubedeck.game.SIMULATE_OPTIONS` for a
simulation) plus the game's edition and command options, and runs through
:func:`tubedeck.solver.runner.run_check`; a ``"report"`` check or a solve prints one answer. Either way the
command only parses, calls the library and prints.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer

import tubedeck
from tubedeck.content import is_whole_text
from tubedeck.errors import UsageError
from tubedeck.game import CHECK_OPTIONS, SIMULATE_OPTIONS, Command, Game, edition, resolve
from tubedeck.games import registry
from tubedeck.progress import Progress, since_start, ticking

from .options import (
    DataOpt,
    JsonOpt,
    check_choices,
    command,
    console,
    declared,
    parameter,
    print_json,
    print_lines,
    typed,
)


def shared_options(cmd: Command, simulation: bool = False) -> tuple[str, ...]:
    """The shared deal options ``cmd`` reads (see ``Command.shared``)."""
    if cmd.shared is not None:
        unknown = set(cmd.shared) - set(CHECK_OPTIONS)
        assert not unknown, f"{cmd.name}: unknown shared options {sorted(unknown)}"
        return cmd.shared
    return SIMULATE_OPTIONS if simulation else CHECK_OPTIONS


def deal_parameters(cmd: Command, game: Game | None = None, simulation: bool = False) -> list:
    lo, hi = game.players if game is not None and game.players else (4, 4)
    players = min(max(4, lo), hi)  # four at the table where the game allows it (Keep Moving is 2)
    fails = "any game ends without a winner" if simulation else "any deal is unwinnable (or undecided)"
    taken = shared_options(cmd, simulation)
    return [p for p in _deal_parameters(cmd, players, fails) if p.name in taken]


def _deal_parameters(cmd: Command, players: int, fails: str) -> list:
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
        parameter("time_limit", Annotated[Optional[float], typer.Option(
            "--time-limit", help="Wall-clock seconds for the whole command: then it stops, keeps every deal "
                                 "done and says how to resume (default: no limit).")], None),
        parameter("deal_limit", Annotated[Optional[float], typer.Option(
            "--deal-limit", help=f"Solver seconds per deal, CP-SAT's deterministic seconds: the same answers on "
                                 f"any machine (UNKNOWN beyond it; default {TIME_LIMIT:g})"
                                 + (f"; only with {' and '.join(_flag(o) for o in cmd.needs.get('deal_limit', ()))}"
                                    if cmd.needs.get("deal_limit") else "") + ".")], None),
        parameter("progress", Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")], True),
        parameter("require_all", Annotated[bool, typer.Option("--require-all", help=f"Exit 1 if {fails}.")], False),
        parameter("retry_unknown", Annotated[bool, typer.Option(
            "--retry-unknown", help="On resume, recompute the stored deals the time limit left undecided.")], False),
        parameter("runner", Annotated[str, typer.Option(
            "--runner", help="local (this machine's processes) or dask (a local Dask cluster of --workers "
                             "processes, or the cluster at --scheduler; needs Dask: make install-cluster).")], "local"),
        parameter("scheduler", Annotated[Optional[str], typer.Option(
            "--scheduler", help="A Dask scheduler address (tcp://host:8786) for --runner dask.")], None),
        parameter("shard", Annotated[Optional[str], typer.Option(
            "--shard", help="K/N: run only the K-th of N interleaved seed slices (join the files with "
                            "'tubedeck merge').")], None),
    ]


MAX_SHARDS = 10**6
TIME_LIMIT = 10.0  # --deal-limit's default


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def check_needs(cmd: Command, values: dict) -> None:
    """Refuse an option given without the option it only works with (``Command.needs``)."""
    for option, needed in cmd.needs.items():
        if values.get(option) not in (None, False):
            missing = [n for n in needed if not values.get(n)]
            if missing:
                raise UsageError(f"{_flag(option)} only works with {' and '.join(map(_flag, missing))}")


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


def input_facts(game: Game, check, data: Path | None, options: dict) -> dict:
    """What a results header adds of the run's input files, by content: ``inputs`` holds a digest
    of the dataset (``--data``, or the bundled one), of the game's bundled content folder, and of
    every file or folder an option names (``--recipe``, ``--ground``, ``--map DIR``); a header
    field that holds such a path as typed holds it resolved. So a resume after an edited recipe,
    another ground file or map folder is refused naming it, and ``./m`` is the same folder as
    ``m``. Every other option that changes a record is in the game's own header."""
    from tubedeck.content import data_root, dataset_dir, digest

    names = {"data": digest(dataset_dir(data)),
             "content": digest(recurse=(data_root() / game.id,))}
    header = check.header()
    resolved: dict = {}
    if data is not None and isinstance(header.get("data"), str):
        resolved["data"] = str(Path(data).resolve())
    for o in _edition_options(game):
        value = options.get(o.name)
        if value is None or o.type not in ("path", "str") or (o.type == "str" and value in o.choices):
            continue
        where = Path(str(value))
        if o.type == "str" and not where.exists():
            continue  # a name or a seed, not a path
        names[o.name] = digest(where)
        if header.get(o.name) == str(value) or header.get(o.name) == where.name:
            resolved[o.name] = str(where.resolve())
    return {"inputs": names, **resolved}


DOING = {"check": "checking", "solve": "solving", "play": "playing", "simulate": "simulating"}


@contextlib.contextmanager
def showing(verb: str, cmd: Command, on: bool = True) -> Iterator[Progress | None]:
    """Progress for the whole command from its start (:mod:`tubedeck.progress`: nothing for 2 s,
    then a live line on a terminal, a line every 10 s otherwise): loading the edition (a generated
    map, a dataset), then the work, whose own progress (the runner's, a solver's) shows through it."""
    if not on:
        yield None
        return
    with Progress(f"{verb} {cmd.name}", since=since_start()) as shown, ticking(shown):
        shown.update(phase="loading")
        yield shown


def run_deals_command(game: Game, cmd: Command, values: dict, verb: str = "check") -> None:
    with showing(verb, cmd, values["progress"] and not values["as_json"]) as shown:
        _run_deals_command(game, cmd, values, shown, verb)


def _run_deals_command(game: Game, cmd: Command, values: dict, shown: Progress | None, verb: str) -> None:
    from tubedeck.solver.runner import default_results, run_check

    check_needs(cmd, values)  # before _split takes the declared options out
    own, extra = _split(game, cmd, values)
    data, as_json, deals, seed = values["data"], values["as_json"], values["deals"], values["seed"]
    from tubedeck.solver.cpsat import check_time_limit

    if values.get("deal_limit", 0) is None:
        values["deal_limit"] = TIME_LIMIT
    if "deal_limit" in values:  # named as typed (the targets' own check says --time-limit)
        check_time_limit(values["deal_limit"], "--deal-limit")
    wall = values.get("time_limit")
    if wall is not None:
        check_time_limit(wall)
    if not 1 <= deals <= MAX_DEALS:
        raise UsageError(f"{typed(cmd.count_flag, *cmd.count_aliases, '-n')} must be 1-{MAX_DEALS}, got {deals}")
    if "players" in values and game.players:
        game.check_players(values["players"], typed("--players", "-p"))
    if not 0 <= seed <= MAX_SEED - deals:
        raise UsageError(f"{typed('--seed', '-s')} must be 0-{MAX_SEED - deals} for {deals} "
                         f"{typed(cmd.count_flag, *cmd.count_aliases)[2:]}, got {seed}")
    from tubedeck.solver.runner import MAX_WORKERS

    if not 1 <= values["workers"] <= MAX_WORKERS:  # before "results: PATH" is said
        raise UsageError(f"{typed('--workers', '-w')} must be 1-{MAX_WORKERS}, got {values['workers']}")
    ed = edition(game, data, **own)
    plain = {k: str(v) if isinstance(v, Path) else v for k, v in own.items()}
    taken = {k: values[k] for k in ("players",) if k in values}  # what the command reads
    if "deal_limit" in values:
        taken["time_limit"] = values["deal_limit"]  # (the targets' own name for a deal's budget)
    check = resolve(cmd.target)(ed, **taken, data=None if data is None else str(data), **plain, **extra)
    from tubedeck.solver.distributed import Runner

    runner = Runner(values["runner"], values["scheduler"])
    shard = parse_shard(values["shard"])
    seeds = range(seed + shard[0] - 1, seed + deals, shard[1]) if shard else range(seed, seed + deals)
    path = values["results"] or default_results(check, seed, shard)
    # Before anything runs: where the results go (a relative default lands in the working directory).
    console(stderr=True).print(f"results: {Path(path).absolute()}", highlight=False, soft_wrap=True)
    from tubedeck.solver.runner import TimeUp

    stopped = None
    if shown is not None:
        shown.update(phase=DOING[verb])
    try:
        summary = run_check(check, seeds, path, values["workers"], values["progress"] and not as_json,
                            values.get("retry_unknown", False), runner if runner.kind != "local" else None, shard,
                            input_facts(game, check, data, own),
                            deadline=None if wall is None else tubedeck.STARTED + wall)
    except TimeUp as exc:  # the seeds done are summed up; the run says how far it got
        assert exc.summary is not None
        summary, stopped = exc.summary, str(exc)
    if shown is not None:
        shown.close()  # (before the summary: a live line is gone from the terminal)
    if as_json:
        print_json(summary.as_dict() | {"seed": seed, "results": str(path)}
                   | ({"stopped": stopped} if stopped else {}))
    else:
        print_lines(summary.describe() + [f"results: {Path(path).absolute()}"] + ([stopped] if stopped else []))
    failed = summary.failures() or (f"not every seed was run: {stopped}" if stopped else None)
    if values["require_all"] and failed:
        console(stderr=True).print(f"[red]{failed}[/red]")
        raise typer.Exit(1)


def check_seat_and_seed(game: Game, cmd: Command, extra: dict) -> None:
    """One range and one message for ``--seed`` in every command, and ``play``'s ``--players``
    checked before any seat is made (a table of 10**11 seats was built before the game refused it)."""
    seed = extra.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool) and not 0 <= seed < MAX_SEED:
        raise UsageError(f"{typed('--seed', '-s')} must be a whole number 0-{MAX_SEED - 1}, got {seed}")
    players = extra.get("players")
    if cmd in game.plays and game.players and isinstance(players, int):
        game.check_players(players, typed("--players", "-p"))


def run_report_command(game: Game, cmd: Command, values: dict, verb: str = "solve") -> None:
    own, extra = _split(game, cmd, values)
    check_seat_and_seed(game, cmd, extra)
    with showing(verb, cmd, not values["as_json"]) as shown:
        ed = edition(game, values["data"], **own)
        target = resolve(cmd.target)
        if extra.get("time_limit") is not None:  # wall-clock for the whole command: start-up and loading count
            spent = time.perf_counter() - tubedeck.STARTED
            extra["time_limit"] = max(extra["time_limit"] - spent, min(extra["time_limit"], 0.05))
        if shown is not None:
            shown.update(phase=DOING[verb])
        report = target(ed, **extra)
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
        verbs = {id(check_app): "check", id(solve_app): "solve", id(play_app): "play", id(simulate_app): "simulate"}
        for group, commands in groups:
            verb = verbs[id(group)]
            for cmd in commands:
                params = [declared(o) for o in cmd.options] + [declared(o) for o in _edition_options(game)]
                if cmd.kind == "deals":
                    params = deal_parameters(cmd, game, simulation=group is simulate_app) + params
                    body = lambda values, g=game, c=cmd, v=verb: run_deals_command(g, c, values, v)  # noqa: E731
                else:
                    body = lambda values, g=game, c=cmd, v=verb: run_report_command(g, c, values, v)  # noqa: E731
                group.command(cmd.name)(command(cmd.name, cmd.help, params + common, body))
