"""The tubedeck print engine: decks and sheets in, print-true PDF / PNG / SVG out.

Games describe *what* to print (a :class:`Deck` of :class:`Card` faces, or a :class:`Pages`);
the engine decides *where* it goes on paper (grid, bleed, duplex, fold-over, marks) and *how*
it is written (colour mode, fonts, exports). A face draws on a :class:`Pen` in card millimetres
and never knows the sheet. See ``generator/README.md`` for the game-facing guide.
"""

from .colour import Mode
from .document import Card, Deck, Face, Pages
from .engine import Manifest, ManifestFile, render
from .options import PrintOptions
from .pen import Pen
from .sizes import CARD_SIZES, PAPERS, CardGeometry, CardSize, Paper, Rect
from .text import TextFitError

__all__ = [
    "CARD_SIZES", "PAPERS", "Card", "CardGeometry", "CardSize", "Deck", "Face", "Manifest", "ManifestFile",
    "Mode", "Paper", "Pen", "PrintOptions", "Rect", "Pages", "TextFitError", "render",
]
