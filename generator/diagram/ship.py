"""Make the shipped layouts again: ``python -m tubedeck.generator.diagram.ship``.

Every map the bundled recipes and cities print is built once with the user cache pointed at
``generator/diagram/cache/`` (emptied first), so what is there afterwards is exactly the layouts
those builds read: Tube Dice's sheets, challenge page and rulebook figures and One Day's map, for
London and New York, on A4 and Letter. Run it after any change to the engine (a test says when it is due).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .cache import SHIPPED

BUILDS = [(game, data, paper) for game in ("dice", "oneday") for data in ("london", "new-york") for paper in ("a4", "letter")]
OPTIONS = {"dice": ["--sheets", "1", "--challenge", "1"], "oneday": []}


def main() -> int:
    SHIPPED.mkdir(exist_ok=True)
    for old in SHIPPED.glob("*.json"):
        old.unlink()
    env = dict(os.environ, TUBEDECK_CACHE=str(SHIPPED), TUBEDECK_BUILD_CACHE="off")  # every build lays its maps out
    with tempfile.TemporaryDirectory() as out:
        for game, data, paper in BUILDS:
            cmd = [sys.executable, "-m", "tubedeck", "build", game, "--data", data, "--paper", paper, *OPTIONS[game],
                   "--out", str(Path(out) / f"{game}-{data}-{paper}")]
            print(" ".join(cmd[2:]), flush=True)
            done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL)
            if done.returncode:
                return done.returncode
    print(f"{len(list(SHIPPED.glob('*.json')))} layouts in {SHIPPED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
