"""The mail side of `adjudicator run`, from game.yaml's `mail:` settings:

    mail:
      source: imaps://judge@example.org@mail.example.org:993/INBOX   # or a mailbox path
      imap_starttls: false
      smtp: mail.example.org:587
      starttls: true
      user: judge@example.org          # SMTP login; password from ADJUDICATOR_SMTP_PASSWORD

Passwords come from the environment (ADJUDICATOR_IMAP_PASSWORD,
ADJUDICATOR_SMTP_PASSWORD), never from game.yaml: a cron job sets them."""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.mail import imap
from adjudicator.mail.smtp import Server, parse_hostport, send_files

if TYPE_CHECKING:                   # the intake is imported when mail is taken
    from adjudicator.mail.ingest import IngestResult

IMAP_PASSWORD = "ADJUDICATOR_IMAP_PASSWORD"
SMTP_PASSWORD = "ADJUDICATOR_SMTP_PASSWORD"


def password(variable: str, what: str) -> str:
    value = os.environ.get(variable)
    if not value:
        raise AdjudicatorError(f"{variable} is not set", hint=f"a run from cron needs the {what} in the environment")
    return value


@dataclass
class GameMailer:
    source: str | None
    imap_starttls: bool
    server: Server | None

    @classmethod
    def from_settings(cls, settings: Any, source: str) -> GameMailer:
        if not isinstance(settings, dict):
            raise DataFileError("mail: should be a mapping of source, smtp, starttls, user", file=source)
        smtp = settings.get("smtp")
        server = None
        if smtp:
            host, port = parse_hostport(str(smtp), "mail.smtp")
            user = settings.get("user")
            server = Server(host, port, bool(settings.get("starttls")), str(user) if user else None,
                            password(SMTP_PASSWORD, "SMTP password") if user else None)
        mailbox = settings.get("source")
        return cls(str(mailbox) if mailbox else None, bool(settings.get("imap_starttls")), server)

    def fetch(self, folder: Path, now: datetime.datetime) -> list[str]:
        if not self.source:
            return []
        if imap.is_imap(self.source):
            box = imap.parse_url(self.source)
            results = imap.ingest_imap(folder, box, password(IMAP_PASSWORD, "IMAP password"),
                                       starttls=self.imap_starttls, now=now).results
        else:
            from adjudicator.mail.ingest import ingest
            results = ingest(folder, Path(self.source), now=now)
        return self.answered(folder, results)

    def answered(self, folder: Path, results: list[IngestResult]) -> list[str]:
        """Lines for the GM about the mails taken, once their replies are sent."""
        from adjudicator.mail.mailread import one_line
        log = []
        for r in results:
            outcome = "stored" if r.accepted else ("quarantined" if r.quarantined else "refused")
            log.append(f"mail from {r.sender or 'unknown sender'} ({r.power or 'unknown'}): {outcome}"
                       + (f": {one_line((r.reason or '').split(chr(10))[0])}" if not r.accepted else ""))
        if self.server is not None:
            replies = sorted((folder / "mail" / "replies").glob("*.eml"))
            log += self._sent(send_files(folder, replies, self.server), "replies")
        return log

    @property
    def sends(self) -> bool:
        return self.server is not None

    def deliver(self, folder: Path, paths: list[Path], what: str) -> tuple[list[str], list[Path]]:
        """Send the written mails in `paths` that have not gone yet; (lines for
        the GM, the mails sent). Without a server they wait in mail/."""
        if not paths:
            return [], []
        if self.server is None:
            return [f"{what} written: {len(paths)} (no SMTP server set)"], []
        report = send_files(folder, paths, self.server)
        return self._sent(report, what), report.sent

    def _sent(self, report: Any, what: str) -> list[str]:
        lines = [f"sent {len(report.sent)} {what}" + (f" ({len(report.skipped)} sent before)" if report.skipped
                                                       else "")]
        lines += [f"refused: {addr}: {why}" for addr, why in sorted(report.refused.items())]
        return lines


@dataclass
class RoutedMailer(GameMailer):
    """A game's mailer in a host of games (mail.host): its mails come routed
    from the host's mailbox, not from a mailbox of its own."""
    raws: list[Any] = field(default_factory=list)

    def fetch(self, folder: Path, now: datetime.datetime) -> list[str]:
        if not self.raws:
            return []
        from adjudicator.mail.ingest import ingest_mails
        return self.answered(folder, ingest_mails(folder, self.raws, now=now))
