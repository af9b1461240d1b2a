"""When a mail was written, for the "written before this phase opened" check.

The Date header is the sender's word. It is taken unless it is missing or more
than FUTURE_SLACK ahead of the judge's clock (a Date years ahead would pass
every phase's check); then the time the mail server received the mail is
used instead (the topmost Received header, which the receiving server adds),
or the time the judge read it when there is none, and the reply says so.
A Date carries whole seconds, so the phase's opening is compared to the
second: a mail dated in the second the phase opened is taken."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

FUTURE_SLACK = timedelta(days=1)
RECEIVED_RE = re.compile(rb"^received:(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)


def received_time(raw: bytes) -> datetime | None:
    """The date the topmost Received header gives (after its last ';'), in UTC."""
    from adjudicator.mail.ledger import header_block
    found = RECEIVED_RE.search(header_block(raw))
    if found is None or b";" not in found.group(1):
        return None
    text = found.group(1).rsplit(b";", 1)[1].decode("ascii", "replace")
    try:
        when = parsedate_to_datetime(" ".join(text.split()))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def written_at(date: datetime | None, raw: bytes, now: datetime) -> tuple[datetime, str | None]:
    """(the time to judge the mail by, a note for the reply when it is not the Date)."""
    if date is not None and date <= now + FUTURE_SLACK:
        return date, None
    received = received_time(raw)
    when, source = (received, "the time your mail server received it") if received is not None and \
        received <= now + FUTURE_SLACK else (now, "the time the judge read it")
    why = "Your mail has no Date" if date is None else \
        f"Your mail is dated {date:%Y-%m-%d %H:%M} UTC, more than a day ahead"
    return when, f"{why}; {source} ({when:%Y-%m-%d %H:%M} UTC) was used instead."


def to_the_second(when: datetime | None) -> datetime | None:
    return when.replace(microsecond=0) if when is not None else None
