"""The steps of a Keep Moving turn, resolved one at a time from ``State.pending`` (see
:mod:`.play` for the rule decisions).

:func:`run` works through the queue on a fresh copy of a state until it needs a chance outcome or
a decision; the step that asked stays first in the queue and :func:`resolve_answer` finishes it
with the outcome or decision. Steps are plain tuples, so states compare and hash by value.
"""

from __future__ import annotations

from itertools import combinations, groupby


def _remove(items: tuple, item) -> tuple:
    i = items.index(item)
    return items[:i] + items[i + 1:]


def _add(items: tuple, item) -> tuple:
    return tuple(sorted(items + (item,)))


def _multiset(items: tuple) -> list[tuple[str, float]]:
    """Distinct items of a sorted tuple with their shares (a uniform draw from the pile)."""
    n = len(items)
    return [(k, len(list(g)) / n) for k, g in groupby(items)]


PROTECTION = "protection"
PROTECT = (("protect",), ("accept",))


def _set(s, name: str, p: int, value) -> None:
    old = getattr(s, name)
    setattr(s, name, old[:p] + (value,) + old[p + 1:])


def _ask(s, step, options, decider=None) -> None:
    """Stop at a node: ``decider`` None is chance."""
    s.pending = (step,) + s.pending
    s.options = tuple(options)
    s.phase = "chance" if decider is None else "decide"
    s.decider = s.to_move if decider is None else decider


def run(s) -> None:
    """Resolve steps until a node or the end."""
    if s.phase == "over":
        s.options = ()
        return
    s.phase, s.options = "run", ()
    while s.phase == "run":
        if not s.pending:
            raise AssertionError("the step queue ran dry")  # every turn ends with ("end", p)
        step, s.pending = s.pending[0], s.pending[1:]
        _STEPS[step[0]](s, step)


# -- steps that finish at once or ask --------------------------------------------------------
def _start(s, step) -> None:
    t = s.to_move
    s.pending = (("draw", t, s.edition.rules.turn_draw), ("play", t, True)) + s.pending


def _draw(s, step) -> None:
    _, p, n = step
    if n <= 0 or len(s.hand[p]) >= s.edition.rules.hand_limit:
        return
    if not s.pile[p]:
        if not s.discard[p]:
            return
        _set(s, "pile", p, tuple(sorted(s.discard[p])))  # reshuffle: a pile is a multiset
        _set(s, "discard", p, ())
    _ask(s, step, _multiset(s.pile[p]))


def _fdraw(s, step) -> None:
    p = step[1]
    if s.fpile and len(s.hand[p]) < s.edition.rules.hand_limit:
        _ask(s, step, _multiset(s.fpile))


def _steal(s, step) -> None:
    p = step[1]
    if s.hand[1 - p] and len(s.hand[p]) < s.edition.rules.hand_limit:
        _ask(s, step, _multiset(s.hand[1 - p]))


def _play(s, step) -> None:
    _, p, must = step
    if must and s.stunned[p]:
        s.pending = (("end", p),) + s.pending
        return
    plays = legal_plays(s, p)
    _ask(s, step, plays or (("pass",),) if must else plays + (("end",),), p)


def _end(s, step) -> None:
    p = step[1]
    _set(s, "locks", p, 0)
    _set(s, "stunned", p, False)
    s.turn += 1
    if s.turn >= s.edition.rules.max_turns:
        s.phase, s.ended = "over", "turn limit"
        return
    s.to_move = 1 - p
    s.pending = (("start",),)


def _roll(s, step) -> None:
    _ask(s, step, _multiset(tuple(sorted(s.edition.dice[step[2]].faces))))


def _move(s, step) -> None:
    _, p, dist = step
    dirs = directions(s, p, dist)
    if len(dirs) == 1:
        do_move(s, p, dirs[0], dist)
    else:
        _ask(s, step, tuple(("dir", d) for d in dirs), p)


def _answer(s, step) -> None:
    o = step[1]
    if PROTECTION in s.hand[o]:
        _ask(s, step, PROTECT, o)
    else:
        s.pending = (step[2],) + s.pending


