"""One jinja2 Environment per search path, templates compiled once, and a
game folder's templates/ still overriding the packaged ones file by file,
including an override added or edited after the first render. Compiled
templates are kept between runs in the user's cache directory: compiling
them cost ~28 ms of every `adjudicate`."""

from __future__ import annotations

import io
import marshal
import os
import pickle
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest

from adjudicator.output import templating

ROOT = Path(__file__).resolve().parent.parent


def write(path: Path, text: str, mtime: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.utime(path, (mtime, mtime))    # explicit times: an edit is seen whatever the clock's resolution


def test_one_environment_per_search_path(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    write(shared / "t.txt.j2", "hello {{ name }}\n", 1_000_000)
    first = templating.environment(shared)
    assert templating.environment(shared) is first
    assert templating.environment(shared, html=True) is not first
    assert templating.environment(shared, game_folder=tmp_path / "no-such-game") is first


def test_template_compiled_once(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    write(shared / "t.txt.j2", "hello {{ name }}\n", 1_000_000)
    assert templating.render("t.txt.j2", {"name": "a"}, shared) == "hello a\n"
    compiled = templating.environment(shared).get_template("t.txt.j2")
    assert templating.render("t.txt.j2", {"name": "b"}, shared) == "hello b\n"
    assert templating.environment(shared).get_template("t.txt.j2") is compiled


def test_game_folder_overrides_file_by_file(tmp_path: Path) -> None:
    shared, game = tmp_path / "shared", tmp_path / "game"
    write(shared / "a.txt.j2", "packaged a\n", 1_000_000)
    write(shared / "b.txt.j2", "packaged b\n", 1_000_000)
    write(game / "templates" / "a.txt.j2", "game a\n", 1_000_000)
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "game a\n"
    assert templating.render("b.txt.j2", {}, shared, game_folder=game) == "packaged b\n"
    assert templating.render("a.txt.j2", {}, shared) == "packaged a\n"


def test_override_added_edited_and_removed_later(tmp_path: Path) -> None:
    shared, game = tmp_path / "shared", tmp_path / "game"
    write(shared / "a.txt.j2", "packaged a\n", 1_000_000)
    write(game / "templates" / "other.txt.j2", "other\n", 1_000_000)
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "packaged a\n"
    write(game / "templates" / "a.txt.j2", "game a\n", 1_000_000)
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "game a\n"
    write(game / "templates" / "a.txt.j2", "game a, edited\n", 2_000_000)
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "game a, edited\n"
    (game / "templates" / "a.txt.j2").unlink()
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "packaged a\n"


# --- compiled templates kept between runs, in the user's cache directory ---------------------------
@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A cache home of the test's own, and no Environment left from before
    (clearing them is what a new process sees)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    templating._environment.cache_clear()
    yield tmp_path / "xdg" / "adjudicator"
    templating._environment.cache_clear()


def cached_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("jinja2-*.cache"))


def refuse_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    def compile_(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled, not loaded from the cache")
    monkeypatch.setattr(jinja2.Environment, "compile", compile_)


def test_cache_directory_is_the_users_and_private(fresh: Path) -> None:
    assert templating.cache_dir() == fresh
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o700


def test_no_xdg_cache_home_means_home_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert templating.cache_dir() == tmp_path / "home" / ".cache" / "adjudicator"


def test_template_compiled_once_per_machine(fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    write(shared / "t.txt.j2", "hello {{ name }}\n", 1_000_000)
    assert templating.render("t.txt.j2", {"name": "a"}, shared) == "hello a\n"
    assert len(cached_files(fresh)) == 1
    templating._environment.cache_clear()           # a new run
    refuse_to_compile(monkeypatch)
    assert templating.render("t.txt.j2", {"name": "b"}, shared) == "hello b\n"


def test_html_and_text_compile_apart(fresh: Path, tmp_path: Path) -> None:
    """jinja2's cache key ignores autoescape: the file names must not."""
    shared = tmp_path / "shared"
    write(shared / "t.j2", "{{ s }}\n", 1_000_000)
    assert templating.environment(shared).get_template("t.j2").render(s="<b>") == "<b>\n"
    assert templating.environment(shared, html=True).get_template("t.j2").render(s="<b>") == "&lt;b&gt;\n"
    templating._environment.cache_clear()
    assert templating.environment(shared, html=True).get_template("t.j2").render(s="<b>") == "&lt;b&gt;\n"
    assert templating.environment(shared).get_template("t.j2").render(s="<b>") == "<b>\n"
    assert len(cached_files(fresh)) == 2


def test_edited_game_override_is_compiled_again(fresh: Path, tmp_path: Path) -> None:
    """The cache checks the source itself, not its time: an edit shows at the
    next run even with the old modification time."""
    shared, game = tmp_path / "shared", tmp_path / "game"
    write(shared / "a.txt.j2", "packaged a\n", 1_000_000)
    write(game / "templates" / "a.txt.j2", "game a\n", 1_000_000)
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "game a\n"
    templating._environment.cache_clear()
    write(game / "templates" / "a.txt.j2", "game a, edited\n", 1_000_000)
    assert templating.render("a.txt.j2", {}, shared, game_folder=game) == "game a, edited\n"
    assert not list(game.rglob("*.cache"))             # nothing cached in the game folder


@pytest.mark.parametrize("spoil", ["a file", "others may write", "no home"])
def test_unusable_cache_directory_falls_back(spoil: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    templating._environment.cache_clear()
    xdg = tmp_path / "xdg"
    xdg.mkdir()
    if spoil == "a file":
        (xdg / "adjudicator").write_text("not a directory")
    elif spoil == "others may write":
        (xdg / "adjudicator").mkdir()
        (xdg / "adjudicator").chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg) if spoil != "no home" else "")
    if spoil == "no home":
        monkeypatch.setattr(Path, "home", lambda: (_ for _ in ()).throw(RuntimeError("no home")))
    assert templating.cache_dir() is None
    shared = tmp_path / "shared"
    write(shared / "t.txt.j2", "hello {{ name }}\n", 1_000_000)
    assert templating.render("t.txt.j2", {"name": "a"}, shared) == "hello a\n"
    assert templating.environment(shared).bytecode_cache is None
    templating._environment.cache_clear()


def test_damaged_or_unwritable_cache_files_are_not_an_error(fresh: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    write(shared / "t.txt.j2", "hello {{ name }}\n", 1_000_000)
    assert templating.render("t.txt.j2", {"name": "a"}, shared) == "hello a\n"
    for damage in (b"", b"garbage", cached_files(fresh)[0].read_bytes()[:40]):
        cached_files(fresh)[0].write_bytes(damage)
        templating._environment.cache_clear()
        assert templating.render("t.txt.j2", {"name": "b"}, shared) == "hello b\n"
    templating._environment.cache_clear()
    monkeypatch.setattr(os, "replace", lambda *args: (_ for _ in ()).throw(PermissionError(13, "denied")))
    cached_files(fresh)[0].unlink()
    assert templating.render("t.txt.j2", {"name": "c"}, shared) == "hello c\n"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in ("seal.key", "seals.txt")}


@pytest.mark.parametrize("variant, orders", [("standard", "standard/1901-spring.txt"),
                                             ("ambition-empire", "ambition-empire/1763-spring.txt")])
def test_reports_identical_with_and_without_the_cache(tmp_path: Path, variant: str, orders: str) -> None:
    """A phase adjudicated with no user cache, with a cold one and with a warm
    one (compiled templates, and the parsed map and variant files: see
    tests/test_yaml_kept.py): the same bytes in every file, and nothing of the
    cache in the game folder."""
    (tmp_path / "none").write_text("a file where the cache directory would be")
    results = []
    for name, xdg in [("none", tmp_path / "none"), ("cold", tmp_path / "xdg"), ("warm", tmp_path / "xdg")]:
        env = dict(os.environ, XDG_CACHE_HOME=str(xdg))
        game = tmp_path / "games" / name / "g"
        for args in (["new", str(game), "--variant", variant], ["adjudicate", str(game), str(ROOT / "orders" / orders)]):
            subprocess.run([sys.executable, "-m", "adjudicator", *args], env=env, check=True, capture_output=True)
        results.append(snapshot(game))
        assert not [p for p in game.rglob("*") if p.suffix in (".marshal", ".cache")]
    assert len(cached_files(tmp_path / "xdg" / "adjudicator")) == 3
    assert list((tmp_path / "xdg" / "adjudicator").glob("yaml-*.marshal"))     # the map, its geometry, the variant
    assert results[0] == results[1] == results[2]


def test_only_the_current_compiled_templates_are_kept(fresh: Path, tmp_path: Path) -> None:
    """When a template is compiled, the cache drops every file that is not
    current: compiled by another jinja2 or with other options (another tag),
    or from a template file that is gone (a game folder deleted, an
    override removed). The current ones stay, however long unused."""
    shared, game = tmp_path / "shared", tmp_path / "game"
    write(shared / "used.txt.j2", "used\n", 1_000_000)
    write(shared / "new.txt.j2", "new\n", 1_000_000)
    write(game / "templates" / "used.txt.j2", "the game's\n", 1_000_000)
    assert templating.render("used.txt.j2", {}, shared) == "used\n"
    assert templating.render("used.txt.j2", {}, shared, game_folder=game) == "the game's\n"
    kept, override = cached_files(fresh)
    if b"game" in kept.read_bytes().split(b"\n", 1)[0]:
        kept, override = override, kept
    long_ago = 1_000_000.0
    os.utime(kept, (long_ago, long_ago))
    stale_tag = fresh / "jinja2-0123456789ab-0000.cache"
    stale_tag.write_bytes(str(shared / "used.txt.j2").encode() + b"\ncompiled by another jinja2")
    other = fresh / "not-ours.txt"
    other.write_text("kept")
    (game / "templates" / "used.txt.j2").unlink()
    assert templating.render("new.txt.j2", {}, shared) == "new\n"        # compiled: the cache keeps what is current
    assert kept.exists() and other.exists()
    assert not stale_tag.exists() and not override.exists()
    assert len(cached_files(fresh)) == 2


def test_a_cache_file_begins_with_its_templates_path(fresh: Path, tmp_path: Path) -> None:
    """So that the cache can tell when the template is gone. A file without
    it (an older cache's) is compiled again and written anew."""
    shared = tmp_path / "shared"
    write(shared / "t.txt.j2", "hello {{ name }}\n", 1_000_000)
    assert templating.render("t.txt.j2", {"name": "a"}, shared) == "hello a\n"
    [cached] = cached_files(fresh)
    head, body = cached.read_bytes().split(b"\n", 1)
    assert head == str(shared / "t.txt.j2").encode()
    cached.write_bytes(body)
    templating._environment.cache_clear()
    assert templating.render("t.txt.j2", {"name": "b"}, shared) == "hello b\n"
    # Written anew with its path first. The compiled body is compared as
    # code, not bytes: marshal's output for the same code differs between
    # compilations on Python 3.10.
    rewritten_head, rewritten_body = cached.read_bytes().split(b"\n", 1)
    assert rewritten_head == head
    assert compiled(rewritten_body) == compiled(body)


def compiled(body: bytes) -> tuple[str, bytes]:
    """A cache file's body as jinja2 writes it (its magic, the source's
    checksum pickled, the code marshalled): the checksum and the bytecode."""
    stream = io.BytesIO(body)
    assert stream.read(len(jinja2.bccache.bc_magic)) == jinja2.bccache.bc_magic
    checksum = pickle.load(stream)
    code = marshal.load(stream)
    return checksum, code.co_code
