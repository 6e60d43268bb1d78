"""The documentation against the code: README.md's game table follows the game registry, its
command list follows the command line, every ``tubedeck`` command shown in README.md or docs/
exists with the options it shows, and every output file the docs name is one a build writes.

The file names come from real builds (the Makefile's ``run`` target and a calibration sheet, run
once into a temporary folder) plus the engine's per-deck export names (``DECK-cards.pdf``,
``png/DECK/ID-front.png``, ... : see ``generator/engine.py``), which one real export build checks.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tubedeck.games import registry

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
VERBS = ("build", "play", "simulate", "solve", "check")


# ---------------------------------------------------------------------------------------------
# Reading markdown: sections, tables, code (fenced lines and inline spans), each with its line


def _section(text: str, heading: str) -> tuple[str, int]:
    """The body of ``## heading`` (to the next ``## ``) and the line number it starts on."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"## {heading}":
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("## ")), len(lines))
            return "\n".join(lines[i + 1:end]), i + 2
    raise AssertionError(f"README.md has no '## {heading}' section")


def _table_rows(body: str, first_line: int) -> list[tuple[int, list[str]]]:
    """The rows of the first table in ``body`` (header and separator left out) as cells, with
    their line numbers; ``\\|`` inside a cell is a literal bar."""
    rows = []
    for k, line in enumerate(body.splitlines()):
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        rows.append((first_line + k, cells))
    assert len(rows) >= 2, "no table found"
    return rows[2:]


def _spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _code(path: Path) -> list[tuple[int, str]]:
    """Every piece of code in a markdown file with its line number: each line of a fenced block
    (its ``#`` comment cut off) and each inline code span (``\\|`` read as a bar)."""
    text = path.read_text(encoding="utf-8")
    out: list[tuple[int, str]] = []
    prose: list[str] = []
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            prose.append("")
        elif fenced:
            out.append((n, re.split(r"\s#\s", line, maxsplit=1)[0]))
            prose.append("")
        else:
            prose.append(line)
    joined = "\n".join(prose)
    for m in re.finditer(r"(`+)(.+?)\1", joined, re.S):
        out.append((joined.count("\n", 0, m.start()) + 1, m.group(2).replace("\\|", "|")))
    return out


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------------------------------------
# The command line, from the typer app itself


@pytest.fixture(scope="module")
def cli():
    import typer

    from tubedeck.cli import app

    return typer.main.get_command(app)


def _options(command) -> set[str]:
    names = {"-h", "--help"}
    for p in command.params:
        names |= set(getattr(p, "opts", ())) | set(getattr(p, "secondary_opts", ()))
    return names


def _played() -> dict:
    return {ident: g for ident, g in registry().items() if g.players}


def _registered(game) -> set[tuple[str, str]]:
    """(verb, command) pairs the registry declares for a game, its build included."""
    pairs = {("build", game.id)}
    for verb, commands in (("play", game.plays), ("simulate", game.simulations), ("solve", game.solves),
                           ("check", game.checks)):
        pairs |= {(verb, c.name) for c in commands}
    return pairs


def _players(span: tuple[int, int]) -> str:
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"


# ---------------------------------------------------------------------------------------------
# (a) the game table is the registry


