"""Keep Moving (Richard Lenherr): a 2-player card and dice game on a row of 14 double-sided
ground cards of lava, grassland and dry soil. Not on the Tube: the edition reads
``data/keepmoving/`` and ignores the network.

Modules: :mod:`.cards` (the component readers), :mod:`.edition`, :mod:`.play` (the state
machine) and :mod:`.resolve` (the steps of a turn). Faces: ``generator/keepmoving/``; bots, the
simulation and the solver: ``solver/keepmoving/``.
"""

from tubedeck.game import Command, Game, Option

GAME = Game(
    id="keepmoving",
    title="Keep Moving",
    rules="Keep Moving (Richard Lenherr; seeds/001)",
    summary="Keep your meeple moving along a row of lava, grassland and dry soil; the last one with life cubes wins.",
    players=(2, 2),
    edition="tubedeck.games.keepmoving.edition:load",
    options=(Option("ground", "A ground composition CSV (default: data/keepmoving/ground.csv).", "path"),),
    faces="tubedeck.generator.keepmoving.faces:documents",
    documents=("ground", "ground-fold", "movement", "function", "reference", "dice", "pieces", "cover"),
    rulebook="tubedeck.generator.keepmoving.rulebook:rulebook",
    engine="tubedeck.games.keepmoving.play:new_game",
    roster="tubedeck.solver.keepmoving.search_bot:BOTS",
    best="mcts",  # the search beats greedy and lookahead (docs/play.md, the ladder)
    driver="tubedeck.solver.keepmoving.simulate:PLAYING",
    solves=(
        Command("keepmoving", "tubedeck.solver.keepmoving.survive:solve_one",
                help="The play that maximises the chance of surviving your next N own turns (exact expectimax "
                     "over dice and draws; the opponent plays nothing in between).",
                options=(Option("seed", "A seeded game's first decision.", "int"),
                         Option("state", "A position as JSON (see solver/keepmoving/position.py).", "path"),
                         Option("turns", "Own turns to survive (1-3).", "int", 1)),
                example=("--seed", "1", "--turns", "1")),
    ),
    plays=(
        Command("keepmoving", "tubedeck.solver.keepmoving.simulate:play_one",
                help="Play one game with bots (random, greedy, lookahead), turn by turn.",
                options=(Option("players", "Players (Keep Moving is for 2).", "int", 2, short="-p"),
                         Option("seed", "The game's seed.", "int", 0, short="-s"),
                         Option("bots", "Bots by seat, comma-separated (one name serves both): random, greedy, "
                                        "lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder).", default="greedy")),
                example=("--seed", "1", "--bots", "greedy,lookahead")),
    ),
    simulations=(
        Command("keepmoving", "tubedeck.solver.keepmoving.simulate:simulation", kind="deals", count_flag="--games",
                help="Simulate N games with bots: turns played, wins by seat and by place in turn order (95% "
                     "intervals), function cards played, how games end.",
                records=("tubedeck.games.keepmoving.records:SIMULATE",),
                options=(Option("bots", "Bots by seat, comma-separated (one name serves both): random, greedy, "
                                        "lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder).", default="greedy"),),
                example=("--games", "2", "--players", "2", "--bots", "greedy")),
    ),
)
