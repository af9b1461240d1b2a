"""Mail out the results of a phase: one RFC 5322 message per player, written to
mail/<phase>/<power>.eml and optionally sent by SMTP.

The body is the power's private report (it contains the public report), so a
power's Diplomacy Point allocations only ever reach that power. Messages are
deterministic (Date from the phase, Message-ID and MIME boundary from a hash of
game + phase + power) so that a re-run writes byte-identical files.

game.yaml may have been edited by hand, so the roster is not trusted here: a
player's name is cleaned for the To header (control characters and line breaks
become spaces), an address that is not one plain addr-spec is an error that
names the power, and a power id must be a safe name before it becomes a file
name or a header."""

from __future__ import annotations

import hashlib
import smtplib
import ssl
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any

from adjudicator import storage
from adjudicator.errors import AdjudicatorError, GameFolderError
from adjudicator.gamefolder import read_game
from adjudicator.model import Phase
from adjudicator.names import check_name, inside
from adjudicator.players import is_address, roster

DEFAULT_GM = "judge@localhost"
SEASON_MONTH = {"spring": 4, "summer": 7, "fall": 10, "autumn": 10, "winter": 12}
KIND_DAY = {"movement": 1, "retreat": 2, "adjustment": 3}


def gm_address(meta: dict[str, Any]) -> str:
    return str(meta.get("gm_email") or DEFAULT_GM)


def phase_date(phase: Phase) -> datetime:
    """A fixed, phase-derived date: a real clock would break byte-identical re-runs."""
    return datetime(phase.year, SEASON_MONTH.get(phase.season, 1), KIND_DAY.get(phase.kind, 1), 12, 0,
                    tzinfo=timezone.utc)


def stable_id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def message_domain(meta: dict[str, Any]) -> str:
    return gm_address(meta).rsplit("@", 1)[-1] or "localhost"


def latest_reported_slug(folder: Path) -> str:
    """The newest phase that has a public report."""
    phases = []
    for path in (folder / "reports").glob("*.txt"):
        try:
            phases.append(Phase.from_slug(path.stem))
        except ValueError:
            continue
    if not phases:
        raise GameFolderError("no phase has been adjudicated yet", file=str(folder / "reports"),
                              hint="run 'adjudicator adjudicate' first")
    return max(phases, key=lambda p: p.sort_key).slug


def header_name(name: str, limit: int = 60) -> str:
    """A display name safe for a header: every control character or line break
    becomes a space, runs of spaces become one, at most `limit` characters."""
    cleaned = "".join(" " if not c.isprintable() else c for c in name)
    return " ".join(cleaned.split())[:limit]


def build_messages(folder: Path, phase_slug: str) -> list[EmailMessage]:
    """One message for every player with an email address; X-Adjudicator-Power names the power."""
    meta = read_game(folder)
    try:
        phase = Phase.from_slug(phase_slug)
    except ValueError:
        raise AdjudicatorError(f"not a phase: {phase_slug!r}", hint="e.g. 1901-spring-movement") from None
    game = str(meta.get("name") or folder.name)
    sender = gm_address(meta)
    domain = message_domain(meta)
    svg = folder / "maps" / f"{phase.slug}.svg"
    out: list[EmailMessage] = []
    for player in roster(folder):
        email_addr = str(player.get("email") or "").strip()
        power = str(player.get("power") or "")
        if not email_addr or not power:
            continue
        check_name(power, "power")
        if not is_address(email_addr):
            raise GameFolderError(f"{power}'s email address {email_addr!r} is not one plain address",
                                  file=str(folder / "game.yaml"),
                                  hint=f"set it again with 'adjudicator player add GAME {power} ...'")
        report = folder / "private" / power / f"{phase.slug}.txt"
        try:
            body = report.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GameFolderError(f"no private report for {power} in {phase}", file=str(report),
                                  hint="adjudicate the phase first") from None
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = formataddr((header_name(str(player.get("name") or "")), email_addr))
        msg["Subject"] = f"{game}: {phase} results"
        msg["Date"] = format_datetime(phase_date(phase))
        msg["Message-ID"] = f"<{stable_id(game, phase.slug, power)}@{domain}>"
        msg["X-Adjudicator-Power"] = power
        # quoted-printable keeps the .eml readable by the GM; base64 would not.
        msg.set_content(body, cte="quoted-printable")
        if svg.exists():
            msg.add_attachment(svg.read_bytes(), maintype="image", subtype="svg+xml",
                               filename=f"{phase.slug}.svg")
            # The generator would pick a random boundary otherwise.
            msg.set_boundary("=_" + stable_id(game, phase.slug, power, "boundary"))
        out.append(msg)
    return out


def message_bytes(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=policy.default)


def write_messages(folder: Path, phase_slug: str,
                   messages: list[EmailMessage] | None = None) -> list[Path]:
    """mail/<phase>/<power>.eml for every message (built if not given)."""
    if messages is None:
        messages = build_messages(folder, phase_slug)
    written = []
    for msg in messages:
        power = check_name(str(msg["X-Adjudicator-Power"]), "power")
        path = inside(folder, folder / "mail" / check_name(phase_slug, "phase") / f"{power}.eml")
        storage.atomic_write(path, message_bytes(msg))
        written.append(path)
    return written


def send_messages(messages: list[EmailMessage], host: str, port: int,
                  starttls: bool = False, user: str | None = None, password: str | None = None,
                  timeout: float = 30.0) -> dict[str, str]:
    """Send every message over one SMTP connection. Returns {address: problem}
    for recipients the server refused; an empty dict means all were accepted."""
    refused: dict[str, str] = {}
    try:
        with smtplib.SMTP(host, port, timeout=timeout) as smtp:
            smtp.ehlo()
            if starttls:
                smtp.starttls(context=ssl.create_default_context())
                smtp.ehlo()
            if user:
                smtp.login(user, password or "")
            for msg in messages:
                bad: dict[str, tuple[int, bytes | str]]
                try:
                    bad = dict(smtp.send_message(msg))
                except smtplib.SMTPRecipientsRefused as exc:
                    bad = dict(exc.recipients)
                except smtplib.SMTPDataError as exc:
                    bad = {str(msg["To"]): (exc.smtp_code, exc.smtp_error)}
                for addr, (code, text) in bad.items():
                    refused[addr] = f"{code} {text.decode('utf-8', 'replace') if isinstance(text, bytes) else text}"
    except smtplib.SMTPAuthenticationError:
        raise AdjudicatorError(f"the SMTP server {host}:{port} refused the login for {user!r}",
                               hint="check --user and ADJUDICATOR_SMTP_PASSWORD") from None
    except (OSError, smtplib.SMTPException) as exc:
        raise AdjudicatorError(f"cannot send through {host}:{port}: {exc}",
                               hint="check --smtp HOST:PORT and --starttls; the .eml files are in mail/") from None
    return refused
