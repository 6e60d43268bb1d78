"""``tubedeck data check|stats``: validate a dataset and summarise it."""

from __future__ import annotations

import typer

from tubedeck.game import network

from .options import DataOpt, JsonOpt, console, print_json

app = typer.Typer(help="Validate and summarise a station-and-line dataset.", no_args_is_help=True)


@app.command("check")
def check(data: DataOpt = None, as_json: JsonOpt = False) -> None:
    """Validate a dataset: every problem is listed with file, line and column (exit 2 if any)."""
    s = network(None if data is None else str(data)).summary()
    if as_json:
        print_json({"ok": True, "source": s["source"], "stations": s["stations"], "lines": s["lines"], "edges": s["edges"]})
        return
    console().print(f"[green]ok[/green] {s['source']}: {s['stations']} stations, {s['lines']} lines, "
                    f"{s['branches']} branches, {s['edges']} connections")


def print_stats(net) -> None:
    from rich.table import Table

    s = net.summary()
    table = Table(title=f"{s['stations']} stations, {s['lines']} lines, {s['interchanges']} interchanges ({s['source']})")
    for col in ("Line", "Stations", "Branches", "Termini", "Interchanges", "Zones"):
        table.add_column(col, justify="right" if col in ("Stations", "Branches", "Interchanges") else "left")
    for row in s["per_line"]:
        zones = row["zones"]
        ztext = f"{zones[0]}-{zones[-1]}" if len(zones) > 1 else str(zones[0])
        table.add_row(row["name"], str(row["stations"]), str(row["branches"]), ", ".join(row["termini"]) or "(loop)",
                      str(row["interchanges"]), ztext)
    console().print(table)


@app.command("stats")
def stats(data: DataOpt = None, as_json: JsonOpt = False) -> None:
    """A table per line: stations, branches, termini, interchanges, zones."""
    net = network(None if data is None else str(data))
    if as_json:
        print_json(net.summary())
    else:
        print_stats(net)
