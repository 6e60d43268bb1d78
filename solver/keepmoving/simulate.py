"""``tubedeck play keepmoving`` and ``tubedeck simulate keepmoving``: what Keep Moving adds to the
one driver (:mod:`tubedeck.solver.simulation`).

A game is its seed, the bots' actions and the chance outcomes (drawn from
``random.Random(f"{seed}:chance")`` by :func:`tubedeck.play.play_game`), so a record replays
exactly. The record (:data:`tubedeck.games.keepmoving.records.SIMULATE`) says who won, who
started and the winner's place in turn order, the turns played, how the game ended and the
function cards played; how games end is folded here (:class:`Ended`), the rest by the driver.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.keepmoving import GAME
from tubedeck.games.keepmoving.edition import Edition
from tubedeck.games.keepmoving.play import State, card_name
from tubedeck.games.keepmoving.records import SIMULATE
from tubedeck.play import Played
from tubedeck.solver.simulation import Playing, play_command, simulate_command, wrapped

from .position import to_json

BUNDLED_GROUND = "ground.csv"
KIND_LETTER = {"lava": "L", "grassland": "G", "dry soil": "D"}

def function_plays(played: Played, edition: Edition) -> Counter:
    """Function cards played by either player, and Protection each time it is used."""
    out: Counter = Counter()
    for m in played.decisions():
        a: Any = m.action
        if a[0] == "play" and not hasattr(edition.card(a[1]), "action"):
            out[a[1]] += 1
        elif a == ("protect",):
            out["protection"] += 1
    return out


def measure(played: Played, edition: Edition, **variant: Any) -> dict:
    """A played game's record (:data:`SIMULATE`)."""
    s = played.state
    winner = None if s.winner is None else s.winner + 1
    return {"winner": winner, "first": s.first + 1,
            "place": None if winner is None else 1 + (s.winner - s.first) % s.players,
            "turns": s.turn + (s.winner is not None),  # the deciding turn had not finished: count it
            "ended": s.ended, "functions": dict(sorted(function_plays(played, edition).items()))}


def edition(data: str | None, options: dict) -> Edition:
    return cached_edition(get("keepmoving"), data, **options)


def facts(ed: Edition) -> dict:
    return {"ground": ed.composition}


def tag(ed: Edition, options: dict, variant: dict) -> str:
    """Another ground composition gets its own default results file."""
    return "" if ed.composition == BUNDLED_GROUND else ed.composition.rsplit(".", 1)[0]


def position(s: State) -> tuple[dict, list[str]]:
    """The final position: the row's up sides with the meeples, cubes, supply and hands."""
    ed = s.edition
    cells = []
    for i in range(len(s.row)):
        side = s.side(i)
        mark = "".join(str(p + 1) for p in (0, 1) if s.pos[p] == i)
        cells.append(f"{i + 1}:{KIND_LETTER[side.kind]}{side.symbol[:1].upper()}{'[' + mark + ']' if mark else ''}")
    lines = ["row, left to right (L lava, G grassland, D dry soil; F function, R replace; [1] [2] the meeples):"]
    lines += wrapped("  ", cells)
    for p in (0, 1):
        hand = ", ".join(card_name(ed, c) for c in s.hand[p]) or "empty"
        lines.append(f"player {p + 1}{' (started)' if p == s.first else ''}: position {s.pos[p] + 1} "
                     f"({s.side(s.pos[p]).kind}), {s.lives[p]} cube{'' if s.lives[p] == 1 else 's'}; hand: {hand}")
    lines.append(f"supply: {s.supply} cubes; " + (f"ended by {s.ended}" if s.winner is not None else "drawn at the turn limit"))
    return {**to_json(s), "first": s.first + 1, "winner": None if s.winner is None else s.winner + 1,
            "ended": s.ended}, lines


@dataclass
class Ended:
    """How the games ended (the cause of the last cube lost, or the turn limit), most common first."""

    counts: Counter = field(default_factory=Counter)

    def add(self, record: dict) -> None:
        self.counts[record["ended"]] += 1

    def as_dict(self) -> dict:
        return {"ended": dict(self.counts.most_common())}

    def describe(self) -> list[str]:
        return wrapped("  ended: ", [f"{k} {v}" for k, v in self.counts.most_common()])

    def failures(self) -> str | None:
        return None  # a drawn game is the driver's "without a winner"


def ended(ed: Edition, variant: dict) -> Ended:
    return Ended()


PLAYING = Playing(game=GAME, record=SIMULATE, measure=measure,
                  edition=edition, position=position, facts=facts, tag=tag, extra=ended)

play_one = play_command(GAME)
simulation = simulate_command(GAME)