def test_readme_game_table_is_the_registry():
    """README.md's "The games" table (columns: id, game, players, what make run prints, play-test
    commands) has one row per played game of the registry, with its title, its players and
    exactly the build/play/simulate/solve/check commands the registry declares for it."""
    body, first = _section(README.read_text(encoding="utf-8"), "The games")
    rows = _table_rows(body, first)
    played = _played()
    problems = []
    shown: dict[str, int] = {}
    for line, cells in rows:
        ident = _spans(cells[0])[0] if _spans(cells[0]) else cells[0]
        if ident not in played:
            problems.append(f"README.md:{line}: the game table lists {ident!r}, which the registry does not play "
                            f"(played games: {', '.join(played)})")
            continue
        shown[ident] = line
        game = played[ident]
        if cells[1] != game.title:
            problems.append(f"README.md:{line}: {ident} is titled {cells[1]!r}; the registry says {game.title!r}")
        if cells[2] != _players(game.players):
            problems.append(f"README.md:{line}: {ident} players {cells[2]!r}; the registry says "
                            f"{_players(game.players)!r}")
        commands = set()
        for span in _spans(cells[-1]):
            words = span.split()
            if words and words[0] == "tubedeck":
                words = words[1:]
            if len(words) >= 2 and words[0] in VERBS:
                commands.add((words[0], words[1]))
            else:
                problems.append(f"README.md:{line}: {ident}'s play-test cell shows `{span}`, not a "
                                f"'{'|'.join(VERBS)} NAME' command")
        declared = _registered(game)
        for verb, name in sorted(commands - declared):
            problems.append(f"README.md:{line}: {ident}'s row shows `{verb} {name}`, which the registry does not "
                            f"declare for {ident} (it declares: {', '.join(' '.join(p) for p in sorted(declared))})")
        for verb, name in sorted(declared - commands):
            problems.append(f"README.md:{line}: {ident}'s row leaves out `{verb} {name}` (declared in the registry)")
    for ident in played:
        if ident not in shown:
            problems.append(f"README.md: the game table leaves out {ident!r} ({played[ident].title})")
    assert not problems, "\n".join(problems)


def test_readme_shows_every_registered_command_in_full():
    """Each game's play/simulate/solve/check commands, and its build, appear as a full
    ``tubedeck VERB NAME`` command somewhere in README.md's code."""
    shown = set()
    for _, code in _code(README):
        for m in re.finditer(r"(?<![\w/.`-])tubedeck\s+(\w+)\s+([\w-]+)", code):
            shown.add((m.group(1), m.group(2)))
    missing = [f"`tubedeck {verb} {name}` ({ident})" for ident, game in _played().items()
               for verb, name in sorted(_registered(game)) if (verb, name) not in shown]
    assert not missing, "README.md shows no full command for: " + ", ".join(missing)


# ---------------------------------------------------------------------------------------------
# (b) the command list is the command line


def test_readme_command_list_is_the_cli(cli):
    body, first = _section(README.read_text(encoding="utf-8"), "Commands")
    listed: dict[str, int] = {}
    problems = []
    for line, cells in _table_rows(body, first):
        words = (_spans(cells[0]) or [""])[0].split()
        if len(words) < 2 or words[0] != "tubedeck":
            problems.append(f"README.md:{line}: the command list's row {cells[0]!r} names no `tubedeck COMMAND`")
            continue
        listed[words[1]] = line
        if not cells[1].strip():
            problems.append(f"README.md:{line}: `tubedeck {words[1]}` has no purpose")
    actual = set(cli.commands)
    for name in sorted(set(listed) - actual):
        problems.append(f"README.md:{listed[name]}: the command list names `tubedeck {name}`, which the command "
                        f"line does not have (it has: {', '.join(sorted(actual))})")
    for name in sorted(actual - set(listed)):
        problems.append(f"README.md: the command list leaves out `tubedeck {name}`")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Every `tubedeck ...` command in README.md and docs/: its command exists, and so does each option


def _commands_in(path: Path):
    """(line, words after ``tubedeck``) for every command shown in the file's code (``pipx inject
    tubedeck PACKAGE`` names pipx's environment, not a command)."""
    for line, code in _code(path):
        for m in re.finditer(r"(?<![\w/.`'\[-])(?<!inject )(?:\.venv/bin/)?tubedeck(?=\s|$)", code):
            rest = re.split(r"(?<![\w/.`'\[-])(?:\.venv/bin/)?tubedeck(?=\s|$)|;|&&|\|\|", code[m.end():])[0]
            yield line, rest


