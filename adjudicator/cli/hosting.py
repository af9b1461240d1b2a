"""The commands of a judge that runs many games, and of its GMs:

  * `host DIR`: make (or change) a host folder's host.yaml: the mailbox, SMTP,
    the judge's address and name; `run --host DIR` then runs every game in it;
  * `gm-password GAME`: the GM's password for commands by mail (pause, resume,
    extend, process, approve, refuse) from game.yaml's gm_contact;
  * `signup GAME`: the sign-up list of a game opened with `new --open N`,
    and the GM's approval or refusal of a joiner."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator.cli.errors import friendly_errors, locked
from adjudicator.errors import AdjudicatorError, DataFileError


@click.command("host")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@click.option("--source", default=None, metavar="URL|PATH",
              help="where every game's mail comes from: imaps://USER@HOST:PORT/FOLDER, or a mailbox path")
@click.option("--imap-starttls/--no-imap-starttls", default=None, help="imap://: upgrade with STARTTLS")
@click.option("--smtp", default=None, metavar="HOST:PORT", help="the SMTP server mail goes out through")
@click.option("--starttls/--no-starttls", default=None, help="upgrade the SMTP connection with STARTTLS")
@click.option("--user", default=None, help="SMTP login (its password from ADJUDICATOR_SMTP_PASSWORD)")
@click.option("--judge-address", default=None, help="the judge's own address: the From of every mail")
@click.option("--judge-name", default=None, help="the display name of that From, e.g. 'Diplomacy Judge'")
@click.option("--gm-address", default=None, help="the GM's own address, for games that name none")
@friendly_errors
def host_command(folder: Path, source: str | None, imap_starttls: bool | None, smtp: str | None,
                 starttls: bool | None, user: str | None, judge_address: str | None, judge_name: str | None,
                 gm_address: str | None) -> None:
    """Make FOLDER a host of games, or change its settings (host.yaml): one
    judge address, one mailbox, for every game folder in it. An option left
    out keeps its value. `adjudicator run --host FOLDER` runs them all."""
    from adjudicator.cli.settings import judge_settings, mail_settings
    from adjudicator.mail.host import HOST_FILE
    from adjudicator.store import storage
    path = folder / HOST_FILE
    meta = storage.read_yaml(path) if path.is_file() else {}
    if not isinstance(meta, dict):
        raise DataFileError("host.yaml must be a mapping", file=str(path), hint="fix it, or delete it and run this again")
    settings = mail_settings(dict(meta.get("mail") or {}), source, imap_starttls, smtp, starttls, user)
    if settings:
        meta["mail"] = settings
    judge_settings(meta, "judge_address", judge_address, judge_name, gm_address)
    if not meta.get("judge_address"):
        raise AdjudicatorError("a host needs --judge-address", hint="the address players mail, e.g. judge@example.org")
    if str(meta.get("gm_contact") or "").lower() == str(meta["judge_address"]).lower():
        raise AdjudicatorError("--gm-address is the judge's own address", hint="give the GM's personal address")
    folder.mkdir(parents=True, exist_ok=True)
    storage.atomic_write(path, storage.dump_yaml(meta))
    click.echo(f"host: {folder} ({len([p for p in folder.glob('*/game.yaml')])} games)")
    click.echo(f"judge: {meta.get('judge_name') or 'Judge'} <{meta['judge_address']}>; mail: "
               + (", ".join(f"{k} {v}" for k, v in settings.items()) or "not set"))


@click.command("gm-password")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--generate-password", is_flag=True, help="the judge makes the password and prints it once")
@friendly_errors
@locked
def gm_password_command(game: Path, generate_password: bool) -> None:
    """Set the GM's password for commands by mail (pause, resume, extend,
    process, approve, refuse), mailed from the GM's own address
    (`mailbox --gm-address`)."""
    from adjudicator.cli.players import new_password
    from adjudicator.folder import folders, players
    from adjudicator.mail.gmmail import HASH_KEY
    from adjudicator.store import phasecommit, storage
    meta = folders.game_meta(game)
    if not meta.get("gm_contact"):
        raise AdjudicatorError("the game has no GM address", hint="set it first: adjudicator mailbox GAME --gm-address ...")
    password, made = new_password(None, generate_password, "GM password")
    meta[HASH_KEY] = players.hash_password(password)
    phasecommit.commit(game, [(game / "game.yaml", storage.dump_yaml(meta))])
    click.echo(f"the GM's mails from {meta['gm_contact']} now need this password"
               + (f": {password}  (it is not shown again)" if made else ""))


@click.command("signup")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--approve", "approve", default=None, metavar="ADDRESS", help="count this joiner")
@click.option("--refuse", "refuse", default=None, metavar="ADDRESS", help="take this joiner off the list")
@friendly_errors
@locked
def signup_command(game: Path, approve: str | None, refuse: str | None) -> None:
    """Show GAME's sign-up list (a game opened with `new --open N`), or approve
    or refuse a joiner. When the list is full, the powers are assigned and the
    next `run` opens the first phase."""
    from adjudicator.folder import folders, signup
    from adjudicator.folder.gamefolder import load_current
    meta = folders.game_meta(game)
    config = signup.settings(meta, str(game / "game.yaml"))
    if config is None:
        raise AdjudicatorError("this game was not opened for sign-up", hint="adjudicator new GAME --open N")
    if approve and refuse:
        raise AdjudicatorError("give --approve or --refuse, not both")
    if approve or refuse:
        _, variant, _, _ = load_current(game)
        try:
            done = signup.decide(game, meta, variant, str(approve or refuse), approve is not None)
        except signup.SignupRefused as exc:
            raise AdjudicatorError(str(exc)) from None
        click.echo(f"{done.entry['email']}: {done.entry['state']}; {done.counted} of {done.seats} count"
                   + ("; the game is full: the next run opens it" if done.filled else ""))
        return
    listed = signup.read_list(game)
    click.echo(f"sign-up: {config['seats']} seats, assign by {config['assign']}"
               + (", the GM approves each joiner" if config["approve"] else "")
               + ("; full" if config.get("filled") else ""))
    for entry in listed:
        prefs = ", ".join(entry.get("preferences") or []) or "-"
        click.echo(f"  {entry.get('email')}  {entry.get('name')}  {entry.get('state')}  preferences: {prefs}")
