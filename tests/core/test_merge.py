"""``tubedeck merge`` refuses what is not one whole run (issue 23 item 4): shards that are incomplete,
torn, still being written, of other runs, with a bad shard spec or a record the game's schema
refuses; it names the missing seeds; ``--allow-partial`` writes what there is and says so. Every
refusal is exit 2 with the reason, and leaves no file behind. The sweeps generate the bad shards."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tubedeck.cli.run import MAX_SHARDS as CLI_MAX_SHARDS
from tubedeck.errors import UsageError
from tubedeck.games import record_schema
from tubedeck.solver.merge import MAX_SHARDS, merge_shards
from tubedeck.solver.results import open_locked

from conftest import run_cli as run

DEALS = 12
CHECK = ("check", "klm", "--deals", str(DEALS), "--players", "3", "--no-progress", "--scope", "zone 1")


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A full run's file and its three shards (seeds 5..16), made once."""
    from tubedeck.cli import main

    root = tmp_path_factory.mktemp("shards")
    for name, extra in [("full", ()), ("s1", ("--shard", "1/3")), ("s2", ("--shard", "2/3")), ("s3", ("--shard", "3/3"))]:
        with pytest.raises(SystemExit) as done:
            main([*CHECK, "--seed", "5", "--results", str(root / f"{name}.jsonl"), *extra])
        assert not done.value.code
    return root


@pytest.fixture
def shards(made, tmp_path) -> list[Path]:
    out = []
    for k in (1, 2, 3):
        shutil.copy(made / f"s{k}.jsonl", tmp_path / f"s{k}.jsonl")
        out.append(tmp_path / f"s{k}.jsonl")
    return out


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def refused(capsys, out: Path, *files: Path, extra: tuple[str, ...] = ()) -> str:
    """Merge ``files`` into ``out``: it must exit 2 with a message, no traceback, and no file."""
    code, stdout, err = run(capsys, "merge", str(out), *map(str, files), *extra)
    assert code == 2, (code, stdout, err)
    assert "Traceback" not in err and err.strip()
    assert not out.exists()
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".part")], "a temporary file was left"
    return " ".join(err.split())


def test_the_shards_merge_into_the_single_run_file(made, shards, tmp_path, capsys):
    header = json.loads(lines(shards[1])[0])
    assert header["shard"] == "2/3" and header["shard_of"] == {"first": 5, "count": DEALS}
    out = tmp_path / "merged.jsonl"
    code, stdout, err = run(capsys, "merge", str(out), *map(str, reversed(shards)), "--json")
    assert code == 0, err
    assert out.read_bytes() == (made / "full.jsonl").read_bytes()
    assert json.loads(stdout) | {"results": ""} == {"results": "", "records": DEALS, "shards": 3, "of": 3,
                                                     "partial": False, "missing": 0, "missing_examples": [],
                                                     "missing_shards": []}


def test_every_missing_record_is_named(shards, tmp_path, capsys):
    """Sweep: drop each record of each shard in turn (an interrupted shard): refused, naming that seed."""
    cases = 0
    for shard in shards:
        original = lines(shard)
        for i in range(1, len(original)):
            seed = json.loads(original[i])["seed"]
            shard.write_bytes(b"".join(original[:i] + original[i + 1:]))
            msg = refused(capsys, tmp_path / "out.jsonl", *shards)
            assert f"1 seed missing ({seed})" in msg and "--allow-partial" in msg, msg
            cases += 1
        shard.write_bytes(b"".join(original))
    assert cases == DEALS


def test_a_shard_cut_anywhere_is_refused(shards, tmp_path, capsys):
    """Sweep: cut a shard at every byte past its header (a run killed mid-write, or stopped)."""
    original = shards[0].read_bytes()
    start = len(lines(shards[0])[0])
    cuts = range(start, len(original), 7)
    for cut in cuts:
        shards[0].write_bytes(original[:cut])
        msg = refused(capsys, tmp_path / "out.jsonl", *shards)
        assert "cut short" in msg or "missing" in msg, msg
    assert len(cuts) > 50


def test_a_torn_last_line_says_so(shards, tmp_path, capsys):
    shards[2].write_bytes(shards[2].read_bytes()[:-20])
    assert "incomplete: the last line is cut short" in refused(capsys, tmp_path / "out.jsonl", *shards)


def test_a_shard_still_being_written_is_refused(shards, tmp_path, capsys):
    held = open_locked(shards[1])  # as a running check holds it
    try:
        msg = refused(capsys, tmp_path / "out.jsonl", *shards)
    finally:
        held.close()
    assert f"{shards[1]}: still being written" in msg
    assert run(capsys, "merge", str(tmp_path / "out.jsonl"), *map(str, shards))[0] == 0


