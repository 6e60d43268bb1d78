"""Moved to :mod:`tubedeck.games.nextstation.best` (generated maps are accepted on their par)."""

from tubedeck.games.nextstation.best import RoundResult, best_round  # noqa: F401
