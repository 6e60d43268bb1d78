"""Keep London Moving's declared result records (:mod:`tubedeck.records`).

* :data:`SIMULATE`: one game played by bots (``tubedeck simulate klm``). A turn is one player's
  turn; a round is every seat having had one turn. Seats are 1-based; ``starter`` is who started
  (an identity), ``order`` the winner's place in turn order (1 = the starter).
* :data:`CHECK`: one seeded deal solved (``tubedeck check klm``): every player's earliest possible
  win playing alone on the deal's cards (:mod:`tubedeck.solver.klm.model`). The record is nested
  (``players[]``, ``first``); the declared fields reach into it, and :func:`check_rule` keeps
  what ties them together (one entry per seat, a win within the player's turns with a full path,
  ``first`` present exactly when the deal is winnable and naming the earliest winner).

Versions: simulate 2 (``turns`` of a game without a winner is the turns played, was one more;
the header says its mode and facts), check 4 (Terminus cards are the ends of every line serving
them in the whole network, no longer a scope's edge: of 8,000 player answers on 2,000 four-player
deals, seeds 0-1999, 23 changed in zone 1 and 31 in zones 1-2, none in the wider scopes; 3 was the
header saying ``"mode": "check"``).
"""

from __future__ import annotations

from functools import cache

from tubedeck.records import CPSAT_STATUSES, Field, Schema, is_whole

from . import GAME

MAX_TURNS = 1500  # simulate's turn limit: a game not won in 1,500 turns ends without a winner
assert GAME.players is not None  # Keep London Moving is played: its Game declares the seats
MAX_SEATS = GAME.players[1]
MAX_WINDOW = 1_000_000  # turns in a deal's window: a bound for readers, far above any deck's
MAX_FORTUNES = 10 * MAX_TURNS  # Fortune Cards played in one game (one per turn by the rules): a bound


# -- simulate ---------------------------------------------------------------------------------------
def simulate_rule(record: dict, players: int) -> str | None:
    """What ties a simulate record's fields together."""
    turns, rounds, winner, order = record["turns"], record["rounds"], record["winner"], record["order"]
    if rounds != -(-turns // players):
        return f"'rounds' must be the turns ({turns}) over {players} players, rounded up: {-(-turns // players)}"
    if (winner is None) != (order is None):
        return "'order' must be null exactly when 'winner' is"
    if winner is not None and order != (winner - record["starter"]) % players + 1:
        return f"'order' must be the winner's place after starter {record['starter']}"
    if winner is None and record["fortune_last3"]:
        return "'fortune_last3' must be false in a game without a winner"
    if record["unlucky"] > players:
        return f"'unlucky' counts at most {players} players"
    return None


SIMULATE = Schema(
    game="klm", mode="simulate", version=2,
    what="one game of Keep London Moving played by bots",
    fields=(
        Field("winner", "winner", "the winner", null=True),
        Field("turns", "measure", "turns played, the winning turn included", "turns", lo=1, hi=MAX_TURNS),
        Field("rounds", "measure", "rounds played, the winning round included", "rounds", lo=1, hi=MAX_TURNS),
        Field("starter", "seat", "who started (the highest opening roll)"),
        Field("order", "place", "the winner's place in turn order (1 = the starter)", null=True),
        Field("fortune_last3", "flag", "a Fortune Card played in the winner's last 3 own turns"),
        Field("fast", "flag", "Fast Gameplay reached"),
        Field("fortunes", "measure", "Fortune Cards played (all players)", "cards", hi=MAX_FORTUNES),
        Field("unlucky", "measure", "players who used Unlucky Hand", "players", hi=MAX_SEATS),
    ),
    rule=simulate_rule,
)


# -- check ------------------------------------------------------------------------------------------
@cache
def _path() -> int:
    """Stations in a winning path (``rules.path``): every win of a check record has this many."""
    from .rules import load_rules

    return load_rules().rules.path


def check_rule(record: dict, players: int) -> str | None:
    """The nested checks of a check record (the declared fields are checked before)."""
    entries = record["players"]
    if not isinstance(entries, list) or len(entries) != players:
        return f"expected {players} players"
    path, orders = _path(), set()
    for k, a in enumerate(entries, 1):
        if not isinstance(a, dict) or a.get("player") != k or not is_whole(a.get("order"), 1, players):
            return f"player {k}: bad 'player' or 'order'"
        orders.add(a["order"])
        if a.get("status") not in CPSAT_STATUSES or not is_whole(a.get("turns"), 0, MAX_WINDOW):
            return f"player {k}: bad 'status' or 'turns'"
        turn, route = a.get("turn"), a.get("path")
        if turn is not None and not (is_whole(turn, 1, a["turns"]) and isinstance(route, list) and len(route) == path
                                     and all(isinstance(s, str) for s in route)):
            return f"player {k}: a win on turn {turn!r} of {a['turns']} with a path of " \
                   f"{len(route) if isinstance(route, list) else 0}"
    if len(orders) != players:
        return "two players share a place in turn order"
    if entries[record["starter"] - 1]["order"] != 1:
        return f"'starter' {record['starter']} is not first in turn order"
    first = record["first"]
    if record["status"] == "OPTIMAL" and record["winnable"] is None:
        return "an OPTIMAL deal is decided: 'winnable' must be true or false"
    if (first is None) != (record["winnable"] is not True):
        return "'first' disagrees with 'winnable'"
    if first is not None:
        if not isinstance(first, dict) or not is_whole(first.get("player"), 1, players) \
                or not is_whole(first.get("global_turn"), 0, MAX_WINDOW * MAX_SEATS):
            return "'first' must name a player and a turn"
        own = entries[first["player"] - 1]
        if (first.get("turn"), first.get("order")) != (own["turn"], own["order"]):
            return f"'first' disagrees with player {first['player']}"
    return None


CHECK = Schema(
    game="klm", mode="check", version=4,
    what="one seeded deal: every player's earliest possible win, playing alone on the deal's cards",
    fields=(
        Field("status", "status", "CP-SAT status of the deal (OPTIMAL: every answer proven)",
              choices=CPSAT_STATUSES),
        Field("winnable", "flag", "winnable: a player can win before the Station stock runs out (null: undecided)",
              null=True),
        Field("starter", "seat", "who starts (the highest opening roll)"),
        Field("window", "measure", "turns before the Station stock first runs out", "turns", hi=MAX_WINDOW),
        Field("first.turn", "measure", "first win turn: the earliest possible win, as its player's own turn",
              "turns", lo=1, hi=MAX_WINDOW),
        Field("first.order", "place", "the first possible winner's place in turn order (1 = the starter)"),
        Field("players[].turn", "measure", "each player's earliest possible win, as own turn (null: none)",
              "turns", lo=1, hi=MAX_WINDOW, null=True),
        Field("first", "detail", "the first possible winner: player, order, own turn, global turn (null: none)",
              null=True),
        Field("players", "detail", "per seat: place in turn order, own turns in the window, status, earliest "
                                   "win, its path and schedule"),
        Field("outside", "detail", "the rules this check leaves out"),
    ),
    rule=check_rule,
)
