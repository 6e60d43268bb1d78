"""The sampler: one station-name card per station, proving the engine on real data.

It is also the reference for game faces: everything is placed relative to ``pen.trim`` and
``pen.safe`` (so any card size works), text goes through ``text_box`` with a ``field`` name,
and full-bleed areas use ``pen.background`` or are skipped when ``pen.ink_saver``.
"""

from __future__ import annotations

from functools import partial

from tubedeck.generator.colour import MIN_CONTRAST, ColourSpec, Mode, as_rgb, contrast, luminance, resolve
from tubedeck.generator.document import Card, Deck, Pages
from tubedeck.generator.emblem import emblem
from tubedeck.generator.identity import GROUNDS, network_art, routes_of
from tubedeck.generator.identity import back as designed_back
from tubedeck.generator.options import PrintOptions
from tubedeck.generator.pen import DRIFT, Pen
from tubedeck.generator.sizes import Rect
from tubedeck.generator.text import FaceFitError, measure, size_label, sized
from tubedeck.generator.theme import INK, MIN_PT, PAPER, PLAY_PT, WHITE, short_line_name
from tubedeck.network import Network, Station

PLATE_PAD = 1.5  # mm between the zone's text and the edge of its plate


def reads(text: ColourSpec, fill: ColourSpec, mode: Mode) -> bool:
    """``text`` on ``fill`` at >= 4.5:1 as the page prints them (``mode``) and once a black-and-white
    printer turns both into their luminance greys."""
    a, b = as_rgb(resolve(text, mode, "text")), as_rgb(resolve(fill, mode, "fill"))
    ga, gb = luminance(a), luminance(b)
    return min(contrast(a, b), contrast((ga,) * 3, (gb,) * 3)) >= MIN_CONTRAST


def zone_ink(pen: Pen, fill: ColourSpec, asked: ColourSpec) -> ColourSpec | None:
    """The zone's colour on the band: the line's text colour, else black or white, whichever reads
    in colour and in grey; None if none does (black on the Bakerloo's brown is 4.70:1 in colour
    but 4.25:1 in grey, white 4.46:1 and 4.94:1; on the Victoria's blue black is 4.33:1 in grey,
    white 3.26:1 in colour)."""
    return next((c for c in (asked, "#000000", WHITE) if reads(c, fill, pen.mode)), None)


