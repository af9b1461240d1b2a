"""Players and powers (issue 11 item 4): list, remove, replace, missed phases."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.folder import players


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hashing is not under test here; argon2 at OWASP's cost would slow the file."""
    from argon2 import PasswordHasher
    monkeypatch.setattr(players, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_list_remove_replace_and_missed_phases(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("player", "add", str(game), "France", "--name", "Ann Lee", "--email", "ann@example.org",
                  "--password", "pw1-long-enough")[0] == 0
    assert invoke("player", "add", str(game), "England", "--name", "Bob", "--email", "bob@example.org",
                  "--password", "pw2-long-enough")[0] == 0
    rows = invoke("player", "list", str(game))[1]
    assert "France: Ann Lee <ann@example.org>; orders waiting; missed in a row: 0" in rows
    assert "Austria: no player; orders waiting" in rows
    orders = tmp_path / "o.txt"
    for turn in range(2):
        orders.write_text(f"# turn {turn}\nFrance:\nA par H\n")
        assert invoke("adjudicate", str(game), str(orders), "--nmr")[0] == 0
    rows = invoke("player", "list", str(game))[1]
    assert "England: Bob <bob@example.org>; orders waiting; missed in a row: 2" in rows
    assert "France: Ann Lee <ann@example.org>; orders waiting; missed in a row: 0" in rows
    status = invoke("status", str(game))[1]
    assert "England has missed 2 phases in a row" in status and "no civil disorder in this variant" in status
    code, out = invoke("player", "replace", str(game), "England", "--name", "Cy", "--email", "cy@example.org",
                       "--password", "pw3-long-enough")
    assert code == 0 and "before: Bob until 1902-spring-movement" in out, out
    entry = next(p for p in yaml.safe_load((game / "game.yaml").read_text())["players"] if p["power"] == "england")
    assert entry["email"] == "cy@example.org" and entry["previous"][0]["email"] == "bob@example.org"
    assert players.verify(entry, "pw3-long-enough") and not players.verify(entry, "pw2-long-enough")
    assert invoke("player", "remove", str(game), "France")[0] == 0
    assert "France: no player" in invoke("player", "list", str(game))[1]
    code, out = invoke("player", "remove", str(game), "France")
    assert code == 2 and "no player to remove" in out


def test_a_power_in_civil_disorder_takes_no_player(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game), "--variant", "ambition-empire")[0] == 0
    assert invoke("civil-disorder", str(game), "England")[0] == 0
    code, out = invoke("player", "add", str(game), "England", "--name", "Dee", "--email", "dee@example.org",
                       "--password", "pw-long-enough")
    assert code == 2 and "out of play (civil disorder)" in out


def test_turn_file_games_have_seats(tmp_path: Path) -> None:
    """Issue 10: player add failed for turn-file games with "missing 'map'"."""
    game = tmp_path / "w"
    assert invoke("new", str(game), "--variant", "seven-wonders", "--players", "alice,bob,carol")[0] == 0
    code, out = invoke("player", "add", str(game), "alice", "--name", "Alice A", "--email", "alice@example.org",
                       "--password", "x-long-enough")
    assert code == 0, out
    assert players.find_by_email(game, "alice@example.org")["power"] == "alice"
    rows = invoke("player", "list", str(game))[1]
    assert "alice: Alice A <alice@example.org>; orders waiting" in rows
    code, out = invoke("player", "add", str(game), "zed", "--name", "Z", "--email", "z@example.org",
                       "--password", "x-long-enough")
    assert code == 2 and "no such player 'zed'" in out
    assert invoke("status", str(game))[0] == 0
