"""``tubedeck play nextstation`` and ``tubedeck simulate nextstation``: games played by bots.

What is Next Station's own, for the one driver (:mod:`tubedeck.solver.simulation`): how a game starts (the
map's edition, ``--objectives``, ``--powers``), its record (:data:`~tubedeck.games.nextstation.
records.SIMULATE`: scores, the winners by the tie-break of the best single line, each round's line
score; with ``--objectives`` and ``--powers`` each module's part per seat: :func:`modules`), the
final sheets by coordinate, and with ``--optimum`` (solo games) each seed's whole game
solved with perfect foresight of the flips (:func:`.game.best_game`, within ``--time-limit``): the
clairvoyant game the bots are measured against. Its status is recorded as found: a FEASIBLE best
is a game the bots could have played, not a proven optimum.
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.nextstation import GAME
from tubedeck.games.nextstation.edition import Edition, generated_maps
from tubedeck.games.nextstation.play import State, drawn_objectives, station_json
from tubedeck.games.nextstation.records import SIMULATE
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.play import Played
from tubedeck.solver.cpsat import WALL_GUARD
from tubedeck.solver.simulation import Playing, play_command, simulate_command, wrapped
from tubedeck.stats import percentile

CLASSIC_TITLE = "Classic London"  # data/nextstation/classic-map.toml's title

def winners(scores: list[int], best_lines: list[int]) -> list[int]:
    """1-based seats: highest total, then best single line; several share the win."""
    key = list(zip(scores, best_lines))
    top = max(key)
    return [seat for seat, k in enumerate(key, 1) if k == top]


def measure(played: Played, edition: Edition, optimum: float = 0.0, objectives: bool = False, **_: Any) -> dict:
    """The record of one game (``optimum`` > 0: also the seed's best whole game, within that many seconds)."""
    state = played.state
    finals = [state.final(p) for p in range(state.players)]
    scores = [f.total for f in finals]
    out: dict[str, Any] = {"scores": scores, "winners": winners(scores, [f.best_line for f in finals]),
           "lines": [list(f.lines) for f in finals], "optimum": None, **modules(state)}
    if optimum:
        objs = drawn_objectives(edition, state.deal.seed) if objectives else ()
        from .game import GAME_GUARD, best_game  # the whole-game solver (OR-Tools) only with --optimum

        best = best_game(edition, state.deal.seed, objs, time_limit=max(optimum * WALL_GUARD, GAME_GUARD),
                         det_limit=optimum)
        out["optimum"] = {"status": best.status, "score": best.score, "bound": best.bound}
    return out


def modules(state: State) -> dict:
    """The advanced modules' part of a finished game, per seat (null when the module is off):
    ``objectives`` (each objective in play: met or not) and ``objective_points``; ``powers_used``
    (each power in play: the rounds its holder used it; double-station, which needs no move,
    counts once each round it was held) and ``power_points`` (what the double-station added)."""
    out: dict[str, Any] = {"objectives": None, "objective_points": None, "powers_used": None, "power_points": None}
    finals = [state.final(p) for p in range(state.players)]
    if state.objectives:
        out["objectives"] = [{o: o in f.objectives for o in state.objectives} for f in finals]
        out["objective_points"] = [f.objective_points for f in finals]
    if state.powers:
        board, book, held = state.edition.board, state.edition.book, dict(state.powers)
        used = [dict.fromkeys(held.values(), 0) for _ in range(state.players)]
        extra = [0] * state.players
        for seat, action in state.log:
            if action[0] == "draw2":
                used[seat]["double-section"] += 1
            elif action[0] == "draw" and len(action) == 4:
                used[seat][action[3]] += 1
        for p, sheet in enumerate(state.sheets):
            for line, points in zip(sheet.lines, sheet.round_scores):
                if held.get(line.pencil) == "double-station":
                    used[p]["double-station"] += 1
                    extra[p] += points - line_score(board, book, line.stations, line.sections).points
        out["powers_used"], out["power_points"] = used, extra
    return out


def position(state: State) -> tuple[dict, list[str]]:
    """Every sheet: its lines by pencil, stations by coordinate (and a generated map's names), the
    round scores, tourist track, interchanges and the total."""
    board = state.edition.board
    sheets, lines = [], []
    for p, sheet in enumerate(state.sheets):
        f = state.final(p)
        sheets.append({"lines": [{"pencil": l.pencil, "stations": [station_json(board, v) for v in l.stations],
                                  "sections": [[station_json(board, board.sections[i].a),
                                                station_json(board, board.sections[i].b)] for i in l.sections]}
                                 for l in sheet.lines],
                       "round_scores": list(sheet.round_scores), "tourist_marks": f.tourist_marks,
                       "tourist": f.tourist, "interchanges": f.interchange_points,
                       "objectives": list(f.objectives), "total": f.total})
        extra = f", objectives {f.objective_points}" if f.objectives else ""
        lines.append(f"player {p + 1}: lines {' + '.join(map(str, sheet.round_scores))}, tourist {f.tourist} "
                     f"({f.tourist_marks} circles), interchanges {f.interchange_points}{extra} = {f.total}")
        for line, score in zip(sheet.lines, sheet.round_scores):
            lines.append(f"  {line.pencil:6s} ({score:3d}) " + line_words(board, line))
    out = {"sheets": sheets, "objectives": list(state.objectives),
           "powers": [{"pencil": p, "power": w} for p, w in state.powers]}
    if state.objectives:
        lines.append("shared objectives: " + ", ".join(state.objectives))
    if state.powers:
        lines.append("pencil powers: " + ", ".join(f"{p} {w}" for p, w in state.powers))
    return out, lines


def line_words(board, line) -> str:
    """A line as drawn: ``H6 - G5 - F5`` end to end, or its sections one by one where a Railroad
    Switch branched it (``H6 - G5, G5 - F5, G5 - E6``)."""
    if not line.sections:
        return board.place(line.stations[0]) + " (no section drawn)"
    ends = [(board.sections[i].a, board.sections[i].b) for i in line.sections]
    nxt: dict[str, list[str]] = {}
    for a, b in ends:
        nxt.setdefault(a, []).append(b)
        nxt.setdefault(b, []).append(a)
    if any(len(v) > 2 for v in nxt.values()):
        return ", ".join(f"{board.place(a)} - {board.place(b)}" for a, b in ends)
    path = [min((v for v in nxt if len(nxt[v]) == 1), key=line.stations.index)]
    while len(path) <= len(ends):
        path.append(next(v for v in nxt[path[-1]] if v not in path[-2:-1]))
    return " - ".join(board.place(v) for v in path)


def edition(data: str | None, options: dict) -> Edition:
    return cached_edition(get("nextstation"), data, **options)


def where(ed: Edition) -> str:
    """The map played, in words: the classic map, map 3 (zones 1-3), or a map folder by its title."""
    if ed.generated is not None:
        return f"map {ed.generated.seed}" + (f", zones {ed.zones}" if ed.zones != "1-2" else "")
    return "the classic map" if ed.board.title == CLASSIC_TITLE else f"map {ed.board.title!r}"


def facts(ed: Edition) -> dict:
    """What the results header says of the map, as check's header names it (classic, a generated
    map's seed, a folder's title), and by content: a digest of the board."""
    b = ed.board
    text = repr((b.rows, b.cols, b.stations, b.sections, b.districts))
    name = str(ed.generated.seed) if ed.generated is not None else "classic" if b.title == CLASSIC_TITLE else b.title
    return {"map": name, "zones": ed.zones, "board": hashlib.sha256(text.encode()).hexdigest()[:16],
            **generated_maps(str(ed.generated.seed) if ed.generated is not None else None)}


def tag(ed: Edition, options: dict, variant: dict) -> str:
    """The results file's name part for the map and what shapes the game: ``3-z1-3-optimum``."""
    parts = [] if (options.get("map") or "classic") == "classic" else [str(options["map"])]
    if (options.get("zones") or "1-2") != "1-2":
        parts.append(f"z{options['zones']}")
    if options.get("river"):  # another river: another map
        parts.append(f"river-{Path(str(options['river'])).stem}")
    parts += [k for k in ("objectives", "powers", "optimum") if variant.get(k)]
    return "-".join(parts)


@dataclass
class Clairvoyant:
    """The map played; with ``--optimum``, the bots against the best whole game found; with the
    advanced modules, each module's part (:class:`Modules`)."""

    map: str
    games: list = field(default_factory=list)  # (best game found, its status, the bot's score)
    modules: "Modules" = field(default_factory=lambda: Modules())

    def add(self, record: dict) -> None:
        o = record.get("optimum")
        if o and o["score"]:
            self.games.append((o["score"], o["status"], record["scores"][0]))
        self.modules.add(record)

    def failures(self) -> str | None:
        return None

    def as_dict(self) -> dict:
        out: dict = {"map": self.map}
        if self.games:
            best = sorted(o for o, _, _ in self.games)
            share = sorted(b / o for o, _, b in self.games)
            out["optimum"] = {"games": len(best), "proven": sum(s == "OPTIMAL" for _, s, _ in self.games),
                              "mean": round(statistics.mean(best), 2), "median": statistics.median(best),
                              "p10": round(percentile(best, 0.1), 2), "p90": round(percentile(best, 0.9), 2),
                              "bot_share_median": round(statistics.median(share), 3)}
        return out | self.modules.as_dict()

    def describe(self) -> list[str]:
        out = [f"  played on {self.map}"]
        o = self.as_dict().get("optimum")
        if o:
            out.append(f"  clairvoyant game (flips known; {o['proven']} of {o['games']} proven best): "
                       f"median {o['median']}")
            out.append(f"    mean {o['mean']}, 10-90%: {o['p10']}-{o['p90']}; the bot scores a median "
                       f"{o['bot_share_median']:.0%} of it")
        return out + self.modules.describe()


@dataclass
class Modules:
    """The advanced modules over every seat of every game: the mean score with and without each
    module's points, how often each objective was met (of the seat-games it was in play) and each
    power used (of the rounds its pencil was held)."""

    seats: int = 0  # seat-games
    total: int = 0
    objective_points: int = 0
    objectives: int = 0  # seat-games with objectives
    met: dict = field(default_factory=dict)  # objective -> [met, in play]
    power_points: int = 0
    powers: int = 0  # seat-games with powers
    used: dict = field(default_factory=dict)  # power -> [rounds used, rounds held]

    def add(self, record: dict) -> None:
        if record.get("objectives") is None and record.get("powers_used") is None:
            return
        self.seats += len(record["scores"])
        self.total += sum(record["scores"])
        if record.get("objectives") is not None:
            self.objectives += len(record["scores"])
            self.objective_points += sum(record["objective_points"])
            for seat in record["objectives"]:
                for o, met in seat.items():
                    tally = self.met.setdefault(o, [0, 0])
                    tally[0] += met
                    tally[1] += 1
        if record.get("powers_used") is not None:
            self.powers += len(record["scores"])
            self.power_points += sum(record["power_points"])
            rounds = len(record["lines"][0])  # each seat holds each pencil once a game (4 pencils, 4 rounds)
            for seat in record["powers_used"]:
                for w, n in seat.items():
                    tally = self.used.setdefault(w, [0, 0])
                    tally[0] += n
                    tally[1] += rounds // max(1, len(seat))

    def as_dict(self) -> dict:
        if not self.seats:
            return {}
        mean = self.total / self.seats
        out: dict = {"mean": round(mean, 2)}
        if self.objectives:
            out["objectives"] = {"mean_points": round(self.objective_points / self.objectives, 2),
                                 "mean_without": round(mean - self.objective_points / self.seats, 2),
                                 "met": {o: round(m / n, 3) for o, (m, n) in sorted(self.met.items())}}
        if self.powers:
            out["powers"] = {"mean_points": round(self.power_points / self.powers, 2),
                             "mean_without": round(mean - self.power_points / self.seats, 2),
                             "used": {w: round(u / max(1, n), 3) for w, (u, n) in sorted(self.used.items())}}
        return {"modules": out}

    def describe(self) -> list[str]:
        d = self.as_dict().get("modules")
        if not d:
            return []
        out = [f"  advanced modules: mean score {d['mean']}"]
        if "objectives" in d:
            o = d["objectives"]
            out.append(f"    Shared Objectives: {o['mean_points']} points a seat; {o['mean_without']} without them")
            out += wrapped("      met (of the seat-games in play): ", [f"{k} {v:.0%}" for k, v in o["met"].items()])
        if "powers" in d:
            w = d["powers"]
            out.append(f"    Pencil Powers: double-station {w['mean_points']} points a seat; {w['mean_without']} "
                       "without them")
            out += wrapped("      used (of the rounds held): ", [f"{k} {v:.0%}" for k, v in w["used"].items()])
        return out


def extra(ed: Edition, variant: dict) -> Clairvoyant:
    return Clairvoyant(where(ed))


PLAYING = Playing(game=GAME, record=SIMULATE, measure=measure, edition=edition, position=position, facts=facts, tag=tag, extra=extra,
                  variant=("objectives", "powers", "optimum"), action_json=lambda state, action: state.action_json(action))

play_one = play_command(GAME)
_simulation = simulate_command(GAME)


def simulation(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               bots: str | None = None, optimum: bool = False, powers: bool = False, **options: Any):
    """The registry's ``simulate nextstation``: ``--optimum`` takes ``--time-limit`` as the
    seconds each seed's best whole game may take (its variant is that time, 0 when off)."""
    if optimum and players != 1:
        raise UsageError("--optimum measures solo games against the best whole game: use --players 1")
    if optimum and powers:
        raise UsageError("--optimum's best whole game knows no Pencil Powers: drop --powers")
    return _simulation(edition, players, time_limit, data, bots, optimum=time_limit if optimum else 0.0,
                       powers=powers, **options)
