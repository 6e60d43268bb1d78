"""The report's plots, drawn once with matplotlib: SVG for the HTML page, PNG for the PDF.

Plots a designer looks at: each distribution (game length, the earliest win's turn, exchanges...)
as shares of records so that several files compare on one axis; win rate by seat with 95%
intervals; and how the solver's statuses split (the share a time limit left undecided).
Output is reproducible: a fixed SVG hash salt and no dates in the files.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from tubedeck.errors import UsageError

from tubedeck.stats import wilson

from .facts import Facts

PALETTE = ("#1f4e99", "#c0392b", "#1e8449", "#7d3c98", "#b9770e", "#117a65")  # 4.5:1 on white
MAX_MEASURES = 6
BINS = 30
FIRST = ("turns", "first win turn", "per player: turn", "exchanges", "per player: exchanges", "rounds")


@dataclass(frozen=True)
class Plot:
    title: str
    svg: str
    png: bytes


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise UsageError("tubedeck report needs matplotlib: pip install 'tubedeck[report]'") from None
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


def plots(runs: list[Facts]) -> list[Plot]:
    plt = _pyplot()
    out = []
    keys = []
    for r in runs:
        keys += [k for k in r.measures if k not in keys]
    keys.sort(key=lambda k: (FIRST.index(k) if k in FIRST else len(FIRST), k))
    for key in keys[:MAX_MEASURES]:
        fig, ax = plt.subplots(figsize=(6.4, 2.8))
        values = [v for r in runs for v in r.measures.get(key, ())]
        lo, hi = min(values), max(values)
        step = max(1, -(-(hi - lo + 1) // BINS))  # at most BINS bars per file
        width = 0.8 * step / max(1, len(runs))
        for i, r in enumerate(runs):
            counts = r.measures.get(key)
            if not counts:
                continue
            total = sum(counts.values())
            binned: dict[int, int] = {}
            for v, c in counts.items():
                start = lo + (v - lo) // step * step
                binned[start] = binned.get(start, 0) + c
            xs = sorted(binned)
            ax.bar([x + (step - 1) / 2 - 0.4 * step + width * (i + 0.5) for x in xs],
                   [100 * binned[x] / total for x in xs], width=width, color=PALETTE[i % len(PALETTE)],
                   label=r.label)
        if step > 1:
            key = f"{key} (bins of {step})"
        ax.set_xlabel(key)
        ax.set_ylabel("% of records")
        if len(runs) > 1:
            ax.legend(fontsize=7, frameon=False)
        out.append(_render(plt, fig, f"Distribution: {key}"))
    if any(r.wins for r in runs):
        fig, ax = plt.subplots(figsize=(6.4, 2.8))
        seats = max(r.players for r in runs)
        width = 0.8 / len(runs)
        for i, r in enumerate(runs):
            xs = list(range(1, r.players + 1))
            shares = [r.wins.get(s, 0) / r.records for s in xs]
            lows = [p - wilson(r.wins.get(s, 0), r.records)[0] for s, p in zip(xs, shares)]
            highs = [wilson(r.wins.get(s, 0), r.records)[1] - p for s, p in zip(xs, shares)]
            ax.bar([x - 0.4 + width * (i + 0.5) for x in xs], [100 * p for p in shares], width=width,
                   yerr=[[100 * v for v in lows], [100 * v for v in highs]], capsize=3,
                   color=PALETTE[i % len(PALETTE)], label=r.label)
            ax.axhline(100 / r.players, color="#555555", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(1, seats + 1))
        ax.set_xlabel("seat (dashed: an even share)")
        ax.set_ylabel("% of games won")
        if len(runs) > 1:
            ax.legend(fontsize=7, frameon=False)
        out.append(_render(plt, fig, "Win rate by seat (95% intervals)"))
    if any(r.statuses for r in runs):
        fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.45 * len(runs)))
        names = sorted({s for r in runs for s in r.statuses})
        for i, r in enumerate(runs):
            left = 0.0
            for j, s in enumerate(names):
                share = 100 * r.statuses.get(s, 0) / max(r.records, 1)
                ax.barh(i, share, left=left, color=PALETTE[j % len(PALETTE)], label=s if i == 0 else None)
                left += share
        ax.set_yticks(range(len(runs)))
        ax.set_yticklabels([f"file {i + 1}" for i in range(len(runs))])
        ax.set_xlabel("% of records by solver status")
        ax.legend(fontsize=7, frameon=False, ncols=len(names), loc="upper center", bbox_to_anchor=(0.5, -0.6))
        out.append(_render(plt, fig, "Solver statuses"))
    return out
