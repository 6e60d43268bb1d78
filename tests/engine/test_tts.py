"""``--export tts``: Tabletop Simulator card sheets, backs, boards and the saved-object JSON.

The JSON is read against the fields of TTS's published save-file format (its knowledge base's
``SaveState`` / ``ObjectState`` / ``CustomDeckState`` / ``CustomImageState``, and the custom-deck
parameters of its scripting API: ``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``,
``CardID = key * 100 + index``); the images are read back pixel by pixel: every sheet is the grid
the JSON says, every card sits in the cell its CardID names, empty cells are blank.
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from tubedeck.errors import UsageError
from tubedeck.game import edition, resolve
from tubedeck.games import registry
from tubedeck.generator import CARD_SIZES, Card, Deck, Pages, PrintOptions, render
from tubedeck.generator.options import EXPORTS
from tubedeck.generator.tts import MAX_SIDE_PX, PER_SHEET, card_pixels, plan_sheets, sheet_grid

from conftest import run_cli

OPTIONS = PrintOptions.parse(export="tts")
WHITE = (255, 255, 255)


def marker_colour(k: int, side: int) -> tuple[int, int, int]:
    """A colour encoding (card index 0-255, side 1-3), channels 16 apart (rasterising may move them by 1)."""
    return 8 + 16 * (k // 16), 8 + 16 * (k % 16), 0x20 + 0x60 * (side - 1)


def marker(k: int, side: int):
    """A face filling its trim with :func:`marker_colour`."""
    colour = "#%02x%02x%02x" % marker_colour(k, side)

    def face(pen):
        pen.rect(0, 0, pen.trim.w, pen.trim.h, fill=colour)
    return face


def near(pixel, colour) -> bool:
    return all(abs(int(a) - b) <= 3 for a, b in zip(pixel, colour))


@functools.lru_cache(maxsize=16)
def image(path: Path) -> np.ndarray:
    pix = pymupdf.Pixmap(str(path))
    assert pix.n == 3 and not pix.alpha, f"{path.name}: TTS wants RGB"
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)


def build(docs: list, folder: Path, game: str = "g") -> tuple[dict, Path]:
    render(docs, OPTIONS, folder / game)
    return json.loads((folder / game / "tts" / f"{game}.json").read_text("utf-8")), folder


def local(url: str, root: Path, game: str) -> Path:
    assert url.startswith(f"file:///{game}/tts/"), url  # relative to --out, behind file:///
    return root / url[len("file:///"):]


# -- the published format -----------------------------------------------------------------------
SAVE_FIELDS = {"SaveName": str, "Date": str, "VersionNumber": str, "GameMode": str, "GameType": str,
               "GameComplexity": str, "Tags": list, "Gravity": float, "PlayArea": float, "Table": str, "Sky": str,
               "Note": str, "TabStates": dict, "LuaScript": str, "LuaScriptState": str, "XmlUI": str,
               "ObjectStates": list}
OBJECT_FIELDS = {"GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str,
                 "ColorDiffuse": dict, "Grid": bool, "Locked": bool}
TRANSFORM = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
DECK_ENTRY = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
              "UniqueBack": bool, "Type": int}


def typed(obj: dict, fields: dict, where: str) -> None:
    for name, kind in fields.items():
        assert name in obj, f"{where}: no {name}"
        assert isinstance(obj[name], kind) and not (kind is int and isinstance(obj[name], bool)), \
            f"{where}: {name} is {type(obj[name]).__name__}, not {kind.__name__}"


def check_object(obj: dict, where: str) -> None:
    typed(obj, OBJECT_FIELDS, where)
    assert re.fullmatch(r"[0-9a-f]{6}", obj["GUID"]), where
    assert set(obj["Transform"]) == set(TRANSFORM) and all(isinstance(obj["Transform"][k], float) for k in TRANSFORM)
    assert set(obj["ColorDiffuse"]) == {"r", "g", "b"}


def check_card(card: dict, where: str) -> tuple[int, dict]:
    check_object(card, where)
    assert card["Name"] == "Card"
    assert isinstance(card["CardID"], int) and not isinstance(card["CardID"], bool)
    assert isinstance(card["SidewaysCard"], bool)
    key, slot = divmod(card["CardID"], 100)
    assert list(card["CustomDeck"]) == [str(key)], f"{where}: a card carries its own sheet's entry only"
    entry = card["CustomDeck"][str(key)]
    typed(entry, DECK_ENTRY, f"{where} CustomDeck[{key}]")
    assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7, f"{where}: TTS cuts at most 10 x 7"
    assert entry["BackIsHidden"] is True and entry["Type"] == 0
    assert 0 <= slot < entry["NumWidth"] * entry["NumHeight"] - 1, f"{where}: slot {slot} (the last is hidden)"
    return key, entry


def cells(img: np.ndarray, cols: int, rows: int) -> list[np.ndarray]:
    h, w = img.shape[0] // rows, img.shape[1] // cols
    return [img[r * h:(r + 1) * h, c * w:(c + 1) * w] for r in range(rows) for c in range(cols)]


def check_export(save: dict, root: Path, game: str, docs: list) -> dict[str, list[dict]]:
    """Everything the format and our layout promise, for one build; returns the cards per deck."""
    typed(save, SAVE_FIELDS, "save")
    objects = save["ObjectStates"]
    for i, obj in enumerate(objects):
        check_object(obj, f"ObjectStates[{i}]")
    assert len({o["GUID"] for o in objects for o in [o, *o.get("ContainedObjects", [])]}) == \
        sum(1 + len(o.get("ContainedObjects", [])) for o in objects), "GUIDs are unique"
    decks = [d for d in docs if isinstance(d, Deck)]
    sheets = [s for s in docs if isinstance(s, Pages)]
    deck_objs, boards = objects[:len(decks)], objects[len(decks):]
    assert len(boards) == sum(len(s.pages) for s in sheets)
    out: dict[str, list[dict]] = {}
    keys_seen: set[str] = set()
    first_key = 1
    for deck, obj in zip(decks, deck_objs):
        where = f"deck {deck.name}"
        cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        if obj["Name"] == "DeckCustom":
            assert isinstance(obj["DeckIDs"], list) and obj["DeckIDs"] == [c["CardID"] for c in cards]
            assert obj["Nickname"] == (deck.title or deck.name)
        else:
            assert obj["Name"] == "Card" and len(deck.printed()) == 1, f"{where}: a one-card deck is a Card"
        entries = obj["CustomDeck"]
        assert not keys_seen & set(entries), f"{where}: CustomDeck keys are unique in the file"
        keys_seen |= set(entries)
        # the printed cards, in deck order, with their names
        assert len(cards) == len(deck.printed())
        assert [c["Nickname"] for c in cards] == [c.name for c in deck.printed()]
        assert [c["Description"] for c in cards] == [c.id for c in deck.printed()]
        # CardIDs: equal sheets of at most 69, filled in deck order from slot 0
        n = len(deck.cards)
        per = math.ceil(n / math.ceil(n / PER_SHEET))
        index = {c.id: i for i, c in enumerate(deck.cards)}
        for card in cards:
            key, entry = check_card(card, f"{where}/{card['Description']}")
            assert entries[str(key)] == entry
            i = index[card["Description"]]
            assert card["CardID"] == (first_key + i // per) * 100 + i % per, f"{where}: {card['Description']}"
        first_key += math.ceil(n / per)
        # the images: the grid the JSON says, the card pixel size shared, within TTS's limits
        sizes = set()
        for key, entry in entries.items():
            face = image(local(entry["FaceURL"], root, game))
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            h, w = face.shape[0] / rows, face.shape[1] / cols
            assert w.is_integer() and h.is_integer(), f"{where}: sheet {key} is not a {cols} x {rows} grid"
            assert face.shape[0] <= MAX_SIDE_PX and face.shape[1] <= MAX_SIDE_PX
            sizes.add((int(w), int(h)))
            back = image(local(entry["BackURL"], root, game))
            assert entry["UniqueBack"] == any(c.back is not None for c in deck.cards)
            if entry["UniqueBack"]:
                assert back.shape == face.shape, f"{where}: a unique-back sheet has the faces' grid"
            else:
                assert back.shape[:2] == (h, w), f"{where}: a shared back is one card"
            occupied = {int(c["CardID"]) % 100 for c in cards if c["CardID"] // 100 == int(key)}
            hidden = cols * rows - 1
            for slot, cell in enumerate(cells(face, cols, rows)):
                blank = bool((cell == 255).all())
                if slot == hidden:
                    hidden_back = back if not entry["UniqueBack"] else cells(back, cols, rows)[hidden]
                    assert (cell == hidden_back).all(), f"{where}: the hidden slot holds the back"
                else:
                    assert blank == (slot not in occupied), f"{where}: sheet {key} slot {slot} occupied={not blank}"
        assert len(sizes) == 1, f"{where}: one card size per deck ({sizes})"
        out[deck.name] = cards
    # boards: one Custom_Board per sheet page, its image within the limits
    for obj in boards:
        assert obj["Name"] == "Custom_Board"
        assert isinstance(obj["CustomImage"]["ImageURL"], str)
        img = image(local(obj["CustomImage"]["ImageURL"], root, game))
        assert max(img.shape[:2]) <= MAX_SIDE_PX
    # laid out side by side: no two objects in one place
    places = [(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in objects]
    assert len(set(places)) == len(places)
    return out


# -- planning -----------------------------------------------------------------------------------
def test_sheets_hold_at_most_69_cards_in_grids_of_at_most_10_by_7():
    cards = tuple(Card(f"c{i}", marker(0, 1)) for i in range(300))
    for n in range(1, 301):
        plan = plan_sheets(cards[:n], 1)
        assert [c for s in plan for c in s.cards] == list(cards[:n])
        assert len(plan) == math.ceil(n / 69)
        per = len(plan[0].cards)  # equal sheets, the last one the rest (never more than one short per sheet)
        assert all(len(s.cards) == per for s in plan[:-1]) and per - len(plan) < len(plan[-1].cards) <= per
        for s in plan:
            assert s.cols <= 10 and s.rows <= 7 and len(s.cards) < s.cols * s.rows  # room for the hidden slot
            assert s.cols * (s.rows - 1) < len(s.cards) + 1  # no empty row
    assert sheet_grid(69) == (10, 7) and sheet_grid(1) == (2, 1) and sheet_grid(9) == (10, 1)
    with pytest.raises(ValueError):
        sheet_grid(70)


@pytest.mark.parametrize("name", sorted(CARD_SIZES))
@pytest.mark.parametrize("landscape", [False, True])
def test_card_pixels_keep_a_full_sheet_within_4096(name, landscape):
    size = CARD_SIZES[name].landscape if landscape else CARD_SIZES[name]
    w, h = card_pixels(size, 10, 7)
    assert 10 * w <= 4096 and 7 * h <= 4096
    assert abs(w / h - size.width / size.height) < 0.01
    # as big as allowed: the shorter side 400 px, or the sheet as wide or as tall as TTS takes
    assert min(w, h) == 400 or 10 * (w + 1) > 4096 or 7 * (h + 1) > 4096
    if name == "poker" and not landscape:
        assert (w, h) == (400, 560)


# -- synthetic decks: every card in the cell its CardID names -------------------------------------
def synthetic() -> list:
    unique = Deck("double", [Card(f"d{k}", marker(k, 1), marker(k, 2), label=f"Double {k}") for k in range(75)])
    shared = Deck("shared", [Card(f"s{k}", marker(100 + k, 1), label=f"Shared {k}") for k in range(12)],
                  back=marker(250, 3), title="Shared back")
    single = Deck("single", [Card("only", marker(200, 1), label="The only card")])
    wide = Deck("wide", [Card(f"w{k}", marker(210 + k, 1)) for k in range(3)], back=marker(251, 3),
                size=CARD_SIZES["poker"].landscape)
    def page(pen):
        pen.rect(20, 20, 50, 50, fill="#123456")
    return [unique, shared, Pages("board", (page, page), title="Two pages"), single, wide]


def test_synthetic_export_follows_the_format_and_puts_every_card_in_its_cell(tmp_path):
    docs = synthetic()
    save, root = build(docs, tmp_path)
    decks = check_export(save, root, "g", docs)
    objects = {o["Nickname"]: o for o in save["ObjectStates"]}
    # every front in the cell its CardID names, every own back behind it on the back sheet
    for name, side in (("double", True), ("shared", False), ("wide", False)):
        for card in decks[name]:
            key, slot = divmod(card["CardID"], 100)
            entry = card["CustomDeck"][str(key)]
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            face = cells(image(local(entry["FaceURL"], root, "g")), cols, rows)[slot]
            k = {"double": 0, "shared": 100, "wide": 210}[name] + int(card["Description"][1:])
            assert near(face[face.shape[0] // 2, face.shape[1] // 2], marker_colour(k, 1)), card["Nickname"]
            if side:
                back = cells(image(local(entry["BackURL"], root, "g")), cols, rows)[slot]
                assert near(back[back.shape[0] // 2, back.shape[1] // 2], marker_colour(k, 2))
    # a known card by name: "Double 70" is card 70 of 75, on the second of two sheets of 38, slot 32
    d70 = next(c for c in decks["double"] if c["Nickname"] == "Double 70")
    assert d70["CardID"] == 2 * 100 + 32
    # the shared back is its own image, one card; the last slot of its sheet holds it too
    entry = objects["Shared back"]["CustomDeck"]["3"]
    assert (entry["NumWidth"], entry["NumHeight"], entry["UniqueBack"]) == (10, 2, False)
    back = image(local(entry["BackURL"], root, "g"))
    assert back.shape == (560, 400, 3) and near(back[280, 200], marker_colour(250, 3))
    # a one-card deck is a lone Card; a deck with no back gets a blank back
    only = objects["The only card"]
    assert only["Name"] == "Card" and (image(local(only["CustomDeck"]["4"]["BackURL"], root, "g")) == 255).all()
    # landscape cards: sideways, the transform stretched to their proportions
    wide = objects["wide"]
    assert wide["SidewaysCard"] is True and wide["Transform"]["scaleX"] > 1 > wide["Transform"]["scaleZ"]
    assert image(local(wide["CustomDeck"]["5"]["BackURL"], root, "g")).shape == (400, 560, 3)
    # the two-page sheet: two boards, A4 at 200 dpi
    boards = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert [b["Nickname"] for b in boards] == ["Two pages (page 1 of 2)", "Two pages (page 2 of 2)"]
    assert image(local(boards[0]["CustomImage"]["ImageURL"], root, "g")).shape == (2339, 1654, 3)


def test_tts_export_is_deterministic_and_listed_in_the_manifest(tmp_path):
    docs = synthetic()[1:3]
    a = render(docs, OPTIONS, tmp_path / "a" / "g")
    b = render(docs, OPTIONS, tmp_path / "b" / "g")
    files = sorted(f.path for f in a.files if f.kind.startswith("tts"))
    assert files == sorted(f.path for f in b.files if f.kind.startswith("tts"))
    assert "g/tts/g.json" in files and "g/tts/shared-back.png" in files and "g/tts/shared-faces-1.png" in files
    assert {f.kind for f in a.files if f.path in files} == {"tts-json", "tts-back", "tts-sheet", "tts-board"}
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_export_option_accepts_tts_and_lists_it():
    assert "tts" in EXPORTS
    assert PrintOptions.parse(export="pdf,TTS").exports == ("pdf", "tts")
    with pytest.raises(UsageError, match="tts"):
        PrintOptions.parse(export="tabletop")


def test_build_help_lists_tts(capsys):
    code, out, _ = run_cli(capsys, "build", "sampler", "--help")
    assert code == 0 and "tts" in out


# -- every game -----------------------------------------------------------------------------------
GAMES = sorted(g.id for g in registry().values() if g.faces)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_exports_tts(game_id, tmp_path):
    game = registry()[game_id]
    docs = resolve(game.faces)(edition(game), OPTIONS)
    save, root = build(docs, tmp_path, game_id)
    decks = check_export(save, root, game_id, docs)
    assert set(decks) == {d.name for d in docs if isinstance(d, Deck)}
