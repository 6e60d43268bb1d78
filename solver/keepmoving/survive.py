"""``tubedeck solve keepmoving``: the play that maximises the probability of surviving the next N
turns of your own, by exact expectimax.

The player to move, P, is at their play step (a position file, or a seeded game played by greedy
bots to its first decision where the choice matters). The value of a node is the probability that
P still has a life cube when P's N-th turn from now ends (winning counts as surviving; so does a
game drawn at the turn limit): the maximum over P's decisions, the probability-weighted sum over
chance (every die face, every card a pile can give, every card a Steal can take), the minimum over
an opponent's answer with Protection. Between P's turns the opponent plays nothing: their turn is
skipped (their reminders expire; a stunned opponent with a full hand passes by the rules engine
itself), so the figure is P's own survival on the ground as it is: the opponent's future cards are
not known.

Own turns are counted by the state's turn counter, never by the nodes met: P's turns from now are
``turn``, ``turn + 2``, ...; the horizon is passed when ``turn`` exceeds the last of them, whether
the opponent's turn between was skipped here or passed by the engine (Stun).

Exact, and fast on real positions:

* memoised by position, up to what cannot change the value: ground cards by the sides they show
  and hide (two cards alike are interchangeable), discards as multisets, the seed and who started
  left out (:meth:`Survival.key`);
* a position where P has a plain strategy that cannot lose all their cubes before the horizon is
  worth 1 without a search (:meth:`Survival.losses`: one lava a turn at most); a max node stops
  at 1, a min node at 0;
* in P's last turn a draw is not branched when a movement card P holds survives for certain
  (:meth:`Survival._covered`);
* a max node passes its best value down as a threshold (Ballard's Star1 for expectimax): a branch
  that cannot beat it returns an upper bound, flagged as such, never reported as a value.

The memo is capped (:data:`MAX_POSITIONS`): a cap hit is reported with the plays solved so far and
the proved lower bound on the best play, never as an answer. A hand-made position whose turn can
go round for ever (New Hand reshuffling a pile of a few cards) is refused.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tubedeck.errors import UsageError
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.games.keepmoving.play import State, card_name, new_game
from tubedeck.games.keepmoving.resolve import PROTECTION, run
from tubedeck.play import CHANCE, chance_outcome, seat_streams
from tubedeck.progress import Progress

from .position import read_state, to_json

MAX_TURNS = 3
# Memory stays bounded: a memo entry (key and value) takes about 0.8 kB (318,879 positions: 253 MB of
# resident memory for the whole command), so the cap is about 0.8 GB, nearly 3x the largest real case
# seen (343,000): a laptop with 2 GB free still finishes or reports the cap, never swaps to death.
MAX_POSITIONS = 1_000_000
SEARCH_BOUND = 400  # turns of a seeded game searched for a decision where the choice matters
# cards P can always play at a turn's first play without moving (no Lock forbids them): the DRAW
# movement card, the blue cards but Double, Swap and New Hand (which could discard a Protection)
SAFE = frozenset(("draw", "stun", "lock-even", "lock-odd", "lock-low", "lock-high", "push", "steal", "life-potion",
                  "exchange", "relocation"))
NEW_HAND = "new-hand"  # the only card that draws from P's own pile before the turn's movement card
MARGIN = 1e-9  # thresholds passed down are lowered by this: a bound never ties an exact value


def skip_opponent(s: State, p: int) -> State:
    """The opponent's turn passes with nothing played: P's next turn starts."""
    t = s._copy()
    o = 1 - p
    t.locks = tuple(0 if k == o else v for k, v in enumerate(s.locks))
    t.stunned = tuple(False if k == o else v for k, v in enumerate(s.stunned))
    t.turn, t.to_move, t.pending, t.phase = s.turn + 1, p, (("start",),), "run"
    if t.turn >= s.edition.rules.max_turns:
        t.phase, t.ended = "over", "turn limit"
        return t
    run(t)
    return t


class PositionCap(UsageError):
    """The position cap was hit: no value is exact (the command reports what it has, exit 2)."""


class Survival:
    """One solve: P (the player to move at ``root``), the last own turn that counts, the memo."""

    def __init__(self, root: State, turns: int, limit: int = MAX_POSITIONS,
                 tick: Callable[[int], None] | None = None):
        self.p = root.to_move
        self.last = root.turn + 2 * (turns - 1)
        self.memo: dict[tuple, tuple[float, bool]] = {}
        self.limit = limit
        self.open: set[tuple] = set()  # the keys on the search's path (a turn that loops is refused)
        self.tick = tick
        self.nodes = 0
        # a ground card by (the side up, the side down), numbered: cards alike share a number
        sides: dict = {}
        self.face = tuple(tuple(sides.setdefault((c.sides[u], c.sides[1 - u]), len(sides)) for u in (0, 1))
                          for c in root.edition.ground)
        self._rows: dict[tuple, tuple] = {}

    # -- the memo key ------------------------------------------------------------------------
    def _ground(self, cards: tuple) -> tuple:
        out = self._rows.get(cards)
        if out is None:
            face = self.face
            out = self._rows[cards] = tuple(face[i][u] for i, u in cards)
        return out

    def key(self, s: State) -> tuple:
        """What the value depends on, and nothing more, so that equal values meet in the memo:

        * ground cards by the sides they show and hide (two cards alike are interchangeable);
          P's discards as a multiset; never the seed, who started, how a game ended, nor the
          opponent's pile, discards, Locks and Stun (the opponent never draws or plays);
        * in P's last turn, P's pile and discards only while a draw can still come before the
          turn's movement card (a pending draw, or a New Hand P can reach);
        * in P's last turn after the movement card (no play left): the ground, the meeples, the
          cubes, the supply, P's Locks, the steps left and P's Protections (as many as P can
          still use): what P holds or may draw is played no more this turn.
        """
        p = self.p
        o = 1 - p
        row, gpile = self._ground(s.row), self._ground(s.gpile)
        if s.turn == self.last:
            playing, entries, draws = False, 0, False
            for step in s.pending:
                kind = step[0]
                if kind == "play":
                    playing = playing or step[1] == p
                elif kind in ("lava", "move", "roll"):
                    entries += step[1] == p
                elif kind == "draw":
                    draws = draws or step[1] == p
            if not playing:
                prot = min(s.hand[p].count(PROTECTION), entries)
                return (row, gpile, s.pos, s.lives, s.supply, prot, s.locks[p], s.phase, s.decider, s.pending)
            if not (draws or NEW_HAND in s.hand[p] or NEW_HAND in s.fpile or NEW_HAND in s.hand[o]):
                return (row, gpile, s.pos, s.lives, s.supply, s.hand[p], s.hand[o], s.fpile, s.locks[p],
                        s.stunned[p], s.phase, s.decider, s.pending)
        return (row, gpile, s.pos, s.lives, s.supply, s.hand[p], s.hand[o], s.pile[p], tuple(sorted(s.discard[p])),
                s.fpile, s.locks[p], s.stunned[p], s.turn, s.phase, s.decider, s.pending)

    # -- the bound -----------------------------------------------------------------------------
    def losses(self, s: State) -> int:
        """The cubes P can be sure to lose at most before the horizon, by one plain strategy: at
        each turn's first play, any playable card but New Hand when there is another (a movement
        card ends the turn; after a blue card, end it at once), and a card of :data:`SAFE` (none
        moves P; a draw only adds to the hand, so one held now is still there at the play) when P
        holds one; Protection against every lava it can answer. So P enters lava at most once a
        turn, and not at all this turn with a card of SAFE in hand, plus the entries already under way; P
        is never pushed (the opponent plays nothing, and a meeple pushed by P never lands on P's
        card). Protection in P's hand absorbs one loss each, when no New Hand can reach P (only
        New Hand could discard it: the opponent never steals). A value is a maximum over P's
        strategies, so ``lives > losses`` proves it is 1."""
        p = self.p
        entries, must = 0, False
        for step in s.pending:
            kind = step[0]
            if kind in ("lava", "move", "roll", "swap"):
                entries += step[1] == p
            elif kind == "play":
                must = must or (step[1] == p and step[2])
            elif kind == "answer":
                entries += step[2][0] == "swap" and step[2][1] == p
        hand = s.hand[p]
        if must and (s.stunned[p] or any(c in SAFE for c in hand)):
            must = False  # stunned: no play; else a card that cannot move P, played, then the turn ended
        n = entries + must + (self.last - s.turn) // 2  # the entries under way, this turn's, later turns'
        if PROTECTION in hand and not any(NEW_HAND in c for c in (hand, s.pile[p], s.discard[p], s.fpile,
                                                                   s.hand[1 - p])):
            n -= hand.count(PROTECTION)
        return n

    # -- the search ----------------------------------------------------------------------------
    def value(self, s: State) -> float:
        """P's exact survival probability from ``s``."""
        v, exact = self.bounded(s, -1.0)
        assert exact  # a threshold below 0 cuts nothing
        return v

    def bounded(self, s: State, a: float) -> tuple[float, bool]:
        """``(v, True)``: the exact value, when it is above ``a``; else possibly ``(u, False)``: an
        upper bound ``u`` that does not exceed ``a`` (give or take rounding): enough for a caller
        that needs the value only if it beats ``a`` (Ballard's Star1 for expectimax). Thresholds
        passed down are lowered by :data:`MARGIN`, so a bound never ties an exact value."""
        p = self.p
        if s.phase == "over":
            return (0.0 if s.winner == 1 - p else 1.0), True
        if s.turn > self.last:
            return 1.0, True
        if s.to_move != p:
            return self.bounded(skip_opponent(s, p), a)
        if s.lives[p] > self.losses(s):
            return 1.0, True  # exact: a plain strategy of P's survives (losses)
        if a >= 1.0:
            return 1.0, False  # nothing can beat a: 1 bounds every value
        k = self.key(s)
        got = self.memo.get(k)
        if got is not None and (got[1] or got[0] <= a):
            return got
        if got is None and len(self.memo) >= self.limit:
            raise PositionCap(f"more than {self.limit} positions to weigh")
        if k in self.open:
            raise UsageError("the position lets a turn go round for ever (New Hand reshuffling a pile too small to "
                             "run out of cards): no survival chance to weigh")
        self.open.add(k)
        self.nodes += 1
        if self.tick is not None and not self.nodes & 0xFFF:
            self.tick(len(self.memo))
        if s.phase == "chance":
            out = (1.0, True) if self._covered(s) else self._chance(s, a)
        elif s.decider == p:
            out = self._max(s, a)
        else:
            out = self._min(s, a)
        self.memo[k] = out
        self.open.discard(k)
        return out

    def _covered(self, s: State) -> bool:
        """A draw of P's in P's last turn whose every card is dominated: a movement card P already
        holds survives the turn for certain, so P survives whatever comes. Exact: in the last turn
        a movement card's outcome does not depend on the rest of the hand, but for Protection,
        which a drawn card can only add (a full hand only stops a Function symbol's draw, which
        comes after the move and cannot be played before the turn ends)."""
        step = s.pending[0]
        if step[0] != "draw" or step[1] != self.p or s.turn != self.last or len(s.pending) < 2:
            return False
        nxt = s.pending[1]
        if nxt[0] != "play" or nxt[1] != self.p:
            return False
        t = s._copy()
        t.pending = s.pending[1:]
        run(t)  # the draw left out: P plays from the hand as it is
        if t.phase != "decide" or t.decider != self.p:
            return False
        cards = t.edition.cards
        for action in t.options:
            if action[0] == "play" and hasattr(cards[action[1]], "action"):
                v, exact = self.bounded(t.apply(action), 1.0 - MARGIN)
                if exact and v >= 1.0:
                    return True
        return False

    def _chance(self, s: State, a: float) -> tuple[float, bool]:
        total, rest = 0.0, 1.0
        for o, q in sorted(s.options, key=lambda x: -x[1]):
            rest -= q
            v, exact = self.bounded(s.apply(o), (a - MARGIN - total - rest) / q)
            total += q * v
            if not exact:
                return total + max(rest, 0.0), False  # bounded: every later outcome counted as 1
            if total + rest <= a:
                return total + max(rest, 0.0), rest <= 0.0
        return total, True

    def _max(self, s: State, a: float) -> tuple[float, bool]:
        best, bound = -1.0, -1.0
        for action in s.options:
            v, exact = self.bounded(s.apply(action), max(a, best) - MARGIN)
            if exact:
                best = max(best, v)
                if best >= 1.0:
                    return 1.0, True  # nothing beats certainty
            else:
                bound = max(bound, v)
        if bound <= best:
            return best, True  # every bounded play is below the best exact one
        return max(best, bound), False

    def _min(self, s: State, a: float) -> tuple[float, bool]:
        """The opponent's answer (Protection or not): the one that hurts P more."""
        low = 2.0
        for action in s.options:
            v, exact = self.bounded(s.apply(action), a)
            if not exact or v <= a:
                return v, False  # the minimum cannot beat a
            low = min(low, v)
        return low, True


