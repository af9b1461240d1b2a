"""Reading players' mails safely: the mailbox formats, decoding one raw mail
into a `Letter` of parsed, printable values (or `Quarantined` with a one-line
reason), and sorting a body's lines into the password, a `phase:` statement,
the content and what a person adds around it (greetings, sign-offs, quoted
text, signatures). Nothing here knows a game; `ingest` decides what the
content means.

Headers are taken raw, never through the header classes, which raise on some
input; a body is decoded strictly in its declared charset."""

from __future__ import annotations

import codecs
import hashlib
import mailbox
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from difflib import SequenceMatcher
from email import policy
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.errors import AdjudicatorError
from adjudicator.store.names import is_address

if TYPE_CHECKING:
    from adjudicator.mail.quarantine import Oversize

MAX_MESSAGE_BYTES = 1_000_000      # larger: quarantined unread
MAX_LINE_CHARS = 1000              # a longer body line: refused with a reply
MAX_REFERENCES = 20                # message ids kept from a mail's References, the newest
PASSWORD_RE = re.compile(r"^\s*password\s*:\s*(.*?)\s*$", re.IGNORECASE)
NEW_PASSWORD_RE = re.compile(r"^\s*new[\s_-]*password\s*:\s*(.*?)\s*$", re.IGNORECASE)
PHASE_RE = re.compile(r"^\s*phase\s*:\s*(\S.*?)\s*$", re.IGNORECASE)
MSG_ID = rb"<[!-;=?-~]{1,250}>"
MESSAGE_ID_RE = re.compile(rb"^message-id:[ \t]*(?:\n[ \t]+)?(" + MSG_ID + rb")[ \t]*$", re.IGNORECASE | re.MULTILINE)
MSG_ID_RE = re.compile(MSG_ID.decode("ascii"))
REPLY_PREFIX_RE = re.compile(r"^\s*(?:(?:re|aw|sv|fwd?)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)
GREETING_RE = re.compile(r"^(?:hi|hello|hey|hiya|dear|greetings|howdy|good (?:morning|afternoon|evening|day))\b"
                         r"[^:]{0,60}$", re.IGNORECASE)
SIGN_OFF_RE = re.compile(r"^(?:thanks|thank you|many thanks|thx|ty|cheers|best|regards|best regards|kind regards|"
                         r"warm regards|best wishes|all the best|yours|yours truly|sincerely|bye|see you|"
                         r"sent from my)\b[^:]{0,40}$", re.IGNORECASE)
WROTE_RE = re.compile(r"^\s*on\b.{0,200}\bwrote:\s*$", re.IGNORECASE)
CUT_RE = re.compile(r"^\s*(?:--|-- |-{2,}\s*(?:original|forwarded) message\s*-{2,}|_{10,})\s*$", re.IGNORECASE)
REMARK_RE = re.compile(r"^(?:here are|here's|these are|my orders|orders)\b[^-]{0,60}$", re.IGNORECASE)
# Words that mean "password" to a person: a line led by one is never echoed or stored.
PASSWORD_WORDS = {"pw", "pwd", "pword", "pass", "passwd", "passwrd", "passcode", "passphrase", "passw", "pswd",
                  "psw", "pasword", "paswd", "password", "passwort", "passe", "mdp", "secret"}


class Quarantined(Exception):
    """A message that cannot be read safely; the text is the one-line reason."""


def one_line(text: str, limit: int = 200) -> str:
    """Printable text on one line: control characters and line breaks become spaces."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:limit]


# --- the mailbox ------------------------------------------------------------------
def read_mailbox(path: Path) -> list[bytes | Oversize]:
    """The raw mails in `path`, in mailbox order: an mbox file, a Maildir (a folder
    with cur/ or new/), one .eml file, or a folder of .eml files (by name). A
    mail over MAX_MESSAGE_BYTES is never held whole (see mail.quarantine)."""
    from adjudicator.mail.quarantine import read_file_bounded
    if not path.exists():
        raise AdjudicatorError("mailbox not found", file=str(path),
                               hint="give an mbox file, a Maildir, an .eml file, a folder of .eml files "
                                    "or imap://user@host:port/INBOX")
    try:
        if path.is_dir():
            if (path / "cur").is_dir() or (path / "new").is_dir():
                return _read_box(mailbox.Maildir(str(path), factory=None, create=False), ordered=True)
            return [read_file_bounded(p) for p in sorted(path.glob("*.eml")) if p.is_file()]
        if path.stat().st_size == 0:
            return []
        with path.open("rb") as handle:
            head = handle.read(5)
        if head == b"From ":
            return _read_box(mailbox.mbox(str(path), create=False), ordered=False)
        return [read_file_bounded(path)]
    except OSError as exc:
        raise AdjudicatorError(f"cannot read the mailbox: {exc.strerror or exc}", file=str(path)) from None


def _read_box(box: mailbox.Mailbox[Any], ordered: bool) -> list[bytes | Oversize]:
    from adjudicator.mail.quarantine import read_bounded
    try:
        keys = sorted(box.keys()) if ordered else list(box.keys())
        mails = []
        for key in keys:
            with box.get_file(key) as handle:
                mails.append(read_bounded(handle))
        return mails
    finally:
        box.close()


def header_message_id(head: bytes) -> str | None:
    """The plain Message-ID in a mail's header block, or None."""
    from adjudicator.mail.ledger import header_block  # without copying a long body
    match = MESSAGE_ID_RE.search(header_block(head))
    return match.group(1).decode("ascii") if match else None


def message_key(raw: bytes) -> str:
    """The Message-ID if it is a plain one, else a hash of the raw mail: safe for the ledger."""
    return header_message_id(raw) or "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"


# --- one mail ---------------------------------------------------------------------
@dataclass
class Letter:
    """What is used from one mail: every field parsed and safe to print or store."""
    key: str
    raw: bytes
    sender: str                      # one plain addr-spec
    date: datetime | None            # UTC; None if the mail has no Date
    date_problem: str | None
    subject: str                     # one printable line, reply prefixes removed
    body: str | None                 # None: no plain-text part
    references: list[str] = field(default_factory=list)   # the thread before it: plain message ids


def decode(raw: bytes, key: str) -> Letter:
    """Parse a raw mail; Quarantined if it cannot be read safely."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise Quarantined(f"the message is {len(raw)} bytes, over the {MAX_MESSAGE_BYTES} byte limit")
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    headers: dict[str, list[str]] = {}
    for name, value in msg.raw_items():
        headers.setdefault(name.lower(), []).append(str(value).replace("\r", "").replace("\n", ""))
    sender = sender_address(headers.get("from", []))
    date, date_problem = parse_date(headers.get("date", []))
    return Letter(key, raw, sender, date, date_problem, subject_text(headers.get("subject", [""])[0]),
                  body_text(msg), thread_ids(headers))


def thread_ids(headers: dict[str, list[str]]) -> list[str]:
    """The plain message ids of References (or In-Reply-To), the newest MAX_REFERENCES."""
    text = " ".join(headers.get("references") or headers.get("in-reply-to") or [])
    ids = [i for i in MSG_ID_RE.findall(text) if not i.startswith("<sha256:")]
    return list(dict.fromkeys(ids))[-MAX_REFERENCES:]


def sender_address(values: list[str]) -> str:
    if not values:
        raise Quarantined("no From header")
    if len(values) > 1:
        raise Quarantined("more than one From header")
    found = [addr for _, addr in getaddresses([values[0]]) if addr]
    if len(found) != 1 or not is_address(found[0]):
        raise Quarantined("the From header is not one plain address")
    return found[0]


def parse_date(values: list[str]) -> tuple[datetime | None, str | None]:
    """(the Date in UTC, None) or (None, why it cannot be used); (None, None) if there is none."""
    if not values:
        return None, None
    value = values[0].strip()
    if len(values) > 1 or not value.isprintable():
        return None, "the Date header cannot be read"
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None, "the Date header cannot be read"
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).astimezone(timezone.utc), None


def subject_text(raw: str) -> str:
    try:
        text = str(make_header(decode_header(raw)))
    except (LookupError, UnicodeError, ValueError, HeaderParseError):   # keep the raw text
        text = raw
    # '=?' would be read as an encoded word again when the reply is written.
    text = one_line(text.encode("utf-8", "replace").decode("utf-8"), 150).replace("=?", "= ?")
    return REPLY_PREFIX_RE.sub("", text)


def body_text(msg: EmailMessage) -> str | None:
    """The plain-text part, decoded strictly in its charset (utf-8 if none is given)."""
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return None
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        raise Quarantined("the text part cannot be decoded")
    declared = part.get_param("charset")
    charset = str(declared).strip().lower() if isinstance(declared, str) else "utf-8"
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):
        raise Quarantined(f"unknown charset {one_line(charset, 40)!r}") from None
    try:
        return payload.decode(charset)
    except (UnicodeError, LookupError, ValueError):   # LookupError: a bytes codec such as base64
        raise Quarantined(f"the text is not valid {one_line(charset, 40)}") from None


# --- the body's lines -------------------------------------------------------------------
@dataclass
class Body:
    password: str | None
    text: str                        # the content: removed lines are blank, so numbers still match
    ignored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    too_long: int | None = None      # number of the first line over MAX_LINE_CHARS
    phase: str | None = None         # what a 'phase: ...' line says, if there is one
    phase_lines: int = 0             # how many 'phase:' lines there were
    password_like: list[int] = field(default_factory=list)   # lines dropped as a misspelt password
    new_password: str | None = None  # what a 'new password: ...' line says (a change of password)


def is_password_like(line: str) -> bool:
    """A line a person meant as a password, however spelt ('pasword:', 'Pwd =', 'my password is x')."""
    words = re.findall(r"[^\W\d_]+", line.lower())[:3]
    return any(w in PASSWORD_WORDS or (len(w) >= 6 and w.startswith("pas"))
               or (len(w) >= 5 and SequenceMatcher(None, w, "password").ratio() >= 0.75) for w in words) \
        and len(line.split()) + line.count(":") + line.count("=") > 1


def split_lines(body: str, is_content: Callable[[str], bool],
                is_own: Callable[[str], bool] = lambda line: False) -> Body:
    """The password, the phase statement, the content and what was left out,
    line by line. `is_content` says when a line plainly belongs to the content
    (an order, a YAML entry), so that it is never taken for chatter; `is_own`
    when it is the game's own (a key of its choice, an order, a vote), so that
    it is never taken for a misspelt password (see mail/playerlines.py)."""
    result = Body(None, "")
    out: list[str] = []
    cut = signed = False
    quoted: list[int] = []            # [first, last] line of the current run of quoted lines
    last = 0                          # the last non-blank line
    body = body.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    for number, line in enumerate(body.split("\n"), start=1):
        out.append("")
        # Tabs and no-break or other Unicode spaces are spaces; any other unprintable character refuses the line.
        line = "".join(" " if c == "\t" or unicodedata.category(c) == "Zs" else c for c in line)
        if len(line) > MAX_LINE_CHARS and result.too_long is None:
            result.too_long = number
        if not line.strip():
            continue
        last, previous = number, last
        shown = one_line(line, 80)
        if not line.isprintable():
            result.problems.append(f"line {number}: holds control characters or a line separator; not used")
        elif cut or line.lstrip().startswith(">") or CUT_RE.match(line):
            cut = cut or CUT_RE.match(line) is not None
            quoted = quoted if quoted and quoted[1] == previous else [number, number]
            quoted[1] = number
            label = f"line {quoted[0]}" if quoted[0] == number else f"lines {quoted[0]}-{number}"
            if quoted[0] != number:
                result.ignored.pop()
            result.ignored.append(f"{label}: quoted text or signature")
        elif (match := NEW_PASSWORD_RE.match(line)) is not None:
            result.new_password = match.group(1) if result.new_password is None else result.new_password
            result.ignored.append(f"line {number}: new password (not shown)")
        elif (match := PASSWORD_RE.match(line)) is not None:
            result.password = match.group(1) if result.password is None else result.password
            result.ignored.append(f"line {number}: password (not shown)")
        elif is_password_like(line) and not is_own(line):
            result.password_like.append(number)
            result.problems.append(f"line {number}: looks like a password line but is not spelt "
                                   "'password: ...'; not used and not shown")
        elif (match := PHASE_RE.match(line)) is not None:
            result.phase = result.phase if result.phase is not None else one_line(match.group(1), 60)
            result.phase_lines += 1
        elif WROTE_RE.match(line):
            result.ignored.append(f"line {number}: {shown} (start of quoted text)")
        elif is_content(line):
            out[-1] = line
        elif signed or SIGN_OFF_RE.match(line.strip()):
            result.ignored.append(f"line {number}: {shown} ({'signature' if signed else 'sign-off'})")
            signed = True
        elif GREETING_RE.match(line.strip()) or REMARK_RE.match(line.strip()):
            result.ignored.append(f"line {number}: {shown} (not an order)")
        else:
            out[-1] = line
    result.text = "\n".join(out)
    return result
