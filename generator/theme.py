"""The one theme every game's faces draw with: the palette, the font roles and the type floor.

Faces import their colours and fonts from here, so a re-theme is one file; a game adds a
colour of its own only for something no other game has (Fortune action colours, say). Fonts are
the names of :data:`tubedeck.generator.fonts.FONTS` (embedded TrueType, never base-14).

Readability rules every face keeps (``tests/engine/test_faces_quality.py`` reads them back from
the PDFs, on every card size): no text below :data:`MIN_PT`; what play needs (names, Connection
Numbers, band numbers) at :data:`PLAY_PT` or more; text contrasting at least 4.5:1 with what is
printed behind it. Colours meant for text say so (``*_TEXT``, :data:`MUTED`): each reads on
:data:`PAPER` and on white. A face that cannot keep these on a card size drops optional content
(a description, then facts) and, if that is not enough, fails naming the card and the size.
"""

from __future__ import annotations

PAPER = "#F7F4EC"  # card and sheet background (warm white)
INK = "#1C1C1C"  # body text and outlines
GREY = "#8A8A8A"  # secondary marks and rules: never text (3.1:1 on PAPER)
MUTED = "#595959"  # secondary text: headings, footers (6.3:1 on PAPER)
WHITE = "#FFFFFF"
RED = "#DC241F"  # Underground red: emblems, accents (4.4:1 on PAPER: not for small text)
RED_TEXT = "#B3261E"  # red for text on PAPER or white (6.0:1): Terminus
BLUE = "#0019A8"  # Underground blue: backs, title bands
YELLOW = "#FFD300"  # Fortune backs
GOLD_TEXT = "#7A5B00"  # the Fortune yellow's text colour on PAPER or white (5.8:1)

# Backs of the piles drawn face down: one flat colour each (generator.pen.pile_back), no two alike,
# so cards of several games mixed in a box sort by their backs, in colour and from a black-and-white
# printer (luminances at least PILE_GREY_STEP apart; tests/engine/test_pile_backs.py). Every game's
# cards are poker-sized by default, so the size does not sort them.
PILE_BACKS = {
    "klm station": BLUE,
    "klm fortune": YELLOW,
    "oneday station": RED,
    "nextstation station": "#7CB342",  # leaf green
    "keepmoving": "#607D8B",  # blue-grey: neither player's colour (blue, purple)
}
PILE_GREY_STEP = 0.10

TEXT = "sans"  # body text
BOLD = "sans-bold"  # names, numbers, titles
ITALIC = "sans-italic"  # descriptions, footers

MIN_PT = 6.0  # no printed text is smaller
PLAY_PT = 7.0  # no text play needs is smaller

# Long line names as the Keep London Moving rulebook abbreviates them, for tight cards.
SHORT_LINE_NAMES = {"Hammersmith & City": "H&C", "Waterloo & City": "W&C"}


def short_line_name(name: str) -> str:
    """``Hammersmith & City`` -> ``H&C`` (any ``A & B`` name -> initials); other names unchanged."""
    if name in SHORT_LINE_NAMES:
        return SHORT_LINE_NAMES[name]
    parts = name.split(" & ")
    if len(parts) == 2 and all(p.strip() for p in parts):
        return "&".join(p.strip()[0].upper() for p in parts)
    return name
