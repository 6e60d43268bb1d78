"""One Day in London: what a rack leaves in view, read from the PDFs (issue 27, item 1).

In a rack each card lies over the one above it, one slot pitch lower, so a covered card shows only
its top ``pitch`` mm: its strip. For every card size the build advertises and both papers, the rack
sheet's pitch is read from racks.pdf (the slot outlines), and every station card's face is read
from the one-card-per-page PDF: inside that strip (and 1.5 mm clear of its lower edge, where the
next card's top edge lies) stand the card's whole name and one chip per line it serves, the chip's
letter matching the line in the map's key (read from map.pdf), so a journey can be checked from
the strips alone, in greyscale too.
"""

from __future__ import annotations

from functools import lru_cache

import pymupdf
import pytest
from engine.test_faces_quality import SIZES  # the card sizes the build advertises

from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.generator import PrintOptions
from tubedeck.generator.colour import contrast
from tubedeck.generator.oneday.chips import line_letters
from tubedeck.generator.oneday.faces import SLEEVE, documents
from tubedeck.generator.pdf import deck_cards_pdf, sheet_pdf
from tubedeck.generator.ruler import sheet_safe
from tubedeck.generator.sizes import MM, PRINTER_MARGIN, parse_card, parse_paper

PAPERS = ("a4", "letter")
CLEAR = 1.5  # mm: the strip's content keeps this far from its lower edge (the project's frame rule)
TOL = 0.05  # mm


@lru_cache(maxsize=1)
def london():
    return edition(registry()["oneday"])


def spans(page) -> list[dict]:
    return [s for b in page.get_text("dict")["blocks"] for ln in b.get("lines", []) for s in ln["spans"]
            if s["text"].strip()]


def rgb(c: int) -> tuple[float, float, float]:
    return ((c >> 16 & 255) / 255, (c >> 8 & 255) / 255, (c & 255) / 255)


@lru_cache(maxsize=None)
def rack(size: str, paper: str) -> dict:
    """The rack sheet as printed: each mat's slot tops (mm from the page top), the pitch, the slot
    numbers' positions and whether everything lies inside the printable page."""
    card = parse_card(size)
    options = PrintOptions.parse(card=size, paper=paper, export="pdf")
    flat = edition(registry()["oneday"], racks="flat")  # the flat mats (--racks flat); the tent: test_oneday_tent.py
    sheet = next(d for d in documents(flat, options) if d.name == "racks")
    data, _ = sheet_pdf(sheet, options)
    w = card.width + SLEEVE
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        page = doc[0]
        ph, pw = page.rect.height / MM, page.rect.width / MM
        slots = [d["rect"] for d in page.get_drawings()
                 if d.get("color") is not None and d.get("rect") is not None and abs(d["rect"].width / MM - w) < 0.05]
        mats: dict[float, list] = {}
        for r in slots:
            mats.setdefault(round(r.x0 / MM, 1), []).append(r)
        tops = {x: sorted(r.y0 / MM for r in rs) for x, rs in mats.items()}
        numbers = [(int(s["text"]), s["bbox"]) for s in spans(page) if s["text"].strip().isdigit() and s["size"] >= 7]
        inside = all(PRINTER_MARGIN - TOL <= r.x0 / MM and r.x1 / MM <= pw - PRINTER_MARGIN + TOL
                     and PRINTER_MARGIN - TOL <= r.y0 / MM and r.y1 / MM <= ph - PRINTER_MARGIN + TOL for r in slots)
    pitches = {round(b - a, 2) for t in tops.values() for a, b in zip(t, t[1:])}
    return {"tops": tops, "pitches": pitches, "numbers": numbers, "inside": inside,
            "safe": sheet_safe(parse_paper(paper).portrait)}


