"""``tubedeck check klm`` / ``solve klm`` / ``check klm-bound``: results file, resume, exit codes."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli as run
from conftest import toy_dataset


@pytest.fixture
def toy(tmp_path):
    return toy_dataset(tmp_path / "toy")


def check(capsys, toy, results, *extra):
    return run(capsys, "check", "klm", "--data", str(toy), "--scope", "all", "--players", "2", "--seed", "7",
               "--results", str(results), "--no-progress", *extra)


def test_check_writes_resumes_and_never_rewrites(capsys, toy, tmp_path):
    results = tmp_path / "r.jsonl"
    code, out, _ = check(capsys, toy, results, "--deals", "6", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["deals"] == 6 and payload["statuses"] == {"OPTIMAL": 6}
    assert "fortune card effects" in payload["outside_the_check"]
    first = results.read_bytes()
    lines = first.decode().splitlines()
    assert json.loads(lines[0])["kind"] == "header" and [json.loads(x)["seed"] for x in lines[1:]] == list(range(7, 13))
    code, out, _ = check(capsys, toy, results, "--deals", "10", "--json", "--workers", "2")
    assert code == 0 and json.loads(out)["deals"] == 10
    again = results.read_bytes()
    assert again.startswith(first) and len(again.decode().splitlines()) == 11  # appended, not rewritten
    # the same run again computes nothing new and reports the same figures
    code, out2, _ = check(capsys, toy, results, "--deals", "10", "--json")
    assert results.read_bytes() == again and json.loads(out2) == json.loads(out)


def test_same_seeds_same_bytes(capsys, toy, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    check(capsys, toy, a, "--deals", "5")
    check(capsys, toy, b, "--deals", "5", "--workers", "2")
    assert a.read_bytes() == b.read_bytes()


def test_corrupt_results_file_is_refused_and_kept(capsys, toy, tmp_path):
    results = tmp_path / "r.jsonl"
    check(capsys, toy, results, "--deals", "3")
    results.write_bytes(results.read_bytes() + b'{"seed": 10, "status": "OPT')
    before = results.read_bytes()
    code, _, err = check(capsys, toy, results, "--deals", "5")
    assert code == 2 and "corrupt results file" in err
    assert results.read_bytes() == before


def test_other_parameters_are_refused(capsys, toy, tmp_path):
    results = tmp_path / "r.jsonl"
    check(capsys, toy, results, "--deals", "2")
    before = results.read_bytes()
    code, _, err = run(capsys, "check", "klm", "--data", str(toy), "--scope", "all", "--players", "3",
                       "--results", str(results), "--deals", "2", "--no-progress")
    assert code == 2 and "other parameters" in err and results.read_bytes() == before


@pytest.mark.parametrize("args, message", [
    (("--players", "7"), "2-6"), (("--players", "1"), "2-6"), (("--deals", "0"), "--deals"),
    (("--scope", "zone 9"), "unknown zone"), (("--scope", "purple"), "unknown line"),
    (("--workers", "0"), "--workers"),
])
def test_bad_input_exits_2(capsys, toy, tmp_path, args, message):
    results = tmp_path / "r.jsonl"
    base = {"--players": "2", "--deals": "3", "--scope": "all", "--workers": "1"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    flat = [x for kv in base.items() for x in kv]
    code, _, err = run(capsys, "check", "klm", "--data", str(toy), "--results", str(results), "--no-progress", *flat)
    assert code == 2 and message in err
    assert not results.exists() or results.read_text().count("\n") <= 1


def test_require_all_exits_1_on_an_unwinnable_deal(capsys, toy, tmp_path):
    code, out, _ = check(capsys, toy, tmp_path / "r.jsonl", "--deals", "20", "--json", "--require-all")
    payload = json.loads(out)
    assert payload["unwinnable_count"] > 0 and code == 1
    assert set(payload["unwinnable_seeds"]) <= set(range(7, 27))
    code, _, _ = check(capsys, toy, tmp_path / "w.jsonl", "--deals", "1", "--seed",
                       str(next(s for s in range(7, 27) if s not in payload["unwinnable_seeds"])), "--require-all")
    assert code == 0


def test_solve_one_deal(capsys, toy):
    code, out, _ = run(capsys, "solve", "klm", "--data", str(toy), "--scope", "all", "--players", "2",
                       "--seed", "3", "--json")
    record = json.loads(out)
    assert code == 0 and record["seed"] == 3 and len(record["players"]) == 2
    code, text, _ = run(capsys, "solve", "klm", "--data", str(toy), "--scope", "all", "--players", "2", "--seed", "3")
    assert code == 0 and "first possible win" in text


def test_a_check_builds_the_edition_once(capsys, toy, tmp_path, monkeypatch):
    # The command validates options on the edition and the worker evaluates on it: one build.
    import tubedeck.game as game_module
    import tubedeck.games.klm.edition as klm_edition

    built = []
    real = klm_edition.build_deck
    monkeypatch.setattr(klm_edition, "build_deck", lambda *a: built.append(a) or real(*a))
    game_module._edition.cache_clear()
    code, _, _ = check(capsys, toy, tmp_path / "r.jsonl", "--deals", "3", "--workers", "1")
    assert code == 0 and len(built) == 1


def test_printed_answers_show_no_python_values(tmp_path, capsys):
    """A reviewer read "statuses: {'OPTIMAL': 3}" and "opening rolls [(6, 2, 2)]": words, not reprs."""
    from conftest import run_cli

    code, out, _ = run_cli(capsys, "check", "klm", "--deals", "3", "--no-progress", "--results", str(tmp_path / "r.jsonl"))
    assert code == 0 and "solver statuses: proven best (OPTIMAL) 3" in out
    assert "Fortune Card effects, opponents' play, Unlucky Hand, Fast Gameplay" in out  # the rulebook's words
    code2, out2, _ = run_cli(capsys, "solve", "klm", "--seed", "1")
    assert code2 == 0 and "opening rolls 6, 2, 2, 5" in out2
    for text in (out, out2):
        assert not any(mark in text for mark in ("{'", "[(", "None", "Counter("))
