"""The print review's sampler finding, read back from the PDF: the zone on a line-coloured band
reads at >= 4.5:1 in colour and on a black-and-white printer. Black on the Bakerloo's brown was
4.21:1 in grey, black on the Victoria's blue 4.33:1; no plain black or white reads on either in
both, so there the zone sits on a white plate, 1.5 mm round its text."""

from __future__ import annotations

import numpy as np
import pymupdf

from tubedeck.generator.colour import contrast, luminance
from tubedeck.generator.document import Deck
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pdf import deck_sheets_pdf
from tubedeck.generator.sampler.faces import lines_of, sampler_deck

MM = 72 / 25.4
DPI = 200


def first_lines(london) -> dict[str, str]:
    """Station id -> the line whose colour fills its band (the first line serving it)."""
    return {s: lines_of(london, s)[0][0] for s in london.stations if lines_of(london, s)}


def behind(pix: np.ndarray, box: pymupdf.Rect, text: tuple[float, float, float]) -> list[tuple[float, float, float]]:
    """The colours printed around a span's glyphs: each covering >= 10% of its box, other than the
    text's own colour and its antialiasing."""
    k = DPI / 72
    region = pix[int(box.y0 * k):int(box.y1 * k), int(box.x0 * k):int(box.x1 * k)].reshape(-1, 3).astype(int)
    values, counts = np.unique(region, axis=0, return_counts=True)
    ink = np.array([round(c * 255) for c in text])
    return [tuple(v / 255) for v, n in zip(values, counts)
            if n >= 0.1 * len(region) and np.abs(v - ink).max() > 24]


def test_the_zone_on_every_line_colour_reads_in_colour_and_in_grey(london):
    deck = sampler_deck(london)
    line_of = first_lines(london)
    one_each: dict[str, str] = {}  # a station per band colour (every line's), Bakerloo and Victoria included
    for card in deck.cards:
        one_each.setdefault(line_of.get(card.id, ""), card.id)
    assert {"Bakerloo", "Victoria"} <= set(one_each)
    cards = tuple(c for c in deck.cards if c.id in one_each.values())
    data, _, _ = deck_sheets_pdf(Deck("stations", cards, back=deck.back), PrintOptions.parse(duplex="none"))
    worst: dict[str, float] = {}
    plates = 0
    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        for page in pdf:
            pm = page.get_pixmap(dpi=DPI, alpha=False)
            pix = np.frombuffer(pm.samples, dtype=np.uint8).reshape(pm.height, pm.width, pm.n)[:, :, :3]
            plate_boxes = [d["rect"] for d in page.get_drawings()
                           if d.get("fill") and min(d["fill"]) > 0.99 and d["rect"].width < 25 * MM]
            for span in (s for b in page.get_text("dict")["blocks"] for ln in b.get("lines", ())
                         for s in ln["spans"] if s["text"].startswith("Zone ")):
                c = span["color"]
                text = ((c >> 16 & 255) / 255, (c >> 8 & 255) / 255, (c & 255) / 255)
                grey = luminance(text)
                for back in behind(pix, pymupdf.Rect(span["bbox"]), text):
                    g = luminance(back)
                    ratio = min(contrast(text, back), contrast((grey,) * 3, (g,) * 3))
                    worst[span["text"]] = min(worst.get(span["text"], 99.0), ratio)
                box = pymupdf.Rect(span["bbox"])
                for p in plate_boxes:
                    if p.contains(box.tl + (1, 1)):
                        plates += 1
                        pad = min(box.x0 - p.x0, p.x1 - box.x1, box.y0 - p.y0, p.y1 - box.y1) / MM
                        assert pad >= 1.5 - 0.05, (span["text"], round(pad, 2))
    assert worst and min(worst.values()) >= 4.5, sorted(worst.items(), key=lambda kv: kv[1])[:4]
    assert plates >= 2  # the Bakerloo's and the Victoria's
