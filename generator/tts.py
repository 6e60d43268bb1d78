"""Tabletop Simulator export (``--export tts``): deck sheets, backs, board images and one saved object.

Written under ``OUT/GAME/tts/``, from the same rendered cards as ``--export png`` (each face of the
one-card-per-page PDF rasterised by PyMuPDF, here drawn with a 3 mm bleed so art runs full to the
edge, cut at the trim, at 400 px a card's shorter side):

* ``DECK-faces-K.png``: the deck's card sheet K (K = 1, 2, ...), at most 10 columns x 7 rows.
  Cards fill the slots left to right, top to bottom, in the deck's order; the **last slot** of every
  sheet (bottom right) holds the deck's back. Tabletop Simulator shows that last slot as the
  "hidden" face of a card in someone's hand unless ``BackIsHidden`` is set (its knowledge base:
  "Card sheets use the last image on a card sheet for a hidden image"); we set ``BackIsHidden`` and
  keep the back there too, so a hand shows backs whichever way the flag is set. A sheet so holds at
  most 69 cards; a bigger deck is split into equal sheets (272 cards: 4 sheets of 68).
* ``DECK-back.png``: the deck's shared back, one card (``UniqueBack`` false); a deck with no back
  at all gets a plain white one (TTS needs a back). A deck where any card has a back of its own
  (double-sided cards, e.g. Keep Moving's ground cards) gets ``DECK-backs-K.png`` instead, a back
  sheet with the same grid as faces sheet K, each back behind its card (``UniqueBack`` true).
* ``SHEET.png`` (``SHEET-page-P.png`` for a sheet of several pages): each full-page sheet (map,
  play field, score pad, ...) at 200 dpi, as a ``Custom_Board``.
* ``GAME.json``: a TTS saved object (the save-file format with the outer fields empty) holding a
  ``DeckCustom`` per deck (``CustomDeck`` keyed 1, 2, ... one key per faces sheet across the whole
  file, ``DeckIDs``, and a ``Card`` per printed card in ``ContainedObjects`` with
  ``CardID = key * 100 + slot`` and ``Nickname`` = the card's name), a single ``Card`` for a
  one-card deck, and a ``Custom_Board`` per sheet page, laid out side by side: decks face down in a
  row, boards in a row behind them.

Image URLs are ``TTS_URL/GAME/tts/NAME.png``: ``PrintOptions.tts_url`` is the output folder's own
absolute ``file:///`` address by default (``tubedeck build`` sets it from ``--out``, so the saved
object loads as written on the machine that built it), or ``--tts-url`` for the address where the
images are hosted (Steam Cloud via the TTS Cloud Manager, or any web host) to play with others
(docs/printing.md).

Every byte follows from the documents and the options: the same build writes the same files.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, replace
from typing import Callable

import pymupdf

from .document import Card, Deck, Pages
from .options import PrintOptions
from .pdf import card_faces, deck_cards_pdf, deck_size, sheet_pdf
from .sizes import CardSize

MAX_COLS, MAX_ROWS = 10, 7  # the biggest card sheet Tabletop Simulator cuts
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # 69 cards: the last slot is the hidden face (the back)
MAX_SIDE_PX = 4096  # TTS's texture limit: the knowledge base's "keep images under 4096x4096"
ART_BLEED = 3.0  # mm: cards are drawn with this bleed and cut at the trim, so art runs to the edge
CARD_PX = 400  # a card's shorter side in pixels (poker: 400 x 560; a full 10 x 7 sheet 4000 x 3920)
BOARD_DPI = 200  # full-page sheets (A4 landscape: 2339 x 1654 px)
POKER = (63.5, 88.9)  # a TTS card at scale 1 has poker proportions: other sizes scale the transform
# A starting layout, in TTS units (about an inch): decks in a row with room between them, boards in
# a row behind. TTS sizes a Custom_Board from its image, so the gaps are generous; move as you like.
DECK_SPACING = 3.0
BOARD_SPACING = 24.0
BOARD_Z = 16.0
TINT = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # the tint TTS saves its cards and decks with
WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}  # boards: no tint over the image


@dataclass(frozen=True)
class TtsFile:
    """One file of the export: path relative to the game's folder, bytes, manifest kind, document."""

    path: str
    data: bytes
    kind: str  # tts-sheet | tts-back | tts-board | tts-json
    document: str


