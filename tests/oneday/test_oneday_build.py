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
    for name in ("stations.pdf", "rules.pdf", "map.pdf", "racks.pdf"):
        assert (out / name).stat().st_size > 1000
    import pymupdf

    with pymupdf.open(out / "map.pdf") as doc:
        text = doc[0].get_text()
    assert "Pimlico" in text and "Elephant & Castle" in text and "Nine Elms" not in text
