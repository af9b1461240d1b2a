"""store/storage.py at its edges: the limits on a file's size and a line's
length, the line each refusal names, the YAML kept between runs, the state
file's seal, and atomic writes (0600 unless asked, never through a link,
never half a file, history never rewritten)."""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

import pytest

from adjudicator.errors import DataFileError
from adjudicator.store import storage


def refusal(text: str) -> DataFileError:
    with pytest.raises(DataFileError) as caught:
        storage.parse_yaml(text, "game.yaml")
    return caught.value


def read_refusal(path: Path, max_bytes: int = storage.MAX_BYTES) -> DataFileError:
    with pytest.raises(DataFileError) as caught:
        storage.read_text(path, max_bytes=max_bytes)
    return caught.value


# --- reading -------------------------------------------------------------------------
def test_a_file_of_the_size_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * storage.MAX_BYTES)
    assert len(storage.read_text(path)) == 8 * 1024 * 1024
    path.write_bytes(b"#" * (storage.MAX_BYTES + 1))
    error = read_refusal(path)
    assert error.message == "file is too large (8388609 bytes; the limit is 8388608)"
    path.write_bytes(b"a: 1\n")
    assert storage.read_text(path, max_bytes=5) == "a: 1\n"
    assert "(5 bytes; the limit is 4)" in read_refusal(path, max_bytes=4).message


def test_missing_folder_and_non_utf8_files_are_refused_by_name_and_line(tmp_path: Path) -> None:
    assert read_refusal(tmp_path / "none.yaml").message == "file not found"
    assert read_refusal(tmp_path).message == "file is a folder, not a file"
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"a: 1\nb: 2\nc: caf\xe9\n")
    error = read_refusal(path)
    assert (error.message, error.line, error.file) == ("file is not UTF-8 text", 3, str(path))


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert storage.read_text(path) == "a: 1\n"
    assert storage.read_yaml(path) == {"a": 1}


@pytest.mark.parametrize("last", ["\n", ""])
def test_a_line_of_the_length_limit_is_read_and_one_character_more_is_refused(last: str) -> None:
    line = "a: " + "x" * (storage.MAX_LINE - 3)
    assert storage.parse_yaml(f"b: 1\n{line}{last}", "game.yaml") == {"b": 1, "a": "x" * (20_000 - 3)}
    error = refusal(f"b: 1\nc: 2\n{line}x{last}")
    assert (error.message, error.line) == ("line is too long (20001 characters; the limit is 20000)", 3)


def test_the_first_line_counts_whole() -> None:
    error = refusal("a" * storage.MAX_LINE + "a: 1\n")
    assert (error.message, error.line) == ("line is too long (20004 characters; the limit is 20000)", 1)
    assert refusal("a: " + "x" * (storage.MAX_LINE - 2) + "\n").line == 1


def test_an_empty_first_line_is_a_short_line() -> None:
    text = "\n" + "a: 1\n" + "".join(f"k{n}: {'x' * 90}\n" for n in range(300))
    assert len(text) > storage.MAX_LINE
    assert len(storage.parse_yaml(text, "game.yaml")) == 301
    assert refusal("\na: " + "x" * storage.MAX_LINE + "\n").line == 2


def test_aliases_are_refused_at_their_line_before_anything_is_built() -> None:
    error = refusal("a: 1\nb: &x [1, 2]\nc: *x\n")
    assert (error.line, error.file) == (2, "game.yaml")
    assert error.message == "YAML anchors and aliases (&name, *name) are not allowed"
    assert refusal("a: 1\nb: 2\nc: *x\n").line == 3      # an alias alone
    assert refusal("a: 1\nb: &x 2\n").line == 2           # an anchor alone
    # An '&' or '*' inside a value is not an anchor.
    assert storage.parse_yaml("a: 'x & y * z'\n", "game.yaml") == {"a": "x & y * z"}
    # An anchor after broken YAML: the syntax error is what is reported, at its line.
    broken = refusal("a: 1\n\tb: 2\nc: &x 1\n")
    assert (broken.message, broken.line) == ("malformed YAML: found a tab character that violates indentation", 2)


def test_a_key_given_twice_names_both_lines() -> None:
    error = refusal("a: 1\nb: 2\na: 3\n")
    assert (error.message, error.line, error.file) == ("the key 'a' is given twice (lines 1 and 3)", 3,
                                                       "game.yaml")
    assert refusal("x:\n  a: 1\n  a: 2\n").message == "the key 'a' is given twice (lines 2 and 3)"
    # A key that cannot be a key is the loader's to report, after the keys after it are checked.
    assert refusal("? [a]\n: 1\nb: 1\nb: 2\n").message == "the key 'b' is given twice (lines 3 and 4)"