def survival(s: State, p: int, turns: int) -> float:
    """P's probability of being alive when ``turns`` more own turns (this one included) have ended,
    from ``s`` anywhere in P's current turn (P is to move)."""
    if p != s.to_move:
        raise ValueError("survival is counted from the turn of the player to move")
    return Survival(s, turns).value(s)


def ranked(s: State, turns: int, limit: int = MAX_POSITIONS) -> list[tuple[tuple, float]]:
    """Every legal action of P with its survival probability, best first (ties: legal order)."""
    return solve_position(s, turns, limit=limit)[0]


# -- the seeded position ---------------------------------------------------------------------------
def play_starts(edition: Edition, seed: int, bound: int = SEARCH_BOUND):
    """The seeded game as ``tubedeck play keepmoving --seed S`` plays it (greedy bots, the game's
    own chance stream): each state where the player to move starts to play, in order."""
    from .players import greedy_player

    s = new_game(edition, 2, seed)
    chance, streams = seat_streams(seed, 2)
    while not s.is_terminal() and s.turn < bound:
        seat = s.current_player()
        if seat == CHANCE:
            s = s.apply(chance_outcome(s, chance))
            continue
        if seat == s.to_move and s.pending[0] == ("play", seat, True):
            yield s
        s = s.apply(greedy_player(s, streams[seat]))


