"""Players for One Day in London as played (:mod:`tubedeck.games.oneday.play`).

Every player is ``bot(state, rng) -> action`` (:data:`tubedeck.play.Bot`): the edition is the
state's own. ``random`` draws from ``rng`` (the seat's seeded stream), the others are pure
functions of the state, so a game is its seed and its bots and replays exactly:

* ``random``: a uniformly random legal action;
* ``greedy``: local and quick. It places and exchanges a card where it shares a line with a
  neighbouring slot that does not share one yet, takes a discard top only if it has such a place,
  and otherwise draws from the draw pile;
* ``lookahead``: the minimum-exchange solver picks. Each turn it asks the exact engine
  (:func:`tubedeck.solver.oneday.exchanges.solve_rack`, ``auto``) for a target journey. What it can obtain
  follows the text: the draw pile and the tops of the discard piles, so the deck less the other
  racks and less the buried discards (not the optimistic bound of ``check oneday``). It takes
  a visible card that fills a wrong slot of that journey, else draws, and exchanges the drawn card
  into a wrong slot it fills. It is an oracle in one respect: it knows which cards the other
  racks hold (the racks face their owners at the table), as ``check oneday``'s bound does.

``random`` and ``greedy`` see only what their seat sees (``State.observation``): their own rack,
the discard piles and the card they hold.
"""

from __future__ import annotations

import random

from tubedeck.games.oneday.edition import Edition
from tubedeck.games.oneday.play import STOCK, Action, State
from tubedeck.play import Bot

from .exchanges import caps_for, solve_rack, space_of


def random_player(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def _fits(edition: Edition, rack, slot: int, station: str) -> bool:
    """Whether ``station`` in ``slot`` shares a line with a filled neighbouring slot."""
    gmap = edition.board
    for k in (slot - 1, slot + 1):
        if 0 <= k < len(rack) and rack[k] is not None and rack[k].station != station \
                and gmap.common_lines(rack[k].station, station):
            return True
    return False


def linked(edition: Edition, rack, slot: int) -> bool:
    card = rack[slot]
    return card is not None and _fits(edition, rack, slot, card.station)


def _place(state: State) -> Action:
    edition, rack, card = state.edition, state.racks[state.to_move], state.stock[0]
    legal = [k for _, k in state.legal_actions()]
    for k in legal:
        if _fits(edition, rack, k, card.station):
            return ("place", k)
    return ("place", legal[len(legal) // 2])


def _greedy_slot(state: State, card) -> int | None:
    edition, rack = state.edition, state.racks[state.to_move]
    for k in range(len(rack)):
        if not linked(edition, rack, k) and _fits(edition, rack, k, card.station):
            return k
    return None


def greedy_player(state: State, rng: random.Random) -> Action:
    if state.phase == "setup":
        return _place(state)
    if state.phase == "draw":
        for i, pile in enumerate(state.piles):
            if pile and _greedy_slot(state, pile[-1]) is not None:
                return ("draw", i)
        return ("draw", STOCK) if state.stock else state.legal_actions()[0]
    if state.phase == "exchange":
        k = _greedy_slot(state, state.holding)
        return ("exchange", k) if k is not None else ("keep", None)
    return state.legal_actions()[0]


def target_journey(state: State) -> tuple[str, ...] | None:
    """The solver's target journey for the player to move (None when it finds none)."""
    edition = state.edition
    space = space_of(edition)
    me = state.to_move
    rack = tuple(c.station for c in state.racks[me] if c is not None)  # full after setup
    others = [c.station for p, r in enumerate(state.racks) if p != me for c in r if c is not None]
    others += [c.station for pile in state.piles for c in pile[:-1]]  # buried: not at hand
    caps = caps_for(space, edition.deck.copies(), others)
    held = _MEMO.get(id(edition))
    if held is None or held[0] is not edition:
        held = _MEMO[id(edition)] = (edition, {})
    memo, key = held[1], (rack, caps.tobytes())
    if key not in memo:  # memoised on the solver's whole input, so still a pure function: a draw
        if len(memo) >= 256:  # from the draw pile leaves it unchanged between draw and exchange
            memo.clear()
        sol = solve_rack(edition.board, space, rack, caps, "auto")
        memo[key] = sol.journey.stations if sol.journey else None
    return memo[key]


_MEMO: dict[int, tuple[Edition, dict]] = {}  # holds the edition, so its id is never reused


def _wrong_slot(state: State, target, station: str) -> int | None:
    rack = state.racks[state.to_move]
    for k, want in enumerate(target or ()):
        card = rack[k]
        if want == station and (card is None or card.station != want):
            return k
    return None


def lookahead_player(state: State, rng: random.Random) -> Action:
    if state.phase == "setup":
        return _place(state)
    target = target_journey(state) if state.phase in ("draw", "exchange") else None
    if state.phase == "draw":
        for i, pile in enumerate(state.piles):
            if pile and _wrong_slot(state, target, pile[-1].station) is not None:
                return ("draw", i)
        return ("draw", STOCK) if state.stock else state.legal_actions()[0]
    if state.phase == "exchange" and state.holding is not None:
        k = _wrong_slot(state, target, state.holding.station)
        return ("exchange", k) if k is not None else ("keep", None)
    return state.legal_actions()[0]


# the first is the default bot
PLAYERS: dict[str, Bot[State]] = {"lookahead": lookahead_player, "greedy": greedy_player, "random": random_player}
