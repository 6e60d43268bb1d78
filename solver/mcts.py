"""One search bot for every game: Monte Carlo tree search written once against the play contract.

:func:`search` is information-set MCTS (Cowling, Powley and Whitehouse's single-observer ISMCTS):

* every iteration starts from a **determinization** of the root, :func:`tubedeck.play.determinize`
  (the game's ``determinize(seat, rng)`` hook: a state consistent with what the searching seat
  observes, every hidden part resampled: other hands, the stocks' order, the rolls and flips to
  come). The search never reads the hidden parts of the state it is given, only their resample;
* the tree is keyed by the actions from the root (an open-loop tree), so the determinizations
  share it; at a **decision node** UCT picks among the actions legal in this determinization,
  with ISMCTS availability counts; at a **chance node** an outcome is drawn by its probability
  from ``chance_outcomes()`` (never ``dealt_outcome()``: that is the seeded deal, hidden);
* each iteration adds at most one node, so the tree holds at most ``iterations + 1`` nodes: the
  memory is bounded by the budget;
* from the new node a **rollout** plays the game's own cheap policy (its greedy bot) for at most
  ``depth`` decisions, then scores the position: the returns at the end, else the game's
  heuristic. Values are per seat, in [0, 1]: in a game of several seats a seat's share of the
  others it beats (a win 1, a tie 0.5); solo, the score scaled by the scores the search has seen.

The budget is in iterations, not time, so a seeded game is the same game on any machine. A bot
spec is ``mcts`` (the game's own budget, :attr:`Profile.budget`) or ``mcts:ITERATIONS``
(:func:`parse_spec`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from tubedeck.errors import UsageError
from tubedeck.game import resolve
from tubedeck.play import CHANCE, Action, Bot, BotFactory, determinize, sample

NAME = "mcts"
DEFAULT_ITERATIONS = 200
MAX_ITERATIONS = 1_000_000
EXPLORE = 0.7  # the UCT constant for values in [0, 1]
WIDEN = 1.0  # progressive widening: a node visited n times has at most 1 + WIDEN * sqrt(n) children

Evaluate = Callable[[Any], Sequence[float]]  # a position -> a heuristic value per seat (higher is better)


@dataclass(frozen=True)
class Profile:
    """What the search takes from one game: its rollout policy, how far a rollout goes, and the
    heuristic that scores a rollout cut short (``"module:attribute"`` strings, resolved on use)."""

    rollout: str
    depth: int
    evaluate: str | None = None
    scale: float = 1.0  # the heuristic difference that makes a win about 73% likely (a logistic)
    tree: int = 1_000  # how many decisions deep the tree grows (below, the rollout decides)
    explore: float = EXPLORE  # the UCT constant (values in [0, 1])
    budget: int = DEFAULT_ITERATIONS  # what a bare ``mcts`` means for this game (docs/play.md: the ladder)


# -- the spec ---------------------------------------------------------------------------------------
def is_spec(name: str) -> bool:
    """Whether a bot name asks for the search bot (``mcts`` or ``mcts:...``)."""
    return name == NAME or name.startswith(NAME + ":")


def parse_spec(name: str, default: int = DEFAULT_ITERATIONS) -> int:
    """``mcts`` -> ``default`` (the game's budget), ``mcts:2000`` -> 2000 iterations; UsageError otherwise."""
    if name == NAME:
        return default
    text = name[len(NAME) + 1:]
    if not text.isdigit() or not 1 <= int(text) <= MAX_ITERATIONS:
        raise UsageError(f"--bots: {name!r}: the search budget is a whole number of iterations, "
                         f"1-{MAX_ITERATIONS} (as in mcts:2000)")
    return int(text)


def make_bot(profile: Profile, name: str) -> Bot:
    """The search bot ``name`` (``mcts[:ITERATIONS]``) with a game's :class:`Profile`."""
    iterations = parse_spec(name, profile.budget)
    rollout: Bot = resolve(profile.rollout)
    evaluate: Evaluate | None = resolve(profile.evaluate) if profile.evaluate else None

    def bot(state: Any, rng: random.Random) -> Action:
        return search(state, rng, iterations, rollout, profile.depth, evaluate, profile.scale, profile.tree,
                      profile.explore)

    bot.__name__ = f"mcts_{iterations}"
    return bot


def roster(own: Mapping[str, Bot], profile: Profile) -> dict[str, BotFactory]:
    """A game's bots as its declaration lists them (:attr:`tubedeck.game.Game.bots`): each of its
    own by name, then the search bot, ``mcts[:ITERATIONS]``, with the game's profile."""
    def given(bot: Bot) -> BotFactory:
        return lambda spec: bot

    out: dict[str, BotFactory] = {name: given(bot) for name, bot in own.items()}
    out[NAME] = lambda spec: make_bot(profile, spec)
    return out


# -- the search ---------------------------------------------------------------------------------------
class Node:
    """One node of the open-loop tree: visits, summed values per seat, availability (ISMCTS)."""

    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.value = [0.0] * players
        self.avail = 1


class _Scale:
    """Solo scores to [0, 1] by the lowest and highest the search has seen."""

    def __init__(self) -> None:
        self.lo = math.inf
        self.hi = -math.inf

    def __call__(self, x: float) -> float:
        self.lo, self.hi = min(self.lo, x), max(self.hi, x)
        return 0.5 if self.hi <= self.lo else (x - self.lo) / (self.hi - self.lo)


def utilities(values: Sequence[float], scale: float | None = None) -> list[float]:
    """Per seat, its share of the other seats it beats: by the returns (``scale`` None: 1 a win,
    0.5 a tie) or softly by a heuristic (a logistic of the difference over ``scale``)."""
    n = len(values)
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q == p:
                continue
            d = values[p] - values[q]
            if scale is None:
                total += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
            else:
                total += 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -d / scale))))
        out.append(total / (n - 1))
    return out


