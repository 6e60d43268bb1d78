"""Atomic writes: a file, or a whole folder, appears whole or not at all.

Everything tubedeck writes goes to a temporary file in the target directory and is renamed into
place (``os.replace`` is atomic on POSIX and Windows), so an error or Ctrl-C never leaves a
half-written PDF, PNG or CSV behind. A game's build output goes further: it is written into a
staging folder next to the target and swapped in when complete (:func:`staged_dir`), so an
interrupted or failing build leaves the previous output as it was, never a mix of old and new.
A process killed outright (SIGKILL) can leave only our own hidden ``.NAME.*.part`` files and
``.NAME.staging-*`` folders, which the next build of that folder removes (it holds the folder's
lock, so nobody else is writing them). An unwritable destination, a full disk or a file in the
way is a :class:`UsageError` (exit 2) that names the path.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import IO, Iterator

from .errors import UsageError

try:  # POSIX advisory locks; on other systems runs are not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()
_PART = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.part$")


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def in_the_way(path: Path) -> str | None:
    """The first ancestor of ``path`` that exists but is not a directory (a file in the way)."""
    for parent in [path, *path.parents]:
        if parent.is_symlink() and not parent.exists():
            return f"{parent} is a dangling symbolic link"
        if parent.exists():
            return None if parent.is_dir() else f"{parent} is a file, not a folder"
    return None


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents); a clear error if that is impossible."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        blocker = in_the_way(path)
        raise UsageError(f"cannot create output directory {path}: {blocker or _why(exc)}") from None
    if not os.access(path, os.W_OK):
        raise UsageError(f"output directory {path} is not writable")
    return path


@contextlib.contextmanager
def atomic_open(path: Path | str, mode: str = "wb", encoding: str | None = None) -> Iterator[IO]:
    """Open a temporary sibling of ``path`` for writing; rename it onto ``path`` on success only."""
    path = Path(path)
    ensure_dir(path.parent)
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {_why(exc)}") from None
    try:
        try:
            with os.fdopen(fd, mode, encoding=encoding) as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, _FILE_MODE)  # mkstemp makes 0600; a finished file gets the usual 0666 & ~umask
            os.replace(tmp, path)
        except OSError as exc:  # a full disk (ENOSPC), a quota, an I/O error: nothing is left behind
            raise UsageError(f"cannot write {path}: {_why(exc)}") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_bytes(path: Path | str, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically."""
    with atomic_open(path, "wb") as fh:
        fh.write(data)
    return Path(path)


def write_text(path: Path | str, text: str) -> Path:
    """Write UTF-8 ``text`` to ``path`` atomically."""
    return write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def locked(path: Path, what: str) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) for the block; a second process
    asking for the same lock gets a UsageError at once instead of interleaving its writes. The
    lock file is removed when the block ends (builds left empty ``.GAME.lock`` files behind): a
    process that locked a file since unlinked finds the path no longer its file and gives way."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    ensure_dir(path.parent)
    busy = f"another tubedeck process is writing {what}; wait for it, or choose another path"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, _FILE_MODE)
    except OSError as exc:
        raise UsageError(f"cannot lock {path}: {_why(exc)}") from None
    held = False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(busy) from None
        mine = os.fstat(fd)
        try:
            now = os.stat(path)
        except FileNotFoundError:
            raise UsageError(busy) from None  # its holder finished and removed it as we opened it
        if (now.st_dev, now.st_ino) != (mine.st_dev, mine.st_ino):
            raise UsageError(busy)
        held = True
        yield
    finally:
        if held:
            with contextlib.suppress(OSError):
                os.unlink(path)
        os.close(fd)


def remove_stale(directory: Path, name: str) -> None:
    """Remove our own leftovers for ``name`` in ``directory``: ``.name.staging-*`` / ``.name.old-*``
    folders and ``.*.part`` temporaries (call it holding the folder's lock)."""
    if not directory.is_dir():
        return
    for entry in directory.iterdir():
        if entry.name.startswith((f".{name}.staging-", f".{name}.old-")) and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        elif _PART.match(entry.name) and entry.is_file():
            with contextlib.suppress(OSError):
                entry.unlink()


@contextlib.contextmanager
def staged_dir(target: Path) -> Iterator[Path]:
    """Build a folder's new contents in a staging area beside it; on success swap it in whole.

    Yields a staging root: write the new contents into ``root / target.name`` (so paths relative
    to the root read ``GAME/...`` as they will). On any error or interrupt the staging area is
    removed and ``target`` is left as it was."""
    parent = ensure_dir(target.parent)
    if target.exists() and not target.is_dir():
        raise UsageError(f"cannot write {target}: it is a file, not a folder")
    with locked(parent / f".{target.name}.lock", str(target)):
        remove_stale(parent, target.name)
        try:
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=parent))
        except OSError as exc:
            raise UsageError(f"cannot write {target}: {_why(exc)}") from None
        try:
            yield staging
            built = staging / target.name
            built.mkdir(exist_ok=True)
            os.chmod(built, 0o777 & ~_umask())
            old = None
            if target.exists():
                old = staging / ".old"
                os.replace(target, old)
            try:
                os.replace(built, target)
            except OSError:
                if old is not None:
                    os.replace(old, target)  # put the previous output back
                raise
        except OSError as exc:
            raise UsageError(f"cannot write {target}: {_why(exc)}") from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
