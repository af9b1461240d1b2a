"""Sending mail over SMTP: results mails and replies to players.

`send_files` is the one door every mail of the judge passes: it sends .eml
files as they were written, with what every outgoing mail carries added in
front (mail.manners: Auto-Submitted and X-Loop; mail.dkimsign: a DKIM
signature when the GM configured a key), and records each accepted one's
Message-ID in mail/sent.txt, so running it again sends only what has not gone
yet; two files with one Message-ID go once. A mail to an address that bounced
in the current phase is held (mail.bounces), not sent. Every wait is bounded
by the connection's timeout. TLS (STARTTLS) verifies the server's
certificate against the system's trusted roots (SSL_CERT_FILE adds one)."""

from __future__ import annotations

import re
import smtplib
import ssl
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.store import storage

SENT = "sent.txt"                  # Message-IDs already sent, one a line, in mail/


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    starttls: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    timeout: float = 30.0


@dataclass
class Sent:
    sent: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)     # already sent before
    refused: dict[str, str] = field(default_factory=dict)  # address -> the server's answer
    held: dict[str, str] = field(default_factory=dict)     # address -> why nothing goes there now


def parse_hostport(text: str, option: str = "--smtp") -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise AdjudicatorError(f"{option} {text!r} should be HOST:PORT", hint=f"e.g. {option} mail.example.org:587")
    return host.strip("[]"), int(port)


def connect(server: Server) -> smtplib.SMTP:
    smtp = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
    try:
        smtp.ehlo()
        if server.starttls:
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        if server.user:
            smtp.login(server.user, server.password or "")
    except BaseException:
        smtp.close()
        raise
    return smtp


def _problem(code: int, text: bytes | str) -> str:
    return f"{code} {text.decode('utf-8', 'replace') if isinstance(text, bytes) else text}"


def _failed(server: Server, exc: Exception) -> AdjudicatorError:
    if isinstance(exc, smtplib.SMTPAuthenticationError):
        return AdjudicatorError(f"the SMTP server {server.host}:{server.port} refused the login for {server.user!r}",
                                hint="check --user and ADJUDICATOR_SMTP_PASSWORD")
    return AdjudicatorError(f"cannot send through {server.host}:{server.port}: {exc}",
                            hint="check --smtp HOST:PORT and --starttls; the .eml files are in mail/")


def send_messages(messages: list[EmailMessage], server: Server) -> dict[str, str]:
    """Send every message over one connection. Returns {address: problem}
    for recipients the server refused; an empty dict means all were accepted."""
    refused: dict[str, str] = {}
    try:
        with connect(server) as smtp:
            for msg in messages:
                bad: dict[str, tuple[int, bytes | str]]
                try:
                    bad = dict(smtp.send_message(msg))
                except smtplib.SMTPRecipientsRefused as exc:
                    bad = dict(exc.recipients)
                except smtplib.SMTPDataError as exc:
                    bad = {str(msg["To"]): (exc.smtp_code, exc.smtp_error)}
                refused.update({addr: _problem(code, text) for addr, (code, text) in bad.items()})
    except (OSError, smtplib.SMTPException) as exc:
        raise _failed(server, exc) from None
    return refused


def sent_ids(folder: Path) -> set[str]:
    path = folder / "mail" / SENT
    return set(path.read_text(encoding="utf-8").split()) if path.exists() else set()


# A Message-ID header on one line of the header block, as the judge writes it.
PLAIN_MESSAGE_ID = re.compile(rb"^Message-ID:[ \t]*(<[^\s<>]+>)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


def sent_before(raw: bytes, done: set[str]) -> bool:
    """Whether mail/sent.txt lists this written mail, by its Message-ID read
    plainly from the header block. `run` offers every reply of the game on
    each tick, and a full parse of each one's headers was most of the cost of
    a tick late in a game. A Message-ID this does not find (folded, say) only
    means the mail is read in full."""
    ends = [at for at in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if at >= 0]
    found = PLAIN_MESSAGE_ID.search(raw, 0, min(ends) if ends else len(raw))
    return found is not None and found.group(1).decode("ascii") in done


def envelope(raw: bytes, path: Path) -> tuple[str, str, list[str]]:
    """(Message-ID, sender, recipients) of a written mail."""
    msg = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
    mid = str(msg.get("Message-ID") or "").strip()
    sender = [a for _, a in getaddresses([str(msg.get("From") or "")]) if a]
    to = [a for _, a in getaddresses([str(v) for v in msg.get_all("To") or []]) if a]
    if not mid or " " in mid or len(sender) != 1 or not to:
        raise AdjudicatorError("not a mail the judge wrote (no Message-ID, From or To)", file=str(path))
    return mid, sender[0], to


def send_files(folder: Path, paths: list[Path], server: Server, meta: dict[str, Any] | None = None) -> Sent:
    """Send each written mail that mail/sent.txt does not list yet, over one
    connection, and add each accepted one to it. `meta` is the settings of
    the judge that sends (game.yaml's, read here when not given; a host of
    games gives host.yaml's for its own mails)."""
    from adjudicator.mail import bounces, dkimsign, manners
    if meta is None:
        from adjudicator.store.gamemeta import check_meta
        meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
    judge = parseaddr(str(meta.get("gm_email") or "judge@localhost"))[1].lower()
    signing = dkimsign.from_meta(folder, meta)       # a bad key is the GM's error, before anything is sent
    held = bounces.bounced(folder)
    done = sent_ids(folder)
    report = Sent()
    todo: list[tuple[Path, bytes, str, str, list[str]]] = []
    queued: set[str] = set()
    for path in paths:
        raw = path.read_bytes()
        if sent_before(raw, done):
            report.skipped.append(path)
            continue
        mid, sender, to = envelope(raw, path)
        if mid in done or mid in queued:
            report.skipped.append(path)
            continue
        stopped = [a for a in to if a.lower() in held]
        report.held.update({a: f"bounced this phase ({held[a.lower()]}); not sent again until the next phase"
                            for a in stopped})
        to = [a for a in to if a.lower() not in held]
        if to:
            todo.append((path, raw, mid, sender, to))
            queued.add(mid)
    if not todo:
        return report
    ledger = folder / "mail" / SENT
    try:
        with connect(server) as smtp:
            for path, raw, mid, sender, to in todo:
                wire = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
                wire = manners.stamp(wire, judge, answers_a_person=answers_a_person(raw, done))
                if signing is not None:
                    wire = dkimsign.sign(wire, signing)
                try:
                    bad = {a: _problem(c, t) for a, (c, t) in smtp.sendmail(sender, to, wire).items()}
                except smtplib.SMTPRecipientsRefused as exc:
                    bad = {a: _problem(c, t) for a, (c, t) in exc.recipients.items()}
                except smtplib.SMTPDataError as exc:
                    bad = {", ".join(to): _problem(exc.smtp_code, exc.smtp_error)}
                report.refused.update(bad)
                if len(bad) < len(to):        # someone has it: sending again would duplicate it
                    done.add(mid)
                    storage.atomic_write(ledger, "\n".join(sorted(done)) + "\n")
                    report.sent.append(path)
    except (OSError, smtplib.SMTPException) as exc:
        raise _failed(server, exc) from None
    return report


def answers_a_person(raw: bytes, sent: set[str]) -> bool:
    """A reply to someone's mail (In-Reply-To a mail the judge did not send), not results or a notice."""
    msg = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
    replied = str(msg.get("In-Reply-To") or "").strip()
    return bool(replied) and replied not in sent