MIDGAME_TURN = 20  # the turn a benchmark's "real mid-game position" is taken at


def midgame(edition: Edition, seed: int, turn: int = MIDGAME_TURN) -> State | None:
    """A real mid-game position: the seeded game played by random bots (each seat's own stream,
    the game's chance stream) to the first play step at or after ``turn`` (None: the game ended
    before). The benchmark and the tests take their real positions from here."""
    from .players import random_player

    s = new_game(edition, 2, seed)
    chance, streams = seat_streams(seed, 2)
    while not s.is_terminal():
        seat = s.current_player()
        if seat == CHANCE:
            s = s.apply(chance_outcome(s, chance))
            continue
        if s.turn >= turn and seat == s.to_move and s.pending[0] == ("play", seat, True):
            return s
        s = s.apply(random_player(s, streams[seat]))
    return None


def first_play(edition: Edition, seed: int) -> State:
    """The seeded game's first decision."""
    return next(play_starts(edition, seed))


@dataclass(frozen=True)
class SurvivalReport:
    state: State
    turns: int
    moves: tuple
    positions: int = 0
    seed: int | None = None
    note: str = ""  # how a seeded position was chosen
    searched: int = field(default=0)  # decisions of the seeded game solved to find it

    def as_dict(self) -> dict:
        s = self.state
        best = self.moves[0] if self.moves else None
        return {"player": s.current_player() + 1, "turns": self.turns, "turn": s.turn + 1, "seed": self.seed,
                "note": self.note, "positions": self.positions,
                "best": None if best is None else {"action": list(best[0]), "survival": round(best[1], 9)},
                "moves": [{"action": list(a), "survival": round(v, 9)} for a, v in self.moves],
                "position": to_json(s)}

    def describe(self) -> list[str]:
        s = self.state
        p = s.current_player()
        kinds = " ".join(s.side(i).kind[0].upper() + ("*" if i in s.pos else "") for i in range(len(s.row)))
        out = []
        if self.note:
            out.append(self.note)
        out += [f"Keep Moving, turn {s.turn + 1}: player {p + 1} to play, at position {s.pos[p] + 1} with "
                f"{s.lives[p]} cubes (player {2 - p}: {s.lives[1 - p]})",
                f"  hand: {', '.join(card_name(s.edition, c) for c in s.hand[p]) or '(empty)'}",
                "  row (L lava, G grassland, D dry soil; * a meeple):", f"  {kinds}",
                f"  the chance to survive {self.turns} own turn(s) (exact; the opponent plays nothing in between), "
                f"by play ({self.positions} positions weighed):"]
        for a, v in self.moves:
            out.append(f"  p = {v:.4f}  {s.describe(a)}")
        return out


