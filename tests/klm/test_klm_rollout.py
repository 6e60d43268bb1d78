"""Keep London Moving's ``rollout`` bot (solver/klm/rollout_bot.py) and the clairvoyant ceiling:
legal moves, seeded, blind to what its seat cannot see, greedy's choice kept on a tie, actions
naming hidden cards judged by what the seat chooses, and the clairvoyant never losing a game
greedy would have won in its seat."""

from __future__ import annotations

import random

import pytest

from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.klm.play import new_game
from tubedeck.play import play_game
from tubedeck.solver.klm import rollout_bot
from tubedeck.solver.klm.players import greedy_player
from tubedeck.solver.klm.rollout_bot import choose, clairvoyant, key, rollout_player

WORLDS = 3  # a few worlds keep the tests quick; the bot's own budget is rollout_bot.WORLDS


@pytest.fixture(scope="module")
def core():
    return edition(get("klm"), scope="core")


def positions(ed, count: int, seed: int = 0, players: int = 2):
    """Decisions with a choice, part way into games greedy and random play."""
    rng, out = random.Random(seed), []
    for g in range(count):
        state = new_game(ed, players, seed * 100 + g)
        stop, moves = rng.randrange(4, 50), 0
        while not state.is_terminal():
            if moves >= stop and len(state.legal_actions()) > 1:
                out.append(state)
                break
            bot = greedy_player if rng.random() < 0.7 else (lambda s, r: r.choice(s.legal_actions()))
            state = state.apply(bot(state, rng))
            moves += 1
    return out


def test_the_roster_and_best_name_it(core):
    game = get("klm")
    assert "rollout" in game.bots and list(game.bots)[-1] == "mcts"
    state = positions(core, 1, seed=4)[0]
    assert game.bot("rollout")(state, random.Random(0)) in state.legal_actions()


def test_legal_moves(core):
    found = positions(core, 6)
    assert len(found) >= 5
    for state in found:
        assert choose(state, random.Random(1), WORLDS) in state.legal_actions()


def test_same_seed_same_move(core):
    for state in positions(core, 4, seed=1):
        assert choose(state, random.Random(7), WORLDS) == choose(state, random.Random(7), WORLDS)


def test_one_legal_action_draws_nothing(core):
    state = new_game(core, 2, 5)
    while len(state.legal_actions()) > 1:
        state = state.apply(greedy_player(state, random.Random(0)))
    rng = random.Random(3)
    before = rng.getstate()
    assert choose(state, rng, WORLDS) == state.legal_actions()[0] and rng.getstate() == before


def test_blind_to_what_the_seat_cannot_see(core):
    """Two states the seat cannot tell apart (the other hands, the stocks and the rolls to come
    dealt again from the unseen cards) give the same move for the same seed."""
    differed = 0
    for state in positions(core, 8, seed=2):
        seat = state.current_player()
        other = state.determinize(seat, random.Random(99))
        assert other.observation(seat) == state.observation(seat)
        if other.legal_actions() != state.legal_actions():  # an action naming a hidden card
            continue
        differed += (other.stock, other.hands, other.seed) != (state.stock, state.hands, state.seed)
        assert choose(other, random.Random(3), WORLDS) == choose(state, random.Random(3), WORLDS)
    assert differed >= 4


def test_the_search_reads_only_the_worlds(core, monkeypatch):
    """The playouts never start from the state given: only from its determinizations."""
    state = positions(core, 1, seed=3)[0]
    started = []
    real = rollout_bot.playout

    def spy(s):
        started.append((s.seed, s.stock))
        return real(s)

    monkeypatch.setattr(rollout_bot, "playout", spy)
    choose(state, random.Random(0), WORLDS)
    assert started and all(seed != state.seed for seed, _ in started)


def test_greedys_choice_is_kept_on_a_tie(core, monkeypatch):
    monkeypatch.setattr(rollout_bot, "score", lambda end, seat: 0.5)
    for state in positions(core, 6, seed=5):
        if state.phase == "take":
            continue
        assert choose(state, random.Random(0), WORLDS) == greedy_player(state, random.Random(0))


