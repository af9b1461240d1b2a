"""The host's own answer to a mail it cannot route: its sender plays in
several of the host's games and the mail names none. One reply, to the
sender only, listing that sender's games (no one else's) and how to name one;
nothing of the mail is read further. It keeps the mail service's manners
(no answer to automatic, list or bulk mail; at most replycap.MAX_PER_DAY a
day to one address, counted in HOST/mail/) and goes out through the same
door as every mail (smtp.send_files, with host.yaml's settings)."""

from __future__ import annotations

from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from adjudicator.mail import manners
from adjudicator.mail.gate import headers_of, plain_body, safe_subject
from adjudicator.mail.mailread import MSG_ID_RE, subject_text
from adjudicator.mail.quarantine import Oversize
from adjudicator.mail.replycap import ReplyCap
from adjudicator.mail.smtp import sent_ids
from adjudicator.store import storage
from adjudicator.store.names import inside

REPLIES = Path("mail") / "replies"


def answer(folder: Path, host: dict[str, Any], raw: bytes | Oversize, key: str, games: list[str],
           now: datetime) -> str | None:
    """Write the answer and send it (if the host has SMTP); a line for the log, or None."""
    from adjudicator.mail.host import judge_meta, smtp_server
    from adjudicator.mail.results import judge_from, message_domain, stable_id
    head = raw.head if isinstance(raw, Oversize) else raw
    headers = headers_of(head)
    sender = manners.address_of(headers.get("from", []))
    meta = judge_meta(host, folder)
    judge = str(host["judge_address"]).lower()
    why = manners.why_no_answer(headers, judge, sent_ids(folder))
    if why is not None or not sender:
        return f"a mail from {sender or 'nobody'} names no game; not answered: {why or 'no sender'}"
    allowed, _ = ReplyCap.load(folder, now).take(sender)
    if not allowed:
        return f"a mail from {sender} names no game; not answered: the day's replies to it are used up"
    subject = safe_subject(subject_text(" ".join(headers.get("subject", []))),
                           plain_body(raw) if isinstance(raw, bytes) else None)
    message = EmailMessage()
    message["From"] = judge_from(meta)
    message["To"] = sender
    message["Subject"] = f"Which game? (Re: {subject or 'your mail'})"
    message["Date"] = format_datetime(now.astimezone(timezone.utc))
    message["Message-ID"] = f"<route-{stable_id(key, 'which game')}@{message_domain(meta)}>"
    mid = next(iter(MSG_ID_RE.findall(" ".join(headers.get("message-id", [])))), None)
    if mid:
        message["In-Reply-To"] = mid
        message["References"] = mid
    listed = "\n".join(f"    [{name}]" for name in games)
    message.set_content(
        f"Your mail to the judge names no game, and {sender} plays in several games here:\n\n{listed}\n\n"
        "The judge cannot tell which one it is for, so it read nothing of it and stored nothing. Send it "
        "again with the game's name in the Subject in brackets, as above (a reply to a mail from that "
        "game keeps it there), or with a line of its own:\n\n"
        f"    game: {games[0]}\n", cte="quoted-printable")
    replies = folder / REPLIES
    numbers = [int(p.name.split("-", 1)[0]) for p in replies.glob("*.eml") if p.name.split("-", 1)[0].isdigit()]
    path = inside(folder, replies / f"{max(numbers, default=0) + 1:04d}-which-game.eml")
    storage.atomic_write(path, message.as_bytes(policy=policy.default))
    server = smtp_server(host)
    if server is None:
        return f"a mail from {sender} names no game; the answer waits in mail/replies/{path.name}"
    from adjudicator.mail.smtp import send_files
    report = send_files(folder, [path], server, meta)
    return f"a mail from {sender} names no game; answered, listing their games" + \
        ("" if report.sent or report.skipped else f" (not sent: {report.refused or report.held})")
