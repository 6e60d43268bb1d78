"""One rule for names, in `data check` and in the builds (tubedeck.printable): what the print fonts
draw. The rule's list is the fonts' own; a name they cannot draw is refused by `data check` with
its characters named, as a build would refuse it; a decomposed accent is composed and prints."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from tubedeck.generator import fonts
from tubedeck.printable import RANGES, unprintable

from conftest import run_cli as run

TINY = Path(__file__).resolve().parents[1] / "data" / "tinycity"


def test_the_rule_is_what_every_face_of_the_print_font_draws():
    fonts.register_fonts()
    common = set.intersection(*(set(fonts._ttf(name).face.charToGlyph) for name in fonts.FONTS))
    drawn = {c for c in common if 32 <= c < 0xFFFF}
    assert {c for lo, hi in RANGES for c in range(lo, hi + 1)} == drawn
    for ch in map(chr, sorted(drawn)):  # and the build's own check agrees, face by face
        assert not any(fonts.missing_glyphs(ch, name) for name in fonts.FONTS), ch


def _renamed(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "city"
    shutil.copytree(TINY, folder)
    path = folder / "stations.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cells = lines[1].split(",")
    cells[header.index("name")] = name
    lines[1] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("name, bad", [("Bank \U0001F687", "\U0001F687"), ("\u0645\u062d\u0637\u0629", "\u0645"),
                                       ("Ban\u200dk", "\u200d"), ("K\u014d\u0308ln", "\u014d")])
def test_data_check_refuses_what_a_build_cannot_print(name, bad, capsys, tmp_path):
    assert bad in unprintable(name)
    folder = _renamed(tmp_path, name)
    code, _, err = run(capsys, "data", "check", "--data", str(folder))
    assert code == 2 and "stations.csv:2 [name]: the print fonts cannot draw" in err and f"U+{ord(bad):04X}" in err, err


def test_a_decomposed_accent_is_composed_and_printed(capsys, tmp_path):
    folder = _renamed(tmp_path, "Cafe\u0301 Square")
    assert unprintable("Cafe\u0301") == ""
    code, _, err = run(capsys, "data", "check", "--data", str(folder))
    assert code == 0, err
    out = tmp_path / "out"
    code, _, err = run(capsys, "build", "sampler", "--data", str(folder), "--out", str(out), "--export", "pdf")
    assert code == 0, err
    text = "".join(page.get_text() for pdf in out.rglob("*.pdf") for page in pymupdf.open(pdf))
    assert "Caf\u00e9 Square" in text
