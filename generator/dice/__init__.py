"""Tube Dice faces: the player map sheet (and its pad)."""