@lru_cache(maxsize=1)
def key_from_map() -> dict[str, str]:
    opts = PrintOptions.parse(export="pdf")
    sheet = next(d for d in documents(london(), opts) if d.name == "map")
    data, _ = sheet_pdf(sheet, opts)
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        page = doc[0]
        chips = [d["rect"] for d in page.get_drawings() if d.get("fill") and d.get("color") and d["rect"].height / MM < 4]
        ss = spans(page)
    key = {}
    for s in ss:
        box = pymupdf.Rect(s["bbox"])
        centre = pymupdf.Point((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
        if any(c.contains(centre) for c in chips) and len(s["text"].strip()) <= 2:
            right = [t for t in ss if t is not s and abs(t["origin"][1] - s["origin"][1]) < 1
                     and 0 < t["bbox"][0] - box.x1 < 4 * MM]
            if right:
                key[s["text"].strip()] = min(right, key=lambda t: t["bbox"][0])["text"].strip()
    return key


@lru_cache(maxsize=None)
def faces(size: str, mode: str = "colour") -> list[dict]:
    """Every station card's front as printed: its strip's content, page (card) coordinates in mm
    from the card's top-left."""
    ed = london()
    opts = PrintOptions.parse(card=size, export="pdf", mode=mode)
    deck = next(d for d in documents(ed, opts) if d.name == "stations")
    data, _ = deck_cards_pdf(deck, opts, 0.0)
    cards = ed.deck.cards
    out = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        assert len(doc) == 2 * len(cards)
        for card, page in zip(cards, list(doc)[::2]):
            drawn = page.get_drawings()
            # a chip: a small outlined shape filled with a line's colour (a band's number pill is white)
            chips = [d for d in drawn if d.get("fill") and d.get("color") and min(d["fill"]) < 0.97
                     and d["rect"].width / MM < 8 and d["rect"].height / MM < 5]
            texts = spans(page)
            letters, words = [], []
            for s in texts:
                box = pymupdf.Rect(s["bbox"])
                centre = pymupdf.Point((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
                inside = [c for c in chips if c["rect"].contains(centre)]
                (letters if inside else words).append((s, inside[0] if inside else None))
            out.append({"card": card, "w": page.rect.width / MM, "letters": letters, "words": words,
                        "chips": chips})
    return out


def test_the_rack_pitch_is_the_card_strip_on_every_size_and_paper():
    """One number: the rack's slot pitch as printed is the strip the card design works out, on every
    size and paper; the rack fits the printable page; slot numbers run 1..10 top to bottom."""
    from tubedeck.generator.oneday.faces import strip

    ed = london()
    for size in SIZES:
        card = parse_card(size)
        want = strip(ed.board, ed.deck, card.width, card.height).pitch
        for paper in PAPERS:
            r = rack(size, paper)
            assert r["pitches"] == {round(want, 2)}, (size, paper, r["pitches"], want)
            assert r["inside"], (size, paper)
            assert all(len(t) == ed.rules.slots for t in r["tops"].values()), (size, paper)
            mat = min(r["tops"])  # the first mat's left edge: its slot numbers stand left of it
            column = sorted((n, b[1]) for n, b in r["numbers"] if b[2] / MM < mat)
            assert [n for n, _ in column] == list(range(1, ed.rules.slots + 1)), (size, paper, column)
            assert [y for _, y in column] == sorted(y for _, y in column), (size, paper)  # 1 at the top


@pytest.mark.slow  # the map's label placement takes several seconds
def test_the_map_key_gives_every_line_the_letter_its_chips_carry():
    """The map's key, as printed, pairs each line with a distinct letter: the letter its chips carry."""
    key = key_from_map()
    gmap = london().board
    assert key == {letter: gmap.lines[line].name for line, letter in line_letters(gmap).items()}, key


@pytest.mark.parametrize("size", SIZES)
def test_every_name_and_line_chip_is_inside_the_strip_a_rack_leaves_in_view(size):
    """Read both PDFs: the strip is the rack's printed pitch (the smaller of the two papers', they are
    equal) from the card's top edge; every card's whole name and a chip per line, each chip's letter
    naming that line in the map's key, lie inside it, 1.5 mm clear of its lower edge."""
    ed = london()
    pitch = min(min(rack(size, paper)["pitches"]) for paper in PAPERS)
    bottom = pitch - CLEAR + TOL
    key = {letter: ed.board.lines[line].name for line, letter in line_letters(ed.board).items()}  # the map's key
    problems = []
    lowest = 0.0
    for face in faces(size):
        card = face["card"]
        name = [s for s, _ in face["words"] if s["bbox"][1] / MM < pitch]
        text = " ".join(s["text"].strip() for s in sorted(name, key=lambda s: (s["bbox"][1], s["bbox"][0])))
        if text != card.name:
            problems.append(f"{card.id}: the strip reads {text!r}")
        for s in name:
            lowest = max(lowest, s["bbox"][3] / MM)
            if s["bbox"][3] / MM > bottom or s["size"] < 7 - 1e-6:
                problems.append(f"{card.id}: {s['text']!r} reaches {s['bbox'][3] / MM:.1f} mm ({s['size']:.1f} pt)")
        shown = []
        for s, chip in face["letters"]:
            r = chip["rect"]
            lowest = max(lowest, r.y1 / MM)
            if r.y1 / MM > bottom or r.y0 / MM < 4 - TOL or r.x0 / MM < 4 - TOL or r.x1 / MM > face["w"] - 4 + TOL:
                problems.append(f"{card.id}: chip {s['text']!r} at {tuple(round(v / MM, 1) for v in r)}")
            if s["size"] < 7 - 1e-6:
                problems.append(f"{card.id}: chip {s['text']!r} at {s['size']} pt")
            shown.append(key.get(s["text"].strip(), s["text"]))
        lines = [ed.board.lines[b.line].name for b in card.bands]
        if sorted(shown) != sorted(lines):
            problems.append(f"{card.id}: chips read {shown}, the card serves {lines}")
    assert not problems, f"{size} (pitch {pitch} mm): " + "; ".join(problems[:8])
    assert lowest <= bottom


def test_the_two_edgware_roads_read_apart_in_their_strips():
    """The issue's example: both Edgware Roads were cut to 'Edgware Road' in the rack; now their
    strips read apart on the tightest size and paper (tarot on Letter), by name and by chips."""
    strips = {f["card"].id: (" ".join(s["text"] for s, _ in f["words"] if s["bbox"][1] / MM < 13.1),
                             tuple(sorted(s["text"] for s, _ in f["letters"])))
              for f in faces("tarot") if f["card"].station.startswith("edgware-road")}
    assert len(set(strips.values())) == len(strips) == 2, strips
    assert min(min(rack("tarot", p)["pitches"]) for p in PAPERS) <= 13.1


@pytest.mark.parametrize("mode", ["colour", "ink-saver", "greyscale"])
def test_chips_read_in_every_mode(mode):
    """A greyscale (or ink-saver) print loses the colours, not the chips: each chip keeps its letter
    (distinct per line), the letter contrasts >= 4.5:1 with the chip's fill and the chip's outline
    >= 3:1 with the card. (CMYK prints the colour mode's colours through a naive separation: the
    colour mode's figures are its figures; PyMuPDF's own CMYK-to-RGB reading is not the project's.)"""
    problems = []
    for face in faces("poker", mode):
        for s, chip in face["letters"]:
            ratio = contrast(rgb(s["color"]), tuple(chip["fill"]))
            edge = contrast(tuple(chip["color"]), (1.0, 1.0, 1.0))
            if ratio < 4.5 or edge < 3.0:
                problems.append(f"{face['card'].id} {s['text']}: {ratio:.1f}:1, outline {edge:.1f}:1")
    assert not problems, problems[:5]
    letters = {s["text"] for f in faces("poker", mode) for s, _ in f["letters"]}
    assert len(letters) == len(london().board.lines)