def station_front(pen: Pen, station: Station, lines: list[tuple[str, str, str]]) -> None:
    """Front: line-coloured band with the zone, an emblem, the name, and the lines served.

    ``lines`` is ``[(name, colour, text_colour), ...]`` for the lines serving the station. The
    lines' names are measured first (at 6 pt or more, abbreviated if they must be); the name gets
    what the band, the emblem and they leave."""
    t, s, b = pen.trim, pen.safe, pen.art_box
    colour, text_colour = (lines[0][1], lines[0][2]) if lines else ("#777777", "#FFFFFF")
    pen.background(PAPER)
    ink = zone_ink(pen, colour, text_colour)
    band = t.h * 0.24
    if ink is None:  # room for the plate round a 7 pt zone (a short card's band grows: mini-landscape)
        line = measure(f"Zone {station.zone}", "sans-bold", PLAY_PT, PLAY_PT, 1e4, 1e4, 1)
        band = max(band, t.top - s.top + 1.5 + 2 * PLATE_PAD + (line.height if line else 0.0))
    pen.rect(b.x, t.top - band, b.w, band + (b.top - t.top), fill=colour)
    zone_box = Rect(s.x, t.top - band + 1.5, s.w, s.top - (t.top - band) - 1.5)
    if ink is None:  # neither black nor white reads in colour and in grey: black on a white plate
        ink = INK
        fitted = measure(f"Zone {station.zone}", "sans-bold", 13, MIN_PT, zone_box.w - 2 * PLATE_PAD,
                         zone_box.h - 2 * PLATE_PAD, 1)
        if fitted is None:
            raise FaceFitError(pen.label, size_label(t.w, t.h), f"the zone's plate needs more than {zone_box.w:.1f} x "
                                                                f"{zone_box.h:.1f} mm")
        pw = Pen.text_width(fitted.lines[0], "sans-bold", fitted.size) + 2 * PLATE_PAD
        ph = fitted.height + 2 * PLATE_PAD
        plate = Rect(zone_box.x + (zone_box.w - pw) / 2, zone_box.y + (zone_box.h - ph) / 2, pw, ph)
        pen.rect(plate.x, plate.y, plate.w, plate.h, fill=WHITE, radius=1.0)
        zone_box = plate.inset(PLATE_PAD)
    pen.text_box(zone_box, f"Zone {station.zone}", font="sans-bold", size=13, min_size=MIN_PT, colour=ink,
                 max_lines=1, field="zone")
    names, label = None, ""
    if lines:
        for label in dict.fromkeys((" \u00b7 ".join(n for n, _, _ in lines),
                                   " \u00b7 ".join(short_line_name(n) for n, _, _ in lines))):
            names = measure(label, "sans", 7, MIN_PT, s.w, 1e4, 2)
            if names:
                break
        if names is None:
            raise FaceFitError(pen.label, size_label(t.w, t.h), f"the lines' names need more than {s.w:.1f} mm")
    swatch_y = s.y + (names.height + 0.8 if names else 0.0)
    for share in (1.0, 0.85, 0.7, 0.55, 0.0):  # the emblem gives way to a long name on a short card
        r = min(t.w, t.h) * 0.17 * share
        cy = (t.h * 0.56 if share == 1.0 else t.top - band - 1.5 - r)
        top = cy - r - 1.5 if r else t.top - band - 1.5
        name_box = Rect(s.x, swatch_y + 1.8 + 1.5, s.w, top - swatch_y - 3.3)
        if measure(station.name, "sans-bold", 15, PLAY_PT, name_box.w, name_box.h, 3):
            break
    pen.text_box(name_box, station.name, font="sans-bold", size=15, min_size=PLAY_PT, colour=INK, max_lines=3,
                 field="name")
    if r:
        emblem(pen, t.w / 2, cy, r, colour)
    # Lines served: a swatch per line, and their names fitted underneath.
    if lines:
        assert names is not None  # measured above whenever there are lines
        n = len(lines)
        sw = min(7.0, (s.w - (n - 1) * 1.0) / n)
        x = t.w / 2 - (n * sw + (n - 1) * 1.0) / 2
        for _, c, _ in lines:
            pen.rect(x, swatch_y, sw, 1.8, fill=c, stroke=INK, width=0.1)
            x += sw + 1.0
        pen.text_box(Rect(s.x, s.y, s.w, names.height), label, size=names.size,
                     min_size=names.size, colour=INK, max_lines=2, field="lines")


def station_back(network: Network):
    """Shared back (:mod:`tubedeck.generator.identity`): Underground blue past the trim, the
    sampler's mark, every line of the network as a diagram, the deck named."""
    return designed_back("sampler", "Station Cards", network_art(routes_of(network)), GROUNDS["sampler stations"])


def lines_of(network: Network, station: str) -> list[tuple[str, str, str]]:
    return [(network.lines[l].name, network.lines[l].colour, network.lines[l].text_colour)
            for l in network.lines_at(station)]


def sampler_deck(network: Network) -> Deck:
    stations = sorted(network.stations.values(), key=lambda st: (st.name.lower(), st.id))
    cards = [Card(st.id, sized(partial(station_front, station=st, lines=lines_of(network, st.id))), label=st.name)
             for st in stations]
    return Deck("stations", tuple(cards), back=sized(station_back(network)),
                title="tubedeck sampler: station cards", back_bleed=DRIFT)


def lines_page(pen: Pen, network: Network) -> None:
    """A full-page sheet: every line with its colour and station count (proves the Pages path)."""
    s = pen.safe
    pen.text_box(Rect(s.x, s.top - 14, s.w, 14), "tubedeck sampler: the lines", font="sans-bold", size=20,
                 min_size=10, colour=INK, align="left", field="title")
    y = s.top - 26
    for ident in sorted(network.lines, key=lambda l: network.lines[l].name):
        line = network.lines[ident]
        pen.rect(s.x, y, 30, 8, fill=line.colour, radius=1.5)
        count = len(network.stations_on(ident))
        pen.text(s.x + 34, y + 2.5, f"{line.name}: {count} stations", size=12, colour=INK, field="line")
        y -= 12
        if y < s.y:
            break


def documents(network: Network, options: PrintOptions) -> list[Deck | Pages]:
    """The sampler's documents (its edition is the network itself): the station deck and a
    one-page lines sheet."""
    return [sampler_deck(network), Pages("lines", (partial(lines_page, network=network),),
                                         title="tubedeck sampler: lines")]
