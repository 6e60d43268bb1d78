"""`tubedeck build`: manifest, exports, determinism, atomic writes and exit codes, on real files."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

import tubedeck.atomic as atomic
from tubedeck.cli import build as build_cmd
from tubedeck.errors import UsageError
from tubedeck.generator import Card, Deck, PrintOptions, render
from tubedeck.network import Network

from conftest import run_cli as run

TINY = Path(__file__).resolve().parent.parent / "data" / "tinycity"


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])




def test_sampler_build_manifest_json(tmp_path, capsys):
    code, out, _ = run(capsys, "build", "sampler", "--data", str(TINY), "--out", str(tmp_path),
                       "--export", "pdf,cards,png,svg,contact", "--json")
    assert code == 0
    manifest = json.loads(out)
    paths = {f["path"]: f for f in manifest["files"]}
    n = len(manifest["decks"]["sampler/stations"])
    assert paths["sampler/stations.pdf"]["pages"] == 2 * -(-n // 9)
    assert paths["sampler/stations-cards.pdf"]["pages"] == 2 * n
    assert paths["sampler/lines.pdf"]["pages"] == 1
    for f in manifest["files"]:
        assert (tmp_path / f["path"]).is_file()
    first = manifest["decks"]["sampler/stations"][0]
    assert png_size(tmp_path / f"sampler/png/stations/{first}-front.png") == (750, 1050)  # 63.5 x 88.9 @ 300
    svg = (tmp_path / "sampler/svg/stations/back.svg").read_text()  # the deck's shared back, once
    assert 'width="63.5mm"' in svg and 'height="88.9mm"' in svg
    assert not (tmp_path / f"sampler/svg/stations/{first}-back.svg").exists()
    assert not list(tmp_path.rglob("*.part"))


@pytest.mark.parametrize("pod, size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_pod_png_sizes(tmp_path, pod, size):
    deck = Deck("d", [Card("a", lambda pen: pen.background("#DC241F"))], back=lambda pen: None)
    manifest = render([deck], PrintOptions.parse(pod=pod, export="png"), tmp_path / "g")
    pngs = [tmp_path / f.path for f in manifest.files if f.kind == "png"]
    assert len(pngs) == 2 and all(png_size(p) == size for p in pngs)
    assert {f.kind for f in manifest.files} == {"png", "cards-pdf"}


def test_two_builds_are_byte_identical(tmp_path, capsys):
    for d in ("one", "two"):
        assert run(capsys, "build", "sampler", "--data", str(TINY), "--out", str(tmp_path / d), "--bleed", "3",
                   "--export", "pdf,cards,png,svg,contact", "--mode", "cmyk")[0] == 0
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert len(files) > 10
    for rel in files:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), rel
    assert b"CreationDate" not in (tmp_path / "one/sampler/stations.pdf").read_bytes() or \
        b"D:20000101" in (tmp_path / "one/sampler/stations.pdf").read_bytes()


def test_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    deck = Deck("d", [Card("a", lambda pen: pen.rect(0, 0, 10, 10, fill="#000000"))])
    render([deck], PrintOptions.parse(export="pdf"), tmp_path / "g")
    target = tmp_path / "g" / "d.pdf"
    before = target.read_bytes()

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        render([deck], PrintOptions.parse(export="pdf", mode="greyscale"), tmp_path / "g")
    assert target.read_bytes() == before  # the old file is untouched, not half-replaced
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == ["d.pdf"]


def test_text_fit_error_writes_nothing_and_exits_2(tmp_path, monkeypatch, capsys):
    def overflow(job):
        from tubedeck.generator import Rect

        def face(pen):
            pen.text_box(Rect(0, 0, 5, 2), "Cutty Sark for Maritime Greenwich", min_size=6, field="name")
        return [Deck("bad", [Card("cutty-sark", face)])]

    monkeypatch.setattr(build_cmd, "buildable", lambda: {"broken": overflow})
    code, _, err = run(capsys, "build", "all", "--data", str(TINY), "--out", str(tmp_path))
    assert code == 2 and "bad/cutty-sark front" in err and "'name'" in err
    assert not list(tmp_path.rglob("*.pdf"))


def test_build_all_prints_stats_then_manifest(tmp_path, monkeypatch, capsys):
    only = {"sampler": build_cmd.buildable()["sampler"]}
    monkeypatch.setattr(build_cmd, "buildable", lambda: only)
    code, out, _ = run(capsys, "build", "all", "--data", str(TINY), "--out", str(tmp_path))
    assert code == 0
    assert out.index("stations") < out.index("Wrote")  # summary table first
    assert (tmp_path / "sampler" / "stations.pdf").is_file() and "stations: " in out


def test_a_long_build_off_a_terminal_prints_where_it_is_every_10_s(tmp_path, monkeypatch, capsys):
    """stderr redirected: a build over 2 s writes 'build GAME: at FILE page i/n, T s' lines (at most
    one per 10 s of its clock), a quick one none; stdout and every file are the same either way."""
    from tubedeck import progress as progress_module

    args = ["--data", str(TINY), "--export", "pdf,png,contact"]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: 0.0)  # a build that takes no time
    fast = run(capsys, "build", "sampler", *args, "--out", str(tmp_path / "fast"))
    monkeypatch.undo()
    assert fast[0] == 0 and fast[2] == ""  # under 2 s: not a word on stderr
    clock = [0.0]

    def slow() -> float:  # every look at the clock: 3 s later
        clock[0] += 3.0
        return clock[0]

    monkeypatch.setattr(progress_module.time, "monotonic", slow)
    code, out, err = run(capsys, "build", "sampler", *args, "--out", str(tmp_path / "slow"))
    monkeypatch.undo()
    assert code == 0
    lines = err.splitlines()
    assert len(lines) >= 3, err
    seconds = []
    for line in lines:
        assert line.startswith(("build sampler: at sampler edition, ", "build sampler: at sampler/")), line
        seconds.append(int(line.rsplit(", ", 1)[1].removesuffix(" s")))
    assert all(b - a >= 10 for a, b in zip(seconds, seconds[1:])), seconds
    assert any(" page " in line and ".pdf" in line for line in lines) and any(" PNG " in line for line in lines)
    assert out.replace(str(tmp_path / "slow"), "OUT") == fast[1].replace(str(tmp_path / "fast"), "OUT")
    files = sorted(f.relative_to(tmp_path / "fast") for f in (tmp_path / "fast").rglob("*") if f.is_file())
    assert files == sorted(f.relative_to(tmp_path / "slow") for f in (tmp_path / "slow").rglob("*") if f.is_file())
    for f in files:
        assert (tmp_path / "fast" / f).read_bytes() == (tmp_path / "slow" / f).read_bytes(), f
    monkeypatch.setattr(progress_module.time, "monotonic", slow)
    code, out, err = run(capsys, "build", "sampler", *args, "--out", str(tmp_path / "json"), "--json")
    monkeypatch.undo()
    assert code == 0 and err == "" and json.loads(out)["files"]  # --json: stderr stays quiet


@pytest.mark.parametrize("game", ["sampler", "klm", "oneday", "keepmoving", "dice", "nextstation"])
def test_a_card_whose_margins_leave_no_room_is_refused_by_its_size(tmp_path, capsys, game):
    """--card 10x10: 4.5 mm margins each side leave 1 x 1 mm; it said 'the name needs more than -1.0 mm'."""
    code, out, err = run(capsys, "build", game, "--card", "10x10", "--out", str(tmp_path))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "error: card size '10x10': its safe area (4.5 mm margins each side) leaves 1 x 1 mm, no room for a face: "
        "each side must be at least 19 mm (the smallest named size, mini 44.5 x 63.5 mm, prints every game)"]
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("game", ["sampler", "klm", "oneday", "keepmoving"])
def test_a_card_too_small_for_a_face_names_the_size_and_no_negative_room(tmp_path, capsys, game):
    code, out, err = run(capsys, "build", game, "--card", "20x20", "--out", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "a 20 x 20 mm card cannot carry this face" in lines[0], err
    assert " -" not in lines[0]  # no negative width or height
    assert not list(tmp_path.rglob("*.pdf"))


def test_card_sides_19_to_300_mm():
    from tubedeck.generator.sizes import parse_card

    assert (parse_card("19x300").width, parse_card("19x300").height) == (19, 300)
    for bad, words in (("18.9x60", "leaves 9.9 x 51 mm"), ("60x10", "leaves 51 x 1 mm"),
                       ("60x300.5", "at most 300 mm")):
        with pytest.raises(UsageError, match=words):
            parse_card(bad)


@pytest.mark.parametrize("args, words", [
    (["--paper", "a3"], "paper"), (["--card", "5x5"], "card"), (["--mode", "sepia"], "mode"),
    (["--duplex", "both"], "duplex"), (["--export", "pdf,gif"], "export"), (["--bleed", "9"], "bleed"),
    (["--pod", "xyz"], "pod"), (["--back-offset", "1"], "back-offset"), (["--orientation", "up"], "orientation"),
])
def test_bad_options_exit_2(tmp_path, capsys, args, words):
    code, _, err = run(capsys, "build", "sampler", "--data", str(TINY), "--out", str(tmp_path), *args)
    assert code == 2 and words in err


def test_unwritable_output_exits_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, "build", "sampler", "--data", str(TINY), "--out", str(blocker / "sub"))
    assert code == 2 and "cannot create output directory" in err


def test_build_command_takes_the_print_options_and_the_game_options(tmp_path, capsys):
    # build klm: its declared --scope plus every shared print option, one generated command
    code, out, _ = run(capsys, "build", "klm", "--data", str(TINY), "--scope", "zone 1", "--paper", "letter",
                       "--out", str(tmp_path), "--json")
    assert code == 0
    manifest = json.loads(out)
    assert "letter" in manifest["layouts"]["klm/stations"]
    net = Network.load(TINY)
    zone1 = sorted((st.name.lower(), st.id) for st in net.stations.values() if 1 in st.zones)
    assert manifest["decks"]["klm/stations"] == [i for _, i in zone1] and len(zone1) < len(net.stations)


@pytest.mark.parametrize("args, option", [
    (["--back-offset", "nan,0"], "--back-offset"), (["--back-offset", "0,inf"], "--back-offset"),
    (["--bleed", "nan"], "--bleed"), (["--gap", "inf"], "--gap"), (["--gap", "-inf"], "--gap"),
    (["--card", "1" + "0" * 400 + "x90"], "card size"),
])
def test_non_finite_numbers_are_usage_errors(tmp_path, capsys, args, option):
    code, _, err = run(capsys, "build", "sampler", "--data", str(TINY), "--out", str(tmp_path), *args)
    assert code == 2 and option in err and "finite" in err
    assert "Traceback" not in err and not list(tmp_path.rglob("*.pdf"))


def png_dpi(data: bytes) -> tuple[float, float]:
    """Horizontal and vertical dpi from a PNG's pHYs chunk (unit 1 = pixels per metre)."""
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[pos + 8:pos + 17])
            assert unit == 1
            return x * 0.0254, y * 0.0254
        if kind == b"IDAT":
            break  # pHYs must come before the image data
        pos += 12 + length
    raise AssertionError("no pHYs chunk")


