"""``tubedeck play nextstation`` and ``tubedeck simulate nextstation``: games played by bots.

A game is its seed and the bots (players are deterministic), so a results record replays
exactly. ``simulate`` runs many seeds through the resumable runner and reports each bot's final
scores (mean, median, 10-90%) and wins by seat. With ``--optimum`` (solo games) each game's
seed is also solved whole with perfect foresight of the flips (:func:`.game.best_game`, within
``--time-limit``): the clairvoyant game the bots are measured against. Its status is recorded as
found: a FEASIBLE best is a game the bots could have played, not a proven optimum.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from solver.simulation import parse_bots as shared_parse_bots
from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.nextstation.edition import Edition, deal, generated_maps, map_title
from tubedeck.games.nextstation.play import CHANCE, State, new_game
from tubedeck.stats import percentile

from .game import best_game
from .players import PLAYERS


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    return shared_parse_bots(text, players, PLAYERS)


def play_game(edition: Edition, players: int, seed: int, bots: tuple[str, ...]) -> State:
    state = new_game(edition, players, seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(state.seeded_flip(), edition)
        else:
            state = state.apply(PLAYERS[bots[state.to_move]](state, edition), edition)
    return state


def _winner(scores: list[int], best_lines: list[int]) -> int | None:
    """1-based seat: highest total, then best single line; a shared win is None."""
    key = [(s, b) for s, b in zip(scores, best_lines)]
    top = max(key)
    return key.index(top) + 1 if key.count(top) == 1 else None


@dataclass(frozen=True)
class GameReport:
    edition: Edition
    state: State
    bots: tuple[str, ...]

    def as_dict(self) -> dict:
        finals = [self.state.final(self.edition, p) for p in range(self.state.players)]
        return {"seed": self.state.deal.seed, "players": self.state.players, "bots": list(self.bots),
                "scores": [f.total for f in finals],
                "sheets": [{"lines": [{"pencil": l.pencil, "stations": list(l.stations)} for l in s.lines],
                            "round_scores": list(s.round_scores), "tourist": f.tourist,
                            "interchanges": f.interchange_points, "total": f.total}
                           for s, f in zip(self.state.sheets, finals)],
                "winner": _winner([f.total for f in finals], [f.best_line for f in finals])}

    def describe(self) -> list[str]:
        d = self.as_dict()
        out = [f"Next Station: London, seed {d['seed']}, {d['players']} player(s) ({', '.join(self.bots)})"]
        for p, sheet in enumerate(d["sheets"]):
            out.append(f"player {p + 1}: lines {sheet['round_scores']} + tourist {sheet['tourist']} + "
                       f"interchanges {sheet['interchanges']} = {sheet['total']}")
            for line in sheet["lines"]:
                out.append(f"  {line['pencil']:6s} " + " - ".join(line["stations"]))
        w = d["winner"]
        return out + [f"winner: player {w}" if w else "a shared win"]


def play_one(edition: Edition, players: int = 1, seed: int = 0, bots: str = "greedy") -> GameReport:
    """The registry's ``play nextstation``."""
    chosen = parse_bots(bots, players)
    deal(edition, players, seed)  # UsageError on a bad player count or seed
    return GameReport(edition, play_game(edition, players, seed, chosen), chosen)


@dataclass(frozen=True)
class Simulation:
    """A picklable :class:`~solver.runner.DealCheck` over game seeds."""

    players: int
    bots: tuple[str, ...]
    data: str | None = None
    map: str | None = None
    zones: str = "1-2"
    optimum: float = 0.0  # > 0: also solve each seed's whole game within this time limit

    def edition(self) -> Edition:
        return cached_edition(get("nextstation"), self.data, map=self.map, zones=self.zones)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()

        def evaluate(seed: int) -> dict:
            state = play_game(ed, self.players, seed, self.bots)
            finals = [state.final(ed, p) for p in range(self.players)]
            scores = [f.total for f in finals]
            out = {"scores": scores, "lines": [list(f.lines) for f in finals],
                   "winner": _winner(scores, [f.best_line for f in finals])}
            if self.optimum:
                best = best_game(ed, seed, time_limit=self.optimum)
                out["optimum"] = {"status": best.status, "score": best.score, "bound": best.bound}
            return out

        return evaluate

    def header(self) -> dict:
        return {"game": "nextstation", "mode": "simulate", "players": self.players, "bots": list(self.bots),
                "map": self.map or "classic", "zones": self.zones, "optimum": self.optimum,
                # 3: the optimum's games come from kicked best responses (a results file of 2 has others)
                "version": 3 if self.optimum else 2, **generated_maps(self.map)}

    @property
    def results_name(self) -> str:
        where = f"-{self.map}" if (self.map or "classic") != "classic" else ""  # each map its own file
        where += f"-z{self.zones}" if self.zones != "1-2" else ""
        name = f"nextstation-sim-{'-'.join(self.bots)}-p{self.players}{where}{'-optimum' if self.optimum else ''}"
        return name.replace("/", "_")  # a map folder's path: one file name, under output/checks/

    @property
    def label(self) -> str:
        return "nextstation games"

    def summary(self) -> "SimSummary":
        where = map_title(self.map, self.zones)
        return SimSummary(self.players, self.bots, where=where)

    def decided(self, record: dict) -> bool:
        return True

    def validate(self, record: dict) -> str | None:
        s, w = record.get("scores"), record.get("winner")
        if not (isinstance(s, list) and len(s) == self.players and all(isinstance(v, int) and 0 <= v < 1000 for v in s)):
            return "'scores' must list a whole score per player"
        if not (w is None or (isinstance(w, int) and 1 <= w <= self.players)):
            return "'winner' out of range"
        o = record.get("optimum")
        if self.optimum and not (isinstance(o, dict) and o.get("status") in ("OPTIMAL", "FEASIBLE", "UNKNOWN")):
            return "'optimum' must give the whole game's status, score and bound"
        return None