def _leaves(cli, words: list[str]):
    """The click commands a command's words name (``a|b`` alternatives; an upper-case word such
    as GAME stands for every game's command), or an error message."""
    if not words or words[0].startswith("-"):
        return [cli], None
    top = words[0].rstrip(":,;)")
    if top == "..." or top.isupper():  # `tubedeck ...`, `tubedeck COMMAND`: any command
        return [], None
    top = top.rstrip(".")
    if top not in cli.commands:
        return [], f"`tubedeck {top}`: no such command (the command line has: {', '.join(cli.commands)})"
    command = cli.commands[top]
    if not hasattr(command, "commands"):
        return [command], None
    if len(words) < 2 or words[1].startswith(("-", "[")):
        return [command], None
    leaves = []
    for name in words[1].strip(".,;:)").split("|"):
        if name.isupper():
            leaves += [c for n, c in command.commands.items() if n in registry()]
        elif name in command.commands:
            leaves.append(command.commands[name])
        else:
            return [], (f"`tubedeck {top} {name}`: no such command (`tubedeck {top}` has: "
                        f"{', '.join(command.commands)})")
    return leaves, None


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: _rel(p))
def test_commands_shown_exist_with_their_options(cli, path):
    problems = []
    for line, rest in _commands_in(path):
        words = rest.split()
        leaves, error = _leaves(cli, words)
        if error:
            problems.append(f"{_rel(path)}:{line}: {error}")
            continue
        for flag in sorted(set(re.findall(r"(?:^|(?<=[\s\[(|]))(--[a-z][a-z0-9-]*|-[a-z](?![\w-]))", rest))):
            for leaf in leaves:
                if flag not in _options(leaf):
                    problems.append(f"{_rel(path)}:{line}: `tubedeck {' '.join(words[:2])}`: {flag} is not an "
                                    f"option of `{leaf.name}`")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# (c) every output file named in README.md and docs/ is one that a build writes


def _tubedeck(jobs: list[list[str]], folder: Path) -> list[dict]:
    """Run ``tubedeck ARGS --json`` for every job at once, each in its own folder
    (``folder/<k>/``, its --out ``folder/<k>/output``); their JSON answers, in order."""
    code = "import sys; from tubedeck.cli import main; sys.exit(main())"
    running = []
    for k, args in enumerate(jobs):
        cwd = folder / str(k)
        cwd.mkdir()
        if args[0] == "build":
            args = [a for i, a in enumerate(args) if a != "--out" and (i == 0 or args[i - 1] != "--out")]
            args += ["--out", str(cwd / "output")]
        running.append((args, subprocess.Popen([sys.executable, "-c", code, *args, "--json"], cwd=cwd, text=True,
                                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)))
    answers = []
    for args, proc in running:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, f"tubedeck {shlex.join(args)} failed:\n{err[-2000:]}"
        answers.append(json.loads(out))
    return answers


def _makefile_builds() -> list[list[str]]:
    """The ``tubedeck build`` commands of the Makefile's ``run`` target, as arguments."""
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe, "the Makefile has no run target"
    builds = [shlex.split(line.split("tubedeck", 1)[1]) for line in recipe.group(1).splitlines()
              if "tubedeck build" in line]
    assert builds, "the Makefile's run target builds nothing"
    return builds


def _other_writers(cli) -> dict[str, str]:
    """Files commands other than a build write, each found in the command line's own help (so a
    renamed file fails here): report's page and PDF, and --facts."""
    helps = []

    def walk(command):
        helps.extend(getattr(p, "help", None) or "" for p in command.params)
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(cli)
    text = " ".join(helps)
    for name in ("report.html", "report.pdf", "deck-facts.pdf"):
        assert name in text, f"no command's help mentions {name} any more: update tests/test_docs.py"
    return {"report/report.html": "tubedeck report", "report/report.pdf": "tubedeck report",
            "GAME/deck-facts.pdf": "tubedeck build GAME --facts"}


