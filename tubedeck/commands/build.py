"""``tubedeck build GAME``: every game's print files through the one print engine.

Games plug in with one line in their own command module::

    add_build_command(build_app, "mygame", mygame_documents, help="...")

or, for a command with options of its own, ``register_builder`` plus ``@print_command`` (see
``generator/README.md``). A builder is ``fn(options: PrintOptions, network) -> [Deck | Sheet]``;
``tubedeck build all`` validates the dataset, prints its summary and runs every builder.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import typer

from generator import Deck, Manifest, PrintOptions, Sheet, render
from generator.sampler import sampler_documents
from tubedeck.errors import NotApplicable, UsageError
from tubedeck.network import Network

from .common import DataOption, JsonOption, console, err_console, load_network, print_json
from .data import print_stats

Builder = Callable[[PrintOptions, Network], "list[Deck | Sheet]"]
_BUILDERS: "OrderedDict[str, Builder]" = OrderedDict()


def register_builder(name: str, fn: Builder) -> None:
    """Make ``fn`` part of ``tubedeck build all`` (its files go to ``OUT/name/``)."""
    if name in _BUILDERS and _BUILDERS[name] is not fn:
        raise ValueError(f"a builder named {name!r} is already registered")
    _BUILDERS[name] = fn


def builders() -> dict[str, Builder]:
    return dict(_BUILDERS)


@dataclass
class BuildJob:
    """What a build command received: print options, output directory, dataset, output format."""

    options: PrintOptions
    out: Path
    data: Optional[Path] = None
    as_json: bool = False
    _network: Optional[Network] = field(default=None, repr=False)

    def network(self) -> Network:
        if self._network is None:
            self._network = load_network(self.data)
        return self._network

    def render(self, name: str, builder: Builder) -> Manifest:
        """Run ``builder`` and write its documents to ``OUT/name/``; no printing."""
        return render(builder(self.options, self.network()), self.options, self.out / name, root=self.out)

    def run(self, name: str, builder: Builder) -> Manifest:
        """Render, then print the manifest (``--json``: as JSON)."""
        manifest = self.render(name, builder)
        print_manifest(manifest, self.as_json)
        return manifest


# -- shared options -------------------------------------------------------------------------
def _opt(name: str, annotation, default) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


PRINT_PARAMETERS = [
    _opt("paper", str, typer.Option("a4", "--paper", help="Paper: a4 or letter.")),
    _opt("orientation", str, typer.Option("auto", "--orientation",
                                          help="auto (whichever fits more cards), portrait or landscape.")),
    _opt("card", str, typer.Option("poker", "--card", help="poker (63.5x88.9), bridge, mini, tarot, square, "
                                                           "NAME-landscape, or WxH in mm (e.g. 60x90).")),
    _opt("bleed", float, typer.Option(0.0, "--bleed", help="Bleed in mm (0 or 3): art extends past the trim.")),
    _opt("gap", float, typer.Option(0.0, "--gap", help="Gap between cards in mm (0: shared cut lines).")),
    _opt("marks", str, typer.Option("short", "--marks", help="Cut marks: short, edge (to the paper edge) or none.")),
    _opt("duplex", str, typer.Option("long", "--duplex", help="Backs: long (long-edge flip, columns mirrored), "
                                                              "short (rows mirrored) or none (fronts only).")),
    _opt("fold", bool, typer.Option(False, "--fold", help="Fold-over sheets (front and back side by side) "
                                                          "for single-sided printers.")),
    _opt("back_offset", str, typer.Option("0,0", "--back-offset", help="Shift back pages by DX,DY mm "
                                                                       "(printer misregistration).")),
    _opt("mode", str, typer.Option("colour", "--mode", help="colour, ink-saver, greyscale or cmyk.")),
    _opt("export", str, typer.Option("pdf,contact", "--export", help="Comma-separated: pdf (sheets), cards "
                                     "(one card per page), png, svg, contact.")),
    _opt("pod", Optional[str], typer.Option(None, "--pod", help="Print-on-demand preset for per-card exports: "
                                            "tgc (825x1125 px poker) or mpc (822x1122 px); adds png,cards.")),
    _opt("dpi", int, typer.Option(300, "--dpi", help="PNG resolution.")),
    _opt("out", Path, typer.Option(Path("output"), "--out", help="Output directory (GAME/ goes inside).",
                                   file_okay=False)),
    _opt("data", Optional[Path], DataOption),
    _opt("as_json", bool, JsonOption),
]
_PRINT_NAMES = [p.name for p in PRINT_PARAMETERS]


def job_from(values: dict) -> BuildJob:
    """Turn the shared options' raw values into a checked BuildJob (UsageError if bad)."""
    options = PrintOptions.parse(
        paper=values["paper"], orientation=values["orientation"], card=values["card"], bleed=values["bleed"],
        gap=values["gap"], marks=values["marks"], duplex=values["duplex"], fold=values["fold"],
        back_offset=values["back_offset"], mode=values["mode"], export=values["export"], pod=values["pod"],
        dpi=values["dpi"])
    return BuildJob(options, Path(values["out"]), values["data"], values["as_json"])


