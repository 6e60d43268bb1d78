"""One Day in London: check many seeded deals (``tubedeck check oneday``).

A deal (:func:`tubedeck.games.oneday.deal`) gives every player a rack. For each player the
solver answers with the cards *in the game* as that player sees them: the whole deck less the
other players' racks (the discard piles and draw pile are all obtainable in time). A result
records, per player, the minimum exchanges and whether any winning journey is reachable; the
summary folds the results as they stream from :func:`solver.runner.run_deals`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from tubedeck.games.oneday import build_deck, deal, load_map

from .oneday import caps_for, solve_rack, state_space


@dataclass(frozen=True)
class DealChecker:
    """A picklable factory: each worker process builds the map, deck and state space once."""

    players: int
    data: str | None = None
    recipe: str | None = None
    copy_rule: str | None = None
    engine: str = "cp-sat"
    time_limit: float = 10.0

    def __call__(self) -> Callable[[int], dict]:
        gmap = load_map(self.data, self.recipe, self.copy_rule)
        deck = build_deck(gmap)
        space = state_space(gmap)
        copies = deck.copies()
        rec = gmap.recipe

        def evaluate(seed: int) -> dict:
            d = deal(deck, self.players, seed, rec.slots, rec.discard_piles, (rec.players_min, rec.players_max))
            players = []
            for p, rack in enumerate(d.racks):
                others = [c.station for q, r in enumerate(d.racks) if q != p for c in r]
                sol = solve_rack(gmap, space, [c.station for c in rack], caps_for(space, copies, others),
                                 self.engine, self.time_limit)
                players.append({"player": p + 1, "rack": [c.id for c in rack], "exchanges": sol.exchanges,
                                "lower_bound": sol.lower_bound, "status": sol.status, "reachable": sol.reachable,
                                "engine": sol.engine})
            known = [pl for pl in players if pl["exchanges"] is not None]
            closest = min(known, key=lambda pl: (pl["exchanges"], pl["player"]))["player"] if known else None
            return {"seed": seed, "players": players, "discards": [c.id for c in d.discards], "closest": closest}

        return evaluate

    def header(self, seed: int) -> dict:
        gmap = load_map(self.data, self.recipe, self.copy_rule)
        deck = build_deck(gmap)
        rec = gmap.recipe
        # Check the deal is possible before the runner opens (and writes) the results file.
        deal(deck, self.players, seed, rec.slots, rec.discard_piles, (rec.players_min, rec.players_max))
        digest = hashlib.sha256(",".join(c.id for c in deck.cards).encode()).hexdigest()[:12]
        # Everything that shapes a deal or a rule, so a resumed run never mixes two games.
        facts = {k: v for k, v in asdict(rec).items() if k not in ("source", "text")}
        recipe_digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=list).encode()).hexdigest()[:12]
        return {"game": "oneday", "players": self.players, "seed": seed, "engine": self.engine,
                "copy_rule": rec.copy_rule, "deck": digest, "cards": len(deck), "slots": rec.slots,
                "discard_piles": rec.discard_piles, "recipe": recipe_digest}


@dataclass
class Summary:
    """Folded figures over the deals seen so far."""

    deals: int = 0
    exchanges: Counter = field(default_factory=Counter)  # over every player of every deal
    closest: Counter = field(default_factory=Counter)  # the best player's exchanges, per deal
    unreachable: list = field(default_factory=list)  # (seed, player) with no winning journey
    undecided: list = field(default_factory=list)  # (seed, player, status) the solver left open
    best: tuple | None = None  # (exchanges, seed, player): the closest player to winning overall

    def add(self, record: dict) -> None:
        self.deals += 1
        per_deal = []
        for pl in record["players"]:
            if pl["exchanges"] is not None:
                self.exchanges[pl["exchanges"]] += 1
                per_deal.append(pl["exchanges"])
                key = (pl["exchanges"], record["seed"], pl["player"])
                self.best = key if self.best is None or key < self.best else self.best
            if pl["reachable"] is False:
                self.unreachable.append((record["seed"], pl["player"]))
            elif pl["status"] not in ("OPTIMAL",):
                self.undecided.append((record["seed"], pl["player"], pl["status"]))
        if per_deal:
            self.closest[min(per_deal)] += 1

    def as_dict(self) -> dict:
        total = sum(self.exchanges.values())
        mean = sum(k * v for k, v in self.exchanges.items()) / total if total else None
        return {
            "deals": self.deals,
            "exchanges": {str(k): v for k, v in sorted(self.exchanges.items())},
            "mean_exchanges": round(mean, 3) if mean is not None else None,
            "closest_per_deal": {str(k): v for k, v in sorted(self.closest.items())},
            "closest_player": ({"exchanges": self.best[0], "seed": self.best[1], "player": self.best[2]}
                               if self.best else None),
            "unreachable": [{"seed": s, "player": p} for s, p in self.unreachable],
            "undecided": [{"seed": s, "player": p, "status": st} for s, p, st in self.undecided],
        }


def default_results(players: int, seed: int) -> Path:
    return Path("output") / "checks" / f"oneday-p{players}-seed{seed}.jsonl"
