"""A line on a sheet and the sections it may gain on a turn (the construction rules)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .flips import Turn


@dataclass(frozen=True)
class Line:
    pencil: str
    stations: tuple[str, ...]  # departure first, then in the order reached
    sections: tuple[int, ...]



def legal_sections(board: Board, line: Line, drawn: frozenset[int], turn: Turn) -> list[tuple[str, str, int]]:
    """Every section the line may gain this turn: (from, to, section index)."""
    degree: dict[str, int] = {s: 0 for s in line.stations}
    for i in line.sections:
        sec = board.sections[i]
        degree[sec.a] += 1
        degree[sec.b] += 1
    on_line = set(line.stations)
    blocked = {j for i in drawn for j in board.crossing[i]}
    out = []
    for u in line.stations:
        if not turn.switch and degree[u] > 1:
            continue  # not an end of the line
        for sec in board.incident[u]:
            v = sec.other(u)
            if v in on_line or sec.index in drawn or sec.index in blocked or not board.matches(v, turn.symbol):
                continue
            out.append((u, v, sec.index))
    return out
