"""The `player` group: who plays which power (or seat), their address and password."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator.cli.errors import friendly_errors, locked


@click.group("player")
def player_group() -> None:
    """Manage the players roster (names, email addresses, passwords)."""


@player_group.command("add")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("power")
@click.option("--name", required=True, help="the player's name: letters, digits, spaces, .'- (at most 60)")
@click.option("--email", required=True, help="the one address orders come from and results go to")
@click.option("--password", default=None, help="the player's password (prompted for if not given)")
@friendly_errors
@locked
def player_add(game: Path, power: str, name: str, email: str, password: str | None) -> None:
    """Set POWER's player in GAME."""
    from adjudicator.folder import players
    if password is None:
        password = click.prompt("password", hide_input=True, confirmation_prompt=True)
    entry = players.add_player(game, power, name, email, password)
    click.echo(f"{entry['power']}: {entry['name']} <{entry['email']}>")


@player_group.command("passwd")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("power")
@friendly_errors
@locked
def player_passwd(game: Path, power: str) -> None:
    """Set a new password for POWER's player."""
    from adjudicator.folder import players
    password = click.prompt("new password", hide_input=True, confirmation_prompt=True)
    players.set_password(game, power, password)
    click.echo("password changed")


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
@click.option("--password", default=None, help="the new player's password (prompted for if not given)")
@friendly_errors
@locked
def player_replace(game: Path, power: str, name: str, email: str, password: str | None) -> None:
    """Hand POWER to a new player with a new password; its history stays."""
    from adjudicator.folder import players
    from adjudicator.folder.seats import current_phase_name
    if password is None:
        password = click.prompt("password", hide_input=True, confirmation_prompt=True)
    entry = players.replace_player(game, power, name, email, password, since=current_phase_name(game))
    click.echo(f"{entry['power']}: {entry['name']} <{entry['email']}> (before: "
               + ", ".join(f"{p['name'] or '?'} until {p['until']}" for p in entry["previous"]) + ")")


COMMANDS = [player_group]
