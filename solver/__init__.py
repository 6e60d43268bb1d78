"""CP-SAT models and deal checking, one module per game; :mod:`solver.runner` runs many deals."""
