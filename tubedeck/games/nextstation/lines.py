"""A line on a sheet and the sections it may gain on a turn (the construction rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet

from .board import Board
from .flips import Turn
from .rules import QUESTION_MARK


@dataclass(frozen=True)
class Line:
    pencil: str
    stations: tuple[str, ...]  # departure first, then in the order reached
    sections: tuple[int, ...]



def legal_sections(board: Board, line: Line, drawn: frozenset[int], turn: Turn) -> list[tuple[str, str, int]]:
    """Every section the line may gain this turn: (from, to, section index).

    The search bot's rollouts call this for every decision, so it reads the board's plain tables
    (:attr:`.Board.links`, :attr:`.Board.ends`, :attr:`.Board.symbol_of`) and tests a candidate
    against the drawn sections' crossings one candidate at a time: section ``i`` lies under a
    drawn one iff ``crossing[i]`` meets ``drawn`` (crossings are symmetric), which is cheaper than
    gathering every drawn section's crossings first."""
    ends = board.ends
    degree = dict.fromkeys(line.stations, 0)
    for i in line.sections:
        a, b = ends[i]
        degree[a] += 1
        degree[b] += 1
    on_line = set(line.stations)
    crossing, links, symbol_of = board.crossing, board.links, board.symbol_of
    switch, symbol = turn.switch, turn.symbol
    out = []
    for u in line.stations:
        if not switch and degree[u] > 1:
            continue  # not an end of the line
        for v, i in links[u]:
            if v in on_line or i in drawn or not crossing[i].isdisjoint(drawn):
                continue
            if symbol is not None and symbol_of[v] != QUESTION_MARK and symbol_of[v] != symbol:
                continue  # (Board.matches)
            out.append((u, v, i))
    return out


def can_draw(board: Board, line: Line, drawn: AbstractSet[int], turn: Turn, u: str, v: str) -> bool:
    """Whether ``legal_sections(board, line, drawn, turn)`` holds a section from ``u`` to ``v``
    (the engine's check of one move, without listing them all): a section joins them, ``u`` is on
    the line (an end of it unless a Switch came with the turn), ``v`` is not, the section is
    neither drawn nor under a drawn one, and ``v`` matches the card."""
    sec = board.pair_section.get((u, v))
    if sec is None or u not in line.stations or v in line.stations:
        return False
    i = sec.index
    if i in drawn or not board.crossing[i].isdisjoint(drawn) or not board.matches(v, turn.symbol):
        return False
    if turn.switch:
        return True
    ends = board.ends
    return sum((ends[j][0] == u) + (ends[j][1] == u) for j in line.sections) <= 1