BOGUS = ["BOGUS", -1, None, 10**30, [], {}, True, 1.5, "x" * 1000]


def test_every_field_of_every_record_is_validated(shards, tmp_path, capsys):
    """Sweep: each declared top-level field of a record set to each bogus value (a BOGUS status, a
    negative turn, ...): refused with the game's schema's reason, or, for the few values a field
    does take, merged. Dropping a field is refused too. (A field the schema does not declare, such
    as klm's 'outside', or a 'detail' one the game's rule checks, is the schema's business.)"""
    original = lines(shards[0])
    record = json.loads(original[2])
    header = {k: v for k, v in json.loads(original[0]).items() if k != "kind"}
    declared = {f.name for f in record_schema(header).fields if not f.nested and f.kind != "detail"} & set(record)
    declared -= {"seed"}
    assert len(declared) >= 4
    refusals = 0
    for key in sorted(declared):
        for value in BOGUS + ["drop"]:
            bad = dict(record)
            if value == "drop":
                del bad[key]
            else:
                bad[key] = value
            shards[0].write_bytes(b"".join(original[:2] + [(json.dumps(bad, sort_keys=True) + "\n").encode()]
                                          + original[3:]))
            out = tmp_path / "out.jsonl"
            code, _, err = run(capsys, "merge", str(out), *map(str, shards))
            if code == 0:  # a value that field may hold: the merge must then keep it as given
                assert value == record[key] or (key, value) in ALLOWED, (key, value)
                out.unlink()
                continue
            assert code == 2 and "Traceback" not in err and not out.exists()
            assert f"seed {record['seed']}: not a record of klm check" in " ".join(err.split()), err
            refusals += 1
    shards[0].write_bytes(b"".join(original))
    assert refusals >= 0.9 * len(declared) * (len(BOGUS) + 1)


ALLOWED: set = set()  # (field, value) pairs a klm check record may hold among BOGUS: none


def test_a_bogus_status_is_refused(shards, tmp_path, capsys):
    original = lines(shards[1])
    bogus = json.loads(original[1]) | {"status": "BOGUS"}
    shards[1].write_bytes(b"".join([original[0], (json.dumps(bogus, sort_keys=True) + "\n").encode()] + original[2:]))
    assert "not a record of klm check ('status' must be" in refused(capsys, tmp_path / "out.jsonl", *shards)


def test_foreign_and_misplaced_lines_are_refused(shards, tmp_path, capsys):
    original = lines(shards[0])
    second = json.loads(original[1])
    cases = {
        b"not json\n": "not JSON",
        b"[1, 2]\n": "not a JSON object",
        original[0]: "a second header line",
        b'{"seed": "7"}\n': "whole-number 'seed'",
        (json.dumps(second | {"seed": 6}, sort_keys=True) + "\n").encode(): "seed 6 is not in shard 1/3",
        (json.dumps(second | {"seed": 10**6}, sort_keys=True) + "\n").encode(): "is not in shard 1/3",
        b"x" * (1 << 20) + b"\n": "longer than",
    }
    for line, why in cases.items():
        shards[0].write_bytes(b"".join(original[:2] + [line] + original[2:]))
        assert why in refused(capsys, tmp_path / "out.jsonl", *shards), why
    shards[0].write_bytes(b"".join([original[0], original[2], original[1]] + original[3:]))
    assert "out of order" in refused(capsys, tmp_path / "out.jsonl", *shards)


SPECS = ["1/0", "0/3", "4/3", "1/10000000000", f"1/{MAX_SHARDS + 1}", "a/b", "1/", "/3", "", "3", "1/3/3",
         "²/3", " 1/3", "-1/3", "1.0/3", 3, None, ["1", "3"], "1/" + "9" * 5000]


@pytest.mark.parametrize("spec", SPECS, ids=repr)
def test_a_bad_shard_spec_is_refused(shards, tmp_path, capsys, spec):
    """'1/0' alone merged a header-only file; '1/10000000000' ran out of memory."""
    header = json.loads(lines(shards[0])[0]) | {"shard": spec}
    shards[0].write_bytes((json.dumps(header) + "\n").encode() + b"".join(lines(shards[0])[1:]))
    msg = refused(capsys, tmp_path / "out.jsonl", shards[0])
    assert "shard" in msg, msg


