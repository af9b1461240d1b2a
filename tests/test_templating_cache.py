"""One jinja2 Environment per search path, templates compiled once, and a
game folder's templates/ still overriding the packaged ones file by file,
including an override added or edited after the first render."""

from __future__ import annotations

import os
from pathlib import Path

from adjudicator.output import templating


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
