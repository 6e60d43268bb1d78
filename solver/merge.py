"""``tubedeck merge``: join the results files of one run's shards (``--shard K/N``) into the file a
single run would have written, byte for byte.

What a merge refuses, each with its reason (exit 2), before anything is written:

* a shard still being written (a running check holds its lock) or not a regular file;
* a header that is not a shard's (no ``shard``, a ``shard`` that is not K/N with
  1 <= K <= N <= :data:`MAX_SHARDS`, no ``shard_of`` saying which seeds the run had), or shards of
  different runs (the keys that differ are named);
* a line that is torn, overlong, not JSON, a seed outside its shard's slice or out of order, or a
  record the game's declared schema refuses (``schema_of``: :func:`tubedeck.games.record_schema`);
* missing seeds: whole shards not given, or seeds a shard does not hold (an interrupted run),
  named (the first ten and how many). ``allow_partial`` writes what there is instead and says so.

Memory stays flat: records stream through ``heapq.merge`` one line per shard at a time, and
missing seeds are counted by arithmetic, never listed. The output is written atomically: a refusal
found while streaming leaves no file.
"""

from __future__ import annotations

import contextlib
import heapq
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from tubedeck.content import is_whole_text
from tubedeck.errors import UsageError
from tubedeck.records import is_whole
from tubedeck.results_file import MAX_LINE, BadLine, Line, lines, open_regular, players_of
from tubedeck.words import plural

try:
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

MAX_SHARDS = 10**6  # as --shard allows
MAX_SEED = 2**62
SHARD_KEYS = ("shard", "shard_of")  # a shard's own header keys; the merged header drops them
EXAMPLES = 10  # missing seeds named in a message


def shard_facts(shard: tuple[int, int], seeds: range) -> dict:
    """The header keys of shard ``(k, n)`` of a run over ``seeds`` (its slice
    ``range(first + k - 1, first + count, n)``): which shard, and the whole run's seeds, so a merge
    can name what is missing."""
    k, n = shard
    first = seeds.start - (k - 1)
    return {"shard": f"{k}/{n}", "shard_of": {"first": first, "count": seeds.stop - first}}


@dataclass
class Gaps:
    """Missing seeds, counted (and the first few kept) without listing them."""

    count: int = 0
    examples: list[int] = field(default_factory=list)

    def add(self, seeds: range) -> None:
        """Count ``seeds`` (a rising range) as missing, keeping the smallest few to name."""
        if not seeds:
            return
        self.count += len(seeds)
        if len(self.examples) < EXAMPLES or seeds[0] < self.examples[-1]:
            self.examples = sorted(set(self.examples) | set(seeds[:EXAMPLES]))[:EXAMPLES]

    def describe(self) -> str:
        shown = ", ".join(str(s) for s in self.examples)
        more = f" and {self.count - EXAMPLES} more" if self.count > EXAMPLES else ""
        return f"{plural(self.count, 'seed')} missing ({shown}{more})"


@dataclass
class Shard:
    path: Path
    fh: IO[bytes]
    header: dict
    k: int
    n: int
    first: int
    count: int

    @property
    def seeds(self) -> range:
        return range(self.first + self.k - 1, self.first + self.count, self.n)


@dataclass(frozen=True)
class Merged:
    """What a merge wrote: records, the shards given and what is missing (``allow_partial`` only)."""

    out: Path
    records: int
    shards: int
    of: int
    missing: int = 0
    examples: tuple[int, ...] = ()
    missing_shards: tuple[int, ...] = ()
    command: str = "check"  # what made the shards: "check" or "simulate" (the header's mode)

    @property
    def partial(self) -> bool:
        return self.missing > 0

    def describe(self) -> list[str]:
        lines = [f"merged {self.shards} of {plural(self.of, 'shard')}: {plural(self.records, 'record')} "
                 f"into {self.out}"]
        if self.partial:
            gaps = Gaps(self.missing, list(self.examples))
            what = "simulation" if self.command == "simulate" else "check"
            lines.append(f"PARTIAL (--allow-partial): {gaps.describe()}; to compute them, run the same {what} "
                         f"again without --shard, with --results {self.out} (the file ends in seed order)")
        return lines

    def as_dict(self) -> dict:
        return {"results": str(self.out), "records": self.records, "shards": self.shards, "of": self.of,
                "partial": self.partial, "missing": self.missing, "missing_examples": list(self.examples),
                "missing_shards": list(self.missing_shards)}


