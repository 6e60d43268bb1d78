"""Tube Dice: bots, simulation and balance, the solo solver (CP-SAT) and its exhaustive check."""
