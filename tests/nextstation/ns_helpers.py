"""Shared by the Next Station solver tests: seeded short rounds and a replay of a drawn line."""

from __future__ import annotations

import random

from tubedeck.games.nextstation.flips import turns, turns_so_far
from tubedeck.games.nextstation.play import CHANCE, Line, legal_sections, new_game
from tubedeck.games.nextstation.scoring import line_score

_SOLVED: dict[tuple, tuple] = {}  # (edition's id, seed, turns, count, objectives) -> (edition, rounds, best)


def solved_small_game(ed, seed, turns_per_round, count=None, objectives=()):
    """A seeded small game (its first ``count`` rounds) and its optimum by brute force (worked out
    once a session: several tests ask for the same games, up to 2 s of search each)."""
    from tubedeck.solver.nextstation.exhaustive_game import best_game, small_games

    key = (id(ed), seed, turns_per_round, count, tuple(objectives))
    if key not in _SOLVED:
        (rounds,) = small_games(ed, [seed], turns_per_round)
        rounds = rounds[:count] if count else rounds
        best, _ = best_game(ed.board, ed.book, rounds, objectives)
        _SOLVED[key] = (ed, rounds, best)  # the edition kept alive: its id stays its own
    _, rounds, best = _SOLVED[key]
    return rounds, best


def short_rounds(ed, count, most, least=1, seed=0):
    """Seeded real flip orders whose round has ``least``-``most`` turns (small enough to search)."""
    ids = [c.id for c in ed.cards]
    while count:
        rng = random.Random(seed)
        seed += 1
        order = ids[:]
        rng.shuffle(order)
        ts = turns(ed.book, tuple(order))
        if least <= len(ts) <= most:
            count -= 1
            yield ts, ed.board.departure(rng.choice(ed.rules.pencils)).id


def replay(ed, ts, dep, draws):
    """The draws played through the rules engine's own legal moves; the line's score."""
    line = Line("", (dep,), ())
    by_turn = {t: (u, v) for t, u, v in draws}
    for t, turn in enumerate(ts):
        if t in by_turn:
            u, v = by_turn[t]
            legal = {(a, b): i for a, b, i in legal_sections(ed.board, line, frozenset(line.sections), turn)}
            assert (u, v) in legal, (t, u, v)
            line = Line("", line.stations + (v,), line.sections + (legal[u, v],))
    return line_score(ed.board, ed.book, line.stations, line.sections).points


def played(ed, seed: int) -> tuple[int, list[list[tuple[int, str, str]]]]:
    """A solo game by the greedy bot through the rules engine: its final score and its draws
    per round as (0-based turn, from, to), the solver's shape."""
    from tubedeck.solver.nextstation.players import greedy_player

    state = new_game(ed, 1, seed)
    rounds: list[list[tuple[int, str, str]]] = [[] for _ in range(ed.rules.rounds)]
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            card = state.dealt_outcome()
            assert card is not None  # the seeded deal always has the next card
            state = state.apply(card)
            continue
        action = greedy_player(state, None)
        if action[0] == "draw":
            turn = len(turns_so_far(ed.book, state.flipped)[0]) - 1
            rounds[state.round].append((turn, action[1], action[2]))
        state = state.apply(action)
    return state.final(0).total, rounds


def random_sheet(ed, rounds, rng) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """A random legal sheet: each round's line drawn through the rules engine's own moves (a
    random bot; passing a fifth of the time), as (stations, sections) per round."""
    drawn: set[int] = set()
    out = []
    for ts, dep in rounds:
        line = Line(ed.board.by_id[dep].departure, (dep,), ())
        for turn in ts:
            moves = legal_sections(ed.board, line, frozenset(drawn), turn)
            if moves and rng.random() > 0.2:
                _, v, i = rng.choice(moves)
                line = Line(line.pencil, line.stations + (v,), line.sections + (i,))
                drawn.add(i)
        out.append((line.stations, line.sections))
    return out


def write_challenges(path, rows: list[list]):
    """A challenges.csv of ``rows`` (map, seed, score, status, bound, drawing) at ``path``."""
    import csv

    from tubedeck.games.nextstation.challenge import COLUMNS

    with path.open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(COLUMNS)
        out.writerows(rows)
    return path