def search(root: Any, rng: random.Random, iterations: int, rollout: Bot, depth: int,
           evaluate: Evaluate | None = None, scale: float = 1.0, tree_depth: int = 1_000,
           explore: float = EXPLORE) -> Action:
    """The most visited action at ``root`` after ``iterations`` ISMCTS iterations, for the seat to
    move, from what it observes (see the module docstring). Deterministic for ``rng``'s state."""
    legal = list(root.legal_actions())
    if not legal:
        raise ValueError("search: no decision at this state")
    if len(legal) == 1:
        return legal[0]
    seat, players = root.current_player(), root.players
    rng = random.Random(rng.getrandbits(64))  # one draw from the seat's stream a decision
    tree = Node(players)
    solo = _Scale() if players == 1 else None
    for _ in range(iterations):
        state = determinize(root, seat, rng)
        node, path, deep = tree, [tree], 0
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                a = sample(state.chance_outcomes(), rng)
                state = state.apply(a)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node(players)
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if deep >= tree_depth:
                break
            deep += 1
            actions = state.legal_actions()
            kids = node.children
            tried = [a for a in actions if a in kids]
            for a in tried:
                kids[a].avail += 1
            if len(tried) < len(actions) and (not tried or len(tried) < WIDEN * math.sqrt(node.visits)):
                a = rollout(state, rng)  # the policy's own choice first, then the others at random
                if a in kids:
                    untried = [b for b in actions if b not in kids]
                    a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = kids[a] = Node(players)
                state = state.apply(a)
                path.append(child)
                break
            best, best_u = tried[0], -math.inf
            for a in tried:
                c = kids[a]
                u = c.value[p] / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
                if u > best_u:
                    best, best_u = a, u
            state = state.apply(best)
            node = kids[best]
            path.append(node)
        value = _playout(state, rng, rollout, depth, evaluate, scale, solo)
        for n in path:
            n.visits += 1
            v = n.value
            for k in range(players):
                v[k] += value[k]
    best_action, most = legal[0], (-1, 0.0)
    for a in legal:
        top = tree.children.get(a)
        if top is not None and (top.visits, top.value[seat] / top.visits) > most:
            best_action, most = a, (top.visits, top.value[seat] / top.visits)
    return best_action


def _playout(state: Any, rng: random.Random, rollout: Bot, depth: int, evaluate: Evaluate | None,
             scale: float, solo: _Scale | None) -> list[float]:
    """Values per seat in [0, 1] after the rollout policy plays up to ``depth`` decisions."""
    done = 0
    while not state.is_terminal() and done < depth:
        if state.current_player() == CHANCE:
            state = state.apply(sample(state.chance_outcomes(), rng))
            continue
        state = state.apply(rollout(state, rng))
        done += 1
    if state.is_terminal():
        returns = state.returns()
        if solo is not None:
            return [solo(returns[0])]
        return utilities(returns)
    if evaluate is None:
        return [0.5] * state.players
    if solo is not None:
        return [solo(evaluate(state)[0])]
    return utilities(evaluate(state), scale)