def solve_position(s: State, turns: int, label: str = "solve keepmoving", limit: int = MAX_POSITIONS,
                   progress: Progress | None = None) -> tuple[list[tuple[tuple, float]], int]:
    """Every legal action of P with its survival probability, best first (ties: legal order), and
    the positions weighed; work over 2 s shows progress (plays weighed, positions), on
    ``progress`` if given (a seeded search shows one line for all its decisions)."""
    actions = s.legal_actions()
    scored: list[tuple[tuple, float]] = []
    with Progress(label, len(actions)) if progress is None else nullcontext(progress) as shown:
        def tick(n: int) -> None:
            if progress is None:
                shown.update(positions=n)
            else:  # the seeded search's line: its decisions are the count, this one's plays a field
                shown.update(plays=f"{len(scored)}/{len(actions)}", positions=n)

        search = Survival(s, turns, limit, tick=tick)
        try:
            for a in actions:
                scored.append((a, search.value(s.apply(a))))
                if progress is None:
                    shown.update(done=len(scored), positions=len(search.memo))
                else:
                    tick(len(search.memo))
        except PositionCap:
            done = "; ".join(f"{s.describe(a)}: p = {v:.4f}" for a, v in scored) or "none"
            best = max((v for _, v in scored), default=0.0)
            raise UsageError(f"the cap of {limit} positions was hit after {len(scored)} of {len(actions)} plays "
                             f"(turn {s.turn + 1}): the best play's chance to survive {turns} own turn(s) is at least "
                             f"{best:.4f}, not known exactly (exact so far: {done}); ask for fewer --turns") from None
    return sorted(scored, key=lambda x: -x[1]), len(search.memo)


