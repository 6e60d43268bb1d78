"""The rulebook's worked examples, each a seeded game replayed by the rules engine (:mod:`.play`):
the numbers the rulebook prints and what its figures draw come from here, never typed.

* :func:`setup_example`: a seeded 3-player table: who holds which pencil each round, where the
  spare pencil lies, the Shared Objectives and the Pencil Powers the seed draws.
* :func:`round_example`: one round of a seeded solo game on the map a player holds (generated map
  1, the first page of ``map.pdf``), played by :func:`greedy_move`: every card flipped, every
  section drawn, and the score pad's numbers for the line (districts, the biggest district, Thames
  sections, the round's score, tourist circles).
* :func:`game_example`: the same game to its end: each line's score, the tourist track,
  interchanges, the total and the solo band it reaches.

The player is deliberately simple (:func:`greedy_move`: the section that most raises the line's
score now), so the example is a plausible game, not a best one; the engine checks every move.
No generator import: the faces' module (``generator/nextstation/rulebook.py``) reads these.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Board
from .edition import Edition
from .flips import turns_so_far
from .play import FACE_NAMES, PASS, State, drawn_objectives, new_game
from .powers import deal_powers
from .scoring import line_score

ROUND_SEED = 12  # the solo game of the round and game examples: a pass, a Switch that branches, tourist sites
SETUP_SEED = 3  # the 3-player table of the setup example
SETUP_PLAYERS = 3


@dataclass(frozen=True)
class Flip:
    """One Station card as it was flipped: ``turn`` is the turn it makes (None: a Switch)."""

    card: str  # the card's id
    face: str  # a symbol, "joker" or "railroad-switch"
    deck: str  # "street" or "underground"
    words: str  # "Circle (Underground)"
    turn: int | None
    switch_counts: bool  # a Switch that takes effect (False for a Switch on turn 1 or 2, and other cards)
    last: bool  # the round's last card (the 5th Underground card)


@dataclass(frozen=True)
class Move:
    """One section drawn: on turn ``turn`` (1-based), from ``start`` to ``end`` (coordinates such
    as ``C4``, names as the sheet prints them)."""

    turn: int
    start: str
    start_name: str
    end: str
    end_name: str
    branch: bool  # drawn from a station that was not an end of the line (a Switch's turn)


@dataclass(frozen=True)
class RoundExample:
    seed: int
    map_name: str  # "map 1 (London, zones 1-2)"
    pencil: str
    departure: str  # coordinate
    departure_name: str
    flips: tuple[Flip, ...]
    moves: tuple[Move, ...]
    passes: tuple[int, ...]  # the turns the player drew nothing
    pass_choices: tuple[int, ...]  # per pass, the sections the player could have drawn instead
    stations: tuple[str, ...]  # station ids of the line, departure first (for the figure)
    sections: tuple[int, ...]  # the line's section indices
    districts: int
    biggest: int
    biggest_district: str  # the district id where the line has the most stations
    thames: int  # Thames sections
    thames_points: int
    points: int  # districts x biggest + thames_points
    tourist_sites: int
    tourist_names: tuple[str, ...]


@dataclass(frozen=True)
class GameExample:
    seed: int
    pencils: tuple[str, ...]  # per round
    lines: tuple[int, ...]  # per round, the line's score
    tourist_marks: int
    tourist_points: int
    interchanges: tuple[int, ...]  # stations on exactly 2, 3, 4 lines
    interchange_points: int
    total: int
    band: int  # the solo band (1-6) the total reaches


@dataclass(frozen=True)
class SetupExample:
    seed: int
    players: int
    pencils: tuple[tuple[str, ...], ...]  # pencils[player][round]
    spare: tuple[str, ...]  # the pencils nobody holds in round 1, in ring order
    objectives: tuple[str, ...]  # the 2 Shared Objective ids drawn
    powers: tuple[tuple[str, str], ...]  # (pencil, Pencil Power id)


def held_map(edition: Edition) -> Edition:
    """The edition played on the map a player holds: the sheet's first map (generated map 1 when
    the edition plays the classic board, which is never printed)."""
    made = edition.sheet
    return replace(edition, board=made.board, generated=made)


def greedy_move(state: State) -> tuple:
    """The draw that most raises the line's round score now, a tourist site worth 1 more; ties
    go to the first in the engine's order; pass when no draw raises it (or none is legal). The
    first section is always drawn (a line of one station scores 1)."""
    board, book = state.edition.board, state.edition.book
    line = state.sheets[state.to_move].lines[-1]
    now = line_score(board, book, line.stations, line.sections)
    best: tuple = PASS
    value = now.points + now.tourist_sites if len(line.stations) > 1 else -1
    for action in state.legal_actions():
        if action[0] != "draw" or len(action) != 3:
            continue
        sec = board.pair_section[action[1], action[2]]
        after = line_score(board, book, line.stations + (action[2],), line.sections + (sec.index,))
        if after.points + after.tourist_sites > value:
            best, value = action, after.points + after.tourist_sites
    return best


_PLAYED: dict[tuple[int, int, int], tuple[Board, list[State]]] = {}


def _play(edition: Edition, seed: int, players: int = 1) -> list[State]:
    """The seeded game to its end by :func:`greedy_move`: the state after each action (played once
    per map, seed and table: the rulebook asks for it several times; the map is kept with it, so
    its id stays its own)."""
    key = (id(edition.board), seed, players)
    if key not in _PLAYED:
        state = new_game(edition, players, seed)
        states = [state]
        while not state.is_terminal():
            dealt = state.dealt_outcome()
            state = state.apply(dealt if dealt is not None else greedy_move(state))
            states.append(state)
        _PLAYED[key] = (edition.board, states)
    return _PLAYED[key][1]


def _name(board: Board, station: str) -> str:
    return board.by_id[station].name or board.coordinate(station)


def round_example(edition: Edition, seed: int = ROUND_SEED, rnd: int = 0) -> RoundExample:
    """Round ``rnd`` (0-based) of the seeded solo game on the held map, as the engine played it."""
    ed = held_map(edition)
    board, book = ed.board, ed.book
    states = _play(ed, seed)
    order = states[0].deal.flips[rnd]
    turn_list, _ = turns_so_far(book, order)
    flipped = order[:order.index(turn_list[-1].card) + 1]
    flips: list[Flip] = []
    number = 0
    for position, ident in enumerate(flipped, start=1):
        card = book.card(ident)
        words = f"{FACE_NAMES.get(card.face, card.face.capitalize())} ({card.deck.capitalize()})"
        if card.switch:
            flips.append(Flip(ident, card.face, card.deck, words, None,
                              position > book.rules.switch_ignored_turns, False))
        else:
            number += 1
            flips.append(Flip(ident, card.face, card.deck, words, number, False, ident == turn_list[-1].card))
    # the player's actions this round, in order: one per turn (with the state each was taken in)
    round_start = _round_start(states, rnd)
    taken = [(states[k], a) for k, (who, a) in enumerate(states[-1].log) if k >= round_start and who == 0]
    taken = taken[:len(turn_list)]
    actions = [a for _, a in taken]
    choices = tuple(sum(1 for x in before.legal_actions() if x[0] == "draw") for before, a in taken if a == PASS)
    moves, passes = [], []
    line = states[-1].sheets[0].lines[rnd]
    drawn = 0  # sections of the line drawn so far (the line's sections are in the order drawn)
    for t, action in enumerate(actions, start=1):
        if action == PASS:
            passes.append(t)
            continue
        _, u, v = action[:3]
        degree = sum(u in board.ends[i] for i in line.sections[:drawn])
        moves.append(Move(t, board.coordinate(u), _name(board, u), board.coordinate(v), _name(board, v),
                          branch=degree > 1))
        drawn += 1
    score = line_score(board, book, line.stations, line.sections)
    districts = [board.by_id[s].district for s in line.stations]
    biggest = max(sorted(set(districts)), key=districts.count)
    return RoundExample(
        seed, ed.sheet.name, line.pencil, board.coordinate(line.stations[0]), _name(board, line.stations[0]),
        tuple(flips), tuple(moves), tuple(passes), choices, line.stations, line.sections, score.districts, score.biggest,
        biggest, score.thames, score.thames * book.rules.thames_points, score.points, score.tourist_sites,
        tuple(_name(board, s) for s in line.stations if board.by_id[s].tourist))


def _round_start(states: list[State], rnd: int) -> int:
    """The index in the final log of the round's first flip."""
    return next(k for k, (_, action) in enumerate(states[-1].log)
                if action[0] == "flip" and states[k].round == rnd and not states[k].flipped)


def game_example(edition: Edition, seed: int = ROUND_SEED) -> GameExample:
    """The seeded solo game of :func:`round_example` to its end, as the score card adds it up."""
    ed = held_map(edition)
    states = _play(ed, seed)
    end = states[-1]
    fs = end.final(0)
    bands = ed.book.scores.solo_bands
    band = 1 + sum(fs.total >= b for b in bands)
    return GameExample(seed, end.deal.pencils[0], fs.lines, fs.tourist_marks, fs.tourist, fs.interchanges,
                       fs.interchange_points, fs.total, band)


def setup_example(edition: Edition, seed: int = SETUP_SEED, players: int = SETUP_PLAYERS) -> SetupExample:
    """A seeded table of ``players``: the pencils each player holds each round, the spare pencils
    (held by nobody in round 1), the Shared Objectives and Pencil Powers the seed draws."""
    state = new_game(edition, players, seed, objectives=True, powers=True)
    pencils = state.deal.pencils
    first = {p[0] for p in pencils}
    return SetupExample(seed, players, pencils, tuple(p for p in edition.rules.pencils if p not in first),
                        tuple(o.id for o in drawn_objectives(edition, seed)), deal_powers(edition.book, seed))
