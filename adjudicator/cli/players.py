"""The `player` group: who plays which power (or seat), their address and password."""

from __future__ import annotations

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
              help=f"the player's password, at least {MIN_CHOSEN} characters (prompted for if not given)")
@click.option("--generate-password", is_flag=True, help="the judge makes the password and prints it once")
@friendly_errors
@locked
def player_add(game: Path, power: str, name: str, email: str, password: str | None,
               generate_password: bool) -> None:
    """Set POWER's player in GAME."""
    from adjudicator.folder import players
    password, made = new_password(password, generate_password, "password")
    entry = players.add_player(game, power, name, email, password)
    click.echo(f"{entry['power']}: {entry['name']} <{entry['email']}>")
    if made:
        click.echo(f"password: {password}  (tell the player; it is not kept in clear and not shown again)")


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
              help=f"the new player's password, at least {MIN_CHOSEN} characters (prompted for if not given)")
@click.option("--generate-password", is_flag=True, help="the judge makes the password and prints it once")
@friendly_errors
@locked
def player_replace(game: Path, power: str, name: str, email: str, password: str | None,
                   generate_password: bool) -> None:
    """Hand POWER to a new player with a new password; its history stays."""
    from adjudicator.folder import players
    from adjudicator.folder.seats import current_phase_name
    password, made = new_password(password, generate_password, "password")
    entry = players.replace_player(game, power, name, email, password, since=current_phase_name(game))
    click.echo(f"{entry['power']}: {entry['name']} <{entry['email']}> (before: "
               + ", ".join(f"{p['name'] or '?'} until {p['until']}" for p in entry["previous"]) + ")")
    if made:
        click.echo(f"password: {password}  (tell the player; it is not kept in clear and not shown again)")


COMMANDS = [player_group]