def _lava(s, step) -> None:
    _, p, protectable, cause = step
    if protectable and PROTECTION in s.hand[p]:
        _ask(s, step, PROTECT, p)
    else:
        lose(s, p, cause)


def _effect(s, step) -> None:
    kind, p = step[0], step[1]
    o = 1 - p
    if kind == "push":
        row = len(s.row)
        at = (s.pos[o] + step[2] * s.edition.rules.push_cards) % row
        if at == s.pos[p]:
            at = (at + step[2]) % row
        _set(s, "pos", o, at)
        s.pending = enter(s, o, at, False, "push card") + s.pending
    elif kind == "swap":
        s.pos = (s.pos[1], s.pos[0])
        s.pending = enter(s, p, s.pos[p], True, "swap") + enter(s, o, s.pos[o], False, "swap") + s.pending
    elif kind == "stun":
        _set(s, "stunned", o, True)
    elif kind == "lock":
        _set(s, "locks", o, s.locks[o] | step[2])
    elif kind == "steal":
        _steal(s, step)


_STEPS = {"start": _start, "draw": _draw, "fdraw": _fdraw, "play": _play, "end": _end, "roll": _roll,
          "move": _move, "answer": _answer, "lava": _lava, "push": _effect, "swap": _effect, "stun": _effect,
          "lock": _effect, "steal": _effect}


# -- answers at a node -------------------------------------------------------------------------
def resolve_answer(s, step, action) -> None:
    kind = step[0]
    if kind == "draw":
        p = step[1]
        _set(s, "pile", p, _remove(s.pile[p], action))
        _set(s, "hand", p, _add(s.hand[p], action))
        s.pending = (("draw", p, step[2] - 1),) + s.pending
    elif kind == "fdraw":
        s.fpile = _remove(s.fpile, action)
        _set(s, "hand", step[1], _add(s.hand[step[1]], action))
    elif kind == "steal":
        p = step[1]
        _set(s, "hand", 1 - p, _remove(s.hand[1 - p], action))
        _set(s, "hand", p, _add(s.hand[p], action))
    elif kind == "roll":
        _, p, _die, mult = step
        if not s.locks[p] >> action & 1:  # a forbidden roll moves nothing
            s.pending = (("move", p, action * mult),) + s.pending
    elif kind == "move":
        do_move(s, step[1], action[1], step[2])
    elif kind in ("answer", "lava"):
        who = step[1]
        if action == ("protect",):
            _set(s, "hand", who, _remove(s.hand[who], PROTECTION))
            _set(s, "discard", who, s.discard[who] + (PROTECTION,))
        elif kind == "answer":
            s.pending = (step[2],) + s.pending
        else:
            lose(s, who, step[3])
    elif kind == "play":
        play_card(s, step[1], action)


def play_card(s, p: int, action) -> None:
    if action[0] in ("pass", "end"):
        s.pending = (("end", p),) + s.pending
        return
    card = action[1]
    ed, o = s.edition, 1 - p
    _set(s, "hand", p, _remove(s.hand[p], card))
    _set(s, "discard", p, s.discard[p] + (card,))
    c = ed.card(card)
    if hasattr(c, "action"):  # a movement card ends the turn
        follow: tuple = ("end", p)
        first = {"move": ("move", p, c.value), "roll": ("roll", p, c.die, 1), "draw": ("draw", p, c.value)}[c.action]
        s.pending = (first, follow) + s.pending
        return
    follow = ("play", p, False) if c.colour == "blue" else ("end", p)
    steps: tuple = ()
    if card == "double":
        steps = (("roll", p, "random", 2),)
    elif card == "life-potion":
        gain(s, p, ed.rules.potion_lives)
    elif card == "new-hand":
        k = len(s.hand[p])
        _set(s, "discard", p, s.discard[p] + s.hand[p])
        _set(s, "hand", p, ())
        steps = (("draw", p, k + 1),)
    elif card == "exchange":
        exchange(s, action[2], action[3])
    elif card == "relocation":
        for at in range(len(s.row)):
            if at not in s.pos:
                exchange(s, at, "pile")
    else:
        effect = {"push": ("push", p, action[2] if len(action) > 2 else 1), "swap": ("swap", p),
                  "stun": ("stun", p), "steal": ("steal", p)}.get(card) or ("lock", p, mask(c.numbers))
        steps = (("answer", o, effect),) if c.answerable else (effect,)
    s.pending = steps + (follow,) + s.pending


