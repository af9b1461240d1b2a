"""Deadlines and who the judge waits for.

game.yaml holds the deadline as an ISO timestamp with its time zone, when
the phase opened (set by `run`, `rollback` and `deadline`; a reminder whose
moment falls before it is skipped), and the schedule that sets the next one:

    deadline: '2026-12-01T18:00:00+01:00'
    opened: '2026-11-28T18:00:00+01:00'
    schedule:
      movement: 3d          # each phase's length, from the moment it opens
      retreat: 1d
      adjustment: 1d
      grace: 2h             # after the deadline, before missing powers are NMR
      reminders: [24h, 2h]  # before the deadline, to those who have not ordered
      missed_limit: 2       # phases missed in a row before the GM is told

Durations are a number and a unit: `90m`, `12h`, `3d`, `1d12h`."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.store.gamemeta import format_time, with_deadline

__all__ = ["DeadlineRule", "deadline_of", "due_line", "extend", "fixed", "format_time", "from_schedule",
           "must_order", "next_deadline", "opened_of", "parse_duration", "parse_time", "schedule", "with_deadline"]

DURATION_RE = re.compile(r"(\d+)\s*([dhm])")
UNITS = {"d": "days", "h": "hours", "m": "minutes"}
# The deadline of the phase that opens next, by its kind (movement, retreat,
# adjustment); None: the phase has no deadline. A phase step calls it once it
# knows which phase comes next, so its reports can name the deadline.
DeadlineRule = Callable[[str], "datetime.datetime | None"]
DEFAULTS: dict[str, Any] = {"movement": "3d", "retreat": "1d", "adjustment": "1d", "grace": "0m",
                            "reminders": ["24h"], "missed_limit": 2}


def parse_duration(text: str) -> datetime.timedelta:
    """`1d12h` -> 36 hours. Anything else is one clear error."""
    cleaned = str(text).replace(" ", "").lower()
    parts = DURATION_RE.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise AdjudicatorError(f"{text!r} is not a duration", hint="write e.g. 90m, 12h, 3d or 1d12h")
    total = datetime.timedelta()
    for number, unit in parts:
        total += datetime.timedelta(**{UNITS[unit]: int(number)})
    return total


def parse_time(text: str) -> datetime.datetime:
    """An ISO timestamp that names its time zone (`Z` or `+01:00`)."""
    try:
        when = datetime.datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
    except ValueError:
        raise AdjudicatorError(f"{text!r} is not a time", hint="write e.g. 2026-12-01T18:00+01:00") from None
    if when.tzinfo is None:
        raise AdjudicatorError(f"{text!r} has no time zone", hint="add one, e.g. +00:00 or Z")
    return when


def schedule(meta: dict[str, Any], source: str = "game.yaml") -> dict[str, Any]:
    """The game's schedule with defaults filled in, checked."""
    given = meta.get("schedule") or {}
    if not isinstance(given, dict):
        raise DataFileError("'schedule' must be a mapping", file=source)
    merged = {**DEFAULTS, **given}
    try:
        for key in ("movement", "retreat", "adjustment", "grace"):
            parse_duration(merged[key])
        for reminder in merged["reminders"] or []:
            parse_duration(reminder)
    except AdjudicatorError as exc:
        raise DataFileError(f"schedule: {exc.message}", file=source, hint=exc.hint) from None
    if not isinstance(merged["missed_limit"], int):
        raise DataFileError("schedule: missed_limit must be a whole number", file=source)
    return merged


def deadline_of(meta: dict[str, Any]) -> datetime.datetime | None:
    value = meta.get("deadline")
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    try:
        return parse_time(str(value))
    except AdjudicatorError:
        return None        # a free-text deadline from before: shown, never enforced


def next_deadline(meta: dict[str, Any], kind: str, opened: datetime.datetime) -> datetime.datetime:
    """The phase's length after it opens; a deadline that falls in a player's
    absence moves past it (folder.absences)."""
    when = opened + parse_duration(schedule(meta)[kind])
    if not meta.get("absences"):
        return when
    from adjudicator.folder.absences import pushed
    return pushed(meta, when)


def opened_of(meta: dict[str, Any]) -> datetime.datetime | None:
    """When the current phase opened, if a command that knew the clock recorded it."""
    return deadline_of({"deadline": meta.get("opened")})


def from_schedule(meta: dict[str, Any], now: datetime.datetime) -> DeadlineRule:
    """Each phase's deadline is its length from the schedule after `now`, when it opens."""
    return lambda kind: next_deadline(meta, kind, now)


def fixed(when: datetime.datetime | None) -> DeadlineRule:
    return lambda kind: when


def due_line(meta: dict[str, Any], phase: str, now: datetime.datetime, what: str = "Orders") -> str:
    """The sentence every mail that asks for orders carries: the deadline of
    the phase it asks them for. Inside the grace it says until when late
    orders are taken, so the time it names is never already past."""
    deadline = deadline_of(meta)
    if deadline is None:
        return ""
    if now < deadline:
        return f"{what} for {phase} are due by {format_time(deadline)}."
    grace = parse_duration(schedule(meta)["grace"])
    if now < deadline + grace:
        return (f"The deadline for {phase} was {format_time(deadline)}; late {what.lower()} are taken until "
                f"{format_time(deadline + grace)}.")
    return ""


def extend(meta: dict[str, Any], change: str, now: datetime.datetime) -> datetime.datetime:
    """`+2d` moves the deadline (from now if there is none); a timestamp sets it."""
    if change.startswith("+"):
        base = deadline_of(meta) or now
        return base + parse_duration(change[1:])
    return parse_time(change)


def must_order(variant: Variant, state: GameState) -> list[str]:
    """The powers that have something to do this phase: units to order in
    movement, a dislodged unit in retreats, builds they can make or disbands
    they owe in adjustments. The judge waits for these and no others."""
    rules = variant.rules
    playing = rules.playing_powers(variant, state)
    kind = state.phase.kind
    if kind == "movement":
        return [p for p in playing if state.units_of(p)]
    if kind == "retreat":
        return [p for p in playing if any(d.unit.power == p for d in state.dislodged.values())]
    waiting = []
    for power in playing:
        owed = len(state.centres_of(power)) - len(state.units_of(power))
        if owed < 0 or (owed > 0 and rules.build_sites(variant, state, power)):
            waiting.append(power)
    return waiting
