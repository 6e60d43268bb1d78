"""Keep Moving's print documents, read back from the PDFs."""

from __future__ import annotations

import re

import numpy as np
import pymupdf

from tubedeck import generator
from tubedeck.generator.document import Deck
from tubedeck.generator.keepmoving.art import CORNER
from tubedeck.generator.keepmoving.faces import ICONS, documents, function_figure
from tubedeck.generator.keepmoving.sheets import cube_net, pieces_sheet
from tubedeck.generator.pdf import deck_cards_pdf, sheet_pdf
from tubedeck.generator.pen import DRIFT, Pen, recording
from tubedeck.generator.sizes import PT, CardGeometry

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
    assert "ground 1 \u00b7 A" in fronts[0] and "ground 1 \u00b7 B" in backs[0]
    assert not any(re.search(r"ground \d+ \u00b7 B", p) for p in fronts)
    assert not any(re.search(r"ground \d+ \u00b7 A", p) for p in backs)


def test_fold_over_puts_both_sides_on_one_page(tmp_path):
    out = _build(tmp_path)  # the ground-fold sheet, in every build
    pages = _text(out / "ground-fold.pdf")
    assert "ground 1 \u00b7 A" in pages[0] and "ground 1 \u00b7 B" in pages[0]
    assert all(f"ground {n} \u00b7 B" in "".join(pages) for n in range(1, len(EDITION.ground) + 1))
    assert len(pages) == 7  # A4 poker: 2 x 2 pairs on a landscape page
    with pymupdf.open(out / "ground-fold.pdf") as pdf:
        assert pdf[0].rect.width > pdf[0].rect.height
    pages = _text(_build(tmp_path / "fold", fold=True) / "ground.pdf")  # and --fold, the engine's own
    assert "ground 1 \u00b7 A" in pages[0] and "ground 1 \u00b7 B" in pages[0]


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


def test_ground_textures_stay_inside_the_rounded_art_box():
    """No lava wave or grass blade reaches the white margin or the round corners (every card, both
    sides): each pixel outside the art box's rounded shape is paper white."""
    opts = generator.PrintOptions.parse(export="pdf")
    ground = next(d for d in documents(EDITION, opts) if getattr(d, "name", "") == "ground")
    data, _ = deck_cards_pdf(Deck("ground", ground.cards), opts, 0.0)
    w, h, dpi = opts.card.width, opts.card.height, 100
    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        for page in pdf:
            pix = page.get_pixmap(dpi=dpi)
            img = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
            ys, xs = np.mgrid[0:pix.height, 0:pix.width]
            x, y = (xs + 0.5) * 25.4 / dpi, (ys + 0.5) * 25.4 / dpi  # pixel centres in mm
            # distance outside the rounded rectangle (art box, corner radius CORNER)
            inner = (DRIFT + CORNER, DRIFT + CORNER, w - DRIFT - CORNER, h - DRIFT - CORNER)
            dx = np.maximum(np.maximum(inner[0] - x, x - inner[2]), 0)
            dy = np.maximum(np.maximum(inner[1] - y, y - inner[3]), 0)
            outside = np.hypot(dx, dy) > CORNER + 0.3  # 0.3 mm: anti-aliasing of the shape's own edge
            assert outside.sum() > 0.1 * outside.size  # the 3 mm margin all round
            ink = outside & (img.min(axis=2) < 245)
            assert not ink.any(), f"page {page.number + 1}: {ink.sum()} inked pixels outside the art box"


class _Lines:
    """Just enough of a Pen for a cube net: keeps its lines and its label's box."""

    def __init__(self):
        self.lines, self.labels = [], []

    def rect(self, *args, **kw):
        pass

    def line(self, x1, y1, x2, y2, **kw):
        self.lines.append(((x1, y1), (x2, y2)))

    def polyline(self, pts, **kw):
        self.lines += list(zip(pts, pts[1:]))

    def text(self, x, y, text, font, size, field, **kw):
        if field == "die":
            self.labels.append((x, y - 0.25 * size * PT, x + Pen.text_width(text, font, size), y + 0.8 * size * PT))


def test_dice_labels_sit_clear_of_every_cut_and_fold_line():
    for a in (16.0, 10.0):
        for die in EDITION.dice.values():
            pen = _Lines()
            cube_net(pen, 0.0, 0.0, a, die.faces, die.name)
            (x1, y1, x2, y2), = pen.labels
            for (ax, ay), (bx, by) in pen.lines:
                for t in (i / 400 for i in range(401)):
                    px, py = ax + t * (bx - ax), ay + t * (by - ay)
                    assert not (x1 - 0.5 < px < x2 + 0.5 and y1 - 0.5 < py < y2 + 0.5), (die.name, a)


def test_meeples_carry_their_player_number_big_on_the_body():
    """The two players' colours both print dark grey: each standee panel says 1 or 2 in big type."""
    with recording() as log:
        sheet_pdf(pieces_sheet(EDITION), generator.PrintOptions.parse(export="pdf", mode="greyscale"))
    marks = [w for w in log if w.field == "mark"]
    assert sorted(w.text for w in marks) == ["1", "1", "2", "2"]  # front and back panel of each
    assert all(w.size >= 14 for w in marks)


def test_function_figures_keep_clear_of_their_frame_and_every_card_has_one():
    """"no 2 4 6" is padded inside its frame (s.w 15 % to 85 %); the cards with no figure to print
    (Exchange, Relocation) get a picture instead."""
    opts = generator.PrintOptions.parse(export="pdf")
    function = next(d for d in documents(EDITION, opts) if getattr(d, "name", "") == "function")
    with recording() as log:
        deck_cards_pdf(Deck("function", function.cards), opts, 0.0)
    s = CardGeometry(opts.card.width, opts.card.height).safe
    figures = [w for w in log if w.field == "figure"]
    assert len(figures) == sum(f.copies for f in EDITION.function if function_figure(f, EDITION))
    for w in figures:
        assert w.x >= s.x + 0.15 * s.w + 3 and w.x + w.width <= s.x + 0.85 * s.w - 3, w.text
    assert {f.id for f in EDITION.function if not function_figure(f, EDITION)} == set(ICONS)
