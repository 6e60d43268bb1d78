"""``tubedeck merge``: join the shard files of one check or simulation (``--shard K/N``)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated

import typer

from .options import JsonOpt, command, parameter, print_json, print_lines


def _merge(values: dict) -> None:
    from solver.results import merge_shards

    out, shards = values["out"], values["shards"]
    written = merge_shards(out, list(shards))
    if values["as_json"]:
        print_json({"results": str(out), "records": written, "shards": len(shards)})
    else:
        print_lines([f"merged {len(shards)} shards: {written} records into {out}"])


def register(app: typer.Typer) -> None:
    params = [
        parameter("out", Annotated[Path, typer.Argument(help="The merged results file (must not exist).",
                                                        dir_okay=False)], inspect.Parameter.empty),
        parameter("shards", Annotated[list[Path], typer.Argument(help="Every shard's results file (1/N .. N/N).",
                                                                 exists=True, dir_okay=False)], inspect.Parameter.empty),
        parameter("as_json", JsonOpt, False),
    ]
    app.command("merge")(command("merge", "Join the results files of a run's shards (--shard K/N) into the "
                                          "file one run would have written.", params, _merge))