@dataclass(frozen=True)
class SheetPlan:
    """One card sheet of a deck: its ``CustomDeck`` key, the cards in slot order, the grid."""

    key: int
    cards: tuple[Card, ...]
    cols: int
    rows: int

    @property
    def hidden_slot(self) -> int:
        """The last slot (bottom right): TTS's hidden face when ``BackIsHidden`` is false."""
        return self.cols * self.rows - 1

    def card_id(self, slot: int) -> int:
        return self.key * 100 + slot


def sheet_grid(n: int) -> tuple[int, int]:
    """Columns and rows for ``n`` cards plus the hidden slot: one row up to 9 cards, else 10 wide."""
    if not 1 <= n <= PER_SHEET:
        raise ValueError(f"a TTS card sheet holds 1 to {PER_SHEET} cards, not {n}")
    cols = min(MAX_COLS, n + 1)
    return cols, math.ceil((n + 1) / cols)


def plan_sheets(cards: tuple[Card, ...], first_key: int) -> list[SheetPlan]:
    """Split a deck's distinct cards into equal sheets of at most 69, keyed from ``first_key``."""
    count = math.ceil(len(cards) / PER_SHEET)
    per = math.ceil(len(cards) / count)
    out = []
    for k in range(count):
        part = cards[k * per:(k + 1) * per]
        out.append(SheetPlan(first_key + k, part, *sheet_grid(len(part))))
    return out


def card_pixels(size: CardSize, cols: int, rows: int) -> tuple[int, int]:
    """A card's pixel size on a ``cols`` x ``rows`` sheet: the shorter side ``CARD_PX``, the card's
    proportions, and the sheet within ``MAX_SIDE_PX`` each way."""
    scale = CARD_PX / min(size.width, size.height)  # px per mm
    scale = min(scale, MAX_SIDE_PX / (cols * size.width), MAX_SIDE_PX / (rows * size.height))
    w = min(math.floor(size.width * scale + 0.5), MAX_SIDE_PX // cols)
    h = min(math.floor(size.height * scale + 0.5), MAX_SIDE_PX // rows)
    return w, h


def url(base: str, game: str, name: str) -> str:
    return f"{base}{game}/tts/{name}"


# -- raster -----------------------------------------------------------------------------------
def _blank(w: int, h: int) -> pymupdf.Pixmap:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, w, h), False)
    pix.clear_with(255)
    return pix


def _raster(page: pymupdf.Page, w: int, h: int, bleed: float = 0.0) -> pymupdf.Pixmap:
    """The page's trim (the page less ``bleed`` mm each side) rasterised to exactly ``w`` x ``h``
    pixels: the page at the trim's scale, clipped to a pixel-aligned rectangle round the trim."""
    b = bleed / 25.4 * 72
    sx, sy = w / (page.rect.width - 2 * b), h / (page.rect.height - 2 * b)
    x0, y0 = round(b * sx), round(b * sy)
    eps = 0.01  # px: keeps MuPDF's outward rounding of the clip on the intended pixel edges
    clip = pymupdf.Rect((x0 + eps) / sx, (y0 + eps) / sy, (x0 + w - eps) / sx, (y0 + h - eps) / sy)
    pix = page.get_pixmap(matrix=pymupdf.Matrix(sx, sy), alpha=False, clip=clip)
    assert (pix.width, pix.height) == (w, h), (pix.width, pix.height, w, h)
    pix.set_origin(0, 0)
    return pix


def _compose(cells: dict[int, pymupdf.Pixmap], cols: int, rows: int, w: int, h: int) -> bytes:
    """A sheet PNG: ``cells[slot]`` placed at its column and row, white where no cell is given."""
    sheet = _blank(cols * w, rows * h)
    for slot, pix in sorted(cells.items()):
        r, c = divmod(slot, cols)
        pix.set_origin(c * w, r * h)
        sheet.copy(pix, pix.irect)
        pix.set_origin(0, 0)
    return sheet.tobytes("png")


