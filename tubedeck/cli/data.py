"""``tubedeck data check|stats|import``: validate a dataset, summarise it, or import one from a GTFS feed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

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


@app.command("list")
def list_cities(as_json: JsonOpt = False) -> None:
    """The bundled datasets (--data NAME): each city, its folder, stations and lines."""
    from tubedeck.content import bundled_cities

    rows = []
    for name, folder in bundled_cities().items():
        s = network(str(folder)).summary()
        rows.append({"name": name, "folder": str(folder), "stations": s["stations"], "lines": s["lines"]})
    if as_json:
        print_json(rows)
        return
    for row in rows:
        console().print(f"{row['name']:<10} {row['stations']} stations, {row['lines']} lines  [dim]{row['folder']}[/dim]",
                        highlight=False, soft_wrap=True)


@app.command("import")
def import_feed(
    feed: Annotated[Path, typer.Argument(help="A GTFS feed: a .zip or a folder of its .txt files.")],
    out: Annotated[Path, typer.Option("--out", help="The dataset folder to write (stations.csv, lines.csv, "
                                                    "routes.csv, city.toml).", file_okay=False)],
    city: Annotated[str, typer.Option("--city", help="The city's name, printed on the attribution line.")] = "",
    centre: Annotated[Optional[str], typer.Option("--centre", help="The station zone rings are drawn around "
                                                                   "(default: the one nearest the mean).")] = None,
    ring: Annotated[float, typer.Option("--ring", help="Zone ring width in km (zones 1-9; a station within "
                                                       "1/20 of a ring's edge is on the boundary, 2/3).")] = 2.0,
    modes: Annotated[str, typer.Option("--modes", help="GTFS route_types to import, comma-separated.")]
    = "1,400,401,402,403,404",
    merge: Annotated[Optional[str], typer.Option("--merge", help="Service variants merged into lines, as "
                                                                 "VARIANT=LINE pairs (FX=F,6X=6); 'none' keeps "
                                                                 "every route a line (default: NAME+X into NAME).")]
    = None,
    share: Annotated[float, typer.Option("--share", help="A stop pattern is kept when it runs at least this "
                                                         "share of its line's trips.")] = 0.05,
    express: Annotated[str, typer.Option("--express", help="drop (an adjacency skipping stops a kept pattern "
                                                           "serves is left out) or keep.")] = "drop",
    line_names: Annotated[str, typer.Option("--line-names", help="short (route_short_name: A, 7) or long "
                                                                 "(route_long_name).")] = "short",
    source: Annotated[str, typer.Option("--source", help="Where the feed came from, for city.toml.")] = "",
    terms: Annotated[str, typer.Option("--terms", help="The feed's terms of use, for city.toml.")] = "",
) -> None:
    """Import a GTFS feed as a dataset every tube game builds from (then: data check --data OUT)."""
    from tubedeck.errors import UsageError
    from tubedeck.gtfs import convert, write
    from tubedeck.progress import Progress
    from tubedeck.words import names_list

    try:
        kinds = tuple(int(m) for m in names_list(modes, "--modes"))
    except ValueError:
        raise UsageError(f"--modes {modes!r}: give GTFS route_type numbers, comma-separated") from None
    pairs: dict[str, str] | None = None
    if merge is not None:
        pairs = {}
        for item in names_list(merge, "--merge") if merge != "none" else ():
            variant, eq, line = item.partition("=")
            if not eq or not variant.strip() or not line.strip():
                raise UsageError(f"--merge {item!r}: give VARIANT=LINE, e.g. FX=F")
            pairs[variant.strip()] = line.strip()
    if line_names not in ("short", "long"):
        raise UsageError(f"--line-names {line_names!r}: short or long")
    with Progress("data import") as progress:
        dataset = convert(feed, modes=kinds, merge=pairs, auto_merge=merge is None, share=share, express=express,
                          centre=centre, ring_km=ring, line_names=line_names,
                          tick=lambda n: progress.update(at=f"stop_times.txt line {n:,}"))
        written = write(dataset, out, city=city or feed.stem, source=source or str(feed.name), terms=terms)
    console().print(f"[green]wrote[/green] {out}: {len(dataset.stations)} stations, {len(dataset.lines)} lines, "
                    f"{sum(len(line.branches) for line in dataset.lines)} branches "
                    f"({', '.join(p.name for p in written)})")
    for note in dataset.notes[:12]:
        console().print(f"  [dim]{note}[/dim]", highlight=False, soft_wrap=True)
    if len(dataset.notes) > 12:
        console().print(f"  [dim]... and {len(dataset.notes) - 12} more notes[/dim]")
