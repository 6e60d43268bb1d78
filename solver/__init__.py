"""CP-SAT models and deal checking, one module per game; :mod:`tubedeck.solver.runner` runs many deals."""
