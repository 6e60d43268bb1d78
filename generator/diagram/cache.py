"""Layouts kept by their cut's digest, so a rebuild does not solve again.

A layout is a pure function of its cut (stations, edges, lines, room), its :class:`Spec`, the
search's budget and the engine itself (:func:`engine`: a digest of its source, so any change to it
is a new key and nothing stale is ever read; the shipped layouts are then made again by
``python -m tubedeck.generator.diagram.ship``, and a test fails until they are), all hashed into
the key. Two places are read, in this order:

* the layouts that ship with tubedeck (``generator/diagram/cache/``): every map the bundled
  recipes and cities print, so ``make run`` solves nothing;
* the user's cache: ``$TUBEDECK_CACHE`` if set, else ``$XDG_CACHE_HOME/tubedeck/diagram`` (by
  default ``~/.cache/tubedeck/diagram``), where a new cut's layout is written (atomically; a
  cache that cannot be written is skipped, never an error).

A file that does not read as a layout of its cut is ignored and solved again.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

from .layout import Layout, Spec, lns
from .model import Cut

SHIPPED = Path(__file__).with_name("cache")


@lru_cache(maxsize=1)
def engine() -> str:
    """A digest of the engine's source (the model and the search): the layouts' version."""
    here = Path(__file__).parent
    body = b"".join((here / name).read_bytes() for name in ("layout.py", "model.py"))
    return hashlib.sha256(body).hexdigest()[:16]


def user_dir() -> Path:
    if os.environ.get("TUBEDECK_CACHE"):
        return Path(os.environ["TUBEDECK_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tubedeck" / "diagram"


def key(cut: Cut, spec: Spec, budget: float, seed: int = 0, first: int | None = None) -> str:
    body = json.dumps({"cut": cut.digest(), "spec": asdict(spec), "budget": budget, "engine": engine(),
                       **({"seed": seed} if seed else {}), **({"first": first} if first is not None else {})})
    return hashlib.sha256(body.encode()).hexdigest()[:32]


def _dump(layout: Layout) -> str:
    return json.dumps({"positions": {s: list(p) for s, p in sorted(layout.positions.items())},
                       "directions": [[a, b, d] for (a, b), d in sorted(layout.directions.items())],
                       "status": layout.status, "objective": layout.objective, "bends": layout.bends,
                       "stats": layout.stats}, indent=0, sort_keys=True)


def _load(text: str, cut: Cut) -> Layout | None:
    try:
        raw = json.loads(text)
        positions = {s: (int(p[0]), int(p[1])) for s, p in raw["positions"].items()}
        directions = {(str(a), str(b)): int(d) for a, b, d in raw["directions"]}
        layout = Layout(positions, directions, str(raw["status"]), float(raw["objective"]), 0.0, int(raw["bends"]),
                        {k: float(v) for k, v in raw["stats"].items()})
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    if set(positions) != set(cut.points) or set(directions) != {(e.a, e.b) for e in cut.edges}:
        return None
    return layout


def laid_out(cut: Cut, spec: Spec | None = None, *, budget: float = 3.0, seed: int = 0,
             first: int | None = None) -> tuple[Layout, bool]:
    """The layout of ``cut`` (:func:`.layout.lns` within ``budget`` deterministic seconds, CP-SAT's
    ``seed``, grown from the ``first`` stations nearest the middle if given) and whether it came from a cache."""
    spec = spec or Spec()
    name = key(cut, spec, budget, seed, first) + ".json"
    for folder in (SHIPPED, user_dir()):
        try:
            found = _load((folder / name).read_text(encoding="utf-8"), cut)
        except OSError:
            continue
        if found is not None:
            return found, True
    layout = lns(cut, spec, budget=budget, seed=seed, **({'first': first} if first is not None else {}))
    try:
        from tubedeck.atomic import write_text

        folder = user_dir()
        folder.mkdir(parents=True, exist_ok=True)
        write_text(folder / name, _dump(layout))
    except OSError:
        pass  # a cache we cannot write costs time, never the build
    return layout, False


__all__ = ["SHIPPED", "engine", "key", "laid_out", "user_dir"]
