"""Keep Moving's print documents, read back from the PDFs."""

from __future__ import annotations

import re

import pymupdf

import generator
from generator.keepmoving.faces import documents
from km_helpers import EDITION


def _build(tmp_path, **options):
    opts = generator.PrintOptions.parse(export="pdf", **options)
    generator.render(documents(EDITION, opts), opts, tmp_path)
    return tmp_path


def _text(path) -> list[str]:
    with pymupdf.open(path) as pdf:
        return [page.get_text() for page in pdf]


def test_ground_cards_print_side_b_as_each_cards_own_back(tmp_path):
    pages = _text(_build(tmp_path) / "ground.pdf")
    fronts, backs = pages[0::2], pages[1::2]
    assert len(fronts) == len(backs) == 4  # 28 cards, 9 a page
    assert "g01 side A" in fronts[0] and "g01 side B" in backs[0]
    assert not any(re.search(r"g\d\d side B", p) for p in fronts)
    assert not any(re.search(r"g\d\d side A", p) for p in backs)


def test_fold_over_puts_both_sides_on_one_page(tmp_path):
    out = _build(tmp_path)  # the ground-fold sheet, in every build
    pages = _text(out / "ground-fold.pdf")
    assert "g01 side A" in pages[0] and "g01 side B" in pages[0]
    assert all(f"{c.id} side B" in "".join(pages) for c in EDITION.ground)
    pages = _text(_build(tmp_path / "fold", fold=True) / "ground.pdf")  # and --fold, the engine's own
    assert "g01 side A" in pages[0] and "g01 side B" in pages[0]


def test_every_component_is_printed(tmp_path):
    out = _build(tmp_path)
    movement = "".join(_text(out / "movement.pdf"))
    assert movement.count("PLAYER 1 - MOVEMENT") == movement.count("PLAYER 2 - MOVEMENT") == 33
    function = "".join(_text(out / "function.pdf"))
    assert function.count("GREEN - ANSWER ONLY") == 2 and function.count("BLUE - PLAY AGAIN") == 14
    dice = "".join(_text(out / "dice.pdf"))
    assert all(f"{d.name} die" in dice for d in EDITION.dice.values())
    assert "30 life cubes" in "".join(_text(out / "pieces.pdf"))
    assert "Lose your last life cube" in "".join(_text(out / "reference.pdf"))
