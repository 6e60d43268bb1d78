"""Players for Keep London Moving as played (:mod:`tubedeck.games.klm.play`).

Every player is ``bot(state, rng) -> action`` (:data:`tubedeck.play.Bot`): the edition comes
from the state, and ``rng`` is the seat's own seeded stream, so a game replays exactly. They never
read the stocks' order; ``greedy`` and ``lookahead`` do read the other hands (the full state), which
:meth:`~tubedeck.games.klm.play.State.observation` would hide.

* ``random``: a uniformly random legal action, drawn from ``rng``.
* ``greedy``: one rule list, checked in order: a Connection that wins; make an own Disabled card
  Active; stop an opponent one Connection from winning (Disable a card of their longest path, or
  block their Connections); draw more cards; the Connection that makes the longest path (then
  the one touching the most own cards); protect a path of three or more; make an opponent discard
  a Fortune Card; end the turn. It discards the cards with the fewest links to its own cards.
* ``lookahead``: a one-turn look-ahead. It scores every action by the state it leads to: how many
  cards each player still lacks for the nearest winning path in the deck (its own cards count
  most when connected and Active, cards held by others count as lost), its own need against the
  nearest opponent's. Unlucky Hand, discards and Fast Gameplay takes follow ``greedy``.
"""

from __future__ import annotations

import random
from functools import lru_cache

from tubedeck.games.klm.play import END, PASS, Action, State
from tubedeck.play import Bot


