"""``tubedeck build all|GAME``: every registered game's print files through the one print engine.

The commands are generated from the registry: ``build GAME`` takes the shared print options
plus the game's declared edition options; ``build all`` validates the dataset, prints its
summary, then builds every game with faces (a game whose bundled content does not fit the
dataset is skipped with a note: NotApplicable).

A build over 2 s shows what it is at on stderr (:mod:`tubedeck.progress`: a live line on a
terminal, else a line every 10 s): the game whose edition is being made, then the file and page
being drawn. Not with --json (stderr stays quiet there, as it does for check and simulate).
"""

from __future__ import annotations

import contextlib
import inspect
import sys
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer

from tubedeck.atomic import staged_dir
from tubedeck.errors import NotApplicable, UsageError
from tubedeck.game import Game, edition, network, resolve
from tubedeck.games import registry
from tubedeck.progress import Progress, since_start, ticking
from tubedeck.words import names_list, plural

if TYPE_CHECKING:
    from tubedeck.generator import PrintOptions

from .options import ARGV, DataOpt, JsonOpt, check_choices, command, console, declared, parameter, print_json


def _opt(name: str, kind, default, *flags: str, help: str, **extra) -> inspect.Parameter:
    return parameter(name, Annotated[kind, typer.Option(*flags, help=help, **extra)], default)


PRINT_PARAMETERS = [
    _opt("paper", str, "a4", "--paper", help="Paper: a4 or letter."),
    _opt("orientation", str, "auto", "--orientation", help="auto (whichever fits more cards), portrait or landscape."),
    _opt("card", str, "poker", "--card", help="poker (63.5x88.9), bridge, mini, tarot, square, NAME-landscape, "
                                              "or WxH in mm (e.g. 60x90)."),
    _opt("bleed", float, 0.0, "--bleed", help="Bleed in mm, 0 to 6 (3 is usual): art extends past the trim."),
    _opt("gap", float, 0.0, "--gap", help="Gap between cards in mm (0: shared cut lines)."),
    _opt("marks", str, "short", "--marks", help="Cut marks: short, edge (to the printable edge, 6.35 mm in), "
                                                "crosses (at every card corner) or none."),
    _opt("corners", bool, False, "--corners", help="Rounded-corner cut guides (3 mm radius) on every card front."),
    _opt("duplex", str, "long", "--duplex", help="Backs: long (long-edge flip, columns mirrored), short (rows "
                                                 "mirrored) or none (fronts only)."),
    _opt("fold", bool, False, "--fold", help="Fold-over sheets (front and back side by side) for single-sided printers."),
    _opt("back_offset", str, "0,0", "--back-offset", help="Shift back pages by DX,DY mm: +DX right, +DY up, as the "
                                                          "back side reads (measure it: tubedeck build calibration)."),
    _opt("mode", str, "colour", "--mode", help="colour, ink-saver, greyscale or cmyk."),
    _opt("export", str, "pdf,contact", "--export", help="Comma-separated: pdf (sheets), cards (one card per page), "
                                                        "png, svg, contact, tuckbox, tts (Tabletop Simulator: "
                                                        "card sheets and a saved object in tts/)."),
    _opt("pod", Optional[str], None, "--pod", help="Print-on-demand preset for per-card exports: tgc (825x1125 px "
                                                   "poker, 1/8 in bleed) or mpc (822x1122 px, 0.12 in); adds png,cards."),
    _opt("dpi", int, 300, "--dpi", help="PNG resolution."),
    _opt("tts_url", Optional[str], None, "--tts-url", help="With --export tts: the address the images are loaded "
                                                           "from (default: the --out folder's own file:/// address, "
                                                           "so the saved object loads on this machine as written)."),
    _opt("out", Path, Path("output"), "--out", help="Output directory (GAME/ goes inside).", file_okay=False),
    parameter("data", DataOpt, None),
    parameter("as_json", JsonOpt, False),
]
_PRINT_NAMES = [p.name for p in PRINT_PARAMETERS]


