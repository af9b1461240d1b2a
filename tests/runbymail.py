"""Helpers for the tests of `adjudicator run` by mail: a game set up as a GM
would (`new`, `player add`, `schedule`, `mailbox`), players' mails put in
an mbox file the judge reads, the judge's mails caught by aiosmtpd
(mailservers.smtp_inbox), and `run --now` with an injected clock."""

from __future__ import annotations

import mailbox
import re
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from click.testing import CliRunner
from mailservers import SmtpInbox, body_of

from adjudicator.cli.main import cli

JUDGE = "judge@localhost"
GM = "gm@localhost"
JUDGE_NAME = "Test Judge"
T0 = datetime(2030, 3, 1, 9, 0, tzinfo=timezone.utc)
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
PASSWORDS = {p: f"pw-{p}-long-enough" for p in POWERS}
DUE_RE = re.compile(r"due\s+by\s+(\d{4}-\d\d-\d\dT\d\d:\d\d[+-]\d\d:\d\d)")
LATE_RE = re.compile(r"are\s+taken\s+until\s+(\d{4}-\d\d-\d\dT\d\d:\d\d[+-]\d\d:\d\d)")


def address(seat: str) -> str:
    return f"{seat}@localhost"


def cli_ok(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def cli_fails(*args: str) -> str:
    """A command refused: exit code 2 and one line, no traceback."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output, result.output
    return result.output


def run(game: Path, when: datetime) -> str:
    return cli_ok("run", str(game), "--now", when.isoformat())


def set_up(folder: Path, inbox: SmtpInbox, *, variant: str = "standard", seats: tuple[str, ...] = POWERS,
           generated: tuple[str, ...] = (), schedule: tuple[str, ...] = ("--movement", "2d"),
           players: str | None = None, house_rules: Path | None = None, seed: int = 1) -> Path:
    """A game as the README sets one up, every seat taken; `generated` seats
    get a password the judge makes (and mails in the welcome)."""
    folder.mkdir(parents=True, exist_ok=True)
    game = folder / "game"
    (folder / "inbox.mbox").touch()
    cli_ok("new", str(game), "--variant", variant, "--seed", str(seed), *(("--players", players) if players else ()),
           *(("--house-rules", str(house_rules)) if house_rules else ()))
    for seat in seats:
        password = () if seat in generated else ("--password", PASSWORDS.get(seat, f"pw-{seat}-long-enough"))
        cli_ok("player", "add", str(game), seat, "--name", seat.title(), "--email", address(seat), *password)
    cli_ok("schedule", str(game), *schedule)
    cli_ok("mailbox", str(game), "--source", str(folder / "inbox.mbox"), "--smtp", f"{inbox.host}:{inbox.port}",
           "--judge-address", JUDGE, "--judge-name", JUDGE_NAME, "--gm-address", GM)
    return game


def post(game: Path, seat: str, body: str, when: datetime, tag: str, password: str | None = None,
         subject: str = "orders") -> None:
    """A player's mail, as a mail client writes it, into the judge's mbox."""
    msg = EmailMessage()
    msg["From"] = f"{seat.title()} <{address(seat)}>"
    msg["To"] = JUDGE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{tag}-{seat}@{seat}.example>"
    secret = password if password is not None else PASSWORDS.get(seat, f"pw-{seat}-long-enough")
    msg.set_content(f"Hi,\npassword: {secret}\n{body}\nThanks\n")
    box = mailbox.mbox(str(game.parent / "inbox.mbox"))
    box.lock()
    try:
        box.add(msg)
        box.flush()
    finally:
        box.unlock()
        box.close()


def mails_to(inbox: SmtpInbox, who: str) -> list[EmailMessage]:
    return inbox.of(address(who) if "@" not in who else who)


def all_mails(inbox: SmtpInbox) -> list[tuple[str, EmailMessage]]:
    return [(who, msg) for who in sorted(inbox.mails) for msg in inbox.of(who)]


def named_deadline(msg: EmailMessage) -> str | None:
    """The deadline a mail names ('... are due by T', or in the grace '... taken until T')."""
    text = body_of(msg)
    found = DUE_RE.findall(text) or LATE_RE.findall(text)
    assert len(set(found)) <= 1, f"{msg['Subject']} names several deadlines: {found}"
    return found[0] if found else None


def game_deadline(game: Path) -> str | None:
    import yaml
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    return meta.get("deadline")
