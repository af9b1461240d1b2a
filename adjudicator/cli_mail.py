"""Mail commands: `mail` and `ingest`. Registered on the
main group with cli.add_command; thin wrappers over mail, ingest and players."""

from __future__ import annotations

import os
from pathlib import Path

import click

from adjudicator.cli_errors import friendly_errors, locked
from adjudicator.errors import AdjudicatorError


def parse_hostport(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise AdjudicatorError(f"--smtp {text!r} should be HOST:PORT", hint="e.g. --smtp mail.example.org:587")
    return host.strip("[]"), int(port)


@click.command("mail")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--phase", "phase_slug", default=None, help="phase slug, e.g. 1901-spring-movement (default: newest report)")
@click.option("--send", is_flag=True, help="send the messages by SMTP (otherwise only write mail/<phase>/*.eml)")
@click.option("--smtp", default=None, metavar="HOST:PORT", help="SMTP server for --send")
@click.option("--starttls", is_flag=True, help="upgrade the SMTP connection with STARTTLS")
@click.option("--user", default=None, help="SMTP login (password from ADJUDICATOR_SMTP_PASSWORD or a prompt)")
@friendly_errors
@locked
def mail_cmd(game: Path, phase_slug: str | None, send: bool, smtp: str | None, starttls: bool,
             user: str | None) -> None:
    """Write (and with --send, send) each player's results mail for a phase."""
    from adjudicator import mail
    slug = phase_slug or mail.latest_reported_slug(game)
    if send and not smtp:
        raise AdjudicatorError("--send needs --smtp HOST:PORT")
    messages = mail.build_messages(game, slug)
    if not messages:
        raise AdjudicatorError("no player has an email address",
                               hint="add players with 'adjudicator player add'")
    for path in mail.write_messages(game, slug, messages):
        click.echo(f"wrote {path}")
    if send:
        host, port = parse_hostport(smtp or "")
        password = None
        if user:
            password = os.environ.get("ADJUDICATOR_SMTP_PASSWORD") or \
                click.prompt(f"SMTP password for {user}", hide_input=True)
        refused = mail.send_messages(messages, host, port, starttls=starttls, user=user, password=password)
        for addr, why in sorted(refused.items()):
            click.echo(f"refused: {addr}: {why}", err=True)
        click.echo(f"sent {len(messages) - len(refused)} of {len(messages)} messages via {host}:{port}")
        if refused:
            raise SystemExit(1)


@click.command("ingest")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("mailbox", type=click.Path(path_type=Path))
@friendly_errors
@locked
def ingest_cmd(game: Path, mailbox: Path) -> None:
    """Take orders into GAME from MAILBOX: an mbox file, a Maildir, one .eml
    file or a folder of .eml files. Mails that cannot be read safely are set
    aside in GAME/mail/quarantine/ with the reason printed here."""
    from adjudicator.ingest import ingest, one_line
    results = ingest(game, mailbox)
    if not results:
        click.echo("no new messages")
    for r in results:
        who = f"{r.sender or 'unknown sender'} ({r.power or 'unknown'})"
        if r.accepted:
            extra = f" ({len(r.errors)} problem(s))" if r.errors else ""
            click.echo(f"{r.number}: {who}: stored {r.stored}{extra}; reply {r.reply}")
        elif r.quarantined is not None:
            click.echo(f"{r.number}: {who}: quarantined: {one_line(r.reason or '')}; kept in {r.quarantined}")
        else:
            first = one_line((r.reason or "").split("\n")[0])
            click.echo(f"{r.number}: {who}: rejected: {first}; reply {r.reply}")


COMMANDS = [mail_cmd, ingest_cmd]