def test_a_clearly_better_move_is_taken(core, monkeypatch):
    """Where one move's playouts win and the others' lose, that move is chosen, greedy's or not."""
    for state in positions(core, 6, seed=6):
        legal = [a for a in state.legal_actions() if a != greedy_player(state, random.Random(0))]
        if state.phase != "play" or not legal:
            continue
        target = legal[-1]
        marked = state.apply(target)
        monkeypatch.setattr(rollout_bot, "playout", lambda s, t=marked: s)
        monkeypatch.setattr(rollout_bot, "score",
                            lambda end, seat, t=marked: 1.0 if _same_move(end, t) else 0.0)
        assert choose(state, random.Random(0), WORLDS) == target
        return
    pytest.fail("no position with a choice")


def test_a_move_better_only_by_luck_stays_greedys(core, monkeypatch):
    """A move whose playouts beat greedy's in some worlds and lose in others, a little better on
    the whole but well inside the noise, does not replace greedy's (``Z`` standard errors); with
    no margin it would."""
    for state in positions(core, 6, seed=6):
        own = greedy_player(state, random.Random(0))
        legal = [a for a in state.legal_actions() if a != own]
        if state.phase != "play" or not legal:
            continue
        target = legal[-1]
        luck = Luck(state.apply(target))
        monkeypatch.setattr(rollout_bot, "playout", lambda s: s)
        monkeypatch.setattr(rollout_bot, "score", luck)
        assert choose(state, random.Random(0), WORLDS, 24) == own
        luck.turn = 0
        assert choose(state, random.Random(0), WORLDS, 24, z=0.0) == target
        return
    pytest.fail("no position with a choice")


class Luck:
    """A score: the marked move's playouts win and nearly lose by turns, greedy's draw."""

    def __init__(self, marked) -> None:
        self.marked, self.turn = marked, 0

    def __call__(self, end, seat) -> float:
        if not _same_move(end, self.marked):
            return 0.5
        self.turn += 1
        return 1.0 if self.turn % 2 else 0.05


def _same_move(end, marked) -> bool:
    """Whether ``end`` (a world after a move) came from the marked move: the same fields, hands of
    the seat to move, effects and Fortune Cards played."""
    me = marked.to_move
    return (end.fields == marked.fields and end.hands[me] == marked.hands[me] and end.effects == marked.effects
            and end.fortune_plays == marked.fortune_plays and end.phase == marked.phase
            and end.connections == marked.connections and end.fortunes == marked.fortunes
            and end.to_move == marked.to_move and end.turn == marked.turn)


def test_an_action_naming_a_hidden_card_is_known_by_its_choice(core):
    state = new_game(core, 2, 1)
    ticket = next(c for c, f in state.table.fortune.items() if f.action == "discard_fortune")
    hidden = next(c for c in state.table.fortune if c != ticket)
    assert key(state, ("fortune", ticket, 1, hidden)) == ("fortune", ticket, 1)
    assert key(state, ("connect", "a", "b")) == ("connect", "a", "b")
    card = state.hands[1][0]
    assert key(state, ("take", 1, card)) == ("take", 1, "hand")


def test_the_clairvoyant_wins_every_game_greedy_wins_in_its_seat(core):
    """The ceiling's bot plays greedy's move unless a playout of the real game says another does
    better, so where greedy's whole game wins, so does its."""
    greedy_won = beat = 0
    for seed in range(6):
        for seat in (0, 1):
            bots = [greedy_player, greedy_player]
            plain = play_game(new_game(core, 2, seed), bots, seed).state
            bots[seat] = clairvoyant
            seen = play_game(new_game(core, 2, seed), bots, seed).state
            if plain.winner == seat:
                greedy_won += 1
                assert seen.winner == seat and seen.turn <= plain.turn, (seed, seat)
            beat += seen.winner == seat and plain.winner != seat
    assert greedy_won >= 4 and beat >= 1


def test_the_registered_bot_uses_its_budget(core, monkeypatch):
    calls = []
    monkeypatch.setattr(rollout_bot, "choose", lambda s, r, worlds=rollout_bot.WORLDS: calls.append(worlds) or 0)
    rollout_player(new_game(core, 2, 1), random.Random(0))
    assert calls == [rollout_bot.WORLDS]
