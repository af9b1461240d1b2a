"""Mail commands: `mail` and `ingest`. Registered on the main group with
cli.add_command; thin wrappers over mail, ingest, imap and smtp."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from adjudicator.cli.errors import friendly_errors, locked
from adjudicator.errors import AdjudicatorError

if TYPE_CHECKING:
    from adjudicator.mail.smtp import Sent, Server

SMTP_PASSWORD = "ADJUDICATOR_SMTP_PASSWORD"
IMAP_PASSWORD = "ADJUDICATOR_IMAP_PASSWORD"


def secret(variable: str, prompt: str) -> str:
    """A password from the environment, else asked for (never an option)."""
    return os.environ.get(variable) or str(click.prompt(prompt, hide_input=True))


def smtp_server(smtp: str | None, starttls: bool, user: str | None) -> Server:
    from adjudicator.mail.smtp import Server, parse_hostport
    if not smtp:
        raise AdjudicatorError("--send needs --smtp HOST:PORT")
    host, port = parse_hostport(smtp)
    password = secret(SMTP_PASSWORD, f"SMTP password for {user}") if user else None
    return Server(host, port, starttls, user, password)


def echo_sent(report: Sent, server: Server) -> None:
    for addr, why in sorted(report.refused.items()):
        click.echo(f"refused: {addr}: {why}", err=True)
    for addr, why in sorted(report.held.items()):
        click.echo(f"held: {addr}: {why}", err=True)
    already = f"; {len(report.skipped)} sent before" if report.skipped else ""
    click.echo(f"sent {len(report.sent)} message(s) via {server.host}:{server.port}{already}")
    if report.refused:
        raise SystemExit(1)


SMTP_OPTIONS = [
    click.option("--smtp", default=None, metavar="HOST:PORT", help="SMTP server for --send"),
    click.option("--starttls", is_flag=True, help="upgrade the SMTP connection with STARTTLS"),
    click.option("--user", default=None, help="SMTP login (password from ADJUDICATOR_SMTP_PASSWORD or a prompt)"),
]


def smtp_options(func: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(SMTP_OPTIONS):
        func = option(func)
    return func


@click.command("mail")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--phase", "phase_slug", default=None,
              help="phase, e.g. 1901-spring-movement or 0002-age1-turn2 (default: newest report)")
@click.option("--send", is_flag=True, help="send the messages by SMTP (otherwise only write mail/<phase>/*.eml)")
@smtp_options
@friendly_errors
@locked
def mail_cmd(game: Path, phase_slug: str | None, send: bool, smtp: str | None, starttls: bool,
             user: str | None) -> None:
    """Write (and with --send, send) each player's results mail for a phase,
    each newcomer's welcome and the phase's notices. A mail already sent
    (listed in GAME/mail/sent.txt) is not sent again."""
    import datetime

    from adjudicator.folder.folders import open_game
    from adjudicator.mail import outbox, welcome
    from adjudicator.mail import results as mail
    from adjudicator.mail.smtp import send_files
    server = smtp_server(smtp, starttls, user) if send else None
    now = datetime.datetime.now(datetime.timezone.utc)
    post = outbox.look(game, sending=True)
    welcomes = outbox.welcomes(post, now)
    slug = phase_slug or post.latest
    paths: list[Path] = []
    if slug is not None:
        messages = mail.build_messages(game, slug, now)
        if phase_slug is None:        # the newest results: not again to a player whose welcome carried them
            carried = {str(e["power"]) for e in post.players if welcome.results_welcomed(game, post.game, e, slug)}
            messages = [m for m in messages if str(m["X-Adjudicator-Power"]) not in carried]
        paths = mail.write_messages(game, slug, messages)
    notices = outbox.notices(post, now, open_game(game).standing().phase)
    if not welcomes and not paths and not notices:
        if slug is None:
            raise AdjudicatorError("no phase has been adjudicated yet, and every player has had a welcome",
                                   hint="run 'adjudicator adjudicate' first")
        raise AdjudicatorError("no player has an email address", hint="add players with 'adjudicator player add'")
    for path in [*welcomes, *paths, *notices]:
        click.echo(f"wrote {path}")
    if server is not None:
        report = send_files(game, [*welcomes, *paths, *notices], server)
        welcome.sent(game, [p for p in report.sent if p in welcomes])
        echo_sent(report, server)


@click.command("ingest")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("source")
@click.option("--imap-starttls", is_flag=True, help="imap://: upgrade the connection with STARTTLS")
@click.option("--send", is_flag=True, help="send the replies by SMTP (each once; see GAME/mail/sent.txt)")
@smtp_options
@friendly_errors
@locked
def ingest_cmd(game: Path, source: str, imap_starttls: bool, send: bool, smtp: str | None, starttls: bool,
               user: str | None) -> None:
    """Take orders into GAME from SOURCE: an mbox file, a Maildir, one .eml
    file, a folder of .eml files, or an IMAP folder such as
    imaps://judge@example.org@mail.example.org:993/INBOX (password from
    ADJUDICATOR_IMAP_PASSWORD or a prompt). Mails that cannot be read safely
    are set aside in GAME/mail/quarantine/ with the reason printed here."""
    from adjudicator.mail import imap
    from adjudicator.mail.ingest import ingest, one_line
    from adjudicator.mail.smtp import send_files
    server = smtp_server(smtp, starttls, user) if send else None
    if imap.is_imap(source):
        box = imap.parse_url(source)
        fetched = imap.ingest_imap(game, box, secret(IMAP_PASSWORD, f"IMAP password for {box.user}"),
                                   starttls=imap_starttls)
        results = fetched.results
        if fetched.left:
            click.echo(f"{fetched.left} more new message(s) wait in {box}; run ingest again")
    else:
        if imap_starttls:
            raise AdjudicatorError("--imap-starttls is for imap:// sources")
        results = ingest(game, Path(source))
    if not results:
        click.echo("no new messages")
    for r in results:
        who = f"{r.sender or 'unknown sender'} ({r.power or 'unknown'})"
        if r.accepted:
            extra = f" ({len(r.errors)} problem(s))" if r.errors else ""
            click.echo(f"{r.number}: {who}: stored {r.stored or 'a vote'}{extra}; reply {r.reply}")
        elif r.quarantined is not None:
            click.echo(f"{r.number}: {who}: quarantined: {one_line(r.reason or '')}; kept in {r.quarantined}")
        else:
            first = one_line((r.reason or "").split("\n")[0])
            click.echo(f"{r.number}: {who}: rejected: {first}; reply {r.reply}")
    if server is not None:
        replies = sorted((game / "mail" / "replies").glob("*.eml"))
        echo_sent(send_files(game, replies, server), server)


COMMANDS = [mail_cmd, ingest_cmd]
