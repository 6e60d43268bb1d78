"""One contract, every registered game (after OpenSpiel's API test): the declaration is whole,
an edition loads from the bundled data once per process, the faces print exactly the declared
documents (real PDFs), the setup is seeded, and every check and solve runs its example."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pymupdf
import pytest

from tubedeck.content import data_root
from tubedeck.errors import UsageError
from tubedeck.game import edition, resolve
from tubedeck.games import GAMES, registry

from conftest import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
GAME_IDS = list(GAMES)


@pytest.fixture(params=GAME_IDS)
def game(request):
    return registry()[request.param]


def test_the_registry_lists_every_game_folder_once():
    folders = sorted(p.name for p in (ROOT / "tubedeck" / "games").iterdir() if (p / "__init__.py").is_file())
    assert sorted(GAMES) == folders and len(set(GAMES)) == len(GAMES)


def test_declaration_is_whole(game):
    assert game.id in GAMES and game.title and game.rules and game.summary
    commands = game.checks + game.solves + game.plays + game.simulations
    for target in [game.edition, game.faces, game.engine] + [c.target for c in commands]:
        if target:
            assert callable(resolve(target)), target
    if game.engine:  # a played game starts from its own engine and lists its bots beside its models
        assert game.engine.startswith(f"tubedeck.games.{game.id}.play:") and game.roster
        assert game.roster.startswith(f"tubedeck.solver.{game.id}.")
    # one place per concern, named after the game
    if game.faces:
        assert game.faces.startswith(f"tubedeck.generator.{game.id}.")
    for c in commands:
        assert c.target.startswith(f"tubedeck.solver.{game.id}."), c.target
        assert c.kind in ("deals", "report") and c.example, c.name
    if game.players:
        assert (data_root() / game.id).is_dir()  # its content lives in data/<id>/


def test_edition_is_built_once_per_process(game):
    a, b = edition(game), edition(game)
    assert a is b
    if game.players:  # the declared range is the rules value the game reads
        assert (a.rules.players_min, a.rules.players_max) == game.players


def test_faces_print_exactly_the_declared_documents(game, tmp_path):
    from tubedeck.generator import PrintOptions, render

    docs = resolve(game.faces)(edition(game), PrintOptions.parse(export="pdf"))
    assert tuple(d.name for d in docs) == game.documents
    manifest = render(docs, PrintOptions.parse(export="pdf"), tmp_path / game.id)
    # a deck printed on shared sheets is listed by the shared file's ``decks``
    printed = {d for f in manifest.files for d in ([Path(k).name for k in f.decks] or [Path(f.path).stem])
               if f.kind != "contact"}
    assert printed == set(game.documents)
    for f in manifest.files:
        with pymupdf.open(tmp_path / f.path) as pdf:
            assert pdf.page_count >= 1 and pdf[0].get_text().strip(), f.path


def test_a_game_starts_its_own_seeded_play(game):
    """``game.new_game(edition, players, seed)``: the same seed the same first state, other seeds
    other deals; the seat count and the options it takes are checked."""
    if game.engine is None:
        assert not game.bots and not game.plays
        with pytest.raises(UsageError, match="not played"):
            game.new_game(edition(game), 1, 0)
        return
    ed, players = edition(game), game.players[0]
    assert repr(game.new_game(ed, players, 11)) == repr(game.new_game(ed, players, 11))
    assert len({repr(game.new_game(ed, players, s)) for s in range(5)}) > 1
    assert game.new_game(ed, players, 3).players == players
    with pytest.raises(UsageError, match="--players"):
        game.new_game(ed, game.players[1] + 1, 0)
    with pytest.raises(UsageError, match="no option 'nonsense'"):
        game.new_game(ed, players, 0, nonsense=True)


def test_a_game_makes_every_bot_it_lists(game):
    """``game.bots``: name -> factory, the search bot included; each makes a bot that moves; an
    old name is an alias; an unknown name is refused with the known ones."""
    if game.engine is None:
        return
    state = game.new_game(edition(game), game.players[0], 2)
    while state.current_player() < 0:  # past opening chance (a first flip or roll)
        state = state.apply(state.dealt_outcome() or state.chance_outcomes()[0][0])
    assert "mcts" in game.bots and list(game.bots)[-1] == "mcts"
    for name in list(game.bots) + ["mcts:3"] + [old for old, _ in game.aliases]:
        assert game.bot(name)(state, random.Random(0)) in state.legal_actions(), name
    for old, new in game.aliases:
        assert game.bot_name(old) == new and new in game.bots
    with pytest.raises(UsageError, match="unknown bot 'nobody'"):
        game.bot("nobody")
    with pytest.raises(UsageError, match="search budget"):
        game.bot("mcts:x")


def test_checks_and_solves_run_their_examples(game, tmp_path, capsys):
    for verb, commands in (("check", game.checks), ("solve", game.solves), ("play", game.plays),
                           ("simulate", game.simulations)):
        for c in commands:
            results = tmp_path / f"{verb}-{c.name}.jsonl"
            extra = ["--results", str(results), "--no-progress"] if c.kind == "deals" else []
            code, out, err = run(capsys, verb, c.name, *c.example, *extra, "--json")
            assert code == 0, (verb, c.name, err)
            payload = json.loads(out)
            assert isinstance(payload, dict) and payload
            if c.kind == "deals":
                lines = results.read_text().splitlines()
                deals = int(c.example[c.example.index(c.count_flag) + 1])
                assert json.loads(lines[0])["kind"] == "header" and len(lines) == 1 + deals
                # the summary (resumed from the same file) fits an 80-column terminal
                code, out, err = run(capsys, verb, c.name, *c.example, *extra)
                assert code == 0, err
                wide = [l for l in out.splitlines() if len(l) > 80 and not l.startswith("results: ")]
                assert not wide, (verb, c.name, wide)


def test_games_json_lists_every_game_with_documents_and_checks(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    listed = {g["id"]: g for g in json.loads(out)["games"]}
    assert list(listed) == GAME_IDS
    for ident, g in listed.items():
        declared = registry()[ident]
        assert g["documents"] == list(declared.documents)
        assert [c["command"] for c in g["checks"]] == [c.name for c in declared.checks]
        assert [c["command"] for c in g["solves"]] == [c.name for c in declared.solves]
