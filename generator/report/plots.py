"""The report's plots, drawn once with matplotlib: SVG for the HTML page, PNG for the PDF.

Plots a designer looks at, from the records' declared kinds: each measure's distribution (game
length, the earliest win's turn, exchanges...) as shares of records so that several files compare
on one axis, labelled in words; the final scores; win rate by seat with 95% intervals (multi-player
files only); and how the solver's statuses split (the share a time limit left undecided).
Output is reproducible: a fixed SVG hash salt and no dates in the files.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass

from tubedeck.errors import UsageError
from tubedeck.stats import wilson

from .facts import Facts

PALETTE = ("#1f4e99", "#c0392b", "#1e8449", "#7d3c98", "#b9770e", "#117a65")  # 4.5:1 on white
MAX_MEASURES = 6
BINS = 30


@dataclass(frozen=True)
class Plot:
    title: str
    svg: str
    png: bytes


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        from tubedeck.install import install_advice  # what works for the way tubedeck was installed

        raise UsageError(f"tubedeck report needs matplotlib: {install_advice('report')}") from None
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "tubedeck", "svg.fonttype": "none", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False})
    import matplotlib.pyplot as plt

    return plt


def _render(plt, fig, title: str) -> Plot:
    svg, png = io.StringIO(), io.BytesIO()
    fig.savefig(svg, format="svg", metadata={"Date": None}, bbox_inches="tight")
    fig.savefig(png, format="png", dpi=200, metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    text = svg.getvalue()
    return Plot(title, text[text.index("<svg"):], png.getvalue())


def _distribution(plt, runs: list[Facts], title: str, xlabel: str, tables: list) -> Plot:
    """Bars of each file's value -> count table as shares, side by side, binned alike."""
    fig, ax = plt.subplots(figsize=(6.4, 2.8))
    values = [v for t in tables if t for v in t]
    lo, hi = min(values), max(values)
    step = max(1, -(-(hi - lo + 1) // BINS))  # at most BINS bars per file
    width = 0.8 * step / max(1, len(runs))
    for i, (r, counts) in enumerate(zip(runs, tables, strict=True)):
        if not counts:
            continue
        total = sum(counts.values())
        binned: dict[int, int] = {}
        for v, c in counts.items():
            start = lo + (v - lo) // step * step
            binned[start] = binned.get(start, 0) + c
        xs = sorted(binned)
        ax.bar([x + (step - 1) / 2 - 0.4 * step + width * (i + 0.5) for x in xs],
               [100 * binned[x] / total for x in xs], width=width, color=PALETTE[i % len(PALETTE)], label=r.label)
    ax.set_xlabel(xlabel + (f" (bins of {step})" if step > 1 else ""))
    ax.set_ylabel("% of records")
    if len(runs) > 1:
        ax.legend(fontsize=7, frameon=False)
    return _render(plt, fig, title)


def _measure_keys(runs: list[Facts]) -> list[tuple[str, str]]:
    """(label, unit) of every measure any file holds, the game's own order, each once."""
    keys: list[tuple[str, str]] = []
    for r in runs:
        for f in r.schema.of("measure"):
            if r.fold.measures.get(f.name) and (f.label, f.unit) not in keys:
                keys.append((f.label, f.unit))
    return keys


def plots(runs: list[Facts]) -> list[Plot]:
    """Each measure's distribution (files sharing a label share a plot), the scores, wins by
    seat with 95% intervals, and the solver statuses; from the declared kinds only."""
    plt = _pyplot()
    out = []
    for label, unit in _measure_keys(runs)[:MAX_MEASURES]:
        tables = [next((r.fold.measures.get(f.name) for f in r.schema.of("measure")
                        if (f.label, f.unit) == (label, unit) and r.fold.measures.get(f.name)), None) for r in runs]
        out.append(_distribution(plt, runs, f"Distribution: {label}", f"{label} ({unit})" if unit else label, tables))
    if any(r.fold.scores for r in runs):
        tables = []
        for r in runs:
            pooled: Counter = Counter()
            for c in r.fold.scores.values():
                pooled.update(c)
            tables.append(pooled or None)
        out.append(_distribution(plt, runs, "Distribution: final scores (every seat)", "score (points)", tables))
    multi = [r for r in runs if r.fold.wins and r.players > 1 and r.records]
    if multi:
        fig, ax = plt.subplots(figsize=(6.4, 2.8))
        seats = max(r.players for r in multi)
        width = 0.8 / len(multi)
        for i, r in enumerate(multi):
            xs = list(range(1, r.players + 1))
            n = r.records
            shares = [r.fold.wins.get(s, 0) / n for s in xs]
            bounds = [wilson(r.fold.wins.get(s, 0), n) for s in xs]
            ax.bar([x - 0.4 + width * (i + 0.5) for x in xs], [100 * p for p in shares], width=width,
                   yerr=[[100 * (p - b[0]) for p, b in zip(shares, bounds, strict=True)],
                         [100 * (b[1] - p) for p, b in zip(shares, bounds, strict=True)]], capsize=3,
                   color=PALETTE[i % len(PALETTE)], label=r.label)
            ax.axhline(100 / r.players, color="#555555", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(1, seats + 1))
        ax.set_xlabel("seat (dashed: an even share)")
        ax.set_ylabel("% of games won")
        if len(multi) > 1:
            ax.legend(fontsize=7, frameon=False)
        out.append(_render(plt, fig, "Win rate by seat (95% intervals)"))
    with_status = [r for r in runs if r.fold.statuses]
    if with_status:
        fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.45 * len(with_status)))
        names = sorted({s for r in with_status for c in r.fold.statuses.values() for s in c})
        for i, r in enumerate(with_status):
            counts: Counter = Counter()
            for c in r.fold.statuses.values():
                counts.update(c)
            total = max(sum(counts.values()), 1)
            left = 0.0
            for j, s in enumerate(names):
                share = 100 * counts.get(s, 0) / total
                ax.barh(i, share, left=left, color=PALETTE[j % len(PALETTE)], label=s if i == 0 else None)
                left += share
        ax.set_yticks(range(len(with_status)))
        ax.set_yticklabels([f"file {runs.index(r) + 1}" for r in with_status])
        ax.set_xlabel("% of solver answers by status")
        ax.legend(fontsize=7, frameon=False, ncols=len(names), loc="upper center", bbox_to_anchor=(0.5, -0.6))
        out.append(_render(plt, fig, "Solver statuses"))
    return out
