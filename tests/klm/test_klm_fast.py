"""``check klm --engine auto``'s fast path (:class:`tubedeck.solver.klm.paths.DealSearch`), which
deals each seed itself in ints and searches each player's few Connections: its deal against the
real deal, its answers against the independent brute force and CP-SAT, and its records, paths and
schedules included, against the search it replaced (stations in key order, the first earliest path
found). Every budget is deterministic: CP-SAT's deterministic time, the search's node count."""

from __future__ import annotations

import pytest
from test_klm_bruteforce import ALL, RULES, brute_force, cases

from tubedeck.errors import UsageError
from tubedeck.game import edition
from tubedeck.games import get
from tubedeck.games.klm.cards import build_deck
from tubedeck.games.klm.setup import Deal, PlayerWindow, deal
from tubedeck.solver.klm import paths
from tubedeck.solver.klm.check import KlmCheck
from tubedeck.solver.klm.model import PlayerAnswer, deal_record, earliest_schedule, solve_deal
from tubedeck.solver.klm.paths import Board, DealSearch, deal_search


def london(scope: str):
    return edition(get("klm"), scope=scope)


def search_of(ed, players: int) -> DealSearch:
    fast = deal_search(tuple(c.station for c in ed.deck.cards), tuple(c.id for c in ed.fortune), players,
                       ed.rules, ed.adjacency, ed.termini)
    assert fast is not None
    return fast


def small(net, players: int) -> tuple:
    deck = build_deck(net, ALL)
    stations = tuple(c.station for c in deck.cards)
    adjacency = {s: tuple(deck.graph[s]) for s in deck.graph}
    termini = frozenset(c.station for c in deck.cards if c.terminus)
    fast = deal_search(stations, (), players, RULES, adjacency, termini)
    assert fast is not None
    return deck, stations, adjacency, termini, fast


def former(adjacency: dict, d: Deal, path: int, termini: frozenset[str]) -> tuple[PlayerAnswer, ...]:
    """The search the fast path replaced, as it was: each player's stations numbered by (arrival,
    id), a depth-first search in that order from every station, a path kept only when it finishes
    strictly earlier than the best so far, and only read from its lower-numbered end."""
    return tuple(former_player(adjacency, w, d.players, path, termini) for w in d.windows())


def former_player(adjacency: dict, w: PlayerWindow, players: int, path: int, termini: frozenset[str]) -> PlayerAnswer:
    arrival = dict(w.arrival)
    local = sorted(arrival, key=lambda s: (arrival[s], s))
    best: list = [w.turns + 1, None]

    def finish(stations: list[str]) -> int:
        last = 0
        for r in sorted(max(arrival[a], arrival[b]) for a, b in zip(stations, stations[1:])):
            last = max(r, last + 1)
        return last

    def grow(stations: list[str]) -> None:
        if len(stations) > 1 and finish(stations) >= best[0]:
            return
        if len(stations) == path:
            if local.index(stations[0]) < local.index(stations[-1]):
                best[:] = finish(stations), tuple(stations)
            return
        for n in sorted((n for n in adjacency.get(stations[-1], ()) if n in arrival), key=local.index):
            if n not in stations and (n not in termini or len(stations) == path - 1):
                grow(stations + [n])

    for s in local:
        grow([s])
    if best[1] is None:
        return PlayerAnswer(w.seat, w.order, w.turns, "INFEASIBLE", None, None, (), ())
    schedule = earliest_schedule([(max(arrival[a], arrival[b]), a, b) for a, b in zip(best[1], best[1][1:])])
    turn = schedule[-1][0]
    return PlayerAnswer(w.seat, w.order, w.turns, "OPTIMAL", turn, (turn - 1) * players + w.order, best[1], schedule)


@pytest.mark.parametrize("scope", ["zone 1", "all"])
def test_its_deal_is_the_real_deal(scope):
    ed = london(scope)
    for players in range(2, 7):
        fast = search_of(ed, players)
        for seed in range(60):
            assert fast.matches(ed.deal(players, seed)), (scope, players, seed)


def test_its_deal_is_the_real_deal_on_small_networks():
    for net, players, seed in cases(120, 4000):
        _, stations, _, _, fast = small(net, players)
        assert fast.matches(deal(stations, (), players, seed, RULES)), seed


def test_a_dealer_that_draws_otherwise_is_told_apart():
    """``matches`` is what keeps another Python's ``random`` off the fast path: a dealer that
    shuffles otherwise (here the deck in another order) is told apart on every seed."""
    ed = london("zone 1")
    stations = tuple(c.station for c in ed.deck.cards)
    board = Board.of(ed.adjacency, ed.rules.path, ed.termini, stations)
    wrong = DealSearch.of(board, stations[::-1], len(ed.fortune), 4, ed.rules)
    assert not any(wrong.matches(ed.deal(4, seed)) for seed in range(40))
    with pytest.raises(UsageError, match="2-6"):
        deal_search(stations, (), 7, ed.rules, ed.adjacency, ed.termini)


