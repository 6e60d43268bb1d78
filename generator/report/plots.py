"""The report's plots, drawn once with matplotlib: SVG for the HTML page, PNG for the PDF.

Plots a designer looks at, from the records' declared kinds, file by file in the order given:

* every declared measure's distribution (game length, the earliest win's turn, exchanges...) as
  shares, one plot per measure, never a measure left out: files sharing a measure's label and unit
  share its plot, and its bars are sized and placed by the files that hold that measure (one
  file: full-width bars centred on their values);
* the final scores, one plot per game (a score is only ever compared within its game): a box per
  seat, named by its bot, never pooled across seats or games;
* win rate by seat with 95% intervals (each multi-player file), every seat named by its bot (and,
  where a roll picks the starter, how often it started), against the even share, labelled;
* how the solver's statuses split (the share a time limit left undecided).

Seats are rows (one above another, seat 1 on top), so however many seats and however long their
labels, no label meets another. Legends sit outside the data, below the plot. Every text is at least 7 pt at the size the PDF
prints it. Output is reproducible: a fixed SVG hash salt and no dates in the files.
"""

from __future__ import annotations

import io
import struct
import textwrap
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from tubedeck.errors import UsageError
from tubedeck.records import Field
from tubedeck.stats import quantile, wilson

from .facts import Facts

PALETTE = ("#1f4e99", "#c0392b", "#1e8449", "#7d3c98", "#b9770e", "#117a65")  # 4.5:1 on white
BINS = 30
WIDTH = 6.4  # inches: a plot's width (the PDF places it at this size, so its text keeps its points)
HEIGHT = 2.5  # inches: the plot area and its axes, before the legend below
TEXT_PT = 8.0  # ticks, legends, notes (>= 7 pt: the report's floor)
LABEL_PT = 8.5  # axis labels
LEGEND_CHARS = 100  # a legend entry wraps at this many characters
DPI = 200  # of the PDF's PNGs
BOX = 0.4  # of a row: a score box's height
MEAN_OFFSET = 0.32  # of a row: a seat's mean is drawn this far below its box's centre (clear of the whiskers)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in the figure's pixels (72 a inch)


@dataclass(frozen=True)
class Bar:
    """One bar as drawn, in data units: ``x`` its centre."""

    series: str
    x: float
    width: float
    height: float


@dataclass(frozen=True)
class Plot:
    """A plot as SVG and PNG, with what it shows: ``measures`` the (file number, field name) of
    each measure it draws; ``bars`` the bars drawn; ``axes`` and ``legends`` where the data area
    and each legend landed (figure pixels, for a check that no legend covers data)."""

    title: str
    svg: str
    png: bytes
    kind: str = ""
    files: tuple[int, ...] = ()
    measures: tuple[tuple[int, str], ...] = ()
    bars: tuple[Bar, ...] = ()
    step: int = 1
    axes: Box = (0.0, 0.0, 0.0, 0.0)
    legends: tuple[Box, ...] = ()

    @property
    def png_size(self) -> tuple[int, int]:
        """The PNG's width and height in pixels (from its header)."""
        w, h = struct.unpack(">II", self.png[16:24])
        return w, h


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        from tubedeck.install import install_advice  # what works for the way tubedeck was installed

        raise UsageError(f"tubedeck report needs matplotlib: {install_advice('report')}") from None
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "tubedeck", "svg.fonttype": "none", "font.size": TEXT_PT,
                                "axes.labelsize": LABEL_PT, "xtick.labelsize": TEXT_PT, "ytick.labelsize": TEXT_PT,
                                "legend.fontsize": TEXT_PT, "axes.spines.top": False, "axes.spines.right": False,
                                "font.family": "DejaVu Sans"})
    import matplotlib.pyplot as plt

    return plt


def _figure(plt, legend_lines: int = 0, height: float = HEIGHT):
    """A figure of the report's width whose layout keeps every label and legend clear."""
    fig, ax = plt.subplots(figsize=(WIDTH, height + 0.16 * legend_lines), layout="constrained")
    return fig, ax


def _legend(fig, handles: list, labels: list[str]) -> None:
    """The legend below the plot, outside the data (constrained layout makes room for it)."""
    wrapped = ["\n".join(textwrap.wrap(label, LEGEND_CHARS)) or label for label in labels]
    fig.legend(handles, wrapped, loc="outside lower center", ncols=1, frameon=False, handlelength=1.6)


def _legend_lines(labels: list[str]) -> int:
    return sum(max(1, len(textwrap.wrap(label, LEGEND_CHARS))) for label in labels)


