"""Keep London Moving commands: ``build klm``, ``check klm``, ``check klm-bound``, ``solve klm``.

Thin: parse the options, call the library, print. Bad input is a UsageError (exit 2).
"""

from __future__ import annotations

import math

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from tubedeck.errors import UsageError
from tubedeck.games.klm_deal import check_players

from .build import BuildJob, print_command, register_builder
from .common import DataOption, JsonOption, console, print_json

ScopeOption = typer.Option(None, "--scope", help="Deck scope: 'all', 'zone 1', 'zones 1-2', 'central,victoria', "
                           "'central in zones 1-2', or a name from data/klm/scopes.csv. Default: data/klm/scopes.csv's default.")



def _check_time_limit(seconds: float) -> None:
    if not (math.isfinite(seconds) and seconds > 0):
        raise UsageError(f"--time-limit must be a positive number of seconds, got {seconds}")

def _scope(net, scope: Optional[str]):
    from tubedeck.games.klm_scope import default_scope_recipe, parse_scope

    return parse_scope(scope if scope is not None else default_scope_recipe(), net)


def check(
    deals: int = typer.Option(1000, "--deals", "-n", help="Number of deals (seeds SEED .. SEED+N-1)."),
    players: int = typer.Option(4, "--players", "-p", help="Players, 2-6."),
    seed: int = typer.Option(0, "--seed", "-s", help="First seed."),
    scope: Optional[str] = ScopeOption,
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes."),
    results: Optional[Path] = typer.Option(None, "--results", help="JSON Lines results file (appended, resumable). "
                                           "Default: output/checks/klm-SCOPE-pP-sSEED.jsonl"),
    require_all: bool = typer.Option(False, "--require-all", help="Exit 1 if any deal is unwinnable (or undecided)."),
    time_limit: float = typer.Option(10.0, "--time-limit", help="CP-SAT seconds per deal (UNKNOWN beyond it)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    data: Optional[Path] = DataOption,
    as_json: bool = JsonOption,
) -> None:
    """Check seeded deals: can each player complete five continuous stations before the Station
    stock runs out, and on which turn? CP-SAT decides every player of every deal."""
    from solver.klm_check import KlmCheck, Summary
    from solver.runner import run_deals
    from tubedeck.games.klm import build_deck
    from tubedeck.network import Network

    if deals <= 0:
        raise UsageError(f"--deals must be at least 1, got {deals}")
    check_players(players)
    _check_time_limit(time_limit)
    net = Network.load(data)
    sc = _scope(net, scope)
    deck = build_deck(net, sc)
    if len(deck) < 5 * players:
        raise UsageError(f"scope {sc.label!r} has {len(deck)} Station Cards; {players} players need at least {5 * players}")
    job = KlmCheck(sc.label, players, str(data) if data else None, time_limit)
    header = job.header(net.source, sc.label, len(deck))
    path = results or Path("output") / "checks" / f"klm-{sc.slug}-p{players}-s{seed}.jsonl"
    summary = Summary(players)
    for record in run_deals(job, list(range(seed, seed + deals)), header, path, workers, progress and not as_json,
                            label=f"klm {sc.label} x{players}"):
        summary.add(record)
    payload = summary.as_dict()
    payload |= {"scope": sc.label, "seed": seed, "results": str(path)}
    if as_json:
        print_json(payload)
    else:
        print_summary(payload, summary)
    if require_all and (summary.unwinnable or summary.undecided):
        typer.secho(f"{len(summary.unwinnable)} unwinnable and {len(summary.undecided)} undecided deal(s)", fg="red", err=True)
        raise typer.Exit(1)


def print_summary(payload: dict, summary) -> None:
    from solver.klm_check import percentile

    n, p = payload["deals"], payload["players"]
    console.print(f"[bold]Keep London Moving[/bold]: scope {payload['scope']}, {p} players, {n} deals "
                  f"(seeds {payload['seed']}..{payload['seed'] + n - 1}) -> {payload['results']}")
    console.print(f"winnable before the Station stock runs out: [bold]{summary.winnable}/{n} "
                  f"({100 * summary.share:.1f}%)[/bold]")
    ft = summary.first_turn
    if ft:
        console.print(f"earliest winning turn (own turns of the first winner): min {min(ft)}, median "
                      f"{percentile(ft, 0.5)}, 90% {percentile(ft, 0.9)}, max {max(ft)}")
        width = max(1, (max(ft) - min(ft)) // 10 + 1)
        hist = Table(show_header=True, header_style="bold", box=None)
        hist.add_column("turns", justify="right")
        hist.add_column("deals", justify="right")
        hist.add_column("")
        top = max(ft.values())
        buckets: dict[int, int] = {}
        for t, c in ft.items():
            buckets[(t - min(ft)) // width] = buckets.get((t - min(ft)) // width, 0) + c
        for b in range(max(buckets) + 1):
            lo = min(ft) + b * width
            c = buckets.get(b, 0)
            hist.add_row(f"{lo}-{lo + width - 1}" if width > 1 else str(lo), str(c), "#" * round(30 * c / max(top, 1)))
        console.print(hist)
    if summary.winnable:
        shares = ", ".join(f"{k}: {100 * v / summary.winnable:.1f}%" for k, v in payload["first_winner_order"].items())
        console.print(f"first possible winner by place in turn order (1 = starter): {shares}")
        alone = ", ".join(f"{k}: {100 * v / n:.1f}%" for k, v in payload["can_win_by_order"].items())
        console.print(f"deals where that place can win at all: {alone}")
    if summary.unwinnable:
        seeds = ", ".join(map(str, summary.unwinnable[:20])) + (" ..." if len(summary.unwinnable) > 20 else "")
        console.print(f"unwinnable deals ({len(summary.unwinnable)}): seeds {seeds}")
    if summary.undecided:
        console.print(f"[yellow]undecided (CP-SAT time limit) seeds: {summary.undecided[:20]}[/yellow]")
    console.print(f"CP-SAT statuses: {payload['statuses']}")
    console.print("outside this check: " + ", ".join(payload["outside_the_check"]) + " (each player plays alone on their cards)")


def solve(
    seed: int = typer.Option(0, "--seed", "-s", help="The deal's seed."),
    players: int = typer.Option(4, "--players", "-p", help="Players, 2-6."),
    scope: Optional[str] = ScopeOption,
    data: Optional[Path] = DataOption,
    as_json: bool = JsonOption,
) -> None:
    """Solve one deal and show every player's earliest win, with its cards and turns."""
    from solver.klm import deal_record, solve_deal
    from tubedeck.games.klm import build_deck, fortune_deck, load_fortune
    from tubedeck.games.klm_deal import deal
    from tubedeck.network import Network

    check_players(players)
    net = Network.load(data)
    deck = build_deck(net, _scope(net, scope))
    d = deal(tuple(c.station for c in deck.cards), tuple(c.id for c in fortune_deck(load_fortune())), players, seed)
    adjacency = {s: tuple(sorted(deck.graph[s])) for s in deck.graph}
    status, answers = solve_deal(adjacency, d)
    record = deal_record(d, status, answers)
    if as_json:
        print_json(record)
        return
    name = lambda s: deck.by_station[s].name  # noqa: E731
    console.print(f"deal {seed}: {players} players, scope {deck.scope.label}; player {d.starter + 1} starts "
                  f"(opening rolls {list(d.opening_rolls)}); {d.window} turns before the Station stock runs out; "
                  f"CP-SAT {status}")
    for p, hand in enumerate(d.hands):
        console.print(f"  player {p + 1} hand: " + ", ".join(name(s) for s in hand))
    for a in answers:
        if a.turn is None:
            console.print(f"player {a.seat + 1}: no five continuous stations within {a.turns} turns ({a.status})")
            continue
        steps = "; ".join(f"turn {t}: {name(x)} - {name(y)} (no. {deck.graph[x][y]['number']})" for t, x, y in a.schedule)
        console.print(f"player {a.seat + 1}: wins on own turn {a.turn} ({a.status}): {steps}")
    first = record["first"]
    console.print("first possible win: " + (f"player {first['player']} on their turn {first['turn']}" if first else "nobody"))


def bound(
    players: int = typer.Option(4, "--players", "-p", help="Players, 2-6."),
    scope: Optional[str] = ScopeOption,
    time_limit: float = typer.Option(120.0, "--time-limit", help="CP-SAT seconds per question."),
    data: Optional[Path] = DataOption,
    as_json: bool = JsonOption,
) -> None:
    """Over ALL deals of a scope (no sixes rolled): the deal that delays the first possible win
    the most, or a proven bound 'every deal is winnable by turn T'."""
    from solver.klm_bound import worst_deal
    from tubedeck.games.klm import build_deck
    from tubedeck.network import Network

    check_players(players)
    _check_time_limit(time_limit)
    net = Network.load(data)
    deck = build_deck(net, _scope(net, scope))
    result = worst_deal(deck, players, time_limit)
    if as_json:
        print_json(result.as_dict())
        return
    for line in result.describe(deck):
        console.print(line)


def klm_documents(options, network, scope: Optional[str] = None) -> list:
    """The builder behind ``build klm`` and ``build all``: Station deck of the scope, Fortune deck,
    reference cards and the Play Field sheet."""
    from generator.klm_faces import documents
    from tubedeck.games.klm import build_deck, fortune_deck, load_fortune

    deck = build_deck(network, _scope(network, scope))
    return documents(deck, fortune_deck(load_fortune()), network, (options.card.width, options.card.height))


def register(build_app: typer.Typer, check_app: typer.Typer, solve_app: typer.Typer) -> None:
    """Add this module's commands to the shared groups."""
    register_builder("klm", klm_documents)

    @build_app.command("klm")
    @print_command
    def build_klm(job: BuildJob, scope: Optional[str] = ScopeOption) -> None:
        """Build Keep London Moving: Station and Fortune decks, backs, reference cards, Play Field."""
        net = job.network()
        _scope(net, scope)  # a bad scope is a UsageError before anything is written
        job.run("klm", lambda options, network: klm_documents(options, network, scope))

    check_app.command("klm")(check)
    check_app.command("klm-bound")(bound)
    solve_app.command("klm")(solve)