@dataclass
class BuildJob:
    """What a build command received: checked print options, output directory, dataset, format."""

    options: "PrintOptions"
    out: Path
    data: Optional[Path] = None
    as_json: bool = False
    progress: Optional[Progress] = None  # set while :meth:`showing`
    bring: dict[str, tuple[str, ...]] = field(default_factory=dict)  # game -> its rulebook's "What to bring"
    notes: dict[str, list[str]] = field(default_factory=dict)  # game -> its edition's notes (kept with a build)

    @contextlib.contextmanager
    def showing(self, label: str, total: int | None = None) -> Iterator[None]:
        """Progress on stderr for what runs inside (none with --json); :meth:`tell` reports to it."""
        if self.as_json:
            yield
            return
        with Progress(label, total, since=since_start()) as progress, ticking(progress):
            self.progress = progress
            try:
                yield
            finally:
                self.progress = None

    def tell(self, **fields: Any) -> None:
        if self.progress is not None:
            self.progress.update(**fields)

    def render(self, name: str, documents: list, game: Game | None = None, index: bool = True):
        """Write ``documents`` to ``OUT/name/`` whole or not at all (built in a staging folder and
        swapped in); the manifest. On a terminal (not --json) each document's files are listed on
        stderr as they are written, so a long build shows what it has done. For a ``game``, its
        ``README.pdf`` (how to print it, from what was written) goes in too, and ``OUT/README.pdf``
        (every game folder under OUT) is written again, unless ``index`` is False (``build all``
        writes it once, after its last game)."""
        manifest = self._render(name, documents, game)
        if game is not None and index:
            self.index()
        return manifest

    def index(self) -> None:
        """Write ``OUT/README.pdf``: every game folder under OUT, read back from its PDFs."""
        from tubedeck.atomic import write_bytes
        from tubedeck.generator.howto import index_pdf

        data = index_pdf(self.out, self.options)
        if data is not None:
            write_bytes(self.out / "README.pdf", data)
            if not self.as_json and terminal():
                self._wrote(self.out / "README.pdf")

    @staticmethod
    def _wrote(path: Path, pages: int = 1) -> None:
        more = f" ({pages} pages)" if pages > 1 else ""
        console(stderr=True).print(f"[dim]wrote[/dim] {path}{more}", highlight=False, soft_wrap=True)

    def _render(self, name: str, documents: list, game: Game | None):
        from tubedeck.generator import render

        listing = not self.as_json and terminal()
        with staged_dir(self.out / name) as stage:
            if not listing:
                manifest = render(documents, self.options, stage / name, root=stage, progress=self.progress)
            else:
                from tubedeck.generator import Manifest

                manifest = Manifest(str(stage))
                for batch in batches(documents, "tts" in self.options.exports):
                    part = render(batch, self.options, stage / name, root=stage, progress=self.progress)
                    for f in part.files:
                        self._wrote(self.out / f.path, f.pages)
                    manifest.extend(part)
            if game is not None:
                from tubedeck.content import city_field, dataset_dir
                from tubedeck.generator.howto import game_page

                page = game_page(game=game.id, title=game.title, documents=documents, manifest=manifest,
                                 options=self.options, bring=self.bring.get(game.id, ()), players=game.seats,
                                 credit=city_field(dataset_dir(self.data), "attribution"))
                part = render([page], self.options, stage / name, root=stage, progress=self.progress)
                if listing:
                    for f in part.files:
                        self._wrote(self.out / f.path)
                manifest.extend(part)
        manifest.root = str(self.out)
        return manifest


def terminal() -> bool:
    """Is stderr a terminal (where ``build`` lists files as it writes them)?"""
    return sys.stderr.isatty()


def batches(documents: list, whole: bool = False) -> list[list]:
    """``documents`` cut into the runs the engine can render one after another with the same files
    as one call: the decks of a shared sheet (``Deck.share``) and everything between them stay
    together; ``whole`` (a TTS export, built over every document) or a repeated name (the engine
    refuses it) keeps one batch."""
    names = [d.name for d in documents]
    shares = [getattr(d, "share", None) for d in documents]
    if whole or len(set(names)) != len(names) or set(s for s in shares if s) & set(names):
        return [list(documents)] if documents else []
    last = {s: i for i, s in enumerate(shares) if s is not None}
    out: list[list] = []
    end = -1
    for i, doc in enumerate(documents):
        if i > end:
            out.append([])
        out[-1].append(doc)
        end = max(end, last.get(shares[i], i))
    return out


def job_from(values: dict) -> BuildJob:
    """Turn the shared options' raw values into a checked BuildJob (UsageError if bad)."""
    from tubedeck.generator import PrintOptions

    options = PrintOptions.parse(
        paper=values["paper"], orientation=values["orientation"], card=values["card"], bleed=values["bleed"],
        gap=values["gap"], marks=values["marks"], duplex=values["duplex"], fold=values["fold"],
        back_offset=values["back_offset"], mode=values["mode"], export=values["export"], pod=values["pod"],
        dpi=values["dpi"], corners=values["corners"],
        tts_url=values["tts_url"] or Path(values["out"]).resolve().as_uri() + "/")
    if values["tts_url"] and "tts" not in options.exports:
        raise UsageError("--tts-url is where the Tabletop Simulator export's images live: add --export tts")
    return BuildJob(options, Path(values["out"]), values["data"], values["as_json"])


