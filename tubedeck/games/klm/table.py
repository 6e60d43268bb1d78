"""What the play engine reads from an edition, precomputed once: the rules values, the connection
graph, the Terminus cards, each card's lines and each Fortune Card's kind."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import FortuneKind
from .rules import Rules


@dataclass(frozen=True, eq=False)  # one per edition: compared and hashed by identity
class CardLinks:
    rules: Rules
    adjacency: dict[str, tuple[str, ...]]  # Station Card -> cards sharing a Connection Number
    termini: frozenset[str]
    lines: dict[str, tuple[str, ...]]  # Station Card -> the lines it shows (Line Closure picks by these)
    names: dict[str, str]  # Station Card -> station name, for logs
    fortune: dict[str, FortuneKind]  # Fortune Card id -> its kind
    line_names: dict[str, str] = field(default_factory=dict)  # line id -> its name ("Victoria"), for logs

    @classmethod
    def of(cls, edition) -> "CardLinks":
        return cls(edition.rules, edition.adjacency, edition.termini,
                   {c.station: c.lines for c in edition.deck.cards},
                   {c.station: c.name for c in edition.deck.cards},
                   {f.id: f.kind for f in edition.fortune},
                   {l: edition.network.lines[l].name for c in edition.deck.cards for l in c.lines
                    if l in edition.network.lines})
