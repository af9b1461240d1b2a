"""The commands that change how a Diplomacy game stands outside its phases:
a power declared in civil disorder, a draw the GM records, and the players'
votes to end the game. Imported only when one of them runs (see
main.LazyCommand)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from adjudicator.cli.errors import friendly_errors
from adjudicator.errors import AdjudicatorError


def game_kind(folder: Path) -> str:
    from adjudicator.folder import folders
    return str(folders.game_meta(folder).get("kind", "diplomacy"))


def _replace_current_state(game: Path, transform: Callable[[Any, Any], tuple[Any, list[str]]],
                           told: Callable[[Any, Any], dict[str, Any]] | None = None) -> list[str]:
    """Change the pending state of the current phase. The file it replaces is
    kept under history/superseded/, so nothing is lost. `told` gives the
    notices the change owes players (mailed by `run`), written with it."""
    from adjudicator.folder import gamefolder
    from adjudicator.store import folderlock, storage
    from adjudicator.store.owed import DECLARED_NOTICES, notices_path
    with folderlock.hold(game):
        _, variant, state, path = gamefolder.load_current(game)
        new_state, notes = transform(variant, state)
        also: list[tuple[Path, str | bytes]] = []
        notices = told(variant, state) if told is not None else {}
        if notices:
            also.append((notices_path(game, state.phase.slug, DECLARED_NOTICES), storage.dump_yaml(notices)))
        gamefolder.replace_current(game, variant, path, new_state, also)
    return notes


@click.command("civil-disorder")
@click.argument("game", type=click.Path(path_type=Path))
@click.argument("power")
@friendly_errors
def civil_disorder(game: Path, power: str) -> None:
    """Declare POWER in civil disorder, in variants whose rules have it (Ambition & Empire)."""
    from adjudicator.folder.gamefolder import ANNOUNCE

    def transform(variant: Any, state: Any) -> tuple[Any, list[str]]:
        declare = variant.rules.civil_disorder
        if declare is None:
            raise AdjudicatorError(f"{variant.name} has no civil disorder declaration",
                                   hint="a power without orders is NMR; 'adjudicator player add' "
                                        "hands it to a new player")
        pid = variant.power_lookup(power)
        if pid is None:
            raise AdjudicatorError(f"no such power {power!r}", hint=variant.power_suggestion(power))
        try:
            after, notes = declare(variant, state, pid)
        except ValueError as exc:
            raise AdjudicatorError(str(exc)) from None
        # Announced in the next public report (and so in every player's mail).
        after.extra[ANNOUNCE] = [*after.extra.get(ANNOUNCE, []), *notes]
        return after, notes
    def told(variant: Any, state: Any) -> dict[str, Any]:
        from adjudicator.folder.gamefolder import read_game
        from adjudicator.folder.notices import civil_disorder_notices
        from adjudicator.folder.players import seat_id
        name = str(read_game(game).get("name") or game.name)
        return civil_disorder_notices(variant, state, seat_id(game, power), name)
    for note in _replace_current_state(game, transform, told):
        click.echo(note)


@click.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.option("--draw", is_flag=True, required=True, help="record a draw shared by every surviving power")
@friendly_errors
def end(game: Path, draw: bool) -> None:
    """End GAME by a draw shared by every surviving power, and write
    reports/end.txt (the result, the final centres, the centres year by year)."""
    if game_kind(game) == "turn-file":
        raise AdjudicatorError("a turn-file game ends by its own rules", hint="see 'adjudicator status'")
    from adjudicator.folder import gamefolder
    from adjudicator.store import folderlock
    with folderlock.hold(game):
        _, variant, state, _ = gamefolder.load_current(game)
        result = {"draw": variant.rules.survivors(variant, state), "phase": str(state.phase)}
        written = gamefolder.end_game(game, result)
    from adjudicator.folder.endreport import result_sentence
    click.echo(result_sentence(variant, result))
    click.echo(f"wrote {written[1]}")


@click.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.argument("power")
@click.argument("vote", nargs=-1, required=True)
@friendly_errors
def vote(game: Path, power: str, vote: tuple[str, ...]) -> None:
    """Record POWER's vote: draw [POWER ...], concede POWER, or none.

    Votes stay secret (gm/votes.yaml) until every survivor agrees; then the
    game ends with that result and reports/end.txt is written."""
    from adjudicator.folder import votes
    from adjudicator.folder.endreport import result_sentence
    from adjudicator.store import folderlock, phasecommit, storage
    if game_kind(game) == "turn-file":
        raise AdjudicatorError("votes are for Diplomacy games")
    from adjudicator.folder import gamefolder
    with folderlock.hold(game):
        meta, variant, state, _ = gamefolder.load_current(game)
        if state.result:
            raise AdjudicatorError("the game is already over")
        pid = variant.power_lookup(power)
        if pid is None:
            raise AdjudicatorError(f"no such power {power!r}", hint=variant.power_suggestion(power))
        tally, result = votes.cast(game, variant, state, pid, list(vote), bool(meta.get("partial_draws")))
        phasecommit.commit(game, [(game / votes.VOTES, storage.dump_yaml(tally))])
        if result is not None:
            gamefolder.end_game(game, result)
    click.echo(f"{variant.power_name(pid)}: vote recorded (secret until every survivor agrees)")
    if result is not None:
        click.echo("unanimous: " + result_sentence(variant, result))
