"""Tube Dice's declared result records (:mod:`tubedeck.records`): ``simulate dice`` writes one
record per game played by bots.

Tube Dice's clock is the roll: a turn is one roll of the dice, which every player uses, so a game
counts ``rolls``; a round is every seat having rolled once (``rounds = ceil(rolls / players)``,
the last round may be cut short by the end). A score is the points of the lines and zones
completed plus those of the unused passes. Seats are 1-based; a shared top score is a shared
win (``winners`` lists every seat on it). Per line and per zone (in the board's order, which the
results header's ``scope`` fixes): how many players completed it and the roll of its first
completion (null: never).

Version 4 (was 3): the default map changed (issue 27: two zones, no nested lines, star Baker
Street), so a results file's per-line and per-zone lists describe other lines and zones.
Version 3 (was 2): ``turns_each`` is now ``rounds`` (the same number, in the one word for it).
"""

from __future__ import annotations

from tubedeck.records import Field, Schema, is_whole

MAX_ROLLS = 10_000  # the recipe's max_turns is at most this
MAX_SCORE = 1_000_000  # far above any sheet: (lines + zones) x max_high + passes x pass_points
MAX_AREAS = 256  # lines (or zones) of one map: a record's per-line lists are at most this long


def _rule(record: dict, players: int) -> str | None:
    rolls, rounds, scores = record["rolls"], record["rounds"], record["scores"]
    if rounds != -(-rolls // players):
        return f"'rounds' must be ceil(rolls / players) = {-(-rolls // players)}, got {rounds}"
    top = max(scores)
    if sorted(record["winners"]) != [p + 1 for p, s in enumerate(scores) if s == top]:
        return "'winners' must be every seat with the top score"
    lists = {}
    for name in ("lines", "line_first", "zone_first"):
        value = record[name]
        if not (isinstance(value, list) and len(value) <= MAX_AREAS):
            return f"'{name}' must be a list of at most {MAX_AREAS} entries"
        lists[name] = value
    lines, line_first, zone_first = lists["lines"], lists["line_first"], lists["zone_first"]
    if len(lines) != len(line_first):
        return "'lines' and 'line_first' must have one entry per line"
    if not all(is_whole(n, 0, players) for n in lines):
        return f"'lines' must count players 0-{players} per line"
    for name, value in (("line_first", line_first), ("zone_first", zone_first)):
        if not all(x is None or is_whole(x, 1, rolls) for x in value):
            return f"'{name}' must hold rolls 1-{rolls} or null"
    if any((n == 0) != (first is None) for n, first in zip(lines, line_first)):
        return "a line completed by someone has a first completion roll, and only such a line"
    return None


SIMULATE = Schema(
    game="dice", mode="simulate", version=4,
    what="one game of Tube Dice played by bots, to its end",
    fields=(
        Field("rolls", "measure", "rolls of the dice played (the game's length)", "rolls", lo=1, hi=MAX_ROLLS),
        Field("rounds", "measure", "rounds played (every seat rolls once a round)", "rounds", lo=1, hi=MAX_ROLLS),
        Field("scores", "scores", "score", "points", hi=MAX_SCORE),
        Field("winners", "winners", "the seats with the top score (a tie shares the win)"),
        Field("lines", "detail", "per line, in the board's order: how many players completed it"),
        Field("line_first", "detail", "per line: the roll of its first completion (null: never)", "rolls"),
        Field("zone_first", "detail", "per zone: the roll of its first completion (null: never)", "rolls"),
    ),
    rule=_rule,
)
