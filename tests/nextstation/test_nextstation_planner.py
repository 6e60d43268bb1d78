"""The ``planner`` bot (perfect-information Monte Carlo over the exact round search): legal,
deterministic for its stream, blind to the order of the cards still face down, its completions
exact against a brute force through the rules engine, and its budget spelled as the search bot's."""

from __future__ import annotations

import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.games.nextstation.edition import Deal, load
from tubedeck.games.nextstation.flips import turns, turns_so_far
from tubedeck.games.nextstation.play import CHANCE, Line, State, legal_sections, new_game
from tubedeck.games.nextstation.scoring import line_score
from tubedeck.play import play_game
from tubedeck.solver.nextstation import planner
from tubedeck.solver.nextstation.players import greedy_player
from tubedeck.solver.nextstation.simulate import PLAYING
from tubedeck.solver.simulation import parse_bots


@pytest.fixture(scope="module")
def ed():
    return load(None)


def _decision(ed, seed: int, round_: int, turn: int, players: int = 1) -> State:
    """The state of a seeded game played by greedy up to the ``turn``-th decision of ``round_``."""
    s = new_game(ed, players, seed)
    seen = 0
    while True:
        if s.current_player() == CHANCE:
            s = s.apply(s.dealt_outcome())
            continue
        if s.round == round_:
            if seen >= turn and len(s.legal_actions()) > 2:
                return s
            seen += 1
        s = s.apply(greedy_player(s))


def _next_card(s: State) -> str:
    return next(c for c in s.deal.flips[s.round] if c not in s.flipped)


def _hidden_shuffled(s: State, rng: random.Random) -> State:
    """The same table with every card still face down in another order (this round's and later)."""
    flips = list(s.deal.flips[:s.round])
    for r in range(s.round, len(s.deal.flips)):
        up = s.flipped if r == s.round else ()
        down = [c for c in s.deal.flips[r] if c not in up]
        rng.shuffle(down)
        flips.append(tuple(up) + tuple(down))
    d = s.deal
    return s._evolve(deal=Deal(d.seed, d.players, d.pencils, tuple(flips)))


def test_planner_is_legal_and_deterministic_for_its_stream(ed):
    for seed, round_, turn in ((3, 0, 1), (5, 1, 2), (8, 3, 0)):
        s = _decision(ed, seed, round_, turn)
        action, means = planner.plan(s, random.Random(11), 3)
        assert action in s.legal_actions()
        assert (action, means) == planner.plan(s, random.Random(11), 3)
        assert len(means) == len(planner._candidates(s))
        # the floors only skip what cannot win: the choice of searching every candidate in full
        full_action, full = planner.plan(s, random.Random(11), 3, every=True)
        assert full_action == action and None not in full
        chosen = [c[0] for c in planner._candidates(s)].index(action)
        assert means[chosen] == full[chosen] == max(full)
        assert all(m is None or m == f for m, f in zip(means, full))
        assert means.count(None) > 0  # some candidate was cut short


def test_planner_is_blind_to_the_order_of_the_cards_face_down(ed):
    differs = 0
    for seed, round_, turn in ((2, 0, 2), (6, 1, 1), (9, 2, 3)):
        s = _decision(ed, seed, round_, turn)
        other = _hidden_shuffled(s, random.Random(seed))
        assert other.deal.flips != s.deal.flips  # the hidden order really changed
        differs += _next_card(other) != _next_card(s)
        assert planner.plan(s, random.Random(4), 3) == planner.plan(other, random.Random(4), 3)
    assert differs  # some next card differs: a bot reading the deal would see it


def _brute(ed, line: Line, drawn: frozenset[int], rest, bonus: dict[str, float], gain: list[float]) -> float:
    """The most the line can be worth at the round's end, every draw and pass through the rules
    engine's own legal_sections, each (turn, sections) position once."""
    board, book = ed.board, ed.book
    memo: dict = {}

    def worth(line: Line) -> float:
        sc = line_score(board, book, line.stations, line.sections)
        return sc.points + sum(bonus.get(v, 0) for v in line.stations[1:]) + gain[min(sc.tourist_sites, len(gain) - 1)]

    def go(t: int, line: Line, drawn: frozenset[int]) -> float:
        key = (t, frozenset(line.sections))
        if key not in memo:
            best = worth(line) if t == len(rest) else go(t + 1, line, drawn)
            if t < len(rest):
                for _, v, i in legal_sections(board, line, drawn, rest[t]):
                    best = max(best, go(t + 1, Line(line.pencil, line.stations + (v,), line.sections + (i,)),
                                        drawn | {i}))
            memo[key] = best
        return memo[key]

    return go(0, line, drawn)


