"""The sampler: one station-name card per station, proving the engine on real data.

It is also the reference for game faces: everything is placed relative to ``pen.trim`` and
``pen.safe`` (so any card size works), text goes through ``text_box`` with a ``field`` name,
and full-bleed areas use ``pen.background`` or are skipped when ``pen.ink_saver``.
"""

from __future__ import annotations

from functools import partial

from generator.document import Card, Deck, Sheet
from generator.emblem import emblem
from generator.options import PrintOptions
from generator.pen import Pen
from generator.sizes import Rect
from generator.theme import BLUE as UNDERGROUND_BLUE
from generator.theme import INK, PAPER
from generator.theme import RED as UNDERGROUND_RED
from tubedeck.network import Network, Station


def station_front(pen: Pen, station: Station, lines: list[tuple[str, str, str]]) -> None:
    """Front: line-coloured band with the zone, an emblem, the name, and the lines served.

    ``lines`` is ``[(name, colour, text_colour), ...]`` for the lines serving the station."""
    t, s, b = pen.trim, pen.safe, pen.bleed_box
    colour, text_colour = (lines[0][1], lines[0][2]) if lines else ("#777777", "#FFFFFF")
    pen.background(PAPER)
    band = t.h * 0.24
    pen.rect(b.x, t.top - band, b.w, band + (b.top - t.top), fill=colour)
    pen.text_box(Rect(s.x, t.top - band + 1.5, s.w, s.top - (t.top - band) - 1.5), f"Zone {station.zone}",
                 font="sans-bold", size=13, min_size=6, colour=text_colour, max_lines=1, field="zone")
    r = min(t.w, t.h) * 0.17
    emblem(pen, t.w / 2, t.h * 0.56, r, colour)
    name_box = Rect(s.x, t.h * 0.20, s.w, t.h * 0.56 - r - t.h * 0.20 - 1.5)
    pen.text_box(name_box, station.name, font="sans-bold", size=15, min_size=6.5, colour=INK, max_lines=3,
                 field="name")
    # Lines served: a swatch per line, and their names fitted underneath.
    if lines:
        n = len(lines)
        sw = min(7.0, (s.w - (n - 1) * 1.0) / n)
        x = t.w / 2 - (n * sw + (n - 1) * 1.0) / 2
        y = t.h * 0.155
        for _, c, _ in lines:
            pen.rect(x, y, sw, 1.8, fill=c, stroke=INK, width=0.1)
            x += sw + 1.0
        names = " \u00b7 ".join(name for name, _, _ in lines)
        pen.text_box(Rect(s.x, s.y, s.w, y - 0.8 - s.y), names, size=7, min_size=4, colour=INK, max_lines=2,
                     field="lines")


def station_back(pen: Pen) -> None:
    """Shared back: Underground blue, the tubedeck emblem, a thin frame inside the safe area."""
    t, s = pen.trim, pen.safe
    pen.background(UNDERGROUND_BLUE)
    pen.rect(s.x, s.y, s.w, s.h, stroke="#FFFFFF" if not pen.ink_saver else UNDERGROUND_BLUE, width=0.6, radius=2.5)
    emblem(pen, t.w / 2, t.h / 2, min(t.w, t.h) * 0.3, UNDERGROUND_RED, UNDERGROUND_RED, "TUBEDECK")


def lines_of(network: Network, station: str) -> list[tuple[str, str, str]]:
    return [(network.lines[l].name, network.lines[l].colour, network.lines[l].text_colour)
            for l in network.lines_at(station)]


def sampler_deck(network: Network) -> Deck:
    stations = sorted(network.stations.values(), key=lambda st: (st.name.lower(), st.id))
    cards = [Card(st.id, partial(station_front, station=st, lines=lines_of(network, st.id)), label=st.name)
             for st in stations]
    return Deck("stations", cards, back=station_back, title="tubedeck sampler: station cards")


def lines_page(pen: Pen, network: Network) -> None:
    """A full-page sheet: every line with its colour and station count (proves the Sheet path)."""
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


def documents(network: Network, options: PrintOptions) -> list[Deck | Sheet]:
    """The sampler's documents (its edition is the network itself): the station deck and a
    one-page lines sheet."""
    return [sampler_deck(network), Sheet("lines", (partial(lines_page, network=network),),
                                         title="tubedeck sampler: lines")]
