"""Players' mails from an IMAP folder: `adjudicator ingest GAME imap://user@host:port/INBOX`.

imaps:// is TLS from the start; imap:// is plain unless STARTTLS is asked for
(then the server must offer it). The certificate is checked against the
system's trusted roots (SSL_CERT_FILE adds one). The password never appears on
the command line: the caller passes it (from ADJUDICATOR_IMAP_PASSWORD or a
prompt), and a URL holding one is refused.

Every mail in the folder not yet taken is fetched without marking it read
(BODY.PEEK), at most `limit` a run; `ingest` handles them like a mailbox
file's; then what was taken is marked \\Seen and noted in the ledger by its
UID (`imap:<uidvalidity>:<uid>`). Reading the folder in a mail client
therefore loses nothing: the ledger, not the \\Seen flag, decides what is
new. A mail's size (RFC822.SIZE) is asked before it is fetched: one over the
limit is never fetched whole, only its first quarantine.KEEP_BYTES, for the
quarantine. Every wait is bounded by the socket timeout."""

from __future__ import annotations

import hashlib
import imaplib
import ssl
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from adjudicator.errors import AdjudicatorError
from adjudicator.mail import ledger
from adjudicator.mail.mailread import MAX_MESSAGE_BYTES, header_message_id
from adjudicator.mail.quarantine import KEEP_BYTES, Oversize

if TYPE_CHECKING:                   # the intake is imported when mail is taken, not to read a mailbox
    from adjudicator.mail.ingest import IngestResult

MAX_FETCH = 500                    # mails taken in one run; the rest wait for the next
HEADER_BATCH = 500                 # Message-ID headers fetched per command
BODY_BATCH = 50                    # whole mails fetched per command
HEADER_KEY = b"BODY[HEADER.FIELDS (MESSAGE-ID)]"
HEAD_KEY = b"BODY[]<0>"


@dataclass(frozen=True)
class Mailbox:
    secure: bool                   # imaps://
    user: str
    host: str
    port: int
    folder: str

    def __str__(self) -> str:
        return f"{'imaps' if self.secure else 'imap'}://{self.user}@{self.host}:{self.port}/{self.folder}"


@dataclass
class Fetched:
    results: list[IngestResult] = field(default_factory=list)
    taken: int = 0                 # mails fetched and handled (and marked \Seen)
    left: int = 0                  # new mails left for the next run (over MAX_FETCH)


def is_imap(source: str) -> bool:
    return source.lower().startswith(("imap://", "imaps://"))


def parse_url(source: str) -> Mailbox:
    """imap[s]://user@host[:port][/folder]; the user may be an address (user@domain@host)."""
    try:
        parts = urlsplit(source)
        port = parts.port
    except ValueError as exc:
        raise AdjudicatorError(f"not an IMAP address: {source!r} ({exc})",
                               hint="e.g. imaps://judge@example.org@mail.example.org:993/INBOX") from None
    secure = parts.scheme.lower() == "imaps"
    if parts.password is not None:
        raise AdjudicatorError("the IMAP address holds a password",
                               hint="never put it on the command line: set ADJUDICATOR_IMAP_PASSWORD or "
                                    "let ingest prompt for it")
    if not parts.username or not parts.hostname or parts.query or parts.fragment:
        raise AdjudicatorError(f"not an IMAP address: {source!r}",
                               hint="e.g. imaps://judge@example.org@mail.example.org:993/INBOX")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    if not folder.isprintable():
        raise AdjudicatorError("the IMAP folder name holds control characters")
    return Mailbox(secure, unquote(parts.username), parts.hostname, port or (993 if secure else 143), folder)


def connect(box: Mailbox, password: str, *, starttls: bool = False, timeout: float = 30.0) -> Any:
    """A logged-in IMAPClient (closed again if the login fails)."""
    from imapclient import IMAPClient
    context = ssl.create_default_context()
    try:
        client = IMAPClient(box.host, port=box.port, ssl=box.secure, ssl_context=context, timeout=timeout)
    except (OSError, imaplib.IMAP4.error) as exc:
        raise failed(box, exc) from None
    try:
        if starttls and not box.secure:
            client.starttls(context)
        client.login(box.user, password)
    except BaseException as exc:
        try:
            client.shutdown()
        except OSError:
            pass
        if isinstance(exc, (OSError, imaplib.IMAP4.error)):
            raise failed(box, exc) from None
        raise
    return client


