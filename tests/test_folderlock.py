"""The game's lock at its edges: how long a run waits (ADJUDICATOR_LOCK_WAIT),
and a lock file removed between its opening and its locking, which guards
no name and so is not held (a run that held it would run beside another)."""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest

from adjudicator.errors import GameFolderError
from adjudicator.store import folderlock

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX flock; Windows uses filelock")
fcntl = pytest.importorskip("fcntl")


@pytest.mark.parametrize(("setting", "seconds"), [(None, 5.0), ("0.5", 0.5), ("0", 0.0), ("-3", 0.0),
                                                  ("soon", 5.0)])
def test_the_wait_is_the_setting_never_below_zero(setting: str | None, seconds: float,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if setting is None:
        monkeypatch.delenv("ADJUDICATOR_LOCK_WAIT", raising=False)
    else:
        monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", setting)
    assert folderlock.wait_seconds() == seconds


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_a_lock_file_unlinked_before_it_is_locked_is_not_held(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / ".lock"
    flock = fcntl.flock

    def unlinked_first(fd: int, operation: int) -> None:
        path.unlink()                      # another run removed it after this one opened it
        flock(fd, operation)

    before = open_descriptors()
    monkeypatch.setattr(fcntl, "flock", unlinked_first)
    assert folderlock._try_flock(path) is None
    assert open_descriptors() == before
    monkeypatch.setattr(fcntl, "flock", flock)
    fd = folderlock._try_flock(path)        # made again, and held
    assert fd is not None and path.exists()
    os.close(fd)


def test_a_run_that_waits_tries_again_every_twentieth_of_a_second(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: the pauses the waiting run asks for."""
    holder = os.open(tmp_path / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(holder, fcntl.LOCK_EX)
    pauses: list[float] = []
    monkeypatch.setattr(time, "sleep", lambda seconds: pauses.append(seconds))
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "0.3")
    try:
        with pytest.raises(GameFolderError, match="another run holds the game"), \
                folderlock.hold(tmp_path):
            pass
    finally:
        os.close(holder)
    assert pauses and max(pauses) == 0.05 and len(pauses) > 1


def test_with_no_time_left_a_run_stops_without_a_pause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that stands still: the run must give up at once, not wait for time to pass."""
    holder = os.open(tmp_path / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(holder, fcntl.LOCK_EX)
    pauses: list[float] = []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        assert len(pauses) < 3, "still waiting with no time left"

    monkeypatch.setattr(time, "monotonic", lambda: 1000.0)
    monkeypatch.setattr(time, "sleep", pause)
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "0")
    try:
        with pytest.raises(GameFolderError, match="another run holds the game"), folderlock.hold(tmp_path):
            pass
    finally:
        os.close(holder)
    assert pauses == []


def test_a_lock_file_made_where_missing_is_the_owners_alone(tmp_path: Path) -> None:
    """As `new` makes it (0600): with a lock file others can read, any local
    user could hold the game's lock, since flock needs no write access."""
    old = os.umask(0)
    try:
        fd = folderlock._try_flock(tmp_path / ".lock")
    finally:
        os.umask(old)
    assert fd is not None
    os.close(fd)
    assert stat.S_IMODE((tmp_path / ".lock").stat().st_mode) == 0o600
