"""A phase is all or nothing, one run holds the game, names stay names.

The kill test starts a warm child per kill (so 50 kills cost seconds, not
minutes); the child runs `adjudicate` in-process and SIGKILLs itself at the
Nth write-path system call (an fsync or a rename), a point drawn at random.
The children come from a separate, single-threaded process (tests/kill_at.py)
that has run one adjudication to warm up, so the test process, which has
threads under pytest-xdist, never forks itself (a fork of a threaded
process may deadlock the child; Python 3.12+ warns of it).
The full-disk test runs `adjudicate` in a tmpfs too small for the phase, at
many sizes; where this machine cannot mount one, it injects ENOSPC instead."""

from __future__ import annotations

import errno
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import filelock
import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store import phasecommit

ROOT = Path(__file__).resolve().parent.parent
SPRING = ROOT / "orders" / "standard" / "1901-spring.txt"
IGNORED = {".lock"}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in IGNORED}


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """A new game (before Spring 1901) and what it looks like after the Spring orders."""
    base = tmp_path_factory.mktemp("base")
    assert invoke("new", str(base / "before"))[0] == 0
    shutil.copytree(base / "before", base / "after")
    assert invoke("adjudicate", str(base / "after"), str(SPRING))[0] == 0
    return base / "before", snapshot(base / "before"), snapshot(base / "after")


