"""Keep Moving's declared result records (:mod:`tubedeck.records`): what ``simulate keepmoving``
writes, one record per game played by two bots.

Version 2 (version 1 had no ``place`` and counted ``turns`` as the turns finished before the
deciding one): seats count from 1; ``turns`` counts every turn played by either player, the
turn the game ended in included (a game drawn at the turn limit played all of them); ``first``
is who started, an identity, not a measure; ``place`` is the winner's place in turn order.
"""

from __future__ import annotations

from tubedeck.records import Field, Schema

from .cards import FUNCTION_KINDS

MAX_TURNS = 10_000  # far above any edition's turn limit (rules.toml max_turns: 400); a test holds it
MAX_PLAYS = 20 * MAX_TURNS  # function cards of one kind played in a game: a turn plays a handful at most
DRAWN = "turn limit"
ENDS = ("lava", "pushed onto lava", "push card", "swap", DRAWN)  # how a game ends: the last cube's cause


def _rule(record: dict, players: int) -> str | None:
    winner, first, place, ended = record["winner"], record["first"], record["place"], record["ended"]
    if ended not in ENDS:
        return f"'ended' must be one of {', '.join(ENDS)}"
    if (winner is None) != (ended == DRAWN):
        return "'winner' is null exactly when 'ended' is the turn limit"
    expected = None if winner is None else 1 + (winner - first) % players
    if place != expected:
        return f"'place' must be the winner's place in turn order ({expected}), got {place!r}"
    unknown = sorted(set(record["functions"]) - set(FUNCTION_KINDS))
    if unknown:
        return f"'functions' names no function card: {unknown[0]!r}"
    return None


SIMULATE = Schema(
    game="keepmoving", mode="simulate", version=2, what="one game of Keep Moving played by two bots",
    fields=(
        Field("winner", "winner", "the winning seat (null: drawn at the turn limit)", null=True),
        Field("first", "seat", "the seat that started (the die at setup)"),
        Field("place", "place", "the winner's place in turn order (1 = started)", null=True),
        Field("turns", "measure", "turns played, the deciding turn included", "turns",
              lo=1, hi=MAX_TURNS),
        Field("ended", "detail", "how the game ended: the cause of the last cube lost, or the turn limit"),
        Field("functions", "tally", "function cards played (Protection when used)", "cards", hi=MAX_PLAYS),
    ),
    rule=_rule,
)
