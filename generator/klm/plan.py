"""The Station Card's layout, worked out from the card's size before anything is drawn.

:func:`plan` tries, best first: the Nearest Stations list at 8 pt, then 7.5, then 7 (Connection
Numbers half a point bigger, in pills that widen for three digits); for each size, these
content tiers and illustrations (every tier with the lines' names at every list size before any
without them: in black and white play reads the names, for Line Closure; a compact tier's names may
take three lines): everything with the numbered illustration; without the
description, numbered; without the description and with the neighbours' line qualifiers in short
("Edgware Road (H&C)"), numbered (a busy interchange keeps its numbered illustration and its
facts); everything with a plain-dot illustration or none; without the description, dots or none;
then without the facts, without the lines' names, and last a compact
list (tighter rows and blocks, no "Nearest stations" heading; TERMINUS stays), then the compact
list with the neighbours' line qualifiers in short ("Paddington (H&C)"), each with a numbered, a
dot or no illustration. The numbered illustration goes before the dots at every list size
(:func:`attempts`): with the facts at 8, 7.5 or 7 pt first, then without them. The list's heading
always fits its column. Each tries the arrangements
that suit the card's shape (portrait: the illustration full width above the list, then beside
it; landscape: the text column beside it) and a one- then two-column list. The first that fits is grown: the illustration as big as it
may be (the description keeping room at 7.5 pt when it had it, a list beside it not wrapping
more), then the description's type up to 8 pt; what space remains is shared out between the
blocks. Nothing fits: :class:`~generator.text.FaceFitError`, naming the card and the size.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tubedeck.games.klm.cards import StationCard
from tubedeck.generator.icons import badge_size
from tubedeck.generator.pen import Pen
from tubedeck.generator.sizes import PT, Rect
from tubedeck.generator.text import FaceFitError, FittedText, measure, size_label
from tubedeck.generator.theme import BOLD, ITALIC, PLAY_PT, TEXT, short_line_name

from .schematic import content_height, ring_layout

GAP = 1.3  # mm between blocks
COMPACT_GAP = 0.8  # mm between blocks on a compact card (the last resort of the smallest sizes)
NAME_GAP = 1.0  # mm between the station's name and the zone chip
HEAD_PT = PLAY_PT  # "Nearest stations" / "TERMINUS": read in play
LABEL_PT = PLAY_PT  # the line names under the bands: play reads them (Line Closure, a greyscale print)
FACT_PT = (6.5, 6.0)
DESC_PT = (8.0, 6.0)
LIST_PT = (8.0, 7.5, PLAY_PT)  # neighbour names; numbers are half a point bigger
# The line names ("label") go last of all: compact rows keep them (a black-and-white print tells
# the lines by them alone: Line Closure); 22 mini cards lost them before the compact tiers kept them.
TIERS = (("description", "facts", "label"), ("facts", "label"), ("label",), ("compact", "label"),
         ("compact", "short", "label"), (), ("compact",), ("compact", "short"))
# What to try, best first: the description gives way to the numbered illustration, the facts do not.
# The neighbours' line qualifiers in short come next ("Edgware Road (H&C)"): a busy interchange's
# list then fits beside a numbered illustration (Baker Street: five lines, every number drawn).
SHORT = ("facts", "short", "label")
ORDER: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (TIERS[0], ("numbers",)), (TIERS[1], ("numbers",)), (SHORT, ("numbers",)),
    (TIERS[0], ("dots", "none")), (TIERS[1], ("dots", "none")),
    *((t, ("numbers", "dots", "none")) for t in TIERS[2:]))
LABEL_LINES = {False: 2, True: 3}  # the line names' lines at most (compact: a third before they go)
ROW_GAP = {False: 0.7, True: 0.35}  # mm between list rows (compact: tighter, and no "Nearest stations")


# The outline's word, printed on a tab the outline carries beside the Line Colour bars: the frame
# says what it means on the card itself (the key was only on a reference card, in small print).
FRAME_WORDS = {"black": "TUNNEL", "white": "OPEN AIR", None: "NOT KNOWN"}
FRAME_PT = PLAY_PT  # the frame's word: 7 pt at least, as all play text
FRAME_PAD = 0.4  # mm of tab above and below the word's capitals
CAPS = 0.73  # em: the capitals' height (Vera)
FRAME_GAP = 1.0  # mm between the last Line Colour bar and the tab


def frame_word(card: StationCard) -> str:
    """What a Station Card's outline means, as the card prints it on the outline's tab."""
    return FRAME_WORDS[card.outline]


def frame_tab(card: StationCard) -> tuple[str, float, float]:
    """The outline's tab: (word, the word's width, the tab's height) in mm: its capitals with
    :data:`FRAME_PAD` above and below."""
    word = frame_word(card)
    return word, Pen.text_width(word, BOLD, FRAME_PT), CAPS * FRAME_PT * PT + 2 * FRAME_PAD


def fact_lines(card: StationCard) -> list[tuple[str, str]]:
    """The glossary facts that are known, as (label, value); unknown ones are left off."""
    out = []
    if card.interchange:
        names = [short_line_name(m.name) for m in card.line_marks if m.id in card.interchange_lines]
        names += list(card.interchange_modes)
        out.append(("Interchange", ", ".join(names)))
    if card.borough:
        out.append(("Borough", card.borough))
    if card.built:
        out.append(("Built", card.built))
    if card.heritage:
        out.append(("Heritage", card.heritage))
    if card.easy_access is not None:
        out.append(("Easy Access", "yes" if card.easy_access else "no"))
    return out


def number_pt(pt: float, compact: bool) -> float:
    """Connection Numbers' size beside neighbour names at ``pt``: half a point bigger (bold), but
    no bigger than the names on a compact card."""
    return pt if compact else pt + 0.5


def ink_height(size: float) -> float:
    return 1.164 * size * PT  # one line's ink height (Vera)


@dataclass(frozen=True)
class Plan:
    """Where everything goes (mm, card coordinates); ``None`` for what is left off."""

    name: FittedText
    zone: tuple[float, float, float]  # chip width, height, type size
    header_h: float
    bars_h: float
    label: FittedText | None
    arrangement: str  # side | stack | wide | none
    d: float  # illustration height (0: none); as wide, or the whole width when stacked
    numbered: bool  # the illustration carries the numbers
    list_pt: float
    rows: tuple[tuple[str, FittedText], ...]  # (number, neighbour name) per connection
    pill_w: float
    cols: int
    list_w: float
    list_h: float
    facts: tuple[tuple[FittedText, FittedText], ...] | None
    fact_label_w: float
    desc: FittedText | None
    desc_w: float
    gap: float = GAP
    compact: bool = False
    short: bool = False  # neighbours' line qualifiers in short ("Paddington (H&C)")
    ring_d: float = 0.0  # stacked: the height the ends' ellipse is laid out for (its content is ``d`` high)


def _header(card: StationCard, s: Rect) -> tuple[FittedText, tuple[float, float, float], float] | None:
    zpt = 7.5 if s.w > 45 else 6.5
    zone = f"Zone {card.zone}"
    zw, zh = Pen.text_width(zone, BOLD, zpt) + 2.0, ink_height(zpt) + 1.0
    top = min(max(s.h * 0.17, 6.5), 15.0)
    big = min(max(s.w * 0.235, 9.0), 14.0)
    name = measure(card.name, BOLD, big, PLAY_PT, s.w - zw - NAME_GAP, top, 3)
    if name is None:
        return None
    return name, (zw, zh, zpt), max(name.height, zh)


def _label(card: StationCard, w: float, lines: int = 2) -> FittedText | None:
    full = " \u00b7 ".join(m.name for m in card.line_marks)
    short = " \u00b7 ".join(short_line_name(m.name) for m in card.line_marks)
    for most in range(2, lines + 1):  # fewer lines first: the short names in two before the full in three
        for text in dict.fromkeys((full, short)):
            fitted = measure(text, TEXT, LABEL_PT, LABEL_PT, w, 1e4, most)
            if fitted:
                return fitted
    return None


def short_station_name(name: str) -> str:
    """A name's line qualifier in short: ``Edgware Road (Hammersmith & City)`` -> ``Edgware Road
    (H&C)``. Only the last tier uses it, on the smallest cards (compact, short names)."""
    head, paren, rest = name.partition(" (")
    if not paren or not rest.endswith(")"):
        return name
    return f"{head} ({short_line_name(rest[:-1])})"


def heading_height(card: StationCard, compact: bool) -> float:
    return 0.0 if compact and not card.terminus else ink_height(HEAD_PT) + 0.8


def heading(card: StationCard) -> str:
    return "TERMINUS" if card.terminus else "Nearest stations"


def _rows(card: StationCard, w: float, pt: float, cols: int, compact: bool = False, short: bool = False
          ) -> tuple[tuple, float, float, float] | None:
    """The list at ``pt``: (rows, pill width, column width, height), or None if a name (or the
    list's heading) will not fit its width."""
    if heading_height(card, compact) and Pen.text_width(heading(card), BOLD, HEAD_PT) > w:
        return None
    numbers = [str(c.number) for c in card.connections]
    pill_w = max((badge_size(n, number_pt(pt, compact))[0] for n in numbers), default=0.0)
    pill_h = badge_size("0", number_pt(pt, compact))[1]
    col_w = (w - (cols - 1) * 2.0) / cols
    text_w = col_w - pill_w - 1.0
    if text_w < 8:
        return None
    rows = []
    for c in card.connections:
        name = short_station_name(c.neighbour_name) if short else c.neighbour_name
        fitted = measure(name, TEXT, pt, pt, text_w, 1e4, 3 if cols == 1 else 4)
        if fitted is None:
            return None
        rows.append((str(c.number), fitted))
    gap = ROW_GAP[compact]
    # a row per neighbour, or one for the 'no connection' note
    heights = [row_height(pill_h, pt, f) + gap for _, f in rows] or [ink_height(PLAY_PT) + gap]
    per = -(-len(heights) // cols)
    height = max(sum(heights[i * per:(i + 1) * per]) for i in range(cols))
    return tuple(rows), pill_w, col_w, heading_height(card, compact) + height


def row_height(pill_h: float, pt: float, name: FittedText) -> float:
    """A list row: the pill beside the name, centred on its first line."""
    return max(pill_h, (pill_h - ink_height(pt)) / 2 + name.height)


def _facts(card: StationCard, w: float) -> tuple[tuple, float, float] | None:
    facts = fact_lines(card)
    if not facts:
        return (), 0.0, 0.0
    for pt in FACT_PT:
        lw = max(Pen.text_width(label, BOLD, pt) for label, _ in facts) + 1.5
        out = []
        for label, value in facts:
            v = measure(value, TEXT, pt, pt, w - lw, 1e4, 3)
            if v is None:
                break
            out.append((measure(label, BOLD, pt, pt, lw, 1e4, 1), v))
        else:
            return tuple(out), lw, sum(v.height + 0.35 * pt * PT for _, v in out)
    return None


def _total(p: Plan, s: Rect, desc_h: float) -> float:
    """Height used by a plan whose description block is ``desc_h`` high (0: none)."""
    g = p.gap
    top = p.header_h + g + p.bars_h + (0.6 + p.label.height if p.label else 0.0) + g
    facts_h = sum(v.height + 0.35 * v.size * PT for _, v in p.facts) if p.facts else 0.0
    extra = (g + facts_h if p.facts else 0.0) + (g + desc_h if p.desc is not None or desc_h else 0.0)
    if p.arrangement == "side":
        return top + max(p.d, p.list_h) + extra
    if p.arrangement == "stack":
        return top + p.d + g + p.list_h + extra
    if p.arrangement == "wide":
        return top + max(p.d, p.list_h + extra)
    return top + p.list_h + extra


def _arrangements(s: Rect, card: StationCard) -> tuple[str, ...]:
    if not card.connections:
        return ("stack",)
    return ("wide", "side", "stack") if s.w >= s.h * 0.95 else ("stack", "side", "wide")


def _try(card: StationCard, s: Rect, head, tier, arrangement: str, style: str, pt: float, cols: int) -> Plan | None:
    name, zone, header_h = head
    label = _label(card, s.w, LABEL_LINES["compact" in tier]) if "label" in tier else None
    if "label" in tier and label is None:
        return None
    bars_h = max(min(max(s.h * 0.035, 2.2), 3.4), frame_tab(card)[2])  # the row holds the outline's tab
    d_min = 0.0 if style == "none" else _d_min(card, pt, style, s.w if arrangement == "stack" else None)
    if d_min is None:
        return None
    d, ring_d = d_min, 0.0
    if arrangement == "stack" and style != "none":  # only as high as what it draws
        used = content_height(card, d_min, number_pt(pt, False) if style == "numbers" else None, s.w)
        assert used is not None  # d_min is a size the layout fits at (_d_min)
        d, ring_d = max(used + 0.6, 10.0), d_min
    text_w = s.w - d - GAP if arrangement in ("side", "wide") else s.w
    if cols > 1 and (arrangement not in ("stack", "none") or len(card.connections) < 3):
        return None
    compact, short = "compact" in tier, "short" in tier
    rows = _rows(card, text_w, pt, cols, compact, short)
    if rows is None:
        return None
    facts_w = text_w if arrangement == "wide" else s.w
    facts = _facts(card, facts_w) if "facts" in tier else None
    if "facts" in tier and facts is None:
        return None
    desc = measure(card.description, ITALIC, DESC_PT[1], DESC_PT[1], facts_w) if "description" in tier else None
    if "description" in tier and desc is None:
        return None
    p = Plan(name, zone, header_h, bars_h, label, arrangement if style != "none" else "none", d,
             style == "numbers", pt, rows[0], rows[1], cols, rows[2], rows[3], facts[0] if facts else None,
             facts[1] if facts else 0.0, desc, facts_w, COMPACT_GAP if compact else GAP, compact, short, ring_d)
    return p if _total(p, s, desc.height if desc else 0.0) <= s.h + 1e-6 else None


def _d_min(card: StationCard, pt: float, style: str, width: float | None) -> float | None:
    if style == "dots":
        return 13.0
    for d in range(12, 61):
        if ring_layout(card, float(d), number_pt(pt, False), width) is not None:
            return float(d)
    return None


def _grow(p: Plan, card: StationCard, s: Rect) -> Plan:
    """The illustration as big as it may be (leaving the description room at 7.5 pt if it had
    it), then the description's type as big as it may be; the rest is shared between the blocks."""
    if p.d:
        limit = {"side": s.w * 0.55, "stack": min(s.w * 0.6, s.h * 0.34), "wide": s.w * 0.48}[p.arrangement]
        desc_pt = next((pt for pt in (7.5, 7.0, 6.5) if p.desc is not None and _resized(p, card, s, p.d, pt)),
                       DESC_PT[1])
        best, d = p, p.ring_d or p.d
        if p.arrangement == "stack":  # a wider ellipse, as long as what it draws fits the height
            pt = number_pt(p.list_pt, p.compact) if p.numbered else None
            while d + 1.0 <= s.w * 3:
                d += 1.0
                used = content_height(card, d, pt, s.w)
                q = _resized(p, card, s, max(used + 0.6, 10.0), desc_pt, d) if used is not None else None
                if q is None or q.d > limit:
                    break
                best = q
        while p.arrangement != "stack" and d + 1.0 <= limit:  # bigger while the list beside it stays no
            d += 1.0                                            # taller and in 2-line names
            q = _resized(p, card, s, d, desc_pt)
            if q is None:
                break
            if q.list_h > p.list_h + 1e-6 and (q.list_h > d or max(len(f.lines) for _, f in q.rows) > 2):
                break
            best = q
        p = best
    if p.desc is not None:
        room = s.h - _total(p, s, 0.0)
        fitted = measure(card.description, ITALIC, DESC_PT[0], DESC_PT[1], p.desc_w, room)
        if fitted:
            p = replace(p, desc=fitted)
    lo, hi = p.gap, p.gap + 3.0  # share what is left between the blocks
    desc_h = p.desc.height if p.desc else 0.0
    for _ in range(20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _total(replace(p, gap=mid), s, desc_h) <= s.h else (lo, mid)
    return replace(p, gap=lo)


def _resized(p: Plan, card: StationCard, s: Rect, d: float, desc_pt: float = DESC_PT[1],
             ring_d: float = 0.0) -> Plan | None:
    """``p`` with an illustration ``d`` high (its ends laid out for ``ring_d``, default ``d``), if
    everything still fits (the description at ``desc_pt``)."""
    wide = s.w if p.arrangement == "stack" else None
    if ring_layout(card, ring_d or d, number_pt(p.list_pt, p.compact) if p.numbered else None, wide) is None:
        return None
    text_w = s.w - d - GAP if p.arrangement in ("side", "wide") else s.w
    rows = _rows(card, text_w, p.list_pt, p.cols, p.compact, p.short)
    if rows is None:
        return None
    q = replace(p, d=d, ring_d=ring_d, rows=rows[0], pill_w=rows[1], list_w=rows[2], list_h=rows[3])
    if p.arrangement == "wide":
        facts = _facts(card, text_w) if p.facts is not None else None
        if p.facts is not None and facts is None:
            return None
        q = replace(q, facts=facts[0] if facts else None, fact_label_w=facts[1] if facts else 0.0, desc_w=text_w)
    if p.desc is not None:
        desc = measure(card.description, ITALIC, desc_pt, desc_pt, q.desc_w)
        if desc is None:
            return None
        q = replace(q, desc=desc)
    return q if _total(q, s, q.desc.height if q.desc else 0.0) <= s.h + 1e-6 else None


def attempts() -> tuple[tuple[float, tuple[tuple[str, ...], tuple[str, ...]]], ...]:
    """(list size, (tier, illustration styles)) in the order :func:`plan` tries them. Every tier
    with the line names, at every list size, comes before any without them: play reads them (Line
    Closure in black and white). Among those, the numbered illustration comes first, at every list
    size: with the facts (a smaller list before the plain dots: London's three-digit Connection
    Numbers left eight poker cards of ``--scope london`` with dots, Waterloo, Green Park, Earl's
    Court...), then without them (Baker Street and King's Cross St Pancras, whose numbered
    illustration and facts do not fit one poker card together). A bigger list, the facts and the
    description are only nice to have."""
    numbered = [(pt, (t, ("numbers",))) for pt in LIST_PT for t, styles in ORDER if "facts" in t and "numbers" in styles]
    numbered += [(pt, (t, ("numbers",))) for pt in LIST_PT for t, styles in ORDER
                 if "label" in t and "facts" not in t and "numbers" in styles]
    named = [(pt, o) for pt in LIST_PT for o in ORDER if "label" in o[0]]
    unnamed = [(pt, o) for pt in LIST_PT for o in ORDER if "label" not in o[0]]
    return tuple(numbered + named + unnamed)


def plan(card: StationCard, s: Rect, size: str = "", label: str = "") -> Plan:
    """The layout of ``card`` in the safe area ``s`` (see the module docstring); ``size`` and
    ``label`` name the card size and the card in the error if nothing fits."""
    label, size = label or card.name, size or size_label(s.w + 8, s.h + 8)
    head = _header(card, s)
    if head is None:
        raise FaceFitError(label, size, f"the name {card.name!r} needs more than {s.w:.1f} mm x 3 lines at "
                                        f"{PLAY_PT:g} pt")
    for pt, (tier, styles) in attempts():
        for style in styles:
            for arrangement in (_arrangements(s, card) if style != "none" else ("none",)):
                for cols in (1, 2):
                    p = _try(card, s, head, tier, arrangement, style, pt, cols)
                    if p:
                        return _grow(p, card, s)
    raise FaceFitError(label, size,
                       f"its name and {len(card.connections)} Nearest Stations at {PLAY_PT:g} pt need more than "
                       f"{s.w:.1f} x {s.h:.1f} mm")