def failed(box: Mailbox, exc: BaseException) -> AdjudicatorError:
    from imapclient.exceptions import LoginError
    if isinstance(exc, LoginError):
        return AdjudicatorError(f"the IMAP server {box.host}:{box.port} refused the login for {box.user!r}",
                                hint="check the user in the address and ADJUDICATOR_IMAP_PASSWORD")
    if isinstance(exc, ssl.SSLError):
        return AdjudicatorError(f"TLS with {box.host}:{box.port} failed: {exc}",
                                hint="imaps:// needs a TLS port (often 993); imap:// with --imap-starttls "
                                     "a server that offers STARTTLS")
    return AdjudicatorError(f"cannot read {box}: {exc}", hint="check the address, the port and the folder")


def uid_key(validity: int, uid: int) -> str:
    return f"imap:{validity}:{uid}"


def new_uids(client: Any, seen: set[str], validity: int) -> tuple[list[int], dict[int, int]]:
    """The folder's mails not taken yet, oldest first, and each one's size."""
    uids = sorted(int(u) for u in client.search(["ALL"]))
    fresh, sizes = [], {}
    for start in range(0, len(uids), HEADER_BATCH):
        batch = [uid for uid in uids[start:start + HEADER_BATCH] if uid_key(validity, uid) not in seen]
        if not batch:
            continue
        heads = client.fetch(batch, [b"RFC822.SIZE", b"BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
        for uid in batch:
            got = heads.get(uid, {})
            head = got.get(HEADER_KEY)
            mid = header_message_id(head) if isinstance(head, bytes) else None
            if mid is None or mid not in seen:     # a Message-ID alone: an earlier version's ledger entry
                fresh.append(uid)
                sizes[uid] = int(got.get(b"RFC822.SIZE") or 0)
    return fresh, sizes


def fetch_bodies(client: Any, uids: list[int], sizes: dict[int, int]) -> list[tuple[int, bytes | Oversize]]:
    """Each mail whole, or, over the limit, its first KEEP_BYTES only."""
    small = [uid for uid in uids if sizes.get(uid, 0) <= MAX_MESSAGE_BYTES]
    got_all: dict[int, bytes | Oversize] = {}
    for start in range(0, len(small), BODY_BATCH):
        batch = small[start:start + BODY_BATCH]
        got = client.fetch(batch, [b"BODY.PEEK[]"])
        got_all.update({uid: got[uid][b"BODY[]"] for uid in batch if isinstance(got.get(uid, {}).get(b"BODY[]"), bytes)})
    for uid in uids:
        if uid not in got_all and sizes.get(uid, 0) > MAX_MESSAGE_BYTES:
            part = client.fetch([uid], [f"BODY.PEEK[]<0.{KEEP_BYTES}>".encode("ascii")]).get(uid, {})
            head = next((v for k, v in part.items() if k.startswith(b"BODY[]") and isinstance(v, bytes)), b"")
            got_all[uid] = Oversize(head, sizes[uid], hashlib.sha256(head).hexdigest(), False)
    return [(uid, got_all[uid]) for uid in uids if uid in got_all]


def ingest_imap(folder: Path, box: Mailbox, password: str, *, starttls: bool = False,
                now: datetime | None = None, timeout: float = 30.0, limit: int = MAX_FETCH) -> Fetched:
    """Take the orders mailed to an IMAP folder into the game; mark what was taken \\Seen."""
    from adjudicator.mail.ingest import handle, make_context
    meta, ctx = make_context(folder)          # the game's own faults first, before any connection
    from imapclient import SEEN
    client = connect(box, password, starttls=starttls, timeout=timeout)
    try:
        selected = client.select_folder(box.folder)
        validity = int(selected.get(b"UIDVALIDITY") or 0)
        fresh, sizes = new_uids(client, ledger.read(folder), validity)
        take = fresh[:limit]
        mails = fetch_bodies(client, take, sizes)
        results = handle(meta, ctx, [mail for _, mail in mails], now or datetime.now(timezone.utc))
        # What `handle` put in the ledger (not a mail held unread) is noted by UID and marked \\Seen.
        seen = ledger.read(folder)
        done = [uid for uid, mail in mails
                if ledger.is_seen(mail.key if isinstance(mail, Oversize) else ledger.mail_key(mail), seen)]
        if done:
            ledger.write(folder, seen | {uid_key(validity, uid) for uid in done})
            client.add_flags(done, [SEEN])
        return Fetched(results, len(done), len(fresh) - len(take))
    except (OSError, imaplib.IMAP4.error) as exc:
        raise failed(box, exc) from None
    finally:
        try:
            client.logout()
        except (OSError, imaplib.IMAP4.error):
            pass
