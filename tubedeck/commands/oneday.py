"""Commands of oneday (placeholder until its issue lands)."""

from __future__ import annotations

import typer


def register(build_app: typer.Typer, check_app: typer.Typer, solve_app: typer.Typer) -> None:
    """Add this module's commands to the shared groups."""