def print_command(fn: Callable) -> Callable:
    """Decorator for a typer command taking ``job: BuildJob`` (plus any options of its own):
    adds every shared print option and hands the checked BuildJob in as ``job``."""
    sig = inspect.signature(fn)
    hints = typing.get_type_hints(fn)  # resolve string annotations in fn's own module
    own = [p.replace(annotation=hints.get(name, p.annotation)) for name, p in sig.parameters.items() if name != "job"]

    @functools.wraps(fn)
    def wrapper(**kwargs):
        shared = {name: kwargs.pop(name) for name in _PRINT_NAMES}
        return fn(job=job_from(shared), **kwargs)

    wrapper.__signature__ = sig.replace(parameters=own + PRINT_PARAMETERS)
    wrapper.__annotations__ = {p.name: p.annotation for p in own + PRINT_PARAMETERS}
    del wrapper.__wrapped__  # typer must see the new signature, not fn's
    return wrapper


def add_build_command(build_app: typer.Typer, name: str, fn: Builder, help: str = "") -> None:
    """Register ``fn`` for ``build all`` and add ``tubedeck build NAME`` with the shared options."""
    register_builder(name, fn)

    def command(job: BuildJob) -> None:
        job.run(name, fn)

    command.__doc__ = help or f"Build {name}'s print files."
    command.__name__ = f"build_{name.replace('-', '_')}"
    build_app.command(name)(print_command(command))


# -- manifest ---------------------------------------------------------------------------------
def print_manifest(manifest: Manifest, as_json: bool = False) -> None:
    if as_json:
        print_json(manifest.as_dict())
        return
    root = Path(manifest.root)
    groups: "OrderedDict[tuple[str, str], list]" = OrderedDict()
    for f in manifest.files:
        key = (str(Path(f.path).parent) + "/", f.kind) if f.kind in ("png", "svg") else (f.path, f.kind)
        groups.setdefault(key, []).append(f)
    console.print(f"[bold]Wrote {len(manifest.files)} files under {root}/[/bold]")
    for (path, kind), files in groups.items():
        if kind in ("png", "svg"):
            console.print(f"  {root / path}  [dim]{len(files)} {kind.upper()} files, one card face each[/dim]")
        else:
            pages = files[0].pages
            console.print(f"  {root / path}  [dim]{pages} page{'s' if pages != 1 else ''} ({kind})[/dim]")
    for deck, cards in manifest.decks.items():
        layout = manifest.layouts.get(deck, "")
        console.print(f"[bold]{deck}[/bold]: {len(cards)} cards" + (f" [dim]({layout})[/dim]" if layout else ""))
        shown = ", ".join(cards[:12]) + (f", ... ({len(cards) - 12} more; --json lists every card)" if len(cards) > 12 else "")
        console.print("  " + shown, soft_wrap=False, highlight=False)


# -- commands ---------------------------------------------------------------------------------
def register(build_app: typer.Typer, check_app: typer.Typer, solve_app: typer.Typer) -> None:
    """Add this module's commands to the shared groups."""
    add_build_command(build_app, "sampler", sampler_documents,
                      help="Build the sampler: a station-name card per station, and a lines sheet.")

    @build_app.command("all")
    @print_command
    def build_all(job: BuildJob) -> None:
        """Validate the dataset, print its summary, then build every registered game."""
        net = job.network()
        if not job.as_json:
            print_stats(net)
        if not _BUILDERS:
            raise UsageError("no game builders are registered")
        manifest = Manifest(str(job.out))
        skipped: dict[str, str] = {}
        for name, fn in _BUILDERS.items():
            try:
                manifest.extend(job.render(name, fn))
            except NotApplicable as exc:  # e.g. a London-only recipe on another city's data
                skipped[name] = str(exc)
                if not job.as_json:
                    err_console.print(f"[yellow]skipped {name}[/yellow]: {exc}")
        if len(skipped) == len(_BUILDERS):
            raise UsageError("no game could be built from this dataset: " + "; ".join(skipped.values()))
        if job.as_json:
            print_json(manifest.as_dict() | {"skipped": skipped})
        else:
            print_manifest(manifest)
