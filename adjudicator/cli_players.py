"""The `player` group: who plays which power (or seat), their address and password."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator.cli_errors import friendly_errors, locked


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
    from adjudicator import players
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
    from adjudicator import players
    password = click.prompt("new password", hide_input=True, confirmation_prompt=True)
    players.set_password(game, power, password)
    click.echo("password changed")


COMMANDS = [player_group]
