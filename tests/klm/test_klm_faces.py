"""`tubedeck build klm`: every Keep London Moving document renders, on London and a toy city."""

from __future__ import annotations

import json
from pathlib import Path

from tubedeck.games.klm.cards import build_deck
from tubedeck.games.klm.scope import parse_scope
from tubedeck.generator.klm.faces import fact_lines

from conftest import run_cli as run

TINY = Path(__file__).resolve().parent.parent / "data" / "tinycity"




def test_build_klm_writes_every_document(tmp_path, capsys):
    code, out, err = run(capsys, "build", "klm", "--data", str(TINY), "--scope", "all", "--out", str(tmp_path), "--json")
    assert code == 0, err
    manifest = json.loads(out)
    assert set(manifest["decks"]) == {"klm/stations", "klm/fortune", "klm/reference", "klm/cover"}
    assert len(manifest["decks"]["klm/stations"]) == 10 and len(manifest["decks"]["klm/fortune"]) == 30
    for name in ("stations.pdf", "fortune-and-reference.pdf", "play-field.pdf"):
        assert (tmp_path / "klm" / name).stat().st_size > 1000
    shared = next(f for f in manifest["files"] if f["path"] == "klm/fortune-and-reference.pdf")
    # 32 cards and the cover card (issue 44): 4 sheets
    assert shared["decks"] == ["klm/fortune", "klm/reference", "klm/cover"] and shared["pages"] == 8


def test_aid_cards_have_their_own_back():
    """Face down, a reference or rules card never passes for a game card: its back looks different."""
    import pymupdf

    from tubedeck.game import edition, resolve
    from tubedeck.games import registry
    from tubedeck.generator import Deck, PrintOptions
    from tubedeck.generator.pdf import deck_cards_pdf

    options = PrintOptions.parse()

    def back_pixels(deck):
        one = Deck(deck.name, deck.cards[:1], back=deck.back)
        data, _ = deck_cards_pdf(one, options, 0.0)
        with pymupdf.open(stream=data, filetype="pdf") as pdf:
            return pdf[1].get_pixmap(dpi=20).samples

    for game, aid, play in (("klm", "reference", "stations"), ("oneday", "rules", "stations")):
        g = registry()[game]
        docs = {d.name: d for d in resolve(g.faces)(edition(g), options)}
        a, b = back_pixels(docs[aid]), back_pixels(docs[play])
        differing = sum(x != y for x, y in zip(a, b, strict=True)) / len(a)
        assert differing > 0.3, (game, differing)


def test_build_klm_is_deterministic(tmp_path, capsys):
    for d in ("a", "b"):
        run(capsys, "build", "klm", "--data", str(TINY), "--scope", "zone 1", "--out", str(tmp_path / d), "--export", "pdf")
    assert (tmp_path / "a" / "klm" / "stations.pdf").read_bytes() == (tmp_path / "b" / "klm" / "stations.pdf").read_bytes()


def test_bad_scope_builds_nothing(tmp_path, capsys):
    code, _, err = run(capsys, "build", "klm", "--data", str(TINY), "--scope", "zone 7", "--out", str(tmp_path))
    assert code == 2 and "unknown zone" in err and not (tmp_path / "klm").exists()


def test_all_london_cards_fit(tmp_path, capsys):
    """Every London Station Card (long names, six lines, termini) fits its fields."""
    code, _, err = run(capsys, "build", "klm", "--scope", "all", "--out", str(tmp_path), "--export", "pdf")
    assert code == 0, err


def test_facts_left_off_when_unknown(london):
    deck = build_deck(london, parse_scope("all", london))
    for card in deck.cards:
        labels = [l for l, _ in fact_lines(card)]
        assert ("Heritage" in labels) == (card.heritage is not None)
        assert ("Easy Access" in labels) == (card.easy_access is not None)


def test_a_card_too_small_fails_naming_the_card_and_the_size(tmp_path, capsys):
    code, _, err = run(capsys, "build", "klm", "--data", str(TINY), "--card", "25x25", "--out", str(tmp_path))
    assert code == 2 and "front: a 25 x 25 mm card cannot carry this face" in err, err
    assert not list(tmp_path.rglob("*.pdf"))


def test_reference_cards_split_only_where_the_size_needs_it(london):
    from tubedeck.games.klm.rules import load_rules
    from tubedeck.generator import CARD_SIZES, CardGeometry
    from tubedeck.generator.klm.faces import reference_cards

    texts = load_rules().texts
    every = [line for ref in texts.reference for line in ref.lines]
    poker, mini = (CardGeometry(c.width, c.height).safe for c in (CARD_SIZES["poker"], CARD_SIZES["mini"]))
    assert [t for t, _ in reference_cards(texts, poker)] == [r.title for r in texts.reference]
    small = reference_cards(texts, mini)
    assert len(small) > len(texts.reference) and [line for _, lines in small for line in lines] == every
    assert any(t.endswith("(1/2)") for t, _ in small)


