"""tubedeck: print-and-play decks, sheets and deal solvers for London Underground games.

Data flows one way: ``data/`` -> :mod:`tubedeck.network` -> ``tubedeck.games.<game>``
(cards, deals, rules) -> :mod:`generator` (print) or :mod:`solver` (CP-SAT) -> :mod:`tubedeck.cli`.
"""

__version__ = "0.1.0"
