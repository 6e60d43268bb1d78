"""``--bots best`` in every game (after OpenSpiel's API test: one test over every registered
game): it names the game's strongest bot by the ladder, the table in docs/play.md says the same
bot, it plays legal moves, ``play`` and ``simulate`` say on stderr which bot it picked, and a
game without bots refuses it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tubedeck.errors import UsageError
from tubedeck.game import BEST, edition
from tubedeck.games import GAMES, registry
from tubedeck.solver.simulation import chosen_bots, parse_bots

from conftest import run_cli as run

PLAY_DOC = Path(__file__).resolve().parents[2] / "docs" / "play.md"
PLAYED = [g for g in GAMES if registry()[g].roster]


def ladder_table() -> dict[str, str]:
    """docs/play.md's table of what ``best`` plays: game id -> bot spec."""
    body = PLAY_DOC.read_text(encoding="utf-8").split("### `--bots best`", 1)[1].split("\n#", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| (\w+) \| `([^`]+)` \|", body, re.M)}


def test_every_played_game_names_its_best_bot_and_the_docs_say_the_same():
    assert len(PLAYED) == 5
    table = ladder_table()
    assert set(table) == set(PLAYED)
    for g in PLAYED:
        game = registry()[g]
        assert game.best == table[g], g
        assert game.bot_name(BEST) == game.best
        assert game.bot_aliases[BEST] == game.best


@pytest.mark.parametrize("game_id", PLAYED)
def test_best_is_a_bot_of_the_game_that_moves(game_id):
    game = registry()[game_id]
    assert game.best is not None and game.best.partition(":")[0] in game.bots
    state = game.new_game(edition(game), game.players[0], 3)
    while state.current_player() < 0:  # past opening chance
        state = state.apply(state.dealt_outcome() or state.chance_outcomes()[0][0])
    assert game.bot(BEST)(state, random.Random(0)) in state.legal_actions()
    players = game.players[0]
    names = BEST if players == 1 else f"{BEST},random"
    assert parse_bots(names, players, game.bots, game.bot_aliases)[0] == game.best
    with pytest.raises(UsageError, match="unknown bot 'best:5'"):
        game.bot("best:5")


@pytest.mark.parametrize("game_id", PLAYED)
def test_choosing_best_says_which_bot_on_stderr(game_id, capsys):
    game = registry()[game_id]
    chosen = chosen_bots(game, BEST, game.players[0])
    assert chosen == (game.best,) * game.players[0]
    err = capsys.readouterr().err
    assert err.strip() == f"best: {game.best} ({game.title}'s strongest bot by the ladder, docs/play.md)"
    chosen_bots(game, "random", game.players[0])
    assert capsys.readouterr().err == ""


def test_a_game_without_bots_has_no_best():
    for game in registry().values():
        if not game.roster:
            assert game.best is None and BEST not in game.bot_aliases


def test_an_unknown_bot_message_offers_best(capsys):
    code, _, err = run(capsys, "play", "klm", "--bots", "nobody", "--players", "2")
    assert code == 2 and "best" in err and "Traceback" not in err


def test_play_with_best_names_the_bot_in_the_header_and_on_stderr(capsys):
    game = registry()["klm"]
    code, out, err = run(capsys, "play", "klm", "--bots", "best,random", "--players", "2", "--seed", "1",
                         "--scope", "core")
    assert code == 0, err
    assert f"best: {game.best} " in err
    assert out.splitlines()[0].endswith(f"2 players ({game.best}, random)")
