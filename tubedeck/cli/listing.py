"""``tubedeck games [--json]``: every registered game, what it builds and what it checks."""

from __future__ import annotations

import shlex

from tubedeck.games import registry

from .options import JsonOpt, print_json, print_lines


def games(as_json: JsonOpt = False) -> None:
    """List every game: id, title, players, documents it prints, its checks and solves, options."""
    known = list(registry().values())
    entries = [g.as_dict() for g in known]
    if as_json:
        print_json({"games": entries})
        return
    lines = []
    for game, g in zip(known, entries):
        players = f"{game.seats} players" if game.players else "not a game one plays"
        lines.append(f"[bold]{g['id']}[/bold]  {g['title']} ({players}): {g['summary']}")
        if g["documents"]:
            lines.append(f"  build {g['id']}: {', '.join(g['documents'])}")
        for verb in ("check", "solve"):
            for c in g[verb + "s"]:
                lines.append(f"  {verb} {c['command']}: {c['help']}")
                if c["example"]:
                    lines.append(f"    e.g. tubedeck {verb} {c['command']} " + " ".join(shlex.quote(a) for a in c["example"]))
        shared = [o["flag"] for o in g["options"] if not o["build_only"]]
        own = [o["flag"] for o in g["options"] if o["build_only"]]
        if shared:
            lines.append("  options: " + ", ".join(shared))
        if own:
            lines.append("  build options: " + ", ".join(own))
    print_lines(lines)
