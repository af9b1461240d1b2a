"""Mails set aside unread, and mails too big to be read at all.

A mail over MAX_MESSAGE_BYTES is never held whole: from a mailbox file it is
read in chunks (hashed as it goes, only the first KEEP_BYTES kept), and from
IMAP only its first KEEP_BYTES are fetched (its size is known before). Such a
mail is an `Oversize`.

The quarantine (mail/quarantine/<sha256>.eml and .txt) keeps, for each mail
set aside, at most KEEP_BYTES of it (its headers first) and a text file whose
first line is the reason, then the mail's size, its hash and the headers a GM
needs to find it (From, Subject, Date, Message-ID). A game keeps at most
CAP_BYTES of quarantined mail; past that only the text file is written, so a
stranger cannot fill the disk."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from adjudicator.mail.mailread import MAX_MESSAGE_BYTES
from adjudicator.store import storage

KEEP_BYTES = 64 * 1024             # what the quarantine keeps of one mail
CAP_BYTES = 16 * 1024 * 1024       # what a game's quarantine keeps in all
CHUNK = 256 * 1024
SUMMARY_HEADERS = (b"from", b"to", b"subject", b"date", b"message-id", b"return-path")
FOLDER = Path("mail") / "quarantine"


class Reader(Protocol):
    def read(self, size: int, /) -> bytes: ...


@dataclass(frozen=True)
class Oversize:
    """A mail over the limit: its first KEEP_BYTES, its size, and the hash of what was read."""
    head: bytes
    size: int
    sha256: str
    hashed_all: bool               # False: the hash covers `head` only (IMAP fetched no more)

    @property
    def key(self) -> str:
        return f"<oversize:{self.sha256}>"

    def reason(self) -> str:
        return f"the message is {self.size} bytes, over the {MAX_MESSAGE_BYTES} byte limit; it was not read"


def read_bounded(handle: Reader) -> bytes | Oversize:
    """The mail from a file handle, or an Oversize when it is over the limit
    (then at most KEEP_BYTES is kept in memory, however big the mail)."""
    first = handle.read(MAX_MESSAGE_BYTES + 1)
    if len(first) <= MAX_MESSAGE_BYTES:
        return first
    digest = hashlib.sha256(first)
    size = len(first)
    while chunk := handle.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
    return Oversize(first[:KEEP_BYTES], size, digest.hexdigest(), True)


def read_file_bounded(path: Path) -> bytes | Oversize:
    with path.open("rb") as handle:
        return read_bounded(handle)


def summary(head: bytes) -> list[str]:
    """The headers a GM needs to find the mail, one printable line each."""
    lines = []
    for line in head.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].split(b"\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() in SUMMARY_HEADERS:
            text = value.decode("ascii", "replace").strip()
            lines.append(f"{name.decode('ascii', 'replace').strip()}: "
                         + "".join(c if c.isprintable() else " " for c in text)[:200])
    return lines


def used_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in (folder / FOLDER).glob("*.eml") if p.is_file())


def keep(folder: Path, mail: bytes | Oversize, reason: str) -> Path:
    """Set a mail aside: mail/quarantine/<sha256>.eml (at most KEEP_BYTES,
    while the game's quarantine is under CAP_BYTES) and <sha256>.txt."""
    if isinstance(mail, Oversize):
        head, size, name = mail.head, mail.size, mail.sha256
        hashed = "sha256 of the whole mail" if mail.hashed_all else f"sha256 of its first {len(head)} bytes"
    else:
        head, size, name = mail[:KEEP_BYTES], len(mail), hashlib.sha256(mail).hexdigest()
        hashed = "sha256 of the whole mail"
    target = folder / FOLDER / f"{name}.eml"
    kept = not target.exists() and used_bytes(folder) + len(head) <= CAP_BYTES
    if kept:
        storage.atomic_write(target, head)
    note = [one_line(reason), f"size: {size} bytes; {hashed}: {name}",
            f"kept: the first {len(head)} bytes in {target.name}" if kept or target.exists() else
            f"kept: nothing more (the quarantine holds its limit of {CAP_BYTES} bytes)", *summary(head)]
    storage.atomic_write(target.with_suffix(".txt"), "\n".join(note) + "\n")
    return target if target.exists() else target.with_suffix(".txt")


def one_line(text: str, limit: int = 200) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:limit]
