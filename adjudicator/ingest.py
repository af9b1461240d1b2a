"""Order intake by email. Read the mails in MAILBOX (an mbox file, a Maildir, one
.eml file, or a plain folder of .eml files) and handle each one, oldest Date
first, so a later message replaces an earlier one. Every mail ends one of three
ways:

  * stored: orders/<phase>/<power>.txt, with a reply;
  * refused: nothing stored, a reply to the sender says why;
  * quarantined: the mail cannot be read safely (no usable From address, an
    unknown charset, a body that is not valid text in its charset, over
    MAX_MESSAGE_BYTES, or any other decoding fault). Its raw bytes go to
    mail/quarantine/<sha256>.eml with the one-line reason beside it in
    <sha256>.txt; `ingest` prints the reason for the GM. No reply is sent:
    there is no trustworthy address to send it to.

Every handled mail goes in the ledger (mail/ingested.txt, by Message-ID, or a
hash of the raw mail if it has none), so a growing mailbox can be ingested
again: mails already in the ledger are skipped without a reply, and a
Message-ID that occurs twice in one mailbox is taken once (the first).

A mail is refused, with a reply, if:
  * its sender is not on the roster in game.yaml;
  * its Date header is present but cannot be read, or is before the current
    phase opened (`phase_opened`: the time its history file was written). The
    reply names the current phase. The Subject is not used to tell the phase:
    players reply to the results mail, whose subject names the previous phase;
  * a body line is longer than MAX_LINE_CHARS;
  * it has no correctly spelt 'password: ...' line, or the password is wrong;
  * a line orders for another power (a heading or prefix naming it, or an
    order for a unit that is not the sender's), or there are no orders.

Header text never reaches an orders file: the stored file starts with
'# from <address>, <Date as ISO UTC or "no date">', and its lines come from
the body split on line feeds only, with every line holding another control
character or line separator dropped (and reported). Lines that are plainly
not orders (greetings, sign-offs and what follows them, 'On ... wrote:',
quoted text, signatures after '-- ', forwarded-message markers) are ignored and
listed as ignored. Password lines, and lines that look like a misspelt one
('pasword:', 'pwd:', 'Password = ...'), are never echoed or stored; only a
'password:' line logs in. A good login upgrades an old scrypt or PBKDF2 hash
to argon2id."""

from __future__ import annotations

import codecs
import hashlib
import mailbox
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from difflib import SequenceMatcher
from email import policy
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import Any

from adjudicator import storage
from adjudicator.checking import check_lines
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.gamefolder import load_current
from adjudicator.mail import gm_address, message_domain
from adjudicator.names import check_name, inside
from adjudicator.orders import Build, Order, Waive
from adjudicator.parser import ParsedLine
from adjudicator.players import (
    is_address,
    needs_rehash,
    roster,
    upgrade_hash,
    verify,
)
from adjudicator.state import GameState
from adjudicator.turn import parser_for
from adjudicator.validation import bind_unit
from adjudicator.variant import Variant

LEDGER = "ingested.txt"            # keys of mails already handled, one a line
MAX_MESSAGE_BYTES = 1_000_000      # larger: quarantined unread
MAX_LINE_CHARS = 1000              # a longer body line: refused with a reply
PASSWORD_RE = re.compile(r"^\s*password\s*:\s*(.*?)\s*$", re.IGNORECASE)
MESSAGE_ID_RE = re.compile(rb"^message-id:[ \t]*(?:\n[ \t]+)?(<[!-;=?-~]{1,250}>)[ \t]*$", re.IGNORECASE | re.MULTILINE)
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
ORDER_WORDS = {"a", "f", "army", "fleet", "build", "b", "disband", "d", "retreat", "r", "remove", "waive",
               "-", "->", "=>", "s", "h", "c", "support", "supports", "hold", "holds", "convoy", "convoys"}


@dataclass
class IngestResult:
    number: int                      # position in Date order, 1-based
    sender: str
    power: str | None
    accepted: bool
    reason: str | None = None        # why it was refused or quarantined (one line for quarantine)
    stored: Path | None = None
    reply: Path | None = None
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    quarantined: Path | None = None

    @property
    def status(self) -> str:
        return "stored" if self.accepted else "quarantined" if self.quarantined else "refused"


