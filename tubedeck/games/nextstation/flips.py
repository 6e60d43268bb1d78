"""A round's flips as turns, and flip orders typed by a player.

The controller flips the 11 Station cards one at a time. Each flip of a symbol or Joker card is a
**turn**: every player may draw one section. A Railroad Switch is not a turn of its own: the next
card is flipped at once and that turn's section may start from any station of the line; a Switch
flipped on turn 1 or 2 of the round (``switch_ignored_turns``) is ignored. The round ends after
the turn of the ``round_end``-th (5th) Underground card; cards after it are never flipped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tubedeck.errors import UsageError

from .rules import JOKER, RuleBook


@dataclass(frozen=True)
class Turn:
    card: str  # the card id flipped for this turn
    symbol: str | None  # the symbol to reach; None for a Joker (any symbol)
    switch: bool  # a Railroad Switch came with this card: start from any station of the line
    last: bool  # this turn's card is the round's last Underground card


def turns_so_far(book: RuleBook, order: tuple[str, ...]) -> tuple[tuple[Turn, ...], bool]:
    """The turns of a (partial) flip order, and whether a Switch waits for the next card."""
    by_id = book.card_by_id
    rules = book.rules
    out: list[Turn] = []
    under, switch = 0, False
    for position, ident in enumerate(order, start=1):
        if out and out[-1].last:
            break  # the round is over: later cards are never flipped
        card = by_id[ident]
        if card.switch:
            # "flipped over ... on the first or second turn of the round then it is ignored"
            switch = position > rules.switch_ignored_turns
            continue
        under += card.underground
        out.append(Turn(card.id, None if card.face == JOKER else card.face, switch, under == rules.round_end))
        switch = False
    return tuple(out), switch


def flip_turn(book: RuleBook, order: tuple[str, ...]) -> Turn | None:
    """The turn the order's last card makes: ``turns_so_far(book, order)[0][-1]`` when that is the
    last card's, else None (a Railroad Switch, or a card after the round's end). The engine asks
    this on every flip, so it counts as :func:`turns_so_far` does but builds only the one Turn."""
    flags = book.card_flags
    rules = book.rules
    ignored, end = rules.switch_ignored_turns, rules.round_end
    under, switch, over = 0, False, False
    last = len(order)
    for position, ident in enumerate(order, start=1):
        if over:
            return None  # the round is over: later cards are never flipped
        is_switch, underground, symbol = flags[ident]
        if is_switch:
            switch = position > ignored
            if position == last:
                return None
            continue
        under += underground
        over = under == end
        if position == last:
            return Turn(ident, symbol, switch, over)
        switch = False
    return None


def turns(book: RuleBook, order: tuple[str, ...]) -> tuple[Turn, ...]:
    """The turns a flip order gives (UsageError if the order never ends the round)."""
    out, _ = turns_so_far(book, order)
    if not out or not out[-1].last:
        under = sum(book.card(i).underground for i in order)
        raise UsageError(f"the flips hold {under} Underground cards; a round ends on the {book.rules.round_end}th")
    return out


ALIASES = {"switch": "street-switch", "railroad-switch": "street-switch"}


def parse_flips(book: RuleBook, text: str) -> tuple[str, ...]:
    """A typed flip order: card ids (``street-circle``, ``underground-joker``, ``switch``) or short
    forms ``s-circle`` / ``u-circle``, comma-separated. No card twice, none left empty; the order
    must reach the round's end and stop there (cards after it are never flipped; later cards
    may be left off)."""
    ids = {c.id for c in book.cards}
    if not text.strip():
        raise UsageError("--flips is empty: name the cards in the order flipped, e.g. u-circle,s-joker,switch,...")
    out: list[str] = []
    for position, raw in enumerate(text.split(","), start=1):
        word = raw.strip().lower().replace(" ", "-").replace("_", "-")
        if not word:
            raise UsageError(f"--flips has no card at position {position} (two commas, or a comma at an end)")
        if word.startswith("s-"):
            word = "street-" + word[2:]
        elif word.startswith("u-"):
            word = "underground-" + word[2:]
        word = ALIASES.get(word, word)
        if word not in ids:
            raise UsageError(f"unknown Station card {raw.strip()!r} in --flips (known: {', '.join(sorted(ids))}; "
                             "short forms s-circle, u-joker, switch)")
        if word in out:
            raise UsageError(f"--flips names {word!r} twice; each of the {len(ids)} cards is flipped once")
        out.append(word)
    ts = turns(book, tuple(out))  # the order must end the round
    end = out.index(ts[-1].card) + 1
    if end < len(out):
        raise UsageError(f"--flips goes on after the round's end: {ts[-1].card!r} (card {end}) is the "
                         f"{book.rules.round_end}th Underground card, so {', '.join(out[end:])} "
                         f"{'is' if end + 1 == len(out) else 'are'} never flipped; "
                         "leave them off")
    return tuple(out)


def shuffled(book: RuleBook, seed: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """A seeded game's chance: ``random.Random(seed)`` places the pencils (the order at places
    0..3), then shuffles the Station cards once per round (flips[round])."""
    rng = random.Random(seed)
    first = list(book.rules.pencils)
    rng.shuffle(first)
    flips = []
    for _ in range(book.rules.rounds):
        ids = [c.id for c in book.cards]
        rng.shuffle(ids)
        flips.append(tuple(ids))
    return tuple(first), tuple(flips)
