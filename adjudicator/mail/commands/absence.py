"""`absence FROM TO`: the player will be away those days (UTC, both
included); a deadline that falls inside moves to the first day after, at the
same time of day (folder.absences has the rule and the game's limits). The
absence is announced to every player, and the GM is told."""

from __future__ import annotations

from typing import Any

from adjudicator.folder import absences
from adjudicator.folder.schedule import deadline_of, format_time
from adjudicator.mail.announce import announce
from adjudicator.mail.commands.base import (
    Asked,
    Command,
    Refused,
    change_meta,
    current_slug,
    seat_label,
)

USAGE = "write 'absence FROM TO' with two days, e.g. 'absence 2030-03-05 2030-03-09'"


def run(asked: Asked, command: Command) -> str:
    if len(command.args) != 2:
        raise Refused(USAGE)
    try:
        start, end = absences.parse_day(command.args[0]), absences.parse_day(command.args[1])
        wanted = absences.check(asked.meta, asked.seat, start, end, asked.now)
    except absences.AbsenceRefused as exc:
        raise Refused(f"{exc}; {USAGE}") from None
    before = deadline_of(asked.meta)
    after = absences.pushed(absences.with_absence(asked.meta, wanted), before) if before else None
    asked.verdict.effects.append(lambda: record(asked, wanted))
    moved = f" The deadline for {asked.ctx.phase} moves from {format_time(before)} to {format_time(after)}." \
        if before and after and after != before else ""
    return (f"Your absence from {start} to {end} is recorded, and every player is told. No deadline falls "
            f"in it: a deadline that would moves to the day after, at the same time.{moved}")


def record(asked: Asked, wanted: absences.Absence) -> None:
    moved: list[str] = []

    def change(meta: dict[str, Any]) -> dict[str, Any]:
        changed = absences.with_absence(meta, wanted)
        before = deadline_of(changed)
        if before is not None:
            after = absences.pushed(changed, before)
            if after != before:
                changed["deadline"] = format_time(after)
                moved.append(f" The deadline for {asked.ctx.phase} moves from {format_time(before)} to "
                             f"{format_time(after)}.")
        return changed
    change_meta(asked, change)
    who = seat_label(asked.ctx, wanted.seat)
    text = (f"{who} will be away from {wanted.start} to {wanted.end} (UTC, both days included). No deadline "
            f"of {asked.ctx.game} falls in that time.{''.join(moved)}")
    announce(asked.folder, current_slug(asked.ctx), text, [text], stamp=f"absence {wanted.seat} {wanted.start}")
