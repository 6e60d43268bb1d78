"""One Keep Moving edition: the components read from ``data/keepmoving/`` (or another ground
composition, ``--ground FILE``), built once per process and shared by the faces, the rules
engine, the bots and the solver. The game is not on the Tube: the network is not used."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tubedeck.errors import Problem

from .cards import (
    Die,
    FunctionCard,
    GroundCard,
    MovementCard,
    Rules,
    Texts,
    data_file,
    raise_if,
    read_dice,
    read_function,
    read_ground,
    read_movement,
    read_rules,
)


@dataclass(frozen=True)
class Edition:
    """Everything one game of Keep Moving is played with."""

    rules: Rules
    texts: Texts
    ground: tuple[GroundCard, ...]
    movement: tuple[MovementCard, ...]  # one player's set, by kind (``copies`` each)
    function: tuple[FunctionCard, ...]  # the function cards, by kind
    dice: dict[str, Die]
    composition: str  # the ground file's name: which composition this is

    @property
    def movement_set(self) -> tuple[str, ...]:
        """One player's movement cards, one id per card."""
        return tuple(m.id for m in self.movement for _ in range(m.copies))

    @property
    def function_deck(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.function for _ in range(f.copies))

    cards: dict = field(default_factory=dict, compare=False, repr=False)  # by id: filled by load

    def card(self, ident: str) -> MovementCard | FunctionCard:
        return self.cards[ident]

    def __hash__(self) -> int:  # dice is a dict; an edition is one object per process
        return id(self)


def load(network=None, ground: Path | str | None = None) -> Edition:
    """Read and check every component file; one DataError listing every problem (exit 2)."""
    problems: list[Problem] = []
    rules, texts = read_rules(data_file("rules.toml"), problems)
    raise_if(problems)
    assert rules is not None and texts is not None  # read_rules reports what it cannot read
    dice = read_dice(data_file("dice.csv"), problems)
    movement = read_movement(data_file("movement.csv"), dice, problems)
    function = read_function(data_file("function.csv"), problems)
    path = Path(ground) if ground is not None else data_file("ground.csv")
    cards = read_ground(path, rules, problems)
    if movement and sum(m.copies for m in movement) != rules.movement_set:
        problems.append(Problem("movement.csv", None, "copies", f"{sum(m.copies for m in movement)} movement cards "
                                f"per set; the game has {rules.movement_set}"))
    if function and sum(f.copies for f in function) != rules.function_cards:
        problems.append(Problem("function.csv", None, "copies", f"{sum(f.copies for f in function)} function cards; "
                                f"the game has {rules.function_cards}"))
    clash = {m.id for m in movement} & {f.id for f in function}
    if clash:
        problems.append(Problem("function.csv", None, "id", f"ids also used by movement cards: {', '.join(sorted(clash))}"))
    raise_if(problems)
    return Edition(rules, texts, cards, movement, function, dice, path.name, {c.id: c for c in movement + function})