def test_the_largest_shard_count_merges_flat(shards, tmp_path, capsys):
    """1/1000000 of 12 seeds: the slices past seed 12 are empty; merge names the 11 missing seeds
    at once and never lists a million shards."""
    lines0 = lines(shards[0])
    header = json.loads(lines0[0]) | {"shard": f"1/{MAX_SHARDS}"}
    shards[0].write_bytes((json.dumps(header) + "\n").encode() + lines0[1])  # seed 5 only
    start = time.monotonic()
    msg = refused(capsys, tmp_path / "out.jsonl", shards[0])
    assert f"missing shard(s) 2/{MAX_SHARDS}, 3/{MAX_SHARDS}" in msg and "999989 more" in msg
    assert "11 seeds missing (6, 7, 8, 9, 10, 11, 12, 13, 14, 15 and 1 more)" in msg, msg
    merged = merge_shards(tmp_path / "part.jsonl", [shards[0]], record_schema, allow_partial=True)
    assert (merged.records, merged.missing) == (1, 11)
    assert time.monotonic() - start < 10
    assert MAX_SHARDS == CLI_MAX_SHARDS


@pytest.mark.parametrize("of", [None, "5+12", {"first": 5}, {"first": -1, "count": 12}, {"first": 5, "count": 0},
                                {"first": 5, "count": 12, "x": 1}, {"first": True, "count": 12},
                                {"first": 5, "count": 2**63}])
def test_a_bad_seed_range_is_refused(shards, tmp_path, capsys, of):
    header = json.loads(lines(shards[0])[0])
    header.pop("shard_of") if of is None else header.update(shard_of=of)
    shards[0].write_bytes((json.dumps(header) + "\n").encode() + b"".join(lines(shards[0])[1:]))
    assert "shard_of" in refused(capsys, tmp_path / "out.jsonl", *shards)


def test_mixed_headers_name_what_differs(shards, tmp_path, capsys):
    """Sweep: change each header key of shard 2 in turn: refused, naming that key."""
    original = lines(shards[1])
    header = json.loads(original[0])
    for key in sorted(set(header) - {"kind", "shard", "shard_of"}):
        changed = header | {key: "other"}
        shards[1].write_bytes((json.dumps(changed) + "\n").encode() + b"".join(original[1:]))
        msg = refused(capsys, tmp_path / "out.jsonl", *shards)
        assert f"({key} differ)" in msg, (key, msg)
    for change, why in [({"shard_of": {"first": 6, "count": DEALS}}, "does not belong"),
                        ({"shard": "2/4"}, "does not belong"),
                        ({"shard": "1/3"}, "given twice")]:
        shards[1].write_bytes((json.dumps(header | change) + "\n").encode() + b"".join(original[1:]))
        assert why in refused(capsys, tmp_path / "out.jsonl", *shards), change


def test_missing_shards_name_their_seeds(shards, tmp_path, capsys):
    msg = refused(capsys, tmp_path / "out.jsonl", shards[0], shards[2])
    assert "missing shard(s) 2/3: merge needs all 3 (4 seeds missing (6, 9, 12, 15))" in msg, msg


def test_allow_partial_writes_what_there_is_and_says_so(made, shards, tmp_path, capsys):
    original = lines(shards[2])
    shards[2].write_bytes(b"".join(original[:-1]))  # its last seed, 16, not computed
    out = tmp_path / "out.jsonl"
    code, stdout, err = run(capsys, "merge", str(out), str(shards[0]), str(shards[2]), "--allow-partial")
    assert code == 0, err
    text = " ".join(stdout.split())
    assert "merged 2 of 3 shards: 7 records" in text and "PARTIAL" in text
    assert "5 seeds missing (6, 9, 12, 15, 16)" in text, text
    full = lines(made / "full.jsonl")
    kept = [ln for ln in full[1:] if json.loads(ln)["seed"] not in (6, 9, 12, 15, 16)]
    assert lines(out) == [full[0]] + kept
    # As said: resuming the check on the merged file computes the missing seeds.
    code, _, err = run(capsys, *CHECK, "--seed", "5", "--results", str(out))
    assert code == 0, err
    assert lines(out) == full  # in seed order: the very file one run writes


def test_the_output_must_be_new(shards, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    out.write_text("keep me")
    code, _, err = run(capsys, "merge", str(out), *map(str, shards))
    assert code == 2 and "exists" in err and out.read_text() == "keep me"
    with pytest.raises(UsageError, match="given twice"):
        merge_shards(tmp_path / "o.jsonl", [shards[0], shards[0]], record_schema)
