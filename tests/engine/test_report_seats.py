"""``tubedeck report`` over one small simulate file of each game, its seats' bots in an order that
is not alphabetical: every seat is named by its bot, every declared measure has its plot, bars sit
on their values, legends stay off the data and no text runs into another (PDF pages and the HTML
page's SVG plots alike)."""

from __future__ import annotations

import contextlib
import html
import io
import itertools
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'tubedeck[report]'; make test does)")
pymupdf = pytest.importorskip("pymupdf")

# One small file a game, the bots in seat order as no sort would give them.
RUNS = {
    "klm": ["simulate", "klm", "--games", "6", "--players", "3", "--bots", "greedy,lookahead,random"],
    "oneday": ["simulate", "oneday", "--games", "3", "--players", "3", "--bots", "lookahead,random,greedy"],
    "nextstation": ["simulate", "nextstation", "--games", "3", "--players", "2", "--bots", "random,greedy"],
    "dice": ["simulate", "dice", "--games", "4", "--players", "3", "--bots", "random,lookahead,greedy"],
    "keepmoving": ["simulate", "keepmoving", "--games", "6", "--bots", "random,greedy"],
}
TOUCH = 0.3  # pt: two text boxes may touch this much (rounding), never more
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def combined(tmp_path_factory):
    """The five files, one report over them (built once), its JSON, HTML, PDF and drawn plots."""
    import tubedeck.generator.report as report
    from tubedeck.cli import main

    root = tmp_path_factory.mktemp("seats")
    files = []
    for gid, args in RUNS.items():
        path = root / f"{gid}.jsonl"
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                main([*args, "--results", str(path), "--no-progress", "--json"])
            except SystemExit as exc:
                assert exc.code in (0, None), (gid, exc.code)
        files.append(path)
    drawn: list = []
    real = report.plots
    out, stdout = root / "report", io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(stdout):
        mp.setattr(report, "plots", lambda runs, step=None: drawn.extend(real(runs, step)) or list(drawn))
        try:
            main(["report", *map(str, files), "--out", str(out), "--json"])
        except SystemExit as exc:
            assert exc.code in (0, None), exc.code
    headers = [json.loads(p.read_text().splitlines()[0]) for p in files]
    records = [[json.loads(line) for line in p.read_text().splitlines()[1:]] for p in files]
    page = (out / "report.html").read_text()
    with pymupdf.open(out / "report.pdf") as pdf:
        pages = [(p.get_text("dict"), p.get_text(), p.get_image_info(), p.rect) for p in pdf]
    return {"files": files, "headers": headers, "records": records, "json": json.loads(stdout.getvalue()),
            "html": page, "pages": pages, "plots": drawn}


# -- helpers: text boxes --------------------------------------------------------------------------
def overlaps(a, b, touch: float = TOUCH) -> bool:
    """Do boxes (x0, y0, x1, y1) share more than ``touch`` in both directions?"""
    return min(a[2], b[2]) - max(a[0], b[0]) > touch and min(a[3], b[3]) - max(a[1], b[1]) > touch


def clashes(boxes: list[tuple[str, tuple]]) -> list[tuple[str, str]]:
    return [(s, t) for (s, a), (t, b) in itertools.combinations(boxes, 2) if overlaps(a, b)]


