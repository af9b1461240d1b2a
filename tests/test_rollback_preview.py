"""`rollback` returns a game to the state before a phase without deleting or
rewriting anything; `preview` shows the GM a phase's results and changes nothing."""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
STANDARD = ROOT / "orders" / "standard"
WONDERS = ROOT / "orders" / "seven-wonders"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def contents(snap: dict[str, bytes]) -> list[str]:
    return sorted(hashlib.sha256(data).hexdigest() for data in snap.values())


def play_standard(game: Path) -> None:
    assert invoke("new", str(game))[0] == 0
    for phase in ("spring", "fall", "winter"):
        code, out = invoke("adjudicate", str(game), str(STANDARD / f"1901-{phase}.txt"))
        assert code == 0, out


def test_rollback_moves_everything_after_and_a_rerun_gives_the_same_phase(tmp_path: Path) -> None:
    game = tmp_path / "g"
    play_standard(game)
    before = snapshot(game)
    code, out = invoke("rollback", str(game), "Fall 1901")
    assert code == 0, out
    after = snapshot(game)
    # Nothing deleted or rewritten: the same bytes, some of them in new places.
    assert contents(after) == contents(before)
    kept = {k for k in after if k.startswith("history/superseded/1/")}
    assert {k.removeprefix("history/superseded/1/") for k in kept} == set(before) - set(after)
    assert "reports/1901-fall-movement.txt" not in after and "reports/1901-spring-movement.txt" in after
    assert "history/1901-fall-movement.yaml" in after and "history/1901-winter-adjustment.yaml" not in after
    assert "Fall 1901 Movement" in invoke("status", str(game))[1].splitlines()[0]
    code, out = invoke("adjudicate", str(game), str(STANDARD / "1901-fall.txt"))
    assert code == 0, out
    redone = snapshot(game)
    assert redone["reports/1901-fall-movement.txt"] == before["reports/1901-fall-movement.txt"]
    assert redone["history/1901-winter-adjustment.yaml"] == before["history/1901-winter-adjustment.yaml"]
    # A second rollback keeps the first one's files and numbers itself 2.
    assert invoke("rollback", str(game), "1901-fall-movement")[0] == 0
    assert any(k.startswith("history/superseded/2/") for k in snapshot(game))
    assert any(k.startswith("history/superseded/1/") for k in snapshot(game))


def test_rollback_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    game = tmp_path / "g"
    play_standard(game)
    before = snapshot(game)
    code, out = invoke("rollback", str(game), "1902-spring-movement")
    assert code == 2 and "nothing to roll back" in out
    code, out = invoke("rollback", str(game), "1905 spring")
    assert code == 2 and "no phase '1905 spring'" in out
    assert snapshot(game) == before


def test_preview_changes_nothing_and_matches_the_real_report(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    before = snapshot(game)
    code, out = invoke("preview", str(game), str(STANDARD / "1901-spring.txt"))
    assert code == 0, out
    assert "preview only: nothing was published" in out
    previewed = snapshot(game)
    new_files = set(previewed) - set(before)
    assert new_files and all(k.startswith("gm/preview/1901-spring-movement/") for k in new_files)
    assert {k: previewed[k] for k in before} == before
    assert invoke("adjudicate", str(game), str(STANDARD / "1901-spring.txt"))[0] == 0
    real = (game / "reports" / "1901-spring-movement.txt").read_bytes()
    assert previewed["gm/preview/1901-spring-movement/reports/1901-spring-movement.txt"] == real
    assert real.decode("utf-8") in out


def test_turn_file_game_rollback_and_preview(tmp_path: Path) -> None:
    game = tmp_path / "w"
    assert invoke("new", str(game), "--variant", "seven-wonders", "--players", "alice,bob,carol",
                  "--seed", "7")[0] == 0
    turns = sorted(WONDERS.glob("0[1-3]-*.yaml"))
    code, out = invoke("preview", str(game), str(turns[0]))
    assert code == 0 and "preview only" in out, out
    assert sorted((game / "history").glob("*.yaml")) == [game / "history" / "0001-age1-turn1.yaml"]
    for turn in turns:
        assert invoke("adjudicate", str(game), str(turn))[0] == 0
    before = snapshot(game)
    code, out = invoke("rollback", str(game), "2")
    assert code == 0, out
    assert sorted(p.name for p in (game / "history").glob("*.yaml")) == ["0001-age1-turn1.yaml",
                                                                         "0002-age1-turn2.yaml"]
    for turn in turns[1:]:
        assert invoke("adjudicate", str(game), str(turn))[0] == 0
    again = snapshot(game)
    for key, data in before.items():
        if key.startswith(("reports/", "private/", "history/0")):
            assert again[key] == data, key