# -- the ground ----------------------------------------------------------------------------------
def mask(numbers) -> int:
    out = 0
    for n in numbers:
        out |= 1 << n
    return out


def directions(s, p: int, dist: int) -> tuple[int, ...]:
    """Directions a move of ``dist`` may take: never past an end card; if neither fits, both
    (the meeple stops on the end card)."""
    a, last = s.pos[p], len(s.row) - 1
    fits = tuple(d for d in (-1, 1) if 0 <= a + d * dist <= last)
    return fits or (-1, 1)


def leave(s, at: int) -> None:
    """Turn the card over, or, with Replace up, put it under the ground pile turned over and lay the
    pile's top card in its place."""
    index, up = s.row[at]
    if s.edition.ground[index].sides[up].symbol == "replace" and s.gpile:
        exchange(s, at, "pile")
    else:
        s.row = s.row[:at] + ((index, 1 - up),) + s.row[at + 1:]


def exchange(s, i: int, j) -> None:
    if j == "pile" and not s.gpile:
        return  # never in a real game (the pile keeps its 14 cards); a hand-made position may have none
    if j == "pile":
        index, up = s.row[i]
        s.row = s.row[:i] + (s.gpile[0],) + s.row[i + 1:]
        s.gpile = s.gpile[1:] + ((index, 1 - up),)
    else:
        row = list(s.row)
        row[i], row[j] = row[j], row[i]
        s.row = tuple(row)


def do_move(s, p: int, d: int, dist: int) -> None:
    a, last = s.pos[p], len(s.row) - 1
    b = min(last, max(0, a + d * dist))
    leave(s, a)
    _set(s, "pos", p, b)
    steps = enter(s, p, b, True, "lava")
    o = 1 - p
    if s.pos[o] == b:  # pushed one card on, round the end of the row; its left card stays
        at = (b + d) % len(s.row)
        _set(s, "pos", o, at)
        steps += enter(s, o, at, False, "pushed onto lava")
    s.pending = steps + s.pending


def enter(s, p: int, at: int, protectable: bool, cause: str) -> tuple:
    """The steps of entering a card: its kind, then its Function symbol."""
    side = s.side(at)
    steps: tuple = ()
    if side.kind == "lava":
        steps = (("lava", p, protectable, cause),)
    elif side.kind == "grassland":
        steps = (("gain", p, 1),)
    if side.symbol == "function":
        steps += (("fdraw", p),)
    return steps


def _gain(s, step) -> None:
    gain(s, step[1], step[2])


_STEPS["gain"] = _gain


def gain(s, p: int, n: int) -> None:
    k = min(n, s.supply)
    _set(s, "lives", p, s.lives[p] + k)
    s.supply -= k


def lose(s, p: int, cause: str) -> None:
    _set(s, "lives", p, s.lives[p] - 1)
    s.supply += 1
    if s.lives[p] <= 0:
        s.phase, s.winner, s.ended, s.pending = "over", 1 - p, cause, ()


# -- what may be played ------------------------------------------------------------------------
def legal_plays(s, p: int) -> tuple:
    ed, locked = s.edition, s.locks[p]
    out: list[tuple] = []
    for card in sorted(set(s.hand[p])):
        c = ed.card(card)
        if hasattr(c, "action"):
            if c.action == "move" and locked >> c.value & 1:
                continue
            if c.action == "roll" and all(locked >> f & 1 for f in ed.dice[c.die].faces):
                continue
            out.append(("play", card))
        elif card == PROTECTION or c.colour == "green":
            continue
        elif card == "double":
            if not all(locked >> f & 1 for f in ed.dice["random"].faces):
                out.append(("play", card))
        elif card == "push":
            out += [("play", card, -1), ("play", card, 1)]
        elif card == "exchange":
            free = [i for i in range(len(s.row)) if i not in s.pos]
            out += [("play", card, i, j) for i, j in combinations(free, 2)]
            if s.gpile:
                out += [("play", card, i, "pile") for i in free]
        else:
            out.append(("play", card))
    return tuple(out)