def svg_texts(svg: str) -> list[tuple[str, float, tuple]]:
    """Every text element of a matplotlib SVG (text kept as text): (text, size in pt, box in pt),
    measured with the font matplotlib draws (DejaVu Sans: the metrics of the engine's Vera)."""
    from tubedeck.generator.fonts import metrics, text_width

    ascent, descent = metrics("sans")
    out = []
    for el in ET.fromstring(svg).iter(f"{SVG}text"):
        text = "".join(el.itertext())
        style = dict((k.strip(), v.strip()) for k, _, v in (p.partition(":") for p in el.get("style", "").split(";")))
        size = float(style["font-size"].removesuffix("px"))
        anchor = style.get("text-anchor", "start")
        x, y = float(el.get("x", 0.0)), float(el.get("y", 0.0))
        transform = el.get("transform", "")
        moved = re.search(r"translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)", transform)
        if moved:
            x, y = x + float(moved.group(1)), y + float(moved.group(2))
        turned = re.search(r"rotate\(([-\d.e]+)", transform)
        angle = float(turned.group(1)) if turned else 0.0
        w = text_width(text, "sans", size) * 72 / 25.4
        left = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor]
        corners = [(left, -ascent * size), (left + w, -ascent * size), (left, -descent * size), (left + w, -descent * size)]
        if abs(angle) % 180 == 90:  # a y-axis label: turned a quarter
            corners = [(v, -u) if angle < 0 else (-v, u) for u, v in corners]
        xs, ys = [x + u for u, _ in corners], [y + v for _, v in corners]
        out.append((text, size, (min(xs), min(ys), max(xs), max(ys))))
    return out


def figures(page: str) -> list[tuple[str, str]]:
    """(caption, svg) of every plot on the HTML page."""
    return [(html.unescape(c), s) for c, s in re.findall(r"<figure><figcaption>(.*?)</figcaption>(<svg.*?</svg>)\s*</figure>",
                                                         page, re.S)]


def schema_of(header: dict):
    from tubedeck.games import get

    return next(s for s in get(header["game"]).records if s.mode == header["mode"])


def words(text: str) -> str:
    return " ".join(text.split())


def pdf_sections(pages) -> dict[int, str]:
    """Each file's figure pages as one text (a file's section begins with its title)."""
    out: dict[int, str] = {}
    current = None
    for _, text, _, _ in pages:
        m = re.match(r"\s*tubedeck report, file (\d+):", text)
        if m:
            current = int(m.group(1))
        elif text.lstrip().startswith(("Distribution", "Win rate", "Solver")):
            current = None
        if current is not None:
            out[current] = out.get(current, "") + " " + words(text)
    return out


# -- 1. every seat named by its bot, in seat order -------------------------------------------------------
SEAT = re.compile(r"\bseat (\d+)(?:\s*[(:]\s*([\w:-]+))?")


def assert_seats_named(text: str, bots: list[str], where: str) -> int:
    """Every ``seat K`` in ``text`` is followed by the header's bot for seat K."""
    found = 0
    for m in SEAT.finditer(text):
        k = int(m.group(1))
        assert m.group(2) == bots[k - 1], f"{where}: {text[max(0, m.start() - 40):m.end() + 40]!r} (seat {k} is {bots[k - 1]})"
        found += 1
    return found


def test_every_seat_is_named_by_its_bot_in_tables_titles_and_json(combined):
    page, data = combined["html"], combined["json"]
    sections = re.split(r"<h2>File \d+: ", page.split("<h2>Plots</h2>")[0])[1:]
    pdf = pdf_sections(combined["pages"])
    assert len(sections) == len(RUNS) == len(pdf)
    assert sum(h["bots"] != sorted(h["bots"]) for h in combined["headers"]) >= 3  # the order a sort loses
    for n, (header, section) in enumerate(zip(combined["headers"], sections, strict=True), 1):
        bots = header["bots"]
        text = words(html.unescape(re.sub(r"<[^>]+>", " ", section)))
        assert assert_seats_named(text, bots, f"HTML, file {n}") >= header["players"], text
        for k, bot in enumerate(bots, 1):
            assert f"wins, seat {k} ({bot}" in text  # the headline row names the bot of that seat
        assert ", ".join(bots) in text  # the title lists the bots in seat order
        assert assert_seats_named(pdf[n], bots, f"PDF, file {n}") >= header["players"]
        for k, bot in enumerate(bots, 1):
            assert f"wins, seat {k} ({bot}" in pdf[n]
        # --json: each seat's bot beside its figures
        f = data["files"][n - 1]
        assert f["bots"] == bots
        assert [(s["seat"], s["bot"]) for s in f["by_seat"]] == list(enumerate(bots, 1))
        for seat, w in f["wins_by_seat"].items():
            assert w["bot"] == bots[int(seat) - 1] and f["by_seat"][int(seat) - 1]["wins"]["count"] == w["count"]
        for seat, s in f.get("scores_by_seat", {}).items():
            assert s["bot"] == bots[int(seat) - 1] and f["by_seat"][int(seat) - 1]["scores"]["mean"] == s["mean"]


