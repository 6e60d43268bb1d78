"""Next Station: London's declared result records (:mod:`tubedeck.records`).

* ``simulate`` (:data:`SIMULATE`): one game played by bots: each seat's final score, the winner,
  each seat's round scores, with ``--objectives`` each seat's Shared Objectives (met or not) and
  their points, with ``--powers`` each seat's Pencil Power uses and the double-station's points,
  and with ``--optimum`` the best whole game found for the seed's flips;
* ``par`` (:data:`PAR`): ``check nextstation``: the proven best first round of a flip seed;
* ``par-game`` (:data:`PAR_GAME`): ``check nextstation --game``: the best whole solo game found.

A round is one pencil's line (4 a game); a turn is one card the seats draw for. No record holds a
wall-clock time, so the same seeds write the same bytes on any machine.
"""

from __future__ import annotations

from tubedeck.records import Field, Schema, is_whole

MAX_POINTS = 999  # any score a sheet can reach is far below this
MAX_ROUNDS = 4  # lines on a sheet (rules.toml's rounds)
MAX_TURNS = 11  # turns in a round: at most one per Station card
STATUSES = ("OPTIMAL", "FEASIBLE", "UNKNOWN")
MAX_PENCIL = 40  # characters of a pencil's name
MAX_OBJECTIVES = 16  # Shared Objectives in play (2 by the rules)
MAX_POWERS = 16  # Pencil Powers in play (4 by the rules)


def _status(record: dict) -> str | None:
    """A solver's answer: a score unless UNKNOWN; the bound never below the score."""
    score, bound = record.get("score"), record.get("bound")
    if (score is None) != (record.get("status") == "UNKNOWN"):
        return "'score' must be given unless the status is UNKNOWN"
    if score is not None and bound is not None and bound < score:
        return "'bound' must not be below 'score'"
    return None


def _points(values, most: int) -> bool:
    return isinstance(values, list) and len(values) <= most and all(is_whole(v, 0, MAX_POINTS) for v in values)


def _simulate_rule(record: dict, players: int) -> str | None:
    lines = record["lines"]
    if not (isinstance(lines, list) and len(lines) == players and all(_points(l, MAX_ROUNDS) for l in lines)):
        return f"'lines' must list each of {players} seat(s)' round scores (at most {MAX_ROUNDS}, 0-{MAX_POINTS})"
    if any(sum(l) > s for l, s in zip(lines, record["scores"])):
        return "a seat's round scores add up to more than its final score"
    top = max(record["scores"])
    if any(record["scores"][w - 1] != top for w in record["winners"]):
        return "'winners' must have the highest score"
    o = record["optimum"]
    if o is None:
        return None
    if not (isinstance(o, dict) and o.get("status") in STATUSES
            and all(o.get(k) is None or is_whole(o.get(k), 0, MAX_POINTS) for k in ("score", "bound"))):
        return "'optimum' must give the whole game's status (OPTIMAL, FEASIBLE or UNKNOWN), score and bound"
    if players != 1:
        return "'optimum' measures solo games"
    why = _status(o)
    return f"optimum: {why}" if why else None


def _modules_rule(record: dict, players: int) -> str | None:
    """The advanced modules' fields: null together when the module is off, else one per seat."""
    objs, points = record["objectives"], record["objective_points"]
    if (objs is None) != (points is None):
        return "'objectives' and 'objective_points' are null together (the module off)"
    if objs is not None:
        if not (isinstance(objs, list) and len(objs) == players and all(
                isinstance(o, dict) and 0 < len(o) <= MAX_OBJECTIVES
                and all(isinstance(k, str) and isinstance(v, bool) for k, v in o.items()) for o in objs)):
            return f"'objectives' must give each of {players} seat(s) the objectives in play, met or not"
        if not (isinstance(points, list) and len(points) == players
                and all(is_whole(p, 0, MAX_POINTS) for p in points)):
            return f"'objective_points' must give each of {players} seat(s) its points (0-{MAX_POINTS})"
        if any((p == 0) != (not any(o.values())) for o, p in zip(objs, points)):
            return "a seat scores objective points exactly when it meets an objective"
        if any(p > s for p, s in zip(points, record["scores"])):
            return "a seat's objective points exceed its final score"
    used, extra = record["powers_used"], record["power_points"]
    if (used is None) != (extra is None):
        return "'powers_used' and 'power_points' are null together (the module off)"
    if used is not None:
        if not (isinstance(used, list) and len(used) == players and all(
                isinstance(u, dict) and 0 < len(u) <= MAX_POWERS
                and all(isinstance(k, str) and is_whole(v, 0, MAX_ROUNDS) for k, v in u.items()) for u in used)):
            return f"'powers_used' must give each of {players} seat(s) its uses of each power (0-{MAX_ROUNDS})"
        if any(sum(u.values()) > MAX_ROUNDS for u in used):
            return f"a power is used once a round at most ({MAX_ROUNDS} rounds)"
        if not (isinstance(extra, list) and len(extra) == players
                and all(is_whole(p, 0, MAX_POINTS) and p <= s for p, s in zip(extra, record["scores"]))):
            return "'power_points' must give each seat the double-station's points, within its final score"
    return None