@pytest.fixture(scope="module")
def written(tmp_path_factory, cli) -> list[str]:
    """Every file path (relative to --out, e.g. ``klm/stations.pdf``) that tubedeck writes there:
    what the Makefile's ``run`` target and a calibration sheet build, a one-deal check's results
    file, the engine's export names for every deck (checked against a real export build of a
    small deck), and what ``report`` and ``build --facts`` write."""
    folder = tmp_path_factory.mktemp("docs-build")
    started = time.perf_counter()
    builds = _makefile_builds() + [["build", "calibration"]]
    export = ["build", "klm", "--scope", "victoria", "--export", "pdf,cards,png,svg,contact,tuckbox,tts", "--dpi", "72"]
    check = ["check", "klm", "--deals", "1", "--players", "2", "--scope", "victoria", "--no-progress"]
    tts = ["build", "keepmoving", "--export", "tts"]  # cards with backs of their own, many-page sheets
    answers = _tubedeck([*builds, export, tts, check], folder)
    paths = {f["path"] for manifest in answers[:len(builds)] for f in manifest["files"]}
    paths |= {f["path"] for f in answers[len(builds) + 1]["files"]}
    for k in [*range(len(builds)), len(builds) + 2]:  # on disk too (the export build's files are checked below)
        root = folder / str(k) / "output"
        paths |= {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")}
    decks = {d: cards for manifest in answers[:len(builds) + 1] for d, cards in manifest["decks"].items()}
    # The engine's per-deck export names (generator/engine.py) for every deck built ...
    derived = set()
    for deck, cards in decks.items():
        game, name = deck.split("/")
        derived |= {f"{game}/{name}-cards.pdf", f"{game}/{name}-tuckbox.pdf", f"{game}/{name}-contact.png"}
        for ext in ("png", "svg"):
            derived.add(f"{game}/{ext}/{name}/back.{ext}")
            derived |= {f"{game}/{ext}/{name}/{card}-{side}.{ext}" for card in cards for side in ("front", "back")}
    # ... must explain every file the real export build wrote (tts/: generator/tts.py names its own, tested there)
    unexplained = {f["path"] for f in answers[len(builds)]["files"]
                   if "/tts/" not in f["path"]} - derived - paths
    paths |= {f["path"] for f in answers[len(builds)]["files"] if "/tts/" in f["path"]}
    assert not unexplained, f"an export build wrote files the engine's naming here does not explain: {unexplained}"
    for path in _other_writers(cli):
        derived |= {f"{g}/{path[5:]}" for g in registry()} if path.startswith("GAME/") else {path}
    print(f"docs builds: {len(answers)} commands at once, {len(paths)} files, {time.perf_counter() - started:.1f} s")
    return sorted(paths | derived)


def _pattern(name: str) -> str:
    """A name as written in the docs, as a regex: ``<id>``, upper-case words (DECK, GAME, SEED),
    ``*`` and ``...`` are placeholders."""
    out = []
    for piece in re.split(r"(<[^>]+>|\.\.\.|\*|[A-Z]{2,}[A-Z0-9]*)", name):
        if not piece:
            continue
        if piece == "...":
            out.append(".+")
        elif piece == "*" or piece.startswith("<") or re.fullmatch(r"[A-Z]{2,}[A-Z0-9]*", piece):
            out.append(r"[^/]+")
        else:
            out.append(re.escape(piece))
    return "".join(out)


OUTPUT_FILE = re.compile(r"\.(pdf|png|svg|html)$")


def _file_names(path: Path):
    """(line, name, game scope or None) for every output file name in the file's code."""
    scope = path.stem if path.parent.name == "docs" and path.stem in registry() else None
    table_rows: dict[int, str] = {}
    if path == README:
        body, first = _section(README.read_text(encoding="utf-8"), "The games")
        table_rows = {line: (_spans(cells[0]) or [cells[0]])[0] for line, cells in _table_rows(body, first)}
    for line, code in _code(path):
        for token in code.split():
            token = token.strip("()[],;:'\"")
            if "://" in token or not (token.startswith("output/") or OUTPUT_FILE.search(token)):
                continue
            yield line, token, table_rows.get(line, scope)


def _written_as(name: str, scope: str | None, written: list[str]) -> bool:
    if name.startswith("output/"):
        rel = name[len("output/"):]
        if not rel:
            return True
        if rel.endswith("/") or "." not in rel.rsplit("/", 1)[-1]:  # a folder
            head = rel.split("/", 1)[0]
            return bool(re.fullmatch(_pattern(head), head)) and any(
                re.fullmatch(_pattern(head), p.split("/", 1)[0]) for p in written)
        return any(re.fullmatch(_pattern(rel), p) for p in written)
    candidates = [p for p in written if scope is None or p.startswith(f"{scope}/")]
    rx = re.compile(r"(?:.+/)?" + _pattern(name))
    return any(rx.fullmatch(p) for p in candidates)


@pytest.mark.slow
@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: _rel(p))
def test_output_files_named_are_written_by_a_build(path, written):
    strays = [f"{_rel(path)}:{line}: `{name}`: no build writes it" + (f" into output/{scope}/" if scope else "")
              for line, name, scope in _file_names(path) if not _written_as(name, scope, written)]
    assert not strays, "\n".join(strays) + "\n(files a build writes: " + ", ".join(
        p for p in written if "/png/" not in p and "/svg/" not in p) + ")"


