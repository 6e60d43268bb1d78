"""``tubedeck report`` over mixes of games and of checks with simulations, and over files where a
seat wins every game, none or a shared one: no traceback, every simulated seat named by its bot,
no check's seat given a bot, every declared measure drawn, whole-number measures on whole-number
ticks. (A sweep over every non-empty mix of the five games' simulate files and two checks, and
over game counts 1-1,000, was run once; these are its representatives.)"""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'tubedeck[report]'; make test does)")

from engine.test_report_seats import SVG, assert_seats_named, clashes, figures, schema_of, svg_texts, words  # noqa: E402

RUNS = {
    "klm-check": ["check", "klm", "--deals", "6"],
    "oneday-check": ["check", "oneday", "--deals", "2"],
    "dice": ["simulate", "dice", "--games", "3", "--players", "2", "--bots", "random,greedy"],
    "keepmoving": ["simulate", "keepmoving", "--games", "3", "--bots", "greedy,random"],
}
MIXES = [("klm-check",), ("klm-check", "oneday-check"), ("oneday-check", "dice"),
         ("dice", "keepmoving", "klm-check", "oneday-check")]


def _main(argv: list[str]) -> str:
    from tubedeck.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            main(argv)
        except SystemExit as exc:
            assert exc.code in (0, None), (argv, exc.code, err.getvalue()[-2000:])
    return out.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("mixes")
    made = {}
    for name, args in RUNS.items():
        made[name] = root / f"{name}.jsonl"
        _main([*args, "--results", str(made[name]), "--no-progress", "--json"])
    return made


def _report(paths: list[Path], out: Path) -> tuple[list[dict], str, dict]:
    data = json.loads(_main(["report", *map(str, paths), "--out", str(out), "--json"]))
    headers = [json.loads(p.read_text().splitlines()[0]) for p in paths]
    return headers, (out / "report.html").read_text(), data


def _x_ticks(svg: str) -> list[str]:
    """The numeric labels matplotlib centres under the x axis (the y axis's stand at its left)."""
    out = []
    for el in ET.fromstring(svg).iter(f"{SVG}text"):
        text = "".join(el.itertext()).strip().replace("\u2212", "-")
        if "text-anchor: middle" in el.get("style", "") and re.fullmatch(r"-?\d+(\.\d+)?", text):
            out.append(text)
    return out


@pytest.mark.parametrize("mix", MIXES, ids=["+".join(m) for m in MIXES])
def test_a_mix_of_games_and_checks_names_every_seat_and_draws_every_measure(files, tmp_path, mix):
    headers, page, data = _report([files[m] for m in mix], tmp_path)
    sections = re.split(r"<h2>File \d+: ", page.split("<h2>Plots</h2>")[0])[1:]
    assert len(sections) == len(mix) == len(data["files"])
    captions = [c for c, _ in figures(page)]
    for n, (h, section, f) in enumerate(zip(headers, sections, data["files"], strict=True), 1):
        text = words(html.unescape(re.sub(r"<[^>]+>", " ", section)))
        if h.get("bots"):
            assert assert_seats_named(text, h["bots"], f"file {n}") >= h["players"]
            assert [s["bot"] for s in f["by_seat"]] == h["bots"]
            assert any(c.startswith("Win rate") and f"file {n}: " in c for c in captions), captions
        else:  # a check plays no bots: none is named
            assert not re.search(r"seat \d+ \((random|greedy|lookahead|mcts)", text), text
            assert all(s["bot"] is None for s in f["by_seat"])
        for field in schema_of(h).of("measure"):
            assert any(field.label in c and f"file {n} (" in c for c in captions), (n, field.name)
    for caption, svg in figures(page):
        texts = svg_texts(svg)
        assert not clashes([(t, box) for t, _, box in texts]), caption
        m = re.search(r"file (\d+)", caption)
        bots = headers[int(m.group(1)) - 1].get("bots") if m else None
        for label in (t for t, _, _ in texts if re.match(r"seat \d", t)):
            if bots:
                k, bot = re.fullmatch(r"seat (\d+) \((.+?)\)(?: started.*)?", label.replace("\n", " ")).groups()
                assert bot == bots[int(k) - 1], (caption, label)
        if caption.startswith("Distribution of") and "final scores" not in caption:
            ticks = _x_ticks(svg)
            # whole-number measures, none below 0 (counts): a lone value is named by its tick
            assert ticks and all(re.fullmatch(r"\d+", t) for t in ticks), (caption, ticks)


def _dice_file(path: Path, template: Path, games: int, wins: int, tie: bool) -> Path:
    """A 2-seat Tube Dice file of ``games`` games: seat 1 wins ``wins``, then (``tie``) one shared."""
    head, rec = (json.loads(line) for line in template.read_text().splitlines()[:2])
    lines = [json.dumps(head)]
    for s in range(games):
        scores, winners = ([20, 10], [1]) if s < wins else ([15, 15], [1, 2]) if tie and s == wins else ([10, 20], [2])
        lines.append(json.dumps({**rec, "seed": s, "scores": scores, "winners": winners}, sort_keys=True))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(("games", "wins", "tie"), [(1, 0, False), (1, 1, False), (1, 0, True), (7, 7, False),
                                                      (7, 0, False), (7, 6, True), (13, 4, True)])
def test_every_win_count_reports_with_its_share_inside_its_interval(files, tmp_path, games, wins, tie):
    path = _dice_file(tmp_path / "d.jsonl", files["dice"], games, wins, tie)
    headers, page, data = _report([path], tmp_path / "out")
    k = wins + (0.5 if tie and wins < games else 0)
    for seat, won in ((1, k), (2, games - k)):
        w = data["files"][0]["wins_by_seat"][str(seat)]
        lo, hi = w["interval95"]
        assert w["count"] == won and lo <= w["share"] == round(won / games, 4) <= hi, (seat, w)
        assert f"wins, seat {seat} ({headers[0]['bots'][seat - 1]})" in words(html.unescape(page))
    assert any(c.startswith("Win rate") for c, _ in figures(page))
