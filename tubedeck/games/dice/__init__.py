"""Tube Dice: a tube-map roll-and-write (seeds/003, unnamed in its text; the name is ours).

Modules: :mod:`.recipe` (``data/dice/recipe.toml``: the map cut and the rules values),
:mod:`.scope`, :mod:`.board` (stations, connections with 1-6 sections, lines, zones, star),
:mod:`.edition` (points per line and zone, seeded rolls), :mod:`.play` (the rules as a state
machine), :mod:`.records` (the declared simulate record). Faces: ``generator/dice/``; bots,
simulation and the solo solver: ``solver/dice/``.
"""

from tubedeck.game import Command, Game, Option

BOTS = "Bots by seat, comma-separated (repeated to fill the table): random, greedy, lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder)."

GAME = Game(
    id="dice",
    title="Tube Dice",
    rules="the tube-map roll-and-write of seeds/003 (unnamed in its text)",
    summary="Roll 5 dice; write numbers in stations and mark connections of matching sections on your own "
            "tube map; complete lines and zones first for high points.",
    players=(1, 4),  # the recipe's [game] players_min/max; a contract test holds them together
    edition="tubedeck.games.dice.edition:load",
    options=(
        Option("recipe", "Recipe TOML (default: data/dice/recipe.toml).", "path"),
        Option("scope", "The map's part of the network, e.g. 'zone 1 within 2 km', 'zones 1-2', "
                        "'central,victoria in zone 1' (default: the recipe's)."),
        Option("sheets", "Map sheets to print (a pad).", "int", 1, build_only=True),
        Option("challenge", "Also print the solo challenge sheet for this roll seed.", build_only=True),
    ),
    faces="tubedeck.generator.dice.faces:documents",
    rulebook="tubedeck.generator.dice.rulebook:rulebook",
    documents=("sheet", "cover"),
    engine="tubedeck.games.dice.play:new_game",
    roster="tubedeck.solver.dice.search_bot:BOTS",
    best="mcts",  # the search beats lookahead (docs/play.md, the ladder)
    driver="tubedeck.solver.dice.simulate:PLAYING",
    solves=(
        Command("dice", "tubedeck.solver.dice.solve:solve_one",
                help="The best solo score for a seeded roll sequence (keep any 2 of 5 dice each turn), proven by an "
                     "exact target search (CP-SAT taking over where it cannot prove); the answer names the engine.",
                options=(Option("seed", "The roll sequence's seed.", "int", 0, short="-s"),
                         Option("rolls", "Rolls to plan for (a turn is one roll; --turns is an older name).",
                                "int", 20, aliases=("--turns",)),
                         Option("time_limit", "Wall-clock seconds for the whole command; a cut-short answer is "
                                              "reported FEASIBLE or UNKNOWN with its bound.", "float", 10.0),
                         Option("det_limit", "Also a deterministic budget (search nodes, CP-SAT deterministic "
                                             "seconds): the same answer on any machine, however loaded (while "
                                             "--time-limit does not cut it).", "float", None),
                         Option("engine", "auto (the exact target search; CP-SAT takes over where it cannot prove "
                                          "in half the budget) or cp-sat (the CP-SAT model alone).", default="auto",
                                choices=("auto", "cp-sat"))),
                example=("--seed", "1", "--rolls", "4")),
    ),
    plays=(
        Command("dice", "tubedeck.solver.dice.simulate:play_one",
                help="Play one game with bots (random, greedy, lookahead), roll by roll.",
                options=(Option("players", "Players.", "int", 2, short="-p"),
                         Option("seed", "The game's seed (its rolls).", "int", 0, short="-s"),
                         Option("bots", BOTS, default="greedy")),
                example=("--players", "2", "--seed", "1")),
    ),
    simulations=(
        Command("dice", "tubedeck.solver.dice.simulate:simulation", kind="deals", count_flag="--games",
                help="Simulate N games with bots: length in rolls and rounds, scores, wins by seat, line and zone "
                     "completions.",
                options=(Option("bots", BOTS, default="greedy"),),
                example=("--games", "3", "--players", "2"),
                records=("tubedeck.games.dice.records:SIMULATE",)),
    ),
)
