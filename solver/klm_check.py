"""``tubedeck check klm``: many seeded deals through :mod:`solver.runner`, and their summary.

A :class:`KlmCheck` is the picklable recipe a worker process turns into an evaluator
(``seed -> record``): it loads the network, builds the deck and the adjacency once per process,
then deals and solves one deal per call. :class:`Summary` folds the streamed records into the
figures the command prints, so memory stays flat however many deals run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from tubedeck.games.klm import build_deck, fortune_deck, load_fortune
from tubedeck.games.klm_deal import deal
from tubedeck.games.klm_scope import parse_scope
from tubedeck.network import Network

from .klm import OUTSIDE, deal_record, solve_deal


@dataclass(frozen=True)
class KlmCheck:
    """Everything a worker needs to check deals: picklable, and the results file's header."""

    scope: str
    players: int
    data: str | None = None
    time_limit: float = 10.0

    def header(self, source: str, scope_label: str, stations: int) -> dict:
        return {"game": "klm", "scope": scope_label, "players": self.players, "stations": stations,
                "data": source, "outside": list(OUTSIDE), "version": 1,
                "time_limit": self.time_limit}  # an UNKNOWN under one limit is not one under another

    def __call__(self) -> Callable[[int], dict]:
        net = Network.load(self.data)
        deck = build_deck(net, parse_scope(self.scope, net))
        adjacency = {s: tuple(sorted(deck.graph[s])) for s in deck.graph}
        stations = tuple(c.station for c in deck.cards)
        fortune = tuple(c.id for c in fortune_deck(load_fortune()))
        players, limit = self.players, self.time_limit

        def evaluate(seed: int) -> dict:
            d = deal(stations, fortune, players, seed)
            status, answers = solve_deal(adjacency, d, limit)
            return deal_record(d, status, answers)

        return evaluate


@dataclass
class Summary:
    """Running figures over deal records (each record is dropped after folding)."""

    players: int
    deals: int = 0
    winnable: int = 0
    undecided: list[int] = field(default_factory=list)
    unwinnable: list[int] = field(default_factory=list)
    first_turn: Counter = field(default_factory=Counter)  # own turn of the first possible win
    first_order: Counter = field(default_factory=Counter)  # place in turn order of the first winner
    can_win_order: Counter = field(default_factory=Counter)  # deals where place k can win at all
    statuses: Counter = field(default_factory=Counter)

    def add(self, record: dict) -> None:
        self.deals += 1
        self.statuses[record["status"]] += 1
        if record["winnable"] is None:
            self.undecided.append(record["seed"])
        elif record["winnable"]:
            self.winnable += 1
            self.first_turn[record["first"]["turn"]] += 1
            self.first_order[record["first"]["order"]] += 1
        else:
            self.unwinnable.append(record["seed"])
        for p in record["players"]:
            if p["turn"] is not None:
                self.can_win_order[p["order"]] += 1

    @property
    def share(self) -> float:
        return self.winnable / self.deals if self.deals else 0.0

    def as_dict(self, unwinnable_limit: int = 100) -> dict:
        return {
            "deals": self.deals, "players": self.players, "winnable": self.winnable,
            "winnable_share": round(self.share, 6),
            "first_win_turn": {str(k): v for k, v in sorted(self.first_turn.items())},
            "first_winner_order": {str(k): self.first_order.get(k, 0) for k in range(1, self.players + 1)},
            "can_win_by_order": {str(k): self.can_win_order.get(k, 0) for k in range(1, self.players + 1)},
            "statuses": dict(sorted(self.statuses.items())),
            "unwinnable_seeds": self.unwinnable[:unwinnable_limit],
            "unwinnable_count": len(self.unwinnable),
            "undecided_seeds": self.undecided,
            "outside_the_check": list(OUTSIDE),
        }


def percentile(counter: Counter, q: float) -> int | None:
    """The ``q`` quantile (0-1) of a value -> count histogram."""
    total = sum(counter.values())
    if not total:
        return None
    seen = 0
    for value in sorted(counter):
        seen += counter[value]
        if seen >= q * total:
            return value
    return max(counter)
