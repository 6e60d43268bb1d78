"""Next Station's ``--river FILE``: a generated map's river for a city other than London, given
as a WGS84 polyline (``lon``, ``lat``), here a few points along New York's East River
(``tests/data/nextstation/east-river.csv``, read off a map at the bridges for this test).

1. with the river, New York's map has river sections, and every station sits on its real bank
   (Brooklyn and Queens on one side, Manhattan on the other); the river scores as the Thames does;
2. without it, New York's map has none (today's behaviour) and London's is unchanged;
3. a bad file is a located message and exit 2: a column that is not a number, a point off the
   globe, a missing file, a river that does not run through the map's stations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tubedeck.game import edition
from tubedeck.games import registry
from tubedeck.games.nextstation.generate import south_of_river, thames

from conftest import run_cli

EAST_RIVER = Path(__file__).parent.parent / "data" / "nextstation" / "east-river.csv"
BROOKLYN_QUEENS = {"York St", "High St", "Clark St", "Bedford Av", "Queens Plaza", "Vernon Blvd-Jackson Av",
                   "Astoria Blvd"}
MANHATTAN = {"Times Sq-42 St", "Canal St (A/C/E)", "WTC Cortlandt", "Roosevelt Island"}


def test_a_river_for_new_york_splits_the_map_by_its_real_banks():
    game = registry()["nextstation"]
    ed = edition(game, "new-york", map="1", river=str(EAST_RIVER))
    made = ed.generated
    assert made is not None and made.river and made.board.title == "New York, zones 1-2"
    river = thames(EAST_RIVER)
    network = ed.network
    by_name = {network.stations[s.id].name: s for s in made.board.stations}
    for s in made.board.stations:  # the drawn river keeps every station on its real bank
        real = network.stations[s.id]
        assert (s.row > made.river[s.col]) == south_of_river(river, real.lon, real.lat), real.name
    on_map = set(by_name)
    assert BROOKLYN_QUEENS & on_map and MANHATTAN & on_map
    assert all(by_name[n].row > made.river[by_name[n].col] for n in BROOKLYN_QUEENS & on_map)
    assert all(by_name[n].row < made.river[by_name[n].col] for n in MANHATTAN & on_map)
    crossing = sum(sec.thames for sec in made.board.sections)
    assert crossing >= 10  # the classic's Thames figures hold (its tolerance)
    dry = edition(game, "new-york", map="1").generated
    assert dry is not None and not dry.river and not any(sec.thames for sec in dry.board.sections)
    london = edition(game, None, map="1").generated  # London: the Thames, as before
    assert london is not None and london.river and london.board.title == "London, zones 1-2"


@pytest.mark.parametrize("text, says", [
    ("lon,lat\n-74.0,40.7\n-73.9,north\n", "east.csv:3 [lat]: must be a number"),
    ("lon,lat\n-74.0,40.7\n-73.9,95\n", "east.csv:3 [lat]: must be within -90 and 90"),
    ("lon,lat\n-74.0,nan\n-73.9,40.7\n", "east.csv:2 [lat]"),
    ("lon,lat\n-74.0,40.7\n", "east.csv [lon]: a river needs two points or more"),
    ("place\nHell Gate\n", "east.csv:1 [lon]: missing column"),
    (None, "east.csv: file not found"),
    ("lon,lat\n-0.30,51.487\n0.03,51.50\n", "--river"),  # the Thames: not in New York
])
def test_a_bad_river_file_is_located_and_exits_2(tmp_path, capsys, text, says):
    path = tmp_path / "east.csv"
    if text is not None:
        path.write_text(text)
    code, _, err = run_cli(capsys, "play", "nextstation", "--data", "new-york", "--map", "1", "--seed", "1",
                           "--river", str(path))
    assert code == 2 and "Traceback" not in err
    assert says in " ".join(err.split()), err
    if says == "--river":
        assert "does not run through the stations of zones 1-2 of New York" in " ".join(err.split())


def test_play_on_new_york_with_the_east_river(capsys):
    code, out, err = run_cli(capsys, "play", "nextstation", "--data", "new-york", "--map", "1", "--seed", "1",
                             "--river", str(EAST_RIVER))
    assert code == 0, err
    assert "final score" in out


def test_the_sheet_built_with_a_river_draws_and_scores_it(tmp_path, capsys):
    import pymupdf

    code, _, err = run_cli(capsys, "build", "nextstation", "--data", "new-york", "--river", str(EAST_RIVER),
                           "--out", str(tmp_path))
    assert code == 0, err
    with pymupdf.open(tmp_path / "nextstation" / "map.pdf") as doc:
        text = " ".join(doc[0].get_text().split())
    assert "River: +2 per section across" in text and "River points" in text
    assert "No river on this map" not in text and "Thames" not in text
