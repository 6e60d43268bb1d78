"""Fortune Card effects, read from each kind's machine-readable parameters (``data/klm/fortune.csv``).

An action is ``("fortune", card, *targets)``. Per ``action``:

* ``disable``: ``target`` ``opponent`` with ``cards`` 1 names ``(seat, station)``; with ``cards`` 2,
  ``(seat, a, b)``, two Active cards joined by a Connection; ``all_opponents`` with ``by_line``
  names a line, and in every opponent's Play Field the Active card of that line with the most
  Connections (then the lowest id) is Disabled (decision: the card that hurts most by a simple,
  visible measure, so the action stays one choice). A player under a ``protect`` effect cannot
  be targeted. Lasts ``turns`` of the caster's own turns (see :mod:`.play`).
* ``enable``: one of the player's own Disabled cards, ``(station,)``, is Active again.
* ``protect``: the player's cards cannot be Disabled for ``turns``; the card stays face up in
  front of the player until then, then goes to the discards.
* ``draw_fortune`` / ``draw_station``: draw ``draw`` more; a Fortune Card drawn so may not be
  played this turn.
* ``take_discard``: the top ``cards`` of the Discarded Station Cards Stock into the hand.
* ``discard_fortune``: ``(seat, card)``: that opponent discards that Fortune Card.
* ``block_connection``: ``(seat,)``: that opponent creates no Connection for ``turns``.

Two copies of one kind give the same actions, so only the first copy in a hand is offered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# :class:`tubedeck.games.klm.play.State`: play imports this module, so importing it back would be a cycle.
State = Any
Action = tuple[Any, ...]  # as in :mod:`.play`: the kind, then arguments typed by the kind


@dataclass(frozen=True)
class Effect:
    """A lasting effect: ``disabled`` (``seat``'s card ``station``), ``protected`` or ``blocked``
    (``seat``). It ends when ``caster`` finishes own turn ``until``; ``card`` is a Fortune Card
    kept face up until then."""

    kind: str
    seat: int
    caster: int
    until: int
    station: str = ""
    card: str = ""


def _victims(state: State) -> list[int]:
    me = state.to_move
    return [p for p in range(state.players) if p != me and not state.has_effect("protected", p)]


def line_pick(state: State, seat: int, line: str) -> str | None:
    """The card of ``line`` a line-wide Disable hits in ``seat``'s Play Field (see the docstring)."""
    fld, off, lines = state.fields[seat], state.disabled(seat), state.table.lines
    cards = [c for c in fld.cards if c not in off and line in lines[c]]
    return min(cards, key=lambda c: (-fld.degree(c), c)) if cards else None


def targets(state: State, kind) -> list[tuple]:
    """Every target tuple ``kind`` may take now (empty: the card cannot be played)."""
    me = state.to_move
    if kind.action == "disable":
        if kind.target == "all_opponents" or kind.by_line:
            seats = _victims(state)
            lines = sorted({l for p in seats for c in state.fields[p].cards for l in state.table.lines[c]})
            return [(l,) for l in lines if any(line_pick(state, p, l) for p in seats)]
        out: list[tuple[int | str, ...]] = []  # (seat, card) or (seat, a, b)
        for p in _victims(state):
            off, fld = state.disabled(p), state.fields[p]
            if kind.cards == 1:
                out += [(p, c) for c in sorted(fld.cards) if c not in off]
            else:
                out += [(p, a, b) for a, b in sorted(fld.links) if a not in off and b not in off]
        return out
    if kind.action == "enable":
        return [(c,) for c in sorted(state.disabled(me))]
    if kind.action == "protect":
        return [()]
    if kind.action == "draw_fortune":
        return [()] if state.fortune_stock or state.fortune_discards else []
    if kind.action == "draw_station":
        return [()] if state.stock or state.discards else []
    if kind.action == "take_discard":
        return [()] if state.discards else []
    if kind.action == "discard_fortune":
        return [(p, c) for p in range(state.players) if p != me for c in _first_of_kinds(state, p)]
    if kind.action == "block_connection":
        return [(p,) for p in range(state.players) if p != me]
    return []


def _first_of_kinds(state: State, seat: int, playable: bool = False) -> list[str]:
    seen, out = set(), []
    for c in state.fortune_hands[seat]:
        k = state.table.fortune[c].id
        if k not in seen and not (playable and c in state.fresh):
            seen.add(k)
            out.append(c)
    return out


def fortune_actions(state: State, only: str | None = None) -> tuple[Action, ...]:
    """Every Fortune Card action of the player to move (``only``: of that card alone)."""
    if state.fortunes >= state.table.rules.fortune_per_turn:
        return ()
    out: list[Action] = []
    for card in _first_of_kinds(state, state.to_move, playable=True):
        if only is None or card == only:
            out += [("fortune", card, *t) for t in targets(state, state.table.fortune[card])]
    return tuple(out)


def apply_fortune(state: State, action: Action) -> State:
    """Play the Fortune Card: its effect, then the card to the discards (or face up)."""
    me, card, args = state.to_move, action[1], action[2:]
    kind = state.table.fortune[card]
    until = state.own_turns[me] + 1 + kind.turns  # the turn of play does not count (rule 3.3)
    state = state.evolve(fortune_hands=state.with_seat("fortune_hands", me,
                                                       tuple(c for c in state.fortune_hands[me] if c != card)),
                         fortunes=state.fortunes + 1, fortune_plays=state.fortune_plays + ((state.turn, me, card),))
    kept = ""
    if kind.action == "disable":
        if kind.target == "all_opponents" or kind.by_line:
            hits = [(p, line_pick(state, p, args[0])) for p in _victims(state)]
        else:
            hits = [(args[0], s) for s in args[1:]]
        state = state.evolve(effects=state.effects + tuple(Effect("disabled", p, me, until, s) for p, s in hits if s))
    elif kind.action == "enable":
        state = state.evolve(effects=tuple(e for e in state.effects
                                           if not (e.kind == "disabled" and e.seat == me and e.station == args[0])))
        state = state.settle((me,))
    elif kind.action == "protect":
        kept = card
        state = state.evolve(effects=state.effects + (Effect("protected", me, me, until, card=card),))
    elif kind.action == "draw_fortune":
        for _ in range(kind.draw):
            state = state.draw_fortune(me, fresh=True)
    elif kind.action == "draw_station":
        for _ in range(kind.draw):
            state, _drawn = state.draw_station(me)
    elif kind.action == "take_discard":
        taken = state.discards[-kind.cards:]
        state = state.evolve(discards=state.discards[:-kind.cards],
                             hands=state.with_seat("hands", me, tuple(sorted(state.hands[me] + taken))))
    elif kind.action == "discard_fortune":
        seat, lost = args
        state = state.evolve(fortune_hands=state.with_seat("fortune_hands", seat,
                                                           tuple(c for c in state.fortune_hands[seat] if c != lost)),
                             fortune_discards=state.fortune_discards + (lost,))
    elif kind.action == "block_connection":
        state = state.evolve(effects=state.effects + (Effect("blocked", args[0], me, until),))
    if not kept:
        state = state.evolve(fortune_discards=state.fortune_discards + (card,))
    return state