class KillServer:
    """tests/kill_at.py, started once: it forks one warm child per kill."""

    def __init__(self, template: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "kill_at.py"), str(template), str(SPRING)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.answer() == "ready"

    def answer(self) -> str:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        assert ready, "tests/kill_at.py gave no answer in 120 s"
        return self.process.stdout.readline().strip()

    def run_and_kill_at(self, game: Path, kill_at: int) -> int:
        """A child adjudicates and kills itself at its kill_at-th fsync/rename; its wait status."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{game} {SPRING} {kill_at}\n")
        self.process.stdin.flush()
        return int(self.answer())

    def close(self) -> None:
        try:
            self.process.communicate(timeout=60)          # it exits when its input closes
        except subprocess.TimeoutExpired:                 # pragma: no cover - only if it hangs
            self.process.kill()
            self.process.communicate()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill test's helper forks its children (POSIX only)")
def test_fifty_random_kills_leave_no_half_written_phase(
        tmp_path: Path, states: tuple[Path, dict[str, bytes], dict[str, bytes]]) -> None:
    template, before, after = states
    rng = random.Random(2026)
    half_written = []
    killed = 0
    server = KillServer(template)
    try:
        for attempt in range(50):
            game = tmp_path / f"g{attempt}"
            shutil.copytree(template, game)
            status = server.run_and_kill_at(game, rng.randint(1, 60))
            killed += os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            phasecommit.recover(game)          # what the next run does first, under the lock
            seen = snapshot(game)
            if seen not in (before, after):
                half_written.append(attempt)
            # A re-run finishes the job: the folder ends exactly as one clean run leaves it.
            code, out = invoke("adjudicate", str(game), str(SPRING))
            assert code in (0, 2), out
            assert snapshot(game) == after, attempt
            assert not list(game.rglob("*.tmp")) and not (game / phasecommit.STAGING).exists()
    finally:
        server.close()
    assert server.process.returncode == 0
    assert half_written == []
    assert killed >= 40        # most draws land inside the run's writes, not after it


def small_tmpfs(path: Path, size: int) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True, check=False)
    return done.returncode == 0


def test_full_disk_leaves_the_phase_before_or_after(
        tmp_path: Path, states: tuple[Path, dict[str, bytes], dict[str, bytes]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    template, before, after = states
    need = sum(len(b) for b in after.values())
    have = sum(len(b) for b in before.values())
    outcomes = []
    probe = tmp_path / "probe"
    can_mount = os.geteuid() == 0 and shutil.which("mount") is not None and small_tmpfs(probe, 1 << 20)
    if can_mount:
        subprocess.run(["umount", str(probe)], check=True)
    for step in range(21):
        game = tmp_path / f"disk{step}" / "g"
        if can_mount:
            # From too small for the game itself to comfortably large; tmpfs rounds to pages.
            size = have + 8192 + (2 * need - have) * step // 20
            assert small_tmpfs(game.parent, size)
            try:
                shutil.copytree(template, game)
            except OSError:
                subprocess.run(["umount", str(game.parent)], check=True)
                continue
        else:
            shutil.copytree(template, game)
            fail_after = [step]
            real_write = phasecommit._write_synced

            def write(path: Path, data: bytes, mode: int = 0o600, fail_after: list[int] = fail_after,
                      real_write: Any = real_write) -> None:
                if fail_after[0] <= 0:
                    raise OSError(errno.ENOSPC, "No space left on device")
                fail_after[0] -= 1
                real_write(path, data, mode)
            monkeypatch.setattr(phasecommit, "_write_synced", write)
        try:
            code, out = invoke("adjudicate", str(game), str(SPRING))
            seen = snapshot(game)
            assert seen in (before, after), (step, out)
            assert (code == 0) == (seen == after), out
            if code != 0:
                assert code == 2 and "nothing was changed" in out, out
            assert not (game / phasecommit.STAGING).exists()
            outcomes.append(code)
        finally:
            if can_mount:
                subprocess.run(["umount", str(game.parent)], check=True)
            monkeypatch.undo()
    assert 2 in outcomes and 0 in outcomes, outcomes      # both ends were really reached


def test_a_second_run_waits_then_says_another_run_holds_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    before = snapshot(game)
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "0.2")
    with filelock.FileLock(str(game / ".lock")):
        code, out = invoke("adjudicate", str(game), str(SPRING))
    assert code == 2 and "another run holds the game" in out
    assert snapshot(game) == before


def test_concurrent_adjudications_adjudicate_once(tmp_path: Path) -> None:
    """Two real processes at once: one adjudicates, the other is refused."""
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    command = [sys.executable, "-m", "adjudicator", "adjudicate", str(game), str(SPRING)]
    env = dict(os.environ, ADJUDICATOR_LOCK_WAIT="30")
    for _ in range(3):
        procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
                 for _ in range(2)]
        results = [(p.wait(timeout=120), (p.stdout.read() if p.stdout else b"").decode()) for p in procs]
        codes = sorted(code for code, _ in results)
        assert codes == [0, 2], results
        assert any("already adjudicated" in out for _, out in results), results
        shutil.rmtree(game)
        assert invoke("new", str(game))[0] == 0
        time.sleep(0)


@pytest.mark.parametrize("players", ["../../../x,bob,carol", "/tmp/abs,bob,carol", "a\nb,bob,carol",
                                     "..,bob,carol", "al ice,bob,carol"])
def test_player_names_cannot_leave_the_game_folder(tmp_path: Path, players: str) -> None:
    work = tmp_path / "deep" / "er"
    work.mkdir(parents=True)
    code, out = invoke("new", str(work / "g"), "--variant", "seven-wonders", "--players", players)
    assert code == 2 and "is not allowed" in out, out
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_a_forged_line_in_a_stored_orders_file_fails_adjudication(tmp_path: Path) -> None:
    """H1: whatever put it there, a heading for another power inside Italy's
    collected orders is caught at adjudication, naming the file and line."""
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    stored = game / "orders" / "1901-spring-movement"
    stored.mkdir(parents=True)
    (stored / "italy.txt").write_text("A rom - ven\nGermany:\nA mun - tyr\n", encoding="utf-8")
    before = snapshot(game)
    code, out = invoke("adjudicate", str(game))
    assert code == 2, out
    assert "italy.txt:3:" in out and "a line for Germany in Italy's orders" in out
    assert snapshot(game) == before


def test_nothing_collected_needs_nmr(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    code, out = invoke("adjudicate", str(game))
    assert code == 2 and "no orders have been collected" in out and "--nmr" in out
    code, out = invoke("adjudicate", str(game), "--nmr")
    assert code == 0, out
    report = (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert "France" in report


def test_gm_file_and_mailed_orders_merge_with_the_file_winning(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    stored = game / "orders" / "1901-spring-movement"
    stored.mkdir(parents=True)
    (stored / "france.txt").write_text("A par - pic\n", encoding="utf-8")
    (stored / "germany.txt").write_text("A mun - ruh\n", encoding="utf-8")
    gm = tmp_path / "gm.txt"
    gm.write_text("France:\nA par - bur\n", encoding="utf-8")
    code, out = invoke("adjudicate", str(game), str(gm))
    assert code == 0, out
    assert "France: the orders file replaces the orders collected by mail" in out
    assert "Germany: orders collected by mail are used" in out
    used = (game / "orders" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert "A par - bur" in used and "A mun - ruh" in used and "A par - pic" not in used


def test_reports_and_maps_are_publishable_and_the_rest_is_private(tmp_path: Path) -> None:
    """Issue 10: files that may go on the web are world-readable; game.yaml,
    history, orders and private reports are for their owner only."""
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("adjudicate", str(game), str(SPRING))[0] == 0
    modes = {str(p.relative_to(game)): p.stat().st_mode & 0o777 for p in game.rglob("*") if p.is_file()}
    assert modes["reports/1901-spring-movement.txt"] == 0o644
    assert modes["maps/1901-spring-movement.svg"] == 0o644
    for private in ("game.yaml", "history/1901-fall-movement.yaml", "private/france/1901-spring-movement.txt",
                    "orders/1901-spring-movement.txt"):
        assert modes[private] == 0o600, private
