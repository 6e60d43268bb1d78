"""Keep London Moving: Station Cards with Connection Numbers cut from the network by a scope,
the Fortune deck, deals, and the rules values (``data/klm/``).

Modules: :mod:`.cards` (Station and Fortune Cards), :mod:`.scope`, :mod:`.setup` (deals),
:mod:`.rules` (``rules.toml``), :mod:`.edition` (all of it, built once), :mod:`.play` (the rules
as a state machine), :mod:`.records` (the declared check and simulate records). Faces:
``generator/klm/``; checker: ``solver/klm/``.
"""

from tubedeck.game import Command, Game, Option

SCOPES = "core (zone 1, the default), inner (zones 1-2), middle (zones 1-3), outer (zones 1-4), london (all)"
SCOPE = Option("scope", "Deck scope: 'all', 'zone 1', 'zones 1-2', 'central,victoria', 'central in zones 1-2', "
                        f"or a named scope of data/klm/scopes.csv: {SCOPES}.")

ENGINE = Option("engine", "cp-sat (CP-SAT decides every deal) or auto (exhaustive path search first, exact; "
                          "CP-SAT for graphs too large for it).", default="cp-sat", choices=("cp-sat", "auto"))
BOTS = "Bots by seat, comma-separated (repeated to fill the table): random, greedy, lookahead, rollout, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder)."

GAME = Game(
    id="klm",
    title="Keep London Moving",
    rules="Keep London Moving rulebook (seeds/000)",
    summary="Collect Station Cards and link five continuous Active stations by Connection Numbers.",
    players=(2, 6),  # the same figures as data/klm/rules.toml; a contract test holds them together
    edition="tubedeck.games.klm.edition:load",
    options=(SCOPE,),
    faces="tubedeck.generator.klm.faces:documents",
    rulebook="tubedeck.generator.klm.rulebook:rulebook",
    documents=("stations", "fortune", "reference", "play-field", "cover"),
    engine="tubedeck.games.klm.play:new_game",
    aliases=(("strong", "lookahead"),),  # the one-turn look-ahead was "strong" here (docs/glossary.md)
    roster="tubedeck.solver.klm.search_bot:BOTS",
    best="rollout",  # level with greedy and lookahead, the search mcts below them (docs/play.md, the ladder)
    driver="tubedeck.solver.klm.simulate:PLAYING",
    checks=(
        Command("klm", "tubedeck.solver.klm.check:deal_check", kind="deals",
                help="Check seeded deals: can each player complete five continuous stations before the Station "
                     "stock runs out, and on which turn? CP-SAT decides every player of every deal (or, with "
                     "--engine auto, an exhaustive path search first).",
                options=(ENGINE,),
                example=("--deals", "3", "--players", "3", "--scope", "zone 1"),
                records=("tubedeck.games.klm.records:CHECK",)),
        Command("klm-bound", "tubedeck.solver.klm.bound:report",
                help="Over ALL deals of a scope (no sixes rolled): the deal that delays the first possible win "
                     "the most, or a proven bound 'every deal is winnable by turn T'.",
                options=(Option("players", "Players.", "int", 4, short="-p"),
                         Option("time_limit", "Wall-clock seconds for the whole command (an undecided answer says what is proven).", "float", 120.0)),
                example=("--scope", "victoria", "--players", "2", "--time-limit", "20")),
    ),
    solves=(
        Command("klm", "tubedeck.solver.klm.check:solve_one",
                help="Solve one deal and show every player's earliest win, with its cards and turns.",
                options=(Option("seed", "The deal's seed.", "int", 0, short="-s"),
                         Option("players", "Players.", "int", 4, short="-p"), ENGINE),
                example=("--seed", "1", "--players", "3", "--scope", "zone 1")),
    ),
    plays=(
        Command("klm", "tubedeck.solver.klm.simulate:play_one",
                help="Play one game with bots (random, greedy, lookahead), turn by turn.",
                options=(Option("players", "Players.", "int", 4, short="-p"),
                         Option("seed", "The game's seed.", "int", 0, short="-s"),
                         Option("bots", BOTS, default="greedy")),
                example=("--players", "3", "--seed", "1", "--scope", "zone 1")),
    ),
    simulations=(
        Command("klm", "tubedeck.solver.klm.simulate:simulation", kind="deals", count_flag="--games",
                help="Simulate N games with bots: game length, wins by seat (95% interval) and by bot, Fortune "
                     "Cards in the winner's last 3 turns, Fast Gameplay.",
                options=(Option("bots", BOTS, default="greedy"),),
                example=("--games", "3", "--players", "2", "--scope", "zone 1"),
                records=("tubedeck.games.klm.records:SIMULATE",)),
    ),
)
