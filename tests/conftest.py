"""Shared fixtures: the bundled London network and a tiny hand-made dataset writer."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tubedeck.network import Network

# A suite started in the background (`make test &`, some CI runners) inherits an ignored SIGINT, and
# so would every command a test starts: tubedeck rightly keeps an ignored signal ignored, so the
# tests that play a terminal's Ctrl-C would see nothing. The suite plays from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parent.parent

# The diagram layouts a test solves (a map the shipped cache does not hold) are kept in the
# project's own .pytest_cache, never in the user's cache folder; they are the same on any machine.
os.environ.setdefault("TUBEDECK_CACHE", str(ROOT / ".pytest_cache" / "diagram"))
os.environ.setdefault("TUBEDECK_BUILD_CACHE", str(ROOT / ".pytest_cache" / "build"))  # build stamps

TINY_STATIONS = """id,name,lat,lon,zone,local_authority,opened,step_free,listed,surface,interchanges
alpha,Alpha,51.50,-0.10,1,Camden,1900-01-01,yes,II,tunnel,National Rail
bravo,Bravo,51.51,-0.11,1,Camden,1901,no,,open,
charlie,Charlie's Cross,51.52,-0.12,1/2,Islington,,partial,,,
delta,Delta & Echo,51.53,-0.13,2,Islington,,,,,DLR;river
foxtrot,Foxtrot,51.54,-0.14,2,Hackney,,,,,
golf,Golf,51.49,-0.09,1,Camden,,,,,
"""
TINY_LINES = """id,name,colour,text_colour
red,Red Line,#E32017,#FFFFFF
blue,Blue Line,#0098D4,#000000
"""
TINY_ROUTES = """line,branch,seq,station
red,main,1,alpha
red,main,2,bravo
red,main,3,charlie
red,main,4,delta
red,spur,1,charlie
red,spur,2,foxtrot
blue,main,1,golf
blue,main,2,alpha
blue,main,3,charlie
"""


def write_dataset(directory: Path, stations: str = TINY_STATIONS, lines: str = TINY_LINES,
                  routes: str = TINY_ROUTES) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "stations.csv").write_text(stations, encoding="utf-8")
    (directory / "lines.csv").write_text(lines, encoding="utf-8")
    (directory / "routes.csv").write_text(routes, encoding="utf-8")
    return directory


def toy_dataset(directory: Path) -> Path:
    """A 30-station toy city: two long lines crossing, a loop-ish third line and a spur."""
    ids = [f"t{i:02d}" for i in range(30)]
    stations = "id,name,lat,lon,zone\n" + "".join(f"{s},Toy {s},51.5,-0.1,{1 + i // 15}\n" for i, s in enumerate(ids))
    lines = "id,name,colour,text_colour\nred,Red,#E32017,#FFFFFF\nblue,Blue,#0098D4,#FFFFFF\ngreen,Green,#00782A,#FFFFFF\n"
    runs = {"red": ids[0:14], "blue": ids[14:26] + [ids[6]], "green": [ids[3], ids[17], ids[9], ids[22]] + ids[26:30]}
    routes = "line,branch,seq,station\n" + "".join(
        f"{line},main,{k + 1},{s}\n" for line, seq in runs.items() for k, s in enumerate(seq))
    return write_dataset(directory, stations, lines, routes)


@pytest.fixture
def tiny_dir(tmp_path: Path) -> Path:
    return write_dataset(tmp_path / "tiny")


@pytest.fixture(scope="session")
def london() -> Network:
    return Network.load()


def run_cli(capsys, *args) -> tuple[int, str, str]:
    """Run ``tubedeck ARGS`` in-process; return (exit code, stdout, stderr)."""
    from tubedeck.cli import main

    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


class CountingClock:
    """A stand-in for ``time.perf_counter`` that moves ``step`` seconds at every look and not
    otherwise: a deadline then passes after the same number of looks on any machine, however
    loaded (the work done before it is the same, so the answer is too). Install it with
    ``monkeypatch.setattr(time, "perf_counter", CountingClock(step))``; ``looks`` counts the calls."""

    def __init__(self, step: float, start: float = 1000.0):
        self.now, self.step, self.looks = start, step, 0

    def __call__(self) -> float:
        self.looks += 1
        self.now += self.step
        return self.now
