"""Keep Moving as a table prints it (issue 27, items 7-9), read back from the built PDFs:

* 7: the setup card (an aid card in ``reference.pdf`` with its own SETUP back) says what
  ``new_game`` deals, every figure read from the page and checked against the engine;
* 8: every movement and function card has the one same back (they share each player's pile);
* 9: the Function and Replace symbols, the framed figures and pictures of the function cards and
  the hearts of the life-cube tokens contrast >= 3:1 with what they sit on in every colour mode.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from tubedeck import generator
from tubedeck.content import content
from tubedeck.errors import Problem
from tubedeck.games.keepmoving.cards import read_rules
from tubedeck.games.keepmoving.play import new_game
from tubedeck.generator.colour import contrast, luminance
from tubedeck.generator.keepmoving.faces import documents
from tubedeck.generator.pen import recording
from tubedeck.generator.sizes import MM

from km_helpers import EDITION

MODES = ("colour", "ink-saver", "greyscale", "cmyk")
SIZES = ("poker", "bridge", "mini", "tarot", "square", "poker-landscape", "bridge-landscape", "mini-landscape",
         "tarot-landscape", "square-landscape", "60x90")
SYMBOL_CONTRAST = 3.0
SEEDS = range(300)


def _build(tmp_path: Path, names: tuple[str, ...], **options) -> Path:
    opts = generator.PrintOptions.parse(**{"export": "pdf", **options})
    generator.render([d for d in documents(EDITION, opts) if d.name in names], opts, tmp_path)
    return tmp_path


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# -- 7. the setup card ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def setup_text(tmp_path_factory) -> str:
    """The setup card's words as printed on the fronts of reference.pdf (one string)."""
    out = _build(tmp_path_factory.mktemp("setup"), ("reference",))
    with pymupdf.open(out / "reference.pdf") as pdf:
        return _flat(" ".join(page.get_text() for page in pdf))


def _number(text: str, pattern: str) -> int:
    found = re.findall(pattern, text)
    assert len(found) == 1, (pattern, found)
    return int(found[0])


def test_the_setup_card_prints_what_the_engine_deals(setup_text):
    """Each figure of the printed setup, read back from the PDF, is what new_game does, seed after seed."""
    t = setup_text
    assert "Keep Moving: setup" in t
    printed = {
        "ground": _number(t, r"Shuffle the (\d+) ground cards"), "row": _number(t, r"Lay (\d+) in a row"),
        "ground_pile": _number(t, r"Stack the other (\d+)"), "lives": _number(t, r"a meeple, (\d+) life cubes"),
        "movement": _number(t, r"movement set of (\d+) cards"), "supply": _number(t, r"other (\d+) life cubes are"),
        "functions": _number(t, r"Shuffle the (\d+) function cards"),
        "dealt": _number(t, r"Deal (\d+) face down to each player"), "pile": _number(t, r"own pile of (\d+) cards"),
        "function_pile": _number(t, r"other (\d+) are the function pile"),
        "offset": _number(t, r"roll \+ (\d+)"), "first": _number(t, r"a 1: card (\d+)"),
        "last": _number(t, r"a 6: card (\d+)"), "hand": _number(t, r"draws (\d+) cards from their own pile"),
    }
    assert "symbol side up" in t and "Same number: both roll again" in t and "the higher number starts" in t
    movement, functions = Counter(EDITION.movement_set), Counter(EDITION.function_deck)
    assert printed["ground"] == len(EDITION.ground) and printed["functions"] == sum(functions.values())
    starts, firsts = set(), Counter()
    for seed in SEEDS:
        s = new_game(EDITION, 2, seed)
        assert len(s.row) == printed["row"] and len(s.gpile) == printed["ground_pile"]
        assert all(s.side(i).symbol or not s.edition.ground[s.row[i][0]].sides[0].symbol for i in range(len(s.row)))
        assert s.lives == (printed["lives"],) * 2 and s.supply == printed["supply"]
        assert len(s.fpile) == printed["function_pile"]
        for p in range(2):
            assert len(s.hand[p]) == printed["hand"]
            mine = Counter(s.hand[p]) + Counter(s.pile[p])
            assert sum(mine.values()) == printed["pile"]
            assert sum(n for c, n in mine.items() if c in functions) == printed["dealt"]
            assert sum(n for c, n in mine.items() if c in movement) == printed["movement"]
        assert s.pos[0] != s.pos[1]
        starts |= {p + 1 for p in s.pos}  # positions counted from 1, as printed
        firsts[s.first] += 1
    assert starts == set(range(printed["offset"] + 1, printed["offset"] + 7))
    assert printed["first"] == printed["offset"] + 1 and printed["last"] == printed["offset"] + 6
    assert firsts[0] > 100 and firsts[1] > 100  # a fair roll-off (300 seeds)


