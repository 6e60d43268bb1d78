"""Keep London Moving on the play contract (:mod:`tubedeck.play`): the State's methods, every
action in a player's words, what a seat sees, replays through the one driver, and the declared
records (:mod:`tubedeck.games.klm.records`): what a run writes, the validator reads back."""

from __future__ import annotations

import copy
import json

import pytest

from tubedeck.game import edition
from tubedeck.games import get, record_schema
from tubedeck.games.klm.effects import Effect
from tubedeck.games.klm.field import PlayField
from tubedeck.games.klm.play import END, PASS, new_game
from tubedeck.games.klm.records import CHECK, MAX_TURNS, SIMULATE
from tubedeck.play import TERMINAL, Played, play_game, replay
from tubedeck.solver.klm.check import KlmCheck
from tubedeck.solver.klm.simulate import PLAYING, position
from tubedeck.solver.simulation import play


@pytest.fixture(scope="module")
def ed():
    return edition(get("klm"), scope="victoria")


@pytest.fixture(scope="module")
def core():
    return edition(get("klm"), scope="zone 1")


def field_of(*stations):
    f = PlayField()
    for a, b in zip(stations, stations[1:], strict=False):
        f = f.connect(a, b)
    return f


def test_the_state_keeps_the_contract(ed):
    s = new_game(ed, 3, 5)
    assert s.players == 3 and s.current_player() == 0 and s.clock() == "before the first turn"
    assert s.chance_outcomes() == () and s.dealt_outcome() is None
    s = new_game(ed, 3, 5, unlucky=False)
    assert s.current_player() == s.starter and s.clock() == "turn 1"
    done = play_game(s, [PLAYING.game.bot("greedy")] * 3, 5).state
    assert done.is_terminal() and done.current_player() == TERMINAL and done.legal_actions() == ()
    assert sorted(done.returns()) == [-1.0, -1.0, 1.0]
    assert "table" not in repr(s)  # the edition is bound, not shown or compared


def test_every_action_is_said_in_names(ed):
    two = (field_of("pimlico", "victoria", "green-park"), field_of("euston", "warren-street", "oxford-circus"))
    s = new_game(ed, 2, 0, unlucky=False).evolve(to_move=0, fields=two, hands=(("brixton",), ("seven-sisters",)),
                                                 fortune_hands=(("rush-hour-1",), ("good-service-1",)))
    said = {
        ("connect", "pimlico", "victoria"): "connects Pimlico - Victoria",
        ("fortune", "signal-failure-1", 1, "euston"): "plays Signal Failure on player 2's Euston",
        ("fortune", "engineering-works-1", 1, "oxford-circus", "warren-street"):
            "plays Planned Engineering Works on player 2's Oxford Circus - Warren Street",
        ("fortune", "line-closure-1", "victoria"): "plays Line Closure on the Victoria line",
        ("fortune", "good-service-2", "pimlico"): "plays Good Service on Pimlico",
        ("fortune", "ticket-inspection-1", 1, "good-service-1"):
            "plays Ticket Inspection: player 2 discards Good Service",
        ("fortune", "doors-closing-1", 1): "plays Doors Closing on player 2",
        ("fortune", "rush-hour-1"): "plays Rush Hour",
        ("fortune", "step-free-upgrade-1"): "plays Station Upgrade",
        ("discard", "brixton"): "discards Brixton",
        ("discard", "rush-hour-1"): "discards Rush Hour",
        ("take", 1, "seven-sisters"): "takes Seven Sisters from player 2's hand",
        ("take", 1, "euston"): "takes Euston from player 2's Play Field",
        ("unlucky", True): "uses Unlucky Hand",
        ("unlucky", False): "keeps the hand",
        PASS: "passes",
        END: "ends the turn",
    }
    for action, words in said.items():
        assert s.describe(action) == words, action


def test_logged_moves_name_no_ids(core):
    played = play(PLAYING, core, 4, 3, ("random", "greedy", "lookahead", "random"), words=True)
    t = played.state.table
    for m in played.moves:
        assert m.words and m.clock in ("before the first turn", *(f"turn {g}" for g in range(1, MAX_TURNS + 1)))
        for x in m.action[1:]:
            if isinstance(x, bool):
                continue
            if isinstance(x, int):
                assert f"player {x + 1}" in m.words, m
            elif x in t.names:
                assert t.names[x] in m.words and (x == t.names[x] or x not in m.words), m
            elif x in t.fortune:
                assert t.fortune[x].name in m.words and x not in m.words, m
            else:  # a line
                assert f"the {t.line_names[x]} line" in m.words, m


def test_a_seat_sees_its_own_hands_and_the_table_not_the_others_cards(core):
    s = new_game(core, 3, 2, unlucky=False)
    s = play_game(s, [PLAYING.game.bot("greedy")] * 3, 2).state  # a finished game: fields, effects, discards
    for seat in range(3):
        o = s.observation(seat)
        json.dumps(o)
        assert o["hand"] == list(s.hands[seat]) and o["fortune_hand"] == list(s.fortune_hands[seat])
        assert o["hand_sizes"] == [len(h) for h in s.hands] and o["stock"] == len(s.stock)
        assert [set(f["cards"]) for f in o["fields"]] == [f.cards for f in s.fields]
        text = json.dumps(o)
        for other in range(3):
            if other != seat:
                assert not any(f'"{c}"' in text for c in s.hands[other])
        assert not any(f'"{c}"' in text for c in s.stock)
        assert o["top_discard"] == (s.discards[-1] if s.discards else None)


