"""Seeded players for Next Station: London: random, greedy and look-ahead.

Each is a :data:`tubedeck.play.Bot`, ``bot(state, rng) -> action`` (the edition comes from the
state). They see what a player at the table sees (:meth:`State.observation`): their sheet, the
cards face up this round and so the cards still to come (never their order). The random player
draws from ``rng``, the seat's own seeded stream; the others are deterministic, so a game is its
seed plus its bots.

* **random**: any legal action (pass included), uniformly.
* **greedy**: the draw that most raises :func:`value` now; passes only when nothing can be drawn.
* **look-ahead**: each draw (and the pass) valued by the average, over the cards still to come, of
  the best greedy value after the next turn too.

:func:`value` is the line's round score plus what the line adds to the end of game: 1 per
tourist site on it, 2 per station it shares with an earlier line (a new interchange).
"""

from __future__ import annotations

import random

from tubedeck.games.nextstation.edition import Edition
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.play import PASS, Line, State, legal_sections
from tubedeck.games.nextstation.rules import JOKER
from tubedeck.games.nextstation.scoring import line_score


def value(edition: Edition, line: Line, earlier: set[str]) -> float:
    sc = line_score(edition.board, edition.book, line.stations, line.sections)
    return sc.points + sc.tourist_sites + 2 * len(earlier & set(line.stations))


def _after(line: Line, move: tuple[str, str, int]) -> Line:
    return Line(line.pencil, line.stations + (move[1],), line.sections + (move[2],))


def _context(state: State):
    sheet = state.sheets[state.to_move]
    line = sheet.lines[-1]
    earlier = {s for l in sheet.lines[:-1] for s in l.stations}
    drawn = sheet.drawn
    return line, earlier, drawn


def random_player(state: State, rng: random.Random) -> tuple:
    return rng.choice(state.legal_actions())


def _best_now(edition: Edition, line: Line, earlier: set[str], drawn: frozenset[int], turn: Turn):
    best, choice = value(edition, line, earlier), None
    for move in legal_sections(edition.board, line, drawn, turn):
        v = value(edition, _after(line, move), earlier)
        if choice is None or v > best:
            best, choice = v, move
    return best, choice


def greedy_player(state: State, rng: random.Random | None = None) -> tuple:
    line, earlier, drawn = _context(state)
    _, move = _best_now(state.edition, line, earlier, drawn, state.drawing)
    return PASS if move is None else ("draw", move[0], move[1])


def lookahead_player(state: State, rng: random.Random | None = None) -> tuple:
    edition = state.edition
    line, earlier, drawn = _context(state)
    if state.drawing.last:
        return greedy_player(state, rng)
    upcoming = [c for c in edition.cards if c.id not in state.flipped and not c.switch]
    moves: list = [None, *legal_sections(edition.board, line, drawn, state.drawing)]
    best, pick = None, None
    for move in moves:
        nxt = line if move is None else _after(line, move)
        nd = drawn if move is None else drawn | {move[2]}
        total = 0.0
        for card in upcoming:
            turn = Turn(card.id, None if card.face == JOKER else card.face, False, False)
            total += _best_now(edition, nxt, earlier, nd, turn)[0]
        score = total / max(1, len(upcoming))
        if best is None or score > best + 1e-9:
            best, pick = score, move
    return PASS if pick is None else ("draw", pick[0], pick[1])


PLAYERS = {"random": random_player, "greedy": greedy_player, "lookahead": lookahead_player}