def test_malformed_yaml_names_the_problem_and_its_line() -> None:
    error = refusal("a: [1, 2\nb: c\n")
    assert (error.message, error.line) == ("malformed YAML: did not find expected ',' or ']'", 2)
    assert refusal("a: 1\n\tb: 2\n").line == 2
    unhashable = refusal("? [a]\n: 1\n")
    assert (unhashable.message, unhashable.line) == ("malformed YAML: found unhashable key", 1)
    # A key nested past what the constructor can recurse through.
    deep = refusal("? " + "[" * 600 + "]" * 600 + "\n: 1\n")
    assert (deep.message, deep.file) == ("YAML is nested too deeply", "game.yaml")
    # A character YAML does not allow: the reader's error has no mark and no problem.
    control = refusal("a: 1\nb: \x07\n")
    assert (control.message, control.line) == ("malformed YAML: malformed YAML", None)


# --- parsed YAML kept between runs ---------------------------------------------------
@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "adjudicator"


def test_a_file_of_the_size_kept_is_kept_and_one_character_less_is_not(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    text = "a: 1\n#"
    path.write_text(text + "x" * (storage.KEEP_MIN_CHARS - len(text) - 1), encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    assert not list(cache.glob("yaml-*"))
    path.write_text(text + "x" * (storage.KEEP_MIN_CHARS - len(text)), encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    assert len(list(cache.glob("yaml-*.marshal"))) == 1
    assert storage.KEEP_MIN_CHARS == 4096


def test_a_cache_file_is_named_by_the_loaders_tag_and_the_texts_checksum(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    text = "a: 1\n#" + "x" * storage.KEEP_MIN_CHARS + "\n"
    path.write_text(text, encoding="utf-8")
    old = os.umask(0)
    try:
        storage.read_yaml(path, keep=True)
    finally:
        os.umask(old)
    [kept] = cache.iterdir()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert re.fullmatch(r"yaml-[0-9a-f]{12}-[0-9a-f]{64}\.marshal", kept.name)
    assert kept.name.endswith(f"-{hashlib.sha256(text.encode('utf-8')).hexdigest()}.marshal")


@pytest.mark.parametrize("value", ["!!binary aGVsbG8=", "!!set {x, y}"])
def test_only_plain_values_are_kept(value: str, cache: Path, tmp_path: Path) -> None:
    """Bytes and sets: marshal could keep them, but only the plain types are."""
    path = tmp_path / "map.yaml"
    path.write_text(f"a: {value}\n#" + "x" * storage.KEEP_MIN_CHARS + "\n", encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"a": b"hello" if "binary" in value else {"x", "y"}}
    assert not list(cache.glob("yaml-*"))


def test_a_cache_file_being_written_by_another_run_is_left_to_it(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    text = "a: 1\n#" + "x" * storage.KEEP_MIN_CHARS + "\n"
    path.write_text(text, encoding="utf-8")
    cache.mkdir(parents=True, mode=0o700)
    name = f"yaml-{storage._KEEP_TAG}-{hashlib.sha256(text.encode('utf-8')).hexdigest()}.marshal"
    (cache / f"{name}.{os.getpid()}.tmp").write_bytes(b"half written")
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    assert [p.name for p in cache.iterdir()] == [f"{name}.{os.getpid()}.tmp"]


def test_a_cache_file_that_cannot_be_put_in_place_nor_cleared_away_is_not_an_error(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "map.yaml"
    path.write_text("a: 1\n#" + "x" * storage.KEEP_MIN_CHARS + "\n", encoding="utf-8")

    def refused(*args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refused)
    monkeypatch.setattr(os, "unlink", refused)
    assert storage.read_yaml(path, keep=True) == {"a": 1}


def test_data_nested_too_deeply_to_keep_is_given_but_not_kept(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 900 + "]" * 900 + "\n#" + "x" * storage.KEEP_MIN_CHARS + "\n", encoding="utf-8")
    data = storage.read_yaml(path, keep=True)
    depth = 0
    while data:
        data, depth = data[0], depth + 1
    assert depth == 899
    assert not list(cache.glob("yaml-*"))


def test_a_cache_file_that_cannot_be_written_leaves_no_temporary_file(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text("a: 1\n#" + "x" * storage.KEEP_MIN_CHARS + "\n", encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"a": 1}     # made the cache folder
    kept = next(cache.glob("yaml-*.marshal"))
    kept.unlink()
    kept.mkdir()
    (kept / "inside").write_text("a folder where the file should be", encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert storage.read_yaml(path, keep=True) == {"a": 1}
    assert [p.name for p in cache.iterdir()] == [kept.name]


# --- writing ---------------------------------------------------------------------------
def test_dump_yaml_is_plain_ordered_unicode_and_folds_at_a_hundred() -> None:
    shared = [1, 2]
    text = storage.dump_yaml({"z": shared, "a": shared, "name": "Kaiser Wilhelm", "é": "ü",
                              "long": "word " * 30})
    assert text == ("z:\n- 1\n- 2\na:\n- 1\n- 2\nname: Kaiser Wilhelm\né: ü\n"
                    "long: 'word word word word word word word word word word word word word word word word word word word\n"
                    "  word word word word word word word word word word word '\n")


def test_dump_yaml_folds_a_long_text_at_the_last_space_within_a_hundred_characters() -> None:
    assert storage.dump_yaml({"k": "ab " * 32 + "x y end"}) == "k: " + "ab " * 32 + "x y\n  end\n"
    assert storage.dump_yaml({"k": "ab " * 33 + "x y end"}) == "k: " + "ab " * 32 + "ab\n  x y end\n"


def test_seal_and_unseal() -> None:
    body = "a: 1\nb: 2\n"
    sealed = storage.seal(body)
    assert sealed.startswith(body) and sealed.count("\n") == 3
    assert storage.unseal(sealed, "s.yaml") == body
    assert storage.unseal(sealed + "\n\n", "s.yaml") == body
    with pytest.raises(DataFileError, match="no end line"):
        storage.unseal(body, "s.yaml")
    with pytest.raises(DataFileError, match="does not match its checksum") as caught:
        storage.unseal(sealed.replace("b: 2", "b: 3"), "s.yaml")
    assert caught.value.line == 3
    assert storage.unseal(storage.seal(""), "s.yaml") == ""


def test_atomic_write_is_private_unless_asked_and_makes_its_folders(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        storage.atomic_write(tmp_path / "a" / "b" / "state.yaml", "x: 1\n")
        storage.atomic_write(tmp_path / "site" / "index.html", b"<p>", mode=0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a" / "b" / "state.yaml").stat().st_mode) == 0o600
    assert (tmp_path / "a" / "b" / "state.yaml").read_text(encoding="utf-8") == "x: 1\n"
    assert stat.S_IMODE((tmp_path / "site" / "index.html").stat().st_mode) == 0o644
    assert (tmp_path / "site" / "index.html").read_bytes() == b"<p>"


def test_atomic_write_never_goes_through_a_link(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "f").write_text("theirs", encoding="utf-8")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "f").symlink_to(tmp_path / "elsewhere" / "f")
    (tmp_path / "linked").symlink_to(tmp_path / "elsewhere")
    for path, link in ((tmp_path / "game" / "f", tmp_path / "game" / "f"),
                       (tmp_path / "linked" / "g", tmp_path / "linked")):
        with pytest.raises(DataFileError, match="symbolic link") as caught:
            storage.atomic_write(path, "mine")
        assert caught.value.file == str(link)
    assert (tmp_path / "elsewhere" / "f").read_text(encoding="utf-8") == "theirs"
    assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == ["f"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "inside").write_text("kept", encoding="utf-8")
    with pytest.raises(DataFileError, match="cannot write") as caught:
        storage.atomic_write(tmp_path / "taken", "new")
    assert caught.value.file == str(tmp_path / "taken")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    assert (tmp_path / "taken" / "inside").read_text(encoding="utf-8") == "kept"


def test_a_failed_write_whose_temporary_file_cannot_be_removed_is_still_one_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "inside").write_text("kept", encoding="utf-8")

    def cannot_unlink(path: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "unlink", cannot_unlink)
    with pytest.raises(DataFileError, match="cannot write"):
        storage.atomic_write(tmp_path / "taken", "new")


def test_history_is_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "history" / "1901-spring-movement.yaml"
    storage.write_new(path, storage.dump_state({"a": 1}))
    with pytest.raises(DataFileError, match="history is never rewritten"):
        storage.write_new(path, storage.dump_state({"a": 2}))
    assert storage.read_state(path) == {"a": 1}
    storage.write_yaml(tmp_path / "plain.yaml", {"b": [1]})
    assert storage.read_yaml(tmp_path / "plain.yaml") == {"b": [1]}
