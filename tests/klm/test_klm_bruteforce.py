"""The CP-SAT checker against an independent brute force, on hundreds of random small deals.

The brute force knows nothing of paths, release times or Hall's bound: it replays the game turn
by turn for one player, from the raw deal (stock order, rolls, starter), holding real hands and
a real Play Field. Each turn: draw (unless a 6), then either do nothing or create one Connection
between two cards (hand or Play Field) printed with the same Connection Number, putting both on
the Play Field; then, above 5 Station Cards in hand, discard down to 5 in every possible way.
It wins when the Play Field's Connections contain five continuous stations.
"""

from __future__ import annotations

import itertools
import random

import pytest

from tubedeck.games.klm.cards import build_deck
from tubedeck.games.klm.rules import load_rules
from tubedeck.games.klm.scope import Scope
from tubedeck.games.klm.setup import deal
from tubedeck.network import Branch, Line, Network, Station
from tubedeck.solver.klm.model import solve_deal

ALL = Scope("all", None, None)

RULES = load_rules().rules


def random_network(rng: random.Random, size: int) -> Network:
    """A random little network: a few lines, each a walk over a shared set of stations."""
    ids = [f"s{i:02d}" for i in range(size)]
    stations = {s: Station(s, s.upper(), 0.0, 0.0, "1") for s in ids}
    lines, branches = {}, []
    covered: set[str] = set()
    for n in range(rng.randint(3, 5)):
        line = f"l{n}"
        lines[line] = Line(line, line, "#000000", "#FFFFFF")
        length = rng.randint(size // 3, size - 2)
        stops = rng.sample(ids, length)
        branches.append(Branch(line, "main", tuple(stops)))
        covered.update(stops)
    rest = [s for s in ids if s not in covered]
    if rest:  # every station on some line: a last line threads the leftovers onto the network
        lines["lz"] = Line("lz", "lz", "#000000", "#FFFFFF")
        branches.append(Branch("lz", "main", tuple(rest + [rng.choice(sorted(covered))])))
    return Network(stations, lines, tuple(branches))


def player_turns(d, seat: int) -> list[str | None]:
    """Replay the raw deal: the card this player draws on each own turn (None on a 6)."""
    stock = list(d.station_stock[5 * d.players:])
    out = []
    for g, roll in enumerate(d.turn_rolls):
        who = (d.starter + g) % d.players
        if roll != 6 and not stock:
            break  # must draw from an empty stock: the window is over
        card = None if roll == 6 else stock.pop(0)
        if who == seat:
            out.append(card)
    return out


def has_five_path(links: frozenset[tuple[str, str]]) -> bool:
    adj: dict[str, set[str]] = {}
    for a, b in links:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)

    def walk(path: list[str]) -> bool:
        if len(path) == RULES.path:
            return True
        return any(walk(path + [n]) for n in adj[path[-1]] if n not in path)

    return any(walk([s]) for s in adj)


def brute_force(deck, d, seat: int) -> int | None:
    """The earliest own turn this player can win on, by exhaustive search (None: never)."""
    numbers = {c.station: set(c.numbers) for c in deck.cards}
    termini = {c.station for c in deck.cards if c.terminus}  # "can form one Connection only"
    hand = frozenset(d.station_stock[: 5 * d.players][seat:: d.players])
    states = {(hand, frozenset(), frozenset())}  # (hand, play field, created links)
    for turn, card in enumerate(player_turns(d, seat), 1):
        nxt = set()
        for hand, field, links in states:
            if card is not None:
                hand = hand | {card}
            options = [(hand, field, links)]
            cards = sorted(hand | field)
            for x, y in itertools.combinations(cards, 2):
                linked = {s for link in links for s in link}
                if numbers[x] & numbers[y] and (x, y) not in links and not ({x, y} & termini & linked):
                    options.append((hand - {x, y}, field | {x, y}, links | {(x, y)}))
            for h, f, l in options:
                if len(l) >= 4 and has_five_path(l):
                    return turn
                if len(h) <= RULES.hand:
                    nxt.add((h, f, l))
                else:
                    for keep in itertools.combinations(sorted(h), 5):
                        nxt.add((frozenset(keep), f, l))
        states = nxt
    return None


