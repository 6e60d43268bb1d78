"""Tube Dice for the search bot (:mod:`tubedeck.solver.mcts`): greedy rollouts of 6 decisions (about two
rolls at two players), then each sheet's score plus what its lines and zones in progress promise."""

from __future__ import annotations

from tubedeck.games.dice.play import State
from tubedeck.solver.mcts import Profile, roster

from .players import PLAYERS, line_value, tables, zone_value


def value(state: State) -> list[float]:
    """Per seat, its score so far plus the greedy bot's valuation of every line and zone not yet
    complete (its points by the square of the share of it done)."""
    t, ed = tables(state.edition), state.edition
    lines, zones = state.claimed
    out = []
    for score, sheet in zip(state.scores(), state.sheets):
        v = float(score)
        v += sum(line_value(t, i, sheet.filled, sheet.marked, lines) for i in range(len(ed.lines))
                 if not sheet.lines >> i & 1)
        v += sum(zone_value(t, i, sheet.filled, zones) for i in range(len(ed.zones)) if not sheet.zones >> i & 1)
        out.append(v)
    return out


SEARCH = Profile("tubedeck.solver.dice.players:greedy_player", 6, "tubedeck.solver.dice.search_bot:value", 3.0, budget=100)

# The game's bots (its declaration's roster): its own by name, then the search bot.
BOTS = roster(PLAYERS, SEARCH)
