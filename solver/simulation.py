"""What every game's ``simulate`` shares: bots by seat, the 95% interval of a win share, and the
tally of games (length, wins by seat and by bot) folded from streamed records."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tubedeck.errors import UsageError
from tubedeck.stats import quantile, wilson  # noqa: F401 (wilson: the games' summaries)


def parse_bots(text: str, players: int, known) -> tuple[str, ...]:
    """``"strong,greedy"`` -> one bot per seat (the list repeats to fill the table)."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in known]
    if not names or unknown:
        raise UsageError(f"--bots: unknown bot {unknown[0] if unknown else text!r} (known: {', '.join(known)})")
    if players >= 1 and len(names) > players:  # a bot with no seat would be dropped without a word
        # (no seat at all: the game's own check names the players' range)
        raise UsageError(f"--bots names {len(names)} bots for {players} player(s): one per seat at most")
    return tuple(names[i % len(names)] for i in range(players))


def bots_label(bots: tuple[str, ...]) -> str:
    """``greedy x4`` for a table of one bot, else the list: short enough for an 80-column line."""
    return f"{bots[0]} x{len(bots)}" if len(set(bots)) == 1 else ", ".join(bots)


def spread(counts: Counter) -> dict:
    """Median and the 10th / 90th percentiles of a length distribution."""
    return {"p10": quantile(counts, 0.1), "median": quantile(counts, 0.5), "p90": quantile(counts, 0.9)}


@dataclass
class Tally:
    """Games folded one record at a time: records carry ``winner`` (1-based seat or None),
    ``turns`` and ``rounds``."""

    players: int
    bots: tuple[str, ...]
    games: int = 0
    drawn: int = 0
    wins: Counter = field(default_factory=Counter)  # by seat
    turns: Counter = field(default_factory=Counter)
    rounds: Counter = field(default_factory=Counter)
    orders: Counter = field(default_factory=Counter)  # wins by place in turn order (1 = who started)

    def add(self, record: dict) -> None:
        self.games += 1
        self.turns[record["turns"]] += 1
        self.rounds[record["rounds"]] += 1
        if record["winner"] is None:
            self.drawn += 1
        else:
            self.wins[record["winner"]] += 1
            if record.get("order"):
                self.orders[record["order"]] += 1

    def as_dict(self) -> dict:
        by_bot: Counter = Counter()
        for seat, n in self.wins.items():
            by_bot[self.bots[seat - 1]] += n
        seats = {}
        for s in range(1, self.players + 1):
            w = self.wins.get(s, 0)
            seats[str(s)] = {"wins": w, "share": round(w / self.games, 4) if self.games else 0,
                             "interval95": [round(x, 4) for x in wilson(w, self.games)]}
        orders = {str(k): {"wins": self.orders.get(k, 0),
                           "share": round(self.orders.get(k, 0) / self.games, 4) if self.games else 0,
                           "interval95": [round(x, 4) for x in wilson(self.orders.get(k, 0), self.games)]}
                  for k in range(1, self.players + 1)} if self.orders else None
        return {"games": self.games, "players": self.players, "bots": list(self.bots), "drawn": self.drawn,
                "median_turns": quantile(self.turns, 0.5), "turns": spread(self.turns),
                "rounds": spread(self.rounds), "wins_by_seat": seats, "wins_by_order": orders, "wins_by_bot": dict(by_bot)}

    def seat_lines(self, d: dict) -> list[str]:
        out = []
        for seat, w in d["wins_by_seat"].items():
            lo, hi = w["interval95"]
            out.append(f"  seat {seat} ({self.bots[int(seat) - 1]}): {w['wins']} wins ({100 * w['share']:.1f}%, "
                       f"95% interval {100 * lo:.1f}-{100 * hi:.1f}%)")
        for k, w in (d.get("wins_by_order") or {}).items():
            lo, hi = w["interval95"]
            out.append(f"  {_ORDINAL.get(k, k + 'th')} in turn order: {w['wins']} wins ({100 * w['share']:.1f}%, "
                       f"95% interval {100 * lo:.1f}-{100 * hi:.1f}%)")
        return out


_ORDINAL = {"1": "1st", "2": "2nd", "3": "3rd"}


def check_game(record: dict, players: int, max_turns: int, first: int = 0) -> str | None:
    """What is wrong with a simulated game's ``winner`` and ``turns`` (None: fine)."""
    w, t = record.get("winner"), record.get("turns")
    if not (w is None or (isinstance(w, int) and not isinstance(w, bool) and 1 <= w <= players)):
        return "'winner' out of range"
    if not (isinstance(t, int) and not isinstance(t, bool) and first <= t <= max_turns):
        return "'turns' out of range"
    return None