def seeded(edition: Edition, seed: int, turns: int) -> SurvivalReport:
    """The seeded game's first decision where the plays' survival values differ: the game played by
    greedy bots (as ``play keepmoving --seed S --bots greedy`` plays it), every decision of the
    player to move at their play step solved in turn, up to :data:`SEARCH_BOUND` turns; if none
    differs, the first decision, and the note says so."""
    first = None
    searched = 0
    with Progress(f"solve keepmoving (seed {seed}): decisions weighed") as progress:
        for s in play_starts(edition, seed):
            searched += 1
            progress.update(done=searched, turn=s.turn + 1)
            moves, positions = solve_position(s, turns, progress=progress)
            if first is None:
                first = (s, moves, positions)
            if len(moves) > 1 and moves[0][1] - moves[-1][1] > 1e-12:
                note = (f"Seed {seed}, played by greedy bots: turn {s.turn + 1} is the first decision where the play "
                        f"changes the chance to survive {turns} own turn(s) ({searched} decisions weighed).")
                return SurvivalReport(s, turns, tuple(moves), positions, seed, note, searched)
    assert first is not None  # a game has a first decision
    note = (f"Seed {seed}, played by greedy bots: no decision up to the game's end (or turn {SEARCH_BOUND}) where "
            f"the play changes the chance to survive {turns} own turn(s) ({searched} decisions weighed); the first "
            f"decision is shown.")
    return SurvivalReport(first[0], turns, tuple(first[1]), first[2], seed, note, searched)


def solve_one(edition: Edition, seed: int | None = None, state: str | None = None, turns: int = 2) -> SurvivalReport:
    """The registry's ``solve keepmoving``."""
    if (seed is None) == (state is None):
        raise UsageError("give exactly one of --seed S or --state FILE")
    if not 1 <= turns <= MAX_TURNS:
        raise UsageError(f"--turns must be 1-{MAX_TURNS}, got {turns}")
    if seed is not None and seed < 0:
        raise UsageError(f"--seed must be >= 0, got {seed}")
    if seed is not None:
        return seeded(edition, seed, turns)
    s = read_state(Path(str(state)), edition)
    if s.is_terminal() or s.current_player() == CHANCE or s.current_player() != s.to_move:
        raise UsageError("--state: the position has no decision of the player to move")
    moves, positions = solve_position(s, turns)
    return SurvivalReport(s, turns, tuple(moves), positions)


def dump(report: SurvivalReport) -> str:
    return json.dumps(report.as_dict())