def _box(extent) -> Box:
    return (float(extent.x0), float(extent.y0), float(extent.x1), float(extent.y1))


def _render(plt, fig, ax, title: str, **meta: Any) -> Plot:
    fig.canvas.draw()  # lays the figure out once; the saves below reuse that layout and its bounds
    axes = _box(ax.get_window_extent())
    legends = tuple(_box(leg.get_window_extent()) for leg in [*fig.legends, *([ax.get_legend()] if ax.get_legend()
                                                                              else [])])
    tight = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.05)
    fig.set_layout_engine("none")
    svg, png = io.StringIO(), io.BytesIO()
    fig.savefig(svg, format="svg", metadata={"Date": None}, bbox_inches=tight)
    fig.savefig(png, format="png", dpi=DPI, metadata={"Software": None}, bbox_inches=tight)
    plt.close(fig)
    text = svg.getvalue()
    return Plot(title, text[text.index("<svg"):], png.getvalue(), axes=axes, legends=legends, **meta)


def _file(n: int, r: Facts) -> str:
    return f"file {n} ({r.schema.game} {r.schema.mode})"


# -- distributions of measures ----------------------------------------------------------------------
@dataclass(frozen=True)
class _Measure:
    label: str
    unit: str
    held: tuple[tuple[int, Facts, Field], ...]  # (file number, file, field) of every file declaring it


def measures(runs: list[Facts]) -> list[_Measure]:
    """Every measure any file declares, as (label, unit), the files' and the game's own order, each
    once, with the files that declare it (whether or not their records hold a value)."""
    found: dict[tuple[str, str], list[tuple[int, Facts, Field]]] = {}
    for n, r in enumerate(runs, 1):
        for f in r.schema.of("measure"):
            found.setdefault((f.label, f.unit), []).append((n, r, f))
    return [_Measure(label, unit, tuple(held)) for (label, unit), held in found.items()]


