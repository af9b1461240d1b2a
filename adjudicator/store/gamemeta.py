"""game.yaml, the GM's file for one game: its schema, checked on every read.

    variant: standard            # a variant or turn-file game name
    kind: diplomacy              # or turn-file
    name: demo
    deadline: null               # text or a timestamp
    opened: null                 # when the current phase opened (set with the deadline)
    players: [{power|name, name, email, password_hash}, ...]
    seed: 1                      # turn-file games
    house_rules: null            # text sent in every welcome mail (`new --house-rules FILE`)
    gm_email: judge@example.org  # the judge's own address (From of every mail it sends)
    judge_name: null             # the display name in that From
    gm_contact: null             # the GM's own address, for the judge's mails to the GM
    options: {side: B}           # turn-file games

A GM edits this file by hand, so a wrong type is one clear line naming the
key, never a traceback further on."""

from __future__ import annotations

import datetime
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from adjudicator.errors import DataFileError
from adjudicator.store.names import is_address

TEXT_KEYS = ("power", "name", "email", "password_hash")


def check_meta(meta: Any, source: str) -> dict[str, Any]:
    if not isinstance(meta, dict) or "variant" not in meta:
        raise DataFileError("game.yaml has no 'variant'", file=source,
                            hint="is this a game folder? create one with 'adjudicator new'")
    if not isinstance(meta["variant"], str):
        raise DataFileError("'variant' must be a variant name like standard", file=source)
    if meta.get("kind", "diplomacy") not in ("diplomacy", "turn-file"):
        raise DataFileError("'kind' must be diplomacy or turn-file", file=source)
    if not isinstance(meta.get("name", ""), (str, type(None))):
        raise DataFileError("'name' must be text", file=source)
    # Both reach mail headers: a line break there would end exit 3 at the first mail.
    name = meta.get("name") or ""
    if not name.isprintable():
        raise DataFileError("'name' holds a line break or another control character", file=source,
                            line=key_line(source, "name"), hint="write the game's name on one line")
    address = meta.get("gm_email")
    if address is not None and (not isinstance(address, str) or not address.isprintable()
                                or not is_address(parseaddr(address)[1])
                                or len(getaddresses([address])) != 1):
        raise DataFileError(f"'gm_email' must be one address, not {str(address)[:60]!r}", file=source,
                            line=key_line(source, "gm_email"), hint="e.g. gm_email: judge@example.org")
    if not isinstance(meta.get("deadline"), (str, datetime.date, type(None))):
        raise DataFileError("'deadline' must be text or a timestamp", file=source)
    if not isinstance(meta.get("seed", 0), int) or not isinstance(meta.get("options") or {}, dict):
        raise DataFileError("'seed' must be a whole number and 'options' a mapping", file=source)
    for key in ("house_rules", "judge_name", "gm_email", "gm_contact", "opened"):
        if not isinstance(meta.get(key), (str, datetime.date, type(None))):
            raise DataFileError(f"'{key}' must be text", file=source)
    players = meta.get("players") or []
    if not isinstance(players, list):
        raise DataFileError("'players' must be a list", file=source)
    for number, entry in enumerate(players, start=1):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(key), (str, type(None)))
                                                  for key in TEXT_KEYS):
            raise DataFileError(f"players entry {number}: each of {', '.join(TEXT_KEYS)} must be text",
                                file=source)
    return meta


def key_line(source: str, key: str) -> int | None:
    """The line of a top-level `key:` in the file, for the error message."""
    try:
        lines = Path(source).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        return None
    return next((n for n, line in enumerate(lines, start=1) if line.startswith(f"{key}:")), None)


def format_time(when: datetime.datetime) -> str:
    return when.isoformat(timespec="minutes")


def with_deadline(meta: dict[str, Any], deadline: datetime.datetime | None,
                  opened: datetime.datetime | None) -> dict[str, Any]:
    """game.yaml's settings with a new phase's deadline and when it opened
    (kept only with a deadline: a reminder's moment is checked against it)."""
    changed = dict(meta)
    changed["deadline"] = format_time(deadline) if deadline else None
    if opened is not None and deadline is not None:
        changed["opened"] = format_time(opened)
    else:
        changed.pop("opened", None)
    return changed
