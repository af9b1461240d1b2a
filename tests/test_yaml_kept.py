"""Parsed YAML kept between runs in the user's cache directory, because parsing the
map and its geometry cost ~8-10 ms each of every run: they are parsed once per machine. What comes back is exactly
what parsing gives; an edited file is parsed again; a damaged cache or an
unusable directory is never an error; nothing is kept in a game folder."""

from __future__ import annotations

import datetime
import marshal
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.errors import DataFileError
from adjudicator.store import storage

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DATA = sorted([*(ROOT / "maps").glob("*.yaml"), *(ROOT / "variants").glob("*.yaml")])


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    yield tmp_path / "xdg" / "adjudicator"


def kept_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("yaml-*.marshal"))


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(k, j) and same(a[k], b[j]) for k, j in zip(a, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def refuse_to_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def parse(text: str, source: str) -> Any:
        raise AssertionError(f"{source} parsed, not read from the cache")
    monkeypatch.setattr(storage, "parse_yaml", parse)


def big(text: str) -> str:
    """The text padded with a comment to the size that is kept."""
    return text + "#" + "x" * storage.KEEP_MIN_CHARS + "\n"


@pytest.mark.parametrize("path", PACKAGE_DATA, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_kept_data_is_what_parsing_gives(path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = storage.parse_yaml(storage.read_text(path), str(path))
    cold = storage.read_yaml(path, keep=True)
    assert same(cold, parsed)
    if len(storage.read_text(path)) < storage.KEEP_MIN_CHARS:
        assert not kept_files(cache)                # small files parse faster than a cache file is read
        return
    assert len(kept_files(cache)) == 1
    refuse_to_parse(monkeypatch)
    warm = storage.read_yaml(path, keep=True)
    assert same(warm, parsed) and warm is not cold


def test_edited_file_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "data.yaml"
    path.write_text(big("a: 1\n"), encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    stat = path.stat()
    path.write_text(big("a: 2\n"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))     # the same time: only the text tells
    assert storage.read_yaml(path, keep=True) == {"a": 2}
    assert len(kept_files(cache)) == 2


def test_damaged_or_foreign_cache_files_are_parsed_again(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "data.yaml"
    path.write_text(big("a: [1, 2.5, true, null, x]\n"), encoding="utf-8")
    expected = {"a": [1, 2.5, True, None, "x"]}
    assert storage.read_yaml(path, keep=True) == expected
    [kept] = kept_files(cache)
    good = kept.read_bytes()
    for damage in (b"", b"garbage", good[:20], marshal.dumps(("0" * 64, {"a": "forged"})), marshal.dumps(7)):
        kept.write_bytes(damage)
        assert same(storage.read_yaml(path, keep=True), expected)
    assert kept.read_bytes() == good                # parsed again, and kept again


def test_errors_are_not_kept(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(big("a: 1\na: 2\n"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataFileError, match="given twice"):
            storage.read_yaml(path, keep=True)
    assert not kept_files(cache)


def test_only_plain_data_is_kept(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "dated.yaml"
    path.write_text(big("when: 2026-01-01\n"), encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"when": datetime.date(2026, 1, 1)}
    assert storage.read_yaml(path, keep=True) == {"when": datetime.date(2026, 1, 1)}
    assert not kept_files(cache)


@pytest.mark.parametrize("spoil", ["a file", "others may write"])
def test_unusable_cache_directory_falls_back(spoil: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    xdg.mkdir()
    if spoil == "a file":
        (xdg / "adjudicator").write_text("not a directory")
    else:
        (xdg / "adjudicator").mkdir()
        (xdg / "adjudicator").chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    path = ROOT / "maps" / "standard.yaml"
    assert same(storage.read_yaml(path, keep=True), storage.parse_yaml(storage.read_text(path), str(path)))
    if spoil == "others may write":
        assert not kept_files(xdg / "adjudicator")


def test_unwritable_cache_file_is_not_an_error(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "data.yaml"
    path.write_text(big("a: 1\n"), encoding="utf-8")
    monkeypatch.setattr(os, "replace", lambda *args: (_ for _ in ()).throw(PermissionError(13, "denied")))
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    assert not kept_files(cache) and not list(cache.glob("*.tmp"))


def test_files_unused_for_a_month_are_removed(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "used.yaml"
    path.write_text(big("a: 1\n"), encoding="utf-8")
    storage.read_yaml(path, keep=True)
    [used] = kept_files(cache)
    gone = cache / "yaml-0123456789ab-0000.marshal"
    gone.write_bytes(b"from a file long gone")
    other = cache / "not-ours.txt"
    other.write_text("kept")
    long_ago = 1_000_000.0
    for old in (used, gone, other):
        os.utime(old, (long_ago, long_ago))
    storage.read_yaml(path, keep=True)                         # read from the cache: now recently used
    assert used.stat().st_mtime > long_ago
    (tmp_path / "new.yaml").write_text(big("b: 2\n"), encoding="utf-8")
    storage.read_yaml(tmp_path / "new.yaml", keep=True)        # kept: the cache is pruned
    assert used.exists() and other.exists() and not gone.exists()


def test_only_map_and_variant_data_is_kept(cache: Path, tmp_path: Path) -> None:
    """A game folder's files and anything from a mail are read without `keep`:
    however big, nothing of theirs goes into the cache."""
    path = tmp_path / "state.yaml"
    path.write_text(big("a: 1\n"), encoding="utf-8")
    assert storage.read_yaml(path) == {"a": 1}
    assert not kept_files(cache)
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    assert len(kept_files(cache)) == 1
