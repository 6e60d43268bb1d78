"""Small helpers shared by every command: the dataset option, JSON output, rich console."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from tubedeck.network import Network

console = Console()
err_console = Console(stderr=True)

DataOption = typer.Option(None, "--data", help="Dataset directory (stations.csv, lines.csv, routes.csv). Default: the bundled London data.",
                          file_okay=False)
JsonOption = typer.Option(False, "--json", help="Print the result as JSON (for scripts).")


def load_network(data: Optional[Path]) -> Network:
    return Network.load(data)


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