def documents_of(game: Game, job: BuildJob, **options) -> list:
    """Build the game's edition (once per process) and hand it to its faces. An edition's
    ``notes`` (say, which generated-map candidates were refused) go to stderr, not with --json."""
    job.tell(at=f"{game.id} edition")
    ed = edition(game, job.data, **options)
    assert game.faces is not None, game.id
    docs = resolve(game.faces)(ed, job.options)
    if game.rulebook:
        from tubedeck.generator import rulebook

        job.tell(at=f"{game.id} rulebook")
        book = resolve(game.rulebook)(ed, job.options)
        job.bring[game.id] = tuple(rulebook.bring(book))
        docs = list(docs) + rulebook.documents(book, job.options)
    job.notes[game.id] = [str(n) for n in getattr(ed, "notes", ())]
    say_notes(game.id, job.notes[game.id], job.as_json)
    return docs


def say_notes(game: str, notes: list[str], as_json: bool) -> None:
    if not as_json:
        for note in notes:
            console(stderr=True).print(f"[dim]{game}[/dim]: {note}", soft_wrap=True, highlight=False)


def built(game: Game, job: BuildJob, documents: Callable[[], list], own: dict | None = None, index: bool = True):
    """``OUT/GAME/`` as :meth:`BuildJob.render` writes it from ``documents()``, unless the folder
    already holds the build of the same inputs (:mod:`tubedeck.buildcache`): then its manifest."""
    from tubedeck import buildcache

    key = buildcache.build_key(game.id, job.options, job.data, own or {})
    kept = buildcache.kept(job.out, game.id, key)
    try:
        manifest = _manifest(job.out, kept[0]) if kept is not None else None
    except (KeyError, TypeError, ValueError, AttributeError):  # a stamp that does not read: built again
        manifest = None
    if kept is not None and manifest is not None:
        notes = kept[1]
        say_notes(game.id, notes, job.as_json)
        if not job.as_json and terminal():
            for f in manifest.files:
                BuildJob._wrote(job.out / f.path, f.pages)
        if index:
            job.index()
        return manifest
    buildcache.forget(job.out, game.id)
    docs = documents()
    manifest = job.render(game.id, docs, game) if index else job.render(game.id, docs, game, index=False)
    buildcache.keep(job.out, game.id, key, manifest.as_dict(), job.notes.get(game.id, []))
    return manifest


def _manifest(out: Path, raw: dict):
    """A Manifest from the dict a stamp keeps (:meth:`Manifest.as_dict` less its root)."""
    from tubedeck.generator import Manifest
    from tubedeck.generator.engine import ManifestFile

    files = [ManifestFile(f["path"], f["kind"], f["pages"], f["document"], tuple(f.get("decks", ())),
                          f.get("shared_by", 0)) for f in raw["files"]]
    return Manifest(str(out), files, {k: list(v) for k, v in raw["decks"].items()}, dict(raw["layouts"]))


def buildable() -> dict[str, Callable[[BuildJob], list]]:
    """What ``build all`` builds: every registered game with faces, default options."""
    return {g.id: partial(documents_of, g) for g in registry().values() if g.faces}


# -- manifest ---------------------------------------------------------------------------------
def print_manifest(manifest, as_json: bool = False, tts_url: str | None = None) -> None:
    if as_json:
        print_json(manifest.as_dict())
        return
    out = console()
    root = Path(manifest.root)

    def say(text: str) -> None:  # whole lines (piped, rich wrapped at 80 columns with trailing spaces)
        out.print(text, soft_wrap=True, highlight=False)

    groups: "OrderedDict[tuple[str, str], list]" = OrderedDict()
    for f in manifest.files:
        key = (str(Path(f.path).parent) + "/", f.kind) if f.kind in ("png", "svg") else (f.path, f.kind)
        groups.setdefault(key, []).append(f)
    say(f"[bold]Wrote {plural(len(manifest.files), 'file')} under {root}/[/bold]")
    for (path, kind), files in groups.items():
        if kind in ("png", "svg"):
            say(f"  {root / path}  [dim]{plural(len(files), kind.upper() + ' file')}, one card face each[/dim]")
        else:
            say(f"  {root / path}  [dim]{plural(files[0].pages, 'page')} ({kind})[/dim]")
    for deck, cards in manifest.decks.items():
        layout = manifest.layouts.get(deck, "")
        say(f"[bold]{deck}[/bold]: {plural(len(cards), 'card')}" + (f" [dim]({layout})[/dim]" if layout else ""))
        shown = ", ".join(cards[:12]) + (f", ... ({len(cards) - 12} more; --json lists every card)" if len(cards) > 12 else "")
        say("  " + shown)
    if tts_url and any(f.kind == "tts-json" for f in manifest.files):
        say(f"Tabletop Simulator: the saved objects load their images from {tts_url}GAME/tts/ "
            "(--tts-url to load them from where you host them)")


