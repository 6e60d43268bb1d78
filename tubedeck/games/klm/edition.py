"""One Keep London Moving edition: a scope's Station deck, the Fortune deck and the rules, built
once per process from the dataset and handed to the print faces and the checker alike."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tubedeck.network import Network

from .cards import FortuneCard, StationDeck, build_deck, fortune_deck, load_fortune
from .rules import RuleBook, load_rules
from .scope import Scope, default_scope_recipe, parse_scope
from .setup import Deal, deal
from .table import CardLinks


@dataclass(frozen=True)
class Edition:
    """Everything one game of Keep London Moving is played with."""

    network: Network  # the full dataset: facts on the cards come from here
    scope: Scope
    deck: StationDeck
    fortune: tuple[FortuneCard, ...]
    book: RuleBook

    @property
    def rules(self):
        return self.book.rules

    @cached_property
    def adjacency(self) -> dict[str, tuple[str, ...]]:
        """The connection graph the rules allow, as sorted neighbour tuples (what the solver reads)."""
        return {s: tuple(sorted(self.deck.graph[s])) for s in self.deck.graph}

    @cached_property
    def termini(self) -> frozenset[str]:
        """The Terminus cards (one Connection only: they can only end a winning path)."""
        return frozenset(c.station for c in self.deck.cards if c.terminus)

    @cached_property
    def table(self):
        """What the play engine reads (:mod:`.table`), built once."""
        return CardLinks.of(self)

    @cached_property
    def scope_network(self) -> Network:
        return self.scope.cut(self.network)

    def deal(self, players: int, seed: int) -> Deal:
        return deal(tuple(c.station for c in self.deck.cards), tuple(c.id for c in self.fortune), players, seed,
                    self.rules)


def load(network: Network, scope: str | None = None) -> Edition:
    """The edition of ``scope`` (default: the scope marked default in ``data/klm/scopes.csv``)."""
    sc = parse_scope(scope if scope is not None else default_scope_recipe(), network)
    return Edition(network, sc, build_deck(network, sc), fortune_deck(load_fortune()), load_rules())
