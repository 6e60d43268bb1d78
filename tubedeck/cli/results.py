"""``tubedeck merge`` (join the shard files of one run, ``--shard K/N``) and ``tubedeck report``
(results files of any game as an HTML page and a PDF)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated

import typer

from .options import JsonOpt, command, parameter, print_json, print_lines


def _merge(values: dict) -> None:
    from tubedeck.games import record_schema
    from tubedeck.solver.merge import merge_shards

    merged = merge_shards(values["out"], list(values["shards"]), record_schema, values["allow_partial"])
    if values["as_json"]:
        print_json(merged.as_dict())
    else:
        print_lines(merged.describe())


def _report(values: dict) -> None:
    from tubedeck.games import record_schema
    from tubedeck.generator.report import write_report
    from tubedeck.progress import Progress, since_start, ticking

    files = list(values["files"])
    if values["progress"] and not values["as_json"]:  # a bar on a terminal, a line every 10 s otherwise
        with Progress(f"report of {len(files)} file{'s' if len(files) > 1 else ''}", since=since_start()) as progress, \
                ticking(progress):
            written, runs = write_report(files, values["out"], record_schema, progress)
    else:
        written, runs = write_report(files, values["out"], record_schema)
    if values["as_json"]:
        print_json({"written": [str(p) for p in written], "files": [r.as_dict() for r in runs]})
    else:
        print_lines([f"wrote {p}" for p in written])


def register(app: typer.Typer) -> None:
    params = [
        parameter("out", Annotated[Path, typer.Argument(help="The merged results file (must not exist).",
                                                        dir_okay=False)], inspect.Parameter.empty),
        parameter("shards", Annotated[list[Path], typer.Argument(help="Every shard's results file (1/N .. N/N).",
                                                                 exists=True, dir_okay=False)], inspect.Parameter.empty),
        parameter("allow_partial", Annotated[bool, typer.Option(
            "--allow-partial", help="Write what the shards hold when seeds are missing (and say which); "
                                    "resuming the check on the merged file computes them.")], False),
        parameter("as_json", JsonOpt, False),
    ]
    app.command("merge")(command("merge", "Join the results files of a run's shards (--shard K/N) into the "
                                          "file one run would have written.", params, _merge))
    report = [
        parameter("files", Annotated[list[Path], typer.Argument(
            help="Results files (JSON Lines) of any game's check or simulate; several are compared.",
            exists=True, dir_okay=False)], inspect.Parameter.empty),
        parameter("out", Annotated[Path, typer.Option("--out", "-o", file_okay=False,
                                                      help="Folder for report.html and report.pdf.")],
                  Path("output") / "report"),
        parameter("progress", Annotated[bool, typer.Option("--progress/--no-progress", help="Show progress.")], True),
        parameter("as_json", JsonOpt, False),
    ]
    app.command("report")(command("report", "A self-contained HTML page (plots as SVG) and a PDF of results files: "
                                            "the run, headline figures with 95% intervals, plots.", report, _report))