@pytest.mark.parametrize("dpi", [300, 150])
def test_pngs_are_tagged_with_their_dpi(tmp_path, dpi):
    deck = Deck("d", [Card("a", lambda pen: pen.background("#DC241F"))])
    manifest = render([deck], PrintOptions.parse(export="png,contact", dpi=dpi), tmp_path / "g")
    pngs = {f.kind: (tmp_path / f.path).read_bytes() for f in manifest.files}
    assert png_dpi(pngs["png"]) == pytest.approx((dpi, dpi), abs=0.05)
    assert png_size(tmp_path / "g/png/d/a-front.png") == (round(63.5 / 25.4 * dpi), round(88.9 / 25.4 * dpi))
    assert png_dpi(pngs["contact"]) == pytest.approx((150, 150), abs=0.05)  # one small card: 150 dpi


def test_build_facts_sheet_from_the_latest_results(tmp_path, monkeypatch, capsys):
    """``build GAME --facts`` adds deck-facts.pdf from the newest results of that game in output/checks."""
    import pymupdf

    from conftest import run_cli

    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "build", "oneday", "--facts", "--export", "pdf", "--out", "o")
    assert code == 2 and "no results of oneday" in err
    assert run_cli(capsys, "simulate", "oneday", "--games", "2", "--players", "2", "--no-progress")[0] == 0
    code, _, err = run_cli(capsys, "build", "oneday", "--facts", "--export", "pdf", "--out", "o")
    assert code == 0, err
    with pymupdf.open(tmp_path / "o" / "oneday" / "deck-facts.pdf") as pdf:
        text = pdf[0].get_text()
    assert "Deck facts: oneday" in text and "records" in text and "wins, seat 1" in text
