"""tubedeck: print-and-play decks and sheets, rules engines, bots and solvers for five tabletop games.

Data flows one way: ``data/`` -> :mod:`tubedeck.network` -> ``tubedeck.games.<game>``
(cards, deals, rules) -> :mod:`generator` (print) or :mod:`solver` (CP-SAT) -> :mod:`tubedeck.cli`.
"""

from time import perf_counter as _perf_counter

__version__ = "0.1.0"

# When this process began importing tubedeck (time.perf_counter): a command's --time-limit is wall-clock
# time for the whole command, start-up included, so the CLI hands solvers what is left from here.
STARTED = _perf_counter()
