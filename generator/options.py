"""Print options: one frozen value holding every choice a user makes about printing.

``PrintOptions.parse(...)`` turns CLI strings into a checked value (UsageError on anything bad);
games receive the result and usually only read ``options.mode`` (if at all).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from tubedeck.errors import UsageError
from tubedeck.words import names_list

from .colour import Mode, parse_mode
from .sizes import CARD_SIZES, CardSize, Paper, parse_card, parse_paper

EXPORTS = ("pdf", "cards", "png", "svg", "contact", "tuckbox", "tts")  # tts: Tabletop Simulator (generator/tts.py)
DUPLEX = ("long", "short", "none")
MARKS = ("short", "edge", "crosses", "none")
ORIENTATIONS = ("auto", "portrait", "landscape")


@dataclass(frozen=True)
class PodPreset:
    """A print-on-demand shop's card template: its bleed, and the exact pixel size at 300 dpi of
    each card format it takes (only formats checked against the shop's own templates)."""

    shop: str
    bleed: float  # mm on every side
    templates: dict  # card name -> ((width mm, height mm), (width px, height px))
    dpi: int = 300

    def template(self, card: CardSize) -> tuple[int, int]:
        """The exact PNG size for ``card``; a UsageError naming both if the shop has no such template."""
        for (w, h), px in self.templates.values():
            if abs(card.width - w) < 0.05 and abs(card.height - h) < 0.05:
                return px
        known = ", ".join(f"{n} {w:g} x {h:g} mm ({px[0]} x {px[1]} px)" for n, ((w, h), px) in self.templates.items())
        raise UsageError(f"--pod {self.key}: {self.shop} templates are {known}; this build's cards are "
                         f"{card.label()}: use --card with one of those, or drop --pod (--bleed 3 --export png)")

    @property
    def key(self) -> str:
        return next(k for k, v in POD.items() if v is self)


# Print-on-demand presets: each shop's bleed and template pixel size at 300 dpi
# (The Game Crafter poker 825 x 1125 px = 1/8 in bleed; MakePlayingCards 822 x 1122 px = 0.12 in).
POD = {
    "tgc": PodPreset("The Game Crafter", 25.4 / 8, {"poker": ((63.5, 88.9), (825, 1125))}),
    "mpc": PodPreset("MakePlayingCards", 25.4 * 0.12, {"poker": ((63.5, 88.9), (822, 1122))}),
}
POD_BLEED = {k: v.bleed for k, v in POD.items()}


def _finite(option: str, raw, *values: float) -> None:
    """UsageError unless every number given for ``option`` is finite (``nan``/``inf`` are not lengths)."""
    try:
        ok = all(math.isfinite(float(v)) for v in (values or (raw,)))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise UsageError(f"{option} {raw}: must be a finite number (not nan or inf)")


@dataclass(frozen=True)
class PrintOptions:
    """Every print choice. Lengths in mm. See ``tubedeck build sampler --help`` for each one."""

    paper: Paper = field(default_factory=lambda: parse_paper("a4"))
    orientation: str = "auto"  # auto: whichever orientation fits more cards (portrait on a tie)
    card: CardSize = CARD_SIZES["poker"]
    bleed: float = 0.0
    gap: float = 0.0
    marks: str = "short"  # short marks in the margin, to the printable edge, crosses at card corners, none
    corners: bool = False  # 3 mm rounded-corner cut guides on every card front of a sheet
    duplex: str = "long"  # long-edge flip mirrors columns, short-edge flip mirrors rows
    fold: bool = False  # fold-over sheets instead of duplex pages
    back_offset: tuple[float, float] = (0.0, 0.0)  # shift of back pages, for misregistering printers
    mode: Mode = Mode.COLOUR
    exports: tuple[str, ...] = ("pdf", "contact")
    pod: str | None = None  # "tgc" / "mpc": per-card exports use that shop's bleed and template size
    dpi: int = 300
    tts_url: str = "file:///"  # where the Tabletop Simulator export's images are found: GAME/tts/NAME.png after it
    title: str = "tubedeck"
    author: str = "tubedeck"

    @property
    def export_bleed(self) -> float:
        """Bleed of the per-card exports (PNG, SVG, one-card PDF): the shop's, else ``bleed``."""
        return POD[self.pod].bleed if self.pod else self.bleed

    def png_size(self, card: CardSize) -> tuple[int, int] | None:
        """The exact pixel size of a per-card PNG with a POD preset (None: from the card, bleed and dpi)."""
        return POD[self.pod].template(card) if self.pod else None

    @property
    def pdf_duplex(self) -> str:
        """The PDF ``/Duplex`` viewer preference for double-sided print-and-play pages."""
        return {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}.get(self.duplex, "Simplex")

    def with_(self, **changes) -> "PrintOptions":
        return replace(self, **changes)

    @classmethod
    def parse(cls, *, paper: str = "a4", orientation: str = "auto", card: str = "poker", bleed: float = 0.0,
              gap: float = 0.0, marks: str = "short", duplex: str = "long", fold: bool = False,
              back_offset: str = "0,0", mode: str = "colour", export: str = "pdf,contact",
              pod: str | None = None, dpi: int = 300, corners: bool = False,
              tts_url: str = "file:///") -> "PrintOptions":
        """Check and convert the CLI's strings; a UsageError names the bad option."""
        _finite("--bleed", bleed)
        _finite("--gap", gap)
        if orientation not in ORIENTATIONS:
            raise UsageError(f"--orientation must be one of {', '.join(ORIENTATIONS)}, not {orientation!r}")
        if not 0 <= bleed <= 6:
            raise UsageError(f"--bleed {bleed:g}: use 0 to 6 mm (3 is usual)")
        if not 0 <= gap <= 20:
            raise UsageError(f"--gap {gap:g}: use 0 to 20 mm")
        if marks not in MARKS:
            raise UsageError(f"--marks must be one of {', '.join(MARKS)}, not {marks!r}")
        if duplex not in DUPLEX:
            raise UsageError(f"--duplex must be one of {', '.join(DUPLEX)}, not {duplex!r}")
        try:
            dx, dy = (float(v) for v in back_offset.replace(" ", "").split(","))
        except ValueError:
            raise UsageError(f"--back-offset {back_offset!r}: use DX,DY in mm, e.g. 0.5,-1") from None
        _finite("--back-offset", back_offset, dx, dy)
        if abs(dx) > 10 or abs(dy) > 10:
            raise UsageError(f"--back-offset {back_offset!r}: at most 10 mm each way")
        exports = tuple(dict.fromkeys(e.lower() for e in names_list(export, "--export")))
        bad = [e for e in exports if e not in EXPORTS]
        if bad or not exports:
            raise UsageError(f"--export {export!r}: choose from {', '.join(EXPORTS)} (comma-separated)")
        if pod is not None:
            pod = pod.strip().lower()
            if pod not in POD:
                raise UsageError(f"--pod must be one of {', '.join(POD)}, not {pod!r}")
            exports = tuple(dict.fromkeys(exports + ("png", "cards")))
        _finite("--dpi", dpi)
        if not 72 <= dpi <= 1200:
            raise UsageError(f"--dpi {dpi}: use 72 to 1200")
        size = parse_card(card)
        if pod is not None:
            if dpi != POD[pod].dpi:
                raise UsageError(f"--pod {pod}: {POD[pod].shop} templates are {POD[pod].dpi} dpi; drop --dpi {dpi}")
            if bleed and bleed != POD[pod].bleed:  # never a --bleed taken and quietly not used
                raise UsageError(f"--pod {pod}: {POD[pod].shop} templates carry their own bleed "
                                 f"({POD[pod].bleed:g} mm), which the per-card exports use; drop --bleed {bleed:g} "
                                 "(or build the sheets with it in a run of their own)")
            POD[pod].template(size)  # refuse a card the shop has no template for, naming both
        return cls(paper=parse_paper(paper), orientation=orientation, card=size, bleed=float(bleed),
                   gap=float(gap), marks=marks, duplex=duplex, fold=fold, back_offset=(dx, dy),
                   mode=parse_mode(mode), exports=exports, pod=pod, dpi=dpi, corners=bool(corners),
                   tts_url=parse_tts_url(tts_url))


MAX_URL = 2000


def parse_tts_url(text: str) -> str:
    """``--tts-url``: the address the Tabletop Simulator images are loaded from (``GAME/tts/NAME``
    after it): a ``file:///`` folder or an ``http(s)://`` host, ending with ``/``."""
    text = text.strip()
    if not text.startswith(("file:///", "http://", "https://")) or len(text) > MAX_URL or any(c.isspace() for c in text):
        raise UsageError(f"--tts-url {text[:80]!r}: give a file:/// folder or an http(s):// address "
                         f"(at most {MAX_URL} characters, no spaces)")
    return text if text.endswith("/") else text + "/"
