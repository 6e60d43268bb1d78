"""The registry of games: one line per game.

Each id names a package ``tubedeck/games/<id>/`` whose ``__init__`` declares ``GAME`` (a
:class:`tubedeck.game.Game`); its content is ``data/<id>/``, its faces ``generator/<id>/`` and
its models and checks ``solver/<id>/``. Reading the registry imports only those declarations.
"""

from __future__ import annotations

import importlib
from functools import cache

from tubedeck.errors import UsageError
from tubedeck.game import Game

GAMES = (
    "sampler",  # the print engine's proof sheet: a card per station, a lines sheet
    "klm",  # Keep London Moving
    "oneday",  # One Day in London
    "keepmoving",  # Keep Moving
    "dice",  # Tube Dice
    "nextstation",  # Next Station: London
)


@cache
def registry() -> dict[str, Game]:
    """Every registered game by id, in registry order."""
    out = {}
    for ident in GAMES:
        game = importlib.import_module(f"{__name__}.{ident}").GAME
        assert game.id == ident, f"tubedeck/games/{ident} declares id {game.id!r}"
        out[ident] = game
    return out


def get(ident: str) -> Game:
    """A game by id; UsageError naming the known ids otherwise."""
    games = registry()
    if ident not in games:
        raise UsageError(f"unknown game {ident!r} (known: {', '.join(games)})")
    return games[ident]
