"""Print-engine throughput: 270 station cards with backs -> A4 PDF sheets, and -> 300-dpi PNGs.

Prints figures (not a timed test). Targets on a 2-core machine: >= 200 cards/s to PDF and
>= 20 cards/s to PNG. The floor is bare ReportLab drawing the same shapes and text straight on
a canvas (no Pen, no text fitting, no marks); the ratio says what the engine's layers cost.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymupdf  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from tubedeck.generator import (  # noqa: E402
    Deck,
    PrintOptions,
    fonts,  # noqa: E402
    render,
)
from tubedeck.generator.sampler.faces import lines_of, sampler_deck  # noqa: E402
from tubedeck.generator.sizes import MM  # noqa: E402
from tubedeck.network import Network  # noqa: E402

N = 270
REPEAT = 3


def best(fn) -> float:
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bare_pdf(net: Network, stations) -> bytes:
    """The sampler's shapes and text, drawn directly: the floor for any engine."""
    fonts.register_fonts()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(210 * MM, 297 * MM), invariant=1, initialFontName="TD-Sans")
    w, h = 63.5 * MM, 88.9 * MM
    for page in range(0, len(stations), 9):
        chunk = stations[page:page + 9]
        for side in ("front", "back"):
            for i, st in enumerate(chunk):
                r, col = divmod(i, 3)
                x = (9.75 + (col if side == "front" else 2 - col) * 63.5) * MM
                y = (15.15 + (2 - r) * 88.9) * MM
                c.saveState()
                p = c.beginPath(); p.rect(x, y, w, h); c.clipPath(p, stroke=0, fill=0)  # noqa: E702
                if side == "front":
                    lines = lines_of(net, st.id)
                    c.setFillColorRGB(0.97, 0.96, 0.92); c.rect(x, y, w, h, stroke=0, fill=1)  # noqa: E702
                    c.setFillColorRGB(0, 0.5, 0.2); c.rect(x, y + 0.76 * h, w, 0.24 * h, stroke=0, fill=1)  # noqa: E702
                    c.setFillColorRGB(1, 1, 1); c.setFont("TD-SansBold", 13)  # noqa: E702
                    c.drawCentredString(x + w / 2, y + 0.85 * h, f"Zone {st.zone}")
                    c.setStrokeColorRGB(0, 0.5, 0.2); c.setLineWidth(4 * MM)  # noqa: E702
                    c.circle(x + w / 2, y + 0.56 * h, 9 * MM, stroke=1, fill=0)
                    c.setFillColorRGB(0, 0.1, 0.66); c.rect(x + 12 * MM, y + 0.53 * h, 40 * MM, 5 * MM, stroke=0, fill=1)  # noqa: E702
                    c.setFillColorRGB(0.1, 0.1, 0.1); c.setFont("TD-SansBold", 15)  # noqa: E702
                    c.drawCentredString(x + w / 2, y + 0.3 * h, st.name)
                    for j, (_, colour, _) in enumerate(lines):
                        c.setFillColor(colour); c.rect(x + (10 + 8 * j) * MM, y + 0.155 * h, 7 * MM, 1.8 * MM, stroke=0, fill=1)  # noqa: E702
                    c.setFillColorRGB(0.1, 0.1, 0.1); c.setFont("TD-Sans", 7)  # noqa: E702
                    c.drawCentredString(x + w / 2, y + 6 * MM, " \u00b7 ".join(n for n, _, _ in lines))
                else:
                    c.setFillColorRGB(0, 0.1, 0.66); c.rect(x, y, w, h, stroke=0, fill=1)  # noqa: E702
                    c.setStrokeColorRGB(1, 1, 1); c.setLineWidth(0.6 * MM)  # noqa: E702
                    c.roundRect(x + 4 * MM, y + 4 * MM, w - 8 * MM, h - 8 * MM, 2.5 * MM, stroke=1, fill=0)
                    c.setStrokeColorRGB(0.86, 0.14, 0.12); c.setLineWidth(7 * MM)  # noqa: E702
                    c.circle(x + w / 2, y + h / 2, 15.6 * MM, stroke=1, fill=0)
                    c.rect(x + 8 * MM, y + h / 2 - 5 * MM, 47.5 * MM, 10 * MM, stroke=0, fill=1)
                    c.setFillColorRGB(1, 1, 1); c.setFont("TD-SansBold", 14)  # noqa: E702
                    c.drawCentredString(x + w / 2, y + h / 2 - 2 * MM, "TUBEDECK")
                c.restoreState()
            c.showPage()
    c.save()
    return buf.getvalue()


def bare_png(pdf: bytes) -> int:
    """Floor for PNGs: rasterise the bare PDF's card areas at 300 dpi (one pixmap per card face)."""
    n = 0
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc:
            for i in range(9):
                r, col = divmod(i, 3)
                x, y = (9.75 + col * 63.5) * MM, (15.15 + r * 88.9) * MM
                clip = pymupdf.Rect(x, y, x + 63.5 * MM, y + 88.9 * MM)
                page.get_pixmap(dpi=300, clip=clip, alpha=False).tobytes("png")
                n += 1
    return n


def main() -> None:
    net = Network.load()
    full = sampler_deck(net)
    deck = Deck(full.name, full.cards[:N], back=full.back, title=full.title)
    stations = sorted(net.stations.values(), key=lambda s: (s.name.lower(), s.id))[:N]
    with tempfile.TemporaryDirectory() as tmp:
        pdf_opts = PrintOptions.parse(export="pdf")
        png_opts = PrintOptions.parse(export="png")
        t_pdf = best(lambda: render([deck], pdf_opts, Path(tmp) / "pdf"))
        t_png = best(lambda: render([deck], png_opts, Path(tmp) / "png"))
        files = list((Path(tmp) / "png").rglob("*.png"))
    t_bare = best(lambda: bare_pdf(net, stations))
    bare = bare_pdf(net, stations)
    t_bare_png = best(lambda: bare_png(bare))
    print(f"cards: {N} (each with a back), A4 poker 3x3, colour")
    print(f"engine -> PDF sheets : {t_pdf * 1000:7.0f} ms  {N / t_pdf:7.0f} cards/s   (target >= 200)")
    print(f"engine -> 300-dpi PNG: {t_png * 1000:7.0f} ms  {N / t_png:7.0f} cards/s   "
          f"({len(files)} PNG files; target >= 20)")
    print(f"bare ReportLab PDF   : {t_bare * 1000:7.0f} ms  {N / t_bare:7.0f} cards/s   "
          f"engine/bare time ratio {t_pdf / t_bare:.2f}x")
    print(f"bare PDF + raster PNG: {(t_bare + t_bare_png) * 1000:7.0f} ms  {N / (t_bare + t_bare_png):7.0f} cards/s   "
          f"engine/bare time ratio {t_png / (t_bare + t_bare_png):.2f}x")


if __name__ == "__main__":
    main()