def test_where_a_roll_picks_the_starter_each_seat_says_how_often_it_started(combined):
    for n, (header, recs) in enumerate(zip(combined["headers"], combined["records"], strict=True), 1):
        starter = {"klm": "starter", "keepmoving": "first"}.get(header["game"])
        if starter is None:
            continue
        f = combined["json"]["files"][n - 1]
        for k in range(1, header["players"] + 1):
            started = sum(r[starter] == k for r in recs)
            assert f["by_seat"][k - 1]["started"] == started
            assert f"seat {k} ({header['bots'][k - 1]}; started {started} of {len(recs)})" in combined["html"]


def test_every_plot_names_each_seat_by_its_bot(combined):
    seen = 0
    for caption, svg in figures(combined["html"]):
        if not caption.startswith(("Win rate", "Distribution of final scores")):
            continue
        n = int(re.search(r"file (\d+)", caption).group(1))
        bots = combined["headers"][n - 1]["bots"]
        labels = [t for t, _, _ in svg_texts(svg) if re.match(r"seat \d", t)]
        assert len(labels) == len(bots), (caption, labels)
        for label in labels:
            k, bot = re.fullmatch(r"seat (\d+) \((.+)\)", label).groups()
            assert bot == bots[int(k) - 1], (caption, label)
            seen += 1
        if caption.startswith("Win rate"):
            assert ", ".join(bots) in caption  # the title lists them in seat order too
    assert seen >= 2 * len(RUNS)


# -- 2. every declared measure drawn -------------------------------------------------------------------
def test_every_declared_measure_of_every_file_has_a_plot(combined):
    captions = [c for c, _ in figures(combined["html"])]
    pdf = words(" ".join(text for _, text, _, _ in combined["pages"]))
    declared = 0
    for n, header in enumerate(combined["headers"], 1):
        for f in schema_of(header).of("measure"):
            declared += 1
            assert any(f.label in c and f"file {n} (" in c for c in captions), (n, f.name, captions)
            assert f"Distribution of {words(f.label)}" in pdf, (n, f.name)
            assert any((n, f.name) in p.measures for p in combined["plots"]), (n, f.name)
    assert declared > 6  # more than the report once had room for


