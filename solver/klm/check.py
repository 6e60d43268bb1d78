"""``tubedeck check klm`` and ``solve klm``: seeded deals through :mod:`tubedeck.solver.runner`.

A :class:`KlmCheck` is the picklable :class:`~solver.runner.DealCheck` a worker process turns
into an evaluator (``seed -> record``): it takes the edition from the per-process cache
(:func:`tubedeck.game.edition`: built once, shared with the parent when workers fork), then
deals and solves one deal per call. :class:`Summary` folds the streamed records into the figures
the command prints, so memory stays flat however many deals run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable

from tubedeck.errors import UsageError
from tubedeck.game import edition as cached_edition
from tubedeck.games import get
from tubedeck.games.klm.edition import Edition
from tubedeck.games.klm.records import CHECK
from tubedeck.games.klm.setup import Deal, check_players
from tubedeck.solver.cpsat import check_time_limit
from tubedeck.stats import quantile
from tubedeck.words import status_words

from .model import OUTSIDE, PlayerAnswer, deal_record, solve_deal
from .paths import TooLarge, deal_search, solve_deal_paths

ENGINES = ("cp-sat", "auto")
# OUTSIDE as the rulebook writes it (the results header keeps OUTSIDE itself: files stay resumable)
OUTSIDE_WORDS = {"fortune card effects": "Fortune Card effects", "unlucky hand": "Unlucky Hand",
                 "fast gameplay": "Fast Gameplay"}


def solve_with(engine: str, adjacency, d, path: int, time_limit: float, termini: frozenset[str]):
    """``cp-sat``: the CP-SAT model decides the deal; ``auto``: exhaustive path search first (exact,
    :mod:`.paths`), CP-SAT when a player's graph is too large for it."""
    if engine == "auto":
        try:
            return solve_deal_paths(adjacency, d, path, termini)
        except TooLarge:
            pass
    return solve_deal(adjacency, d, path, time_limit, termini)


@dataclass(frozen=True)
class KlmCheck:
    """Everything a worker needs to check deals: picklable; the results file's header."""

    players: int
    scope: str | None = None  # the --scope option as given (None: the default scope)
    data: str | None = None
    time_limit: float = 10.0
    engine: str = "cp-sat"

    def edition(self) -> Edition:
        return cached_edition(get("klm"), self.data, scope=self.scope)

    def header(self) -> dict:
        ed = self.edition()
        return CHECK.header(scope=ed.scope.label, players=self.players, stations=len(ed.deck),
                            data=ed.network.source, outside=list(OUTSIDE), rules=asdict(ed.rules),
                            time_limit=self.time_limit,  # an UNKNOWN under one limit is not one under another
                            engine=self.engine)

    @property
    def results_name(self) -> str:
        return f"klm-{self.edition().scope.slug}-p{self.players}"

    @property
    def label(self) -> str:
        return f"klm {self.edition().scope.label} x{self.players}"

    def summary(self) -> "Summary":
        return Summary(self.players, self.edition().scope.label)

    def decided(self, record: dict) -> bool:
        """OPTIMAL proves every player's answer; FEASIBLE or UNKNOWN were cut by the time limit."""
        return record["status"] == "OPTIMAL"

    def validate(self, record: dict) -> str | None:
        """What is impossible in a stored record (an edited or foreign line), or None: the
        declaration (:data:`tubedeck.games.klm.records.CHECK`) and its rule."""
        return CHECK.validate(record, self.players)

    def __call__(self) -> Callable[[int], dict]:
        ed = self.edition()
        adjacency, players, limit, path, termini = ed.adjacency, self.players, self.time_limit, ed.rules.path, ed.termini
        engine = self.engine

        def evaluate(seed: int) -> dict:
            d = ed.deal(players, seed)
            status, answers = solve_with(engine, adjacency, d, path, limit, termini)
            return deal_record(d, status, answers)

        # ``auto`` deals and searches in ints, built once per worker (:class:`.paths.DealSearch`):
        # the same records for about a third of the work a deal; a deal too large for the search
        # goes to CP-SAT, as ``solve_with`` sends it.
        fast = deal_search(tuple(c.station for c in ed.deck.cards), tuple(c.id for c in ed.fortune), players,
                           ed.rules, adjacency, termini) if engine == "auto" else None
        if fast is None:
            return evaluate
        search = fast.record

        def evaluate_fast(seed: int) -> dict:
            try:
                return search(seed)
            except TooLarge:
                d = ed.deal(players, seed)
                return deal_record(d, *solve_deal(adjacency, d, path, limit, termini))

        return evaluate_fast


