"""Bounces: delivery status notifications (RFC 3464) for the judge's own mail.

A bounce is a multipart/report mail with a message/delivery-status part. Its
per-recipient blocks whose Action is "failed" name the addresses that could
not be reached. It counts only if it returns a mail the judge sent (the
returned headers carry a Message-ID listed in mail/sent.txt, or the judge's
X-Loop), so a forged bounce cannot silence a player. A player whose address
bounced is flagged, for the current phase, in mail/bounces.yaml: `status`
shows it, the GM is told (see alerts), and no mail is sent to that address
again until the next phase opens (smtp.send_files holds them). A bounce is
never answered (see manners)."""

from __future__ import annotations

from dataclasses import dataclass
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from adjudicator.store import storage

STATE = Path("mail") / "bounces.yaml"


@dataclass(frozen=True)
class Failure:
    address: str
    status: str                      # e.g. "5.1.1"
    diagnostic: str                  # the remote server's words, one line


def is_report(raw_head: dict[str, list[str]]) -> bool:
    content = " ".join(raw_head.get("content-type", [])).lower()
    return content.startswith("multipart/report") and "delivery-status" in content


def _one_line(text: str, limit: int = 160) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:limit]


def _fields(block: Message) -> dict[str, str]:
    return {name.lower(): _one_line(str(value)) for name, value in block.items()}


def failures(raw: bytes, sent: set[str], judge: str) -> tuple[list[Failure], str | None]:
    """(the addresses this bounce says failed, None) for a bounce of the
    judge's own mail; ([], why it does not count) otherwise."""
    msg = BytesParser(policy=policy.compat32).parsebytes(raw)
    if msg.get_content_type() != "multipart/report":
        return [], "not a delivery report"
    blocks: list[Message] = []
    returned: Message | None = None
    for part in msg.walk():
        kind = part.get_content_type()
        if kind == "message/delivery-status":
            payload = part.get_payload()
            blocks = [b for b in payload if isinstance(b, Message)] if isinstance(payload, list) else []
        elif kind in ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers") and returned is None:
            payload = part.get_payload()
            if isinstance(payload, list) and payload and isinstance(payload[0], Message):
                returned = payload[0]
            elif isinstance(payload, str):
                returned = BytesParser(policy=policy.compat32).parsebytes(payload.encode("utf-8", "replace"),
                                                                          headersonly=True)
    if returned is None:
        return [], "it does not return the mail that bounced"
    mid = str(returned.get("Message-ID") or "").strip()
    loop = str(returned.get("X-Loop") or "").strip().lower()
    if mid not in sent and not (judge and loop == judge):
        return [], "the mail it returns is not one the judge sent"
    found = []
    for block in blocks[1:]:                     # the first block is about the whole message
        fields = _fields(block)
        if not fields.get("action", "").lower().startswith("failed"):
            continue
        recipient = fields.get("final-recipient") or fields.get("original-recipient") or ""
        address = parseaddr(recipient.split(";", 1)[-1].strip())[1].lower()
        if address:
            found.append(Failure(address, fields.get("status", ""), fields.get("diagnostic-code", "")))
    return found, None if found else "it names no failed recipient"


def current_phase(folder: Path) -> str:
    """The phase in force: the newest history file (bounces last until it changes)."""
    files = [p for p in (folder / "history").glob("*.yaml") if p.is_file()]
    return max(files, key=lambda p: (p.stat().st_mtime, p.name)).stem if files else ""


def read_all(folder: Path) -> dict[str, dict[str, str]]:
    path = folder / STATE
    data: Any = storage.read_yaml(path) if path.exists() else {}
    return {str(k): {str(a): str(w) for a, w in (v or {}).items()} for k, v in (data or {}).items()
            if isinstance(v, dict)}


def bounced(folder: Path) -> dict[str, str]:
    """Address -> why, for the addresses that bounced in the current phase."""
    return read_all(folder).get(current_phase(folder), {})


def record(folder: Path, found: list[Failure]) -> list[Failure]:
    """Flag the addresses for the current phase; the ones not flagged before."""
    data = read_all(folder)
    phase = current_phase(folder)
    flagged = data.setdefault(phase, {})
    new = [f for f in found if f.address not in flagged]
    for failure in new:
        flagged[failure.address] = " ".join(x for x in (failure.status, failure.diagnostic) if x) or "failed"
    if new:
        storage.write_yaml(folder / STATE, data)
    return new


def status_lines(folder: Path, roster: list[dict[str, Any]]) -> list[str]:
    """For `status`: each player whose address bounced in this phase."""
    flagged = bounced(folder)
    lines = []
    for entry in roster:
        address = str(entry.get("email") or "").lower()
        if address in flagged:
            lines.append(f"Mail to {entry.get('power')} <{address}> bounced this phase ({flagged[address]}); "
                         "the judge sends nothing more there until the next phase")
    return lines

