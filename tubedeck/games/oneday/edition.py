"""One One Day in London edition: the board derived by a recipe, its deck and the rules values
(the recipe's ``[game]`` table), built once per process and shared by the faces and the solver."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from tubedeck.content import city_name, content, data_root
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
    dataset: str = field(default="", compare=False)  # the dataset's folder: its print says its city's words

    @property
    def rules(self) -> Recipe:
        """Slots, players, discard piles, copy rule: the recipe is the rules value."""
        return self.board.recipe

    def deal(self, players: int, seed: int) -> Deal:
        return deal(self.deck, players, seed, self.rules)


RACKS = ("tent", "flat")  # --racks: a tent rack per player to cut, fold and glue (the default), or flat mats


CITY_RECIPE = "city-recipe.toml"  # the recipe of a dataset other than London's, when no --recipe is given


def _london(network: Network) -> bool:
    """Is this the bundled London dataset (whose recipe is recipe.toml)?"""
    return Path(network.source).resolve() == data_root().resolve()


def load(network: Network, recipe: Path | str | None = None, copy_rule: str | None = None,
         racks: str = "tent") -> Edition:
    """Derive the game from the dataset. The bundled recipe names London stations: on another
    city's dataset it raises NotApplicable (``build all`` then skips the game) unless a recipe for
    that city is given. ``racks`` (``--racks``, build only) picks the rack sheet: tent or flat."""
    if racks not in RACKS:
        raise UsageError(f"--racks must be one of {', '.join(RACKS)}, got {racks!r}")
    city = recipe is None and not _london(network)
    rec = load_recipe(content("oneday", CITY_RECIPE) if city else recipe, copy_rule)
    if city:
        rec = replace(rec, name=rec.name.replace("{city}", city_name(network.source)))
    try:
        board = derive_map(network, rec)
    except DataError as exc:
        if recipe is not None:
            raise
        first = exc.problems[0]
        which = "another city's recipe (data/oneday/city-recipe.toml)" if city else "the One Day in London recipe"
        raise NotApplicable(f"{which} does not fit the dataset {network.source} ({first.message}); "
                            "use `--data DIR --recipe FILE`") from None
    deck = build_deck(board)
    need = rec.players_min * rec.slots + rec.discard_piles + 1
    if city and len(deck) < need:  # a toy network: too few stations for even the smallest table
        raise NotApplicable(f"another city's recipe (data/oneday/city-recipe.toml) does not fit the dataset "
                            f"{network.source}: its deck has {len(deck)} cards; {rec.players_min} racks of {rec.slots}, "
                            f"{rec.discard_piles} piles and a draw pile need {need}; use `--data DIR --recipe FILE`")
    return Edition(board, deck, racks, dataset=str(network.source))