# -- saved-object JSON ------------------------------------------------------------------------
class _Guids:
    """Six-hex-digit GUIDs derived from each object's path: stable across builds, unique per file."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, path: str) -> str:
        salt = 0
        while True:
            guid = hashlib.sha1(f"{path}#{salt}".encode()).hexdigest()[:6]
            if guid not in self.seen:
                self.seen.add(guid)
                return guid
            salt += 1


def _transform(x: float, z: float, face_down: bool = False, sx: float = 1.0, sz: float = 1.0) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(sx, 4), "scaleY": 1.0, "scaleZ": round(sz, 4)}


def _object(name: str, guid: str, transform: dict, nickname: str, description: str = "", tint: dict = TINT,
            **fields) -> dict:
    return {"GUID": guid, "Name": name, "Transform": transform, "Nickname": nickname, "Description": description,
            "GMNotes": "", "ColorDiffuse": dict(tint), "Locked": False, "Grid": True, "Snap": True,
            "IgnoreFoW": False, "Autoraise": True, "Sticky": True, "Tooltip": True, **fields,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def saved_object(objects: list[dict]) -> dict:
    """The save-file envelope of a TTS saved object: outer fields empty, the objects in ObjectStates."""
    return {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": objects}


# -- the export -------------------------------------------------------------------------------
def _deck(deck: Deck, options: PrintOptions, game: str, first_key: int, tick) -> tuple[list[TtsFile], dict, int]:
    """The image files of one deck and its ``CustomDeck`` entries; returns (files, entries, next key)."""
    size = deck_size(deck, options)
    sheets = plan_sheets(deck.cards, first_key)
    w, h = card_pixels(size, max(s.cols for s in sheets), max(s.rows for s in sheets))
    unique = any(c.back is not None for c in deck.cards)
    # Draw each front, and each distinct back once (on the first card that uses it): a deck's
    # shared back is drawn once, not once per card as in the print PDF.
    seen: set[int] = set()
    lean = []
    for c in deck.cards:
        back = deck.back_of(c)
        first = back is not None and id(back) not in seen
        if back is not None:
            seen.add(id(back))
        lean.append(replace(c, back=back if first else None))
    drawn = Deck(deck.name, tuple(lean), size=size)
    data, _ = deck_cards_pdf(drawn, options, ART_BLEED)
    files: list[TtsFile] = []
    entries: dict[str, dict] = {}
    fronts: dict[str, pymupdf.Pixmap] = {}
    by_face: dict[int, pymupdf.Pixmap] = {}
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page, (card, side, face) in enumerate(card_faces(drawn)):
            pix = _raster(doc[page], w, h, ART_BLEED)
            if side == "front":
                fronts[card.id] = pix
            else:
                by_face[id(face)] = pix
            if tick is not None:
                tick()
    backs = {c.id: by_face[id(deck.back_of(c))] for c in deck.cards if deck.back_of(c) is not None}
    if deck.back is None:
        shared = _blank(w, h)
    elif id(deck.back) in by_face:
        shared = by_face[id(deck.back)]
    else:  # every card has a back of its own: the deck's back only fills the hidden slot
        lone = Deck(deck.name, (Card("back", deck.back),), size=size)
        with pymupdf.open(stream=deck_cards_pdf(lone, options, ART_BLEED)[0], filetype="pdf") as doc:
            shared = _raster(doc[0], w, h, ART_BLEED)
    if not unique:
        back_name = f"{deck.name}-back.png"
        files.append(TtsFile(f"tts/{back_name}", shared.tobytes("png"), "tts-back", deck.name))
    for k, s in enumerate(sheets, 1):
        faces_name = f"{deck.name}-faces-{k}.png"
        cells = {i: fronts[c.id] for i, c in enumerate(s.cards)} | {s.hidden_slot: shared}
        files.append(TtsFile(f"tts/{faces_name}", _compose(cells, s.cols, s.rows, w, h), "tts-sheet", deck.name))
        if unique:
            back_name = f"{deck.name}-backs-{k}.png"
            blank = _blank(w, h)
            cells = {i: backs.get(c.id, blank) for i, c in enumerate(s.cards)} | {s.hidden_slot: shared}
            files.append(TtsFile(f"tts/{back_name}", _compose(cells, s.cols, s.rows, w, h), "tts-sheet", deck.name))
        entries[str(s.key)] = {"FaceURL": url(options.tts_url, game, faces_name),
                               "BackURL": url(options.tts_url, game, back_name),
                               "NumWidth": s.cols, "NumHeight": s.rows, "BackIsHidden": True,
                               "UniqueBack": unique, "Type": 0}
    return files, entries, first_key + len(sheets)


def _deck_object(deck: Deck, options: PrintOptions, sheets: list[SheetPlan], entries: dict, x: float,
                 guid: Callable[[str], str], game: str) -> dict:
    size = deck_size(deck, options)
    sx, sz = size.width / POKER[0], size.height / POKER[1]
    sideways = size.width > size.height
    where = {c.id: (s, i) for s in sheets for i, c in enumerate(s.cards)}
    cards = []
    for n, card in enumerate(deck.printed()):
        s, slot = where[card.id]
        cards.append(_object("Card", guid(f"{game}/{deck.name}/{card.id}/{n}"), _transform(x, 0.0, True, sx, sz),
                             card.name, card.id, CardID=s.card_id(slot), SidewaysCard=sideways,
                             HideWhenFaceDown=True, Hands=True, CustomDeck={str(s.key): entries[str(s.key)]}))
    if len(cards) == 1:
        return cards[0]
    return _object("DeckCustom", guid(f"{game}/{deck.name}"), _transform(x, 0.0, True, sx, sz),
                   deck.title or deck.name, f"{len(cards)} cards", SidewaysCard=sideways, HideWhenFaceDown=True,
                   Hands=False, DeckIDs=[c["CardID"] for c in cards], CustomDeck=entries, ContainedObjects=cards)


def _board_pages(sheet: Pages, options: PrintOptions, tick, data: bytes | None = None) -> list[bytes]:
    """Each page of the sheet's PDF (``data``, or drawn now) as a PNG of at most ``BOARD_DPI``."""
    if data is None:
        data, _ = sheet_pdf(sheet, options)
    out = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page in doc:
            longest = max(page.rect.width, page.rect.height) / 72  # inches
            dpi = min(BOARD_DPI, MAX_SIDE_PX / longest)
            out.append(page.get_pixmap(matrix=pymupdf.Matrix(dpi / 72, dpi / 72), alpha=False).tobytes("png"))
            if tick is not None:
                tick()
    return out


