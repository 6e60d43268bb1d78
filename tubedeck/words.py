"""Counted words for what the command line prints: "1 game", "2 games", "1 win", "0.5 wins"."""

from __future__ import annotations


def plural(n: float, one: str, many: str | None = None) -> str:
    """``n`` and the word for that many (``many`` defaults to ``one`` + "s"); a fraction is plural."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {one if n == 1 else many or one + 's'}"


def names_list(text: str, flag: str, what: str = "name") -> tuple[str, ...]:
    """A comma-separated option (``--skip klm,dice``, a scope's ``central,victoria``) as its names;
    an empty entry (``klm,,dice``, a stray comma) is refused, never dropped without a word. An
    empty text is no names."""
    if not text.strip():
        return ()
    names = tuple(n.strip() for n in text.split(","))
    if not all(names):
        from .errors import UsageError

        raise UsageError(f"{flag}: an empty {what} in {text[:200]!r} (one {what} between commas)")
    return names


STATUS_WORDS = {  # a solver's status (as CP-SAT reports it) in a player's words, the exact term beside it
    "OPTIMAL": "proven best",
    "FEASIBLE": "found, not proven best",
    "INFEASIBLE": "proven impossible",
    "UNKNOWN": "undecided within the budget",
    "MODEL_INVALID": "not solved: the model is invalid",
}


def status_words(status: str) -> str:
    """``OPTIMAL`` -> ``proven best (OPTIMAL)``: what it means first, the exact term beside it."""
    words = STATUS_WORDS.get(status)
    return f"{words} ({status})" if words else status