def _distribution(plt, m: _Measure) -> Plot:
    """Bars of each file's value -> count table as shares, binned alike; each bar's width and
    place counts the files that hold this measure, not every file given."""
    drawn = [(n, r, f, r.fold.measures[f.name]) for n, r, f in m.held if r.fold.measures.get(f.name)]
    names = ", ".join(_file(n, r) for n, r, _ in m.held)
    title = f"Distribution of {m.label}: {names}"
    xlabel = f"{m.label} ({m.unit})" if m.unit else m.label
    meta = {"kind": "measure", "files": tuple(n for n, _, _ in m.held),
            "measures": tuple((n, f.name) for n, _, f in m.held)}
    labels = [f"file {n}: {r.label}" for n, r, _, _ in drawn] if len(drawn) > 1 else []
    fig, ax = _figure(plt, _legend_lines(labels), height=HEIGHT if drawn else 0.9)
    if not drawn:
        empty = all(r.records == 0 for _, r, _ in m.held)
        note = "the file has no records" if empty else "no record holds a value of this measure (null in every one)"
        ax.text(0.5, 0.5, note, transform=ax.transAxes, ha="center",
                va="center", fontsize=TEXT_PT + 1)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel(xlabel)
        return _render(plt, fig, ax, title, **meta)
    from matplotlib.ticker import MaxNLocator

    values = [v for _, _, _, c in drawn for v in c]
    lo, hi = min(values), max(values)
    step = max(1, -(-(hi - lo + 1) // BINS))  # at most BINS bars per file
    width = 0.8 * step / len(drawn)
    bars, handles = [], []
    for i, (n, _, _, counts) in enumerate(drawn):
        total = sum(counts.values())
        binned: Counter = Counter()
        for v, c in counts.items():
            binned[lo + (v - lo) // step * step] += c
        xs = sorted(binned)
        centres = [x + (step - 1) / 2 - 0.4 * step + width * (i + 0.5) for x in xs]
        heights = [100 * binned[x] / total for x in xs]
        container = ax.bar(centres, heights, width=width, color=PALETTE[i % len(PALETTE)])
        handles.append(container)
        bars += [Bar(f"file {n}", p.get_x() + p.get_width() / 2, p.get_width(), p.get_height())
                 for p in container.patches]
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if hi - lo < step:  # one bin: room either side, so whole-number ticks name its value (one bar
        first, last = lo - 0.5, lo + step - 0.5  # spanned ticks 3.6-4.4 for a 4); no tick below 0 for a count
        ax.set_xlim(first - (step if lo - step >= 0 else step / 4), last + step)
    ax.set_xlabel(xlabel + (f" (bins of {step})" if step > 1 else ""))
    ax.set_ylabel("% of values" if any("[]" in f.name for _, _, f, _ in drawn) else "% of records")
    if labels:
        _legend(fig, handles, labels)
    return _render(plt, fig, ax, title, bars=tuple(bars), step=step, **meta)


# -- scores, one plot per game ---------------------------------------------------------------------
def _seat_label(r: Facts, seat: int, n: int | None = None) -> str:
    """A seat's row label: ``seat 2 (lookahead)``, then ``started 3 of 6`` below where a roll picks
    the starter; ``file 4, `` first where a plot holds several files."""
    first, *rest = r.seat_parts(seat)
    bot = [p for p in rest if not p.startswith("started")]
    head = f"{first} ({bot[0]})" if bot else first
    return "\n".join([f"file {n}, {head}" if n is not None else head, *[p for p in rest if p.startswith("started")]])


def _rows(labels: list[str]) -> float:
    """Inches a horizontal plot needs for these row labels (each row at least two lines high)."""
    return sum(max(2, label.count("\n") + 1) for label in labels) * 0.18


def _scores(plt, game: str, members: list[tuple[int, Facts]]) -> Plot:
    """A row per seat, named by its bot: a box (25-75%), whiskers (10-90%), the median, and the
    mean with its 95% interval beside it; the seats of several files of one game one above another,
    on one axis (a score compared only within its game)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    several = len(members) > 1
    field = members[0][1].schema.of("scores")[0]
    rows: list[tuple[str, str, Counter]] = []
    for i, (n, r) in enumerate(members):
        for seat in range(1, r.players + 1):
            c = r.fold.scores.get(seat)
            if c:
                rows.append((_seat_label(r, seat, n if several else None), PALETTE[i % len(PALETTE)], c))
    keys = ["box: the middle half of the games (25-75%); whiskers: 10-90%; bar across the box: the median",
            "diamond (below its box): the mean with its 95% interval"]
    fig, ax = _figure(plt, _legend_lines(keys), height=0.75 + _rows([label for label, _, _ in rows]))
    for y, (_, colour, c) in enumerate(rows):
        q1, med, q3 = quantile(c, 0.25), quantile(c, 0.5), quantile(c, 0.75)
        lo, hi = quantile(c, 0.1), quantile(c, 0.9)
        assert q1 is not None and med is not None and q3 is not None and lo is not None and hi is not None
        ax.barh(y, max(q3 - q1, 0.0), left=q1, height=BOX, color=colour, alpha=0.35, edgecolor=colour)
        ax.vlines(med, y - BOX / 2, y + BOX / 2, color="#1a1a1a", linewidth=1.6)
        ax.hlines([y, y], [lo, q3], [q1, hi], color="#1a1a1a", linewidth=1.0)
        ax.vlines([lo, hi], y - BOX / 4, y + BOX / 4, color="#1a1a1a", linewidth=1.0)
        total = sum(c.values())
        mean = sum(v * k for v, k in c.items()) / total
        var = sum(k * (v - mean) ** 2 for v, k in c.items()) / (total - 1) if total > 1 else 0.0
        half = 1.96 * (var / total) ** 0.5
        ax.errorbar([mean], [y + MEAN_OFFSET], xerr=[[half], [half]], fmt="D", color=colour, markersize=4, capsize=3)
    ax.set_yticks(range(len(rows)), [label for label, _, _ in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)  # seat 1 on top
    ax.set_xlabel(f"{field.label} ({field.unit})" if field.unit else field.label)
    _legend(fig, [Patch(facecolor="#999999", alpha=0.35, edgecolor="#555555"),
                  Line2D([], [], color="#555555", marker="D", markersize=4, linestyle="none")], keys)
    files = ", ".join(_file(n, r) for n, r in members)
    return _render(plt, fig, ax, f"Distribution of final scores by seat: {files}", kind="scores",
                   files=tuple(n for n, _ in members))


# -- wins by seat ---------------------------------------------------------------------------------
def _wins(plt, n: int, r: Facts) -> Plot:
    """A row per seat, named by its bot: its share of the games won with its 95% Wilson interval,
    against the even share (a labelled dashed line)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    seats = list(range(1, r.players + 1))
    shares = [r.fold.wins.get(s, 0) / r.records for s in seats]
    bounds = [wilson(r.fold.wins.get(s, 0), r.records) for s in seats]
    even = 100 / r.players
    keys = ["bars: each seat's share of the games won; whiskers: its 95% interval",
            f"dashed line: the even share, 1 game in {r.players} ({even:.1f}%)"]
    labels = [_seat_label(r, s) for s in seats]
    fig, ax = _figure(plt, _legend_lines(keys), height=0.75 + _rows(labels))
    ys = list(range(len(seats)))
    container = ax.barh(ys, [100 * p for p in shares], height=0.55, color=PALETTE[0],
                        xerr=[[100 * (p - b[0]) for p, b in zip(shares, bounds, strict=True)],
                              [100 * (b[1] - p) for p, b in zip(shares, bounds, strict=True)]],
                        capsize=4, ecolor="#1a1a1a")
    ax.axvline(even, color="#555555", linewidth=0.9, linestyle="--")
    ax.set_yticks(ys, labels)
    ax.set_ylim(len(seats) - 0.5, -0.5)  # seat 1 on top
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games won")
    _legend(fig, [Patch(facecolor=PALETTE[0]), Line2D([], [], color="#555555", linestyle="--")], keys)
    bars = tuple(Bar(f"file {n}", p.get_y() + p.get_height() / 2, p.get_height(), p.get_width())
                 for p in container.patches)
    return _render(plt, fig, ax, f"Win rate by seat (95% intervals): file {n}: {r.label}", kind="wins",
                   files=(n,), bars=bars)


# -- solver statuses ---------------------------------------------------------------------------------
def _statuses(plt, runs: list[Facts]) -> Plot:
    """A bar per status field of each file (a check's answer, the engine that proved it...): how its
    records split, never two fields pooled in one bar."""
    rows = [(n, f, r.fold.statuses[f.name]) for n, r in enumerate(runs, 1) for f in r.schema.of("status")
            if r.fold.statuses.get(f.name)]
    names = sorted({s for _, _, c in rows for s in c})
    ticks = [f"file {n}\n" + "\n".join(textwrap.wrap(f.label, 34)[:3]) for n, f, _ in rows]
    lines = sum(t.count("\n") + 1 for t in ticks)
    fig, ax = _figure(plt, 1 + len(names) // 5, height=0.8 + 0.16 * max(lines, 2 * len(rows)))
    handles = {}
    for i, (_, _, counts) in enumerate(rows):
        total = max(sum(counts.values()), 1)
        left = 0.0
        for j, s in enumerate(names):
            share = 100 * counts.get(s, 0) / total
            if share:
                handles[s] = ax.barh(i, share, left=left, color=PALETTE[j % len(PALETTE)], height=0.6)
            left += share
    ax.set_yticks(range(len(rows)), ticks)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of the file's answers")
    shown = [s for s in names if s in handles]
    fig.legend([handles[s] for s in shown], shown, loc="outside lower center", ncols=min(len(shown), 5),
               frameon=False)
    files = sorted({n for n, _, _ in rows})
    return _render(plt, fig, ax, f"Solver statuses: {', '.join(_file(n, runs[n - 1]) for n in files)}",
                   kind="statuses", files=tuple(files))


# -- all of them ---------------------------------------------------------------------------------
Job = tuple[str, Callable[[Any], Plot]]


def jobs(runs: list[Facts]) -> list[Job]:
    """What to draw, in order: file by file, its measures (each once, with every file that shares
    it), its game's scores (once a game), its win rate; then the solver statuses of every file."""
    out: list[Job] = []
    pending = measures(runs)
    games_done: set[str] = set()
    for n, r in enumerate(runs, 1):
        for m in [m for m in pending if m.held[0][0] == n]:
            out.append((f"distribution of {m.label}", partial(_distribution, m=m)))
        game = r.schema.game
        if r.fold.scores and game not in games_done:
            games_done.add(game)
            members = [(k, q) for k, q in enumerate(runs, 1) if q.schema.game == game and q.fold.scores]
            out.append((f"{game} scores", partial(_scores, game=game, members=members)))
        if r.schema.of("winner", "winners") and r.players > 1 and r.records:
            out.append((f"file {n} wins", partial(_wins, n=n, r=r)))
    if any(r.fold.statuses for r in runs):
        out.append(("solver statuses", partial(_statuses, runs=runs)))
    return out


def plots(runs: list[Facts], step: Callable[[int, int, str], None] | None = None) -> list[Plot]:
    """Every plot of :func:`jobs`, drawn; ``step(i, n, what)`` before each (a progress line)."""
    plt = _pyplot()
    todo = jobs(runs)
    out = []
    for i, (what, draw) in enumerate(todo, 1):
        if step is not None:
            step(i, len(todo), what)
        out.append(draw(plt))
    return out
