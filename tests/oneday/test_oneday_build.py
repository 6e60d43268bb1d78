"""One Day in London print files: `tubedeck build oneday` writes the deck, rules, map and racks."""

from __future__ import annotations

from tubedeck.cli import main


def test_build_oneday(tmp_path):
    try:
        code = main(["build", "oneday", "--out", str(tmp_path), "--json"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 0
    out = tmp_path / "oneday"
    for name in ("stations.pdf", "rules.pdf", "map.pdf", "racks.pdf", "rulebook.pdf", "rulebook-booklet.pdf"):
        assert (out / name).stat().st_size > 1000
    import pymupdf

    with pymupdf.open(out / "map.pdf") as doc:
        text = doc[0].get_text()
    assert "Pimlico" in text and "Elephant & Castle" in text and "Nine Elms" not in text


def _rects_mm(pdf_path):
    import pymupdf

    with pymupdf.open(pdf_path) as doc:
        return [(round(d["rect"].width / 72 * 25.4, 1), round(d["rect"].height / 72 * 25.4, 1))
                for page in doc for d in page.get_drawings() if d.get("rect") is not None]


def test_racks_and_play_field_have_card_sized_slots_with_room_for_a_sleeve(tmp_path, capsys):
    from conftest import run_cli

    for game, sheet, more in (("oneday", "racks", ("--racks", "flat")), ("klm", "play-field", ())):
        assert run_cli(capsys, "build", game, "--out", str(tmp_path), "--export", "pdf", *more)[0] == 0
        sizes = _rects_mm(tmp_path / game / f"{sheet}.pdf")
        assert (66.5, 91.9) in sizes, sorted(set(sizes))[-5:]  # poker 63.5 x 88.9 plus 3 mm


def test_the_rules_card_carries_the_setup_and_the_player_count(tmp_path, capsys):
    import pymupdf

    from conftest import run_cli

    assert run_cli(capsys, "build", "oneday", "--out", str(tmp_path), "--export", "pdf")[0] == 0
    with pymupdf.open(tmp_path / "oneday" / "rules.pdf") as doc:
        text = " ".join(" ".join(p.get_text().split()) for p in doc)
    assert "2-4 players" in text and "until every rack holds 10 cards" in text and "3 cards face up" in text
