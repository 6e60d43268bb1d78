"""``tubedeck play klm`` and ``tubedeck simulate klm``: Keep London Moving played by bots.

Only what is particular to Keep London Moving; the driver is :mod:`tubedeck.solver.simulation`. A game is
its seed and the bots' actions (each seat's bot draws from its own seeded stream), so a results
record replays exactly. The record (:data:`tubedeck.games.klm.records.SIMULATE`) holds game length
(turns and rounds), the winner by seat and by place in turn order, whether a Fortune Card was
played in the winner's last three own turns, whether Fast Gameplay was reached, and how many
players used Unlucky Hand.
"""

from __future__ import annotations

import textwrap

from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.klm import GAME
from tubedeck.games.klm.edition import Edition
from tubedeck.games.klm.play import State
from tubedeck.games.klm.records import MAX_TURNS, SIMULATE
from tubedeck.play import Played
from tubedeck.solver.simulation import Playing, play_command, simulate_command


def fortune_decided(state: State, last: int = 3) -> bool:
    """Whether the winner played a Fortune Card in their last ``last`` own turns."""
    if state.winner is None:
        return False
    w, n = state.winner, state.players
    turns = [g for g in range(state.turn, -1, -1) if (state.starter + g) % n == w][:last]
    return any(seat == w and g in turns for g, seat, _ in state.fortune_plays)


def turns_played(state: State) -> int:
    """Turns played: the winning turn included; all ``max_turns`` of a game without a winner."""
    return state.turn + 1 if state.winner is not None else state.turn


def record(state: State) -> dict:
    """A finished game as its declared record (seats and places 1-based)."""
    turns, n = turns_played(state), state.players
    return {"winner": None if state.winner is None else state.winner + 1, "turns": turns,
            "rounds": -(-turns // n), "starter": state.starter + 1,
            "order": None if state.winner is None else (state.winner - state.starter) % n + 1,
            "fortune_last3": fortune_decided(state), "fast": state.fast_from is not None,
            "fortunes": len(state.fortune_plays), "unlucky": sum(state.unlucky)}


def measure(played: Played, edition: Edition, **variant) -> dict:
    return record(played.state)


def position(state: State) -> tuple[dict, list[str]]:
    """The final position: every seat's hands and Play Field by station and card name, the
    lasting effects, the stocks, and the winning path."""
    name, t = state.name, state.table
    seats, lines = [], []
    for p in range(state.players):
        fld, off = state.fields[p], state.disabled(p)
        links = [f"{name(a)} - {name(b)}" for a, b in sorted(fld.links, key=lambda l: (name(l[0]), name(l[1])))]
        hand, fortune = [name(c) for c in state.hands[p]], [name(c) for c in state.fortune_hands[p]]
        disabled = sorted(name(c) for c in off)
        seats.append({"seat": p + 1, "hand": hand, "fortune": fortune, "connections": links,
                      "disabled": disabled, "unlucky": state.unlucky[p]})
        lines += _wrap(f"player {p + 1}: hand " + (", ".join(hand) or "empty")
                       + "; Fortune Cards " + (", ".join(fortune) or "none"))
        lines += _wrap("  Play Field: " + (", ".join(links) or "empty")
                       + (f" (Disabled: {', '.join(disabled)})" if off else ""))
    effects = []
    for e in state.effects:
        whom = f"player {e.seat + 1}" + (f"'s {name(e.station)}" if e.station else "")
        what = {"disabled": "Disabled", "protected": "protected", "blocked": "blocked from Connections"}[e.kind]
        effects.append(f"{whom} {what} until player {e.caster + 1} ends own turn {e.until}")
    lines += [f"effect: {e}" for e in effects]
    lines.append(f"Station stock {len(state.stock)}, discards {len(state.discards)}; "
                 f"Fortune stock {len(state.fortune_stock)}, discards {len(state.fortune_discards)}"
                 + ("; Fast Gameplay" if state.fast else ""))
    path = None
    if state.winner is not None:
        w = state.winner
        path = [name(c) for c in state.fields[w].path(t.rules.path, state.disabled(w)) or state.fields[w].route(
            t.rules.path, state.disabled(w))]
        lines += _wrap(f"player {state.winner + 1} wins on turn {turns_played(state)}: " + " - ".join(path))
    else:
        lines.append(f"no winner after {turns_played(state)} turns")
    return ({"players": seats, "effects": effects, "stock": len(state.stock), "discards": len(state.discards),
             "fortune_stock": len(state.fortune_stock), "fortune_discards": len(state.fortune_discards),
             "fast": state.fast, "path": path}, lines)


def _wrap(text: str, width: int = 76) -> list[str]:
    """One line in words as lines of at most ``width``, continued four spaces in."""
    return textwrap.wrap(text, width, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)


def edition(data: str | None, options: dict) -> Edition:
    """The edition from the per-process cache, keyed as the command line keys it (``scope``
    named even when None), so a run builds it once."""
    return cached_edition(get("klm"), data, **{"scope": None, **options})


def facts(ed: Edition) -> dict:
    return {"scope": ed.scope.label, "stations": len(ed.deck), "max_turns": MAX_TURNS}


def tag(ed: Edition, options: dict, variant: dict) -> str:
    return ed.scope.slug


PLAYING = Playing(game=GAME, record=SIMULATE, measure=measure, edition=edition, position=position, facts=facts, tag=tag)

play_one = play_command(GAME)
simulation = simulate_command(GAME)
