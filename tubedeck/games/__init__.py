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


def record_schema(header: dict):
    """The declared record (:class:`tubedeck.records.Schema`) of a results file, by its header's
    game, mode and version; UsageError saying what to do when there is none."""
    from tubedeck.game import resolve

    name, mode, version = header.get("game"), header.get("mode"), header.get("version")
    games = registry()
    if not isinstance(name, str) or name not in games:
        raise UsageError(f"a results file of an unknown game {name!r} (known: {', '.join(games)})")
    game = games[name]
    schemas = [resolve(r) for c in game.checks + game.simulations for r in c.records]
    for s in schemas:
        if s.mode == mode:
            if s.version != version:
                raise UsageError(f"results of {game.title} {mode} version {version!r}; this tubedeck reads version "
                                 f"{s.version}: re-run the command to make a new file")
            return s
    modes = ", ".join(sorted({s.mode for s in schemas})) or "none"
    what = f"of mode {mode!r}" if isinstance(mode, str) and mode else "whose header names no mode"
    raise UsageError(f"a {game.title} results file {what}, which this tubedeck does not write "
                     f"(it writes: {modes}): re-run the command to make a new file")
