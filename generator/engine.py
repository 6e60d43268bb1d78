"""``render``: documents in, files out, and a manifest of what was written.

Every file is first made whole in memory, then written through :mod:`tubedeck.atomic`
(temporary file + rename), so an error or Ctrl-C never leaves a half-written file; a deck whose
text does not fit fails before anything of it is written.

Per deck: ``DECK.pdf`` (print-and-play sheets), ``DECK-contact.png``, and with ``--export``
``DECK-cards.pdf``, ``png/DECK/``, ``svg/DECK/``, ``DECK-tuckbox.pdf``; per build with ``--export tts``,
``tts/``: Tabletop Simulator card sheets, backs, boards and ``tts/GAME.json`` (:mod:`tubedeck.generator.tts`,
GAME = the output folder's name). Decks sharing a sheet
group (``Deck(share="GROUP")``) have no sheets of their own: ``GROUP.pdf`` holds all their cards
(the manifest lists its ``decks``); their other files stay per deck. A back shared by a deck's
cards is exported once, as ``png/DECK/back.png`` and ``svg/DECK/back.svg`` (the manifest gives
``shared_by``: how many cards use it); a card's own back is ``ID-back``.

Progress: given a :class:`tubedeck.progress.Progress`, ``render`` reports the file it is drawing
and where it is in it (``at klm/stations.pdf page 12/62``, ``at klm/png/stations 40/273``); the
Progress decides what shows (nothing for 2 s, then a live line on a terminal, else a plain line
on stderr every 10 s). Only stderr: the files are the same bytes with or without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tubedeck.atomic import ensure_dir, write_bytes
from tubedeck.errors import UsageError
from tubedeck.progress import Progress

from . import export, pdf
from .document import Deck, Pages
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


class Steps:
    """Where a render is, told to a :class:`Progress` (``None``: told to no one). ``at(what)`` gives
    the ``step(i, n)`` callback the drawing functions take: ``at klm/stations.pdf page 12/62``."""

    def __init__(self, progress: Progress | None):
        self.progress = progress

    def at(self, what: str, unit: str = "") -> pdf.Step | None:
        progress = self.progress
        if progress is None:
            return None
        unit = f" {unit}" if unit else ""
        return lambda i, n: progress.update(at=f"{what}{unit} {i}/{n}")

    def tick(self, what: str, total: int):
        """A ``tick()`` callback (one more of ``total``) for the functions that count that way."""
        step = self.at(what)
        if step is None:
            return None
        count = [0]

        def tick() -> None:
            count[0] += 1
            step(count[0], total)
        return tick


def render(documents: list[Deck | Pages], options: PrintOptions, out_dir: Path | str,
           root: Path | str | None = None, progress: Progress | bool | None = None) -> Manifest:
    """Write every document's files under ``out_dir``; paths in the manifest are relative to
    ``root`` (default: ``out_dir``'s parent, so they read ``sampler/stations.pdf``).
    ``progress``: a :class:`Progress` to report to (the caller's, spanning more than this call), or
    True for one of this call's own (``build OUT_DIR``); it only ever prints to stderr."""
    if progress is True:
        with Progress(f"build {Path(out_dir).name}") as own:
            return render(documents, options, out_dir, root, own)
    steps = Steps(progress if isinstance(progress, Progress) else None)
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
    for doc in documents:
        if isinstance(doc, Pages):
            data, pages = pdf.sheet_pdf(doc, options, steps.at(f"{prefix}{doc.name}.pdf", "page"))
            write(f"{doc.name}.pdf", data, "sheet-pdf", pages, doc.name)
            sheet_pdfs[doc.name] = data
            continue
        manifest.decks[prefix + doc.name] = [c.id for c in doc.printed()]
        if doc.share is not None and "pdf" in options.exports and doc is groups[doc.share][0]:
            _render_group(doc.share, groups[doc.share], options, write, manifest, prefix, steps)
        _render_deck(doc, options, write, manifest, prefix, steps)
    if "tts" in options.exports:
        _render_tts(documents, options, write, out.name, steps, sheet_pdfs, prefix)
    return manifest


def _render_tts(documents: list[Deck | Pages], options: PrintOptions, write, game: str, steps: Steps | None = None,
                sheet_pdfs: dict[str, bytes] | None = None, prefix: str = "") -> None:
    """``tts/``: the Tabletop Simulator export of every document, built whole before any is written."""
    from .tts import faces_to_render, tts_files

    tick = None if steps is None else steps.tick(f"{prefix}tts face", faces_to_render(documents))
    for f in tts_files(documents, options, game, tick, sheet_pdfs):
        write(f.path, f.data, f.kind, 1, f.document)


def _describe(layout, options: PrintOptions) -> str:
    how = "fold-over" if layout.fold else (f"duplex {options.duplex}-edge" if layout.backs else "single-sided")
    return (f"{layout.card.label()} on {layout.paper.name} {layout.paper.orientation}, "
            f"{layout.cols}x{layout.rows} per page, {how}")


def _render_group(group: str, decks: list[Deck], options: PrintOptions, write, manifest: Manifest, prefix: str,
                  steps: Steps | None = None) -> None:
    """One sheets PDF for every deck of a sheet group, cards packed in document order."""
    title = " + ".join(d.title or d.name for d in decks)
    step = None if steps is None else steps.at(f"{prefix}{group}.pdf", "page")
    data, pages, layout = pdf.sheets_pdf(decks, options, title, step)
    keys = tuple(prefix + d.name for d in decks)
    write(f"{group}.pdf", data, "sheets-pdf", pages, group, decks=keys)
    for d in decks:
        others = [k for k in keys if k != prefix + d.name]
        manifest.layouts[prefix + d.name] = (_describe(layout, options) + f"; on {prefix}{group}.pdf"
                                             + (f" with {', '.join(others)}" if others else ""))


def _render_deck(deck: Deck, options: PrintOptions, write, manifest: Manifest, prefix: str = "",
                 steps: Steps | None = None) -> None:
    # Build everything in memory first: a TextFitError in card 200 leaves no file of this deck.
    steps = steps or Steps(None)
    files: list[tuple[str, bytes, str, int, dict]] = []
    if "pdf" in options.exports and deck.share is None:
        data, pages, layout = pdf.deck_sheets_pdf(deck, options, steps.at(f"{prefix}{deck.name}.pdf", "page"))
        files.append((f"{deck.name}.pdf", data, "sheets-pdf", pages, {}))
        manifest.layouts[prefix + deck.name] = _describe(layout, options)
    bleed = options.export_bleed
    size = pdf.deck_size(deck, options)
    faces = pdf.export_faces(deck)
    shared = {"shared_by": sum(1 for c in deck.cards if c.back is None)} if deck.back is not None else {}
    extras = [shared if stem == "back" else {} for _, stem, _, _ in faces]
    if {"cards", "png"} & set(options.exports):
        drawn = f"{prefix}{deck.name}-cards.pdf" if "cards" in options.exports else f"{prefix}png/{deck.name}"
        cards_pdf, pages = pdf.deck_cards_pdf(deck, options, bleed, steps.at(drawn, "face" if "cards" not in
                                                                                  options.exports else "page"))
        if "cards" in options.exports:
            files.append((f"{deck.name}-cards.pdf", cards_pdf, "cards-pdf", pages, {}))
        if "png" in options.exports:
            px = options.png_size(size) or export.png_size(size.width + 2 * bleed, size.height + 2 * bleed, options.dpi)
            pngs = export.card_pngs(cards_pdf, px, options.dpi, [page for page, *_ in faces],
                                    steps.at(f"{prefix}png/{deck.name}", "PNG"))
            files += [(f"png/{deck.name}/{stem}.png", b, "png", 1, x) for (_, stem, _, _), b, x in zip(faces, pngs, extras)]
    if "svg" in options.exports:
        svgs = export.card_svgs(deck, options, bleed, steps.at(f"{prefix}svg/{deck.name}", "SVG"))
        files += [(f"svg/{deck.name}/{stem}.svg", b, "svg", 1, x) for (_, stem, _, _), b, x in zip(faces, svgs, extras)]
    if "contact" in options.exports:
        contact = export.contact_sheet(deck, options, steps.at(f"{prefix}{deck.name}-contact.png", "card"))
        files.append((f"{deck.name}-contact.png", contact, "contact", 1, {}))
    if "tuckbox" in options.exports:
        from .tuckbox import tuckbox_pdf

        if steps.progress is not None:
            steps.progress.update(at=f"{prefix}{deck.name}-tuckbox.pdf")
        data, pages = tuckbox_pdf(deck, options)
        files.append((f"{deck.name}-tuckbox.pdf", data, "tuckbox-pdf", pages, {}))
    for rel, data, kind, pages, extra in files:
        write(rel, data, kind, pages, deck.name, **extra)
