"""One Day in London for the search bot (:mod:`tubedeck.solver.mcts`): rollouts of 8 decisions by the
lookahead bot, then each rack against the journey the lookahead bot's solver aims at."""

from __future__ import annotations

from dataclasses import replace

from tubedeck.games.oneday.play import State
from tubedeck.solver.mcts import Profile, roster

from .players import PLAYERS, linked, target_journey


def value(state: State) -> list[float]:
    """Per seat, the slots of its rack already holding the station of its target journey (the
    lookahead bot's), else half the slots linked to a neighbour by a line."""
    ed, out = state.edition, []
    for p, rack in enumerate(state.racks):
        target = target_journey(replace(state, to_move=p)) if state.phase != "setup" else None
        if target:
            out.append(float(sum(c is not None and c.station == t for c, t in zip(rack, target))))
        else:
            out.append(0.5 * sum(linked(ed, rack, k) for k in range(len(rack))))
    return out


SEARCH = Profile("tubedeck.solver.oneday.players:lookahead_player", 8, "tubedeck.solver.oneday.search_bot:value", 1.0, budget=100)

# The game's bots (its declaration's roster): its own by name, then the search bot.
BOTS = roster(PLAYERS, SEARCH)
