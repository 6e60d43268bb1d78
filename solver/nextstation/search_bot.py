"""Next Station for the search bot (:mod:`solver.mcts`): greedy rollouts to the end of the game
(36 decisions a seat at most), scored by the final scores."""

from __future__ import annotations

from solver.mcts import Profile

SEARCH = Profile("solver.nextstation.players:greedy_player", 200)
