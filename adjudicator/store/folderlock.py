"""One run at a time per game folder.

Every command that changes a game folder holds GAME/.lock (an OS file lock
through the filelock library, so a killed run never leaves it held). A second
run waits briefly, then stops with "another run holds the game". Holding the
lock is also when an interrupted phase commit is finished or discarded."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from adjudicator.errors import GameFolderError
from adjudicator.store import phasecommit
from adjudicator.store.phasecommit import LOCK_NAME

DEFAULT_WAIT = 5.0          # seconds; ADJUDICATOR_LOCK_WAIT overrides it


def wait_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("ADJUDICATOR_LOCK_WAIT", DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


@contextmanager
def hold(folder: Path) -> Iterator[list[str]]:
    """Hold the game's lock; yields the notes of any interrupted commit it finished."""
    if not folder.is_dir():
        raise GameFolderError("no such game folder", file=str(folder),
                              hint="create one with 'adjudicator new'")
    import filelock  # only commands that change a game pay for it
    lock = filelock.FileLock(str(folder / LOCK_NAME), timeout=wait_seconds())
    try:
        lock.acquire()
    except filelock.Timeout:
        raise GameFolderError("another run holds the game", file=str(folder),
                              hint="wait for it to finish and run again") from None
    except OSError as exc:
        raise GameFolderError(f"cannot lock the game: {exc.strerror}", file=str(folder)) from None
    try:
        yield phasecommit.recover(folder)
    finally:
        lock.release()
