"""One Day in London's cards: one Station Card per copy, a colour Band per line with the
stations before / after (see :mod:`.board` for Runs and the copy-rule decisions)."""

from __future__ import annotations

from dataclasses import dataclass

from tubedeck.errors import UsageError

from .board import Board
from .recipe import COPY_RULES


@dataclass(frozen=True)
class Band:
    """One line on a card: its colour band and the stations before / after this one on the run."""

    line: str
    before: int
    after: int


@dataclass(frozen=True)
class StationCard:
    """One physical card: a station, its bands, and which copy it is (``copy`` of ``copies``)."""

    station: str
    name: str
    bands: tuple[Band, ...]
    copy: int
    copies: int

    @property
    def id(self) -> str:
        return f"{self.station}-{self.copy}"  # file-safe: it names PNG and SVG files

    @property
    def copy_mark(self) -> str:
        return f"{self.copy}/{self.copies}"


@dataclass(frozen=True)
class StationDeck:
    """Every card of the game, in print order."""

    cards: tuple[StationCard, ...]

    def __len__(self) -> int:
        return len(self.cards)

    def copies(self) -> dict[str, int]:
        """Copies per station id."""
        out: dict[str, int] = {}
        for c in self.cards:
            out[c.station] = out.get(c.station, 0) + 1
        return out


def copies_of(gmap: Board, station: str, rule: str | None = None) -> int:
    """How many cards a station gets under ``rule`` (the recipe's by default)."""
    rule = rule or gmap.recipe.copy_rule
    groups = gmap.track_groups_at(station)
    if rule == "lines-minus-one":
        return max(1, groups - 1)
    if rule == "one-per-line":
        return groups
    if rule == "single":
        return 1
    raise UsageError(f"unknown copy rule {rule!r} (known: {', '.join(COPY_RULES)})")


def build_deck(gmap: Board, rule: str | None = None) -> StationDeck:
    """Every card of the game, stations in name order, copies together."""
    cards = []
    for st in sorted(gmap.stations.values(), key=lambda s: (s.name, s.id)):
        bands = tuple(Band(l, *gmap.runs[l].before_after(st.id)) for l in st.lines)
        n = copies_of(gmap, st.id, rule)
        cards += [StationCard(st.id, st.name, bands, k, n) for k in range(1, n + 1)]
    return StationDeck(tuple(cards))
