"""The search bot (solver/mcts.py): legal, seeded, blind to what its seat cannot see, better than
random, and a bad bot spec is a usage error (exit 2)."""

from __future__ import annotations

import random

import pytest

from tubedeck.errors import UsageError
from tubedeck.game import resolve
from tubedeck.games import get
from tubedeck.play import CHANCE, chance_outcome, determinize, play_game
from tubedeck.solver.mcts import DEFAULT_ITERATIONS, Node, parse_spec, search, utilities
from tubedeck.solver.simulation import bot_for, parse_bots
from tubedeck.stats import wilson

from conftest import run_cli as run

GAMES = [("klm", 2), ("klm", 3), ("oneday", 2), ("nextstation", 1), ("nextstation", 2), ("dice", 2),
         ("keepmoving", 2)]


def rules_of(game: str):
    rules = get(game).playing()
    return rules, rules.edition(None, {})


def positions(game: str, players: int, count: int, seed: int = 0):
    """Decision points of random games: (state, seat), a few per game, at random depths."""
    rules, ed = rules_of(game)
    rng = random.Random(seed)
    out = []
    for g in range(count):
        state = rules.start(ed, players, seed * 100 + g)
        stop = rng.randrange(0, 60)
        moves = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state = state.apply(chance_outcome(state, rng))
                continue
            if moves >= stop and len(state.legal_actions()) > 1:
                break
            state = state.apply(rng.choice(list(state.legal_actions())))
            moves += 1
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("game,players", GAMES)
def test_legal_moves_on_random_positions(game, players):
    rules, _ = rules_of(game)
    bot = bot_for(rules, "mcts:12")
    found = positions(game, players, 4)
    assert found
    for state in found:
        assert bot(state, random.Random(1)) in state.legal_actions()


@pytest.mark.parametrize("game,players", GAMES)
def test_same_seed_same_move(game, players):
    rules, _ = rules_of(game)
    bot = bot_for(rules, "mcts:16")
    for state in positions(game, players, 3, seed=1):
        assert bot(state, random.Random(7)) == bot(state, random.Random(7))


HIDDEN = {  # what each game hides, read from the state: it must differ for the test to mean anything
    "klm": lambda s: (s.stock, s.hands, s.fortune_stock, s.seed),
    "oneday": lambda s: (s.stock, s.racks, s.seed),
    "nextstation": lambda s: s.deal.flips,
    "dice": lambda s: s.rolls,
    "keepmoving": lambda s: (s.pile, s.hand, s.fpile, s.gpile),
}


@pytest.mark.parametrize("game,players", GAMES)
def test_blind_to_what_the_seat_cannot_see(game, players):
    """Two states the seat cannot tell apart (the same observation, other hidden parts) give the
    same move for the same seed: the search reads only the seat's determinizations."""
    rules, _ = rules_of(game)
    bot = bot_for(rules, "mcts:16")
    differed = 0
    for state in positions(game, players, 4, seed=2):
        seat = state.current_player()
        other = determinize(state, seat, random.Random(99))
        assert other.observation(seat) == state.observation(seat)
        assert other.legal_actions() == state.legal_actions()
        differed += HIDDEN[game](other) != HIDDEN[game](state)
        assert bot(other, random.Random(3)) == bot(state, random.Random(3))
        for q in range(state.players):  # a seat not to move sees the same too
            assert determinize(state, q, random.Random(q)).observation(q) == state.observation(q)
    assert differed


def test_a_whole_game_is_its_seed():
    rules, ed = rules_of("keepmoving")
    bots = [bot_for(rules, "mcts:8"), rules.game.bot("greedy")]
    a = play_game(rules.start(ed, 2, 5), bots, 5)
    b = play_game(rules.start(ed, 2, 5), bots, 5)
    assert [m.action for m in a.moves] == [m.action for m in b.moves]


def test_beats_random():
    """Keep Moving, mcts:16 against random, seats swapped: the 95% interval is above 1/2 (greedy
    beats random 96 times in 100)."""
    rules, ed = rules_of("keepmoving")
    search_bot, rand = bot_for(rules, "mcts:16"), rules.game.bot("random")
    wins = games = 0
    for seed in range(6):
        for seat in (0, 1):
            bots = [rand, rand]
            bots[seat] = search_bot
            played = play_game(rules.start(ed, 2, seed), bots, seed)
            games += 1
            wins += played.state.winner == seat
    assert wilson(wins, games)[0] > 0.5, (wins, games)


def test_memory_is_bounded_by_the_budget(monkeypatch):
    made = []
    real = Node.__init__

    def counting(self, players):
        made.append(1)
        real(self, players)

    monkeypatch.setattr(Node, "__init__", counting)
    rules, _ = rules_of("dice")
    state = positions("dice", 2, 1)[0]
    search(state, random.Random(0), 30, rules.game.bot("greedy"), 6)
    assert len(made) <= 31


def test_utilities():
    assert utilities([1.0, -1.0]) == [1.0, 0.0]
    assert utilities([0.0, 0.0, 0.0]) == [0.5, 0.5, 0.5]
    assert utilities([3.0, 1.0, 1.0]) == [1.0, 0.25, 0.25]
    soft = utilities([2.0, 0.0], 1.0)
    assert soft[0] > 0.8 and abs(sum(soft) - 1.0) < 1e-9


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:-1", "mcts:0", "mcts:", "mcts:1.5", "mcts:99999999"])
def test_bad_budgets_are_usage_errors(spec):
    with pytest.raises(UsageError, match="search budget"):
        parse_spec(spec)
    with pytest.raises(UsageError, match="search budget"):
        parse_bots(f"{spec},greedy", 2, {"greedy": None})


def test_specs():
    assert parse_spec("mcts:2000") == 2000
    assert parse_spec("mcts") == DEFAULT_ITERATIONS and parse_spec("mcts", 400) == 400
    assert parse_spec("mcts:7", 400) == 7  # a budget typed wins over the game's


@pytest.mark.parametrize("game", sorted({g for g, _ in GAMES}))
def test_a_bare_mcts_takes_the_games_own_budget(game):
    budget = resolve(f"{get(game).roster.rpartition(':')[0]}:SEARCH").budget  # the roster's module
    assert 1 <= budget <= 5_000  # docs/play.md: each game's budget, chosen by the ladder
    assert get(game).bot("mcts").__name__ == f"mcts_{budget}"
    assert get(game).bot("mcts:3").__name__ == "mcts_3"
    assert parse_bots("mcts:50,greedy", 2, {"greedy": None}) == ("mcts:50", "greedy")


@pytest.mark.parametrize("bots,words", [("mcts:abc,greedy", "search budget"), ("mcts:-1,greedy", "search budget"),
                                        ("mctz,greedy", "unknown bot")])
def test_bad_specs_exit_2(capsys, tmp_path, bots, words):
    code, out, err = run(capsys, "simulate", "klm", "--games", "1", "--players", "2", "--bots", bots,
                         "--results", str(tmp_path / "r.jsonl"), "--no-progress")
    assert code == 2 and words in err
    code, out, err = run(capsys, "play", "dice", "--players", "2", "--bots", bots)
    assert code == 2 and words in err


def test_play_command_with_the_search_bot(capsys):
    code, out, err = run(capsys, "play", "keepmoving", "--seed", "2", "--bots", "mcts:8,greedy")
    assert code == 0, err
    assert "player 1" in out
