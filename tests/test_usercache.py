"""The user's cache directory (store/usercache.py): where it is, made 0700,
refused where others could write to it or it is not the user's own; and
what pruning removes (files of the given names unused for thirty days)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from adjudicator.store import usercache


def test_the_cache_is_under_xdg_cache_home_or_the_home_cache(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    old = os.umask(0)
    try:
        assert usercache.cache_dir() == tmp_path / "xdg" / "adjudicator"
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "xdg" / "adjudicator").stat().st_mode) == 0o700
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for relative in ("", "relative/cache"):     # only an absolute XDG_CACHE_HOME counts
        monkeypatch.setenv("XDG_CACHE_HOME", relative)
        assert usercache.cache_dir() == tmp_path / "home" / ".cache" / "adjudicator"


@pytest.mark.parametrize("mode", [0o720, 0o702, 0o755, 0o700])
def test_a_cache_others_may_write_to_is_not_used(mode: int, monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "adjudicator").mkdir()
    (tmp_path / "adjudicator").chmod(mode)
    expected = None if mode & 0o022 else tmp_path / "adjudicator"
    assert usercache.cache_dir() == expected


def test_a_cache_not_the_users_own_or_not_a_folder_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "adjudicator").mkdir(mode=0o700)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(tmp_path).st_uid + 1)
    assert usercache.cache_dir() is None
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert usercache.cache_dir() == tmp_path / "adjudicator"
    (tmp_path / "adjudicator").rmdir()
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (tmp_path / "adjudicator").symlink_to(tmp_path / "elsewhere")
    assert usercache.cache_dir() is None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    assert usercache.cache_dir() is None


def test_pruning_removes_the_named_files_unused_for_thirty_days(tmp_path: Path) -> None:
    now = time.time()
    ages = {"yaml-a.marshal": 30.5, "yaml-b.tmp": 31, "yaml-c.marshal": 29.5, "yaml-d.marshal": 0,
            "other-e.marshal": 31, "yaml-f.txt": 31}
    for name, days in ages.items():
        (tmp_path / name).write_text(name, encoding="utf-8")
        os.utime(tmp_path / name, (now - days * 86400, now - days * 86400))
    (tmp_path / "yaml-g.marshal").mkdir()           # not removable as a file: left, and no error
    os.utime(tmp_path / "yaml-g.marshal", (now - 40 * 86400, now - 40 * 86400))
    usercache.prune(tmp_path, "yaml-", (".marshal", ".tmp"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other-e.marshal", "yaml-c.marshal", "yaml-d.marshal",
                                                          "yaml-f.txt", "yaml-g.marshal"]
    usercache.prune(tmp_path / "none", "yaml-", (".marshal",))    # a missing folder is no error


def test_thirty_days_are_counted_to_the_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that stands still: a file unused for exactly thirty days stays, ten seconds more and it goes."""
    now = 2_000_000_000
    monkeypatch.setattr(time, "time", lambda: float(now))
    for name, age in (("yaml-exact.marshal", 30 * 86400), ("yaml-older.marshal", 30 * 86400 + 10),
                      ("yaml-newer.marshal", 30 * 86400 - 10)):
        (tmp_path / name).write_text(name, encoding="utf-8")
        os.utime(tmp_path / name, ns=((now - age) * 10**9, (now - age) * 10**9))
    usercache.prune(tmp_path, "yaml-", (".marshal",))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["yaml-exact.marshal", "yaml-newer.marshal"]


def test_a_link_is_judged_by_its_own_age_not_its_targets(tmp_path: Path) -> None:
    old = time.time() - 40 * 86400
    (tmp_path / "target").write_text("old", encoding="utf-8")
    os.utime(tmp_path / "target", (old, old))
    (tmp_path / "yaml-link.marshal").symlink_to(tmp_path / "target")
    usercache.prune(tmp_path, "yaml-", (".marshal",))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target", "yaml-link.marshal"]
