"""Hand-made Keep Moving positions for the rule tests (not a test module)."""

from __future__ import annotations

import dataclasses
import random

from tubedeck.games.keepmoving.cards import GroundCard, Side
from tubedeck.games.keepmoving.edition import load
from tubedeck.games.keepmoving.play import State
from tubedeck.games.keepmoving.resolve import run
from tubedeck.play import CHANCE

EDITION = load(None)
CODES = {"L": "lava", "G": "grassland", "S": "dry soil"}


def side(code: str) -> Side:
    """``"L"`` lava, ``"GF"`` grassland with Function, ``"SR"`` dry soil with Replace."""
    return Side(CODES[code[0]], {"": "", "F": "function", "R": "replace"}[code[1:]])


def position(row: str, pos=(0, 5), hands=((), ()), backs: str | None = None, pile: str = "S S S S",
             lives=(10, 10), supply=10, piles=((), ()), discards=((), ()), fpile=(), to_move=0,
             step=None, locks=(0, 0), stunned=(False, False)) -> State:
    """A state at player ``to_move``'s play step. ``row`` and ``backs``: side codes, one a card,
    space-separated (backs default to dry soil); ``pile``: the ground pile's up sides, top first."""
    ups = row.split()
    downs = (backs or " ".join("S" for _ in ups)).split()
    cards = [GroundCard(f"t{i}", (side(u), side(d))) for i, (u, d) in enumerate(zip(ups, downs))]
    cards += [GroundCard(f"p{i}", (side(c), side("L"))) for i, c in enumerate(pile.split())]
    ed = dataclasses.replace(EDITION, ground=tuple(cards))
    s = State(ed, row=tuple((i, 0) for i in range(len(ups))),
              gpile=tuple((len(ups) + i, 0) for i in range(len(pile.split()))), pos=tuple(pos), lives=tuple(lives),
              supply=supply, hand=tuple(tuple(sorted(h)) for h in hands),
              pile=tuple(tuple(sorted(p)) for p in piles), discard=tuple(tuple(d) for d in discards),
              fpile=tuple(sorted(fpile)), locks=tuple(locks), stunned=tuple(stunned), to_move=to_move, first=0,
              turn=0, phase="run", decider=to_move, pending=(step or ("play", to_move, True), ("end", to_move)),
              options=(), winner=None, ended="", seed=0)
    run(s)
    return s


def chance(s: State) -> bool:
    return s.current_player() == CHANCE


def kinds(s: State) -> str:
    letter = {v: k for k, v in CODES.items()}
    return " ".join(letter[s.side(i).kind] + {"": "", "function": "F", "replace": "R"}[s.side(i).symbol]
                    for i in range(len(s.row)))


def play_out(s: State, rng: random.Random, limit: int = 100_000) -> tuple[State, list]:
    """Random decisions and sampled chance to the end; the log of (node kind, choice)."""
    log = []
    for _ in range(limit):
        if s.is_terminal():
            return s, log
        if chance(s):
            outs = s.chance_outcomes()
            assert abs(sum(p for _, p in outs) - 1) < 1e-9
            choice = rng.choices([o for o, _ in outs], [p for _, p in outs])[0]
        else:
            legal = s.legal_actions()
            assert legal, s
            choice = rng.choice(legal)
        log.append((s.current_player(), choice))
        s = s.apply(choice)
    raise AssertionError("no end")
