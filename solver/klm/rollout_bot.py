"""Keep London Moving's ``rollout`` bot: greedy improved by playing each move out in sampled worlds.

A flat Monte Carlo search over the seat's own next decision (a rollout algorithm in Bertsekas's
sense, with determinized worlds as in perfect-information Monte Carlo):

* **Worlds**: ``WORLDS`` states the seat cannot tell from the one it is given,
  :meth:`tubedeck.games.klm.play.State.determinize` (the stocks, the discards under their top
  cards and the other hands dealt again from the unseen cards; the rolls and reshuffles to come
  from a new seed). The bot reads nothing else of the state it is given than what its seat sees.
* **Candidates**: every legal action, greedy's own choice first. An action that names a card the
  seat cannot see (Ticket Inspection's card from another player's Fortune hand, a card taken from
  another player's hand in Fast Gameplay) is judged by what the seat chooses (the player, the
  kind), played in each world as the first such action there.
* **Playout**: in every world, each candidate and then greedy for every seat to the end of the
  game: the same worlds for every candidate (common random numbers), so the comparison is between
  moves, not between deals. A won game scores 1 less a little for every turn it took, a lost one 0
  plus a little for every turn it lasted, a game without a winner 0.5.
* **Budget**: ``WORLDS`` (8) worlds for every candidate; where a candidate other than greedy's
  scored better in them, ``MORE`` (24) further worlds for it and for greedy's.
* **Choice**: greedy's own move unless another's mean gain over it, world by world, is more than
  ``Z`` (1) standard errors above nothing; of those, the one whose gain less ``Z`` standard errors
  is largest. A move that only looks better by the luck of a few playouts so stays greedy's: the
  plain best mean, without the margin, lost more games against greedy than it won.

Against greedy the playouts' opponents are the real opponent's policy; what the search does not
know is the cards. A clairvoyant version (:func:`clairvoyant`, the same playout in the one real
state: it knows every hand and the stocks' order) is the ceiling the measurement compares with; it
is not a fair player and no ``--bots`` name plays it (``benchmarks/bench_klm_ceiling.py``).

The budget is in worlds, not time: a seeded game is the same game on any machine. The bot draws
one number from its seat's stream per decision with more than one legal action.
"""

from __future__ import annotations

import random

from tubedeck.games.klm.play import Action, State

from .players import greedy_player

WORLDS = 8  # sampled worlds a decision (docs/play.md: the ladder)
MORE = 24  # more worlds where a move other than greedy's looked better in the first
Z = 1.0  # another move replaces greedy's only if its mean gain is this many standard errors above 0
TURN_WEIGHT = 0.002  # a win sooner (a loss later) by one turn is worth this much of a game,
SHAPED_TURNS = 200  # up to this turn (so a win always scores above a game without a winner, a loss below)


def playout(state: State) -> State:
    """The game played to its end by greedy in every seat (greedy draws nothing from a stream)."""
    while not state.is_terminal():
        state = state.apply(greedy_player(state, _NO_STREAM))
    return state


_NO_STREAM = random.Random(0)  # greedy's signature takes a stream; it never draws from it


def score(end: State, seat: int) -> float:
    """A finished game for ``seat``: a win 1 less a little a turn, a loss 0 plus a little a turn."""
    if end.winner is None:
        return 0.5
    turns = min(end.turn, SHAPED_TURNS)
    return 1.0 - TURN_WEIGHT * turns if end.winner == seat else TURN_WEIGHT * turns


def key(state: State, action: Action) -> Action:
    """What the seat chooses by ``action``: an action that names a card the seat cannot see is
    known by the rest (whom it targets, the Fortune Card played)."""
    kind = action[0]
    if kind == "fortune" and state.table.fortune[action[1]].action == "discard_fortune":
        return action[:3]  # ("fortune", card, seat): that seat discards one of its Fortune Cards
    if kind == "take" and action[2] in state.hands[action[1]]:
        return ("take", action[1], "hand")
    return action


def _in(world: State, action: Action, chosen: Action) -> Action | None:
    """The action of ``world`` that makes the choice ``chosen`` (``action`` itself where it names
    nothing hidden), or None where the world has none."""
    if chosen == action:
        return action if world.is_legal(action) else None
    for b in world.legal_actions():
        if key(world, b) == chosen:
            return b
    return None


def choose(state: State, rng: random.Random, worlds: int = WORLDS, more: int = MORE, z: float = Z) -> Action:
    """The move of the seat to move after ``worlds`` sampled worlds, ``more`` where a move other
    than greedy's looked better in the first ones (see the module docstring)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.current_player()
    rng = random.Random(rng.getrandbits(64))  # one draw from the seat's stream a decision
    sampled = [state.determinize(seat, rng) for _ in range(worlds)]
    # Greedy's own choice, as the seat sees it: greedy reads the other hands where it takes a card
    # from one (Fast Gameplay), so there it decides in the first world.
    here = sampled[0] if state.phase == "take" else state
    own = key(here, greedy_player(here, _NO_STREAM))
    candidates: dict[Action, Action] = {}  # choice -> the root's first action that makes it
    for a in legal:
        candidates.setdefault(key(state, a), a)
    if own not in candidates:  # (a take greedy chose in a world the root cannot make)
        own = next(iter(candidates))
    values: dict[Action, list[float | None]] = {c: [] for c in candidates}

    def play(worlds_: list[State], choices) -> None:
        for c in choices:
            for world in worlds_:
                b = _in(world, candidates[c], c)
                values[c].append(None if b is None else score(playout(world.apply(b)), seat))

    play(sampled, candidates)
    if more > 0 and any(_gain(values[c], values[own])[0] > 0 for c in candidates if c != own):
        extra = [state.determinize(seat, rng) for _ in range(more)]
        play(extra, [c for c in candidates if c == own or _gain(values[c], values[own])[0] > 0])
    best, best_low = own, 0.0
    for c in candidates:
        if c == own:
            continue
        mean, low = _gain(values[c], values[own], z)
        if mean > 0 and low > best_low:
            best, best_low = c, low
    return candidates[best]


def _gain(mine: list[float | None], theirs: list[float | None], z: float = 0.0) -> tuple[float, float]:
    """The mean gain of a move over greedy's in the worlds both were played in, and that mean less
    ``z`` standard errors (0, 0 with fewer than two such worlds)."""
    d = [a - b for a, b in zip(mine, theirs) if a is not None and b is not None]
    if len(d) < 2:
        return 0.0, 0.0
    mean = sum(d) / len(d)
    var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
    return mean, mean - z * (var / len(d)) ** 0.5


def rollout_player(state: State, rng: random.Random) -> Action:
    """``rollout``: :func:`choose` with ``WORLDS`` worlds a decision."""
    return choose(state, rng)


def clairvoyant(state: State, rng: random.Random) -> Action:
    """Not a fair player: every candidate played out by greedy in the real state (it knows the
    other hands, the stocks' order and the rolls to come, and that its opponents play greedy).
    Where greedy's own choice wins the real game so does the move it picks, so it wins at least
    the games greedy would in its seat; the ceiling of ``benchmarks/bench_klm_ceiling.py``."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.current_player()
    own = greedy_player(state, rng)
    best, best_value = own, -1.0
    for a in (own,) + tuple(b for b in legal if b != own):
        value = score(playout(state.apply(a)), seat)  # the real game: the cards and rolls to come
        if value > best_value:
            best, best_value = a, value
    return best
