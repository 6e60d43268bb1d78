"""The best whole solo game by brute force: every line of every round, on the sheet the earlier
rounds left, each complete sheet scored as the rules' :func:`~tubedeck.games.nextstation.scoring.final_score` scores it.

The independent check of the whole-game solver on small cases (a few short rounds). It shares
nothing with :mod:`.bnb`, :mod:`.model` or :mod:`.game`: it uses only the rules engine's
:func:`~tubedeck.games.nextstation.lines.legal_sections` (which refuses a section drawn on the
sheet by any line, or crossing one, and a station twice on a line) and the scoring module.

Round by round, every sequence of draws and passes is walked and each **distinct line** (its set
of sections: that fixes its stations, ends and score) is kept once. Then, for each line of round 1,
every line of round 2 on the sheet where round 1's sections are drawn, and so on; each complete
sheet (one line per round) gets its final score: line scores + tourist track + interchanges +
objectives reached. Nothing is pruned: the tourist track, interchanges and objectives couple the
rounds, so only what is plainly safe is memoised: the distinct lines of a round for a given set
of sections drawn before it (they depend on nothing else; and only on the drawn sections its
lines could use or cross, :func:`touched`), and each line's
:func:`~tubedeck.games.nextstation.scoring.line_score`.

**Speed.** A sheet's total is summed as the sheets are built (line points, tourist marks, and per
station the interchange table's value for the lines through it, updated as each line is added):
about 10x faster than calling ``final_score`` on each of up to a million sheets. The sum is
``final_score``'s own (the scoring module's docstring): a test checks the two on every sheet of
small games, and :func:`best_game` checks its answer with ``final_score`` itself.
"""

from __future__ import annotations

from typing import Iterator

from tubedeck.games.nextstation.board import Board
from tubedeck.games.nextstation.edition import Edition, deal
from tubedeck.games.nextstation.flips import Turn
from tubedeck.games.nextstation.flips import turns as round_turns
from tubedeck.games.nextstation.lines import Line, legal_sections
from tubedeck.games.nextstation.rules import Objective, RuleBook
from tubedeck.games.nextstation.scoring import final_score, line_score, objective_reached

Round = tuple[tuple[Turn, ...], str]  # the round's turns, the departure station of its pencil


class _Budget:
    def __init__(self, limit: int):
        self.limit, self.used = limit, 0

    def spend(self) -> None:
        self.used += 1
        if self.used > self.limit:
            raise RuntimeError(f"exhaustive whole-game search passed {self.limit} positions")


def round_lines(board: Board, turns: tuple[Turn, ...], departure: str, drawn: frozenset[int],
                budget: _Budget | None = None) -> tuple[Line, ...]:
    """Every distinct line a round can end with on a sheet where ``drawn`` sections exist (all
    passes included: the departure alone), in the order first met by a depth-first walk."""
    budget = budget or _Budget(10**9)  # no limit of its own: best_game passes its budget
    pencil = board.by_id[departure].departure
    seen: set[tuple[int, frozenset[int]]] = set()
    found: dict[frozenset[int], Line] = {}

    def walk(t: int, line: Line) -> None:
        key = (t, frozenset(line.sections))
        if key in seen:  # the same sections by another order: the same future
            return
        seen.add(key)
        budget.spend()
        if t == len(turns):
            found.setdefault(key[1], line)
            return
        walk(t + 1, line)  # pass
        for _, v, i in legal_sections(board, line, drawn | key[1], turns[t]):
            walk(t + 1, Line(pencil, line.stations + (v,), line.sections + (i,)))

    walk(0, Line(pencil, (departure,), ()))
    return tuple(found.values())


def touched(board: Board, free: tuple[Line, ...]) -> frozenset[int]:
    """The sections a drawn section must be one of to change a round's lines: those its lines
    use on an empty sheet (``free``) and those crossing one of them. legal_sections refuses a
    section only when it is drawn or crosses a drawn one, and a fuller sheet only takes moves away,
    so the lines on a sheet depend on its drawn sections through these alone."""
    used = {i for line in free for i in line.sections}
    return frozenset(used.union(*(board.crossing[i] for i in used)))


