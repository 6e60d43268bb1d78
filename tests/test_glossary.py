"""One vocabulary (docs/glossary.md): every record field and every command-line option is listed
there, and nothing that no longer exists. A name added to the code without its meaning, or a
rename that leaves the glossary behind, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tubedeck.games import registry

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"


def listed(heading: str, text: str | None = None) -> set[str]:
    """The backticked names in the first column of the table under ``## heading``."""
    text = GLOSSARY.read_text(encoding="utf-8") if text is None else text
    body = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return {m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", body, re.M)}


def record_fields() -> set[str]:
    return {f.name for g in registry().values() for schema in g.records for f in schema.fields}


def cli_options() -> set[str]:
    import typer.main

    from tubedeck.cli import app

    found: set[str] = set()

    def walk(command) -> None:
        for p in command.params:
            found.update(o for o in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ())) if o.startswith("--"))
        if hasattr(command, "list_commands"):
            for name in command.list_commands(None):
                walk(command.get_command(None, name))

    walk(typer.main.get_command(app))
    return found - {"--help"}


def test_every_record_field_is_in_the_glossary():
    fields, words = record_fields(), listed("Record fields")
    assert fields - words == set(), f"add to docs/glossary.md's Record fields: {sorted(fields - words)}"
    assert words - fields == set(), f"no record has these any more: {sorted(words - fields)}"


def test_every_command_line_option_is_in_the_glossary():
    options, words = cli_options(), listed("Command-line options")
    assert "--bots" in options and "--rolls" in options and len(options) > 40  # the walk reaches every command
    assert options - words == set(), f"add to docs/glossary.md's Command-line options: {sorted(options - words)}"
    assert words - options == set(), f"no command takes these any more: {sorted(words - options)}"


def test_a_name_missing_from_the_glossary_is_caught():
    text = GLOSSARY.read_text(encoding="utf-8").replace("| `--rolls` |", "| `--rollz` |")
    assert "--rolls" not in listed("Command-line options", text)
    with pytest.raises(IndexError):
        listed("No such heading", text)


@pytest.mark.parametrize("word", ["turn", "round", "roll", "flip", "seat", "place in turn order", "deal", "sheet",
                                  "board", "map", "rules", "bot"])
def test_each_word_is_defined_once(word):
    text = GLOSSARY.read_text(encoding="utf-8")
    assert len(re.findall(rf"^\*\*{re.escape(word)}\*\*", text, re.M)) == 1, word


def test_every_game_names_its_bots_by_the_glossarys_tiers():
    tiers = ("random", "greedy", "lookahead", "rollout", "planner", "mcts")
    for g in registry().values():
        if g.roster:
            assert set(g.bots) <= set(tiers) and "mcts" in g.bots, (g.id, list(g.bots))
