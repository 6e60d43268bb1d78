"""Advice that works for installing an optional extra, for the way tubedeck was installed.

tubedeck is not on a package registry, so ``pip install 'tubedeck[report]'`` cannot work. What
does: from a source tree (an editable install, ``make install``), the Makefile's ``install-EXTRA``
target; under pipx, ``pipx inject tubedeck PACKAGES``; otherwise pip into this interpreter's
environment, naming the extra's own packages (read from the installed metadata).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

__all__ = ["install_advice", "extra_requirements"]

ROOT = Path(__file__).resolve().parent.parent  # the source tree, when run from one


def extra_requirements(extra: str) -> list[str]:
    """The requirements of ``tubedeck[extra]`` as installed (``["matplotlib>=3.8"]``), else
    from the source tree's pyproject.toml; empty if neither names it."""
    try:
        from importlib.metadata import PackageNotFoundError, requires

        reqs = requires("tubedeck") or []
    except PackageNotFoundError:
        reqs = []
    marker = f'extra == "{extra}"'
    found = [r.split(";", 1)[0].strip() for r in reqs if marker in r.replace("'", '"')]
    if found:
        return found
    pyproject = ROOT / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        extras = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {}).get(
            "optional-dependencies", {})
        return list(extras.get(extra, []))
    return []


def source_tree() -> Path | None:
    """The source tree whose Makefile venv (``.venv``, what ``make install`` makes) runs tubedeck
    now, else None: its ``make install-EXTRA`` targets install into this very environment."""
    if not ((ROOT / "Makefile").is_file() and (ROOT / "pyproject.toml").is_file()):
        return None
    return ROOT if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve() else None


def pipx() -> bool:
    """Is this interpreter a pipx-managed environment (``.../pipx/venvs/tubedeck``)?"""
    return "pipx" in Path(sys.prefix).parts and Path(sys.prefix).parent.name == "venvs"


def install_advice(extra: str) -> str:
    """How to install ``tubedeck[extra]`` here, as one command a user can paste."""
    packages = " ".join(shlex.quote(r) for r in extra_requirements(extra)) or extra
    tree = source_tree()
    if tree is not None:
        return f"make -C {shlex.quote(str(tree))} install-{extra}"
    if pipx():
        return f"pipx inject tubedeck {packages}"
    return f"{shlex.quote(sys.executable)} -m pip install {packages}"