def sheets(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
           limit: int = 5_000_000) -> Iterator[tuple[int, tuple[Line, ...]]]:
    """Every complete sheet (one line per round, drawn in order on an empty sheet) with its final
    score. ``limit`` bounds the positions (line-walk steps and complete sheets); past it a
    RuntimeError names it."""
    table = book.scores.interchange  # points for a station on 0, 1, 2 ... of the sheet's lines
    if len(rounds) > len(table) - 1:
        raise ValueError(f"at most {len(table) - 1} rounds (the interchange table's size), got {len(rounds)}")
    budget = _Budget(limit)
    memo: dict[tuple[int, frozenset[int]], tuple[Line, ...]] = {}
    scored: dict[tuple[str, frozenset[int]], tuple[int, int, frozenset[str]]] = {}
    on: dict[str, int] = {}  # station -> lines of the sheet through it

    relevant: dict[int, frozenset[int]] = {}

    def lines_of(r: int, drawn: frozenset[int]) -> tuple[Line, ...]:
        turns, departure = rounds[r]
        if r not in relevant:
            free = memo[r, frozenset()] = round_lines(board, turns, departure, frozenset(), budget)
            relevant[r] = touched(board, free)
        key = (r, drawn & relevant[r])
        if key not in memo:
            memo[key] = round_lines(board, turns, departure, key[1], budget)
        return memo[key]

    def parts(line: Line) -> tuple[int, int, frozenset[str]]:
        key = (line.stations[0], frozenset(line.sections))
        if key not in scored:
            s = line_score(board, book, line.stations, line.sections)
            scored[key] = (s.points, s.tourist_sites, frozenset(line.stations))
        return scored[key]

    def go(r, drawn, sheet, points, marks, inter) -> Iterator[tuple[int, tuple[Line, ...]]]:
        if r == len(rounds):
            budget.spend()
            total = points + book.scores.tourist(min(marks, book.rules.tourist_marks_max)) + inter
            if objectives:
                stations, sections = [l.stations for l in sheet], [l.sections for l in sheet]
                total += book.rules.objective_points * sum(objective_reached(o, board, stations, sections)
                                                           for o in objectives)
            yield total, sheet
            return
        for line in lines_of(r, drawn):
            p, m, reached = parts(line)
            gain = 0
            for s in reached:
                n = on.get(s, 0)
                gain += table[n + 1] - table[n]
                on[s] = n + 1
            yield from go(r + 1, drawn | frozenset(line.sections), sheet + (line,), points + p, marks + m,
                          inter + gain)
            for s in reached:
                on[s] -= 1

    yield from go(0, frozenset(), (), 0, 0, 0)


def best_game(board: Board, book: RuleBook, rounds: tuple[Round, ...], objectives: tuple[Objective, ...] = (),
              limit: int = 5_000_000) -> tuple[int, tuple[Line, ...]]:
    """(best final score, the lines reaching it, one per round: the first such sheet met) for one
    player drawing ``rounds`` in order on an empty sheet; ``limit`` as :func:`sheets`."""
    best: int | None = None
    lines: tuple[Line, ...] = ()
    for total, sheet in sheets(board, book, rounds, objectives, limit):
        if best is None or total > best:
            best, lines = total, sheet
    assert best is not None  # every round has a line (all passes at worst): there is a sheet
    check = final_score(board, book, [l.stations for l in lines], [l.sections for l in lines], objectives)
    assert check.total == best, (check, best)  # the running sum is final_score's own
    return best, lines


def small_games(edition: Edition, seeds, turns_per_round: int) -> list[tuple[Round, ...]]:
    """Deterministic small solo games from seeded deals: each of the rounds of
    ``deal(edition, 1, seed)`` cut to its first ``turns_per_round`` turns (the cut's last turn
    marked ``last``), with the solo pencil's departure; one game per seed."""
    if turns_per_round < 1:
        raise ValueError(f"turns_per_round must be at least 1, got {turns_per_round}")
    out = []
    for seed in seeds:
        d = deal(edition, 1, seed)
        game = []
        for r, order in enumerate(d.flips):
            ts = round_turns(edition.book, order)[:turns_per_round]
            ts = ts[:-1] + (Turn(ts[-1].card, ts[-1].symbol, ts[-1].switch, True),)
            game.append((ts, edition.board.departure(d.pencils[0][r]).id))
        out.append(tuple(game))
    return out
