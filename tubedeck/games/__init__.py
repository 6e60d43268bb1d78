"""The games. Every game module exposes the same small shape (after OpenSpiel's Python games):

* ``recipe`` / ``load_*``: the game's content read from ``data/<game>/`` (never typed in code);
* ``build_deck(network, ...)``: the cards, as frozen value objects; the generator prints these very
  objects and the solver reasons about them, so a card is described exactly once;
* ``deal(deck, players, seed)``: a seeded, machine-independent deal (``random.Random(seed)``);
* a state with ``legal_moves()`` and ``is_win()`` where the game needs one for its checker.

Modules: :mod:`tubedeck.games.klm` (Keep London Moving), :mod:`tubedeck.games.oneday`
(One Day in London).
"""
