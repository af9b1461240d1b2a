"""Names that become file names or mail headers: players, powers and games.

A name comes from the GM's command line or a player's mail, so it is checked
before it is used: letters (any script), digits, and `_ . -` inside the name,
1 to 40 characters. That keeps `../x`, `/etc`, a newline or a NUL out of every
path the judge writes and every header it sends."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.errors import AdjudicatorError

# \w is Unicode-aware: "Zoë" and "Ana_2" pass; "." alone and ".." never do,
# because the first character must be a letter or digit.
NAME_RE = re.compile(r"[^\W_][\w.\-]{0,39}")
NAME_RULE = "1-40 letters, digits, '_', '.' or '-', starting with a letter or digit"


def check_name(name: str, what: str = "name") -> str:
    """The name itself if it is safe; otherwise one clear error that says the rule."""
    if not NAME_RE.fullmatch(name):
        raise AdjudicatorError(f"{what} {name!r} is not allowed", hint=f"use {NAME_RULE}")
    return name


def inside(folder: Path, path: Path) -> Path:
    """`path` resolved, refused unless it lies inside `folder`: the last guard
    before a write, whatever name made it."""
    root = folder.resolve()
    target = path.resolve()
    if target != root and root not in target.parents:
        raise AdjudicatorError(f"refusing to write outside the game folder: {path}",
                               hint="player, power and game names may not hold path separators")
    return target
