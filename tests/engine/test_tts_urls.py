"""The Tabletop Simulator export loads as written: `tubedeck build GAME --export tts` names each
image by the --out folder's own absolute file:/// address (the file is there), or by --tts-url's
address for images hosted elsewhere; the build says which."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

from conftest import run_cli as run

TINY = Path(__file__).resolve().parents[1] / "data" / "tinycity"


def urls(saved: Path) -> list[str]:
    text = saved.read_text(encoding="utf-8")
    return [v for k, v in _pairs(json.loads(text)) if k in ("ImageURL", "FaceURL", "BackURL")]


def _pairs(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k, v
            yield from _pairs(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _pairs(v)


def test_the_default_urls_are_the_built_files_own(capsys, tmp_path):
    out = tmp_path / "a folder with spaces"
    code, said, err = run(capsys, "build", "sampler", "--data", str(TINY), "--export", "tts", "--out", str(out))
    assert code == 0, err
    found = urls(out / "sampler" / "tts" / "sampler.json")
    assert found and all(u.startswith(out.resolve().as_uri() + "/sampler/tts/") for u in found), found[:2]
    for u in found:  # each loads: a file that is there
        assert Path(unquote(urlparse(u).path)).is_file(), u
    assert f"load their images from {out.resolve().as_uri()}/GAME/tts/" in said


def test_a_hosted_address_and_its_mistakes(capsys, tmp_path):
    out = tmp_path / "out"
    code, said, err = run(capsys, "build", "sampler", "--data", str(TINY), "--export", "tts", "--out", str(out),
                          "--tts-url", "https://example.org/decks")
    assert code == 0, err
    assert all(u.startswith("https://example.org/decks/sampler/tts/") for u in urls(out / "sampler/tts/sampler.json"))
    for bad, says in ((("--tts-url", "example.org"), "give a file:/// folder"),
                      (("--tts-url", "https://x.org/a b"), "no spaces")):
        code, _, err = run(capsys, "build", "sampler", "--data", str(TINY), "--export", "tts", "--out", str(out), *bad)
        assert code == 2 and says in err, err
    code, _, err = run(capsys, "build", "sampler", "--data", str(TINY), "--out", str(out), "--tts-url", "https://x.org/")
    assert code == 2 and "add --export tts" in err


def test_an_export_that_writes_nothing_for_a_game_says_so(capsys, tmp_path):
    """A game that prints no cards (Tube Dice did, before its cover card): --export png wrote nothing
    and said nothing. Every game now prints a card, so the rule is held on a manifest of sheets only."""
    from tubedeck.cli.build import unwritten
    from tubedeck.games import registry
    from tubedeck.generator import Manifest, ManifestFile

    sheets_only = Manifest("")
    sheets_only.files.append(ManifestFile("dice/sheet.pdf", "sheet-pdf", 11, "sheet"))
    said = unwritten(registry()["dice"], ("png", "pdf"), sheets_only)
    assert said and "--export png writes one file per card" in said[0] and "nothing written" in said[0]
    code, out, err = run(capsys, "build", "dice", "--export", "png,pdf", "--out", str(tmp_path))
    assert code == 0 and "nothing written" not in err, err  # its cover card is written
    code, out, err = run(capsys, "build", "klm", "--scope", "zone 1", "--export", "png,pdf", "--out", str(tmp_path))
    assert code == 0 and "nothing written" not in err


def test_pod_refuses_a_bleed_it_would_not_use(capsys, tmp_path):
    """--pod mpc --bleed 6 took the bleed and printed every per-card PNG with MPC's own, silently."""
    code, _, err = run(capsys, "build", "klm", "--pod", "mpc", "--bleed", "6", "--out", str(tmp_path))
    assert code == 2 and "MakePlayingCards templates carry their own bleed" in err and "drop --bleed 6" in err, err
