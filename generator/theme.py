"""The one theme every game's faces draw with: the palette and the font roles.

Faces import their colours and fonts from here, so a re-theme is one file; a game adds a
colour of its own only for something no other game has (Fortune action colours, say). Fonts are
the names of :data:`generator.fonts.FONTS` (embedded TrueType, never base-14).
"""

from __future__ import annotations

PAPER = "#F7F4EC"  # card and sheet background (warm white)
INK = "#1C1C1C"  # body text and outlines
GREY = "#8A8A8A"  # secondary marks (never text that play needs)
WHITE = "#FFFFFF"
RED = "#DC241F"  # Underground red: emblems, accents, Terminus
BLUE = "#0019A8"  # Underground blue: backs, title bands
YELLOW = "#FFD300"  # Fortune backs

TEXT = "sans"  # body text
BOLD = "sans-bold"  # names, numbers, titles
ITALIC = "sans-italic"  # descriptions, footers
