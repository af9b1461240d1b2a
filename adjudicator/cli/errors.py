"""How every command meets the user: an AdjudicatorError is one line on
stderr with exit code 2, a bug is one line with exit code 3, never a
traceback; and a command that changes a game folder holds its lock."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from adjudicator.errors import AdjudicatorError

F = TypeVar("F", bound=Callable[..., Any])


def friendly_errors(func: F) -> F:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AdjudicatorError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted; nothing was written", err=True)
            sys.exit(130)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except BrokenPipeError:
            # The reader went away (`adjudicator status | head -1`): not an error.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except Exception as exc:  # noqa: BLE001 - the last guard of a judge run from cron
            # A bug, not bad input: one line, no traceback, and a distinct exit code.
            # A phase commit is all or nothing, so nothing half-written is left.
            click.echo(f"error: internal error ({type(exc).__name__}: {exc}); nothing was changed. "
                       "This is a bug in adjudicator: please report it with the command you ran.", err=True)
            sys.exit(3)
    return wrapper  # type: ignore[return-value]


def locked(func: F) -> F:
    """Run the command holding the lock of its `game` folder (see folderlock)."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        game = kwargs.get("game")
        if not isinstance(game, Path):
            return func(*args, **kwargs)
        from adjudicator.store import folderlock
        with folderlock.hold(game) as recovered:
            for note in recovered:
                click.echo(note)
            return func(*args, **kwargs)
    return wrapper  # type: ignore[return-value]
