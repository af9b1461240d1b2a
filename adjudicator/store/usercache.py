"""The user's cache directory: work a machine does once and keeps between runs
(compiled report templates, parsed map data), never in a game folder.

It is $XDG_CACHE_HOME/adjudicator (or ~/.cache/adjudicator), made 0700 and
used only while no one else can write to it. Everything kept there is named
after a checksum of its source and checked against it when read, so an edited
source is never served stale; where the directory cannot be made or used
safely, callers do the work again and say nothing. Nothing piles up: the
compiled templates are only the current ones (output/templating.py), and a
parsed data file unused for UNUSED_DAYS goes when something new is kept (see
prune)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

UNUSED_DAYS = 30


def cache_dir() -> Path | None:
    """$XDG_CACHE_HOME/adjudicator (or ~/.cache/adjudicator), made 0700; None if
    it cannot be made, is not a directory, or others could write to it."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
        path = root / "adjudicator"
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.lstat()
    except (OSError, RuntimeError):          # RuntimeError: no home directory
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o022:
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    return path


def prune(directory: str | os.PathLike[str], prefix: str, suffixes: tuple[str, ...]) -> None:
    """Remove the files named prefix...suffix unused for UNUSED_DAYS (their
    modification time is when they were last used)."""
    cutoff = time.time() - UNUSED_DAYS * 86400
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.name.startswith(prefix) and entry.name.endswith(suffixes):
                    try:
                        if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                            os.remove(entry.path)
                    except OSError:
                        pass
    except OSError:
        pass
