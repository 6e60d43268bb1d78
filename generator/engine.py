"""``render``: documents in, files out, and a manifest of what was written.

Every file is first made whole in memory, then written through :mod:`tubedeck.atomic`
(temporary file + rename), so an error or Ctrl-C never leaves a half-written file; a deck whose
text does not fit fails before anything of it is written.

Per deck: ``DECK.pdf`` (print-and-play sheets), ``DECK-contact.png``, and with ``--export``
``DECK-cards.pdf``, ``png/DECK/``, ``svg/DECK/``, ``DECK-tuckbox.pdf``; per build with ``--export tts``,
``tts/``: Tabletop Simulator card sheets, backs, boards and ``tts/GAME.json`` (:mod:`generator.tts`,
GAME = the output folder's name). Decks sharing a sheet
group (``Deck(share="GROUP")``) have no sheets of their own: ``GROUP.pdf`` holds all their cards
(the manifest lists its ``decks``); their other files stay per deck. A back shared by a deck's
cards is exported once, as ``png/DECK/back.png`` and ``svg/DECK/back.svg`` (the manifest gives
``shared_by``: how many cards use it); a card's own back is ``ID-back``.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from tubedeck.atomic import ensure_dir, write_bytes
from tubedeck.errors import UsageError

from . import export, pdf
from .document import Deck, Sheet
from .options import PrintOptions


@dataclass(frozen=True)
class ManifestFile:
    """One written file: path (relative to the output root), kind, page count, owning document.

    ``decks``: the decks a shared sheets PDF holds (keyed like :attr:`Manifest.decks`);
    ``shared_by``: for a deck's shared back (``back.png`` / ``back.svg``), how many cards use it."""

    path: str
    kind: str  # sheets-pdf | cards-pdf | png | svg | contact | sheet-pdf | tuckbox-pdf | tts-sheet | tts-back
    # | tts-board | tts-json
    pages: int
    document: str
    decks: tuple[str, ...] = ()
    shared_by: int = 0

    def as_dict(self) -> dict:
        out = {"path": self.path, "kind": self.kind, "pages": self.pages, "document": self.document}
        if self.decks:
            out["decks"] = list(self.decks)
        if self.shared_by:
            out["shared_by"] = self.shared_by
        return out


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
        return {"root": self.root, "files": [f.as_dict() for f in self.files], "decks": self.decks,
                "layouts": self.layouts}


