"""One Day in London's declared result records (:mod:`tubedeck.records`).

* :data:`SIMULATE`: one game played by bots (``simulate oneday``), version 3: ``turns`` counts
  the turns played, the winning turn included (version 2 counted one fewer for a win), and the
  winner's ``exchanges`` are at most the winner's own turns.
* :data:`CHECK`: one seeded deal solved per player (``check oneday``), version 2: a ``mode`` in
  the header and a top-level ``status``, the worst of the players' (version 1 had neither).
"""

from __future__ import annotations

from tubedeck.records import CPSAT_STATUSES, Field, Schema

MAX_TURNS = 600  # simulate: a game not won in 600 turns (150 rounds of 4) is recorded as drawn
MAX_SLOTS = 1000  # a bound on a rack's length (the recipe's slots), so a reader never allocates by it
MAX_CARDS = 100_000  # a bound on the cards named in one check record

# Worst last: an undecided or invalid answer outweighs a decided one (INFEASIBLE is decided:
# that player cannot reach a journey).
SEVERITY = ("OPTIMAL", "INFEASIBLE", "FEASIBLE", "UNKNOWN", "MODEL_INVALID")


def own_turns(turns: int, seat: int, players: int) -> int:
    """The turns seat ``seat`` (1-based) played of ``turns``, seat 1 playing first."""
    return (turns - seat + players) // players if turns >= seat else 0


def _simulate_rule(record: dict, players: int) -> str | None:
    w, turns, x = record["winner"], record["turns"], record["exchanges"]
    if (x is None) != (w is None):
        return "'exchanges' must count the winner's exchanges (null without a winner)"
    if w is None:
        if turns != MAX_TURNS:
            return f"a game without a winner must have played {MAX_TURNS} turns"
    else:
        if turns and (turns - 1) % players != w - 1:
            return f"the winner must have played the last turn (turn {turns} is seat {(turns - 1) % players + 1}'s)"
        if x > own_turns(turns, w, players):
            return "'exchanges' must be at most the winner's own turns"
    if record["rounds"] != -(-turns // players):
        return "'rounds' must be the rounds begun: turns / players, rounded up"
    if record["reshuffles"] > turns:
        return "'reshuffles' must be at most the turns (one draw each)"
    return None


SIMULATE = Schema(
    game="oneday", mode="simulate", version=3,
    what="one game of One Day in London played by bots to a win or to the turn limit",
    fields=(
        Field("winner", "winner", "the winner's seat (null: none by the turn limit)", null=True),
        Field("turns", "measure", "turns played (to the winning turn or the cap)", "turns", hi=MAX_TURNS),
        Field("rounds", "measure", "rounds begun (a round: every seat one turn)", "rounds", hi=MAX_TURNS),
        Field("reshuffles", "measure", "times the draw pile was refilled from the discards",
              "reshuffles", hi=MAX_TURNS),
        Field("exchanges", "measure", "exchanges the winner made", "exchanges",
              hi=MAX_TURNS, null=True),
    ),
    rule=_simulate_rule,
)


def worst(statuses) -> str:
    """The deal's status: the worst of its players' (OPTIMAL only when every one is)."""
    return max(statuses, key=SEVERITY.index)


def _check_rule(record: dict, players: int) -> str | None:
    entries = record.get("players")
    if not isinstance(entries, list) or len(entries) != players:
        return f"'players' must list {players} players"
    slots = None
    for k, pl in enumerate(entries, 1):
        if not isinstance(pl, dict) or pl.get("player") != k:
            return f"player {k}: 'player' must be {k}"
        missing = [f for f in ("rack", "exchanges", "lower_bound", "status", "reachable", "engine") if f not in pl]
        if missing:
            return f"player {k}: '{missing[0]}' missing"
        rack = pl["rack"]
        if not (isinstance(rack, list) and 1 <= len(rack) <= MAX_SLOTS and all(isinstance(c, str) for c in rack)):
            return f"player {k}: 'rack' must list card ids"
        if slots is not None and len(rack) != slots:
            return f"player {k}: a rack of {len(rack)} cards, not {slots}"
        slots = len(rack)
        ex, lb = pl["exchanges"], pl["lower_bound"]
        if lb > slots or not (ex is None or lb <= ex <= slots):
            return f"player {k}: exchanges {ex!r} / lower bound {lb!r} out of 0..{slots}"
        status, reachable = pl["status"], pl["reachable"]
        if (ex is not None) != (status in ("OPTIMAL", "FEASIBLE")) or (status == "OPTIMAL" and ex != lb):
            return f"player {k}: exchanges {ex!r} do not fit status {status}"
        if reachable is not {"OPTIMAL": True, "FEASIBLE": True, "INFEASIBLE": False}.get(status):
            return f"player {k}: 'reachable' {reachable!r} does not fit status {status}"
        if not isinstance(pl["engine"], str):
            return f"player {k}: 'engine' must be a name"
    discards = record.get("discards")
    if not (isinstance(discards, list) and len(discards) <= MAX_CARDS and all(isinstance(c, str) for c in discards)):
        return "'discards' must list card ids"
    if record["status"] != worst(pl["status"] for pl in entries):
        return "'status' must be the worst of the players' statuses"
    known = [pl for pl in entries if pl["exchanges"] is not None]
    closest = min(known, key=lambda pl: (pl["exchanges"], pl["player"]))["player"] if known else None
    if record["closest"] != closest:
        return "'closest' must be the player with the fewest exchanges (the lower seat on a tie)"
    return None


CHECK = Schema(
    game="oneday", mode="check", version=2,
    what="one seeded deal of One Day in London: each player's fewest exchanges to a journey",
    fields=(
        Field("status", "status", "the deal's solver status: the worst of its players' (OPTIMAL: all proven)",
              choices=CPSAT_STATUSES),
        Field("closest", "seat", "the player closest to winning (fewest exchanges; the lower seat on a tie)",
              null=True),
        Field("players[].exchanges", "measure", "fewest exchanges to a journey, per player (null: none found)",
              "exchanges", hi=MAX_SLOTS, null=True),
        Field("players[].lower_bound", "measure", "a proven lower bound on a player's exchanges", "exchanges",
              hi=MAX_SLOTS),
        Field("players[].status", "status", "a player's solver status", choices=CPSAT_STATUSES),
        Field("players[].reachable", "flag", "a player can reach a journey (null: undecided)", null=True),
        Field("players[].player", "detail", "the player's seat (1-based, in order)"),
        Field("players[].rack", "detail", "the player's rack, card ids, slot 1 first"),
        Field("players[].engine", "detail", "the engine that answered"),
        Field("discards", "detail", "the discard piles' first cards, card ids"),
    ),
    rule=_check_rule,
)
