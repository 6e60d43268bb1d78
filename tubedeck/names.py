"""Forgiving station-name matching for anything a person types.

``King's Cross St. Pancras``, ``kings cross st pancras``, ``Kings Cross & St Pancras`` and
``kings cross`` all find the same station: case, accents, punctuation, ``St``/``St.``/``Saint``/
``Street``, ``Rd``/``Road`` and ``&``/``and`` are folded, and a unique leading run of words is
enough. (``St`` may stand for Saint or Street; no two stations differ only by that.) An unknown
name raises a UsageError with "did you mean ..." suggestions; an ambiguous one lists the choices.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import lru_cache
from typing import Iterable, Mapping

from .errors import UsageError

_WORDS = {"st": "st", "saint": "st", "street": "st", "rd": "rd", "road": "rd", "and": "&", "&": "&"}


@lru_cache(maxsize=8192)  # a rack of 10 names folds every station's name per name: once each is enough
def fold(name: str) -> str:
    """The comparison key of a name: lower case, no accents or punctuation, St/& folded."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = text.replace("&", " & ").replace("'", "").replace("\u2019", "")
    words = re.findall(r"[a-z0-9&]+", text)
    return " ".join(_WORDS.get(w, w) for w in words)


def match_station(name: str, stations: Mapping[str, str] | Iterable[tuple[str, str]], what: str = "station") -> str:
    """Return the id whose name (or id) matches ``name``; ``stations`` maps id -> display name."""
    items = list(stations.items()) if isinstance(stations, Mapping) else list(stations)
    key = fold(name)
    by_key: dict[str, str] = {}
    for ident, display in items:
        by_key.setdefault(fold(display), ident)
        by_key.setdefault(fold(ident.replace("-", " ")), ident)
    if key in by_key:
        return by_key[key]
    starts = {ident: display for ident, display in items if key and fold(display).startswith(key + " ")}
    if len(starts) == 1:
        return next(iter(starts))
    if len(starts) > 1:
        choices = " or ".join(repr(d) for d in sorted(set(starts.values())))
        raise UsageError(f"{what} {name!r} is ambiguous: {choices}?")
    names = {fold(d): d for _, d in items}
    close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(names[c]) for c in close)}?" if close else ""
    raise UsageError(f"unknown {what} {name!r}{hint}")
