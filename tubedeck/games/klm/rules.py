"""Keep London Moving's rules values: one frozen value read from ``data/klm/rules.toml``.

The deal (:mod:`.setup`), the checker (``solver/klm``), the command line and the printed texts
all read these numbers; none of them is typed in code. The printed texts live in the same file
(``[text]``) and fill their numbers from ``[rules]``.
"""

from __future__ import annotations

import string
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tubedeck.content import content, read_toml, read_values
from tubedeck.errors import DataError, Problem


@dataclass(frozen=True)
class Rules:
    """The rulebook's numbers (see ``data/klm/rules.toml`` for each one's meaning)."""

    players_min: int
    players_max: int
    hand: int
    fortune_hand: int
    path: int
    connections_per_turn: int
    fortune_per_turn: int
    die: int
    fortune_roll: int
    unlucky_hand: int
    fast_take_hand: int
    fast_take_field: int


@dataclass(frozen=True)
class Reference:
    """A quick-reference card: its title and paragraphs (numbers filled in)."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Texts:
    """What the faces print, numbers filled in from the rules."""

    play_field_title: str
    play_field_notes: str
    fortune_footer: str
    reference: tuple[Reference, ...] = field(default=())


@dataclass(frozen=True)
class RuleBook:
    """Rules values and printed texts, as one value."""

    rules: Rules
    texts: Texts


def _fill(text: str, rules: Rules, where: str, place: str, problems: list[Problem]) -> str:
    values = asdict(rules)
    try:
        names = {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
    except ValueError as exc:
        problems.append(Problem(where, None, place, f"malformed placeholder ({exc})"))
        return text
    unknown = sorted(names - set(values))
    if unknown:
        problems.append(Problem(where, None, place, f"unknown placeholder {{{unknown[0]}}} (known: {', '.join(values)})"))
        return text
    return text.format(**values)


def load_rules(path: Path | None = None) -> RuleBook:
    """Read and check the rules file; DataError listing every problem (table and key)."""
    path = Path(path or content("klm", "rules.toml"))
    where = str(path)
    raw = read_toml(path)
    problems: list[Problem] = []
    rules = read_values(raw, Rules, where, "rules", problems)
    if rules is not None:
        checks = (("players_min", 2 <= rules.players_min <= rules.players_max, "2..players_max"),
                  ("hand", rules.hand >= 1, "at least 1"), ("fortune_hand", rules.fortune_hand >= 0, "0 or more"),
                  ("path", rules.path >= 2, "at least 2"),
                  # The checker's model schedules one new Connection per turn (Hall's bound).
                  ("connections_per_turn", rules.connections_per_turn == 1, "1 (the checker models one)"),
                  ("die", rules.die >= 2, "at least 2"),
                  ("fortune_roll", 1 <= rules.fortune_roll <= rules.die, "a face of the die"),
                  ("unlucky_hand", 0 <= rules.unlucky_hand <= rules.hand, "0..hand"),
                  ("fast_take_hand", 1 <= rules.fast_take_hand <= rules.die, "a face of the die"),
                  ("fast_take_field", 1 <= rules.fast_take_field <= rules.die
                   and rules.fast_take_field != rules.fast_take_hand, "a face of the die other than fast_take_hand"))
        problems += [Problem(where, None, f"rules.{key}", f"must be {want}, got {getattr(rules, key)}")
                     for key, ok, want in checks if not ok]
    text = raw.get("text", {})
    texts = None
    if rules is not None and not problems:
        if not isinstance(text, dict):
            problems.append(Problem(where, None, "text", "[text] must be a table"))
        else:
            plain = {}
            for k in ("play_field_title", "play_field_notes", "fortune_footer"):
                if isinstance(text.get(k), str):
                    plain[k] = _fill(text[k], rules, where, f"text.{k}", problems)
                else:
                    problems.append(Problem(where, None, f"text.{k}", "missing string"))
                    plain[k] = ""
            cards = []
            for i, card in enumerate(text.get("reference", []), 1):
                place = f"text.reference #{i}"
                if not (isinstance(card, dict) and isinstance(card.get("title"), str)
                        and isinstance(card.get("lines"), list) and all(isinstance(x, str) for x in card["lines"])):
                    problems.append(Problem(where, None, place, "needs a title and a list of lines"))
                    continue
                cards.append(Reference(_fill(card["title"], rules, where, place, problems),
                                       tuple(_fill(x, rules, where, place, problems) for x in card["lines"])))
            texts = Texts(**plain, reference=tuple(cards))
    if problems or rules is None or texts is None:
        raise DataError(problems or [Problem(where, None, None, "no rules")])
    return RuleBook(rules, texts)