class Rejected(Exception):
    """A message that must not store anything; the text goes in the reply."""


class Quarantined(Exception):
    """A message that cannot be read safely; the text is the one-line reason."""


def one_line(text: str, limit: int = 200) -> str:
    """Printable text on one line: control characters and line breaks become spaces."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:limit]


# --- reading the mailbox --------------------------------------------------------
def read_mailbox(path: Path) -> list[bytes]:
    """The raw mails in `path`, in mailbox order: an mbox file, a Maildir (a folder
    with cur/ or new/), one .eml file, or a folder of .eml files (by name)."""
    if not path.exists():
        raise AdjudicatorError("mailbox not found", file=str(path),
                               hint="give an mbox file, a Maildir, an .eml file or a folder of .eml files")
    try:
        if path.is_dir():
            if (path / "cur").is_dir() or (path / "new").is_dir():
                return _read_box(mailbox.Maildir(str(path), factory=None, create=False), ordered=True)
            return [p.read_bytes() for p in sorted(path.glob("*.eml")) if p.is_file()]
        if path.stat().st_size == 0:
            return []
        with path.open("rb") as handle:
            head = handle.read(5)
        if head == b"From ":
            return _read_box(mailbox.mbox(str(path), create=False), ordered=False)
        return [path.read_bytes()]
    except OSError as exc:
        raise AdjudicatorError(f"cannot read the mailbox: {exc.strerror or exc}", file=str(path)) from None


def _read_box(box: mailbox.Mailbox[Any], ordered: bool) -> list[bytes]:
    try:
        keys = sorted(box.keys()) if ordered else list(box.keys())
        return [box.get_bytes(key) for key in keys]
    finally:
        box.close()


def message_key(raw: bytes) -> str:
    """The Message-ID if it is a plain one, else a hash of the raw mail: safe for the ledger."""
    head = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    match = MESSAGE_ID_RE.search(head)
    if match:
        return match.group(1).decode("ascii")
    return "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"


# --- decoding one mail ------------------------------------------------------------
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


def decode(raw: bytes, key: str) -> Letter:
    """Parse a raw mail; Quarantined if it cannot be read safely. Headers are
    taken raw (never through the header classes, which raise on some input)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise Quarantined(f"the message is {len(raw)} bytes, over the {MAX_MESSAGE_BYTES} byte limit")
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    headers: dict[str, list[str]] = {}
    for name, value in msg.raw_items():
        headers.setdefault(name.lower(), []).append(str(value).replace("\r", "").replace("\n", ""))
    sender = sender_address(headers.get("from", []))
    date, date_problem = parse_date(headers.get("date", []))
    return Letter(key, raw, sender, date, date_problem, subject_text(headers.get("subject", [""])[0]),
                  body_text(msg))


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


# --- the body -------------------------------------------------------------------------
@dataclass
class Body:
    password: str | None
    text: str                        # the orders: removed lines are blank, so numbers still match
    ignored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    too_long: int | None = None      # number of the first line over MAX_LINE_CHARS


def is_password_like(line: str) -> bool:
    """A line a person meant as a password, however spelt ('pasword:', 'Pwd =', 'my password is x')."""
    words = re.findall(r"[^\W\d_]+", line.lower())[:3]
    return any(w in PASSWORD_WORDS or (len(w) >= 6 and w.startswith("pas"))
               or (len(w) >= 5 and SequenceMatcher(None, w, "password").ratio() >= 0.75) for w in words) \
        and len(line.split()) + line.count(":") + line.count("=") > 1


def looks_like_order(line: str, variant: Variant) -> bool:
    words = re.split(r"[\s,]+", line.strip().lower())
    if words[0] in ORDER_WORDS and len(words) > 1 or any(w in ORDER_WORDS - {"a", "b", "d", "r", "f"} for w in words):
        return True
    head = re.match(r"^\s*([^:]+):", line)
    return bool(head and variant.power_lookup(head.group(1)) is not None) or \
        variant.power_lookup(line.strip()) is not None or re.search(r"\d\s*dp\b", line, re.IGNORECASE) is not None