@pytest.mark.parametrize("batch", range(2))
def test_fast_records_agree_with_brute_force(batch):
    wins = 0
    for net, players, seed in cases(80, 3000 + batch):
        deck, stations, _, _, fast = small(net, players)
        d = deal(stations, (), players, seed, RULES)
        record = fast.record(seed)
        assert (record["status"], record["starter"], record["window"]) == ("OPTIMAL", d.starter + 1, d.window)
        for w, p in zip(d.windows(), record["players"], strict=True):
            expected = brute_force(deck, d, w.seat)
            assert p["turn"] == expected and p["status"] == ("OPTIMAL" if expected else "INFEASIBLE"), (seed, p)
            wins += expected is not None
            arrival = dict(w.arrival)
            for t, x, y in p["schedule"]:  # the reported cards and turns are a real win
                assert deck.graph.has_edge(x, y) and max(arrival[x], arrival[y]) <= t <= w.turns
    assert wins >= 10


@pytest.mark.parametrize("scope, players, seeds", [("zone 1", 4, range(150)), ("zone 1", 2, range(50)),
                                                   ("all", 3, range(40)), ("all", 6, range(40))])
def test_fast_records_agree_with_cpsat_on_london_deals(scope, players, seeds):
    ed = london(scope)
    fast = search_of(ed, players)
    for seed in seeds:
        d = ed.deal(players, seed)
        exact = deal_record(d, *solve_deal(ed.adjacency, d, ed.rules.path, 10.0, ed.termini))
        got = fast.record(seed)
        assert exact["status"] == got["status"] == "OPTIMAL"
        assert [p["turn"] for p in got["players"]] == [p["turn"] for p in exact["players"]], (scope, seed)
        assert (got["first"], got["winnable"], got["window"]) == (exact["first"], exact["winnable"], exact["window"])


@pytest.mark.parametrize("scope, players, seeds", [("zone 1", p, range(60)) for p in range(2, 7)]
                         + [("all", 2, range(20)), ("all", 4, range(40))])
def test_fast_records_are_the_former_records(scope, players, seeds):
    """The same bytes as before: among equally early paths the fast search keeps the one the
    former search found first."""
    ed = london(scope)
    fast = search_of(ed, players)
    wins = 0
    for seed in seeds:
        d = ed.deal(players, seed)
        answers = former(ed.adjacency, d, ed.rules.path, ed.termini)
        assert fast.record(seed) == deal_record(d, "OPTIMAL", answers), (scope, players, seed)
        wins += sum(a.turn is not None for a in answers)
    assert wins >= 5  # the sample holds wins, so chosen paths and schedules


def test_a_deal_too_large_for_the_search_goes_to_cpsat(monkeypatch):
    job = KlmCheck(4, "zone 1", engine="auto")
    fast = job()
    monkeypatch.setattr(paths, "MAX_NODES", 0)  # every search gives up at once
    slow, exact = job(), KlmCheck(4, "zone 1", engine="cp-sat")()
    assert fast(7)["first"] == slow(7)["first"] == exact(7)["first"] is not None
    assert [slow(s) for s in range(5)] == [exact(s) for s in range(5)]


def test_a_terminus_between_two_lines_is_inside_no_path():
    """A station where two lines both end (Ealing Broadway) is a Terminus card with two neighbours.
    Player 1 holds b, t, c, d, e from the start (b-t-c-d-e runs through t: no win) and draws x on
    own turn 1 and w on own turn 5: w-x-c-d-e wins on own turn 5, not 4; player 2 holds f-j on
    a line, a win on own turn 4."""
    from tubedeck.network import Branch, Line, Network, Station

    stations = {s: Station(s, s.upper(), 0.0, 0.0, "1") for s in "abtcdexwfghijklmnopqrs"}
    lines = {f"l{i}": Line(f"l{i}", f"L{i}", "#000000", "#FFFFFF") for i in range(4)}
    net = Network(stations, lines, (Branch("l0", "main", tuple("abt")), Branch("l1", "main", tuple("tcde")),
                                    Branch("l2", "main", tuple("fghijklmnopqrs")), Branch("l3", "main", tuple("wxc"))))
    deck = build_deck(net, ALL)
    assert deck.by_station["t"].terminus and set(deck.graph["t"]) == {"b", "c"}
    # hands dealt one at a time, then one card a turn each (no 6)
    d = Deal(0, 2, tuple("bftgchdiej" + "xaklmnopwrqs"), (), ((6, 1),), 0, (1,) * 13, RULES.hand, RULES.fortune_roll)
    adjacency = {s: tuple(deck.graph[s]) for s in deck.graph}
    termini = frozenset(c.station for c in deck.cards if c.terminus)
    _, fast = paths.solve_deal_paths(adjacency, d, RULES.path, termini)
    _, exact = solve_deal(adjacency, d, RULES.path, 10.0, termini)
    assert [a.turn for a in fast] == [a.turn for a in exact] == [brute_force(deck, d, 0), brute_force(deck, d, 1)]
    assert [a.turn for a in fast] == [5, 4] and fast[0].path == ("e", "d", "c", "x", "w")
