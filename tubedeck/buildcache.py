"""A build of unchanged inputs is not made again: the output folder is kept, with a stamp.

After ``build GAME`` or ``build all`` writes ``OUT/GAME/``, a stamp in the user's cache
(``$TUBEDECK_BUILD_CACHE`` if it names a folder, else ``$XDG_CACHE_HOME/tubedeck/build``, by default
``~/.cache/tubedeck/build``; one file per output folder, named by a digest of its absolute path)
records the build's *key* (a digest of everything the files are made from), what it wrote (the
manifest) and the SHA-256 of every file in the folder. The next build of that game into the same
folder computes the key again; when it is the stamp's and the folder holds exactly the files the
stamp names, byte for byte, the game is not made again (its edition is not loaded, nothing is
drawn): the build reports the stamp's manifest. Anything else (no stamp, another key, a file
changed, missing or added) builds the game as before and writes a new stamp. ``OUT`` itself holds
only what the build writes.

The key covers: the game and its options as given, every print option, the dataset's files (the
``--data`` folder or the bundled data, which holds every game's content), the files a path option
names, the source of tubedeck itself (every file of the package, the print engine and the solvers
included: any code change is a new key), the Python version and the versions of the libraries that
draw, lay out or solve. A build is deterministic (the same inputs give the same bytes), so a kept
folder is what a new build would write. ``TUBEDECK_BUILD_CACHE=off`` builds every game every time.

Stamps are written atomically after the folder is swapped in; a stamp that does not read, or a
cache folder that cannot be written, is skipped, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

VERSION = 1  # of the stamp's layout
LIBRARIES = ("reportlab", "pymupdf", "networkx", "numpy", "ortools", "pillow", "typer")
_PACKAGE = Path(__file__).resolve().parent


OFF = ("0", "off", "no", "false")


def enabled() -> bool:
    return os.environ.get("TUBEDECK_BUILD_CACHE", "").strip().lower() not in OFF


def user_dir() -> Path:
    given = os.environ.get("TUBEDECK_BUILD_CACHE", "").strip()
    if given and given.lower() not in OFF:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tubedeck" / "build"


def _files(root: Path) -> list[Path]:
    """Every file under ``root`` (symbolic links to folders followed, as the package's generator/
    and solver/ are), sorted; compiled bytecode left out."""
    out = []
    for here, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        out += [Path(here) / n for n in names if not n.endswith((".pyc", ".pyo")) and not n.startswith(".")]
    return sorted(out)


def _file_digest(path: Path) -> bytes:
    """A source file's digest, read in blocks."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").digest()


def tree_digest(root: Path) -> str:
    """A digest of the source folder's files (their paths relative to it and their bytes)."""
    h = hashlib.sha256()
    for path in _files(root):
        h.update(str(path.relative_to(root)).encode() + b"\0")
        h.update(_file_digest(path))
    return h.hexdigest()


def _inputs(path: Path) -> str:
    """An input file or folder by its content: the digest results headers record
    (:func:`tubedeck.content.digest`: regular files only, streamed, bounded)."""
    from tubedeck.content import digest

    return digest(recurse=(path,))


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The source of tubedeck (the package folder: its modules, the print engine, the solvers,
    the shipped layouts), the Python version and the libraries' versions."""
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    body = json.dumps({"source": tree_digest(_PACKAGE), "python": sys.version, "libraries": versions})
    return hashlib.sha256(body.encode()).hexdigest()


def _value(value: Any) -> Any:
    """An option's value as the key sees it: a path by its contents as well as its name."""
    if isinstance(value, Path) or (isinstance(value, str) and value and os.path.exists(value)):
        path = Path(value)
        return {"path": str(path), "digest": _inputs(path) if path.exists() else None}
    return repr(value)


def build_key(game: str, options: Any, data: Path | str | None, own: dict) -> str:
    """The digest of everything ``OUT/game/`` is made from (the module docstring)."""
    from tubedeck.content import data_root, dataset_dir

    dataset = dataset_dir(data)
    if "tts" not in getattr(options, "exports", ("tts",)) and hasattr(options, "tts_url"):
        options = replace(options, tts_url=None)  # the default names OUT, which only a TTS export writes
    body = {"stamp": VERSION, "game": game, "own": {k: _value(v) for k, v in sorted(own.items())},
            "options": repr(options), "dataset": [str(dataset), _inputs(dataset) if dataset.exists() else None],
            "bundled": _inputs(data_root()), "code": code_digest()}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _stamp(out: Path, game: str) -> Path:
    where = str((out / game).resolve())
    return user_dir() / f"{hashlib.sha256(where.encode()).hexdigest()[:32]}.json"


def _written(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in _files(folder)}


def kept(out: Path, game: str, key: str) -> tuple[dict, list[str]] | None:
    """The manifest (as ``Manifest.as_dict`` gave it, without its root) and edition notes of
    ``OUT/game/`` when it was built from ``key`` and is unchanged since; None otherwise (build it)."""
    if not enabled():
        return None
    try:
        stamp = json.loads(_stamp(out, game).read_text(encoding="utf-8"))
        if stamp.get("version") != VERSION or stamp.get("key") != key:
            return None
        folder = out / game
        if not folder.is_dir() or _written(folder) != stamp["files"]:
            return None
        return dict(stamp["manifest"]), [str(n) for n in stamp.get("notes", [])]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def keep(out: Path, game: str, key: str, manifest: dict, notes: list[str]) -> None:
    """Write the stamp of a game just built (atomically); a stamp that cannot be written is skipped."""
    from tubedeck.atomic import write_text
    from tubedeck.errors import TubedeckError

    if not enabled():
        return
    try:
        stamp = {"version": VERSION, "key": key, "files": _written(out / game), "notes": list(notes),
                 "manifest": {k: v for k, v in manifest.items() if k != "root"}}
        write_text(_stamp(out, game), json.dumps(stamp, indent=1) + "\n")  # (the decks in print order)
    except (OSError, TubedeckError):  # (a full disk: the build stands, the next one is made again)
        pass


def forget(out: Path, game: str) -> None:
    """Drop a game's stamp (its folder is about to change without one)."""
    try:
        _stamp(out, game).unlink()
    except OSError:
        pass
