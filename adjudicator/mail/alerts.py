"""Mails the judge writes on its own account about its mail service: to the
GM (a player locked out after wrong passwords, a reply cap reached, a bounce)
and to a player (their lock-out notice). They are written beside the replies
(mail/replies/<n>-gm.eml or <n>-<power>.eml), so whatever sends the replies
sends them, once each."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Any

from adjudicator.store import storage
from adjudicator.store.names import inside

REPLIES = Path("mail") / "replies"


def judge_address(meta: dict[str, Any]) -> str:
    from adjudicator.mail.results import gm_address
    return parseaddr(gm_address(meta))[1].lower()


def write(folder: Path, meta: dict[str, Any], to: str, label: str, subject: str, text: str,
          now: datetime) -> Path:
    """One plain mail from the judge to `to`, beside the replies."""
    from adjudicator.mail.results import gm_address, message_domain
    game = str(meta.get("name") or folder.name)
    message = EmailMessage()
    message["From"] = gm_address(meta)
    message["To"] = to
    message["Subject"] = f"[{game}] {subject}"
    message["Date"] = format_datetime(now.astimezone(timezone.utc))
    key = hashlib.sha256(f"{game}\0{to}\0{subject}\0{text}\0{now.isoformat()}".encode()).hexdigest()[:32]
    message["Message-ID"] = f"<alert-{key}@{message_domain(meta)}>"
    message.set_content(text if text.endswith("\n") else text + "\n")
    replies = folder / REPLIES
    numbers = [int(p.name.split("-", 1)[0]) for p in replies.glob("*.eml") if p.name.split("-", 1)[0].isdigit()]
    path = inside(folder, replies / f"{max(numbers, default=0) + 1:04d}-{label}.eml")
    storage.atomic_write(path, bytes(message))
    return path


def to_gm(folder: Path, meta: dict[str, Any], subject: str, text: str, now: datetime) -> Path:
    from adjudicator.mail.results import gm_address
    return write(folder, meta, gm_address(meta), "gm", subject, text, now)
