"""Keep Moving for the search bot (:mod:`solver.mcts`): greedy rollouts of 8 decisions, then the
look-ahead bot's static value (life cubes, room off the lava, cards in hand)."""

from __future__ import annotations

from solver.mcts import Profile
from tubedeck.games.keepmoving.play import State

from .players import static_value


def value(state: State) -> list[float]:
    return [static_value(state, p) for p in range(state.players)]


SEARCH = Profile("solver.keepmoving.players:greedy_player", 8, "solver.keepmoving.search_bot:value", 2.0, budget=400)
