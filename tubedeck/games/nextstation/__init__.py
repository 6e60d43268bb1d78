"""Next Station: London (Matthew Dunstan, Blue Orange 2022): a flip-and-write for 1-4 players.

Modules: :mod:`.rules` (rules values, Station cards, objectives, powers), :mod:`.board` (a map:
stations, sections, districts, Thames, derived crossings), :mod:`.generate` (maps from the real
network), :mod:`.edition` (the loader, seeded deals), :mod:`.flips` (turns), :mod:`.lines` (the
construction rules), :mod:`.scoring`, :mod:`.powers`, :mod:`.play` (the rules as a state machine),
:mod:`.records` (the declared records of simulate and check). Faces:
``generator/nextstation/``; solver: ``solver/nextstation/``.
"""

from tubedeck.game import CHECK_OPTIONS, SIMULATE_OPTIONS, Command, Game, Option

GAME = Game(
    id="nextstation",
    title="Next Station: London",
    rules="Next Station: London (Matthew Dunstan, Blue Orange 2022; seeds/004 and the published rulebook)",
    summary="Flip Station cards and draw one Underground line per round on a 10 x 10 station grid; "
            "the best possible round for a flip order, proven by CP-SAT.",
    players=(1, 4),  # the same figures as rules.toml's [rules]; a contract test holds them together
    edition="tubedeck.games.nextstation.edition:load",
    options=(Option("map", "A seed (a map generated from the Tube network; 1, the default, is the first map "
                           "make run prints, page 1 of map.pdf), classic (the published layout, as data: never "
                           "printed) or a map folder in the classic's files.", default="1"),
             Option("zones", "Fare zones a generated map draws its stations from.", default="1-2"),
             Option("river", "A generated map's river: a CSV of WGS84 points along its centreline (columns lon "
                             "and lat, like data/nextstation/thames.csv), for another city (New York's East "
                             "River); it must run through the zones' stations. Default: London's Thames where it "
                             "runs through them, else no river (its sections score nothing).", "path"),
             Option("sheets", "Map sheets to print: generated maps from the --map seed on, so by default maps "
                              "1-N; the classic and a map folder are never printed: with them maps 1-N (with "
                              "--map classic, 1 only).",
                    "int", 1, build_only=True),
             Option("challenge", "Also print the solo challenge sheet for this flip seed (after the map sheet), "
                                 "with the best game known on a fold-under strip.", build_only=True)),
    faces="tubedeck.generator.nextstation.faces:documents",
    documents=("map", "stations", "objectives", "powers", "pencils", "reference", "score-pad", "cover"),
    rulebook="tubedeck.generator.nextstation.rulebook:rulebook",
    engine="tubedeck.games.nextstation.play:new_game",
    variant=("objectives", "powers"),
    roster="tubedeck.solver.nextstation.search_bot:BOTS",
    best="mcts",  # the search scores highest solo (docs/play.md, the ladder)
    driver="tubedeck.solver.nextstation.simulate:PLAYING",
    checks=(
        Command("nextstation", "tubedeck.solver.nextstation.check:par_check", kind="deals", count_aliases=("--games",),
                help="Par scores over N flip seeds: the proven best first round, or with --game the best "
                     "whole game found (with its bound); a summary.",
                options=(Option("game", "The best whole solo game of each seed instead of its first round.",
                                "bool", False),
                         Option("det_limit", "Deterministic budget per deal (CP-SAT deterministic seconds, "
                                             "branch-and-bound nodes; default: --deal-limit's value): the stored "
                                             "answers are the same on any machine, however loaded.", "float",
                                None)),
                example=("--deals", "2", "--seed", "1"),
                shared=tuple(o for o in CHECK_OPTIONS if o != "players"),  # par is solo: no --players
                records=("tubedeck.games.nextstation.records:PAR", "tubedeck.games.nextstation.records:PAR_GAME")),
    ),
    solves=(
        Command("nextstation", "tubedeck.solver.nextstation.solve:solve_round",
                help="The best possible single round for a flip order (seeded or as flipped) and a pencil, or "
                     "with --game the best whole solo game of a seed found (best responses, then CP-SAT), with "
                     "its proven bound (the stored one where the seed has one).",
                options=(Option("seed", "Seed of the deal whose flips to use.", "int", 0, short="-s"),
                         Option("flips", "The flips as a table flipped them: s-circle, u-joker, switch, ... "
                                         "(overrides --seed).", default=None),
                         Option("pencil", "green, pink, purple or blue (default: the seeded solo order's).",
                                default=""),
                         Option("round", "Which round of the seeded game (1-4).", "int", 1),
                         Option("time_limit", "Wall-clock seconds for the whole command; a cut-short answer "
                                              "is reported FEASIBLE or UNKNOWN with its bound.", "float", 30.0),
                         Option("det_limit", "Also a deterministic budget (CP-SAT deterministic seconds, "
                                             "branch-and-bound nodes): the same answer on any machine, however "
                                             "loaded (while --time-limit does not cut it).", "float", None),
                         Option("engine", "auto (the exact branch and bound, proving most rounds in under a "
                                          "second; CP-SAT takes over where it cannot prove in half the time) or "
                                          "cp-sat (the CP-SAT model alone).",
                                default="auto", choices=("auto", "cp-sat")),
                         Option("game", "The best whole solo game of the seed (4 rounds, interchanges, tourist "
                                        "track) instead of one round.", "bool", False),
                         Option("objectives", "With --game: the seeded game's Shared Objectives count too (as "
                                              "play draws them).", "bool", False)),
                example=("--flips", "u-circle,s-joker,u-square,switch,u-triangle,u-pentagon,u-joker",
                         "--pencil", "purple")),
    ),
    plays=(
        Command("nextstation", "tubedeck.solver.nextstation.simulate:play_one",
                help="Play one game with bots (random, greedy, lookahead): every sheet and score.",
                options=(Option("players", "Players.", "int", 1, short="-p"),
                         Option("seed", "The game's seed.", "int", 0, short="-s"),
                         Option("bots", "Bots by seat, comma-separated (repeated to fill the table): random, "
                                        "greedy, lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder).", default="greedy"),
                         Option("objectives", "Play with the seeded game's Shared Objectives.", "bool", False),
                         Option("powers", "Play with Pencil Powers (a power per pencil, once a round).", "bool",
                                False)),
                example=("--players", "2", "--seed", "1", "--bots", "greedy,random")),
    ),
    simulations=(
        Command("nextstation", "tubedeck.solver.nextstation.simulate:simulation", kind="deals", count_flag="--games",
                help="Simulate N games with bots: each bot's final scores (mean, median, 10-90%) and wins; with "
                     "--objectives and --powers each module's points and how often each was met or used.",
                options=(Option("bots", "Bots by seat, comma-separated (repeated to fill the table): random, "
                                        "greedy, lookahead, mcts[:ITERATIONS] (the search bot), best (the strongest by the ladder).", default="greedy"),
                         Option("objectives", "Play with the seeded game's Shared Objectives.", "bool", False),
                         Option("powers", "Play with Pencil Powers (a power per pencil, once a round).", "bool",
                                False),
                         Option("optimum", "Solo: also solve each seed's whole game with the flips known "
                                           "(within --time-limit) and report the bots against it.", "bool", False)),
                example=("--games", "3", "--players", "1", "--bots", "greedy"),
                shared=SIMULATE_OPTIONS + ("deal_limit",), needs={"deal_limit": ("optimum",)},  # --optimum's seconds
                records=("tubedeck.games.nextstation.records:SIMULATE",)),
    ),
)