# -- 3. bars sized and placed by the files that hold the measure -----------------------------------------
def test_the_bars_of_a_one_file_measure_are_full_width_and_centred_on_their_values(combined):
    checked = 0
    for p in combined["plots"]:
        if p.kind != "measure" or not p.bars or len(p.measures) != 1:
            continue
        (n, name), = p.measures
        field = schema_of(combined["headers"][n - 1]).field(name)
        values = [v for r in combined["records"][n - 1] for v in field.values(r) if v is not None]
        lo = min(values)
        starts = {lo + (v - lo) // p.step * p.step for v in values}
        assert sorted(round(b.x, 9) for b in p.bars) == sorted(s + (p.step - 1) / 2 for s in starts), p.title
        assert all(abs(b.width - 0.8 * p.step) < 1e-9 for b in p.bars), p.title
        assert abs(sum(b.height for b in p.bars) - 100) < 1e-6
        checked += 1
    assert checked >= 8
    unlucky = next(p for p in combined["plots"] if "Unlucky Hand" in p.title)
    assert {b.x for b in unlucky.bars} <= {0, 1, 2, 3}  # on the values, not at -0.35, 0.65...


# -- 4. legends outside the data, the even share labelled -------------------------------------------------
def test_legends_stay_off_the_data_and_the_even_share_is_labelled(combined):
    wins = [p for p in combined["plots"] if p.kind == "wins"]
    assert len(wins) == len(RUNS)
    for p in combined["plots"]:
        for legend in p.legends:
            assert not overlaps(legend, p.axes, 0.5), p.title
    for p in wins:
        texts = " ".join(t for t, _, _ in svg_texts(p.svg))
        assert "even share" in texts and "%" in texts.split("even share")[1], p.title


# -- 5. scores: one plot per game, never pooled -----------------------------------------------------------
def test_scores_have_one_plot_per_game(combined):
    scored = {h["game"] for h in combined["headers"] if schema_of(h).of("scores")}
    plots = [p for p in combined["plots"] if p.kind == "scores"]
    games = [{combined["headers"][n - 1]["game"] for n in p.files} for p in plots]
    assert sorted(g for gs in games for g in gs) == sorted(scored) and all(len(g) == 1 for g in games)
    assert not any("final scores (every seat)" in c for c, _ in figures(combined["html"]))


# -- 6. no text over text, and none smaller than the floor -------------------------------------------------
def test_no_text_runs_into_another_on_any_pdf_page(combined):
    for number, (d, _, images, rect) in enumerate(combined["pages"], 1):
        spans = [(s["text"], s["bbox"], s["size"]) for b in d["blocks"] for line in b.get("lines", ())
                 for s in line["spans"] if s["text"].strip()]
        assert not clashes([(t, box) for t, box, _ in spans]), (number, clashes([(t, box) for t, box, _ in spans]))
        assert all(size >= 6 - 1e-6 for _, _, size in spans), number
        body = [size for _, box, size in spans if box[3] < rect.height - 50]  # above the ruler strip
        assert all(size >= 7 - 1e-6 for size in body), (number, min(body))
        for im in images:  # a plot placed at its drawn size, near enough: its 8 pt text stays >= 7 pt
            assert (im["bbox"][2] - im["bbox"][0]) / (im["width"] / 200 * 72) >= 7 / 8


def test_no_text_runs_into_another_in_any_plot(combined):
    plots = figures(combined["html"])
    assert len(plots) == len(combined["plots"])
    for caption, svg in plots:
        texts = svg_texts(svg)
        assert texts, caption
        assert not clashes([(t, box) for t, _, box in texts]), (caption, clashes([(t, box) for t, _, box in texts]))
        assert all(size >= 7 for _, size, _ in texts), caption


def test_no_row_is_cut_short(combined):
    """The Keep Moving function-card row in full, every tally name in the PDF and the page."""
    n = next(i for i, h in enumerate(combined["headers"], 1) if h["game"] == "keepmoving")
    names = {k for r in combined["records"][n - 1] for k in r["functions"]}
    assert len(names) > 3
    pdf = pdf_sections(combined["pages"])[n].replace("- ", "-")  # (a name wrapped after its hyphen)
    for name in names:
        assert re.search(rf"\b{re.escape(name)} \d", pdf), name
        assert re.search(rf"\b{re.escape(name)} \d", combined["html"]), name


# -- 7. progress when a report takes a while ---------------------------------------------------------------
def test_report_shows_progress(combined, capsys, monkeypatch, tmp_path):
    """With the progress clock's thresholds at 0 (no waiting on the machine's speed), report tells
    each step on stderr: the file read, each plot, the PDF's pages."""
    import tubedeck.progress as progress

    real = progress.Progress

    def eager(label, total=None, **kw):
        return real(label, total, tty=False, start_after=0.0, every=0.0)
    monkeypatch.setattr(progress, "Progress", eager)
    from conftest import run_cli

    keepmoving = next(p for p in combined["files"] if p.name.startswith("keepmoving"))
    code, _, err = run_cli(capsys, "report", str(keepmoving), "--out", str(tmp_path))
    assert code == 0, err
    assert "report of 1 file: " in err and "reading keepmoving.jsonl" in err and "plot 1/" in err, err
    code, _, err = run_cli(capsys, "report", str(keepmoving), "--out", str(tmp_path), "--no-progress")
    assert code == 0 and "report of" not in err
    assert Path(tmp_path / "report.pdf").exists()
