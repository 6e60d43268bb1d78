"""Scoring as the published rulebook counts it.

**Round score of a line** = (districts the line passes through) x (the most stations of the line
in one district) + ``thames_points`` per section of the line that crosses the Thames. The seed
text says "add" for the second figure; the rulebook multiplies ("multiply the number of
different districts ... by the largest number of stations ... then add the points for crossing
the Thames") and its worked example is 6 x 3 + 2 = 20, so the product is what counts here.
Districts are counted from the line's stations: on the classic map no section's interior enters
a district other than those of its two ends (checked), so this equals the geometric count.

**End of game** = the line scores + the tourist track (the leftmost uncrossed circle: marks are
crossed one per tourist site on each round's line, at most ``tourist_marks_max``) + interchanges
(a station on 2, 3 or 4 of the player's lines scores 2, 5, 9) + 10 per Shared Objective reached.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from .board import Board
from .rules import Objective, RuleBook


@dataclass(frozen=True)
class LineScore:
    districts: int
    biggest: int  # the most stations of the line in one district
    thames: int  # sections crossing the Thames
    tourist_sites: int
    points: int


def line_score(board: Board, book: RuleBook, stations: Iterable[str], sections: Iterable[int]) -> LineScore:
    """The round score of one line: its stations (departure included) and drawn section indices."""
    per = Counter(board.by_id[s].district for s in stations)
    thames = sum(board.sections[i].thames for i in sections)
    tourist = sum(board.by_id[s].tourist for s in set(stations))
    districts, biggest = len(per), max(per.values(), default=0)
    return LineScore(districts, biggest, thames, tourist,
                     districts * biggest + book.rules.thames_points * thames)


@dataclass(frozen=True)
class FinalScore:
    lines: tuple[int, ...]
    tourist_marks: int
    tourist: int
    interchanges: tuple[int, ...]  # stations on exactly 2, 3, 4 ... lines
    interchange_points: int
    objectives: tuple[str, ...]  # the objectives reached
    objective_points: int
    total: int

    @property
    def best_line(self) -> int:
        """The tie-break: the best single line."""
        return max(self.lines, default=0)


def interchange_counts(lines: Iterable[Iterable[str]], most: int) -> tuple[int, ...]:
    on = Counter(s for line in lines for s in set(line))
    return tuple(sum(1 for v in on.values() if v == k) for k in range(2, most + 1))


def objective_reached(obj: Objective, board: Board, lines: list[tuple[str, ...]], sections: list[tuple[int, ...]]) -> bool:
    stations = {s for line in lines for s in line}
    if obj.measure == "interchanges":
        value = sum(1 for v in Counter(s for line in lines for s in set(line)).values() if v >= 2)
    elif obj.measure == "districts":
        value = len({board.by_id[s].district for s in stations})
    elif obj.measure == "tourist-sites":
        value = sum(board.by_id[s].tourist for s in stations)
    elif obj.measure == "central-stations":
        value = sum(board.by_id[s].district == "central" for s in stations)
    else:  # thames
        value = sum(board.sections[i].thames for secs in sections for i in secs)
    return value >= obj.threshold


def final_score(board: Board, book: RuleBook, lines: list[tuple[str, ...]], sections: list[tuple[int, ...]],
                objectives: tuple[Objective, ...] = ()) -> FinalScore:
    """The score pad's last column for one player's sheet."""
    scores = [line_score(board, book, st, se) for st, se in zip(lines, sections)]
    marks = min(sum(s.tourist_sites for s in scores), book.rules.tourist_marks_max)
    counts = interchange_counts(lines, len(book.scores.interchange) - 1)
    inter = sum(n * book.scores.interchange[k] for k, n in enumerate(counts, start=2))
    reached = tuple(o.id for o in objectives if objective_reached(o, board, lines, sections))
    obj = len(reached) * book.rules.objective_points
    lines_pts = tuple(s.points for s in scores)
    tourist = book.scores.tourist(marks)
    return FinalScore(lines_pts, marks, tourist, counts, inter, reached, obj, sum(lines_pts) + tourist + inter + obj)
