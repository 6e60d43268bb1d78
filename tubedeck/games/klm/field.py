"""A player's Play Field in Keep London Moving: the Station Cards played and the Connections made.

A Connection is an explicit act (rule 3.4: at most one per turn), so the field keeps its
Connections, not just its cards: two cards that share a Connection Number may lie side by side
unconnected until a later turn connects them. A card is never in the field without a
Connection (Help Point: a card whose Connection is broken goes back to its owner's hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable


def link(a: str, b: str) -> tuple[str, str]:
    """A Connection as a sorted pair, so (a, b) and (b, a) are one."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class PlayField:
    """``cards``: the Station Cards in the field; ``links``: its Connections (sorted pairs)."""

    cards: frozenset[str] = frozenset()
    links: frozenset[tuple[str, str]] = frozenset()

    def neighbours(self, station: str) -> tuple[str, ...]:
        return tuple(sorted(b if a == station else a for a, b in self.links if station in (a, b)))

    def degree(self, station: str) -> int:
        return sum(station in pair for pair in self.links)

    def connect(self, a: str, b: str) -> "PlayField":
        return PlayField(self.cards | {a, b}, self.links | {link(a, b)})

    def without(self, station: str) -> tuple["PlayField", tuple[str, ...]]:
        """The field after ``station`` leaves it, and the cards left with no Connection (which go
        back to their owner's hand), sorted."""
        links = frozenset(p for p in self.links if station not in p)
        linked = {s for p in links for s in p}
        orphans = tuple(sorted(c for c in self.cards if c != station and c not in linked))
        return PlayField(frozenset(linked), links), orphans

    def adjacency(self, active: Callable[[str], bool] = lambda s: True) -> dict[str, list[str]]:
        """Neighbours along Connections between Active cards only."""
        adj: dict[str, list[str]] = {}
        for a, b in self.links:
            if active(a) and active(b):
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
        return adj

    def route(self, cap: int, disabled: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """The longest simple path of connected Active cards, up to ``cap`` stations (the first
        found in name order; a lone Active card is a path of one). Memoised: a game asks often."""
        return _route(self, cap, disabled)

    def longest(self, cap: int, disabled: frozenset[str] = frozenset()) -> int:
        return len(_route(self, cap, disabled))

    def path(self, length: int, disabled: frozenset[str] = frozenset()) -> tuple[str, ...] | None:
        """A simple path of ``length`` Active connected cards (the win), or None."""
        found = _route(self, length, disabled)
        return found if len(found) == length else None


@lru_cache(maxsize=8192)
def _route(fld: PlayField, cap: int, disabled: frozenset[str]) -> tuple[str, ...]:
    adj = fld.adjacency(lambda s: s not in disabled)
    best: list[str] = []
    for start in sorted(adj):
        best = _deepest(adj, [start], cap, best)
        if len(best) >= cap:
            return tuple(best)
    if not best:
        lone = sorted(c for c in fld.cards if c not in disabled)
        return tuple(lone[:1])
    return tuple(best)


def _deepest(adj: dict[str, list[str]], path: list[str], cap: int, best: list[str]) -> list[str]:
    if len(path) > len(best):
        best = list(path)
    for n in sorted(adj[path[-1]]):
        if len(best) >= cap:
            break
        if n not in path:
            path.append(n)
            best = _deepest(adj, path, cap, best)
            path.pop()
    return best


def components(cards: Iterable[str], adjacency: dict[str, tuple[str, ...]]) -> list[set[str]]:
    """Connected groups of ``cards`` in the deck's connection graph (cards that could link up)."""
    todo, out = set(cards), []
    while todo:
        start = min(todo)
        todo.discard(start)
        group, stack = {start}, [start]
        while stack:
            for n in adjacency.get(stack.pop(), ()):
                if n in todo:
                    todo.discard(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out