def cases(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        players = rng.choice([2, 2, 3])
        net = random_network(rng, rng.randint(5 * players + 3, 5 * players + 10))
        yield net, players, rng.randrange(10**6)


@pytest.mark.parametrize("batch", range(4))
def test_cpsat_agrees_with_brute_force(batch):
    wins = 0
    for net, players, seed in cases(80, 1000 + batch):
        deck = build_deck(net, ALL)
        d = deal(tuple(c.station for c in deck.cards), (), players, seed, RULES)
        adjacency = {s: tuple(deck.graph[s]) for s in deck.graph}
        status, answers = solve_deal(adjacency, d, RULES.path, termini=frozenset(c.station for c in deck.cards if c.terminus))
        assert status == "OPTIMAL"
        for a in answers:
            expected = brute_force(deck, d, a.seat)
            assert a.turn == expected, (seed, a)
            assert a.status == ("OPTIMAL" if expected else "INFEASIBLE")
            wins += expected is not None
            if a.turn:  # the reported cards and turns are a real win
                assert len(set(a.path)) == RULES.path and [t for t, _, _ in a.schedule] == sorted({t for t, _, _ in a.schedule})
                arrival = dict(d.player(a.seat).arrival)
                for t, x, y in a.schedule:
                    assert deck.graph.has_edge(x, y) and max(arrival[x], arrival[y]) <= t <= a.turns
    assert wins >= 10  # the sample exercises winning deals, not only empty ones


def test_brute_force_sees_the_rules():
    """The brute force itself: one Connection per turn, and cards must arrive first."""
    stations = {s: Station(s, s, 0.0, 0.0, "1") for s in "abcdefghijklmnopqrstu"}
    net = Network(stations, {"x": Line("x", "x", "#000000", "#FFFFFF")}, (Branch("x", "main", tuple(stations)),))
    deck = build_deck(net, ALL)
    ids = [c.station for c in deck.cards]
    # Craft a deal: player 1 holds a-e (a five-path) from the start; no sixes.
    d = deal(tuple(ids), (), 2, 0, RULES)
    stock = ("a", "k", "b", "m", "c", "o", "d", "q", "e", "s") + tuple(s for s in ids if s not in "akbmcodqes")
    d = type(d)(0, 2, stock, (), ((6, 1),), 0, (1,) * 12, RULES.hand, RULES.fortune_roll)
    assert brute_force(deck, d, 0) == 4  # four Connections need four turns
    status, answers = solve_deal({s: tuple(deck.graph[s]) for s in deck.graph}, d, RULES.path,
                                 termini=frozenset(c.station for c in deck.cards if c.terminus))
    assert answers[0].turn == 4 and answers[1].turn is None


def test_all_deals_adversary_witness_is_real():
    """The all-deals adversary's witness deal: the checker and the brute force agree nobody wins."""
    from tubedeck.solver.klm.bound import worst_deal

    rng = random.Random(5)
    net = random_network(rng, 17)
    deck = build_deck(net, ALL)
    result = worst_deal(deck, 2, RULES, 30)
    assert result.status == "no bound" and result.first_win is None
    d = result.witness
    assert sorted(d.station_stock) == sorted(c.station for c in deck.cards) and 6 not in d.turn_rolls
    assert result.witness_record["first"] is None and result.witness_record["status"] == "OPTIMAL"
    assert all(brute_force(deck, d, seat) is None for seat in range(2))


@pytest.mark.parametrize("batch", range(2))
def test_path_search_agrees_with_brute_force_and_cpsat(batch):
    """The exact fast engine (``--engine auto``) against the brute force on small deals."""
    from tubedeck.solver.klm.paths import solve_deal_paths

    wins = 0
    for net, players, seed in cases(80, 2000 + batch):
        deck = build_deck(net, ALL)
        d = deal(tuple(c.station for c in deck.cards), (), players, seed, RULES)
        adjacency = {s: tuple(deck.graph[s]) for s in deck.graph}
        termini = frozenset(c.station for c in deck.cards if c.terminus)
        status, answers = solve_deal_paths(adjacency, d, RULES.path, termini)
        for a in answers:
            expected = brute_force(deck, d, a.seat)
            assert a.turn == expected and a.status == ("OPTIMAL" if expected else "INFEASIBLE"), (seed, a)
            wins += expected is not None
    assert wins >= 10


def test_path_search_agrees_with_cpsat_on_london_deals():
    from tubedeck.game import edition
    from tubedeck.games import get
    from tubedeck.solver.klm.check import solve_with

    for scope in ("zone 1", "all"):
        ed = edition(get("klm"), scope=scope)
        for seed in range(40):
            d = ed.deal(2 + seed % 5, seed)
            fast = solve_with("auto", ed.adjacency, d, ed.rules.path, 10.0, ed.termini)
            exact = solve_with("cp-sat", ed.adjacency, d, ed.rules.path, 10.0, ed.termini)
            assert exact[0] == "OPTIMAL"
            assert [a.turn for a in fast[1]] == [a.turn for a in exact[1]], (scope, seed)
