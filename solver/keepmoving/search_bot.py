"""Keep Moving for the search bot (:mod:`tubedeck.solver.mcts`): greedy rollouts of 8 decisions, then the
look-ahead bot's static value (life cubes, room off the lava, cards in hand)."""

from __future__ import annotations

from tubedeck.games.keepmoving.play import State
from tubedeck.solver.mcts import Profile, roster

from .players import PLAYERS, static_value


def value(state: State) -> list[float]:
    return [static_value(state, p) for p in range(state.players)]


SEARCH = Profile("tubedeck.solver.keepmoving.players:greedy_player", 8, "tubedeck.solver.keepmoving.search_bot:value", 2.0, budget=400)

# The game's bots (its declaration's roster): its own by name, then the search bot.
BOTS = roster(PLAYERS, SEARCH)
