"""One run at a time per game folder.

Every command that changes a game folder holds GAME/.lock, an OS file lock,
so a killed run never leaves it held: on POSIX `fcntl.flock` from the standard
library, elsewhere (Windows) the filelock library. A second run waits briefly,
then stops with "another run holds the game". Holding the lock is also when an
interrupted phase commit is finished or discarded."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from adjudicator.errors import GameFolderError
from adjudicator.store import phasecommit
from adjudicator.store.phasecommit import LOCK_NAME

DEFAULT_WAIT = 5.0          # seconds; ADJUDICATOR_LOCK_WAIT overrides it
POLL = 0.05                 # seconds between tries while another run holds the lock


def wait_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("ADJUDICATOR_LOCK_WAIT", DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


def _held_elsewhere(folder: Path) -> GameFolderError:
    return GameFolderError("another run holds the game", file=str(folder),
                           hint="wait for it to finish and run again")


def _cannot_lock(folder: Path, exc: OSError) -> GameFolderError:
    return GameFolderError(f"cannot lock the game: {exc.strerror}", file=str(folder))


@contextmanager
def hold(folder: Path) -> Iterator[list[str]]:
    """Hold the game's lock; yields the notes of any interrupted commit it finished."""
    if not folder.is_dir():
        raise GameFolderError("no such game folder", file=str(folder),
                              hint="create one with 'adjudicator new'")
    with _locked(folder):
        yield phasecommit.recover(folder)


if sys.platform == "win32":  # pragma: no cover - Windows has no fcntl
    @contextmanager
    def _locked(folder: Path) -> Iterator[None]:
        import filelock  # only commands that change a game pay for it
        lock = filelock.FileLock(str(folder / LOCK_NAME), timeout=wait_seconds())
        try:
            lock.acquire()
        except filelock.Timeout:
            raise _held_elsewhere(folder) from None
        except OSError as exc:
            raise _cannot_lock(folder, exc) from None
        try:
            yield
        finally:
            lock.release()
else:
    # Issue 14: the filelock library costs ~15 ms of imports (logging, secrets,
    # decimal) in every command that writes; on POSIX it only wraps this flock,
    # which the standard library does directly. flock locks interoperate with
    # filelock's, and the kernel drops them when the holder dies, however it dies.
    import errno
    import fcntl
    import time

    _CONTENDED = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES})

    def _try_flock(path: Path) -> int | None:
        """An open descriptor holding the lock on `path`, or None while another holds it."""
        # 0600, as `new` makes it: flock needs no write access, so a lock file
        # others can read is one any local user could hold.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.fstat(fd).st_nlink > 0:
                return fd
            # The file was unlinked between open and flock: that lock guards no name.
        except OSError as exc:
            if exc.errno not in _CONTENDED:
                os.close(fd)
                raise
        os.close(fd)
        return None

    @contextmanager
    def _locked(folder: Path) -> Iterator[None]:
        path = folder / LOCK_NAME
        deadline = time.monotonic() + wait_seconds()
        try:
            fd = _try_flock(path)
            while fd is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _held_elsewhere(folder)
                time.sleep(min(POLL, left))
                fd = _try_flock(path)
        except OSError as exc:
            raise _cannot_lock(folder, exc) from None
        try:
            yield
        finally:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
