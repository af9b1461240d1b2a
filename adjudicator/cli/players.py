"""The `player` group: who plays which power (or seat), their address and password."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from adjudicator.cli.errors import friendly_errors, locked
from adjudicator.errors import AdjudicatorError

MIN_CHOSEN = 10          # folder.players.MIN_CHOSEN_PASSWORD, without importing argon2 for the help text


@click.group("player")
def player_group() -> None:
    """Manage the players roster (names, email addresses, passwords)."""


@player_group.command("add")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("power")
@click.option("--name", required=True, help="the player's name: letters, digits, spaces, .'- (at most 60)")
@click.option("--email", required=True, help="the one address orders come from and results go to")
@click.option("--password", default=None,
              help=f"the player's password, at least {MIN_CHOSEN} characters (default: the judge makes one "
                   "and mails it in the player's welcome)")
@click.option("--generate-password", is_flag=True, help="the judge makes the password and prints it once")
@click.option("--ask-password", is_flag=True, help="type the player's password at a prompt")
@friendly_errors
@locked
def player_add(game: Path, power: str, name: str, email: str, password: str | None, generate_password: bool,
               ask_password: bool) -> None:
    """Set POWER's player in GAME. The next `run` (or `mail`) sends them a welcome."""
    from adjudicator.folder import players
    password, told = seat_password(game, power, email, password, generate_password, ask_password)
    with forgotten_if_refused(game, power, told):
        entry = players.add_player(game, power, name, email, password)
    click.echo(f"{entry['power']}: {entry['name']} <{entry['email']}>")
    if told == WELCOMED:          # a player seated again with a new password gets a new welcome
        from adjudicator.mail import welcome
        welcome.supersede(game, str(entry["power"]), str(entry["email"]))
    if told:
        click.echo(told.format(password=password))


def new_password(given: str | None, generate: bool, prompt: str) -> tuple[str, bool]:
    """(the password, whether the judge made it): a person's choice must be
    long enough; a generated one always is."""
    from adjudicator.folder import players
    if generate:
        if given is not None:
            raise AdjudicatorError("give --password or --generate-password, not both")
        return players.generate_password(), True
    if given is None:
        given = str(click.prompt(prompt, hide_input=True, confirmation_prompt=True))
    return players.check_chosen_password(given), False


PRINTED = "password: {password}  (tell the player; it is not kept in clear and not shown again)"
WELCOMED = "a password was made for them: their welcome mail tells them, and only that mail"


def seat_password(game: Path, power: str, email: str, given: str | None, generate: bool,
                  ask: bool) -> tuple[str, str]:
    """(the password, what to tell the GM). The GM's own (--password, or typed
    with --ask-password), one the judge makes and prints (--generate-password),
    or by default one the judge makes and keeps for the player's welcome mail,
    the only mail that carries it."""
    if given is not None or generate or ask:
        password, made = new_password(given, generate, "password")
        return password, PRINTED if made else ""
    from adjudicator.folder import players
    from adjudicator.mail import welcome
    from adjudicator.store.names import check_name
    kept = players.generate_password()
    welcome.keep_password(game, check_name(players.seat_id(game, power), "power"), email, kept)
    return kept, WELCOMED


@contextmanager
def forgotten_if_refused(game: Path, power: str, told: str) -> Iterator[None]:
    """A password kept for a welcome is kept only if the player it was made for was seated."""
    try:
        yield
    except BaseException:
        if told == WELCOMED:
            from adjudicator.folder import players
            from adjudicator.mail import welcome
            welcome.forget_password(game, players.seat_id(game, power))
        raise


@player_group.command("passwd")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("power")
@click.option("--generate-password", is_flag=True, help="the judge makes the password and prints it once")
@friendly_errors
@locked
def player_passwd(game: Path, power: str, generate_password: bool) -> None:
    """Set a new password for POWER's player."""
    from adjudicator.folder import players
    password, made = new_password(None, generate_password, "new password")
    players.set_password(game, power, password)
    click.echo("password changed" + (f": {password}  (tell the player; it is not shown again)" if made else ""))


@player_group.command("list")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@friendly_errors
def player_list(game: Path) -> None:
    """Each seat: its player, address, orders in for this phase, phases missed in a row."""
    from adjudicator.folder.seats import seat_rows
    for row in seat_rows(game):
        click.echo(row)


@player_group.command("remove")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("power")
@friendly_errors
@locked
def player_remove(game: Path, power: str) -> None:
    """Take POWER's player off the game; the power stays, NMR until someone takes it."""
    from adjudicator.folder import players
    removed = players.remove_player(game, power)
    click.echo(f"{removed['power']}: removed {removed.get('name') or ''} <{removed.get('email')}>")


@player_group.command("replace")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("power")
@click.option("--name", required=True, help="the new player's name")
@click.option("--email", required=True, help="the new player's address")
@click.option("--password", default=None,
              help=f"the new player's password, at least {MIN_CHOSEN} characters (default: the judge makes "
                   "one and mails it in the player's welcome)")
@click.option("--generate-password", is_flag=True, help="the judge makes the password and prints it once")
@click.option("--ask-password", is_flag=True, help="type the new player's password at a prompt")
@friendly_errors
@locked
def player_replace(game: Path, power: str, name: str, email: str, password: str | None, generate_password: bool,
                   ask_password: bool) -> None:
    """Hand POWER to a new player with a new password; its history stays. The
    next `run` (or `mail`) sends them a welcome with the latest results."""
    from adjudicator.folder import players
    from adjudicator.folder.seats import current_phase_name
    password, told = seat_password(game, power, email, password, generate_password, ask_password)
    with forgotten_if_refused(game, power, told):
        entry = players.replace_player(game, power, name, email, password, since=current_phase_name(game))
    click.echo(f"{entry['power']}: {entry['name']} <{entry['email']}> (before: "
               + ", ".join(f"{p['name'] or '?'} until {p['until']}" for p in entry["previous"]) + ")")
    if told:
        click.echo(told.format(password=password))


COMMANDS = [player_group]
