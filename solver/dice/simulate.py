"""``tubedeck play dice`` and ``tubedeck simulate dice``: what Tube Dice adds to the one driver
(:mod:`tubedeck.solver.simulation`).

A game is its seed plus the bots' actions (the seat streams are seeded), so a record replays
exactly. The record (:data:`tubedeck.games.dice.records.SIMULATE`) counts the game's length in
rolls (a turn is one roll of the dice, which every player uses) and in rounds (every seat has
rolled once), the scores, the winners (ties share), and per line and zone the players completing
it and the roll of its first completion; the summary adds each line's and zone's completion rate
and median first-completion roll (what ``python -m tubedeck.solver.dice.balance`` turns into points) and
the winner's margin over the last.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.dice import GAME
from tubedeck.games.dice.edition import Edition
from tubedeck.games.dice.play import State
from tubedeck.games.dice.records import SIMULATE
from tubedeck.play import Played
from tubedeck.records import spread
from tubedeck.solver.simulation import Playing, play_command, simulate_command
from tubedeck.words import plural

WIDTH = 76  # a position line, after the report's indent

def measure(played: Played, edition: Edition, **variant) -> dict:
    """A played game as its record: length, scores, winners, completions per line and zone."""
    state: State = played.state
    scores = state.scores()
    top = max(scores)
    n = len(edition.lines)
    return {"rolls": state.turn, "rounds": -(-state.turn // state.players), "scores": list(scores),
            "winners": [p + 1 for p, s in enumerate(scores) if s == top],
            "lines": [sum(1 for s in state.sheets if s.lines >> i & 1) for i in range(n)],
            "line_first": [f or None for f in state.firsts[:n]], "zone_first": [f or None for f in state.firsts[n:]]}


def position(state: State) -> tuple[dict, list[str]]:
    """Each sheet: its stations with their numbers, the lines and zones completed, the passes
    left and the points (lines and zones, then the score with the passes)."""
    ed: Edition = state.edition
    board = ed.board
    scores = state.scores()
    sheets, lines = [], []
    for seat, (sheet, score) in enumerate(zip(state.sheets, scores), 1):
        stations = [(board.stations[i].name, n) for i, n in enumerate(sheet.nums) if n]
        done = [board.lines[i].name for i in range(len(board.lines)) if sheet.lines >> i & 1]
        zones = [board.zones[i].zone for i in range(len(board.zones)) if sheet.zones >> i & 1]
        marked = sheet.marked.bit_count()
        sheets.append({"seat": seat, "stations": {name: n for name, n in stations},
                       "connections_marked": marked, "lines": done, "zones": zones,
                       "passes_left": sheet.passes, "points": sheet.points, "score": score})
        lines.append(f"player {seat}: {plural(score, 'point')} ({sheet.points} from lines and zones, "
                     f"{plural(sheet.passes, 'pass', 'passes')} left)")
        lines += wrapped("  stations: ", [f"{name} {n}" for name, n in stations] or ["none"])
        lines.append(f"  connections marked: {marked} of {len(board.connections)}")
        lines += wrapped("  lines completed: ", done or ["none"])
        lines += wrapped("  zones completed: ", [str(z) for z in zones] or ["none"])
    return {"rolls": state.turn, "sheets": sheets}, lines


def wrapped(head: str, items: list[str], width: int = WIDTH) -> list[str]:
    """``head`` then the items, comma-separated, over as many lines as keep within ``width``."""
    out, line = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + len(piece) + 1 > width and line.strip() != head.strip():
            out.append(line.rstrip())
            line = " " * len(head)
        line += piece + " "
    out.append(line.rstrip())
    return out


def facts(edition: Edition) -> dict:
    """The results header's facts: the map's scope and the pass track (a file of another is refused)."""
    r = edition.rules
    return {"scope": edition.board.scope.label, "passes": r.passes, "extra_passes": list(r.extra_passes)}


def load_edition(data: str | None, options: dict) -> Edition:
    return cached_edition(get("dice"), data, **options)


@dataclass
class Completions:
    """Tube Dice's own figures: each line's and zone's completion rate and median first-completion
    roll, and the winner's margin over the last (points)."""

    line_names: tuple[str, ...]
    zone_names: tuple[str, ...]
    games: int = 0
    line_done: Counter = field(default_factory=Counter)
    line_first: dict = field(default_factory=dict)  # line index -> Counter of rolls
    zone_done: Counter = field(default_factory=Counter)
    zone_first: dict = field(default_factory=dict)
    margin: Counter = field(default_factory=Counter)  # the top score minus the lowest
    players: int = 0

    def add(self, record: dict) -> None:
        self.games += 1
        self.margin[max(record["scores"]) - min(record["scores"])] += 1
        self.players = len(record["scores"])
        for done, first, firsts in ((self.line_done, self.line_first, record["line_first"]),
                                    (self.zone_done, self.zone_first, record["zone_first"])):
            for i, t in enumerate(firsts):
                if t is not None:
                    done[i] += 1
                    first.setdefault(i, Counter())[t] += 1

    def failures(self) -> str | None:
        never = [n for i, n in enumerate(self.line_names) if not self.line_done[i]]
        return f"never completed: {', '.join(never)}" if never and self.games else None

    def as_dict(self) -> dict:
        n = self.games or 1

        def rates(names, done, first) -> dict:
            return {name: {"completed": round(done[i] / n, 4),
                           "first_roll_median": spread(first[i])["median"] if i in first else None}
                    for i, name in enumerate(names)}

        out = {"lines": rates(self.line_names, self.line_done, self.line_first),
               "zones": rates(self.zone_names, self.zone_done, self.zone_first)}
        if self.margin:
            out["margin"] = {"label": "the winner's score minus the last's", "unit": "points", **spread(self.margin)}
        return out

    def describe(self) -> list[str]:
        d = self.as_dict()
        out = []
        if self.players > 1 and "margin" in d:
            m = d["margin"]
            out.append(f"  winner minus last: median {m['median']} points (10-90%: {m['p10']}-{m['p90']})")
        for kind in ("lines", "zones"):
            for name, v in d[kind].items():
                first = v["first_roll_median"]
                out.append(f"  {name}: completed in {100 * v['completed']:.0f}% of games"
                           + (f", first at roll {first} (median)" if first is not None else ""))
        return out


def extra(edition: Edition, variant: dict) -> Completions:
    return Completions(tuple(line.name for line in edition.board.lines),
                       tuple(f"zone {z.zone}" for z in edition.board.zones))


PLAYING = Playing(
    game=GAME, record=SIMULATE, measure=measure,
    edition=load_edition, position=position, facts=facts, extra=extra,
)

play_one = play_command(GAME)
simulation = simulate_command(GAME)
