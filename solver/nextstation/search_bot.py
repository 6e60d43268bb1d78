"""Next Station for the search bot (:mod:`tubedeck.solver.mcts`): greedy rollouts to the end of the game
(36 decisions a seat at most), scored by the final scores. With the advanced modules the search
weighs Pencil Power uses as it weighs any action (they are among the legal actions), and its
greedy rollouts use the powers and aim at the Shared Objectives (:mod:`.players`)."""

from __future__ import annotations

from tubedeck.solver.mcts import Profile, roster

from .planner import NAME as PLANNER
from .planner import Planner
from .players import PLAYERS

SEARCH = Profile("tubedeck.solver.nextstation.players:greedy_player", 200, budget=1000)

# The game's bots (its declaration's roster): its own by name, the planner (``planner[:SAMPLES]``,
# :mod:`.planner`), then the search bot.
_ROSTER = roster(PLAYERS, SEARCH)
BOTS = {**{k: f for k, f in _ROSTER.items() if k != "mcts"}, PLANNER: Planner(), "mcts": _ROSTER["mcts"]}
