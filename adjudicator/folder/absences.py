"""Absences: a player who will be away says so (`absence FROM TO` by mail),
and no deadline falls while they are away.

An absence is whole days, FROM to TO inclusive, in UTC: it starts at FROM
00:00 and ends at the midnight after TO. A deadline that falls inside moves
to the first day after it, keeping its time of day, so the player has the
hours they would have had. game.yaml keeps them:

    absences:
    - {power: france, from: '2030-03-05', to: '2030-03-09'}

Within the game's limits (gameoptions.absence_limits: by default at most 14
days each, and 2 a year per power, counted by the year each starts in), not
begun already, not over a year ahead, not overlapping the power's own. Every
deadline set from the schedule passes through `pushed` (schedule.next_deadline),
and an absence that covers the deadline already set moves it at once."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import DataFileError
from adjudicator.folder.gameoptions import absence_limits

KEY = "absences"
MAX_AHEAD = datetime.timedelta(days=366)
DAY = datetime.timedelta(days=1)


class AbsenceRefused(Exception):
    """An absence the game's limits do not allow; the text says why."""


@dataclass(frozen=True)
class Absence:
    seat: str
    start: datetime.date            # first day away
    end: datetime.date              # last day away

    def window(self) -> tuple[datetime.datetime, datetime.datetime]:
        """[from, until) in UTC."""
        utc = datetime.timezone.utc
        return (datetime.datetime.combine(self.start, datetime.time(), utc),
                datetime.datetime.combine(self.end, datetime.time(), utc) + DAY)

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def record(self) -> dict[str, str]:
        return {"power": self.seat, "from": self.start.isoformat(), "to": self.end.isoformat()}


def parse_day(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise AbsenceRefused(f"{text[:30]!r} is not a day; write it as 2030-03-05") from None


def recorded(meta: dict[str, Any], source: str = "game.yaml") -> list[Absence]:
    entries = meta.get(KEY) or []
    if not isinstance(entries, list):
        raise DataFileError(f"'{KEY}' must be a list", file=source)
    found = []
    for number, entry in enumerate(entries, start=1):
        try:
            found.append(Absence(str(entry["power"]), parse_day(str(entry["from"])), parse_day(str(entry["to"]))))
        except (TypeError, KeyError, AbsenceRefused):
            raise DataFileError(f"absences entry {number}: needs power, from and to (days, 2030-03-05)",
                                file=source) from None
    return found


def check(meta: dict[str, Any], seat: str, start: datetime.date, end: datetime.date,
          now: datetime.datetime) -> Absence:
    """The absence, if the game allows it; else AbsenceRefused saying why."""
    limits = absence_limits(meta)
    if limits is None:
        raise AbsenceRefused("this game allows no absences")
    wanted = Absence(seat, start, end)
    today = now.astimezone(datetime.timezone.utc).date()
    if end < start:
        raise AbsenceRefused(f"it ends ({end}) before it starts ({start})")
    if start < today:
        raise AbsenceRefused(f"it starts before today ({today} UTC); an absence is announced ahead")
    if wanted.window()[0] - now > MAX_AHEAD:
        raise AbsenceRefused("it starts more than a year from now")
    if wanted.days > limits["max_days"]:
        raise AbsenceRefused(f"it is {wanted.days} days; this game allows at most {limits['max_days']}")
    own = [a for a in recorded(meta) if a.seat == seat]
    if any(a.start <= end and start <= a.end for a in own):
        raise AbsenceRefused("it overlaps an absence you announced before")
    if sum(1 for a in own if a.start.year == start.year) >= limits["per_year"]:
        raise AbsenceRefused(f"you have had {limits['per_year']} absences in {start.year}, "
                             "as many as this game allows a year")
    return wanted


def with_absence(meta: dict[str, Any], absence: Absence) -> dict[str, Any]:
    changed = dict(meta)
    changed[KEY] = [*(meta.get(KEY) or []), absence.record()]
    return changed


def pushed(meta: dict[str, Any], when: datetime.datetime) -> datetime.datetime:
    """`when`, or, if it falls inside an absence, the same time of day on the
    first day after it (again past any absence that then holds it)."""
    absences = recorded(meta)
    for _ in range(len(absences) + 1):          # each pass clears at least one absence, or stops
        holding = [a for a in absences if a.window()[0] <= when < a.window()[1]]
        if not holding:
            return when
        until = max(a.window()[1] for a in holding)
        days = -((when - until) // DAY)          # whole days that bring `when` to or past `until`
        when = when + days * DAY
    return when