def random_player(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


# -- greedy ---------------------------------------------------------------------------------

def _mine(state: State, seat: int) -> set[str]:
    return set(state.hands[seat]) | state.fields[seat].cards


def _links(state: State, seat: int, card: str, mine: set[str] | None = None) -> int:
    mine = _mine(state, seat) if mine is None else mine
    return sum(n in mine for n in state.table.adjacency[card])


def longest(state: State, seat: int) -> int:
    return state.longest(seat)


def _unlucky(state: State) -> Action:
    hand = set(state.hands[state.to_move])
    paired = any(_links(state, state.to_move, c, hand) for c in hand)
    return ("unlucky", not paired)


def _discard(state: State, actions) -> Action:
    me = state.to_move
    mine = _mine(state, me)
    cards = [a[1] for a in actions]
    if cards[0] in state.table.fortune:  # Fortune Cards: keep the ones that act
        return ("discard", min(cards, key=lambda c: (_FORTUNE_KEEP.get(state.table.fortune[c].action, 0), c)))
    return ("discard", min(cards, key=lambda c: (_links(state, me, c, mine), len(state.table.adjacency[c]), c)))


_FORTUNE_KEEP = {"disable": 6, "enable": 5, "draw_station": 4, "take_discard": 3, "block_connection": 3,
                 "protect": 2, "draw_fortune": 2, "discard_fortune": 1}


def _take(state: State, actions) -> Action:
    me = state.to_move
    mine = _mine(state, me)
    takes = [a for a in actions if a != PASS]
    best = max(takes, key=lambda a: (_links(state, me, a[2], mine), longest(state, a[1]), a), default=None)
    return best if best is not None and _links(state, me, best[2], mine) else PASS


def _threat(state: State) -> tuple[int, int] | None:
    """(seat, longest path) of the opponent nearest a win, if any."""
    me = state.to_move
    opp = [(longest(state, p), -((p - me) % state.players), p) for p in range(state.players) if p != me]
    n, _, p = max(opp)
    return (p, n) if n >= 2 else None


def _path_of(state: State, seat: int) -> tuple[str, ...]:
    return state.fields[seat].route(state.table.rules.path, state.disabled(seat))


def _by_action(state: State, actions) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for a in actions:
        if a[0] == "fortune":
            out.setdefault(state.table.fortune[a[1]].action, []).append(a)
    return out


def _best_connect(state: State, connects: list[Action]) -> Action | None:
    me = state.to_move
    fld, mine, cap = state.fields[me], _mine(state, me), state.table.rules.path

    def score(a):
        after = fld.connect(a[1], a[2])
        return (after.longest(cap, state.disabled(me)), (a[1] in fld.cards) + (a[2] in fld.cards),
                _links(state, me, a[1], mine) + _links(state, me, a[2], mine), a)
    return max(connects, key=score, default=None)


def greedy_player(state: State, rng: random.Random) -> Action:
    actions = state.legal_actions()
    if state.phase == "unlucky":
        return _unlucky(state)
    if state.phase == "discard":
        return _discard(state, actions)
    if state.phase == "take":
        return _take(state, actions)
    me, cap = state.to_move, state.table.rules.path
    connects = [a for a in actions if a[0] == "connect"]
    for a in connects:
        if state.fields[me].connect(a[1], a[2]).longest(cap, state.disabled(me)) >= cap:
            return a
    fortune = _by_action(state, actions)
    if fortune.get("enable"):
        return fortune["enable"][0]
    threat = _threat(state)
    if threat and threat[1] >= cap - 1:
        hit = _hit(state, threat[0], fortune)
        if hit:
            return hit
    for kind in ("draw_station", "take_discard", "draw_fortune"):
        if fortune.get(kind) and (kind != "take_discard" or _links(state, me, state.discards[-1])):
            return fortune[kind][0]
    best = _best_connect(state, connects)
    if best:
        return best
    if fortune.get("protect") and longest(state, me) >= 3 and not state.has_effect("protected", me):
        return fortune["protect"][0]
    if threat and threat[1] >= cap - 2:
        hit = _hit(state, threat[0], fortune)
        if hit:
            return hit
    if fortune.get("discard_fortune"):
        return fortune["discard_fortune"][0]
    return END


def _hit(state: State, seat: int, fortune: dict[str, list[Action]]) -> Action | None:
    """A Fortune action against ``seat``'s longest path: Disable its middle, else block them."""
    path = _path_of(state, seat)
    middle = path[len(path) // 2] if path else None
    for a in fortune.get("disable", ()):
        args = a[2:]
        if len(args) == 1 and middle and args[0] in state.table.lines[middle]:
            return a
        if len(args) >= 2 and args[0] == seat and middle in args[1:]:
            return a
    for a in fortune.get("block_connection", ()):
        if a[2] == seat and not state.has_effect("blocked", seat):
            return a
    return None


# -- lookahead: one-turn look-ahead --------------------------------------------------------------

@lru_cache(maxsize=4)
def path_masks(table) -> tuple[dict[str, int], dict[str, tuple[int, ...]]]:
    """Every simple path of ``rules.path`` stations in the deck's graph as a bit mask, indexed by station."""
    adj, length = table.adjacency, table.rules.path
    bit = {s: 1 << i for i, s in enumerate(sorted(adj))}
    found: set[int] = set()

    def grow(path: list[str], mask: int) -> None:
        if len(path) == length:
            found.add(mask)
            return
        for n in adj[path[-1]]:
            if not mask & bit[n] and not (n in table.termini and 0 < len(path) < length - 1):
                grow(path + [n], mask | bit[n])
    for s in sorted(adj):  # a Terminus card only ends a path: grow() keeps it out of the middle
        grow([s], bit[s])
    by_station: dict[str, list[int]] = {s: [] for s in adj}
    for m in found:
        for s, b in bit.items():
            if m & b:
                by_station[s].append(m)
    return bit, {s: tuple(ms) for s, ms in by_station.items()}


def need(state: State, seat: int) -> float:
    """Cards ``seat`` still lacks for the nearest winning path (connected Active cards count 0,
    cards in hand 0.5, unseen cards 1, cards held by others 3)."""
    bit, by_station = path_masks(state.table)
    fld, off = state.fields[seat], state.disabled(seat)
    linked = sum(bit[c] for c in fld.cards if c not in off)
    held = sum(bit[c] for c in state.hands[seat]) | sum(bit[c] for c in off)
    lost = 0
    for p in range(state.players):
        if p != seat:
            lost |= sum(bit[c] for c in state.hands[p]) | sum(bit[c] for c in state.fields[p].cards)
    best = float(state.table.rules.path)
    seen: set[int] = set()
    for c in list(fld.cards) + list(state.hands[seat]):
        for m in by_station[c]:
            if m in seen:
                continue
            seen.add(m)
            cost = (m & held).bit_count() * 0.5 + (m & lost).bit_count() * 3 \
                + (m & ~(linked | held | lost)).bit_count()
            if cost < best:
                best = cost
    return best


def _value(state: State, seat: int) -> float:
    if state.winner is not None:
        return 100.0 if state.winner == seat else -100.0
    mine = need(state, seat) - 0.01 * len(state.fortune_hands[seat])
    theirs = min(need(state, p) for p in range(state.players) if p != seat)
    return theirs - mine


def lookahead_player(state: State, rng: random.Random) -> Action:
    if state.phase != "play":
        return greedy_player(state, rng)
    me = state.to_move
    best, best_value = END, _value(state, me)
    for a in state.legal_actions():
        if a == END:
            continue
        v = _value(state.apply(a), me)
        if v > best_value + 1e-9:
            best, best_value = a, v
    return best


PLAYERS: dict[str, Bot[State]] = {"random": random_player, "greedy": greedy_player, "lookahead": lookahead_player}
