"""``tubedeck play oneday`` and ``tubedeck simulate oneday``: what One Day in London adds to the
one driver (:mod:`tubedeck.solver.simulation`).

A game is its seed and its bots (the shuffles are the seed's), so a record replays exactly. Its
record (:data:`tubedeck.games.oneday.records.SIMULATE`): the winner, the turns played (the winning
turn included), the rounds begun, the reshuffles of the draw pile and the exchanges the winner made.

A game not won by the turn cap (:data:`~tubedeck.games.oneday.records.MAX_TURNS`) says so: ``play``
prints "no winner: stopped at the 600-turn cap" and "turns played: 600 (the cap)" where a won game
prints its winner and "turns played, the winning turn included", and ``simulate``'s summary counts
the capped games (:class:`CapCount`).
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from dataclasses import asdict, dataclass, fields
from typing import Any

from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.oneday import GAME
from tubedeck.games.oneday.edition import Edition
from tubedeck.games.oneday.play import State
from tubedeck.games.oneday.records import MAX_TURNS, SIMULATE
from tubedeck.play import Action, Played
from tubedeck.solver.simulation import GameReport, Playing, play_command, result_lines, simulate_command


def measure(played: Played, edition: Edition, **variant) -> dict:
    s = played.state
    winner = None if s.winner is None else s.winner + 1
    exchanges = None if s.winner is None else sum(_kind(m.action) == "exchange" for m in played.decisions(s.winner))
    return {"winner": winner, "turns": s.turn, "rounds": -(-s.turn // s.players), "reshuffles": s.reshuffles,
            "exchanges": exchanges}


def _kind(action: Action) -> str:
    return action[0] if isinstance(action, tuple) else ""


def load_edition(data: str | None, options: dict) -> Edition:
    return cached_edition(get("oneday"), data, **options)


def facts(edition: Edition) -> dict:
    """What the header says of the edition: the turn limit and the deck and rules by content, so a
    resumed run never mixes two games."""
    deck, rec = edition.deck, edition.rules
    digest = hashlib.sha256(",".join(c.id for c in deck.cards).encode()).hexdigest()[:12]
    rules = {k: v for k, v in asdict(rec).items() if k not in ("source", "text")}
    recipe = hashlib.sha256(json.dumps(rules, sort_keys=True, default=list).encode()).hexdigest()[:12]
    return {"max_turns": MAX_TURNS, "cards": len(deck), "deck": digest, "recipe": recipe}


def position(state: State) -> tuple[dict, list[str]]:
    """The final position: each rack by station name (slot 1 first), the discard piles' tops and
    the draw pile's size."""
    racks = [[None if c is None else c.name for c in rack] for rack in state.racks]
    tops = [p[-1].name if p else None for p in state.piles]
    lines = []
    for p, rack in enumerate(racks):
        mark = " (a\0journey:\0the\0win)" if state.winner == p else ""
        names = [(n or "(empty)").replace(" ", "\0") for n in rack]  # a name is never cut
        text = f"player {p + 1}: " + ", ".join(names) + mark
        lines += [line.replace("\0", " ") for line in textwrap.wrap(text, 76, subsequent_indent="    ")]
    if state.piles:
        lines.append("discard piles: " + ", ".join(f"{k + 1}: {t or '(empty)'}" for k, t in enumerate(tops)))
    lines.append(f"draw pile: {len(state.stock)} card{'s' if len(state.stock) != 1 else ''}"
                 + (f", reshuffled {state.reshuffles}x" if state.reshuffles else ""))
    data = {"racks": racks, "rack_ids": [[None if c is None else c.id for c in r] for r in state.racks],
            "discard_tops": tops, "draw_pile": len(state.stock),
            "winner": None if state.winner is None else state.winner + 1, "turns": state.turn}
    return data, lines


def outcome_lines(record: dict) -> list[str]:
    """A game's outcome in words: the winner, or that the turn cap stopped it; then the measures."""
    if record["winner"] is None:
        out = [f"no winner: stopped at the {MAX_TURNS}-turn cap", f"turns played: {record['turns']} (the cap)"]
    else:
        out = [f"winner: player {record['winner']}", f"turns played, the winning turn included: {record['turns']}"]
    return out + [f"{f.label}: {record[f.name]}" for f in SIMULATE.of("measure")
                  if f.name != "turns" and record.get(f.name) is not None]


@dataclass(frozen=True)
class Report(GameReport):
    """``play oneday``: the shared report, its outcome lines One Day's own (:func:`outcome_lines`)."""

    def describe(self) -> list[str]:
        lines = super().describe()
        shared = result_lines(self.rules.record, self.record, self.played.state.players)
        assert lines[len(lines) - len(shared):] == shared, "the shared report ends with its result lines"
        return lines[: len(lines) - len(shared)] + outcome_lines(self.record)

    def as_dict(self) -> dict:
        return super().as_dict() | {"capped": self.record["winner"] is None}


@dataclass
class CapCount:
    """``simulate oneday``'s own figure: the games the turn cap stopped (no winner)."""

    games: int = 0
    capped: int = 0

    def add(self, record: dict) -> None:
        self.games += 1
        self.capped += record["winner"] is None

    def as_dict(self) -> dict:
        return {"capped": self.capped, "max_turns": MAX_TURNS}

    def describe(self) -> list[str]:
        return [f"  stopped at the {MAX_TURNS}-turn cap (no winner): {self.capped} of {self.games} games"]

    def failures(self) -> str | None:
        return None  # the shared summary already fails on games without a winner


def cap_count(edition: Edition, variant: dict) -> CapCount:
    return CapCount()


PLAYING = Playing(
    game=GAME, record=SIMULATE,
    measure=measure,
    edition=load_edition,
    position=position,
    facts=facts,
    extra=cap_count,
)

_play_one = play_command(GAME)


def play_one(edition: Any, players: int, seed: int = 0, bots: str | None = None, **variant: Any) -> Report:
    """The registry's ``play oneday``: the shared ``play`` with One Day's outcome lines."""
    report = _play_one(edition, players, seed, bots, **variant)
    return Report(**{f.name: getattr(report, f.name) for f in fields(report)})


simulation = simulate_command(GAME)
