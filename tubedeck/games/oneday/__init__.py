"""One Day in London: the board derived from the dataset by a recipe (``data/oneday/recipe.toml``),
its 72-card deck, seeded deals, and the journey rules.

Modules: :mod:`.recipe`, :mod:`.board` (stations, runs), :mod:`.cards`, :mod:`.setup` (deals),
:mod:`.journey` (the validator), :mod:`.edition`. Faces: ``generator/oneday/``; solver:
``solver/oneday/``.
"""

from tubedeck.game import Command, Game, Option

GAME = Game(
    id="oneday",
    title="One Day in London",
    rules="One Day in London (Boardspace text, seeds/002)",
    summary="Build a valid 10-stop continuous journey in zone 1 by exchanging cards in your rack.",
    players=(2, 4),  # the same figures as the recipe's [game] table; a contract test holds them together
    edition="tubedeck.games.oneday.edition:load",
    options=(
        Option("recipe", "Recipe TOML (default: data/oneday/recipe.toml).", "path"),
        Option("copy_rule", "Override the recipe's copy rule.", choices=("lines-minus-one", "one-per-line", "single")),
        Option("racks", "The rack sheet: tent (a tent rack per player to cut, fold and glue: it stands the cards "
                        "up facing their owner) or flat (a mat per player to lay the cards on).",
               default="tent", choices=("tent", "flat"), build_only=True),
    ),
    faces="tubedeck.generator.oneday.faces:documents",
    documents=("stations", "rules", "map", "racks", "cover"),
    rulebook="tubedeck.generator.oneday.rulebook:rulebook",
    engine="tubedeck.games.oneday.play:new_game",
    aliases=(("strong", "lookahead"),),  # the one-turn look-ahead was "strong" here (docs/glossary.md)
    roster="tubedeck.solver.oneday.search_bot:BOTS",
    best="mcts",  # the search beats lookahead (docs/play.md, the ladder)
    driver="tubedeck.solver.oneday.simulate:PLAYING",
    checks=(
        Command("oneday", "tubedeck.solver.oneday.check:deal_check", kind="deals",
                help="Deal N seeded games; per deal each player's minimum exchanges and reachability; a summary.",
                options=(Option("engine", "cp-sat (CP-SAT decides every rack) or auto (exact bound first).",
                                default="cp-sat", choices=("cp-sat", "auto")),),
                example=("--deals", "2", "--players", "4"),
                records=("tubedeck.games.oneday.records:CHECK",)),
    ),
    solves=(
        Command("oneday", "tubedeck.solver.oneday.exchanges:solve_one",
                help="Is a rack a valid journey? If not: the fewest exchanges and one target journey.",
                options=(Option("rack", "10 station names, slot 1 first, comma-separated.", required=True),
                         Option("held", "Cards in the other players' racks (not obtainable).", default=""),
                         Option("buried", "Cards under the tops of the discard piles: not at hand as the text "
                                          "reads it (leave empty for the optimistic bound).", default=""),
                         Option("engine", "auto (exact bound first; CP-SAT only where it breaks a copy limit) "
                                          "or cp-sat (always solve with CP-SAT).",
                                default="auto", choices=("auto", "cp-sat")),
                         Option("time_limit", "Wall-clock seconds for the whole command (CP-SAT's deterministic budget too, so "
                                              "an answer is the same on any machine); UNKNOWN or FEASIBLE beyond it.",
                                "float", 10.0)),
                # the text's winning example, filled out to 10 stops
                example=("--rack", "Blackfriars,Tower Hill,Aldgate,Farringdon,Baker Street,Oxford Circus,"
                                   "Elephant & Castle,King's Cross St Pancras,Waterloo,Edgware Road (Bakerloo)")),
    ),
    plays=(
        Command("oneday", "tubedeck.solver.oneday.simulate:play_one",
                help="Play one game with bots (random, greedy, lookahead), turn by turn.",
                options=(Option("players", "Players.", "int", 4, short="-p"),
                         Option("seed", "The game's seed.", "int", 0, short="-s"),
                         Option("bots", "Bots by seat, comma-separated (repeated to fill the table): random, "
                                        "greedy, lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder).", default="lookahead")),
                example=("--players", "2", "--seed", "1", "--bots", "lookahead")),
    ),
    simulations=(
        Command("oneday", "tubedeck.solver.oneday.simulate:simulation", kind="deals", count_flag="--games",
                help="Simulate N games with bots: game length, wins by seat (95% interval) and by bot.",
                options=(Option("bots", "Bots by seat, comma-separated (repeated to fill the table): random, "
                                        "greedy, lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder).", default="lookahead"),),
                example=("--games", "2", "--players", "2", "--bots", "lookahead"),
                records=("tubedeck.games.oneday.records:SIMULATE",)),
    ),
)
