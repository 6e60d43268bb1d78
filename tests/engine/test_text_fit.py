"""Text fitting helpers of :mod:`tubedeck.generator.text` that faces lay out with."""

from __future__ import annotations


def test_bullet_cards_use_the_fewest_cards_and_even_them_out():
    """A rules summary over cards: the fewest cards that hold it at the least size, and of the
    splits into that many, the one whose smallest text is largest. Filling the first card to the
    brim left it at 7 pt and the second half empty at 8.5 pt."""
    from tubedeck.generator.text import bullet_cards, measure

    items = [f"rule {k}: " + "a few words of the rule " * (2 + k % 2) for k in range(9)]
    w, h = 50.0, 50.0  # greedy: 7 pt on one card; evened: 8.5 pt on both
    parts = bullet_cards(items, "sans", 8.5, 7.0, w, h)
    assert [x for p in parts for x in p] == items  # in order, each once

    def size(group):
        f = measure("\n".join(f"\u2022 {r}" for r in group), "sans", 8.5, 7.0, w, h)
        return None if f is None else f.size

    assert len(parts) > 1 and all(size(p) is not None for p in parts)
    # the greedy split (first card filled to the brim) has as many cards, and smaller text somewhere
    rest, greedy = list(items), []
    while rest:
        n = len(rest)
        while n > 1 and size(rest[:n]) is None:
            n -= 1
        greedy.append(rest[:n])
        rest = rest[n:]
    assert len(greedy) == len(parts)
    assert min(size(p) for p in parts) > min(size(p) for p in greedy)
    assert bullet_cards(items[:1], "sans", 8.5, 7.0, w, h) == [tuple(items[:1])]