def faces_to_render(documents: list) -> int:
    """How many rasterisations :func:`tts_files` makes (a progress bar's total): every front, each
    distinct back once, every sheet page."""
    return sum(len(d.pages) if isinstance(d, Pages)
               else len(d.cards) + len({id(d.back_of(c)) for c in d.cards if d.back_of(c) is not None})
               for d in documents)


def tts_files(documents: list, options: PrintOptions, game: str, tick=None,
              sheet_pdfs: dict[str, bytes] | None = None) -> list[TtsFile]:
    """Every file of the TTS export of one game's documents (``game``: its folder name, used in
    the image URLs and as ``tts/GAME.json``); ``tick()`` after each face rasterised.
    ``sheet_pdfs``: the sheets' PDFs by name where the caller has them already (not drawn again)."""
    sheet_pdfs = sheet_pdfs or {}
    files: list[TtsFile] = []
    objects: list[dict] = []
    boards: list[dict] = []
    guid = _Guids()
    key = 1
    decks = [d for d in documents if isinstance(d, Deck)]
    for i, deck in enumerate(decks):
        first = key
        deck_files, entries, key = _deck(deck, options, game, key, tick)
        files += deck_files
        sheets = plan_sheets(deck.cards, first)
        scale = deck_size(deck, options).width / POKER[0]
        x = (i - (len(decks) - 1) / 2) * DECK_SPACING * max(1.0, scale)
        objects.append(_deck_object(deck, options, sheets, entries, x, guid, game))
    pages = [(sheet, p, len(sheet.pages), png) for sheet in documents if isinstance(sheet, Pages)
             for p, png in enumerate(_board_pages(sheet, options, tick, sheet_pdfs.get(sheet.name)), 1)]
    for j, (sheet, p, n, png) in enumerate(pages):
        name = f"{sheet.name}.png" if n == 1 else f"{sheet.name}-page-{p}.png"
        files.append(TtsFile(f"tts/{name}", png, "tts-board", sheet.name))
        title = sheet.title or sheet.name
        boards.append(_object("Custom_Board", guid(f"{game}/{sheet.name}/{p}"),
                              _transform((j - (len(pages) - 1) / 2) * BOARD_SPACING, BOARD_Z),
                              title if n == 1 else f"{title} (page {p} of {n})", tint=WHITE,
                              CustomImage={"ImageURL": url(options.tts_url, game, name), "ImageSecondaryURL": "",
                                           "ImageScalar": 1.0, "WidthScale": 0.0}))
    text = json.dumps(saved_object(objects + boards), indent=2, ensure_ascii=False) + "\n"
    files.append(TtsFile(f"tts/{game}.json", text.encode("utf-8"), "tts-json", game))
    return files
