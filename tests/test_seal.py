"""The keyed seal of a game's history (store/seal): which files it covers,
the key and seal files as the judge writes and reads them, and the history
files it refuses. Each case is a small folder made by hand."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

from adjudicator.errors import DataFileError
from adjudicator.store import seal, storage
from adjudicator.store.seal import (
    KEY,
    SEALS,
    check_history,
    is_history,
    mac,
    read_key,
    read_seals,
    reseal,
)

KEY_BYTES = bytes(range(32))


def with_key(folder: Path, text: str | None = None) -> Path:
    (folder / "gm").mkdir(parents=True, exist_ok=True)
    (folder / KEY).write_text(KEY_BYTES.hex() + "\n" if text is None else text, encoding="ascii")
    return folder


@pytest.mark.parametrize("relative, covered", [
    ("history/1901-spring.yaml", True), ("history/1901-spring.txt", False), ("history/old/1901.yaml", False),
    ("superseded/1901-spring.yaml", False), ("1901-spring.yaml", False), ("reports/history/x.yaml", False),
])
def test_is_history(relative: str, covered: bool) -> None:
    assert is_history(Path(relative)) is covered


def test_mac_is_hmac_sha256_of_name_nul_bytes() -> None:
    assert mac(KEY_BYTES, "a.yaml", b"x") == hmac.new(KEY_BYTES, b"a.yaml\0x", hashlib.sha256).hexdigest()


def test_read_key(tmp_path: Path) -> None:
    assert read_key(tmp_path) is None
    assert read_key(with_key(tmp_path)) == KEY_BYTES
    assert read_key(with_key(tmp_path, "  " + KEY_BYTES.hex() + "  \n")) == KEY_BYTES
    for damaged in ("zz" * 32, KEY_BYTES.hex()[:-2], KEY_BYTES.hex() + "00", ""):
        with pytest.raises(DataFileError) as caught:
            read_key(with_key(tmp_path, damaged))
        assert caught.value.message == "the game's seal key is damaged"
        assert caught.value.file == str(tmp_path / KEY)
    (tmp_path / KEY).write_bytes(b"\xff" * 64)
    with pytest.raises(DataFileError, match="cannot read the game's seal key"):
        read_key(tmp_path)
    (tmp_path / KEY).unlink()
    (tmp_path / KEY).mkdir()
    with pytest.raises(DataFileError, match="cannot read the game's seal key"):
        read_key(tmp_path)


def test_read_seals_skips_lines_without_a_name(tmp_path: Path) -> None:
    assert read_seals(tmp_path) == {}
    (tmp_path / "gm").mkdir()
    (tmp_path / SEALS).write_text("aa a.yaml\nbb\ncc c d.yaml\n\n", encoding="utf-8")
    assert read_seals(tmp_path) == {"a.yaml": "aa", "c d.yaml": "cc"}


def test_sealing_writes_without_history_adds_nothing(tmp_path: Path) -> None:
    assert seal.sealing_writes(tmp_path, [(Path("game.yaml"), b"x"), (Path("reports/r.yaml"), b"y")]) == []
    assert not (tmp_path / "gm").exists()


def test_the_first_sealed_write_makes_a_key_and_seals_the_history_already_there(tmp_path: Path) -> None:
    (tmp_path / "history" / "dir.yaml").mkdir(parents=True)
    (tmp_path / "history" / "1901-spring.yaml").write_bytes(b"old\n")
    (tmp_path / "history" / "notes.txt").write_bytes(b"not history\n")
    (tmp_path / "history" / "link.yaml").symlink_to(tmp_path / "history" / "1901-spring.yaml")
    extra = seal.sealing_writes(tmp_path, [(Path("history/1901-fall.yaml"), b"new\n")])
    assert [path for path, _ in extra] == [KEY, SEALS]
    key = bytes.fromhex(extra[0][1].decode("ascii"))
    assert len(key) == 32 and extra[0][1].endswith(b"\n")
    fall, spring = mac(key, "1901-fall.yaml", b"new\n"), mac(key, "1901-spring.yaml", b"old\n")
    assert extra[1][1].decode("utf-8") == f"{fall} 1901-fall.yaml\n{spring} 1901-spring.yaml\n"


def test_a_sealed_write_with_a_key_updates_the_seals(tmp_path: Path) -> None:
    with_key(tmp_path)
    (tmp_path / SEALS).write_text("aa 1901-spring.yaml\n", encoding="utf-8")
    extra = seal.sealing_writes(tmp_path, [(Path("history/1901-fall.yaml"), b"new\n"), (Path("game.yaml"), b"g")])
    fall = mac(KEY_BYTES, "1901-fall.yaml", b"new\n")
    assert extra == [(SEALS, f"{fall} 1901-fall.yaml\naa 1901-spring.yaml\n".encode())]


def history_file(folder: Path, name: str, text: str) -> Path:
    (folder / "history").mkdir(parents=True, exist_ok=True)
    path = folder / "history" / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_history(tmp_path: Path) -> None:
    path = history_file(tmp_path, "1901.yaml", "state\n")
    check_history(path, "anything\n")                       # no key: a game older than the keyed seal
    with_key(tmp_path)
    sealed = mac(KEY_BYTES, "1901.yaml", b"state\n")
    (tmp_path / SEALS).write_text(f"{sealed} 1901.yaml\n", encoding="utf-8")
    check_history(path, "state\n")
    check_history(tmp_path / "reports" / "1901.yaml", "not covered\n")
    for text, name in (("edited\n", "1901.yaml"), ("state\n", "1902.yaml")):
        with pytest.raises(DataFileError) as caught:
            check_history(tmp_path / "history" / name, text)
        assert caught.value.message.startswith("this history file is not the one the judge wrote")
        assert caught.value.file == str(tmp_path / "history" / name)


def test_reseal_seals_every_whole_history_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="no history files to seal"):
        reseal(tmp_path)
    history_file(tmp_path, "1901.yaml", storage.seal("a: 1\n"))
    history_file(tmp_path, "1902.yaml", storage.seal("a: 2\n"))
    (tmp_path / "history" / "sub.yaml").mkdir()
    assert reseal(tmp_path) == ["1901.yaml", "1902.yaml"]
    key = read_key(tmp_path)
    assert key is not None
    assert read_seals(tmp_path) == {name: mac(key, name, (tmp_path / "history" / name).read_bytes())
                                    for name in ("1901.yaml", "1902.yaml")}
    reseal(tmp_path)
    assert read_key(tmp_path) == key                        # a second reseal keeps the key
    history_file(tmp_path, "1903.yaml", "cut short\n")
    with pytest.raises(DataFileError, match="incomplete"):
        reseal(tmp_path)