def split_body(body: str, variant: Variant) -> Body:
    """The password, the orders text and what was left out, line by line."""
    password: str | None = None
    out: list[str] = []
    result = Body(None, "")
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
        elif (match := PASSWORD_RE.match(line)) is not None:
            password = match.group(1) if password is None else password
            result.ignored.append(f"line {number}: password (not shown)")
        elif is_password_like(line):
            result.problems.append(f"line {number}: looks like a password line but is not spelt "
                                   "'password: ...'; not used and not shown")
        elif WROTE_RE.match(line):
            result.ignored.append(f"line {number}: {shown} (start of quoted text)")
        elif looks_like_order(line, variant):
            out[-1] = line
        elif signed or SIGN_OFF_RE.match(line.strip()):
            result.ignored.append(f"line {number}: {shown} ({'signature' if signed else 'sign-off'})")
            signed = True
        elif GREETING_RE.match(line.strip()) or REMARK_RE.match(line.strip()):
            result.ignored.append(f"line {number}: {shown} (not an order)")
        else:
            out[-1] = line
    result.password, result.text = password, "\n".join(out)
    return result


# --- checking ---------------------------------------------------------------------
def unit_owner(state: GameState, order: Order) -> str | None:
    """Who owns the unit an order is for (None: no such unit, or not unit-bound)."""
    if isinstance(order, (Build, Waive)):
        return None
    pool = {p: d.unit for p, d in state.dislodged.items()} if state.phase.kind == "retreat" else state.units
    unit = pool.get(order.province)
    return unit.power if unit is not None else None


def foreign_lines(variant: Variant, state: GameState, lines: list[ParsedLine], power: str) -> list[str]:
    """Lines that order for another power: reasons to reject the whole message."""
    problems = []
    for line in lines:
        if line.power is not None and line.power != power:
            problems.append(f"line {line.number}: {line.text}: this is for {variant.power_name(line.power)}, "
                            f"not {variant.power_name(power)}")
            continue
        order = line.order
        if line.error is not None or not isinstance(order, Order) or "dp" in line.extra:
            continue   # DP lines order minor powers' units by design
        owner = unit_owner(state, order)
        if owner is not None and owner != power:
            try:
                bind_unit(state, order, dislodged=state.phase.kind == "retreat")
                why = f"the unit in {order.province} belongs to {variant.power_name(owner)}"
            except OrderError as exc:
                why = exc.message
            problems.append(f"line {line.number}: {line.text}: {why}")
    return problems


def stored_text(text: str, bad: set[int], sender: str, date: datetime | None) -> str:
    """The orders file: a comment made of parsed values only, then the body's lines."""
    when = date.strftime("%Y-%m-%dT%H:%M:%SZ") if date else "no date"
    out = [f"# from {sender}, {when}"]
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            out.append(f"# not accepted: {line.strip()}" if number in bad else line.rstrip())
    return "\n".join(out) + "\n"


def phase_opened(folder: Path) -> datetime | None:
    """When the current phase opened: the newest mtime in history/ (its files are written once)."""
    times = [p.stat().st_mtime for p in (folder / "history").glob("*.yaml") if p.is_file()]
    return datetime.fromtimestamp(max(times), timezone.utc) if times else None


# --- one mail -----------------------------------------------------------------------
@dataclass
class Verdict:
    power: str | None
    body: str                        # the reply text
    stored: str | None = None        # the orders file, if accepted
    reason: str | None = None
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    login: str | None = None         # the password, when its hash should be upgraded


@dataclass
class Context:
    folder: Path
    game: str
    variant: Variant
    state: GameState
    opened: datetime | None
    players: dict[str, dict[str, Any]]    # lower-case address -> roster entry, read once