def test_the_setup_text_is_data_filled_from_the_rules_values(tmp_path):
    """The card's figures come from rules.toml: another row, hand and deal print other numbers."""
    raw = content("keepmoving", "rules.toml").read_text()
    raw = raw.replace("row = 14 ", "row = 12 ").replace("start_hand = 2 ", "start_hand = 3 ")
    raw = raw.replace("start_function = 3 ", "start_function = 2 ")
    (tmp_path / "rules.toml").write_text(raw)
    problems: list[Problem] = []
    rules, texts = read_rules(tmp_path / "rules.toml", problems)
    assert not problems and rules is not None and texts is not None
    text = " ".join(texts.setup)
    assert "Lay 12 in a row" in text and "Stack the other 16" in text and "draws 3 cards" in text
    assert "Deal 2 face down" in text and "own pile of 35 cards" in text and "other 12 are the function pile" in text


def test_the_setup_card_has_its_own_back(tmp_path):
    """One card per page: each setup card's back says SETUP, each reference card's REFERENCE."""
    out = _build(tmp_path, ("reference",), export="cards")
    with pymupdf.open(out / "reference-cards.pdf") as pdf:
        pages = [_flat(p.get_text()) for p in pdf]
    pairs = list(zip(pages[0::2], pages[1::2]))
    setup = [back for front, back in pairs if "Keep Moving: setup" in front]
    reference = [back for front, back in pairs if "Keep Moving: setup" not in front]
    assert setup and reference
    assert all("SETUP" in b and "REFERENCE" not in b for b in setup)
    assert all("REFERENCE" in b and "SETUP" not in b for b in reference)


def test_the_setup_card_reads_at_7_pt_on_every_card_size(tmp_path):
    """Setup is play text: 7 pt or more, on as many cards as that takes (here: recorded lines)."""
    for size in SIZES:
        opts = generator.PrintOptions.parse(export="pdf", card=size)
        deck = next(d for d in documents(EDITION, opts) if d.name == "reference")
        with recording() as log:
            generator.render([deck], opts, tmp_path / size)
        lines = [w for w in log if "/setup-" in w.label and w.field == "rules"]
        assert lines, size
        assert min(w.size for w in lines) >= 7.0, size
        printed = _flat(" ".join(w.text for w in lines))
        assert all(_flat(step)[-20:] in printed for step in EDITION.texts.setup), size  # every step, to its end


# -- 8. one back for every card of a pile ---------------------------------------------------------------
def test_movement_and_function_cards_share_one_back(tmp_path):
    """Function cards are shuffled into the players' piles (and Steal moves cards between hands):
    every back of the movement and function decks prints the same text and the same image."""
    out = _build(tmp_path, ("movement", "function"), export="cards")
    seen: set[tuple[str, str]] = set()
    count = 0
    for name in ("movement", "function"):
        with pymupdf.open(out / f"{name}-cards.pdf") as pdf:
            for page in list(pdf)[1::2]:
                pix = page.get_pixmap(dpi=40, alpha=False)
                seen.add((_flat(page.get_text()), hashlib.sha256(pix.samples).hexdigest()))
                count += 1
    assert count == 2 * len(EDITION.movement_set) + len(EDITION.function_deck)
    assert len(seen) == 1, f"{len(seen)} different backs"
    (text, _), = seen
    assert "PLAYER" not in text and "FUNCTION" not in text  # nothing on the back says which card it is


# -- 9. symbols read in every mode ----------------------------------------------------------------------
@contextlib.contextmanager
def _no_antialiasing():
    """Raster without anti-aliasing: each pixel is one printed colour, never a blend of two."""
    level = pymupdf.TOOLS.show_aa_level()
    pymupdf.TOOLS.set_aa_level(0)
    try:
        yield
    finally:
        pymupdf.TOOLS.set_aa_level(level["graphics"])


