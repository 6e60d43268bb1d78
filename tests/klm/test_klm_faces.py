"""`tubedeck build klm`: every Keep London Moving document renders, on London and a toy city."""

from __future__ import annotations

import json
from pathlib import Path

from generator.klm.faces import fact_lines
from tubedeck.games.klm.cards import build_deck
from tubedeck.games.klm.scope import parse_scope
from conftest import run_cli as run

TINY = Path(__file__).resolve().parent.parent / "data" / "tinycity"




def test_build_klm_writes_every_document(tmp_path, capsys):
    code, out, err = run(capsys, "build", "klm", "--data", str(TINY), "--scope", "all", "--out", str(tmp_path), "--json")
    assert code == 0, err
    manifest = json.loads(out)
    assert set(manifest["decks"]) == {"klm/stations", "klm/fortune", "klm/reference"}
    assert len(manifest["decks"]["klm/stations"]) == 10 and len(manifest["decks"]["klm/fortune"]) == 30
    for name in ("stations.pdf", "fortune.pdf", "reference.pdf", "play-field.pdf"):
        assert (tmp_path / "klm" / name).stat().st_size > 1000


def test_build_klm_is_deterministic(tmp_path, capsys):
    for d in ("a", "b"):
        run(capsys, "build", "klm", "--data", str(TINY), "--scope", "zone 1", "--out", str(tmp_path / d), "--export", "pdf")
    assert (tmp_path / "a" / "klm" / "stations.pdf").read_bytes() == (tmp_path / "b" / "klm" / "stations.pdf").read_bytes()


def test_bad_scope_builds_nothing(tmp_path, capsys):
    code, _, err = run(capsys, "build", "klm", "--data", str(TINY), "--scope", "zone 7", "--out", str(tmp_path))
    assert code == 2 and "unknown zone" in err and not (tmp_path / "klm").exists()


def test_all_london_cards_fit(tmp_path, capsys):
    """Every London Station Card (long names, six lines, termini) fits its fields."""
    code, _, err = run(capsys, "build", "klm", "--scope", "all", "--out", str(tmp_path), "--export", "pdf")
    assert code == 0, err


def test_facts_left_off_when_unknown(london):
    deck = build_deck(london, parse_scope("all", london))
    for card in deck.cards:
        labels = [l for l, _ in fact_lines(card)]
        assert ("Heritage" in labels) == (card.heritage is not None)
        assert ("Easy Access" in labels) == (card.easy_access is not None)