def deal_check(edition: Edition, players: int, time_limit: float = 10.0, data: str | None = None,
               scope: str | None = None, engine: str = "cp-sat") -> KlmCheck:
    """The registry's ``check klm``: validate the options, then the picklable check."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    check_players(players, edition.rules)
    check_time_limit(time_limit)
    need = edition.rules.hand * players
    if len(edition.deck) < need:
        raise UsageError(f"scope {edition.scope.label!r} has {len(edition.deck)} Station Cards; {players} players "
                         f"need at least {need}")
    return KlmCheck(players, scope, data, time_limit, engine)


@dataclass
class Summary:
    """Running figures over deal records (each record is dropped after folding)."""

    players: int
    scope: str = ""
    deals: int = 0
    winnable: int = 0
    first_seed: int | None = None
    undecided: list[int] = field(default_factory=list)
    unwinnable: list[int] = field(default_factory=list)
    first_turn: Counter = field(default_factory=Counter)  # own turn of the first possible win
    first_order: Counter = field(default_factory=Counter)  # place in turn order of the first winner
    can_win_order: Counter = field(default_factory=Counter)  # deals where place k can win at all
    statuses: Counter = field(default_factory=Counter)

    def add(self, record: dict) -> None:
        self.deals += 1
        self.first_seed = record["seed"] if self.first_seed is None else min(self.first_seed, record["seed"])
        self.statuses[record["status"]] += 1
        if record["winnable"] is None:
            self.undecided.append(record["seed"])
        elif record["winnable"]:
            self.winnable += 1
            self.first_turn[record["first"]["turn"]] += 1
            self.first_order[record["first"]["order"]] += 1
        else:
            self.unwinnable.append(record["seed"])
        for p in record["players"]:
            if p["turn"] is not None:
                self.can_win_order[p["order"]] += 1

    @property
    def share(self) -> float:
        return self.winnable / self.deals if self.deals else 0.0

    def failures(self) -> str | None:
        """What ``--require-all`` fails on: unwinnable or undecided deals."""
        if self.unwinnable or self.undecided:
            return f"{len(self.unwinnable)} unwinnable and {len(self.undecided)} undecided deal(s)"
        return None

    def as_dict(self, unwinnable_limit: int = 100) -> dict:
        return {
            "deals": self.deals, "players": self.players, "scope": self.scope, "winnable": self.winnable,
            "winnable_share": round(self.share, 6),
            "first_win_turn": {str(k): v for k, v in sorted(self.first_turn.items())},
            "first_winner_order": {str(k): self.first_order.get(k, 0) for k in range(1, self.players + 1)},
            "can_win_by_order": {str(k): self.can_win_order.get(k, 0) for k in range(1, self.players + 1)},
            "statuses": dict(sorted(self.statuses.items())),
            "unwinnable_seeds": self.unwinnable[:unwinnable_limit],
            "unwinnable_count": len(self.unwinnable),
            "undecided_seeds": self.undecided,
            "outside_the_check": list(OUTSIDE),
        }

    def describe(self) -> list[str]:
        """The summary as printed lines (rich markup)."""
        n, p = self.deals, self.players
        first = self.first_seed if self.first_seed is not None else 0
        out = [f"[bold]Keep London Moving[/bold]: scope {self.scope}, {p} players, {n} deals "
               f"(seeds {first}..{first + n - 1})",
               f"winnable before the Station stock runs out: [bold]{self.winnable}/{n} ({100 * self.share:.1f}%)[/bold]"]
        ft = self.first_turn
        if ft:
            out.append(f"earliest win (first winner's own turn): min {min(ft)}, median {quantile(ft, 0.5)}, "
                       f"90% {quantile(ft, 0.9)}, max {max(ft)}")
            out += histogram(ft)
        if self.winnable:
            shares = ", ".join(f"{k}: {100 * self.first_order.get(k, 0) / self.winnable:.1f}%" for k in range(1, p + 1))
            out.append("first possible winner by place in turn order (1 = starter):")
            out.append(f"  {shares}")
            alone = ", ".join(f"{k}: {100 * self.can_win_order.get(k, 0) / n:.1f}%" for k in range(1, p + 1))
            out.append("deals where that place can win at all:")
            out.append(f"  {alone}")
        if self.unwinnable:
            seeds = ", ".join(map(str, self.unwinnable[:10])) + (" ..." if len(self.unwinnable) > 10 else "")
            out.append(f"unwinnable deals ({len(self.unwinnable)}): seeds {seeds}")
        if self.undecided:
            more = " ..." if len(self.undecided) > 20 else ""
            out.append(f"[yellow]undecided within --deal-limit ({len(self.undecided)}): seeds "
                       f"{', '.join(map(str, self.undecided[:20]))}{more}[/yellow]")
        out.append("solver statuses: " + ", ".join(f"{status_words(k)} {v}" for k, v in sorted(self.statuses.items())))
        out.append("outside this check (each player plays alone on their cards):")
        out.append("  " + ", ".join(OUTSIDE_WORDS.get(o, o) for o in OUTSIDE))
        return out


def histogram(counts: Counter, bars: int = 10, width: int = 30) -> list[str]:
    """A text histogram of a value -> count table, in at most ``bars`` buckets."""
    lo, hi = min(counts), max(counts)
    step = max(1, (hi - lo) // bars + 1)
    buckets: Counter = Counter()
    for value, c in counts.items():
        buckets[(value - lo) // step] += c
    top = max(buckets.values())
    rows = [("turns", "deals", "")]
    for b in range(max(buckets) + 1):
        start = lo + b * step
        c = buckets.get(b, 0)
        rows.append((f"{start}-{start + step - 1}" if step > 1 else str(start), str(c), "#" * round(width * c / top)))
    w0, w1 = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    return [f"  {a:>{w0}}  {b:>{w1}}  {c}".rstrip() for a, b, c in rows]


@dataclass(frozen=True)
class DealReport:
    """``tubedeck solve klm``: one deal, every player's earliest win."""

    edition: Edition
    deal: Deal
    status: str
    answers: tuple[PlayerAnswer, ...]
    record: dict

    def as_dict(self) -> dict:
        return self.record

    def describe(self) -> list[str]:
        d, deck = self.deal, self.edition.deck
        name = lambda s: deck.by_station[s].name  # noqa: E731
        out = [f"deal {d.seed}: {d.players} players, scope {deck.scope.label}; player {d.starter + 1} starts "
               f"(opening rolls {' then '.join(', '.join(map(str, r)) for r in d.opening_rolls)}); {d.window} turns before the Station stock runs out; "
               f"status {self.status}"]
        out += [f"  player {p + 1} hand: " + ", ".join(name(s) for s in hand) for p, hand in enumerate(d.hands)]
        for a in self.answers:
            if a.turn is None:
                out.append(f"player {a.seat + 1}: no {self.edition.rules.path} continuous stations within "
                           f"{a.turns} turns ({a.status})")
                continue
            steps = "; ".join(f"turn {t}: {name(x)} - {name(y)} (no. {deck.graph[x][y]['number']})"
                              for t, x, y in a.schedule)
            out.append(f"player {a.seat + 1}: wins on own turn {a.turn} ({a.status}): {steps}")
        first = self.record["first"]
        out.append("first possible win: " + (f"player {first['player']} on their turn {first['turn']}" if first else "nobody"))
        return out


def solve_one(edition: Edition, seed: int = 0, players: int = 4, engine: str = "cp-sat") -> DealReport:
    """The registry's ``solve klm``: one deal solved."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    check_players(players, edition.rules)
    d = edition.deal(players, seed)
    status, answers = solve_with(engine, edition.adjacency, d, edition.rules.path, 10.0, edition.termini)
    return DealReport(edition, d, status, answers, deal_record(d, status, answers))
