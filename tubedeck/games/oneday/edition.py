"""One One Day in London edition: the board derived by a recipe, its deck and the rules values
(the recipe's ``[game]`` table), built once per process and shared by the faces and the solver."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tubedeck.errors import DataError, NotApplicable, UsageError
from tubedeck.network import Network

from .board import Board, derive_map
from .cards import StationDeck, build_deck
from .recipe import Recipe, load_recipe
from .setup import Deal, deal


@dataclass(frozen=True)
class Edition:
    """Everything one game of One Day in London is played with."""

    board: Board
    deck: StationDeck
    racks: str = "tent"  # what the rack sheet prints (build only): a tent rack to fold, or a flat mat

    @property
    def rules(self) -> Recipe:
        """Slots, players, discard piles, copy rule: the recipe is the rules value."""
        return self.board.recipe

    def deal(self, players: int, seed: int) -> Deal:
        return deal(self.deck, players, seed, self.rules)


RACKS = ("tent", "flat")  # --racks: a tent rack per player to cut, fold and glue (the default), or flat mats


def load(network: Network, recipe: Path | str | None = None, copy_rule: str | None = None,
         racks: str = "tent") -> Edition:
    """Derive the game from the dataset. The bundled recipe names London stations: on another
    city's dataset it raises NotApplicable (``build all`` then skips the game) unless a recipe for
    that city is given. ``racks`` (``--racks``, build only) picks the rack sheet: tent or flat."""
    if racks not in RACKS:
        raise UsageError(f"--racks must be one of {', '.join(RACKS)}, got {racks!r}")
    rec = load_recipe(recipe, copy_rule)
    try:
        board = derive_map(network, rec)
    except DataError as exc:
        if recipe is not None:
            raise
        first = exc.problems[0]
        raise NotApplicable(f"the bundled One Day in London recipe does not fit the dataset {network.source} "
                            f"({first.message}); use `--data DIR --recipe FILE`") from None
    return Edition(board, build_deck(board), racks)
