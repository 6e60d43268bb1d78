"""Next Station: London solvers: the best round (CP-SAT) and an independent exhaustive search."""