def simulation(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               map: str | None = None, zones: str = "1-2",
               bots: str = "greedy", optimum: bool = False) -> Simulation:  # noqa: A002
    deal(edition, players, 0)  # UsageError on a bad player count
    if optimum and players != 1:
        raise UsageError("--optimum measures solo games against the best whole game: use --players 1")
    return Simulation(players, parse_bots(bots, players), data, map, zones, time_limit if optimum else 0.0)


@dataclass
class SimSummary:
    players: int
    bots: tuple[str, ...]
    games: int = 0
    shared: int = 0
    wins: Counter = field(default_factory=Counter)
    by_bot: dict = field(default_factory=dict)  # bot -> [scores]
    optimum: list = field(default_factory=list)  # (best game found, its status, the bot's score)
    where: str = "the classic map"  # the map played, named in the summary

    def add(self, record: dict) -> None:
        self.games += 1
        for seat, score in enumerate(record["scores"]):
            self.by_bot.setdefault(self.bots[seat], []).append(score)
        if record.get("optimum") and record["optimum"]["score"] is not None:
            o = record["optimum"]
            self.optimum.append((o["score"], o["status"], record["scores"][0]))
        if record["winner"] is None:
            self.shared += 1
        else:
            self.wins[record["winner"]] += 1

    def failures(self) -> str | None:
        return None

    def as_dict(self) -> dict:
        bots = {}
        for bot, scores in self.by_bot.items():
            s = sorted(scores)
            bots[bot] = {"games": len(s), "mean": round(statistics.mean(s), 2), "median": statistics.median(s),
                         "p10": round(percentile(s, 0.1), 2), "p90": round(percentile(s, 0.9), 2),
                         "min": s[0], "max": s[-1]}
        out = {"map": self.where, "games": self.games, "players": self.players, "bots": list(self.bots), "scores": bots,
               "wins_by_seat": {str(k): self.wins.get(k, 0) for k in range(1, self.players + 1)},
               "shared": self.shared}
        if self.optimum:
            best = sorted(o for o, _, _ in self.optimum)
            share = sorted(b / o for o, _, b in self.optimum)
            out["optimum"] = {"games": len(best), "proven": sum(s == "OPTIMAL" for _, s, _ in self.optimum),
                              "mean": round(statistics.mean(best), 2), "median": statistics.median(best),
                              "p10": round(percentile(best, 0.1), 2), "p90": round(percentile(best, 0.9), 2),
                              "bot_share_median": round(statistics.median(share), 3)}
        return out

    def describe(self) -> list[str]:
        d = self.as_dict()
        out = [f"Next Station: London on {self.where}: {self.games} games, {self.players} player(s) "
               f"({', '.join(self.bots)})"]
        for bot, s in d["scores"].items():
            out.append(f"  {bot}: mean {s['mean']}, median {s['median']} (10-90%: {s['p10']}-{s['p90']}, "
                       f"range {s['min']}-{s['max']})")
        if "optimum" in d:
            o = d["optimum"]
            out.append(f"  clairvoyant game (flips known; {o['proven']} of {o['games']} proven best): "
                       f"median {o['median']}")
            out.append(f"    mean {o['mean']}, 10-90%: {o['p10']}-{o['p90']}; the bot scores a median "
                       f"{o['bot_share_median']:.0%} of it")
        if self.players > 1:
            out.append("  wins by seat: " + ", ".join(f"{k}: {v}" for k, v in d["wins_by_seat"].items())
                       + f"; shared {self.shared}")
        return out