def _marks(page, clip, round_: bool, share: float) -> tuple[tuple, list[tuple[tuple, float]]]:
    """What the symbol sits on (the commonest colour in ``clip``, inside its inscribed circle
    at 85 % if ``round_``) and the darker colours printed on it (each >= ``share`` of the area)."""
    pm = page.get_pixmap(dpi=300, clip=clip, alpha=False, colorspace=pymupdf.csRGB)
    px = np.frombuffer(pm.samples, np.uint8).reshape(pm.height, pm.width, pm.n)[:, :, :3].astype(np.int32)
    if round_:
        ys, xs = np.mgrid[0:pm.height, 0:pm.width]
        px = px[(xs + 0.5 - pm.width / 2) ** 2 + (ys + 0.5 - pm.height / 2) ** 2 < (0.85 * pm.width / 2) ** 2]
    px = px.reshape(-1, 3)
    packed = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    cols = [(tuple(((int(v) >> s) & 255) / 255 for s in (16, 8, 0)), n / len(px)) for v, n in zip(values, counts)]
    back = max(cols, key=lambda c: c[1])[0]
    return back, [(c, n) for c, n in cols if n >= share and luminance(c) < luminance(back) - 0.02]


def _white(fill) -> bool:
    return bool(fill) and (min(fill) > 0.97 if len(fill) != 4 else max(fill) < 0.03)


def symbol_contrasts(out: Path) -> tuple[list[float], list[float]]:
    """The worst mark-to-ground contrast of each symbol disc on the ground cards (found as the
    white round shapes over 6 mm in ground.pdf) and of each function card's framed figure or
    picture (inside its rounded frame in function.pdf)."""
    discs, pictures = [], []
    with _no_antialiasing():
        with pymupdf.open(out / "ground.pdf") as pdf:
            for page in pdf:
                for d in page.get_drawings():
                    r = d["rect"]
                    if (_white(d.get("fill")) and d.get("color") is not None and abs(r.width - r.height) < 0.5
                            and r.width > 6 * MM and any(item[0] == "c" for item in d["items"])):
                        back, marks = _marks(page, r, True, 0.0005)
                        assert sum(n for _, n in marks) > 0.1, "a symbol disc with no symbol"
                        discs.append(min(contrast(c, back) for c, _ in marks))
        with pymupdf.open(out / "function.pdf") as pdf:
            for page in pdf:
                for d in page.get_drawings():
                    r = d["rect"]
                    if (d.get("fill") is None and d.get("color") is not None and (d.get("width") or 0) > 0.7 * MM
                            and r.width > 15 * MM and any(item[0] == "c" for item in d["items"])):
                        back, marks = _marks(page, r + (1.2 * MM, 1.2 * MM, -1.2 * MM, -1.2 * MM), False, 0.0005)
                        assert sum(n for _, n in marks) > 0.005, "a frame with nothing in it"
                        pictures.append(min(contrast(c, back) for c, _ in marks))
    return discs, pictures


def heart_contrasts(out: Path) -> list[float]:
    """The worst mark-to-token contrast of each life-cube token (a white 14 mm rounded square) in pieces.pdf."""
    hearts = []
    with _no_antialiasing(), pymupdf.open(out / "pieces.pdf") as pdf:
        for page in pdf:
            for d in page.get_drawings():
                r = d["rect"]
                if (_white(d.get("fill")) and abs(r.width - 14 * MM) < 0.5 * MM and abs(r.height - 14 * MM) < 0.5 * MM
                        and any(item[0] == "c" for item in d["items"])):
                    back, marks = _marks(page, r + (1.0 * MM, 1.0 * MM, -1.0 * MM, -1.0 * MM), False, 0.0005)
                    assert sum(n for _, n in marks) > 0.1, "a token with no heart"
                    hearts.append(min(contrast(c, back) for c, _ in marks))
    return hearts


@pytest.mark.parametrize("mode", MODES)
def test_play_symbols_keep_3_to_1_in_every_mode(tmp_path, mode):
    """Ink-saver pales every fill to a 22 % tint: symbols are strokes, so they print black there too."""
    out = _build(tmp_path, ("ground", "function", "pieces"), mode=mode)
    discs, pictures = symbol_contrasts(out)
    hearts = heart_contrasts(out)
    assert len(hearts) == 2 * EDITION.rules.lives + EDITION.rules.supply
    assert min(hearts) >= SYMBOL_CONTRAST, f"{mode}: life-cube heart at {min(hearts):.2f}:1"
    symbols = sum(1 for c in EDITION.ground for side in c.sides if side.symbol)
    assert len(discs) == symbols and len(pictures) == len(EDITION.function_deck)
    assert min(discs) >= SYMBOL_CONTRAST, f"{mode}: symbol at {min(discs):.2f}:1"
    assert min(pictures) >= SYMBOL_CONTRAST, f"{mode}: function card figure at {min(pictures):.2f}:1"
