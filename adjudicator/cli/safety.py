"""The GM's commands for the judge's safeguards: `seal` (the history's keyed
seal, after a deliberate repair) and `unlock` (a player locked out after
wrong passwords)."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator.cli.errors import friendly_errors, locked


@click.command("seal")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@friendly_errors
@locked
def seal_command(game: Path) -> None:
    """Seal GAME's history files as they are now, with the game's key (after the GM repaired one by hand)."""
    from adjudicator.store import seal
    names = seal.reseal(game)
    click.echo(f"sealed {len(names)} history file(s): {', '.join(names)}")


@click.command("unlock")
@click.argument("game", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("who")
@friendly_errors
@locked
def unlock_command(game: Path, who: str) -> None:
    """Let WHO (a power, player or address locked out after wrong passwords) mail GAME again now."""
    from adjudicator.mail.guesses import unlock
    click.echo(unlock(game, who))


COMMANDS = [seal_command, unlock_command]
