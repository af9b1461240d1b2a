"""Start-up: on POSIX the game's lock is the standard library's
fcntl.flock, not the filelock library. It must keep filelock's behaviour:
wait up to ADJUDICATOR_LOCK_WAIT seconds, then exit 2 saying another run
holds the game; a run that dies, however it dies, leaves it free."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store import folderlock

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX flock; Windows uses filelock")

ROOT = Path(__file__).resolve().parent.parent
SPRING = ROOT / "orders" / "standard" / "1901-spring.txt"

HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture
def game(tmp_path: Path) -> Path:
    assert invoke("new", str(tmp_path / "g"))[0] == 0
    return tmp_path / "g"


def hold_in_other_process(game: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(game / ".lock")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def test_held_by_another_process_then_refused(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "0")
    holder = hold_in_other_process(game)
    try:
        code, out = invoke("adjudicate", str(game), str(SPRING))
        assert code == 2 and "another run holds the game" in out, out
        assert not (game / "reports").exists()
    finally:
        holder.kill()
        holder.wait()


def test_a_killed_holder_leaves_the_lock_free(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "0")
    holder = hold_in_other_process(game)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    code, out = invoke("adjudicate", str(game), str(SPRING))
    assert code == 0, out


def test_a_run_waits_for_the_holder_to_finish(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "60")
    holder = hold_in_other_process(game)
    released = threading.Timer(0.3, lambda: holder.communicate(""))   # the holder exits when stdin closes
    released.start()
    try:
        code, out = invoke("adjudicate", str(game), str(SPRING))
    finally:
        released.join()
    assert code == 0, out
    assert holder.returncode == 0


def test_lock_is_released_and_made_where_missing(game: Path) -> None:
    (game / ".lock").unlink()                     # a folder from before `new` made the lock file
    with folderlock.hold(game):
        assert (game / ".lock").exists()
    with folderlock.hold(game):                   # released: held again at once
        pass


def test_an_unusable_lock_file_is_a_clear_error(game: Path) -> None:
    (game / ".lock").unlink()
    (game / ".lock").mkdir()
    code, out = invoke("adjudicate", str(game), str(SPRING))
    assert code == 2 and "cannot lock the game" in out, out