# -- commands ---------------------------------------------------------------------------------
def build_all(values: dict) -> None:
    from tubedeck.generator import Manifest

    from .data import print_stats

    job = job_from(values)
    games = buildable()
    if not games:
        raise UsageError("no game with print files is registered")
    skip = list(names_list(values["skip"] or "", "--skip"))
    unknown = [g for g in skip if g not in games]
    if unknown:
        raise UsageError(f"--skip: no game {unknown[0]!r} to build (games: {', '.join(games)})")
    games = {name: documents for name, documents in games.items() if name not in skip}
    if not games:
        raise UsageError("--skip leaves no game to build")
    net = network(None if job.data is None else str(job.data))
    if not job.as_json:
        print_stats(net)
        sys.stdout.flush()  # the summary shows now, not with the manifest at the end
    manifest = Manifest(str(job.out))
    skipped: dict[str, str] = {}
    with job.showing("build all", total=len(games)):
        for done, (name, documents) in enumerate(games.items()):
            job.tell(done=done)
            try:
                game = registry().get(name)
                if game is None:  # (what is built is no registered game: nothing to keep it by)
                    manifest.extend(job.render(name, documents(job), None, index=False))
                else:
                    manifest.extend(built(game, job, partial(documents, job), index=False))
            except NotApplicable as exc:  # e.g. a London-only recipe on another city's data
                skipped[name] = str(exc)
                if not job.as_json:
                    console(stderr=True).print(f"[yellow]skipped {name}[/yellow]: {exc}")
                continue
    if len(skipped) == len(games):
        raise UsageError("no game could be built from this dataset: " + "; ".join(skipped.values()))
    job.index()
    if job.as_json:
        print_json(manifest.as_dict() | {"skipped": skipped})
    else:
        print_manifest(manifest, tts_url=job.options.tts_url)


PER_CARD = {"cards": "cards-pdf", "png": "png", "svg": "svg", "tuckbox": "tuckbox-pdf"}  # export -> its file kind


def unwritten(game: Game, exports: tuple[str, ...], manifest) -> list[str]:
    """A per-card export asked for that wrote nothing for this game (it prints no cards), in words:
    never an export that silently does nothing."""
    kinds = {f.kind for f in manifest.files}
    return [f"--export {e} writes one file per card, and {game.title} prints no cards: nothing written for it"
            for e, kind in PER_CARD.items() if e in exports and kind not in kinds]


def given(*names: str) -> bool:
    """Did the user type one of an option's ``names`` (``--map``, ``--map=3``), not leave it to its default?"""
    return any(arg == n or arg.startswith(n + "=" if n.startswith("--") else n) for arg in ARGV for n in names if n)


def build_game(game: Game, values: dict) -> None:
    own = {o.name: values.pop(o.name) for o in game.options}
    check_choices(game.options, own)
    # the edition gets the options given and those with a declared default (Next Station's --map 1,
    # as check, solve, play and simulate get it); one without takes the loader's own (None: the
    # recipe's scope, no challenge). So the loader can tell "--map classic" typed: it is no default.
    own = {o.name: own[o.name] for o in game.options if given(o.flag, o.short) or o.default is not None}
    facts, facts_from = values.pop("facts"), values.pop("facts_from")
    if values.pop("watch"):
        return watch_game(game, values, own)
    job = job_from(values)
    source = facts_source(game, facts_from) if facts or facts_from is not None else None  # before any work
    with job.showing(f"build {game.id}"):
        if source is not None:  # (a results file's sheet: built each time)
            docs = documents_of(game, job, **own)
            docs.append(facts_document(source))
            from tubedeck.buildcache import forget

            forget(job.out, game.id)
            manifest = job.render(game.id, docs, game)
        else:
            manifest = built(game, job, lambda: documents_of(game, job, **own), own)
    print_manifest(manifest, job.as_json, job.options.tts_url)
    if not job.as_json:
        for note in unwritten(game, job.options.exports, manifest):
            console(stderr=True).print(f"[yellow]{game.id}[/yellow]: {note}", soft_wrap=True, highlight=False)


