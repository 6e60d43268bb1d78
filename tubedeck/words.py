"""Counted words for what the command line prints: "1 game", "2 games", "1 win", "0.5 wins"."""

from __future__ import annotations


def plural(n: float, one: str, many: str | None = None) -> str:
    """``n`` and the word for that many (``many`` defaults to ``one`` + "s"); a fraction is plural."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {one if n == 1 else many or one + 's'}"
