"""The GM's settings of a running game, so nobody pastes YAML into game.yaml:
`schedule` (phase lengths, grace, reminders, the missed limit) and `mailbox`
(where mail comes from and goes through, and who the judge is). Every value
is checked first: a bad one is one line naming the option and how to write
it, exit code 2, and game.yaml untouched; a good set is written in one step
under the game's lock. With no option, each command prints what is set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from adjudicator.cli.errors import friendly_errors, locked
from adjudicator.errors import AdjudicatorError

PHASES = ("movement", "retreat", "adjustment")
MAX_MISSED_LIMIT = 100


def write_meta(game: Path, meta: dict[str, Any]) -> None:
    from adjudicator.store import phasecommit, storage
    phasecommit.commit(game, [(game / "game.yaml", storage.dump_yaml(meta))])


def duration(option: str, text: str, *, zero: bool = False) -> str:
    """The duration as written, once it reads as one (and is not zero, unless allowed)."""
    from adjudicator.folder.schedule import parse_duration
    try:
        length = parse_duration(text)
    except AdjudicatorError as exc:
        raise AdjudicatorError(f"--{option} {text!r} is not a duration", hint=exc.hint) from None
    if not length and not zero:
        raise AdjudicatorError(f"--{option} {text!r} is no time at all", hint="e.g. 3d, 36h or 1d12h")
    return text.replace(" ", "").lower()


def reminder_list(text: str) -> list[str]:
    if text.strip().lower() in ("none", ""):
        return []
    return [duration("reminders", part.strip()) for part in text.split(",")]


@click.command("schedule")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--movement", default=None, metavar="DURATION", help="a movement phase's length, e.g. 3d")
@click.option("--retreat", default=None, metavar="DURATION", help="a retreat phase's length, e.g. 1d")
@click.option("--adjustment", default=None, metavar="DURATION", help="an adjustment phase's length, e.g. 1d")
@click.option("--grace", default=None, metavar="DURATION", help="after a deadline, before the silent are NMR (0m: none)")
@click.option("--reminders", default=None, metavar="LIST",
              help="before a deadline, to those whose orders are not in: e.g. 24h,2h, or none")
@click.option("--missed-limit", default=None, metavar="N", help="phases missed in a row before the GM is told")
@friendly_errors
@locked
def schedule_command(game: Path, movement: str | None, retreat: str | None, adjustment: str | None,
                     grace: str | None, reminders: str | None, missed_limit: str | None) -> None:
    """Set GAME's schedule: each phase's length, the grace after a deadline,
    the reminders and the missed limit. An option left out keeps its value.
    The next phase `run` opens gets its deadline from it."""
    from adjudicator.folder import folders, schedule
    meta = folders.game_meta(game)
    current = schedule.schedule(meta, str(game / "game.yaml"))
    given = dict(meta.get("schedule") or {})
    for kind, text in zip(PHASES, (movement, retreat, adjustment)):
        if text is not None:
            given[kind] = duration(kind, text)
    if grace is not None:
        given["grace"] = duration("grace", grace, zero=True)
    if reminders is not None:
        given["reminders"] = reminder_list(reminders)
    if missed_limit is not None:
        if not missed_limit.strip().isdigit() or not 1 <= int(missed_limit) <= MAX_MISSED_LIMIT:
            raise AdjudicatorError(f"--missed-limit {missed_limit!r} is not a whole number from 1 to "
                                   f"{MAX_MISSED_LIMIT}", hint="e.g. --missed-limit 2")
        given["missed_limit"] = int(missed_limit)
    if given != (meta.get("schedule") or {}):
        meta["schedule"] = given
        current = schedule.schedule(meta, str(game / "game.yaml"))
        write_meta(game, meta)
    shortest = min((schedule.parse_duration(current[kind]), str(current[kind])) for kind in PHASES)
    click.echo("schedule: " + ", ".join(f"{key} {current[key]}" for key in (*PHASES, "grace"))
               + f", reminders {', '.join(map(str, current['reminders'] or [])) or 'none'}"
               + f", missed limit {current['missed_limit']}")
    for reminder in current["reminders"] or []:
        if schedule.parse_duration(reminder) >= shortest[0]:
            click.echo(f"note: the {reminder} reminder is not sent in a phase of {shortest[1]} or less "
                       "(its moment falls before the phase opens)")


@click.command("mailbox")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--source", default=None, metavar="URL|PATH",
              help="where players' mail comes from: imaps://USER@HOST:PORT/FOLDER, or a mailbox path")
@click.option("--imap-starttls/--no-imap-starttls", default=None, help="imap://: upgrade with STARTTLS")
@click.option("--smtp", default=None, metavar="HOST:PORT", help="the SMTP server mail goes out through")
@click.option("--starttls/--no-starttls", default=None, help="upgrade the SMTP connection with STARTTLS")
@click.option("--user", default=None, help="SMTP login (its password from ADJUDICATOR_SMTP_PASSWORD)")
@click.option("--judge-address", default=None, help="the judge's own address: the From of its mails")
@click.option("--judge-name", default=None, help="the display name of that From, e.g. 'Diplomacy Judge'")
@click.option("--gm-address", default=None,
              help="the GM's own address (not the judge's), for the judge's mails to the GM")
@friendly_errors
@locked
def mailbox_command(game: Path, source: str | None, imap_starttls: bool | None, smtp: str | None,
                    starttls: bool | None, user: str | None, judge_address: str | None, judge_name: str | None,
                    gm_address: str | None) -> None:
    """Set where GAME's mail comes from and goes through, and who the judge
    is. An option left out keeps its value. Passwords never go here: `run`
    reads them from ADJUDICATOR_IMAP_PASSWORD and ADJUDICATOR_SMTP_PASSWORD."""
    from adjudicator.folder import folders
    meta = folders.game_meta(game)
    settings = mail_settings(dict(meta.get("mail") or {}), source, imap_starttls, smtp, starttls, user)
    changed = dict(meta)
    if settings:
        changed["mail"] = settings
    judge_settings(changed, "gm_email", judge_address, judge_name, gm_address)
    contact, judge = str(changed.get("gm_contact") or ""), str(changed.get("gm_email") or "")
    if contact and contact.lower() == judge.lower():
        raise AdjudicatorError("--gm-address is the judge's own address: the judge would read its own mails",
                               hint="give the GM's personal address")
    if changed != meta:
        write_meta(game, changed)
    shown = ", ".join(f"{k} {v}" for k, v in (changed.get("mail") or {}).items())
    click.echo(f"mail: {shown or 'not set'}")
    click.echo(f"judge: {changed.get('judge_name') or 'Judge'} <{judge or 'not set'}>; "
               f"GM: {contact or 'not set (the judge mails the GM nothing)'}")


def mail_settings(settings: dict[str, Any], source: str | None, imap_starttls: bool | None, smtp: str | None,
                  starttls: bool | None, user: str | None) -> dict[str, Any]:
    """The `mail:` settings with the options given (each checked); the others kept."""
    if source is not None:
        settings["source"] = checked_source(source)
    if imap_starttls is not None:
        settings["imap_starttls"] = imap_starttls
    if smtp is not None:
        from adjudicator.mail.smtp import parse_hostport
        host, port = parse_hostport(smtp.strip())
        settings["smtp"] = f"{host}:{port}"
    if starttls is not None:
        settings["starttls"] = starttls
    if user is not None:
        if not user.strip() or not user.isprintable() or " " in user.strip():
            raise AdjudicatorError(f"--user {user!r} is not a login name", hint="e.g. --user judge@example.org")
        settings["user"] = user.strip()
    return settings


def judge_settings(meta: dict[str, Any], address_key: str, judge_address: str | None, judge_name: str | None,
                   gm_address: str | None) -> None:
    """Who the judge is (its address under `address_key`: game.yaml's gm_email,
    host.yaml's judge_address) and the GM's own address, each checked, into `meta`."""
    from adjudicator.folder import players
    if judge_address is not None:
        meta[address_key] = checked_address("--judge-address", judge_address)
    if judge_name is not None:
        try:
            meta["judge_name"] = players.check_display_name(judge_name)
        except AdjudicatorError as exc:
            raise AdjudicatorError(f"--judge-name: {exc.message}", hint=exc.hint) from None
    if gm_address is not None:
        meta["gm_contact"] = checked_address("--gm-address", gm_address)


def checked_source(source: str) -> str:
    from adjudicator.mail import imap
    text = source.strip()
    if imap.is_imap(text):
        imap.parse_url(text)
        return text
    if "://" in text:
        raise AdjudicatorError(f"--source {source!r}: only imap:// and imaps:// addresses, or a mailbox path",
                               hint="e.g. imaps://judge@example.org@mail.example.org:993/INBOX")
    if not Path(text).exists():
        raise AdjudicatorError(f"--source {source!r}: no such mailbox", hint="give an mbox file, a Maildir or "
                               "a folder of .eml files, or imaps://USER@HOST:PORT/INBOX")
    return str(Path(text).resolve())


def checked_address(option: str, text: str) -> str:
    from adjudicator.folder import players
    try:
        return players.check_address(text.strip())
    except AdjudicatorError as exc:
        raise AdjudicatorError(f"{option}: {exc.message}", hint=exc.hint) from None


COMMANDS = [schedule_command, mailbox_command]
