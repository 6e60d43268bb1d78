"""Keep Moving positions as JSON (``tubedeck solve keepmoving --state FILE``) and back.

A position is the table at the moment the player to move plays a card (after their draw)::

    {"to_move": 1, "turn": 0,
     "row": [["g03", "A"], ...],            # card id and the side up, left to right
     "ground_pile": [["g17", "B"], ...],     # top first
     "positions": [5, 9],                    # ground card numbers from the left (1 = leftmost)
     "lives": [10, 10], "supply": 10,
     "hands": [["random", "three"], ["six"]], "piles": [[...], [...]], "discards": [[], []],
     "function_pile": ["stun", ...], "locks": [[], [2, 4, 6]], "stunned": [false, false]}

Players are numbered 1 and 2 in the file. Everything is checked: an unknown card or ground id, a
ground card twice, positions off the row or shared, a hand over the limit: a UsageError naming the
field (exit 2). Card totals are not checked, so a hand-made position may hold fewer cards.
"""

from __future__ import annotations

from pathlib import Path

from tubedeck.content import MAX_FILE
from tubedeck.errors import UsageError
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.games.keepmoving.play import State
from tubedeck.games.keepmoving.resolve import mask, run
from tubedeck.records import is_whole

KEYS = ("to_move", "turn", "row", "ground_pile", "positions", "lives", "supply", "hands", "piles", "discards",
        "function_pile", "locks", "stunned")


def to_json(s: State) -> dict:
    ed = s.edition
    side = lambda c: [ed.ground[c[0]].id, "AB"[c[1]]]  # noqa: E731
    return {"to_move": s.to_move + 1, "turn": s.turn, "row": [side(c) for c in s.row],
            "ground_pile": [side(c) for c in s.gpile], "positions": [p + 1 for p in s.pos],
            "lives": list(s.lives), "supply": s.supply, "hands": [list(h) for h in s.hand],
            "piles": [list(p) for p in s.pile], "discards": [list(d) for d in s.discard],
            "function_pile": list(s.fpile), "locks": [[n for n in range(1, 7) if m >> n & 1] for m in s.locks],
            "stunned": list(s.stunned)}


def _bad(field: str, what: str) -> UsageError:
    return UsageError(f"--state: '{field}' {what}")


def _pair(raw: dict, key: str, check) -> tuple:
    value = raw[key]
    if not (isinstance(value, list) and len(value) == 2):
        raise _bad(key, "must be a list of 2 (player 1, player 2)")
    return tuple(check(v, f"{key}[{i}]") for i, v in enumerate(value))


def from_json(raw, edition: Edition) -> State:
    if not isinstance(raw, dict):
        raise UsageError("--state: the file must hold a JSON object")
    missing = [k for k in KEYS if k not in raw]
    unknown = sorted(set(raw) - set(KEYS))
    if missing or unknown:
        raise UsageError(f"--state: missing {missing} / unknown {unknown} keys")
    r = edition.rules
    cards, grounds = set(edition.cards), {c.id: i for i, c in enumerate(edition.ground)}

    def number(v, f, lo=0, hi=10**6):
        if not is_whole(v, lo, hi):
            raise _bad(f, f"must be a whole number {lo}-{hi}, got {v!r}")
        return v

    def card_list(v, f, known=cards):
        if not (isinstance(v, list) and len(v) <= 200 and all(isinstance(c, str) and c in known for c in v)):
            raise _bad(f, f"must be a list of card ids ({', '.join(sorted(known))})")
        return tuple(sorted(v))

    def ground(v, f):
        if not (isinstance(v, list) and len(v) <= len(grounds)):
            raise _bad(f, "must be a list of [ground card id, side A|B]")
        out = []
        for k, c in enumerate(v):
            if not (isinstance(c, list) and len(c) == 2 and c[0] in grounds and c[1] in ("A", "B")):
                raise _bad(f"{f}[{k}]", f"must be [ground card id, 'A' or 'B'], got {c!r}")
            out.append((grounds[c[0]], "AB".index(c[1])))
        return tuple(out)

    row, gpile = ground(raw["row"], "row"), ground(raw["ground_pile"], "ground_pile")
    if len(row) != r.row:
        raise _bad("row", f"must hold {r.row} ground cards, got {len(row)}")
    used = [c[0] for c in row + gpile]
    if len(set(used)) != len(used):
        raise _bad("row", "a ground card appears twice in the row and the pile")
    to_move = number(raw["to_move"], "to_move", 1, 2) - 1
    pos = _pair(raw, "positions", lambda v, f: number(v, f, 1, r.row) - 1)
    if pos[0] == pos[1]:
        raise _bad("positions", "two meeples never share a ground card")
    lives = _pair(raw, "lives", lambda v, f: number(v, f, 1, 1000))
    hands = _pair(raw, "hands", card_list)
    if any(len(h) > r.hand_limit for h in hands):
        raise _bad("hands", f"a hand holds at most {r.hand_limit} cards")
    def lock(v, f):
        if not (isinstance(v, list) and len(v) <= 6 and all(is_whole(n, 1, 6) for n in v)):
            raise _bad(f, f"must list numbers 1-6 (a JSON true is not a number), got {v!r}")
        return mask(v)

    def flag(v, f):
        if not isinstance(v, bool):
            raise _bad(f, "must be true or false")
        return v

    locks, stunned = _pair(raw, "locks", lock), _pair(raw, "stunned", flag)
    s = State(edition, row=row, gpile=gpile, pos=pos, lives=lives, supply=number(raw["supply"], "supply", 0, 1000),
              hand=hands, pile=_pair(raw, "piles", card_list), discard=_pair(raw, "discards", card_list),
              fpile=card_list(raw["function_pile"], "function_pile"), locks=locks, stunned=stunned,
              to_move=to_move, first=to_move, turn=number(raw["turn"], "turn", 0, r.max_turns - 1), phase="run",
              decider=to_move, pending=(("play", to_move, True), ("end", to_move)), options=(), winner=None,
              ended="", seed=0)
    run(s)
    return s


def read_state(path: Path | str, edition: Edition) -> State:
    from tubedeck.content import read_json

    raw = read_json(Path(path), "--state", MAX_FILE)
    try:
        return from_json(raw, edition)
    except UsageError as exc:  # a field's problem: say which file holds it
        raise UsageError(f"{path}: {str(exc).removeprefix('--state: ')}") from None
