"""Data flows one way, and no module imports upward or in a circle.

Layers, lowest first (an arrow is "may import"):

* core (``tubedeck.errors, atomic, names, content, dataset, network, game``) -> core;
* the registry (``tubedeck.games``) -> core, and the games' declarations;
* a game's semantics (``tubedeck.games.<id>``) -> core and the same game only;
* the print engine (``tubedeck.generator.*`` but the per-game folders) -> core;
* a game's faces (``tubedeck.generator.<id>``) -> the engine, core, the same game's semantics;
* the solver toolkit (``tubedeck.solver.cpsat``, ``tubedeck.solver.runner``) -> core;
* a game's models (``tubedeck.solver.<id>``) -> the toolkit, core, the registry, the same game's semantics;
* the command line (``tubedeck.cli``) -> anything; nothing imports it but the launcher;
* the launcher (``tubedeck.__main__``, the console script: signal handlers, then the command line)
  -> core and the command line; nothing imports it.

Every ``import`` counts, including those inside functions (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tubedeck.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
# Each folder of the checkout and the package it installs as (tubedeck/generator and
# tubedeck/solver are links to the top-level folders, so those are walked once, as folders).
PACKAGES = {"tubedeck": "tubedeck", "generator": "tubedeck.generator", "solver": "tubedeck.solver"}
LINKS = ("generator", "solver")


def module_sources(root: Path = ROOT) -> dict[str, str]:
    out = {}
    for folder, package in PACKAGES.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            if folder == "tubedeck" and parts[0] in LINKS:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path.read_text(encoding="utf-8")
    return out


def imports(module: str, source: str, is_package: bool) -> set[str]:
    """Project modules imported by ``module`` (relative imports resolved)."""
    found = set()
    base = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                stem = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found |= {f"{stem}.{a.name}" for a in node.names}  # "from pkg import module"
    return {m for m in found if m.split(".")[0] == "tubedeck"}


def layer(module: str) -> tuple[str, str | None]:
    parts = module.split(".")
    if parts[:2] == ["tubedeck", "generator"]:
        return ("faces", parts[2]) if len(parts) > 2 and parts[2] in GAMES else ("engine", None)
    if parts[:2] == ["tubedeck", "solver"]:
        return ("models", parts[2]) if len(parts) > 2 and parts[2] in GAMES else ("toolkit", None)
    if parts[0] == "tubedeck":
        if parts[1:] == ["__main__"]:
            return "launcher", None
        if len(parts) > 1 and parts[1] == "cli":
            return "cli", None
        if len(parts) > 2 and parts[1] == "games":
            return "game", parts[2]
        if parts[1:] == ["games"]:
            return "registry", None
        return "core", None
    raise ValueError(module)


ALLOWED = {
    "core": {"core"},
    "registry": {"core", "game"},
    "game": {"core", "game"},
    "engine": {"core", "engine"},
    "faces": {"core", "engine", "faces", "game"},
    "toolkit": {"core", "toolkit"},
    "models": {"core", "toolkit", "registry", "models", "game"},
    "cli": {"core", "registry", "game", "engine", "faces", "toolkit", "models", "cli"},
    "launcher": {"core", "cli"},
}


def violations(sources: dict[str, str]) -> list[str]:
    """Every upward or cross-game import, and every import cycle, in ``{module: source}``."""
    packages = {m for m in sources if any(o.startswith(m + ".") for o in sources)}
    graph: dict[str, set[str]] = {}
    out = []
    for module, source in sources.items():
        deps = {d for d in imports(module, source, module in packages) if d in sources and d != module}
        graph[module] = deps
        kind, game = layer(module)
        for dep in sorted(deps):
            dkind, dgame = layer(dep)
            if dkind not in ALLOWED[kind]:
                out.append(f"{module} ({kind}) imports {dep} ({dkind})")
            elif kind == "registry" and dkind == "game" and dep.count(".") > 2:
                out.append(f"{module} (registry) imports {dep}: only a game's declaration")
            elif game is not None and dgame is not None and game != dgame:
                out.append(f"{module} ({kind} of {game}) imports {dep} of another game ({dgame})")
    # Cycles among modules, parents excepted (a package's __init__ may import its own modules).
    state: dict[str, int] = {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if d.startswith(m + "."):
                continue
            if state.get(d) == 1:
                out.append("import cycle: " + " -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return out


def test_the_project_keeps_its_layers():
    assert violations(module_sources()) == []


@pytest.mark.parametrize("module, source, expected", [
    ("tubedeck.games.klm.cards", "from tubedeck.generator.klm import faces\n",
     "imports tubedeck.generator.klm.faces (faces)"),
    ("tubedeck.network", "import tubedeck.solver.runner\n", "imports tubedeck.solver.runner (toolkit)"),
    ("tubedeck.generator.pen", "from tubedeck.games.oneday.board import Board\n", "(engine) imports tubedeck.games.oneday.board"),
    ("tubedeck.solver.klm.model", "from tubedeck.games.oneday.cards import StationCard\n", "of another game (oneday)"),
    ("tubedeck.generator.oneday.map", "from tubedeck.cli import main\n", "imports tubedeck.cli (cli)"),
    ("tubedeck.games.klm.setup", "from . import cards\n", None),
])
def test_a_broken_layer_is_caught(module, source, expected):
    sources = module_sources()
    sources[module] = source + sources[module]
    found = violations(sources)
    if expected is None:
        assert found == []
    else:
        assert any(expected in v for v in found), found


def test_a_cycle_is_caught():
    sources = module_sources()
    sources["tubedeck.errors"] = "from tubedeck import names\n" + sources["tubedeck.errors"]
    assert any(v.startswith("import cycle:") and "tubedeck.errors" in v for v in violations(sources))


def private_imports(sources: dict[str, str]) -> list[str]:
    """Every ``from M import _name`` of a project module (a private name is its module's own)."""
    out = []
    for module, source in sources.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom):
                out += [f"{module}:{node.lineno} imports {'.' * node.level}{node.module or ''}.{a.name}"
                        for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return out


def test_no_private_name_is_imported_across_modules():
    sources = module_sources()
    research = ROOT / "research"
    for path in sorted(research.rglob("*.py")):
        if "tests" not in path.parts:
            sources[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path.read_text(encoding="utf-8")
    assert private_imports(sources) == []
    sources["tubedeck.network"] = "from .errors import _hidden\n" + sources["tubedeck.network"]
    assert private_imports(sources) == ["tubedeck.network:1 imports .errors._hidden"]


def test_the_product_never_imports_research():
    """research/ does not ship: no module of the installed package names it (a lazy import too)."""
    found = []
    for module, source in module_sources().items():
        for node in ast.walk(ast.parse(source)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found += [f"{module} imports {n}" for n in names if n.split(".")[0] == "research"]
    assert found == []
