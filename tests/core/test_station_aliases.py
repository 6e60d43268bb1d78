"""Station aliases: the names people type from TfL resolve; the optional column is validated."""

from __future__ import annotations

import pytest

from tubedeck.dataset import read_dataset
from tubedeck.errors import DataError, UsageError
from tubedeck.names import fold
from tubedeck.network import Network, Station

from conftest import TINY_STATIONS, write_dataset


def with_aliases(**aliases: str) -> str:
    """TINY_STATIONS with an ``aliases`` column, filled for the given station ids."""
    lines = TINY_STATIONS.splitlines()
    out = [lines[0] + ",aliases"]
    out += [row + "," + aliases.get(row.split(",", 1)[0], "") for row in lines[1:]]
    return "\n".join(out) + "\n"


def problems_of(directory):
    with pytest.raises(DataError) as info:
        read_dataset(directory)
    return info.value.problems


# -- the bundled London data -------------------------------------------------------------------

def test_edgware_road_tfl_forms(london):
    assert london.match("Edgware Road (Circle Line)") == "edgware-road-hammersmith-city"
    assert london.match("Edgware Road (Bakerloo)") == "edgware-road-bakerloo"
    assert london.match("edgware rd (circle line)") == "edgware-road-hammersmith-city"
    assert london.match("EDGWARE ROAD (BAKERLOO)") == "edgware-road-bakerloo"


@pytest.mark.parametrize("typed,ident", [
    ("Paddington (H&C Line)-Underground", "paddington-hammersmith-city"),
    ("Paddington (H&C Line)", "paddington-hammersmith-city"),
    ("Hammersmith (Dist&Picc Line)", "hammersmith-district-piccadilly"),
    ("Hammersmith (H&C Line)", "hammersmith-hammersmith-city"),
    ("Shepherd's Bush (Central)", "shepherds-bush"),
    ("St. James's Park", "st-jamess-park"),
    ("King's Cross St. Pancras", "kings-cross-st-pancras"),
    ("Kensington Olympia", "kensington-olympia"),
    ("Heathrow Terminals 2 and 3", "heathrow-terminals-2-3"),
])
def test_other_tfl_names_resolve(london, typed, ident):
    assert london.match(typed) == ident


def test_names_ids_and_prefixes_still_resolve(london):
    for ident, st in london.stations.items():
        assert london.match(st.name) == ident
        assert london.match(ident) == ident
        for alias in st.aliases:
            assert london.match(alias) == ident
    assert london.match("Shepherd's Bush") == "shepherds-bush"
    assert london.match("Shepherd's Bush Market") == "shepherds-bush-market"


@pytest.mark.parametrize("typed,choices", [
    ("edgware road", ("Edgware Road (Bakerloo)", "Edgware Road (Hammersmith & City)")),
    ("Paddington", ("Paddington (Bakerloo & District)", "Paddington (Hammersmith & City)")),
    ("hammersmith", ("Hammersmith (District & Piccadilly)", "Hammersmith (Hammersmith & City)")),
])
def test_names_of_two_stations_stay_ambiguous(london, typed, choices):
    with pytest.raises(UsageError, match="ambiguous") as info:
        london.match(typed)
    assert all(repr(c) in str(info.value) for c in choices)


def test_unknown_name_suggests_an_alias(london):
    with pytest.raises(UsageError, match=r"did you mean .*'Edgware Road \(Circle Line\)'"):
        london.match("Edgwar Road (Circle Line)")


def test_every_alias_is_unique_across_the_dataset(london):
    owner: dict[str, str] = {fold(st.name): ident for ident, st in london.stations.items()}
    assert len(owner) == len(london.stations)
    for ident, st in london.stations.items():
        for alias in st.aliases:
            key = fold(alias)
            assert key, (ident, alias)
            assert key not in owner, f"{alias!r} of {ident} is also the name or alias of {owner.get(key)}"
            owner[key] = ident
    assert any(st.aliases for st in london.stations.values())


def test_aliases_survive_a_subnetwork(london):
    zone1 = london.subnetwork(zones=[1])
    assert zone1.match("Edgware Road (Circle Line)") == "edgware-road-hammersmith-city"


def test_station_default_has_no_aliases():
    assert Station("x", "X", 51.5, -0.1, "1").aliases == ()


# -- the optional column and its validation -----------------------------------------------------

def test_dataset_without_aliases_column_loads(tiny_dir):
    net = Network.load(tiny_dir)
    assert all(st.aliases == () for st in net.stations.values())
    assert net.match("Charlie's Cross") == "charlie"


def test_aliases_column_loads(tmp_path):
    d = write_dataset(tmp_path, stations=with_aliases(charlie="Charlie X;Old Charlie", golf="Golf Links"))
    net = Network.load(d)
    assert net.stations["charlie"].aliases == ("Charlie X", "Old Charlie")
    assert net.stations["alpha"].aliases == ()
    assert net.match("old charlie") == "charlie"
    assert net.match("golf links") == "golf"


def test_alias_equal_to_another_stations_name(tmp_path):
    d = write_dataset(tmp_path, stations=with_aliases(charlie="Bravo"))
    problems = problems_of(d)
    hits = [p for p in problems if p.column == "aliases"]
    assert len(hits) == 1
    p = hits[0]
    assert p.file == "stations.csv" and p.line == 4
    assert "'Bravo'" in p.message and "'bravo'" in p.message
    assert "stations.csv:4 [aliases]" in str(DataError(problems))


def test_alias_equal_to_another_stations_alias_after_folding(tmp_path):
    d = write_dataset(tmp_path, stations=with_aliases(alpha="St. Anne's", golf="saint annes"))
    p, = [p for p in problems_of(d) if p.column == "aliases"]
    assert p.line == 7 and "'alpha'" in p.message and "line 2" in p.message


def test_alias_equal_to_own_name_and_empty_alias(tmp_path):
    d = write_dataset(tmp_path, stations=with_aliases(delta="Delta and Echo", foxtrot="Fox;;Trot"))
    problems = sorted((p.line, p.message) for p in problems_of(d) if p.column == "aliases")
    assert [line for line, _ in problems] == [5, 6]
    assert "own name" in problems[0][1] and "empty alias" in problems[1][1]


def test_alias_problems_are_collected_with_the_others(tmp_path):
    text = with_aliases(charlie="Bravo").replace("51.54,-0.14,2", "51.54,-0.14,7/9")
    problems = problems_of(write_dataset(tmp_path, stations=text))
    assert {p.column for p in problems} >= {"aliases", "zone"}