@contextlib.contextmanager
def progress_bar(enabled: bool) -> Iterator[object | None]:
    """A rich progress bar on stderr while PNGs are rasterised; None (silent) unless ``enabled``
    and stderr is a terminal. It only prints: the files are the same with or without it."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        yield bar


def render(documents: list[Deck | Sheet], options: PrintOptions, out_dir: Path | str,
           root: Path | str | None = None, progress: bool = False) -> Manifest:
    """Write every document's files under ``out_dir``; paths in the manifest are relative to
    ``root`` (default: ``out_dir``'s parent, so they read ``sampler/stations.pdf``).
    ``progress=True`` shows a progress bar on stderr while PNGs are made (only on a terminal)."""
    out = ensure_dir(Path(out_dir))
    base = Path(root) if root is not None else out.parent
    manifest = Manifest(str(base))

    def write(rel: str, data: bytes, kind: str, pages: int, doc: str, **extra) -> None:
        path = out / rel
        write_bytes(path, data)
        manifest.files.append(ManifestFile(str(path.relative_to(base)) if path.is_relative_to(base) else str(path),
                                           kind, pages, doc, **extra))

    folder = out.relative_to(base).as_posix() if out.is_relative_to(base) and out != base else ""
    prefix = f"{folder}/" if folder else ""
    names = [d.name for d in documents]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise UsageError(f"two documents share the name(s) {', '.join(dupes)}")
    groups: dict[str, list[Deck]] = {}
    for doc in documents:
        if isinstance(doc, Deck) and doc.share is not None:
            groups.setdefault(doc.share, []).append(doc)
    for group, members in groups.items():
        if group in names and group not in {d.name for d in members}:
            raise UsageError(f"sheet group {group!r} has the name of another document: its {group}.pdf would clash")

    sheet_pdfs: dict[str, bytes] = {}  # kept for --export tts, which rasterises them
    with progress_bar(progress) as bar:
        for doc in documents:
            if isinstance(doc, Sheet):
                data, pages = pdf.sheet_pdf(doc, options)
                write(f"{doc.name}.pdf", data, "sheet-pdf", pages, doc.name)
                sheet_pdfs[doc.name] = data
                continue
            manifest.decks[prefix + doc.name] = [c.id for c in doc.printed()]
            if doc.share is not None and "pdf" in options.exports and doc is groups[doc.share][0]:
                _render_group(doc.share, groups[doc.share], options, write, manifest, prefix)
            _render_deck(doc, options, write, manifest, prefix, bar)
        if "tts" in options.exports:
            _render_tts(documents, options, write, out.name, bar, sheet_pdfs)
    return manifest


def _render_tts(documents: list[Deck | Sheet], options: PrintOptions, write, game: str, bar=None,
                sheet_pdfs: dict[str, bytes] | None = None) -> None:
    """``tts/``: the Tabletop Simulator export of every document, built whole before any is written."""
    from .tts import faces_to_render, tts_files

    tick = None
    if bar is not None:
        task = bar.add_task(f"TTS {game}", total=faces_to_render(documents))
        tick = lambda: bar.advance(task)  # noqa: E731
    for f in tts_files(documents, options, game, tick, sheet_pdfs):
        write(f.path, f.data, f.kind, 1, f.document)


def _describe(layout, options: PrintOptions) -> str:
    how = "fold-over" if layout.fold else (f"duplex {options.duplex}-edge" if layout.backs else "single-sided")
    return (f"{layout.card.label()} on {layout.paper.name} {layout.paper.orientation}, "
            f"{layout.cols}x{layout.rows} per page, {how}")


def _render_group(group: str, decks: list[Deck], options: PrintOptions, write, manifest: Manifest, prefix: str) -> None:
    """One sheets PDF for every deck of a sheet group, cards packed in document order."""
    title = " + ".join(d.title or d.name for d in decks)
    data, pages, layout = pdf.sheets_pdf(decks, options, title)
    keys = tuple(prefix + d.name for d in decks)
    write(f"{group}.pdf", data, "sheets-pdf", pages, group, decks=keys)
    for d in decks:
        others = [k for k in keys if k != prefix + d.name]
        manifest.layouts[prefix + d.name] = (_describe(layout, options) + f"; on {prefix}{group}.pdf"
                                             + (f" with {', '.join(others)}" if others else ""))


def _render_deck(deck: Deck, options: PrintOptions, write, manifest: Manifest, prefix: str = "", bar=None) -> None:
    # Build everything in memory first: a TextFitError in card 200 leaves no file of this deck.
    files: list[tuple[str, bytes, str, int, dict]] = []
    if "pdf" in options.exports and deck.share is None:
        data, pages, layout = pdf.deck_sheets_pdf(deck, options)
        files.append((f"{deck.name}.pdf", data, "sheets-pdf", pages, {}))
        manifest.layouts[prefix + deck.name] = _describe(layout, options)
    bleed = options.export_bleed
    size = pdf.deck_size(deck, options)
    faces = pdf.export_faces(deck)
    shared = {"shared_by": sum(1 for c in deck.cards if c.back is None)} if deck.back is not None else {}
    extras = [shared if stem == "back" else {} for _, stem, _, _ in faces]
    if {"cards", "png"} & set(options.exports):
        cards_pdf, pages = pdf.deck_cards_pdf(deck, options, bleed)
        if "cards" in options.exports:
            files.append((f"{deck.name}-cards.pdf", cards_pdf, "cards-pdf", pages, {}))
        if "png" in options.exports:
            px = options.png_size(size) or export.png_size(size.width + 2 * bleed, size.height + 2 * bleed, options.dpi)
            tick = None
            if bar is not None:
                task = bar.add_task(f"PNG {prefix}{deck.name}", total=len(faces))
                tick = lambda: bar.advance(task)  # noqa: E731
            pngs = export.card_pngs(cards_pdf, px, options.dpi, [page for page, *_ in faces], tick)
            files += [(f"png/{deck.name}/{stem}.png", b, "png", 1, x) for (_, stem, _, _), b, x in zip(faces, pngs, extras)]
    if "svg" in options.exports:
        svgs = export.card_svgs(deck, options, bleed)
        files += [(f"svg/{deck.name}/{stem}.svg", b, "svg", 1, x) for (_, stem, _, _), b, x in zip(faces, svgs, extras)]
    if "contact" in options.exports:
        files.append((f"{deck.name}-contact.png", export.contact_sheet(deck, options), "contact", 1, {}))
    if "tuckbox" in options.exports:
        from .tuckbox import tuckbox_pdf

        data, pages = tuckbox_pdf(deck, options)
        files.append((f"{deck.name}-tuckbox.pdf", data, "tuckbox-pdf", pages, {}))
    for rel, data, kind, pages, extra in files:
        write(rel, data, kind, pages, deck.name, **extra)