def test_the_docs_are_linked_from_the_index():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    unlinked = [p.name for p in DOCS if p.name != "README.md" and f"({p.name})" not in index]
    assert not unlinked, f"docs/README.md does not link: {', '.join(unlinked)}"
    broken = [f"{_rel(src)}: {target}" for src in [README, *DOCS]
              for target in re.findall(r"\]\(([^)#\s]+)", src.read_text(encoding="utf-8"))
              if "://" not in target and not (src.parent / target).exists()]
    assert not broken, "links to files that do not exist:\n" + "\n".join(broken)
    headings = {}
    for page in [README, *DOCS]:
        headings[page] = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                          for h in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)}
    anchors = [f"{_rel(src)}: {target}#{anchor}" for src in [README, *DOCS]
               for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", src.read_text(encoding="utf-8"))
               if (src.parent / target).resolve() in headings
               and anchor not in headings[(src.parent / target).resolve()]]
    assert not anchors, "links to headings that do not exist:\n" + "\n".join(anchors)
    assert "(docs/README.md)" in readme


# ---------------------------------------------------------------------------------------------
# (d) every `tubedeck` command in README.md's fenced examples runs as written


def _readme_examples() -> list[tuple[int, str]]:
    """(line, command) for every fenced README line that starts with ``tubedeck`` (comment cut)."""
    out = []
    fenced = False
    for n, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            code = re.split(r"\s#\s", line, maxsplit=1)[0].strip()
            if code.startswith("tubedeck "):
                out.append((n, code))
    return out


def _example_skip(code: str) -> str | None:
    """Why an example is not run here (it is long and run elsewhere), or None."""
    args = shlex.split(code)[1:]
    builds = _makefile_builds()
    everything = next((b for b in builds if b[1] == "all"), [])
    left_out = everything[everything.index("--skip") + 1].split(",") if "--skip" in everything else []
    by_all = {g.id for g in registry().values() if g.faces} - set(left_out) if everything else set()
    if args[0] == "build" and (args == ["build", *sorted(by_all & {args[1]})] or args in [b[:-2] for b in builds]):
        return ("a build of several seconds to a minute: the same build runs in the `written` fixture "
                "(the Makefile's `make run` builds, tests/test_docs.py)")
    return None


@pytest.mark.slow
@pytest.mark.parametrize("line,code", _readme_examples(), ids=[f"README.md:{n}" for n, _ in _readme_examples()])
def test_readme_examples_run_as_written(line, code, tmp_path):
    """Each example, word for word, in an empty folder: exit 0, no traceback."""
    reason = _example_skip(code)
    if reason:
        pytest.skip(reason)
    run = "import sys; from tubedeck.cli import main; sys.exit(main())"
    proc = subprocess.run([sys.executable, "-c", run, *shlex.split(code)[1:]], cwd=tmp_path, text=True,
                          capture_output=True, timeout=600)
    assert proc.returncode == 0, f"README.md:{line}: `{code}` exited {proc.returncode}:\n{proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr


def test_make_run_builds_every_game_once():
    """`make run`: `build all` (less its --skip) and the extra lines build each game exactly once."""
    built: list[str] = []
    for args in _makefile_builds():
        if args[1] == "all":
            left_out = args[args.index("--skip") + 1].split(",") if "--skip" in args else []
            built += [g.id for g in registry().values() if g.faces and g.id not in left_out]
        else:
            built.append(args[1])
    assert sorted(built) == sorted({g.id for g in registry().values() if g.faces}), built


def test_pyproject_license_is_an_spdx_string():
    """A license table makes setuptools warn on every install (`make run` printed 39 lines of it)."""
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert isinstance(meta["project"]["license"], str)
    assert any(r.startswith("setuptools>=") and int(r.split(">=")[1].split(".")[0]) >= 77
               for r in meta["build-system"]["requires"])  # PEP 639 strings need setuptools 77