def _simulate_all(record: dict, players: int) -> str | None:
    return _simulate_rule(record, players) or _modules_rule(record, players)


SIMULATE = Schema(
    game="nextstation", mode="simulate",
    # 6: the advanced modules reported per seat (objectives met and their points, power uses and
    # the double-station's points; null when the module is off), bots that use the powers and aim
    # at the objectives; 5: winners, a list (a shared win is a win shared, not a game without a winner); 4: one record
    # for all runs (optimum null when not asked for, no wall-clock time), the random bot draws from
    # its seat's stream; 3: the optimum's games from kicked best responses
    version=6,
    what="one game played by bots, seats drawing each turn in seat order",
    fields=(
        Field("scores", "scores", "final score", "points",
              hi=MAX_POINTS),
        Field("winners", "winners", "winners: highest score, then best single line (several: a shared win)"),
        Field("lines", "detail", "each seat's round scores, one per round (line)", "points"),
        Field("optimum", "detail", "with --optimum (solo): the best whole game found for the seed's flips "
                                   "(status, score, bound)", null=True),
        Field("objectives", "detail", "with --objectives: each seat's Shared Objectives in play, met or not",
              null=True),
        Field("objective_points", "detail", "with --objectives: each seat's points from Shared Objectives",
              "points", null=True),
        Field("powers_used", "detail", "with --powers: each seat's uses of each Pencil Power (rounds)", null=True),
        Field("power_points", "detail", "with --powers: each seat's points from the double-station power",
              "points", null=True),
    ),
    rule=_simulate_all,
)


def _par_rule(record: dict, players: int) -> str | None:
    pencil = record["pencil"]
    if not (isinstance(pencil, str) and 0 < len(pencil) <= MAX_PENCIL):
        return "'pencil' must name the round's pencil"
    return _status(record)


PAR = Schema(
    game="nextstation", mode="par",
    version=4,  # 4: "engine", a deterministic budget (header "det_limit"); 3: no wall-clock "seconds"
    what="the best first round of a flip seed's solo deal, on an empty sheet",
    fields=(
        Field("status", "status", "the solver's answer", choices=STATUSES),
        Field("score", "measure", "best first round found (proven when OPTIMAL)", "points", hi=MAX_POINTS, null=True),
        Field("bound", "measure", "proven bound: no line of the round scores more", "points", hi=MAX_POINTS,
              null=True),
        Field("turns", "measure", "turns in the round (cards the seats draw for)", "turns", lo=1, hi=MAX_TURNS),
        Field("pencil", "detail", "the round's pencil"),
        Field("engine", "status", "the engine that proved the round (or found its line)",
              choices=("branch and bound", "CP-SAT")),
    ),
    rule=_par_rule,
)


def _par_game_rule(record: dict, players: int) -> str | None:
    if not _points(record["round_pars"], MAX_ROUNDS):
        return f"'round_pars' must list each round's proven best (at most {MAX_ROUNDS}, 0-{MAX_POINTS})"
    start, score = record["best_response"], record["score"]
    if start is not None and score is not None and start > score:
        return "'best_response' must not beat the best game found"
    return _status(record)


PAR_GAME = Schema(
    game="nextstation", mode="par-game",
    version=5,  # 5: a deterministic budget (header "det_limit"); 4: no wall-clock "seconds"
    what="the best whole solo game found for a flip seed's deal",
    fields=(
        Field("status", "status", "the solver's answer", choices=STATUSES),
        Field("score", "measure", "best whole game found (proven when OPTIMAL)", "points", hi=MAX_POINTS, null=True),
        Field("bound", "measure", "proven bound: no game of the seed scores more", "points", hi=MAX_POINTS,
              null=True),
        Field("best_response", "measure", "the best-response game's score, before CP-SAT", "points",
              hi=MAX_POINTS, null=True),
        Field("round_pars", "detail", "each round's proven best on an empty sheet", "points"),
    ),
    rule=_par_game_rule,
)
