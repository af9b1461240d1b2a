"""The game folder's guards against a careless or hostile hand: no write
through a symbolic link, a game name or gm_email that would break a mail
header, a history file swapped or edited (the keyed seal), names that only
look alike, passwords too short to resist guessing, and a GM template that
fails. Each ends with one line naming the file, exit code 2, and nothing
written."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.folder import players
from adjudicator.store import seal, storage

ROOT = Path(__file__).resolve().parent.parent
SPRING = ROOT / "orders" / "standard" / "1901-spring.txt"
FALL = ROOT / "orders" / "standard" / "1901-fall.txt"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink() and p.name != ".lock"}


def error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("error:")]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = tmp_path_factory.mktemp("tpl") / "game"
    assert invoke("new", str(game))[0] == 0
    return game


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(template, tmp_path / "game"))


# --- symbolic links ------------------------------------------------------------------
@pytest.mark.parametrize("link, points_to", [
    ("maps/1901-spring-movement.svg", "../game.yaml"),          # the map written over the roster
    ("reports", "../elsewhere"),                                # a whole folder elsewhere
    ("private/france/1901-spring-movement.txt", "../../game.yaml"),
])
def test_no_write_through_a_symbolic_link(game: Path, link: str, points_to: str) -> None:
    (game.parent / "elsewhere").mkdir()
    path = game / link
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(points_to, path)
    roster = (game / "game.yaml").read_bytes()
    before = snapshot(game)
    code, out = invoke("adjudicate", str(game), str(SPRING))
    assert code == 2, out
    assert len(error_lines(out)) == 1 and "symbolic link" in out and link.split("/")[0] in out
    assert (game / "game.yaml").read_bytes() == roster
    assert snapshot(game) == before and not list((game.parent / "elsewhere").iterdir())


# --- game.yaml fields that reach headers -------------------------------------------
@pytest.mark.parametrize("key, value", [("name", "demo\nBcc: all@example.org"), ("name", "demo\r"),
                                        ("gm_email", "judge@example.org\r\nBcc: x@example.org"),
                                        ("gm_email", "not an address")])
def test_a_line_break_in_name_or_gm_email_is_exit_2_with_file_and_line(game: Path, key: str, value: str) -> None:
    players.add_player(game, "france", "Ann", "ann@example.org", "long-enough-pw")
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    meta[key] = value
    (game / "game.yaml").write_text(yaml.safe_dump(meta, sort_keys=False), encoding="utf-8")
    line = next(n for n, text in enumerate((game / "game.yaml").read_text().splitlines(), 1)
                if text.startswith(key + ":"))
    box = game.parent / "box.eml"
    box.write_bytes(b"From: ann@example.org\nTo: judge@example.org\nSubject: orders\n"
                    b"Message-ID: <a@example.org>\n\npassword: long-enough-pw\nA par - bur\n")
    for args in (("ingest", str(game), str(box)), ("status", str(game)), ("adjudicate", str(game), str(SPRING))):
        code, out = invoke(*args)
        assert code == 2, out
        assert error_lines(out) == [l for l in out.splitlines() if l.startswith("error:")]
        assert f"game.yaml:{line}:" in out and key in out, out


# --- the keyed seal of the history ---------------------------------------------------------
def test_a_swapped_or_edited_history_file_is_refused_but_a_player_can_still_check(game: Path,
                                                                                tmp_path: Path) -> None:
    assert invoke("adjudicate", str(game), str(SPRING))[0] == 0
    other = tmp_path / "other"
    assert invoke("new", str(other))[0] == 0
    assert invoke("adjudicate", str(other), str(SPRING))[0] == 0
    fall = game / "history" / "1901-fall-movement.yaml"
    mailed = tmp_path / "1901-fall-movement.yaml"
    shutil.copy(fall, mailed)                                   # what the player got by mail
    orders = tmp_path / "mine.txt"
    orders.write_text("France:\nA bur - mun\n", encoding="utf-8")
    # 1. Another game's file of the same phase, whole and with a good checksum line.
    shutil.copy(other / "history" / "1901-fall-movement.yaml", fall)
    # (the two games had the same orders: make the other's differ, as a real swap would)
    text = fall.read_text(encoding="utf-8").rsplit(storage.SEAL_PREFIX, 1)[0]
    fall.write_text(storage.seal(text.replace("bur", "pic", 1)), encoding="utf-8")
    for args in (("status", str(game)), ("adjudicate", str(game), str(FALL))):
        code, out = invoke(*args)
        assert code == 2 and "keyed seal" in out and "1901-fall-movement.yaml" in out, out
    # 2. A history file added by hand is refused too.
    shutil.copy(mailed, fall)
    assert invoke("status", str(game))[0] == 0
    (game / "history" / "1905-spring-movement.yaml").write_bytes(mailed.read_bytes())
    code, out = invoke("status", str(game))
    assert code == 2 and "keyed seal" in out
    (game / "history" / "1905-spring-movement.yaml").unlink()
    # The player's offline check reads the public checksum only.
    code, out = invoke("check", "--state", str(mailed), "--power", "France", str(orders))
    assert code == 0, out
    # The GM's deliberate repair is sealed by `seal`.
    fall.write_text(storage.seal(text.replace("bur", "pic", 1)), encoding="utf-8")
    assert invoke("seal", str(game))[0] == 0
    assert invoke("status", str(game))[0] == 0
    assert (game / seal.KEY).stat().st_mode & 0o077 == 0


def test_an_older_game_without_a_key_is_sealed_at_its_next_phase(game: Path) -> None:
    (game / seal.KEY).unlink()
    (game / seal.SEALS).unlink()
    assert invoke("adjudicate", str(game), str(SPRING))[0] == 0
    sealed = seal.read_seals(game)
    assert sorted(sealed) == ["1901-fall-movement.yaml", "1901-spring-movement.yaml"]


# --- names that look alike ----------------------------------------------------------
@pytest.mark.parametrize("first, second", [("Bob", "B\u043eb"), ("Ann Lee", "\u0410nn Lee"), ("carol", "caroI"),
                                           ("Zo\u00eb", "Z\u03bf\u00eb"), ("Ann", "ann")])
def test_a_name_that_looks_like_another_players_is_refused(game: Path, first: str, second: str) -> None:
    players.add_player(game, "france", first, "a@example.org", "long-enough-pw")
    code, out = invoke("player", "add", str(game), "england", "--name", second, "--email", "b@example.org",
                       "--password", "long-enough-pw")
    assert code == 2 and "looks like" in out or "already in the game" in out, out
    assert "b@example.org" not in (game / "game.yaml").read_text(encoding="utf-8")


def test_distinct_names_in_several_scripts_are_taken(game: Path) -> None:
    for power, name in (("france", "Bob"), ("england", "Bobby"), ("russia", "Борис"), ("turkey", "李小龍")):
        players.add_player(game, power, name, f"{power}@example.org", "long-enough-pw")


def test_turn_file_seats_that_look_alike_are_refused(tmp_path: Path) -> None:
    code, out = invoke("new", str(tmp_path / "w"), "--variant", "seven-wonders", "--players", "alice,\u0430lice,bob")
    assert code == 2 and "looks like 'alice'" in out, out
    assert not (tmp_path / "w" / "game.yaml").exists()


# --- passwords ----------------------------------------------------------------------
def test_a_chosen_password_under_ten_characters_is_refused(game: Path) -> None:
    for args in (("player", "add", str(game), "france", "--name", "Ann", "--email", "a@example.org",
                  "--password", "123456789"),
                 ("player", "replace", str(game), "france", "--name", "Ann", "--email", "a@example.org",
                  "--password", "short")):
        code, out = invoke(*args)
        assert code == 2 and "at least 10" in out, out
    assert "a@example.org" not in (game / "game.yaml").read_text(encoding="utf-8")
    code, out = invoke("player", "add", str(game), "france", "--name", "Ann", "--email", "a@example.org",
                       "--generate-password")
    assert code == 0
    made = out.split("password: ")[1].split()[0]
    assert len(made) >= 12 and made not in (game / "game.yaml").read_text(encoding="utf-8")
    entry = players.find_by_email(game, "a@example.org")
    assert entry is not None and players.verify(entry, made)
    code, out = CliRunner().invoke(cli, ["player", "passwd", str(game), "france"], input="short\nshort\n").exit_code, ""
    assert code == 2


def test_generated_passwords_are_long_and_differ() -> None:
    made = {players.generate_password() for _ in range(200)}
    assert len(made) == 200 and all(len(p) >= 12 and players.check_chosen_password(p) for p in made)


# --- a GM's template that fails -------------------------------------------------------
@pytest.mark.parametrize("content, says", [
    (b"{{ 1 // 0 }}\n", "ZeroDivisionError"),
    ("Caf\u00e9 {{ game }}\n".encode("latin-1"), "not UTF-8"),
    (b"line one\n{{ 1 + 'x' }}\n", "TypeError"),
])
def test_a_failing_template_is_exit_2_naming_it(game: Path, content: bytes, says: str) -> None:
    override = game / "templates" / "diplomacy" / "report.txt.j2"
    override.parent.mkdir(parents=True)
    override.write_bytes(content)
    before = snapshot(game)
    code, out = invoke("adjudicate", str(game), str(SPRING))
    assert code == 2, out
    lines = error_lines(out)
    assert len(lines) == 1 and "report.txt.j2" in lines[0] and says in lines[0], out
    if says == "ZeroDivisionError":
        assert "report.txt.j2:1:" in lines[0]
    assert snapshot(game) == before