def _open_shard(path: Path) -> IO[bytes]:
    """Open a shard for reading: a regular file that no running check holds (a shared lock, kept
    for the merge, so none starts on it meanwhile)."""
    fh = open_regular(path)
    if fcntl is not None:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            raise UsageError(f"{path}: still being written (a running check holds its lock); "
                             "merge it when that run has finished") from None
    return fh


def _header(path: Path, fh: IO[bytes]) -> tuple[dict, int, int, int, int]:
    raw = fh.readline(MAX_LINE + 1)  # the first line itself, blank or not: a shard starts with its header
    try:
        header = json.loads(raw) if raw.endswith(b"\n") and len(raw) <= MAX_LINE else None
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get("kind") != "header":
        raise UsageError(f"{path}:1: not a results file (no header line)")
    if "shard" not in header:
        raise UsageError(f"{path}: not a shard's results (no 'shard' in its header); run with --shard K/N")
    spec = header["shard"]
    left, slash, right = spec.partition("/") if isinstance(spec, str) else ("", "", "")
    if not (slash and is_whole_text(left) and is_whole_text(right)) or not 1 <= int(left) <= int(right) <= MAX_SHARDS:
        raise UsageError(f"{path}:1: the header's shard {spec!r} is not K/N with 1 <= K <= N <= {MAX_SHARDS}")
    k, n = int(left), int(right)
    of = header.get("shard_of")
    if of is None:
        raise UsageError(f"{path}:1: the header does not say which seeds the run had (no 'shard_of': made by an "
                         "older tubedeck); re-run that shard to merge it")
    if not (isinstance(of, dict) and set(of) == {"first", "count"} and is_whole(of["first"], 0, MAX_SEED)
            and is_whole(of["count"], 1, MAX_SEED - of["first"])):
        raise UsageError(f"{path}:1: the header's shard_of {of!r} is not {{\"first\": SEED, \"count\": N}}")
    return header, k, n, of["first"], of["count"]


def _shard_lines(shard: Shard) -> Iterator[Line]:
    """The shard's records, line by line after its header (:func:`tubedeck.results_file.lines`),
    a torn last line or one not of ours a UsageError naming it."""
    torn = ("incomplete: the last line is cut short (a run killed mid-write?); delete that line and resume the "
            "shard to finish it")
    try:
        for line in lines(shard.fh, number=1):
            if not line.raw.endswith(b"\n"):
                raise UsageError(f"{shard.path}:{line.number}: {torn}")
            yield line
    except BadLine as bad:
        raise UsageError(f"{shard.path}:{bad.number}: {torn if bad.torn else bad.why + '; not a results file'}") from None


def _records(shard: Shard, schema, players: int, gaps: Gaps) -> Iterator[tuple[int, bytes]]:
    """A shard's (seed, line) in order, each checked; seeds its slice lacks go into ``gaps``."""
    path, seeds = shard.path, shard.seeds
    expect = 0  # index in the slice of the next seed due
    for line in _shard_lines(shard):
        raw, record, where = line.raw, line.record, f"{path}:{line.number}"
        if record.get("kind") == "header":
            raise UsageError(f"{where}: a second header line")
        seed = record.get("seed")
        if not isinstance(seed, int) or not is_whole(seed, 0, MAX_SEED):
            raise UsageError(f"{where}: a record without a whole-number 'seed'")
        if seed not in seeds:
            raise UsageError(f"{where}: seed {seed} is not in shard {shard.k}/{shard.n} of seeds "
                             f"{shard.first}-{shard.first + shard.count - 1}")
        at = seeds.index(seed)
        if at < expect:
            raise UsageError(f"{where}: seed {seed} out of order (seeds rise, each once)")
        try:
            why = schema.validate(record, players)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            why = f"malformed ({type(exc).__name__})"
        if why:
            raise UsageError(f"{where}: seed {seed}: not a record of {schema.game} {schema.mode} ({why})")
        gaps.add(seeds[expect:at])
        expect = at + 1
        yield seed, raw
    gaps.add(seeds[expect:])