def test_the_completion_is_exact_against_a_brute_force(ed):
    rng = random.Random(1)
    checked = 0
    for seed in range(6):
        s = _decision(ed, seed, seed % 3, 2)
        board = ed.board
        sheet = s.sheets[0]
        rest = turns(ed.book, s.deal.flips[s.round])[len(turns_so_far(ed.book, s.flipped)[0]):][:5]
        bonus = {st.id: rng.choice((0, 0, 2, 3)) for st in board.stations}
        gain = [0.0, 1, 2, 4, 6, 8]
        base = planner._base(board, ed.book)
        for _, line, drawn in planner._candidates(s)[:4]:
            search = planner._Search.over(base, rest)
            search.dep = base.ids.index(line.stations[0])
            prices = [float(bonus[v]) for v in base.ids]
            search.value_for_game(dict(zip(base.ids, prices)), gain, {})
            got = search.complete(None, *planner._position(base, board, line, drawn, prices).args())
            assert got == _brute(ed, line, drawn, rest, bonus, gain), (seed, line)
            checked += 1
        assert sheet.lines[-1].sections  # mid-line: the search starts from a line already drawn
    assert checked >= 12


def test_on_the_last_turn_it_takes_the_line_worth_most_now(ed):
    s = _decision(ed, 4, 1, 0)
    while not s.drawing.last:  # to the round's last turn, greedy drawing
        s = s.apply(greedy_player(s))
        while s.current_player() == CHANCE:
            s = s.apply(s.dealt_outcome())
    action, means = planner.plan(s, random.Random(0), 8, every=True)
    bonus, gain = planner._values(s)
    ids = [st.id for st in ed.board.stations]
    worth = []
    for _, line, _ in planner._candidates(s):
        sc = line_score(ed.board, ed.book, line.stations, line.sections)
        worth.append(sc.points + sum(bonus[ids.index(v)] for v in line.stations[1:]) + gain[min(sc.tourist_sites, 10)])
    assert means == pytest.approx(worth)
    assert action == planner._candidates(s)[worth.index(max(worth))][0]


def test_a_small_budget_game_completes_and_scores_as_the_engine_does(ed):
    bot = PLAYING.game.bot("planner:1")
    played = play_game(PLAYING.start(ed, 2, 7), [bot, bot], 7)
    assert played.state.is_terminal()
    assert all(a in s.legal_actions() for s, (seat, a) in zip(_states(ed, played), [(m.seat, m.action) for m in played.moves]) if seat >= 0)
    finals = [played.state.final(p).total for p in range(2)]
    greedy = play_game(PLAYING.start(ed, 2, 7), [greedy_player, greedy_player], 7).state.returns()
    assert finals == [int(x) for x in played.state.returns()] and sum(finals) > sum(greedy)


def _states(ed, played):
    s = PLAYING.start(ed, 2, 7)
    for m in played.moves:
        yield s
        s = s.apply(m.action)


def test_the_budget_is_spelled_as_the_search_bots(ed):
    assert planner.parse_spec("planner") == planner.DEFAULT_SAMPLES
    assert planner.parse_spec("planner:32") == 32
    for bad in ("planner:0", "planner:x", "planner:-1", "planner:", "planner:10001"):
        with pytest.raises(UsageError, match="whole number of samples"):
            PLAYING.game.bot(bad)
        with pytest.raises(UsageError, match="whole number of samples"):
            parse_bots(bad, 1, PLAYING.bots)
    assert parse_bots("planner:3,greedy", 2, PLAYING.bots) == ("planner:3", "greedy")
    with pytest.raises(UsageError, match="unknown bot 'greedy:3'"):
        parse_bots("greedy:3", 1, PLAYING.bots)
    with pytest.raises(UsageError, match="unknown bot 'greedy:3'"):
        PLAYING.game.bot("greedy:3")
    assert list(PLAYING.bots)[-2:] == ["planner", "mcts"]