def test_small_cards_leave_off_the_description_then_the_facts_never_the_list(london):
    from tubedeck.generator import CARD_SIZES, CardGeometry
    from tubedeck.generator.klm.plan import PLAY_PT, plan
    from tubedeck.generator.klm.station import content_box
    from tubedeck.generator.sizes import Rect

    deck = build_deck(london, parse_scope("all", london))
    by = deck.by_station
    safe = {name: CardGeometry(c.width, c.height).safe
            for name, c in (("poker", CARD_SIZES["poker"]), ("mini-landscape", CARD_SIZES["mini"].landscape))}
    full = plan(by["sloane-square"], safe["poker"])
    assert full.desc is not None and full.facts and full.label and full.numbered and full.d > 15
    assert full.desc.size >= 7.5 and full.list_pt == 8.0
    tight = plan(by["baker-street"], safe["mini-landscape"])
    assert tight.desc is None and tight.list_pt >= PLAY_PT and len(tight.rows) == 7
    for card in (by["baker-street"], by["kings-cross-st-pancras"]):
        p = plan(card, content_box(Rect(0, 0, CARD_SIZES["poker"].width, CARD_SIZES["poker"].height)))
        assert p.numbered and p.list_pt >= PLAY_PT  # the numbered illustration before the facts (all London)
    core = build_deck(london, parse_scope("zone 1", london)).by_station
    for station in ("baker-street", "kings-cross-st-pancras"):
        p = plan(core[station], content_box(Rect(0, 0, CARD_SIZES["poker"].width, CARD_SIZES["poker"].height)))
        assert p.numbered and p.facts and p.list_pt == 8.0  # zone 1's busiest stations keep both


def test_the_play_field_slots_outlines_read_in_black_and_white(tmp_path, capsys):
    """The Fortune slots were outlined in the Fortune yellow (1.44:1 on white, 1.67:1 in
    greyscale: a fresh-eyes review); every slot's outline now reaches 3:1 on the paper, in colour
    and as a greyscale print's grey."""
    import pymupdf

    from tubedeck.generator.colour import contrast
    from tubedeck.generator.sizes import MM

    code, _, err = run(capsys, "build", "klm", "--data", str(TINY), "--scope", "all", "--out", str(tmp_path))
    assert code == 0, err
    with pymupdf.open(tmp_path / "klm" / "play-field.pdf") as doc:
        outlines = [d["color"] for d in doc[0].get_drawings()
                    if d.get("fill") is None and d.get("color") is not None and d["rect"].width > 40 * MM
                    and d["rect"].height > 40 * MM]
    assert len(outlines) == 4
    white = (1.0, 1.0, 1.0)
    for rgb in outlines:
        grey = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]  # a greyscale print's conversion
        assert contrast(tuple(rgb), white) >= 3.0 and contrast((grey, grey, grey), white) >= 3.0, rgb


def test_light_lines_in_the_station_schematics_run_between_ink_rails(tmp_path, capsys):
    """The Circle's yellow (1.31:1 on the card's paper) and the Hammersmith & City's pink (1.70:1)
    all but vanished from the schematics in black and white (a fresh-eyes review). Read back from
    the PDF: every schematic stroke of a colour under 3:1 on the paper lies on an ink stroke wider
    than itself, and the strokes that reach 3:1 alone have none."""
    import pymupdf

    from tubedeck.generator.colour import contrast, hex_of, rgb
    from tubedeck.generator.sizes import MM
    from tubedeck.generator.theme import PAPER

    code, _, err = run(capsys, "build", "klm", "--out", str(tmp_path))
    assert code == 0, err
    light = dark = 0
    with pymupdf.open(tmp_path / "klm" / "stations.pdf") as doc:
        for page in doc:
            if page.number % 2:
                continue  # a back page: the backs' network art (issue 44) is no schematic, cased on the blue
            segs = [(d, d["items"][0]) for d in page.get_drawings()
                    if d.get("color") is not None and len(d["items"]) == 1 and d["items"][0][0] == "l"]
            ink = {(round(i[1].x, 2), round(i[1].y, 2), round(i[2].x, 2), round(i[2].y, 2)): d["width"]
                   for d, i in segs if max(d["color"]) < 0.15}
            for d, i in segs:
                if max(d["color"]) < 0.15 or min(d["color"]) > 0.97 or not 0.69 * MM <= d["width"] <= 1.21 * MM:
                    continue  # ink, white, or not a schematic stroke (0.7-1.2 mm)
                key = (round(i[1].x, 2), round(i[1].y, 2), round(i[2].x, 2), round(i[2].y, 2))
                if contrast(rgb(hex_of(tuple(d["color"]))), rgb(PAPER)) < 3.0:
                    light += 1
                    assert ink.get(key, 0) > d["width"], (page.number, d["color"])
                else:
                    dark += 1
                    assert key not in ink, (page.number, d["color"])
    assert light > 10 and dark > 100


def test_a_card_leaves_off_its_line_names_only_when_no_layout_with_them_fits(london):
    """In black and white the line names are how a player applies Line Closure. They went before a
    bigger list or the illustration: mini-landscape cards without them, 6 of 272 (Green Park,
    Waterloo, King's Cross St Pancras...) and 1 mini. Now every layout with them, at every list
    size (a compact one may take three lines of names), is tried before any without: one card
    is left, Baker Street on mini-landscape, and no layout with its names fits it."""
    from tubedeck.generator import CARD_SIZES
    from tubedeck.generator.klm import plan as klm_plan
    from tubedeck.generator.klm.station import content_box
    from tubedeck.generator.sizes import Rect

    deck = build_deck(london, parse_scope("all", london))
    for size in (CARD_SIZES["mini"], CARD_SIZES["mini"].landscape, CARD_SIZES["poker"]):
        s = content_box(Rect(0, 0, size.width, size.height))
        bare = []
        for card in deck.cards:
            p = klm_plan.plan(card, s)
            assert p.list_pt >= klm_plan.PLAY_PT
            if p.label is None:
                bare.append(card.station)
                head = klm_plan._header(card, s)
                for pt in klm_plan.LIST_PT:
                    for tier, styles in klm_plan.ORDER:
                        for style in styles if "label" in tier else ():
                            for arrangement in ("wide", "side", "stack", "none"):
                                for cols in (1, 2):
                                    assert klm_plan._try(card, s, head, tier, arrangement, style, pt, cols) is None
            elif p.compact is False:
                assert len(p.label.lines) <= 2  # three lines only where rows are compact
        assert len(bare) <= (1 if size.width > size.height else 0), (size, bare)
