"""The GM's hold on the clock, kept in game.yaml so that every run sees it:

    paused: '2030-03-04T10:00+00:00'     # since when; no phase is processed, no reminder sent
    process: 1901-spring-movement        # the GM asked for this phase to be processed now

A pause keeps the deadline; `resume` moves it on by the time the game stood
still, so nobody loses hours to it. `process` names the phase it is for, so
a request left in game.yaml can never process a later phase. The schedule (and
the engine it imports) is loaded only when a pause is read, so `status` of a
card game stays light."""

from __future__ import annotations

import datetime
from typing import Any

from adjudicator.errors import DataFileError
from adjudicator.store.gamemeta import format_time

PAUSED = "paused"
PROCESS = "process"


def paused_since(meta: dict[str, Any], source: str = "game.yaml") -> datetime.datetime | None:
    value = meta.get(PAUSED)
    if value is None or value is False:
        return None
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    from adjudicator.folder.schedule import parse_time
    try:
        return parse_time(str(value))
    except Exception:  # noqa: BLE001 - a hand-edited value is the GM's error, said in one line
        raise DataFileError(f"'{PAUSED}' must be the time the game was paused", file=source) from None


def paused(meta: dict[str, Any], now: datetime.datetime) -> dict[str, Any]:
    changed = dict(meta)
    changed[PAUSED] = format_time(now)
    return changed


def resumed(meta: dict[str, Any], now: datetime.datetime) -> dict[str, Any]:
    """Unpaused, the deadline moved on by the time the pause lasted."""
    from adjudicator.folder.schedule import deadline_of
    since = paused_since(meta)
    changed = dict(meta)
    changed.pop(PAUSED, None)
    deadline = deadline_of(meta)
    if since is not None and deadline is not None and now > since:
        changed["deadline"] = format_time(deadline + (now - since))
    return changed


def process_asked(meta: dict[str, Any], phase: str) -> bool:
    return str(meta.get(PROCESS) or "") == phase


def ask_process(meta: dict[str, Any], phase: str) -> dict[str, Any]:
    changed = dict(meta)
    changed[PROCESS] = phase
    return changed


def held(meta: dict[str, Any], phase: str | None = None) -> str | None:
    """Why the game's clock stands, or None: the GM paused it, or it waits for
    its players to sign up (folder.signup). A `process` the GM asked for the
    phase now open goes through a pause."""
    signup = meta.get("signup")
    if isinstance(signup, dict) and not signup.get("filled"):
        return "the game waits for its players to sign up"
    since = paused_since(meta)
    if since is not None and not (phase is not None and process_asked(meta, phase)):
        return f"the GM paused the game at {format_time(since)}"
    return None