def watch_game(game: Game, values: dict, own: dict) -> None:
    """``build GAME --watch``: the build, then again after each change to the dataset, the game's
    content folder or a file an option names (:mod:`tubedeck.watch`)."""
    from tubedeck.content import data_root, dataset_dir
    from tubedeck.watch import rebuild_command, run_build, watch

    job_from(values)  # the options are checked before the first build
    paths = [dataset_dir(values["data"]), data_root() / game.id]
    paths += [Path(v) for o in game.options if o.type == "path" and (v := own.get(o.name))]
    say = console(stderr=True)
    watch(paths, lambda: run_build(rebuild_command(ARGV)),
          say=lambda line: say.print(f"[bold]{game.id}[/bold] {line}", highlight=False, soft_wrap=True))


CHECKS = Path("output") / "checks"  # where check and simulate put results by default


def _what_is(path: Path) -> str:
    """What a path that is neither a regular file nor a folder is, in words."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return "no such file or folder"
    for test, words in ((stat.S_ISFIFO, "a FIFO (a named pipe)"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return f"{words}, not a results file"
    return "not a regular file"


def facts_source(game: Game, given: Path | None) -> Path:
    """The results file ``--facts`` reads: ``--facts-from`` (a results file of this game, or a folder
    to take its newest from), else the newest in ./output/checks/ (UsageError if none)."""
    from tubedeck.generator.report.facts import latest_results
    from tubedeck.results_file import header_of

    where = CHECKS if given is None else given
    if where.is_file():
        header = header_of(where)
        if not header or header.get("game") != game.id:
            raise UsageError(f"--facts-from {where}: not a results file of {game.id} (its header names "
                             f"{(header or {}).get('game', 'no game')!r})")
        return where
    if given is not None and not where.is_dir():
        raise UsageError(f"--facts-from {where}: {_what_is(where)}; give a results file or a folder of them")
    latest = latest_results(where, game.id)
    if latest is None:
        raise UsageError(f"--facts: no results of {game.id} in {where.absolute()}/; run 'tubedeck check {game.id}' "
                         f"or 'tubedeck simulate {game.id}' there first, or name a results file: "
                         f"--facts-from FILE")
    return latest


def facts_document(source: Path):
    """``--facts``: a sheet of the run and headline figures of the results file ``source``."""
    from tubedeck.games import record_schema
    from tubedeck.generator.report import facts_sheet

    return facts_sheet(source, record_schema)


CALIBRATION_NAMES = ("paper", "duplex", "back_offset", "mode", "out", "as_json")


def build_calibration(values: dict) -> None:
    """``build calibration``: OUT/calibration/calibration.pdf, the duplex calibration sheet."""
    from tubedeck.generator.calibration import calibration_sheet

    defaults = {p.name: p.default for p in PRINT_PARAMETERS}
    job = job_from({**defaults, **values, "export": "pdf"})
    with job.showing("build calibration"):
        manifest = job.render("calibration", [calibration_sheet(job.options)])
    print_manifest(manifest, job.as_json)


def register(build_app: typer.Typer) -> None:
    """``build all``, ``build calibration`` and one ``build GAME`` per registered game with faces."""
    skip = _opt("skip", Optional[str], None, "--skip", help="Games to leave out, comma-separated (to build them "
                                                             "on their own with their options: make run does).")
    build_app.command("all")(command("all", "Validate the dataset, print its summary, then build every game.",
                                     PRINT_PARAMETERS + [skip], build_all))
    build_app.command("calibration")(command(
        "calibration", "A duplex calibration sheet: print it double-sided, read the offset of the back, "
        "pass it as --back-offset DX,DY.", [p for p in PRINT_PARAMETERS if p.name in CALIBRATION_NAMES],
        build_calibration))
    for game in registry().values():
        if not game.faces:
            continue
        made = list(game.documents) + (["rulebook", "rulebook-booklet"] if game.rulebook else []) + ["README"]
        doc = f"Build {game.title}: {', '.join(made)}."
        params = [declared(o) for o in game.options] + PRINT_PARAMETERS + [_opt(
            "facts", bool, False, "--facts", help="Add deck-facts.pdf: the run and headline figures of the latest "
                                                  "check or simulation of this game in ./output/checks/."), _opt(
            "facts_from", Optional[Path], None, "--facts-from", help="Add deck-facts.pdf from this results file "
                                                                     "(or the newest of this game in this folder)."),
            _opt("watch", bool, False, "--watch", help="Build, then build again whenever the dataset, the game's "
                                                      "data folder or a file an option names changes (Ctrl-C stops).")]
        build_app.command(game.id)(command(f"build_{game.id}", doc, params,
                                           lambda values, game=game: build_game(game, values)))
