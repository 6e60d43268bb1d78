"""Next Station on a second city: a map generated from the bundled New York dataset.

New York has no Thames: the generated map has no river and no Thames sections (its par is
compared with the classic's measured the same way), and the exact round solvers (branch and bound,
CP-SAT) agree with the exhaustive search on seeded short rounds of that map.
"""

from __future__ import annotations

import pytest

from tubedeck.game import network
from tubedeck.games.nextstation.best import best_round as bnb
from tubedeck.games.nextstation.edition import load
from tubedeck.solver.nextstation.exhaustive import best_round as exhaustive
from tubedeck.solver.nextstation.model import best_round as cp_sat

from ns_helpers import replay, short_rounds


@pytest.fixture(scope="module")
def ed():
    return load(network("new-york"), map="1")


def test_new_yorks_map_has_no_river(ed):
    assert ed.generated is not None and ed.generated.river == ()
    assert not any(s.thames for s in ed.board.sections)
    assert ed.board.title.startswith("New York")
    names = {s.name for s in ed.board.stations}
    assert "Times Sq-42 St" in names or any("42 St" in n for n in names)


def test_exact_rounds_agree_with_the_exhaustive_search_on_new_york(ed):
    n = 0
    for ts, dep in short_rounds(ed, 8, 6, 5, 4600):
        want, _ = exhaustive(ed.board, ed.book, ts, dep)
        got = bnb(ed.board, ed.book, ts, dep)
        assert got.status == "OPTIMAL" and got.score == got.bound == want, (ts, dep)
        assert replay(ed, ts, dep, got.draws) == got.score
        model = cp_sat(ed.board, ed.book, ts, dep, time_limit=600)
        assert model.score == want, (ts, dep)
        n += 1
    assert n == 8
