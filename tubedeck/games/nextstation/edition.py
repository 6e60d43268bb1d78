"""One Next Station: London edition: the rules values, the 11 Station cards and a map (the classic
London layout from ``data/nextstation/classic-*`` by default), built once per process and shared
by the rules engine, the solver and the faces.

The classic map is its own board: it is not derived from the Tube dataset, so the loader takes
the network like every game's and ignores it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from tubedeck.content import game_dir, is_london, is_whole_text, localise
from tubedeck.errors import NotApplicable, UsageError

from .board import Board, load_board
from .flips import shuffled
from .generate import MAPS_VERSION, Generated, generate, parse_zones
from .rules import Card, RuleBook, Rules, Scores, load_rules

MAPS = ("classic",)


def generated_maps(map: str | None) -> dict:  # noqa: A002 - the option's name
    """What a results header adds for a generated map (``--map SEED``): the maps' version."""
    return {"maps": MAPS_VERSION} if map is not None and is_whole_text(map) else {}


def map_title(map: str | None, zones: str = "1-2") -> str:  # noqa: A002 - the option's name
    """How summaries name the map of a ``--map`` and ``--zones``: the classic map, map 3, map 3,
    zones 1-3 (a folder by its path)."""
    if (map or "classic") == "classic":
        return "the classic map"
    return f"map {map}" + (f", zones {zones}" if zones != "1-2" else "")


@dataclass(frozen=True)
class Edition:
    """``board`` is the map played, solved and checked (the classic by default, or a generated
    one with ``--map SEED``); :attr:`sheet` is the generated map the map sheet prints (the
    classic board is never printed): the played map when it is generated, else seed 1."""

    book: RuleBook
    board: Board
    network: object = field(default=None, compare=False, repr=False)
    zones: str = "1-2"
    generated: Generated | None = None
    sheets: int = 1
    challenge: int | None = None  # --challenge S: the solo challenge's seed (:mod:`.challenge` reads its answer)
    river: str | None = None  # --river FILE: a generated map's river (default: the Thames where it runs)

    @cached_property
    def sheet(self) -> Generated:
        return self.sheet_maps[0]

    @cached_property
    def sheet_maps(self) -> tuple[Generated, ...]:
        """The maps the map sheet prints, one a page: the played map's seed (1 for the classic,
        which is never printed) and the next ``sheets - 1`` seeds."""
        if self.network is None:
            raise UsageError("the map sheet is generated from the Tube dataset: load the edition with a network")
        first = self.generated.seed if self.generated is not None else 1
        made = [self.generated] if self.generated is not None else []
        while len(made) < self.sheets:
            made.append(generate(self.network, self.book, self.board if self.generated is None else self._classic(),
                                 first + len(made), self.zones, self.river))
        return tuple(made)

    @property
    def notes(self) -> tuple[str, ...]:
        """What a build says on the console: which maps the map sheet holds when the map played is
        not printed (the classic, a map folder), then each generated map's acceptance, with each
        candidate refused before it by number and why."""
        maps = self.sheet_maps
        out = []
        if self.generated is None:
            which = "the classic map" if self.board == self._classic() else "the --map folder's map"
            seeds = f"map {maps[0].seed}" if len(maps) == 1 else f"maps {maps[0].seed}-{maps[-1].seed}"
            out.append(f"{which} is never printed: the map sheet holds generated {seeds} "
                       f"(--map SEED prints maps from SEED on)")
        for m in maps:
            line = (f"map {m.seed}: candidate {m.tries} accepted, par {m.figures['par']:g} "
                    f"(classic {m.figures['classic_par']:g})")
            refused = "; ".join(f"candidate {k}: {why}" for k, why in enumerate(m.rejected, 1))
            out.append(line + (f"; refused before it: {refused}" if refused else ""))
        return tuple(out)

    def _classic(self) -> Board:
        return load_board(game_dir("nextstation"), self.book.rules, prefix="classic-")

    @property
    def rules(self) -> Rules:
        return self.book.rules

    @property
    def scores(self) -> Scores:
        return self.book.scores

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.book.cards


@dataclass(frozen=True)
class Deal:
    """A seeded game: each player's pencil per round and each round's shuffled Station cards."""

    seed: int
    players: int
    pencils: tuple[tuple[str, ...], ...]  # pencils[player][round]
    flips: tuple[tuple[str, ...], ...]  # flips[round]: card ids in the order they are flipped


MAX_SHEETS = 100


MAX_CHALLENGE = 2**62


