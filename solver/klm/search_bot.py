"""Keep London Moving for the search bot (:mod:`tubedeck.solver.mcts`): greedy rollouts of 12 decisions,
then each seat's distance from a winning path (:func:`.players.need`)."""

from __future__ import annotations

from tubedeck.games.klm.play import State
from tubedeck.solver.mcts import Profile, roster

from .players import PLAYERS, need
from .rollout_bot import rollout_player


def value(state: State) -> list[float]:
    """Per seat, minus the cards it still lacks for its nearest winning path."""
    return [-need(state, p) for p in range(state.players)]


SEARCH = Profile("tubedeck.solver.klm.players:greedy_player", 12, "tubedeck.solver.klm.search_bot:value", 1.0, budget=100)

# The game's bots (its declaration's roster): its own by name (``rollout``: greedy improved by
# playouts in sampled worlds, :mod:`.rollout_bot`), then the search bot.
BOTS = roster({**PLAYERS, "rollout": rollout_player}, SEARCH)
