"""One Day in London: check many seeded deals (``tubedeck check oneday``).

A deal (:mod:`tubedeck.games.oneday.setup`) gives every player a rack. For each player the
solver answers with the cards *in the game* as that player sees them: the whole deck less the
other players' racks. That is the **optimistic bound** (every card not in another rack counts as
obtainable in time). At the deal it is also what the text gives: nothing is buried under a
discard pile's top yet, so the two readings agree here; mid-game they differ, and ``solve
oneday --buried`` and the lookahead bot follow the text (buried discards are not at hand). A result
records, per player, the minimum exchanges and whether any winning journey is reachable, the
deal's status (the worst of the players') and the closest player; its shape is declared as
:data:`tubedeck.games.oneday.records.CHECK`. The summary folds the results as they stream from
:func:`tubedeck.solver.runner.run_deals`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable

from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.oneday.edition import Edition
from tubedeck.games.oneday.records import CHECK, worst
from tubedeck.solver.cpsat import check_time_limit
from tubedeck.words import plural

from .exchanges import ENGINES, caps_for, solve_rack, space_of


@dataclass(frozen=True)
class DealChecker:
    """A picklable :class:`~solver.runner.DealCheck`: each worker process takes the edition from
    the per-process cache and builds the state space once."""

    players: int
    data: str | None = None
    recipe: str | None = None
    copy_rule: str | None = None
    engine: str = "cp-sat"
    time_limit: float = 10.0

    def edition(self) -> Edition:
        return cached_edition(get("oneday"), self.data, recipe=self.recipe, copy_rule=self.copy_rule)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()
        gmap, space, copies = ed.board, space_of(ed), ed.deck.copies()

        def evaluate(seed: int) -> dict:
            d = ed.deal(self.players, seed)
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
            return {"seed": seed, "status": worst(pl["status"] for pl in players), "players": players,
                    "discards": [c.id for c in d.discards], "closest": closest}

        return evaluate

    def header(self) -> dict:
        ed = self.edition()
        deck, rec = ed.deck, ed.rules
        digest = hashlib.sha256(",".join(c.id for c in deck.cards).encode()).hexdigest()[:12]
        # Everything that shapes a deal or a rule, so a resumed run never mixes two games.
        facts = {k: v for k, v in asdict(rec).items() if k not in ("source", "text")}
        recipe_digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=list).encode()).hexdigest()[:12]
        return CHECK.header(players=self.players, engine=self.engine, copy_rule=rec.copy_rule, deck=digest,
                            cards=len(deck), slots=rec.slots, discard_piles=rec.discard_piles,
                            recipe=recipe_digest, time_limit=self.time_limit)

    @property
    def results_name(self) -> str:
        return f"oneday-p{self.players}"

    @property
    def label(self) -> str:
        return "oneday deals"

    def summary(self) -> "Summary":
        return Summary(self.players)

    def decided(self, record: dict) -> bool:
        """Every player's answer proven (OPTIMAL, or INFEASIBLE: no journey); else cut by the limit."""
        return all(pl["status"] in ("OPTIMAL", "INFEASIBLE") for pl in record["players"])

    def validate(self, record: dict) -> str | None:
        """What is impossible in a stored record (an edited or foreign line), or None: by the
        declaration, whose rule ties the players' answers, the status and the closest player."""
        why = CHECK.validate(record, self.players)
        if why is None and len(record["players"][0]["rack"]) != self.edition().rules.slots:
            why = f"a rack must list {self.edition().rules.slots} card ids"
        return why


def deal_check(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               recipe: str | None = None, copy_rule: str | None = None, engine: str = "cp-sat") -> DealChecker:
    """The registry's ``check oneday``: validate the options (a deal must be possible before the
    runner writes anything), then the picklable check."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    check_time_limit(time_limit)
    edition.deal(players, 0)  # UsageError on a bad player count or a deck too small for it
    return DealChecker(players, data, None if recipe is None else str(recipe), copy_rule, engine, time_limit)


@dataclass
class Summary:
    """Folded figures over the deals seen so far."""

    players: int = 0
    deals: int = 0
    first_seed: int | None = None
    exchanges: Counter = field(default_factory=Counter)  # over every player of every deal
    closest: Counter = field(default_factory=Counter)  # the best player's exchanges, per deal
    unreachable: list = field(default_factory=list)  # (seed, player) with no winning journey
    undecided: list = field(default_factory=list)  # (seed, player, status) the solver left open
    best: tuple | None = None  # (exchanges, seed, player): the closest player to winning overall

    def add(self, record: dict) -> None:
        self.deals += 1
        self.first_seed = record["seed"] if self.first_seed is None else min(self.first_seed, record["seed"])
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

    def failures(self) -> str | None:
        """What ``--require-all`` fails on: players who cannot reach a journey, or undecided."""
        if self.unreachable or self.undecided:
            return f"{len(self.unreachable)} unreachable and {len(self.undecided)} undecided player(s)"
        return None

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

    def describe(self) -> list[str]:
        out = self.as_dict()
        first = self.first_seed or 0
        lines = [f"One Day in London: {plural(self.deals, 'deal')}, {self.players} players "
                 f"(seeds {first}..{first + self.deals - 1})",
                 "fewest exchanges to a journey, player by player (exchanges: players):",
                 "  " + ", ".join(f"{k}: {v}" for k, v in out["exchanges"].items()) + f" (mean {out['mean_exchanges']})",
                 "the closest player of each deal (exchanges: deals):",
                 "  " + ", ".join(f"{k}: {v}" for k, v in out["closest_per_deal"].items())]
        best = out["closest_player"]
        if best:
            lines.append(f"closest to winning: seed {best['seed']}, player {best['player']}, "
                         f"{plural(best['exchanges'], 'exchange')}")
        lines.append(f"players who cannot reach a journey: {len(out['unreachable'])}"
                     + "".join(f"\n  seed {u['seed']} player {u['player']}" for u in out["unreachable"][:20]))
        if out["undecided"]:
            lines.append(f"[yellow]undecided (solver limit): {len(out['undecided'])}[/yellow]")
        return lines
