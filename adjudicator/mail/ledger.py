"""The ledger of mails already handled (mail/ingested.txt), one key a line.

A mail's key is its Message-ID together with a hash of its sender and its
body (`<id>#<hash>`), so a stranger who sends a mail with a player's future
Message-ID first cannot make the player's real mail be skipped: the two have
different keys. The same mail delivered twice (with other Received lines) has
the same key and is taken once. A mail with no plain Message-ID is keyed by a
hash of its bytes. Keys written by earlier versions (a Message-ID alone) still
count as handled. IMAP mails taken are also noted by their UID (see imap)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from adjudicator.store import storage

LEDGER = "ingested.txt"
FROM_RE = re.compile(rb"^from:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)


def split_head(raw: bytes) -> tuple[bytes, bytes]:
    """(the header block with LF line ends, the body as it is), without copying the whole mail."""
    at, size = raw.find(b"\n\n"), 2
    crlf = raw.find(b"\r\n\r\n", 0, at + 3 if at >= 0 else len(raw))    # only before the first LF LF
    if crlf >= 0:
        at, size = crlf, 4
    if at < 0:
        return raw.replace(b"\r\n", b"\n"), b""
    return raw[:at].replace(b"\r\n", b"\n"), raw[at + size:]


def header_block(raw: bytes) -> bytes:
    """The bytes before the first blank line."""
    return split_head(raw)[0]


def body_bytes(raw: bytes) -> bytes:
    return split_head(raw)[1].replace(b"\r\n", b"\n")


def mail_key(raw: bytes) -> str:
    """`<Message-ID>#<hash of From and body>`, or `<sha256:...>` for a mail without a plain Message-ID."""
    from adjudicator.mail.mailread import header_message_id
    mid = header_message_id(raw)
    if mid is None:
        return "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"
    found = FROM_RE.search(header_block(raw))
    sender = b" ".join(found.group(1).lower().split()) if found else b""
    return mid + "#" + hashlib.sha256(sender + b"\0" + body_bytes(raw)).hexdigest()[:32]


def read(folder: Path) -> set[str]:
    path = folder / "mail" / LEDGER
    return set(path.read_text(encoding="utf-8").split()) if path.exists() else set()


def is_seen(key: str, seen: set[str]) -> bool:
    """In the ledger, under this key or (an earlier version's entry) under its Message-ID alone."""
    return key in seen or key.split("#", 1)[0] in seen


def write(folder: Path, seen: set[str]) -> None:
    storage.atomic_write(folder / "mail" / LEDGER, "\n".join(sorted(seen)) + "\n")
