"""``render``: documents in, files out, and a manifest of what was written.

Every file is first made whole in memory, then written through :mod:`tubedeck.atomic`
(temporary file + rename), so an error or Ctrl-C never leaves a half-written file; a deck whose
text does not fit fails before anything of it is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tubedeck.atomic import ensure_dir, write_bytes

from . import export, pdf
from .document import Deck, Sheet
from .options import PrintOptions


@dataclass(frozen=True)
class ManifestFile:
    """One written file: path (relative to the output root), kind, page count, owning document."""

    path: str
    kind: str  # sheets-pdf | cards-pdf | png | svg | contact | sheet-pdf
    pages: int
    document: str


@dataclass
class Manifest:
    """Everything a build wrote, and the cards of each deck (ids in print order). Decks are keyed
    by their folder under the root and their name (``klm/stations``), so two games' decks called
    ``stations`` never collide."""

    root: str
    files: list[ManifestFile] = field(default_factory=list)
    decks: dict[str, list[str]] = field(default_factory=dict)
    layouts: dict[str, str] = field(default_factory=dict)

    def extend(self, other: "Manifest") -> None:
        self.files += other.files
        self.decks.update(other.decks)
        self.layouts.update(other.layouts)

    def as_dict(self) -> dict:
        return {
            "root": self.root,
            "files": [{"path": f.path, "kind": f.kind, "pages": f.pages, "document": f.document} for f in self.files],
            "decks": self.decks,
            "layouts": self.layouts,
        }


def render(documents: list[Deck | Sheet], options: PrintOptions, out_dir: Path | str,
           root: Path | str | None = None) -> Manifest:
    """Write every document's files under ``out_dir``; paths in the manifest are relative to
    ``root`` (default: ``out_dir``'s parent, so they read ``sampler/stations.pdf``)."""
    out = ensure_dir(Path(out_dir))
    base = Path(root) if root is not None else out.parent
    manifest = Manifest(str(base))

    def write(rel: str, data: bytes, kind: str, pages: int, doc: str) -> None:
        path = out / rel
        write_bytes(path, data)
        manifest.files.append(ManifestFile(str(path.relative_to(base)) if path.is_relative_to(base) else str(path),
                                           kind, pages, doc))

    folder = out.relative_to(base).as_posix() if out.is_relative_to(base) and out != base else ""
    prefix = f"{folder}/" if folder else ""
    names = [d.name for d in documents]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        from tubedeck.errors import UsageError
        raise UsageError(f"two documents share the name(s) {', '.join(dupes)}")

    for doc in documents:
        if isinstance(doc, Sheet):
            data, pages = pdf.sheet_pdf(doc, options)
            write(f"{doc.name}.pdf", data, "sheet-pdf", pages, doc.name)
            continue
        manifest.decks[prefix + doc.name] = [c.id for c in doc.printed()]
        _render_deck(doc, options, write, manifest, prefix)
    return manifest


def _render_deck(deck: Deck, options: PrintOptions, write, manifest: Manifest, prefix: str = "") -> None:
    # Build everything in memory first: a TextFitError in card 200 leaves no file of this deck.
    files: list[tuple[str, bytes, str, int]] = []
    if "pdf" in options.exports:
        data, pages, layout = pdf.deck_sheets_pdf(deck, options)
        files.append((f"{deck.name}.pdf", data, "sheets-pdf", pages))
        how = "fold-over" if layout.fold else (f"duplex {options.duplex}-edge" if layout.backs else "single-sided")
        manifest.layouts[prefix + deck.name] = (f"{layout.card.label()} on {layout.paper.name} {layout.paper.orientation}, "
                                       f"{layout.cols}x{layout.rows} per page, {how}")
    bleed = options.export_bleed
    size = pdf.deck_size(deck, options)
    faces = pdf.card_faces(deck)
    names = [f"{card.id}-{side}" for card, side, _ in faces]
    if {"cards", "png"} & set(options.exports):
        cards_pdf, pages = pdf.deck_cards_pdf(deck, options, bleed)
        if "cards" in options.exports:
            files.append((f"{deck.name}-cards.pdf", cards_pdf, "cards-pdf", pages))
        if "png" in options.exports:
            pngs = export.card_pngs(cards_pdf, size.width + 2 * bleed, size.height + 2 * bleed, options.dpi)
            files += [(f"png/{deck.name}/{n}.png", b, "png", 1) for n, b in zip(names, pngs)]
    if "svg" in options.exports:
        svgs = export.card_svgs(deck, options, bleed)
        files += [(f"svg/{deck.name}/{n}.svg", b, "svg", 1) for n, b in zip(names, svgs)]
    if "contact" in options.exports:
        files.append((f"{deck.name}-contact.png", export.contact_sheet(deck, options), "contact", 1))
    for rel, data, kind, pages in files:
        write(rel, data, kind, pages, deck.name)
