"""Atomic writes, forgiving names and the resumable deal runner."""

from __future__ import annotations

import functools
import json

import pytest

from tubedeck.atomic import atomic_open, write_bytes
from tubedeck.errors import UsageError
from tubedeck.names import fold, match_station
from tubedeck.solver.runner import run_deals

# -- atomic writes ---------------------------------------------------------------------------

def test_interrupted_write_leaves_nothing(tmp_path):
    target = tmp_path / "deck.pdf"
    with pytest.raises(KeyboardInterrupt):
        with atomic_open(target) as fh:
            fh.write(b"%PDF-half")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_interrupted_rewrite_keeps_the_old_file(tmp_path):
    target = write_bytes(tmp_path / "deck.pdf", b"old")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as fh:
            fh.write(b"new but broken")
            raise RuntimeError("render failed")
    assert target.read_bytes() == b"old" and len(list(tmp_path.iterdir())) == 1


def test_unwritable_destination_is_a_usage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UsageError, match="cannot create output directory"):
        write_bytes(blocker / "sub" / "deck.pdf", b"x")


# -- names -------------------------------------------------------------------------------------

NAMES = {"kx": "King's Cross St Pancras", "hw": "Harrow & Wealdstone", "sjp": "St James's Park", "ec": "Elephant & Castle",
         "bs": "Baker Street", "erb": "Edgware Road (Bakerloo)", "erh": "Edgware Road (Hammersmith & City)"}


@pytest.mark.parametrize("typed,ident", [
    ("kings cross st. pancras", "kx"), ("KING'S CROSS ST PANCRAS", "kx"), ("Harrow and Wealdstone", "hw"),
    ("Saint James's Park", "sjp"), ("st jamess park", "sjp"), ("elephant and castle", "ec"), ("kx", "kx"),
    ("baker st", "bs"), ("Baker St.", "bs"), ("kings cross", "kx"), ("edgware rd (bakerloo)", "erb"),
])
def test_names_match_forgivingly(typed, ident):
    assert match_station(typed, NAMES) == ident


def test_unknown_name_suggests():
    with pytest.raises(UsageError, match=r"did you mean 'Elephant & Castle'"):
        match_station("Elefant and Castle", NAMES)
    with pytest.raises(UsageError) as info:
        match_station("Zzyzx", NAMES)
    assert "did you mean" not in str(info.value)


def test_ambiguous_prefix_lists_the_choices():
    with pytest.raises(UsageError, match=r"ambiguous: 'Edgware Road \(Bakerloo\)' or 'Edgware Road \(Hammersmith & City\)'"):
        match_station("Edgware Rd", NAMES)


def test_every_london_name_finds_itself(london):
    pairs = {s: st.name for s, st in london.stations.items()}
    for ident, name in pairs.items():
        assert match_station(name, pairs) == ident
        assert match_station(name.upper().replace("'", ""), pairs) == ident


def test_fold_is_idempotent():
    for name in NAMES.values():
        assert fold(fold(name)) == fold(name)


# -- the runner --------------------------------------------------------------------------------

def _square_evaluator(offset: int):
    return lambda seed: {"value": seed * seed + offset}


FACTORY = functools.partial(_square_evaluator, 1)
HEADER = {"game": "test", "players": 2}


def test_runner_serial_and_parallel_agree(tmp_path):
    serial = list(run_deals(FACTORY, list(range(20)), HEADER, workers=1, progress=False))
    parallel = list(run_deals(FACTORY, list(range(20)), HEADER, workers=2, progress=False))
    assert serial == parallel == [{"seed": s, "value": s * s + 1} for s in range(20)]


def test_runner_resumes_and_appends(tmp_path):
    path = tmp_path / "r.jsonl"
    first = list(run_deals(FACTORY, list(range(5)), HEADER, results=path, progress=False))
    size_after_first = path.stat().st_size
    calls = []

    def counting_factory():
        return lambda seed: calls.append(seed) or {"value": seed * seed + 1}

    both = list(run_deals(counting_factory, list(range(8)), HEADER, results=path, progress=False))
    assert calls == [5, 6, 7]  # the first five came from the file
    assert both[:5] == first and len(both) == 8
    lines = path.read_text().splitlines()
    assert path.stat().st_size > size_after_first and len(lines) == 1 + 8
    assert json.loads(lines[0])["kind"] == "header"


def test_runner_refuses_corrupt_file_without_touching_it(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"kind": "header", "game": "test", "players": 2}\n{"seed": 1, "value": 2}\nnot json\n')
    before = path.read_bytes()
    with pytest.raises(UsageError, match=r"r.jsonl:3: corrupt results file"):
        list(run_deals(FACTORY, [1, 2], HEADER, results=path, progress=False))
    assert path.read_bytes() == before


def test_runner_refuses_other_parameters(tmp_path):
    path = tmp_path / "r.jsonl"
    list(run_deals(FACTORY, [1], HEADER, results=path, progress=False))
    before = path.read_bytes()
    with pytest.raises(UsageError, match="other parameters"):
        list(run_deals(FACTORY, [1], {"game": "test", "players": 3}, results=path, progress=False))
    assert path.read_bytes() == before


def test_runner_rejects_zero_workers():
    with pytest.raises(UsageError):
        list(run_deals(FACTORY, [1], HEADER, workers=0, progress=False))


def test_written_files_get_the_usual_permissions(tmp_path):
    """mkstemp creates 0600 files; a finished file must be readable as any other (0666 & ~umask)."""
    import stat

    from tubedeck.atomic import _umask

    path = write_bytes(tmp_path / "deck.pdf", b"x")
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()


def test_destination_that_is_a_directory_is_a_usage_error(tmp_path):
    (tmp_path / "deck.pdf").mkdir()
    with pytest.raises(UsageError, match="cannot write"):
        write_bytes(tmp_path / "deck.pdf", b"x")
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]  # no temporary file left behind


def test_runner_names_a_torn_last_line_and_leaves_it(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"kind": "header", "game": "test", "players": 2}\n{"seed": 1, "value": 2}\n{"seed": 2, "va')
    before = path.read_bytes()
    with pytest.raises(UsageError, match=r"r.jsonl:3: corrupt results file: the last line is incomplete"):
        list(run_deals(FACTORY, [1, 2], HEADER, results=path, progress=False))
    assert path.read_bytes() == before


def test_resume_reads_records_back_from_the_file(tmp_path):
    path = tmp_path / "r.jsonl"
    list(run_deals(FACTORY, list(range(4)), HEADER, results=path, progress=False))
    resumed = list(run_deals(lambda: (lambda s: {"value": -1}), list(range(4)), HEADER, results=path, progress=False))
    assert resumed == [{"seed": s, "value": s * s + 1} for s in range(4)]  # none recomputed