def judge(ctx: Context, letter: Letter) -> Verdict:
    """What to do with one decoded mail. Reads only; `ingest` does the writing."""
    phase, variant = ctx.state.phase, ctx.variant
    verdict = Verdict(None, "")
    body: Body | None = None
    try:
        player = ctx.players.get(letter.sender.lower())
        if player is None:
            raise Rejected(f"{letter.sender} is not a player in {ctx.game}; "
                           "send your orders from the address the GM has on file")
        verdict.power = power = check_name(str(player["power"]), "power")
        if letter.date_problem:
            raise Rejected(letter.date_problem + "; send your orders again from an ordinary mail program")
        if letter.date is not None and ctx.opened is not None and letter.date < ctx.opened:
            raise Rejected(f"this message is dated {letter.date:%Y-%m-%d %H:%M} UTC, before {phase} opened "
                           f"({ctx.opened:%Y-%m-%d %H:%M} UTC); orders for an earlier phase are not taken. "
                           f"The game is now at {phase}: send orders for {phase}")
        if letter.body is None:
            raise Rejected("the message has no plain-text part; send your orders as plain text")
        body = split_body(letter.body, variant)
        verdict.ignored = body.ignored
        if body.too_long is not None:
            raise Rejected(f"line {body.too_long} is longer than {MAX_LINE_CHARS} characters")
        if body.password is None:
            raise Rejected("no password line; put a line 'password: <your password>' in your message")
        if not verify(player, body.password):
            raise Rejected("wrong password; nothing was stored (ask the GM if you have lost it)")
        if needs_rehash(player):
            verdict.login = body.password
        parsed = parser_for(variant).parse_text(body.text, power)
        foreign = foreign_lines(variant, ctx.state, parsed, power)
        if foreign:
            raise Rejected("these lines order for another power, so none of your orders were stored:\n  "
                           + "\n  ".join(foreign))
        if not parsed:
            raise Rejected("the message has no orders")
        echo, errors, bad = check_lines(variant, ctx.state, body.text, power)
        errors += body.problems
        verdict.stored = stored_text(body.text, bad, letter.sender, letter.date)
        verdict.errors = errors
        heading = (f"Orders received for {variant.power_name(power)}, {phase}. They replace any "
                   f"orders you sent before.")
        if errors:
            heading += (f"\n{len(errors)} line(s) have problems; lines marked 'error' were not stored "
                        "(that unit holds unless you send corrected orders).")
        verdict.body = heading + "\n\n" + "\n".join(echo + body.problems) + "\n"
    except Rejected as exc:
        verdict.reason = str(exc)
        verdict.body = f"Your message was not accepted for {ctx.game}, {phase}: {exc}\n\nNothing was stored.\n"
        if body is not None and body.problems:
            verdict.body += "\n" + "\n".join(body.problems) + "\n"
    if verdict.ignored:
        verdict.body += "\nIgnored (not orders):\n" + "\n".join("  " + i for i in verdict.ignored) + "\n"
    secret = body.password if body is not None else None
    if secret and len(secret) >= 4:      # never echo or store the password, wherever it turns up
        verdict.body = verdict.body.replace(secret, "********")
        verdict.stored = verdict.stored.replace(secret, "********") if verdict.stored else None
        verdict.reason = verdict.reason.replace(secret, "********") if verdict.reason else None
    return verdict


# --- replies ----------------------------------------------------------------------
def reply_bytes(meta: dict[str, Any], letter: Letter, game: str, body: str) -> bytes:
    """The reply as bytes. The email package still has corners where a header it
    was given cannot be written out; then the subject falls back to the game's."""
    try:
        return reply_message(meta, letter, game, body, letter.subject).as_bytes(policy=policy.default)
    except (ValueError, LookupError, UnicodeError, IndexError):
        return reply_message(meta, letter, game, body, "").as_bytes(policy=policy.default)


def reply_message(meta: dict[str, Any], letter: Letter, game: str, body: str, subject: str) -> EmailMessage:
    reply = EmailMessage()
    reply["From"] = gm_address(meta)
    reply["To"] = letter.sender
    reply["Subject"] = "Re: " + (subject or f"{game}: orders")
    reply["Date"] = format_datetime(datetime.now(timezone.utc))
    reply["Message-ID"] = "<reply-" + hashlib.sha256(letter.key.encode()).hexdigest()[:32] + \
                          "@" + message_domain(meta) + ">"
    if not letter.key.startswith("<sha256:"):
        reply["In-Reply-To"] = letter.key
        reply["References"] = letter.key
    reply.set_content(body, cte="quoted-printable")
    return reply


def next_reply_number(replies: Path) -> int:
    numbers = [int(p.name.split("-", 1)[0]) for p in replies.glob("*.eml") if p.name.split("-", 1)[0].isdigit()]
    return max(numbers, default=0) + 1