def _missing_shards(n: int, given: set[int]) -> Iterator[int]:
    """The shard numbers 1..n not given, in order, without listing 1..n."""
    k = 0
    for g in sorted(given) + [n + 1]:
        yield from range(k + 1, g)
        k = g


def merge_shards(out: Path, paths: list[Path], schema_of: Callable[[dict], Any],
                 allow_partial: bool = False) -> Merged:
    """Join the files of one run's N shards into the file a single run would have written (same
    header without the shard's keys, records in seed order, byte for byte). UsageError on anything
    listed in the module's docstring; with ``allow_partial``, missing seeds are reported, not refused.
    ``schema_of(header)``: the declared record of a results file (the CLI passes
    :func:`tubedeck.games.record_schema`; the toolkit does not import the registry)."""
    from tubedeck.atomic import atomic_open

    if out.exists() or out.is_symlink():
        raise UsageError(f"{out} exists; merge writes a new file (pass another path)")
    if not paths:
        raise UsageError("merge needs the shards' results files")
    with contextlib.ExitStack() as stack:
        shards: dict[int, Shard] = {}
        seen: dict[Path, Path] = {}
        common: dict | None = None
        first_path = paths[0]
        for p in paths:
            if p.resolve() in seen:
                raise UsageError(f"{p}: given twice ({seen[p.resolve()]})")
            seen[p.resolve()] = p
            if p.resolve() == out.resolve():
                raise UsageError(f"{p}: the output is one of the shards")
            fh = stack.enter_context(_open_shard(p))
            header, k, n, first, count = _header(p, fh)
            rest = {key: v for key, v in header.items() if key not in SHARD_KEYS}
            if common is None:
                common, first_shard = rest, (n, first, count)
            elif rest != common:
                keys = sorted(key for key in set(rest) | set(common) if rest.get(key) != common.get(key))
                raise UsageError(f"{p}: made with other parameters than {first_path} ({', '.join(keys)} differ); "
                                 "shards of one run only")
            elif (n, first, count) != first_shard:
                raise UsageError(f"{p}: shard {k}/{n} of seeds {first}-{first + count - 1} does not belong with "
                                 f"{first_path} (shard of {first_shard[0]}, seeds {first_shard[1]}-"
                                 f"{first_shard[1] + first_shard[2] - 1}); shards of one run only")
            if k in shards:
                raise UsageError(f"{p}: shard {k}/{n} given twice ({shards[k].path})")
            shards[k] = Shard(p, fh, header, k, n, first, count)
        assert common is not None
        n, first, count = first_shard
        try:
            schema = schema_of({key: v for key, v in common.items() if key != "kind"})
        except UsageError as exc:
            raise UsageError(f"{first_path}:1: {exc}") from None
        players = players_of(first_path, common, schema)
        gaps = Gaps()
        absent: list[int] = []
        for k in _missing_shards(n, set(shards)):
            if len(absent) < EXAMPLES:
                absent.append(k)
            gaps.add(range(first + k - 1, first + count, n))
        if absent and not allow_partial:
            more = n - len(shards) - len(absent)
            named = ", ".join(f"{k}/{n}" for k in absent) + (f" and {more} more" if more else "")
            raise UsageError(f"missing shard(s) {named}: merge needs all {n} ({gaps.describe()}); "
                             "--allow-partial writes what there is")
        written = 0
        with atomic_open(out, "wb") as dst:
            dst.write((json.dumps(common, sort_keys=True) + "\n").encode())
            streams = [_records(s, schema, players, gaps) for s in shards.values()]
            for _, raw in heapq.merge(*streams, key=lambda t: t[0]):
                dst.write(raw)
                written += 1
            if gaps.count and not allow_partial:
                raise UsageError(f"incomplete shards: {gaps.describe()} (an interrupted shard? resume it with "
                                 "the same command); --allow-partial writes what there is")
    return Merged(out, written, len(shards), n, gaps.count, tuple(gaps.examples),
                  tuple(absent), "simulate" if common.get("mode") == "simulate" else "check")
