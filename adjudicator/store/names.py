"""Names that become file names or mail headers: players, powers and games;
the paths the judge writes; and names that only look alike.

A name comes from the GM's command line or a player's mail, so it is checked
before it is used: letters (any script), digits, and `_ . -` inside the name,
1 to 40 characters. That keeps `../x`, `/etc`, a newline or a NUL out of every
path the judge writes and every header it sends.

Every path the judge writes in a game folder passes `inside`: it must lie in
the folder, and no part of it below the folder may be a symbolic link, so a
link planted in the folder (a map linked to ../game.yaml) is refused rather
than written through.

Two names in one game must not look alike: Latin "bob" beside one with a
Cyrillic "о" would let one player pass for another in every report and mail.
`skeleton` is the Unicode confusable skeleton of UTS #39 (Unicode Security
Mechanisms), taken from ICU's SpoofChecker, the Unicode Consortium's own
implementation, never from a table of ours."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from adjudicator.errors import AdjudicatorError

# \w is Unicode-aware: "Zoë" and "Ana_2" pass; "." alone and ".." never do,
# because the first character must be a letter or digit.
NAME_RE = re.compile(r"[^\W_][\w.\-]{0,39}")
NAME_RULE = "1-40 letters, digits, '_', '.' or '-', starting with a letter or digit"
# A plain ASCII addr-spec: no quoting, comments, spaces or control characters.
ADDRESS_RE = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+)*"
                        r"@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*")
MAX_ADDRESS = 254


def check_name(name: str, what: str = "name") -> str:
    """The name itself if it is safe; otherwise one clear error that says the rule."""
    if not NAME_RE.fullmatch(name):
        raise AdjudicatorError(f"{what} {name!r} is not allowed", hint=f"use {NAME_RULE}")
    return name


def is_address(text: str) -> bool:
    return len(text) <= MAX_ADDRESS and ADDRESS_RE.fullmatch(text) is not None


def inside(folder: Path, path: Path) -> Path:
    """`path` resolved, refused unless it lies inside `folder` and no part of it
    below the folder is a symbolic link: the last guard before a write,
    whatever name made it."""
    root = folder.resolve()
    refuse_links(root, _below(folder, root, path))
    target = path.resolve()
    if target != root and root not in target.parents:
        raise AdjudicatorError(f"refusing to write outside the game folder: {path}",
                               hint="player, power and game names may not hold path separators")
    return target


def _below(folder: Path, root: Path, path: Path) -> tuple[str, ...]:
    """The parts of `path` below the game folder, as written (links not followed)."""
    written = Path(os.path.abspath(path))
    for base in (Path(os.path.abspath(folder)), root):
        try:
            return written.relative_to(base).parts
        except ValueError:
            continue
    return ()


def refuse_links(root: Path, parts: Iterable[str]) -> None:
    """One clear error if any of root/parts[0], root/parts[0]/parts[1], ... is a symbolic link."""
    probe = root
    for part in parts:
        probe = probe / part
        if probe.is_symlink():
            raise AdjudicatorError(f"refusing to write through a symbolic link: {probe}",
                                   hint="a game folder holds plain files only: remove the link "
                                        "(or replace it with a copy of the file) and run again")


# --- names that look alike ---------------------------------------------------------
def skeleton(name: str) -> str:
    """The UTS #39 confusable skeleton of `name` (case kept, as UTS #39 keeps it),
    so "bob" and "bоb" (Cyrillic о), or "rn" and "m", have the same one."""
    # Imported here: only `new` and `player` need it, and ICU is large.
    from icu import SpoofChecker
    return str(SpoofChecker().getSkeleton(0, unicodedata.normalize("NFC", name)))


def refuse_confusable(name: str, others: Iterable[str], what: str = "name") -> None:
    """One clear error if `name` looks like one of `others` (the same skeleton,
    in any case), or is one of them."""
    # Both as written ("caroI" and "carol") and case-folded ("Ann" and "ann").
    mine = {skeleton(name), skeleton(name.casefold())}
    for other in others:
        if mine & {skeleton(other), skeleton(other.casefold())}:
            shown = name.encode("ascii", "backslashreplace").decode("ascii")
            # The escaped spelling shows which letters differ, for a look-alike only.
            raise AdjudicatorError((f"{what} {name!r} looks like {other!r}, already in the game"
                                    + (f" (it is written {shown})" if shown != name else ""))
                                   if other != name else f"{what} {name!r} is already in the game",
                                   hint="choose a name that cannot be mistaken for another; "
                                        "mixing letters of several alphabets is the usual cause")
