"""The Game protocol: what every game declares, and the per-process edition cache.

A game is declared once, as data (:class:`Game`), in ``tubedeck/games/<id>/__init__.py``; the
registry in :mod:`tubedeck.games` lists the ids. In the spirit of python-chess's variants and
OpenSpiel's ``register_game``, everything the command line and the tests need to know about a
game is here: its id, title, player range, the options of an **edition** (one game built from
the data: a scope, a recipe), the documents it prints, the setup it deals and its checks.

Declarations name their code by ``"module:attribute"`` strings, resolved only when used. So
reading the registry imports nothing heavy (``tubedeck --help`` stays fast), and the games'
semantics never import the print engine or the solvers above them: ``faces`` points up into
``generator/<id>/``, ``checks`` and ``solves`` into ``solver/<id>/``.

The functions a declaration points to:

* ``edition(network, **options) -> Edition``: build the game from a dataset (UsageError /
  DataError on bad options; NotApplicable when bundled content does not fit the dataset);
* ``faces(edition, print_options) -> [generator.Deck | generator.Pages]``, named ``documents``;
* ``engine``: the rules engine's ``new_game(edition, players, seed, **variant) -> State``
  (:mod:`tubedeck.play`): a seeded, machine-independent first state, the deal inside it;
  :meth:`Game.new_game` starts a game through it (OpenSpiel's ``load_game(...).new_initial_state()``);
* ``driver``: what ``play`` and ``simulate`` add for the game (its record, measures, final
  position: :class:`tubedeck.solver.simulation.Playing`), :meth:`Game.playing`;
* ``roster``: the game's bots, ``{name: factory}`` (:data:`tubedeck.play.BotFactory`: the name as
  typed, ``mcts:2000`` say, to the bot), the search bot included; :meth:`Game.bot` makes one;
* a check of kind ``"deals"``: ``target(edition, players=, time_limit=, **options)`` returns a
  :class:`tubedeck.solver.runner.DealCheck` run over many seeds; a ``"report"`` check or a solve:
  ``target(edition, **options)`` returns an object with ``as_dict()`` and ``describe()``.

:func:`edition` builds an edition once per process (a command, or a worker process of a check)
and hands the same object to the print engine and the solver: the cards a solver checks are the
very objects the generator prints.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .errors import UsageError
from .play import Bot, BotFactory, State

BEST = "best"  # ``--bots best``: each game's strongest bot by the ladder (docs/play.md, Game.best)


@dataclass(frozen=True)
class Option:
    """A command-line option a game declares (``--scope``, ``--recipe``, ``--engine``).

    ``type`` is ``"str"``, ``"int"``, ``"float"``, ``"path"`` (a file) or ``"bool"`` (a flag,
    default False); ``choices`` are checked by the CLI before anything runs."""

    name: str
    help: str
    type: str = "str"
    default: Any = None
    choices: tuple[str, ...] = ()
    short: str = ""  # e.g. "-p"
    aliases: tuple[str, ...] = ()  # older names still taken (solve dice --rolls: "--turns")
    required: bool = False
    build_only: bool = False  # an edition option only ``build`` takes (what to print: --sheets)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def as_dict(self) -> dict:
        return {"flag": self.flag, "type": self.type, "default": None if self.required else self.default,
                "required": self.required, "choices": list(self.choices), "help": self.help,
                "build_only": self.build_only}


@dataclass(frozen=True)
class Command:
    """A check or solve command: ``tubedeck check|solve NAME``.

    ``kind`` is ``"deals"`` (many seeds through the runner: resumable results file, workers,
    summary) or ``"report"`` (one answer, printed)."""

    name: str
    target: str
    help: str
    kind: str = "report"
    options: tuple[Option, ...] = ()
    example: tuple[str, ...] = ()  # arguments of a quick real run (``tubedeck games`` shows it; a test runs it)
    count_flag: str = "--deals"  # how a "deals" command names its count (``simulate`` says --games)
    count_aliases: tuple[str, ...] = ()  # other names it also takes (check nextstation: --games too)
    # A "deals" command's record declarations (:class:`tubedeck.records.Schema`, "module:attribute"),
    # one per mode it writes (check nextstation: "par" and "par-game"): what report and resume read.
    records: tuple[str, ...] = ()
    # The shared options of a "deals" command it reads (names from CHECK_OPTIONS); None: its verb's
    # default (CHECK_OPTIONS for a check, SIMULATE_OPTIONS for a simulation). A command takes only
    # the options it uses: Next Station's par check is solo, so it leaves out "players".
    shared: tuple[str, ...] | None = None
    # Options that only work with others: {"deal_limit": ("optimum",)} refuses --deal-limit without
    # --optimum (a shared or a declared option, by name), so no option is accepted and ignored.
    needs: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)

    def as_dict(self) -> dict:
        return {"command": self.name, "kind": self.kind, "help": self.help,
                "options": [o.as_dict() for o in self.options], "example": list(self.example),
                "records": [resolve(r).as_dict() for r in self.records]}


# The options shared by "deals" commands (``tubedeck.cli.run`` defines them): a check's, and a
# simulation's (bots play no CP-SAT, and a played game is never undecided, so no --deal-limit and
# no --retry-unknown unless the command declares them in ``Command.shared``). ``time_limit`` is the
# whole command's wall clock; ``deal_limit`` a deal's solver budget (the records depend on it).
CHECK_OPTIONS = ("deals", "players", "seed", "workers", "results", "time_limit", "deal_limit", "progress",
                 "require_all", "retry_unknown", "runner", "scheduler", "shard")
SIMULATE_OPTIONS = tuple(o for o in CHECK_OPTIONS if o not in ("deal_limit", "retry_unknown"))


@dataclass(frozen=True)
class Game:
    """One game's declaration. ``players`` is ``None`` for something that is not played (the
    print engine's sampler)."""

    id: str
    title: str
    rules: str  # where the rules come from, as the README cites them
    edition: str
    players: tuple[int, int] | None = None
    options: tuple[Option, ...] = ()  # edition options, taken by build, check and solve
    faces: str | None = None
    documents: tuple[str, ...] = ()
    # "module:rulebook": (edition, print options) -> tubedeck.generator.rulebook.Rulebook; build prints it
    # as rulebook.pdf (the build's paper, two columns) and rulebook-booklet.pdf (A5 pages imposed to fold).
    rulebook: str | None = None
    engine: str | None = None  # "module:new_game": (edition, players, seed, **variant) -> State
    variant: tuple[str, ...] = ()  # the engine's options that shape a game (Next Station: objectives, powers)
    roster: str | None = None  # "module:BOTS": {bot name: factory}, the search bot included
    aliases: tuple[tuple[str, str], ...] = ()  # old bot names still accepted: (("strong", "lookahead"),)
    best: str | None = None  # what ``--bots best`` plays: the strongest bot by the ladder (docs/play.md)
    driver: str | None = None  # "module:PLAYING": what play and simulate add (records, measures, the position)
    checks: tuple[Command, ...] = ()
    solves: tuple[Command, ...] = ()
    plays: tuple[Command, ...] = ()  # ``tubedeck play GAME``: one game by bots, turn by turn
    simulations: tuple[Command, ...] = ()  # ``tubedeck simulate GAME``: many games, a summary
    summary: str = ""

    def as_dict(self) -> dict:
        return {
            "id": self.id, "title": self.title, "rules": self.rules, "summary": self.summary,
            "players": list(self.players) if self.players else None,
            "options": [o.as_dict() for o in self.options],
            "documents": list(self.documents),
            "played": self.engine is not None,
            "bots": list(self.bots) if self.roster else [],
            "best": self.best,
            "checks": [c.as_dict() for c in self.checks],
            "solves": [c.as_dict() for c in self.solves],
            "plays": [c.as_dict() for c in self.plays],
            "simulations": [c.as_dict() for c in self.simulations],
        }

    @property
    def seats(self) -> str:
        """The players it takes, as people say it: ``2-6``, or ``2`` for a game of exactly two."""
        if self.players is None:
            return ""
        lo, hi = self.players
        return f"{lo}" if lo == hi else f"{lo}-{hi}"

    # -- play (OpenSpiel's Game: the factory of its own states) -----------------------------------
    def new_game(self, edition: Any, players: int, seed: int = 0, **variant: Any) -> State[Any]:
        """The first state of a seeded game for ``players`` seats (``variant``: the options in
        :attr:`variant`; others are refused)."""
        if self.engine is None:
            raise UsageError(f"{self.title} is not played")
        unknown = sorted(set(variant) - set(self.variant))
        if unknown:
            raise UsageError(f"{self.title} takes no option {unknown[0]!r} when a game starts")
        self.check_players(players)
        return resolve(self.engine)(edition, players, seed, **variant)

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """``{name: factory}``: every bot of the game, the search bot (``mcts``) included, in the
        order the game lists them (its first is the default)."""
        if self.roster is None:
            return {}
        return resolve(self.roster)

    @property
    def bot_aliases(self) -> dict[str, str]:
        """Other names a bot is taken by: the old names (:attr:`aliases`) and ``best``, the
        strongest bot by the ladder (:attr:`best`)."""
        return dict(self.aliases) | ({BEST: self.best} if self.best else {})

    def bot_name(self, name: str) -> str:
        """The bot's name as the roster lists it: an alias resolved (``best`` to the game's
        strongest bot), ``mcts:2000`` kept."""
        if name == BEST and self.best:
            return self.best
        base, colon, budget = name.partition(":")
        return dict(self.aliases).get(base, base) + colon + budget

    def bot(self, name: str) -> Bot:
        """The bot ``name`` (``greedy``, ``mcts``, ``mcts:2000``); UsageError naming the known ones."""
        name = self.bot_name(name)
        factory = self.bots.get(name.partition(":")[0])
        if factory is None or (":" in name and not name.startswith("mcts:") and not budgeted(factory)):
            raise UsageError(f"--bots: unknown bot {name!r} (known: {', '.join(k for k in self.bots if k != 'mcts')}, "
                             f"mcts[:ITERATIONS]{', best' if self.best else ''})")
        return factory(name)

    def playing(self) -> Any:
        """What the game adds to the one driver of ``play`` and ``simulate``
        (:class:`tubedeck.solver.simulation.Playing`: how a played game becomes its record)."""
        if self.driver is None:
            raise UsageError(f"{self.title} is not played")
        return resolve(self.driver)

    @property
    def records(self) -> tuple[Any, ...]:
        """Every record declaration (:class:`tubedeck.records.Schema`) the game's commands write."""
        return tuple(resolve(r) for c in self.checks + self.simulations for r in c.records)

    def check_players(self, players: int, flag: str = "--players") -> int:
        if self.players is None:
            raise UsageError(f"{self.title} has no players")
        lo, hi = self.players
        if not lo <= players <= hi:
            raise UsageError(f"{flag} must be {self.seats} for {self.title}, got {players}")
        return players


def budgeted(factory: Any) -> bool:
    """Whether a roster's bot factory takes a budget after its name (``planner:16``), as the
    search bot does (``mcts:2000``): a factory saying so with ``budgeted = True``; it refuses a
    bad budget itself (UsageError)."""
    return bool(getattr(factory, "budgeted", False))


def resolve(target: str) -> Any:
    """``"package.module:attribute"`` -> the object (imported on first use)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


@lru_cache(maxsize=8)
def network(data: str | None = None):
    """The dataset as a Network, loaded once per process per directory."""
    from .network import Network  # networkx is only paid for by commands that need a network

    return Network.load(data)


def _key(options: dict) -> tuple:
    return tuple(sorted((k, str(v) if isinstance(v, Path) else v) for k, v in options.items()))


@lru_cache(maxsize=16)
def _edition(game: Game, data: str | None, options: tuple) -> Any:
    return resolve(game.edition)(network(data), **dict(options))


def edition(game: Game, data: Path | str | None = None, **options: Any) -> Any:
    """The game's edition for a dataset and options, built once per process."""
    return _edition(game, None if data is None else str(data), _key(options))
