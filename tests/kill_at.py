"""The children of the kill test (test_folder_safety), from a process of their own.

The test asks for fifty runs of `adjudicate`, each killed (SIGKILL) at its
Nth write-path system call, an fsync or a rename. Starting a fresh Python
for each would cost minutes, and forking the test process itself is unsafe:
under pytest-xdist it has threads, and a forked child of a threaded process
may deadlock (Python 3.12+ warns of it). So the test starts this script once:
a single-threaded process that warms up with one adjudication of its own,
then forks one child per request. The children start warm, in milliseconds.

Protocol, one line each way: the test writes `GAME ORDERS KILL_AT`, this
script answers with the child's wait status (os.waitpid's), or exits when its
input closes. It refuses to fork while a second thread is alive."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from adjudicator.cli.main import cli


def adjudicate_and_die(game: str, orders: str, kill_at: int) -> None:
    """Adjudicate GAME with ORDERS, and kill this process at its kill_at-th fsync or rename."""
    count = [0]
    real_fsync, real_replace = os.fsync, os.replace

    def tick() -> None:
        count[0] += 1
        if count[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def fsync(fd: int) -> None:
        tick()
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        tick()
        real_replace(src, dst)
        tick()

    os.fsync, os.replace = fsync, replace   # type: ignore[assignment]
    CliRunner().invoke(cli, ["adjudicate", game, orders])


def serve(template: Path, orders: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:       # the warm-up: load, parse and compile once
        shutil.copytree(template, Path(scratch) / "game")
        CliRunner().invoke(cli, ["adjudicate", str(Path(scratch) / "game"), orders])
    print("ready", flush=True)
    for request in sys.stdin:
        game, orders, kill_at = request.split()
        if threading.active_count() != 1:
            sys.exit(f"kill_at: {threading.active_count()} threads are alive; a fork could deadlock its child")
        pid = os.fork()
        if pid == 0:   # pragma: no cover - the child never returns
            try:
                adjudicate_and_die(game, orders, int(kill_at))
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        print(status, flush=True)


if __name__ == "__main__":
    serve(Path(sys.argv[1]), sys.argv[2])