def load(network=None, map: str | None = None, zones: str = "1-2", sheets: int = 1,  # noqa: A002
         challenge: str | int | None = None, river: Path | str | None = None) -> Edition:
    """The classic map by default; ``--map SEED`` a map generated from the network (``--zones``);
    ``--map DIR`` a map folder in the classic's files. ``--challenge S``: also the solo challenge
    sheet of seed S's deal (:mod:`.challenge`). ``--river FILE``: a generated map's river, a
    WGS84 polyline (:func:`.generate.thames`), for a city other than London.

    ``sheets``: the map sheet's pages, generated maps from the ``--map`` seed on, from seed 1 when
    the map played is not generated (the classic is never printed). So ``map="classic"`` asked for
    in so many words (``build`` passes only the options given) with ``sheets`` > 1 is refused: it
    would print no classic map at all."""
    given = None if river is None else str(river)
    if challenge is None:
        return _load(network, map, zones, sheets, given)
    text = str(challenge).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) >= MAX_CHALLENGE:
        raise UsageError(f"--challenge must be a flip seed 0-{MAX_CHALLENGE - 1}, got {str(challenge)[:40]!r}")
    return replace(_load(network, map, zones, sheets, given), challenge=int(text))


def localised(book: RuleBook, dataset: object) -> RuleBook:
    """The printed words of ``book`` (texts, objectives, powers) as they print on the dataset at
    ``dataset``: London's unchanged, another city's through :func:`tubedeck.content.localise`."""
    if dataset is None or is_london(str(dataset)):
        return book
    where = str(dataset)

    def words(value):
        if isinstance(value, str):
            return localise(value, where)
        if isinstance(value, (list, tuple)):
            return type(value)(words(v) for v in value)
        return value

    return replace(book, texts={k: words(v) for k, v in book.texts.items()},
                   objectives=tuple(replace(o, text=words(o.text), title=words(o.title), example=words(o.example))
                                    for o in book.objectives),
                   powers=tuple(replace(p, text=words(p.text), title=words(p.title), example=words(p.example))
                                for p in book.powers))


def _load(network, map: str | None, zones: str, sheets: int, river: str | None = None) -> Edition:  # noqa: A002
    book = localised(load_rules(), getattr(network, "source", None))
    name = str(map or "classic")
    classic = load_board(game_dir("nextstation"), book.rules, prefix="classic-")
    parse_zones(zones)
    if not 1 <= sheets <= MAX_SHEETS:
        raise UsageError(f"--sheets must be 1-{MAX_SHEETS}, got {sheets}")
    if map is not None and name in MAPS and sheets > 1:
        raise UsageError(f"--sheets {sheets} with --map {name}: the {name} map is never printed, the map sheet "
                         f"holds generated maps; leave out --map {name} for maps 1-{sheets}, or give --map SEED "
                         f"for maps from SEED on")
    if name in MAPS:
        return Edition(book, classic, network, zones, None, sheets, river=river)
    if is_whole_text(name):
        if network is None:
            raise UsageError("--map SEED generates a map from the Tube dataset, which is not loaded here")
        try:
            made = generate(network, book, classic, int(name), zones, river)
        except (NotApplicable, UsageError) as exc:  # this dataset makes no map: say what plays without one
            if str(exc).startswith("--"):
                raise
            raise type(exc)(f"{exc} (play, simulate, solve and check take --map classic: the published "
                            f"layout, which needs no dataset)") from None
        return Edition(book, made.board, network, zones, made, sheets, river=river)
    if not Path(name).is_dir():
        raise UsageError(f"--map must be classic, a seed (a generated map) or a map folder, got {name!r}")
    return Edition(book, load_board(Path(name), book.rules), network, zones, None, sheets, river=river)


def pencil_orders(rules: Rules, players: int, first: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Pencils round the table. The four pencils sit on four places in a ring; players take
    places 0..n-1 spread round it (2 players: 0 and 2, a spare pencil to each one's left, as the
    setup says), and each round every pencil moves one place to the left, so a player takes the
    pencil from their right, or the unused one lying there. ``first`` = pencils at places 0..3."""
    ring = len(first)
    step = ring // players if ring % players == 0 else 1
    places = [p * step for p in range(players)]
    return tuple(tuple(first[(q - r) % ring] for r in range(rules.rounds)) for q in places)


def deal(edition: Edition, players: int, seed: int) -> Deal:
    """The pencils and flips of :func:`.flips.shuffled`, the pencils passed round the table."""
    rules = edition.rules
    if not rules.players_min <= players <= rules.players_max:
        raise UsageError(f"--players must be {rules.players_min}-{rules.players_max}, got {players}")
    first, flips = shuffled(edition.book, seed)
    return Deal(seed, players, pencil_orders(rules, players, first), flips)