def quarantine(folder: Path, raw: bytes, reason: str) -> Path:
    """The raw mail in mail/quarantine/<sha256>.eml and its reason in <sha256>.txt."""
    name = hashlib.sha256(raw).hexdigest()
    target = folder / "mail" / "quarantine" / f"{name}.eml"
    storage.atomic_write(target, raw)
    storage.atomic_write(target.with_suffix(".txt"), one_line(reason) + "\n")
    return target


# --- the whole run ------------------------------------------------------------------
def ingest(folder: Path, mailbox_path: Path) -> list[IngestResult]:
    meta, variant, state, _ = load_current(folder)
    if state.result:
        raise AdjudicatorError("the game is over; no orders are taken", file=str(folder))
    game = one_line(str(meta.get("name") or folder.name), 80)
    gm_address(meta)                  # a bad gm_email is the GM's error, before any mail is touched
    # The roster is read once, before any mail: a broken game.yaml is the GM's error, not a mail's.
    entries = {str(p.get("email") or "").lower(): p for p in roster(folder) if p.get("email")}
    ctx = Context(folder, game, variant, state, phase_opened(folder), entries)
    ledger_path = folder / "mail" / LEDGER
    seen = set(ledger_path.read_text(encoding="utf-8").split()) if ledger_path.exists() else set()
    fresh: dict[str, bytes] = {}
    for raw in read_mailbox(mailbox_path):
        key = message_key(raw)
        if key not in seen and key not in fresh:
            fresh[key] = raw          # a Message-ID twice in one mailbox: the first is taken
    decoded: list[tuple[datetime, str, Letter | str]] = []
    for key, raw in fresh.items():
        try:
            item: Letter | str = decode(raw, key)
        except Quarantined as exc:
            item = str(exc)
        except Exception as exc:  # noqa: BLE001 - any decoding fault sets the mail aside, never a traceback
            item = f"cannot decode the message ({type(exc).__name__})"
        when = item.date if isinstance(item, Letter) and item.date else datetime.min.replace(tzinfo=timezone.utc)
        decoded.append((when, key, item))
    decoded.sort(key=lambda entry: entry[0])   # stable: equal dates keep mailbox order
    replies = folder / "mail" / "replies"
    results: list[IngestResult] = []
    for number, (_, key, item) in enumerate(decoded, start=1):
        if isinstance(item, Letter):
            try:
                verdict: Verdict | str = judge(ctx, item)
            except AdjudicatorError as exc:
                verdict = f"cannot check the message: {exc}"
            except Exception as exc:  # noqa: BLE001 - a fault in one mail must not stop the others
                verdict = f"cannot check the message ({type(exc).__name__})"
        else:
            verdict = item
        if isinstance(verdict, str):
            result = IngestResult(number, item.sender if isinstance(item, Letter) else "", None, False,
                                  reason=one_line(verdict))
            result.quarantined = quarantine(folder, fresh[key], verdict)
        else:
            assert isinstance(item, Letter)
            result = apply(ctx, meta, item, verdict, number, replies)
        seen.add(key)
        # Ledger after each message: an interrupted run does not handle a message twice.
        storage.atomic_write(ledger_path, "\n".join(sorted(seen)) + "\n")
        results.append(result)
    return results


def apply(ctx: Context, meta: dict[str, Any], letter: Letter, verdict: Verdict, number: int,
          replies: Path) -> IngestResult:
    """Write what `judge` decided: the orders file, a hash upgrade, the reply."""
    result = IngestResult(number, letter.sender, verdict.power, verdict.stored is not None,
                          reason=verdict.reason, errors=verdict.errors, ignored=verdict.ignored)
    if verdict.stored is not None and verdict.power is not None:
        target = inside(ctx.folder, ctx.folder / "orders" / ctx.state.phase.slug / f"{verdict.power}.txt")
        storage.atomic_write(target, verdict.stored)
        result.stored = target
    if verdict.login is not None and verdict.power is not None:     # a good login, stored or not
        upgrade_hash(ctx.folder, verdict.power, verdict.login)
    reply = reply_bytes(meta, letter, ctx.game, verdict.body)
    path = inside(ctx.folder, replies / f"{next_reply_number(replies):04d}-{verdict.power or 'unknown'}.eml")
    storage.atomic_write(path, reply)
    result.reply = path
    return result