def test_play_game_log_replays_to_an_equal_state(core):
    for players, seed in ((2, 1), (3, 4), (6, 7)):
        start = new_game(core, players, seed, max_turns=MAX_TURNS)
        bots = [PLAYING.game.bot(("random", "greedy", "lookahead")[p % 3]) for p in range(players)]
        played = play_game(start, bots, seed)
        assert replay(start, [m.action for m in played.moves]) == played.state


@pytest.mark.parametrize("players, bots", [(2, "random"), (6, "random"), (2, "greedy")])
def test_every_record_a_run_writes_passes_the_validator(core, players, bots):
    """The property: PLAYING.measure over many seeds gives records SIMULATE.validate accepts."""
    seeds = 200 if bots == "random" else 60
    no_winner = 0
    for seed in range(seeds):
        r = PLAYING.measure(play(PLAYING, core, players, seed, (bots,) * players), core)
        assert SIMULATE.validate(r, players) is None, (seed, r)
        assert json.loads(json.dumps(r)) == r
        no_winner += r["winner"] is None
    if players == 6:
        assert no_winner  # random bots at six sometimes reach the turn limit: that record validates too


def test_a_game_without_a_winner_counts_the_turns_it_played(ed):
    s = new_game(ed, 2, 1, max_turns=3, unlucky=False)
    while not s.is_terminal():
        s = s.apply(END if END in s.legal_actions() else s.legal_actions()[0])
    r = PLAYING.measure(Played(s, ()), ed)
    assert r["turns"] == 3 and r["rounds"] == 2 and r["winner"] is None and r["order"] is None
    assert SIMULATE.validate(r, 2) is None


@pytest.mark.parametrize("change, words", [
    (dict(rounds=99), "'rounds'"), (dict(order=None), "'order'"), (dict(order=3), "'order' must be"),
    (dict(turns=MAX_TURNS + 1), "'turns'"), (dict(winner=3), "'winner'"), (dict(starter=0), "'starter'"),
    (dict(fast="yes"), "'fast'"), (dict(unlucky=3), "'unlucky'"), (dict(fortunes=-1), "'fortunes'"),
])
def test_impossible_simulate_records_are_refused(core, change, words):
    r = PLAYING.measure(play(PLAYING, core, 2, 1, ("greedy", "greedy")), core)
    assert SIMULATE.validate(r, 2) is None
    why = SIMULATE.validate({**r, **change}, 2)
    assert why and words in why, why


def test_check_records_pass_and_edits_are_refused(tmp_path):
    job = KlmCheck(3, "zone 1", engine="auto")
    evaluate = job()
    records = [{**evaluate(seed), "seed": seed} for seed in range(6)]
    for r in records:
        assert CHECK.validate(json.loads(json.dumps(r)), 3) is None, r
    header = job.header()
    assert header["mode"] == "check" and record_schema(header) is CHECK
    won = next(r for r in records if r["first"])
    edits = [
        (lambda r: r["players"].pop(), "expected 3 players"),
        (lambda r: r.update(status="MAYBE"), "'status'"),
        (lambda r: r["first"].update(turn=r["first"]["turn"] + 1), "'first' disagrees"),
        (lambda r: r.update(first=None), "'first' disagrees with 'winnable'"),
        (lambda r: r["players"][0].update(order=r["players"][1]["order"]), "place in turn order"),
        (lambda r: r.update(window=-1), "'window'"),
        (lambda r: r["players"][0].update(turn=10**9), "'players[].turn'"),
    ]
    for edit, words in edits:
        r = copy.deepcopy(won)
        edit(r)
        why = CHECK.validate(r, 3)
        assert why and words in why, (words, why)


def test_old_results_files_are_refused_with_a_word_to_rerun(core):
    from tubedeck.errors import UsageError

    with pytest.raises(UsageError, match="re-run"):
        record_schema({"game": "klm", "mode": "simulate", "version": 1})
    assert record_schema({"game": "klm", "mode": "simulate", "version": SIMULATE.version}) is SIMULATE


def test_the_final_position_in_words(core):
    played = play(PLAYING, core, 3, 1, ("greedy",) * 3)
    s = played.state
    data, lines = position(s)
    json.dumps(data)
    assert len(data["players"]) == 3 and all(len(line) <= 80 for line in lines)
    w = s.winner
    assert data["path"] == [s.table.names[c] for c in s.fields[w].path(5, s.disabled(w))]
    assert f"player {w + 1} wins on turn" in " ".join(lines)
    names = set(s.table.names.values())
    assert set(data["players"][0]["hand"]) <= names and data["players"][0]["hand"] == [s.table.names[c]
                                                                                       for c in s.hands[0]]
    loser = (w + 1) % 3
    disabled = s.evolve(effects=(Effect("disabled", loser, w, 9, min(s.fields[loser].cards)),))
    assert any("Disabled" in line for line in position(disabled)[1])
