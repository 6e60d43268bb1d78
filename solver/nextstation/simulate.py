"""``tubedeck play nextstation`` and ``tubedeck simulate nextstation``: games played by bots.

What is Next Station's own, for the one driver (:mod:`solver.simulation`): how a game starts (the
map's edition, ``--objectives``, ``--powers``), its record (:data:`~tubedeck.games.nextstation.
records.SIMULATE`: scores, the winners by the tie-break of the best single line, each round's line
score), the final sheets by coordinate, and with ``--optimum`` (solo games) each seed's whole game
solved with perfect foresight of the flips (:func:`.game.best_game`, within ``--time-limit``): the
clairvoyant game the bots are measured against. Its status is recorded as found: a FEASIBLE best
is a game the bots could have played, not a proven optimum.
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import WALL_GUARD
from solver.simulation import Playing, play_command, simulate_command
from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.nextstation.edition import Edition, generated_maps
from tubedeck.games.nextstation.play import State, drawn_objectives, new_game, station_json
from tubedeck.games.nextstation.records import SIMULATE
from tubedeck.play import Played
from tubedeck.stats import percentile

from .game import best_game
from .players import PLAYERS

CLASSIC_TITLE = "Classic London"  # data/nextstation/classic-map.toml's title


def start(edition: Edition, players: int, seed: int, objectives: bool = False, powers: bool = False,
          **_: Any) -> State:
    return new_game(edition, players, seed, objectives=bool(objectives), powers=bool(powers))


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
           "lines": [list(f.lines) for f in finals], "optimum": None}
    if optimum:
        objs = drawn_objectives(edition, state.deal.seed) if objectives else ()
        best = best_game(edition, state.deal.seed, objs, time_limit=optimum * WALL_GUARD, det_limit=optimum)
        out["optimum"] = {"status": best.status, "score": best.score, "bound": best.bound}
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
    parts += [k for k in ("objectives", "powers", "optimum") if variant.get(k)]
    return "-".join(parts)


@dataclass
class Clairvoyant:
    """The map played and, with ``--optimum``, the bots against the best whole game found."""

    map: str
    games: list = field(default_factory=list)  # (best game found, its status, the bot's score)

    def add(self, record: dict) -> None:
        o = record.get("optimum")
        if o and o["score"]:
            self.games.append((o["score"], o["status"], record["scores"][0]))

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
        return out

    def describe(self) -> list[str]:
        out = [f"  played on {self.map}"]
        o = self.as_dict().get("optimum")
        if o:
            out.append(f"  clairvoyant game (flips known; {o['proven']} of {o['games']} proven best): "
                       f"median {o['median']}")
            out.append(f"    mean {o['mean']}, 10-90%: {o['p10']}-{o['p90']}; the bot scores a median "
                       f"{o['bot_share_median']:.0%} of it")
        return out


def extra(ed: Edition, variant: dict) -> Clairvoyant:
    return Clairvoyant(where(ed))


PLAYING = Playing(game="nextstation", title="Next Station: London", bots=PLAYERS, record=SIMULATE, start=start,
                  measure=measure, edition=edition, position=position, facts=facts, tag=tag, extra=extra,
                  variant=("objectives", "powers", "optimum"), action_json=lambda state, action: state.action_json(action))

play_one = play_command("solver.nextstation.simulate:PLAYING")
_simulation = simulate_command("solver.nextstation.simulate:PLAYING")


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
