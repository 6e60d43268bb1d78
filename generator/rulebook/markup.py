"""The rulebook's markup: a small, strict subset of Markdown, read into blocks.

A rulebook's words live in ``data/<game>/rulebook.md`` (printed texts are data). The subset:

* ``# Title`` (the first line) and the paragraph after it (the subtitle: players, time);
* ``## Section`` and ``### Subsection``;
* paragraphs (lines joined until a blank line), with ``**bold**`` and ``*italic*`` inline;
* ``- item`` bullets and ``1. step`` numbered steps (continuation lines indented);
* ``| a | b |`` tables (the first row is the header; a ``|---|`` row is skipped);
* ``> text`` a ruling box: a decision the project made where the source text is silent;
* ``[figure NAME]`` a figure the game draws; ``[page]`` a new page; ``[quickref]`` the quick
  reference from here to the end (it starts a page of its own).

``{name}`` is replaced by the game's value of that name before anything else; ``{{`` and ``}}``
print braces. An unknown name, an unknown figure or a line the subset does not know is a
:class:`~tubedeck.errors.UsageError` naming the file and the line, so a typo never prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Union

from tubedeck.errors import UsageError

from ..theme import BOLD, ITALIC, TEXT

BOLD_ITALIC = "sans-bold-italic"

Run = tuple[str, str]  # (text, font)


@dataclass(frozen=True)
class Heading:
    level: int  # 1 title, 2 section, 3 subsection
    text: str


@dataclass(frozen=True)
class Para:
    runs: tuple[Run, ...]
    subtitle: bool = False


@dataclass(frozen=True)
class Item:
    label: str  # "•" or "3."
    runs: tuple[Run, ...]


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[tuple[Run, ...], ...], ...]  # rows of cells; the first is the header


@dataclass(frozen=True)
class Ruling:
    runs: tuple[Run, ...]


@dataclass(frozen=True)
class FigureRef:
    name: str


@dataclass(frozen=True)
class PageBreak:
    quickref: bool = False


Block = Union[Heading, Para, Item, Table, Ruling, FigureRef, PageBreak]

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.]*)\}|\{|\}")
_INLINE = re.compile(r"\*\*\*(.+?)\*\*\*|\*\*(.+?)\*\*|\*(.+?)\*")
_STEP = re.compile(r"^(\d+)\.\s+(.*)$")
_FIGURE = re.compile(r"^\[figure ([A-Za-z0-9_-]+)\]$")


def _format(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def substitute(line: str, values: Mapping[str, object], where: str) -> str:
    """``line`` with every ``{name}`` replaced; UsageError on a name ``values`` lacks."""

    def one(m: re.Match) -> str:
        token = m.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = m.group(1)
        if name is None:
            raise UsageError(f"{where}: a lone {token!r} (write {token * 2} for a brace)")
        if name not in values:
            known = ", ".join(sorted(values)) or "none"
            raise UsageError(f"{where}: unknown value {{{name}}} (the game gives: {known})")
        return _format(values[name])

    return _PLACEHOLDER.sub(one, line)


def inline(text: str, where: str = "") -> tuple[Run, ...]:
    """``**bold**``/``*italic*`` text as (text, font) runs; an unclosed marker is an error."""
    runs: list[Run] = []
    at = 0
    for m in _INLINE.finditer(text):
        if m.start() > at:
            runs.append((text[at:m.start()], TEXT))
        if m.group(1) is not None:
            runs.append((m.group(1), BOLD_ITALIC))
        elif m.group(2) is not None:
            runs.append((m.group(2), BOLD))
        else:
            runs.append((m.group(3), ITALIC))
        at = m.end()
    if at < len(text):
        runs.append((text[at:], TEXT))
    if any("*" in t for t, _ in runs):
        raise UsageError(f"{where}: an unclosed '*' or '**' in {text!r}")
    return tuple(r for r in runs if r[0])


def plain_runs(runs: tuple[Run, ...]) -> str:
    return "".join(t for t, _ in runs)


def parse(source: str, values: Mapping[str, object], figures: set[str] | frozenset[str],
          name: str = "rulebook.md") -> list[Block]:
    """The blocks of ``source`` (``name`` is the file, for messages)."""
    blocks: list[Block] = []
    para: list[str] = []
    para_line = 0
    kind = ""  # what ``para`` gathers: "para", "item", "ruling"
    label = ""
    table: list[tuple[tuple[Run, ...], ...]] = []
    after_title = False

    def where(line: int) -> str:
        return f"{name} line {line}"

    def flush() -> None:
        nonlocal para, kind, table, after_title
        if para:
            text = " ".join(para)
            runs = inline(text, where(para_line))
            if kind == "item":
                blocks.append(Item(label, runs))
            elif kind == "ruling":
                blocks.append(Ruling(runs))
            else:
                blocks.append(Para(runs, subtitle=after_title))
                after_title = False
        if table:
            blocks.append(Table(tuple(table)))
        para, kind, table = [], "", []

    lines = source.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise UsageError(f"{where(1)}: a rulebook starts with its title ('# Title')")
    for number, raw in enumerate(lines, 1):
        line = substitute(raw.rstrip(), values, where(number))
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        if raw.startswith("#"):
            flush()
            level = len(raw) - len(raw.lstrip("#"))
            if level > 3 or not raw[level:].startswith(" "):
                raise UsageError(f"{where(number)}: headings are '# ', '## ' or '### '")
            if level == 1 and number != 1:
                raise UsageError(f"{where(number)}: only the first line is the title ('# ')")
            blocks.append(Heading(level, stripped[level:].strip()))
            after_title = level == 1
            continue
        figure = _FIGURE.match(stripped)
        if figure:
            flush()
            if figure.group(1) not in figures:
                known = ", ".join(sorted(figures)) or "none"
                raise UsageError(f"{where(number)}: unknown figure {figure.group(1)!r} (the game draws: {known})")
            blocks.append(FigureRef(figure.group(1)))
            continue
        if stripped in ("[page]", "[quickref]"):
            flush()
            blocks.append(PageBreak(quickref=stripped == "[quickref]"))
            continue
        if stripped.startswith("["):
            raise UsageError(f"{where(number)}: unknown directive {stripped!r} (known: [figure NAME], [page], [quickref])")
        if stripped.startswith("|"):
            if kind:
                flush()
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue
            if table and len(cells) != len(table[0]):
                raise UsageError(f"{where(number)}: {len(cells)} cells where the table's header has {len(table[0])}")
            table.append(tuple(inline(c, where(number)) for c in cells))
            continue
        if table:
            flush()
        step = _STEP.match(stripped)
        if stripped.startswith("- ") or step:
            flush()
            kind, para_line = "item", number
            label = f"{step.group(1)}." if step else "\u2022"
            para = [step.group(2) if step else stripped[2:].strip()]
            continue
        if stripped.startswith(">"):
            if kind != "ruling":
                flush()
                kind, para_line = "ruling", number
            para.append(stripped[1:].strip())
            continue
        if kind == "item" and raw.startswith(" "):
            para.append(stripped)
            continue
        if kind in ("item", "ruling"):
            flush()
        if not para:
            kind, para_line = "para", number
        para.append(stripped)
    flush()
    return blocks


__all__ = ["Block", "FigureRef", "Heading", "Item", "PageBreak", "Para", "Ruling", "Run", "Table", "inline",
           "parse", "plain_runs", "substitute"]
