"""Keep Moving: bots, the simulation and the survival solver."""
