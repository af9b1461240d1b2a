"""What `status` adds about the mail service: players whose address bounced
this phase, and locks after wrong passwords still in force."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from adjudicator.folder.players import roster
from adjudicator.mail import bounces
from adjudicator.mail.guesses import Guesses


def service_lines(folder: Path, now: datetime | None = None) -> list[str]:
    now = now or datetime.now(timezone.utc)
    lines = bounces.status_lines(folder, roster(folder))
    state = Guesses.load(folder)
    for key in sorted(state.entries):
        until = state.locked_until([key], now)
        if until is not None:
            lines.append(f"Locked after wrong passwords: {key} until {until:%Y-%m-%d %H:%M} UTC "
                         f"(adjudicator unlock GAME {key.split(':', 1)[1]})")
    return lines
